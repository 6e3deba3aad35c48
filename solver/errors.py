"""Errors that map to the exit codes of SPEC.md."""
from __future__ import annotations


class AarakshanError(Exception):
    exit_code = 1


class InputError(AarakshanError):
    """Bad input: names file, line, column and the problem (exit 2)."""

    exit_code = 2

    def __init__(self, path, line: int | None, column: int | str | None, problem: str):
        if len(problem) > 600:  # (a million-character cell is not echoed back whole)
            problem = f"{problem[:400]} ...[{len(problem) - 500:,} characters]... {problem[-100:]}"
        self.path, self.line, self.column, self.problem = str(path), line, column, problem
        where = self.path
        if line is not None:
            where += f", line {line}"
        if column is not None:
            where += f", column {column}"
        super().__init__(f"{where}: {problem}")


class PolicyConflict(AarakshanError):
    """The policy cannot be satisfied for this input; names the conflicting rules (exit 3)."""

    exit_code = 3


class Unsupported(AarakshanError):
    """A combination of rules no engine implements yet; names the issue that will add it (exit 3)."""

    exit_code = 3


class TimeLimit(AarakshanError):
    """The time limit ran out before any allocation was found (exit 4)."""

    exit_code = 4


class OptionError(InputError):
    """A value given for a named option of the library (an engine, a policy override, a grid) that it does not
    take (exit 2). `field` is the option as the library names it (``engine``, ``overrides``); the command line
    tells it by its flag (`solver.cli.common.FLAGS`)."""

    def __init__(self, field: str, problem: str):
        self.field = field
        super().__init__(field, None, None, problem)
