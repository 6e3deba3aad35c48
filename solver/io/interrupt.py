"""What a stop (SIGTERM, Ctrl-C) leaves behind. The command ends at once where it can: its staging folders
removed, nothing published, and the process left by `os._exit` without unwinding (freeing a CP-SAT model of
millions of variables took three seconds of the stop). Where the run holds something only unwinding puts right
(a register transaction or its publishing, a register this run created, worker processes), the stop unwinds
instead: the transaction rolls back, the new register is removed, the workers are shut down.

The library marks those spans with `unwinding()`; `solver.cli.main`'s handler asks `must_unwind()`.

Publishing outputs (a rename, or a few renames file by file) is marked `publishing()`: a stop that comes then
is held until the outputs are in place (`hold`), and is then sent again, so that what the stop says is true:
the outputs written in full (`published()`), or nothing."""
from __future__ import annotations

import os
import signal
from contextlib import contextmanager

_HOLDS = [0]
_PUBLISHING = [0]
_HELD: list[int] = []           # stops that came while outputs were being published
_PUBLISHED: list[str] = []      # outputs this run put in place
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


@contextmanager
def publishing(out):
    """Outputs being put in place at `out`: a stop waits for the end, then takes effect."""
    _PUBLISHING[0] += 1
    try:
        yield
        _PUBLISHED.append(str(out))
    finally:
        _PUBLISHING[0] -= 1
    if _HELD and not _PUBLISHING[0]:
        os.kill(os.getpid(), _HELD.pop())     # (the handler runs again, now with the outputs in place)


def hold(signum: int) -> bool:
    """True, and the stop kept for later, where outputs are being published."""
    if _PUBLISHING[0] and signum in (signal.SIGTERM, signal.SIGINT):
        _HELD[:] = [signum]
        return True
    return False


def published() -> list[str]:
    """The outputs this run put in place, in order."""
    return list(_PUBLISHED)
