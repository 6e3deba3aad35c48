"""What a stop (SIGTERM, Ctrl-C) leaves behind. The command ends at once where it can: its staging folders
removed, nothing published, and the process left by `os._exit` without unwinding (freeing a CP-SAT model of
millions of variables took three seconds of the stop). Where the run holds something only unwinding puts right
(a register transaction or its publishing, a register this run created, worker processes), the stop unwinds
instead: the transaction rolls back, the new register is removed, the workers are shut down.

The library marks those spans with `unwinding()`; `solver.cli.main`'s handler asks `must_unwind()`."""
from __future__ import annotations

from contextlib import contextmanager

_HOLDS = [0]
_NEW_REGISTERS: set[str] = set()


@contextmanager
def unwinding():
    """A span a stop must unwind through (a register write, a pool of worker processes)."""
    _HOLDS[0] += 1
    try:
        yield
    finally:
        _HOLDS[0] -= 1


def new_register(path, created: bool) -> None:
    """A register file this run created (removed by unwinding if the run stops before its first year), or no
    longer so (`created` False: recorded, or removed)."""
    (_NEW_REGISTERS.add if created else _NEW_REGISTERS.discard)(str(path))


def must_unwind() -> bool:
    return _HOLDS[0] > 0 or bool(_NEW_REGISTERS)
