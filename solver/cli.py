"""The `aarakshan` command (SPEC.md, "Commands"); exit codes 0 done, 1 violations, 2 bad input,
3 policy cannot be satisfied, 4 time limit reached."""
from __future__ import annotations

import csv
import sys
import time
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from .errors import AarakshanError
from .io.readers import read_problem
from .policy import load_policy
from .reports import diff_rows, write_outputs
from .solve import solve as run_solve
from .vacancy import roster as make_roster

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Allocation under Indian reservation law: solve, verify, rosters.")
err = Console(stderr=True, soft_wrap=True)


def _fail(e: AarakshanError) -> None:
    err.print(f"[bold red]error[/]: {e}", highlight=False)
    raise typer.Exit(e.exit_code)


def _done(what: str, seconds: float) -> None:
    err.print(f"[dim]{what} in {seconds:.1f} s[/]", highlight=False)


def _warn(msg: str) -> None:
    err.print(f"[yellow]warning[/]: {msg}", highlight=False)


PolicyOpt = typer.Option(..., "--policy", help="policy TOML file, or a name in models/ (e.g. bihar-1991)")
SetOpt = typer.Option([], "--set", help="override a policy value, e.g. ceiling.share=0.6 or categories.OBC.share=0.27")


@app.command()
def solve(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates"),
    vacancies: Path = typer.Option(..., "--vacancies"),
    out: Path = typer.Option(..., "--out", help="output folder"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    engine: str = typer.Option("cpsat", "--engine", help="cpsat | greedy | both"),
    register: Optional[Path] = typer.Option(None, "--register", help="carry-forward register (issue 6)"),
    year: Optional[int] = typer.Option(None, "--year"),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="seconds for CP-SAT"),
    workers: int = typer.Option(1, "--workers", help="CP-SAT workers; output is the same for any number"),
    set_: list[str] = SetOpt,
):
    """Allocate vacancies and write allocation, decisions, unfilled, cutoffs and summary to OUT."""
    if engine not in ("cpsat", "greedy", "both"):
        err.print(f"[bold red]error[/]: --engine must be cpsat, greedy or both, not {engine!r}")
        raise typer.Exit(2)
    if register is not None or year is not None:
        err.print("[bold red]error[/]: --register/--year arrive with the carry-forward register (issue 6)")
        raise typer.Exit(2)
    # One status line through the stages: at exam scale reading and writing take as long as solving.
    with err.status("reading inputs...") as status:
        try:
            pol = load_policy(policy, set_)
            t = time.perf_counter()
            problem = read_problem(pol, candidates, vacancies, preferences, warn=_warn)
            read_s = time.perf_counter() - t
            _done(f"read {problem.n:,} candidates", read_s)
            status.update(f"solving {problem.n:,} candidates with {engine}...")
            sol = run_solve(pol, problem, engine, time_limit=time_limit, workers=workers)
            _done(f"solved ({sol.result.assignment.status})", sum(v for k, v in sol.timings.items() if k != "total"))
        except AarakshanError as e:
            status.stop()
            _fail(e)
        status.update(f"writing outputs and {problem.n:,} reasons to {out}/...")
        t = time.perf_counter()
        timings = {"read": round(read_s, 4), **sol.timings}
        diff = list(diff_rows(sol.other, sol.result)) if sol.other is not None else None
        extra = {"differences": sol.differences} if sol.other is not None else None
        write_outputs(out, sol.result, timings, diff, extra)
        _done("wrote outputs", time.perf_counter() - t)
    _print_summary(sol.result, out, sol.differences if sol.other is not None else None)
    if sol.result.assignment.status == "time_limit":
        err.print("[yellow]time limit reached before CP-SAT proved the answer; the greedy answer was written[/]")
        raise typer.Exit(4)


def _print_summary(result, out: Path, differences) -> None:
    tbl = Table(title=f"{result.policy.name}: {result.engine} ({result.assignment.status})")
    for col in ("post", "category", "vacancies", "filled", "last rank"):
        tbl.add_column(col, justify="right" if col not in ("post", "category") else "left")
    for post, code, filled, last, _ in result.cutoffs():
        tbl.add_row(post, code, str(result.seats.cap(post, code)), str(filled), str(last))
    Console().print(tbl)
    msg = f"{int(result.selected.sum()):,} of {len(result.selected):,} candidates selected; files in {out}/"
    if differences is not None:
        msg += f"; engines differ on {differences} candidates (diff.csv)"
    Console().print(msg)


@app.command()
def verify(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates"),
    vacancies: Path = typer.Option(..., "--vacancies"),
    allocation: Path = typer.Option(..., "--allocation"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    set_: list[str] = SetOpt,
):
    """Check an allocation against every rule, independently of both engines. Exit 1 on violations."""
    from .verify import read_allocation, verify as run_verify

    try:
        pol = load_policy(policy, set_)
        problem = read_problem(pol, candidates, vacancies, preferences, warn=_warn)
        alloc = read_allocation(allocation, problem, pol)
        violations = run_verify(pol, problem, alloc)
    except AarakshanError as e:
        _fail(e)
    if not violations:
        Console().print(f"{len(alloc.cand):,} appointments checked: every rule holds")
        return
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["rule", "candidate_id", "post", "detail", "source"])
    for v in violations:
        w.writerow(v.row())
    err.print(f"[bold red]{len(violations)} violations[/]")
    raise typer.Exit(1)


@app.command()
def roster(policy: str = PolicyOpt, points: int = typer.Option(..., "--points", min=1), set_: list[str] = SetOpt):
    """Print the post-based roster as CSV (point,category)."""
    try:
        pol = load_policy(policy, set_)
    except AarakshanError as e:
        _fail(e)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["point", "category"])
    for k, code in enumerate(make_roster(pol, points), 1):
        w.writerow([k, code])


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def simulate():
    """Several recruitment years against one register: not implemented yet (issue 6)."""
    err.print("[bold red]error[/]: `aarakshan simulate` needs the carry-forward register, which is not "
              "implemented yet (issue 6); solve each year with `aarakshan solve` meanwhile")
    raise typer.Exit(2)


@app.command()
def demo(out: Path = typer.Option(Path("aarakshan-demo"), "--out"),
         engine: str = typer.Option("both", "--engine")):
    """Solve a bundled example (Bihar 1991, 5,000 candidates, 400 posts) end to end."""
    from .instances import generate, write_instance

    pol = load_policy("bihar-1991")
    inputs = write_instance(out / "input", *generate(pol, 5000, 400, seed=1991, women_share=0.3)[:2])
    Console().print(f"inputs written to {inputs}/ (policy models/bihar-1991.toml)")
    solve(policy="bihar-1991", candidates=inputs / "candidates.csv", vacancies=inputs / "vacancies.csv",
          out=out, preferences=None, engine=engine, register=None, year=None, time_limit=None, workers=1, set_=[])


def main():  # pragma: no cover
    app()
