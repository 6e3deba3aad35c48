"""Aarakshan: allocation under Indian reservation law.

The chain (each stage a module): policy + inputs (`policy`, `io`) -> vacancy determination (`vacancy`)
-> seat pools (`pools`) -> engine (`engines.greedy`, `engines.cpsat`) -> allocation (`result`)
-> verification (`verify`) -> reports (`reports`).
"""
__all__ = ["Policy", "Problem", "Solution", "load_policy", "read_problem", "solve", "sweep"]
__version__ = "0.1.0"

# Imported on first use, so that the command line starts without OR-Tools, pandas or the policy schema.
_HOME = {"Policy": ".policy", "load_policy": ".policy", "Solution": ".solve", "solve": ".solve", "sweep": ".sweep",
         # the inputs read and validated once (files, Arrow tables or DataFrames): pass the Problem to solve()
         "read_problem": ".io.readers", "Problem": ".problem"}


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(_HOME[name], __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted([*globals(), *_HOME])
