"""The carry-forward register: what a year leaves to the next.

`outcome` turns a solved year into events on carried items and new items (the inverse of carry-in);
`store` keeps them in SQLite, one transaction per year, with versioned schema migrations."""
from .outcome import YearRecord, year_record
from .store import Register

__all__ = ["Register", "YearRecord", "year_record"]
