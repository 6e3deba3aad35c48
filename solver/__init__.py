"""Aarakshan: allocation under Indian reservation law.

The chain (each stage a module): policy + inputs (`policy`, `io`) -> vacancy determination (`vacancy`)
-> seat pools (`pools`) -> engine (`engines.greedy`, `engines.cpsat`) -> allocation (`result`)
-> verification (`verify`) -> reports (`reports`).
"""
__all__ = ["Policy", "Problem", "Solution", "load_policy", "read_problem", "solve"]
__version__ = "0.1.0"

# Imported on first use, so that the command line starts without OR-Tools, pandas or the policy schema.
# (`solver.sweep` is the module, `solver.sweep.sweep` its function: a lazy name for the function was replaced
# by the module whenever the module was imported first, so the name meant one or the other by import order.)
_HOME = {"Policy": ".policy", "load_policy": ".policy", "Solution": ".solve", "solve": ".solve",
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


class _Package(__import__("types").ModuleType):
    """`solver.solve` is the function, whichever is imported first: the import system sets a package's
    attribute to a submodule once the submodule is imported, which would make `from solver import solve` the
    module `solver.solve` where something imported it before (the functions of that module stay importable
    from it: `from solver.solve import run_engine`)."""

    def __setattr__(self, name, value):
        if name == "solve" and isinstance(value, __import__("types").ModuleType):
            return
        super().__setattr__(name, value)


__import__("sys").modules[__name__].__class__ = _Package
