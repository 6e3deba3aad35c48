"""Engines turn seat pools into an assignment (stage 3 of the chain): `greedy` replays the official
procedure; `cpsat` states the rules as constraints. Both return an `Assignment`."""
from .assignment import Assignment

__all__ = ["Assignment"]
