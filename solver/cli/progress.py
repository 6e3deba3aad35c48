"""Progress on long runs. On a terminal: rich's live bar or spinner. Where standard error is a file or a pipe
(a batch job's log, `2> run.log`), a live display would leave nothing until the end, so progress is written
as plain lines instead: one when a stage or task begins, then at most one every `EVERY` seconds, and one at
the end. The commands take either through the two functions below; neither decides anything."""
from __future__ import annotations

import time

from .common import err

EVERY = 10.0    # seconds between two progress lines in a file: a log of a long run stays short


def bar(*columns):
    """rich's Progress with these columns on a terminal; `Lines` (the same calls) in a file or a pipe."""
    from rich.progress import Progress
    return Progress(*columns, console=err) if err.is_terminal else Lines()


def spinner(text: str, quiet: bool = False):
    """rich's status spinner on a terminal; `Lines` (the same `update(text)`) in a file or a pipe; nothing
    at all when quiet."""
    if quiet:
        return Lines(text, write=lambda line: None)
    return err.status(text) if err.is_terminal else Lines(text)


class Lines:
    """Progress as lines: `add_task`, `update` and `advance` as rich's Progress takes them, `update(text)` as
    its status takes it. A line says what, how far (done/total where a total is known) and the time so far.

    Example
    -------
    >>> with Lines(write=print) as p:
    ...     t = p.add_task("scenarios", total=2)
    ...     p.advance(t); p.advance(t)
    progress: scenarios 0/2 (0 s)
    progress: scenarios 2/2 (0 s)
    """

    def __init__(self, text: str | None = None, every: float = EVERY, write=None):
        self.start = self.last = time.monotonic()
        self.every = every
        self.write = write or (lambda line: err.print(line, markup=False, highlight=False))
        self.tasks: list[list] = []     # per task: [description, completed, total]
        if text is not None:
            self.tasks.append([text, 0, None])
            self._say(0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, description: str, total: float | None = None, **_) -> int:
        self.tasks.append([description, 0, total])
        self._say(len(self.tasks) - 1)
        return len(self.tasks) - 1

    def update(self, task=0, *, completed=None, description=None, advance=0, **_) -> None:
        if isinstance(task, str):       # a status's update(text): a new stage, always said
            self.tasks[0][0] = task
            return self._say(0)
        row = self.tasks[task]
        new = description is not None and description != row[0]
        if description is not None:
            row[0] = description
        row[1] = (row[1] if completed is None else completed) + advance
        finished = row[2] is not None and row[1] >= row[2]
        if new or finished or time.monotonic() - self.last >= self.every:
            self._say(task)

    def advance(self, task: int, advance: float = 1) -> None:
        self.update(task, advance=advance)

    def _say(self, task: int) -> None:
        self.last = time.monotonic()
        text, completed, total = self.tasks[task]
        far = f" {completed:g}/{total:g}" if total is not None else ""
        self.write(f"progress: {text}{far} ({self.last - self.start:.0f} s)")
