"""Aarakshan: allocation under Indian reservation law.

The folders read as the chain and the layers around it:

- the inputs: `policy` (policy files), `io` (readers, staged outputs), `data` (the immutable problem);
- the chain: `chain` (vacancy determination -> seat pools -> engine -> inverse; `chain.solve.solve`);
- the outcome: `outcome` (the result in the law's terms, reasons, output files, charts) and `verify`, the
  judge that reads only the policy, the inputs and the allocation;
- the applications: `runs` (a year, a run of years) over `register`, the exam pipeline's steps (`exam`),
  the audit (`audit`), and the studies of many runs (`study`: sweeps, compare, the annual report, surrender);
- `cli`, the command line over all of it.
"""
__all__ = ["Policy", "Problem", "Solution", "load_policy", "read_problem", "solve"]
__version__ = "0.1.0"

# Imported on first use, so that the command line starts without OR-Tools, pandas or the policy schema.
# (No module of this package is named as one of these: the import system sets a package's attribute to a
# submodule once it is imported, which would make `from solver import solve` a module or a function by import
# order.)
_HOME = {"Policy": ".policy", "load_policy": ".policy", "Solution": ".chain.solve", "solve": ".chain.solve",
         # the inputs read and validated once (files, Arrow tables or DataFrames): pass the Problem to solve()
         "read_problem": ".io.readers", "Problem": ".data.problem"}


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(_HOME[name], __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted([*globals(), *_HOME])
