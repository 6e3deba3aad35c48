"""The `aarakshan` command (SPEC.md, "Commands"); exit codes 0 done, 1 violations, 2 bad input, 3 policy cannot
be satisfied, 4 time limit reached.

A thin layer: each command group's module parses its options, calls the library (`solver.runs` and the
applications) and prints. The library is imported inside the commands, so that `aarakshan --help` and a bad
option load neither OR-Tools nor pandas nor the policy schema."""
from __future__ import annotations

import typer

from . import solve, verify, study, sweeps, years, audit, tools, stages  # noqa: F401, I001  (each registers its commands on `app`, in this order)
from .common import app, err


def _version(value: bool) -> None:
    if value:
        from .. import __version__
        typer.echo(f"aarakshan {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and exit")):
    """Allocation under Indian reservation law: solve, verify, rosters."""


def main():
    """The installed command: `app` with SIGTERM and Ctrl-C ending the run cleanly (exit 143 and 130, scratch
    folders removed, the register untouched: its transaction rolls back), and the exit code the documented one
    every time."""
    import signal

    def stop(signum, frame):
        from ..io.interrupt import hold, must_unwind, published
        if hold(signum):           # (outputs being put in place: the stop takes effect once they are)
            return
        if must_unwind():          # (a register write, a new register, worker processes: see solver.io.interrupt)
            if signum == signal.SIGINT:
                raise KeyboardInterrupt
            raise SystemExit(128 + signum)
        from ..io.staging import abandon
        abandon()
        err.print(f"[yellow]stopped[/]: {_what_was_written(published())}", highlight=False)
        _exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    import sys

    from ..io.invocation import COMMAND
    COMMAND[:] = ["aarakshan", *sys.argv[1:]]
    code = 0
    try:
        app()
    except KeyboardInterrupt:
        from ..io.interrupt import published
        err.print(f"[yellow]interrupted[/]: {_what_was_written(published())}", highlight=False)
        code = 130
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except MemoryError:     # (the machine's limit, not a bug: said as such, exit 3 as for a model too large)
        from ..io.staging import abandon
        abandon()
        err.print("[bold red]error[/]: the machine ran out of memory; nothing was written. Use --engine greedy (the "
                  "reference procedure, which verify checks independently) where CP-SAT was asked for, or a machine "
                  "with more memory", highlight=False)
        code = 3
    except BaseException:   # (a bug: its traceback, and the interpreter's code for an uncaught exception)
        import traceback
        traceback.print_exc()
        code = 1
    _exit(code)


def _what_was_written(done: list[str]) -> str:
    from rich.markup import escape
    if not done:
        return "nothing was written"
    return f"{escape(', '.join(done))} written in full before the stop; nothing more was written"


def _exit(code: int) -> None:
    """Leave with `code` once the work is done and said. The interpreter's own exit runs the native libraries'
    static destructors, and Arrow's thread pool torn down there aborted about one run in thirty ("terminate called
    without an active exception", exit 134 after the right message): a pipeline would read a refusal as a crash,
    or an allocation `verify` accepted as rejected. Everything this process writes is closed by then (the
    staging folders published or removed, the register's transaction ended), so the streams are flushed and the
    process ends here."""
    import logging
    import os
    import sys
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


__all__ = ["app", "main"]
