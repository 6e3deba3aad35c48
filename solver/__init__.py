"""Aarakshan: allocation under Indian reservation law.

The chain (each stage a module): policy + inputs (`policy`, `io`) -> vacancy determination (`vacancy`)
-> seat pools (`pools`) -> engine (`engines.greedy`, `engines.cpsat`) -> allocation (`result`)
-> verification (`verify`) -> reports (`reports`).
"""
from .policy import Policy, load_policy
from .solve import Solution, solve
from .sweep import sweep

__all__ = ["Policy", "Solution", "load_policy", "solve", "sweep"]
__version__ = "0.1.0"
