"""Vacancy determination: rosters split TOTAL rows, carried vacancies join, the ceiling is checked
(stage 1 of the chain)."""
from .carried import Carried, YearState
from .determine import determine_seats
from .seats import SeatTable
from .roster import replacement, roster, running

__all__ = ["Carried", "SeatTable", "YearState", "determine_seats", "replacement", "roster", "running"]
