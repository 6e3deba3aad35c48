"""The command line of this process when it is the `aarakshan` command (set by `solver.cli.main`; empty when the
library is called from Python), which summary.json records beside its timings."""
COMMAND: list[str] = []
