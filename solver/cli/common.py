"""What every command shares: the typer app, the console, how an error becomes its exit code, the common
options and their checks. The commands (one module per group) parse their options, call the library
(`solver.runs` and the applications) and print; they decide nothing of the law."""
from __future__ import annotations

import math
import os
import re
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from ..errors import AarakshanError, OptionError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Allocation under Indian reservation law: solve, verify, rosters.")
err = Console(stderr=True, soft_wrap=True)

# The library names an option by its field; the command line by its flag.
FLAGS = {"engine": "--engine", "recruitment": "--recruitment", "overrides": "--set", "grid": "--grid",
         "scenarios": "--scenarios", "baseline": "--baseline", "dask": "--dask", "other_candidates": "--other-candidates", "policy": "--policy",
         "time_limit": "--time-limit", "workers": "--workers", "readings": "--reading", "questions": "--ask",
         "stages": "--stage", "stack": "--stack", "strength": "--strength", "abolish": "--abolish",
         "report": "--report", "ratio": "--ratio"}


# The library's words for an option (a keyword of its functions, a policy override) and the flag that gives it:
# a message is written once, in the library, and read on the command line in the command line's words.
SAYINGS = [(re.compile(r"\bengine=(\w+)"), r"--engine \1"), (re.compile(r"\btime_limit\b"), "--time-limit"),
           (re.compile(r"\breplace=True\b"), "--replace"), (re.compile(r"\bround=special\b"), "--round special"),
           (re.compile(r"\brecruitment=(\w+)"), r"--recruitment \1"),
           (re.compile(r"\(register=, year=\)"), "(--register, --year)"), (re.compile(r"\bdask=local\b"),
                                                                             "--dask local"),
           (re.compile(r"\breserve_list=True\b"), "--reserve-list"), (re.compile(r"\bprove_unique=True\b"),
                                                                       "--prove-unique"),
           (re.compile(r"\bgiven as a reading\b"), "given with --reading"),
           (re.compile(r"\boverride (\S+=)"), r"--set \1"), (re.compile(r"\bgive the candidates file\b"),
                                                               "give --candidates"),
           (re.compile(r"\(the output folder\)"), "(--out)")]


def flags(text: str) -> str:
    """A library message in the command line's words (`SAYINGS`)."""
    for pattern, flag in SAYINGS:
        text = pattern.sub(flag, text)
    return text


def fail(e: AarakshanError):
    """Print the error and exit with its code. An option the library names by its field is told by its flag,
    and the remedies it names in the library's words (`engine=greedy`) in the command line's (`SAYINGS`)."""
    text = str(e)
    if isinstance(e, OptionError) and e.field in FLAGS:
        text = FLAGS[e.field] + text[len(e.field):]
    text = flags(text)
    # (escaped: a message may quote a policy table such as [promotion], which is not markup)
    err.print(f"[bold red]error[/]: {escape(text)}", highlight=False)
    raise typer.Exit(e.exit_code)


def usage(message: str):
    """Options that do not go together (exit 2)."""
    err.print(f"[bold red]error[/]: {escape(message)}", highlight=False)
    raise typer.Exit(2)


def done(what: str, seconds: float) -> None:
    err.print(f"[dim]{escape(what)} in {seconds:.1f} s[/]", highlight=False)


def say(text: str, **_) -> None:
    """A line on the console, read as plain text: names a user gave (`--out "run [old]"`, a stage called
    `[/]`) are not rich markup."""
    Console().print(text, markup=False, highlight=False)


def cells(*values) -> list:
    """A console table's row, each cell plain text (a post or scenario named with brackets is not markup)."""
    from rich.text import Text
    return [Text(str(v)) for v in values]


def warn(msg: str) -> None:
    err.print(f"[yellow]warning[/]: {escape(flags(msg))}", highlight=False)


TimeLimitOpt = typer.Option(None, "--time-limit", help="seconds for CP-SAT")
WorkersOpt = typer.Option(1, "--workers", help="CP-SAT workers; output is the same for any number")
PolicyOpt = typer.Option(..., "--policy", help="policy TOML file, or a name in models/ (e.g. bihar-1991)")
SetOpt = typer.Option([], "--set", help="override a policy value, e.g. ceiling.share=0.6 or categories.OBC.share=0.27")
RecruitmentOpt = typer.Option("direct", "--recruitment", help="direct, or promotion: the policy's \\[promotion] "
                              "rules (its categories, roster and method; candidates.csv is the select or "
                              "seniority list, `fit` = false for those found unfit)")


def load(policy: str, sets: list[str], recruitment: str):
    """The policy with the --set overrides, for --recruitment's kind (exits on an error)."""
    from ..data.kinds import Recruitment
    from ..policy import load_policy
    try:
        return load_policy(policy, sets, recruitment=Recruitment.parse(recruitment))
    except AarakshanError as e:
        fail(e)


def check_engine(engine: str, time_limit: float | None = None, workers: int = 1, among=None):
    """The engine (exit 2 for one the command does not run) and the number of CP-SAT workers to use: at most
    the cores there are (more only cost memory, and the output is the same for any number)."""
    from ..data.kinds import Engine
    try:
        chosen = Engine.parse(engine, among)
    except AarakshanError as e:
        fail(e)
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        usage(f"--time-limit must be a number of seconds above 0, not {time_limit}")
    if workers < 1:
        usage(f"--workers must be at least 1, not {workers}")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if workers > cores:
        warn(f"--workers {workers}: this machine has {cores} cores; using {cores} (the output is the same)")
        workers = cores
    return chosen, workers


def check_register_args(register, year) -> None:
    if (register is None) != (year is None):
        usage("--register and --year go together")


def check_round(round_: str, register) -> bool:
    """--round's word; True for the special round (which needs a register)."""
    if round_ not in ("main", "special"):
        usage(f"--round must be main or special, not {round_!r}")
    if round_ == "special" and register is None:
        usage("--round special fills what a recorded year left: give --register and --year")
    return round_ == "special"


def optional_report(folder: Path, title: str, subtitle: str, charts) -> bool:
    """report.html into `folder` where plotly is installed (an optional extra), else a warning saying so.
    Returns whether it was written."""
    from ..study.charts import available, page
    if available():
        page(folder / "report.html", title, subtitle, charts())
        return True
    warn("report.html not written: it needs plotly (pip install 'aarakshan[report]')")
    return False
