"""The CP-SAT engine: the rules as constraints of a stable-assignment model (stage 3, defining engine).

Each pool admits a merit prefix of its eligible candidates (monotone literals ``a[p][k] => a[p][k-1]``); a
candidate holds the first pool in their preference order that admits them; a pool may leave someone eligible
unadmitted only when it is full (`model`). Horizontal minimums split a compartment's prefix by trait signature
(`horizontal`). The greedy's answer is a hint (`hint`), which makes the solve a certificate; `solve` runs the
model group by group in the turn the pools are filled; `size` refuses a model the machine cannot hold.
"""
from .size import BYTES_PER_PAIR, available_memory, check_model_size
from .solve import solve_cpsat, solve_model

__all__ = ["BYTES_PER_PAIR", "available_memory", "check_model_size", "solve_cpsat", "solve_model"]
