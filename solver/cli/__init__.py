"""The `aarakshan` command (SPEC.md, "Commands"); exit codes 0 done, 1 violations, 2 bad input, 3 policy cannot
be satisfied, 4 time limit reached.

A thin layer: each command group's module parses its options, calls the library (`solver.runs` and the
applications) and prints. The library is imported inside the commands, so that `aarakshan --help` and a bad
option load neither OR-Tools nor pandas nor the policy schema."""
from __future__ import annotations

import typer

from . import solve, study, years, audit, tools  # noqa: F401, I001  (each registers its commands on `app`, in this order)
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
    folders removed, the register untouched: its transaction rolls back)."""
    import signal

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    try:
        app()
    except KeyboardInterrupt:
        err.print("[yellow]interrupted[/]: nothing was written", highlight=False)
        raise SystemExit(130) from None


__all__ = ["app", "main"]
