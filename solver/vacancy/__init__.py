"""Vacancy determination: rosters split TOTAL rows, the ceiling is checked (stage 1 of the chain)."""
from .determine import SeatTable, determine_seats
from .roster import roster

__all__ = ["SeatTable", "determine_seats", "roster"]
