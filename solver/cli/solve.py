"""`solve`, `verify` and `demo`: one recruitment (one year of a register, or its special round)."""
from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from ..errors import AarakshanError
from .common import (PolicyOpt, RecruitmentOpt, SetOpt, app, check_engine, check_register_args, check_round, done,
                     err, fail, load, usage, warn)

SCREEN_ROWS = 20   # post-category rows printed at most; the rest are in cutoffs.csv and unfilled.csv


@app.command()
def solve(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates"),
    vacancies: Path = typer.Option(..., "--vacancies"),
    out: Path = typer.Option(..., "--out", help="output folder"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    engine: str = typer.Option("cpsat", "--engine", help="cpsat | greedy | both"),
    register: Optional[Path] = typer.Option(None, "--register", help="carry-forward register (SQLite); "
                                            "created if missing"),
    year: Optional[int] = typer.Option(None, "--year", help="recruitment year (with --register)"),
    replace: bool = typer.Option(False, "--replace", help="solve again a year the register already holds"),
    recruitment: str = RecruitmentOpt,
    round_: str = typer.Option("main", "--round", help="main, or special: a second, reserved-only round of a "
                               "year already in the register, for the backlog its first round left (Bihar "
                               "s.4(6)(e), Manipur s.8(4))"),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="seconds for CP-SAT"),
    workers: int = typer.Option(1, "--workers", help="CP-SAT workers; output is the same for any number"),
    independent: bool = typer.Option(False, "--independent", help="CP-SAT solves without the greedy's answer "
                                     "(slower): with --engine both, agreement is then evidence, where by "
                                     "default CP-SAT certifies the greedy's answer"),
    quiet: bool = typer.Option(False, "--quiet", help="print nothing but warnings and errors"),
    json_: bool = typer.Option(False, "--json", help="print summary.json to stdout instead of the tables"),
    report: bool = typer.Option(False, "--report", help="also write report.html: charts of cutoffs, selections by "
                                "own category, fill and dispositions (needs plotly: aarakshan\\[report])"),
    shortlist: Optional[Path] = typer.Option(None, "--shortlist", help="the previous stage's shortlist.csv: "
                                             "every candidate must be on it"),
    reserve: bool = typer.Option(False, "--reserve-list", help="also write reserve_list.csv: the consolidated "
                                 "reserve list below the last recommended of each category, and the Extended List "
                                 "(CSE Rule 16(4)-(5), 20(4)-(6); `aarakshan fill` draws on it)"),
    set_: list[str] = SetOpt,
):
    """Allocate vacancies and write allocation, decisions, unfilled, cutoffs and summary to OUT."""
    from ..runs import Round, RunOptions, open_register, run_year

    chosen, workers = check_engine(engine, time_limit, workers)
    check_register_args(register, year)
    if replace and register is None:
        usage("--replace re-solves a year of a register: give --register and --year")
    special = check_round(round_, register)
    pol = load(policy, set_, recruitment)
    try:
        reg = open_register(register, year, replace, pol, special, warn=warn) if register is not None else None
        opts = RunOptions(pol, chosen, time_limit, workers, hint=not independent, overrides=tuple(set_),
                          report=report, reserve_list=reserve)
        with err.status("reading inputs...") as status:
            run = run_year(opts, Round(candidates, vacancies, preferences, out, reg, year, replace, special,
                                 shortlist=shortlist),
                           progress=status.update, done=(lambda *a: None) if quiet or json_ else done, warn=warn)
    except AarakshanError as e:
        fail(e)
    sol = run.solution
    if json_:
        typer.echo((out / "summary.json").read_text(encoding="utf-8"), nl=False)
    elif not quiet:
        print_summary(sol.result, out, sol.differences if sol.other is not None else None)
    if sol.result.assignment.status == "time_limit":
        err.print("[yellow]time limit reached before CP-SAT proved the answer; the greedy answer was written[/]")
        raise typer.Exit(4)


def print_summary(result, out: Path, differences) -> None:
    """Totals by category (vacancies, filled, unfilled by disposition), then at most a screenful of posts."""
    from ..result import fill_by_post

    con = Console()
    totals: dict[str, dict] = {}
    for (_, code), (vacancies, filled, left) in fill_by_post(result.dispositions).items():
        t = totals.setdefault(code, {"vacancies": 0, "filled": 0, "unfilled": {}})
        t["vacancies"] += vacancies
        t["filled"] += filled
        for k, v in left.items():
            t["unfilled"][k] = t["unfilled"].get(k, 0) + v
    tot = Table(title=f"{result.policy.name}: {result.engine} ({result.assignment.status}), totals by category")
    for col in ("category", "vacancies", "filled", "unfilled"):
        tot.add_column(col, justify="left" if col in ("category", "unfilled") else "right")
    for code, t in totals.items():
        tot.add_row(code, f"{t['vacancies']:,}", f"{t['filled']:,}",
                    ", ".join(f"{k} {v:,}" for k, v in t["unfilled"].items()) or "-")
    con.print(tot)
    rows = list(result.cutoffs())
    if len(rows) > 1:
        tbl = Table(title="by post" + (f" (the first {SCREEN_ROWS} of {len(rows)} rows; all in {out}/cutoffs.csv)"
                                       if len(rows) > SCREEN_ROWS else ""))
        for col in ("post", "category", "vacancies", "filled", "last rank"):
            tbl.add_column(col, justify="right" if col not in ("post", "category") else "left")
        for post, code, filled, last, _ in rows[:SCREEN_ROWS]:
            tbl.add_row(post, code, str(result.seats.cap(post, code)), str(filled), str(last))
        con.print(tbl)
    msg = f"{int(result.selected.sum()):,} of {len(result.selected):,} candidates selected; files in {out}/"
    if differences is not None:
        msg += f"; engines differ on {differences} candidates (diff.csv)"
    if result.policy.horizontal.multi_trait_counts_each and (odd := result.procedure_differences):
        msg += (f"; in {len(odd)} compartments the procedure as written would choose otherwise "
                "(summary.json: procedure_differs)")
    con.print(msg)


@app.command()
def verify(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates"),
    vacancies: Path = typer.Option(..., "--vacancies"),
    allocation: Optional[Path] = typer.Option(None, "--allocation", help="the allocation.csv to check"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    register: Optional[Path] = typer.Option(None, "--register", help="the register the year was solved against "
                                            "(read only)"),
    year: Optional[int] = typer.Option(None, "--year", help="recruitment year (with --register)"),
    round_: str = typer.Option("main", "--round", help="main, or special (the year's reserved-only round)"),
    stage: str = typer.Option("allocation", "--stage", help="allocation; shortlist (with --shortlist, --ratio); "
                              "reserve (with --allocation, --reserve-list); fill (those, --declined and --fill); "
                              "slide (--allocation, --responses, --slide)"),
    shortlist: Optional[Path] = typer.Option(None, "--shortlist", help="the shortlist.csv to check"),
    ratio: Optional[float] = typer.Option(None, "--ratio", help="the shortlist's candidates per vacancy"),
    reserve_list: Optional[Path] = typer.Option(None, "--reserve-list", help="the reserve_list.csv to check (or "
                                                "the fill drew on)"),
    declined: Optional[Path] = typer.Option(None, "--declined", help="the fill's declined.csv"),
    fill: Optional[Path] = typer.Option(None, "--fill", help="the fill's allocation.csv (its new appointments)"),
    responses: Optional[Path] = typer.Option(None, "--responses", help="the sliding round's responses.csv"),
    slid: Optional[Path] = typer.Option(None, "--slide", help="the allocation.csv after the sliding round"),
    recruitment: str = RecruitmentOpt,
    set_: list[str] = SetOpt,
):
    """Check an allocation (or a stage's output) against every rule, independently of both engines. Exit 1 on
    violations."""
    from ..io.readers import read_problem
    from ..runs import register_seats
    from ..verify import read_allocation, verify as run_verify

    if stage == "shortlist":
        return _verify_shortlist(policy, candidates, vacancies, shortlist, ratio, set_)
    if stage == "slide":
        return _verify_slide(policy, candidates, vacancies, preferences, allocation, responses, slid, set_)
    if stage in ("reserve", "fill"):
        return _verify_reserve(stage, policy, candidates, vacancies, preferences, allocation, reserve_list, declined,
                               fill, set_)
    if stage != "allocation":
        usage(f"--stage must be allocation, shortlist, reserve, fill or slide, not {stage!r}")
    if allocation is None:
        usage("give --allocation (or --stage shortlist with --shortlist)")
    check_register_args(register, year)
    special = check_round(round_, register)
    pol = load(policy, set_, recruitment)
    try:
        problem = read_problem(pol, candidates, vacancies, preferences, warn=warn)
        seats = None
        if register is not None:
            pol, problem, seats = register_seats(pol, problem, register, year, special)
        alloc = read_allocation(allocation, problem, pol)
        violations = run_verify(pol, problem, alloc, seats)
    except AarakshanError as e:
        fail(e)
    _report_violations([v.row() for v in violations], f"{len(alloc.cand):,} appointments checked: every rule holds")


def _report_violations(rows: list[list[str]], clean: str) -> None:
    """`verify`'s answer: `clean` when no rule is broken, else the violations as CSV on stdout and exit 1."""
    if not rows:
        Console().print(clean)
        return
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["rule", "candidate_id", "post", "detail", "source"])
    w.writerows(rows)
    err.print(f"[bold red]{len(rows)} violations[/]")
    raise typer.Exit(1)


def _verify_shortlist(policy, candidates, vacancies, shortlist, ratio, set_) -> None:
    """`verify --stage shortlist`: the shortlist's rules checked from the policy and the inputs
    (`solver.verify.stages.check_shortlist`)."""
    from ..io.readers import read_problem
    from ..verify.stages import check_shortlist
    from ..shortlist import called_in as called_ids

    if shortlist is None or ratio is None:
        usage("--stage shortlist takes --shortlist FILE and --ratio R")
    pol = load(policy, set_, "direct")
    try:
        problem = read_problem(pol, candidates, vacancies, warn=warn)
        called = called_ids(shortlist)
        broken = check_shortlist(pol, problem, ratio, called)
    except AarakshanError as e:
        fail(e)
    source = pol.shortlist.source or "solver.shortlist (Rajat Yadav 2026)"
    _report_violations([["shortlist", "", "", text, source] for text in broken],
                       f"{len(called):,} called: every rule of the shortlist holds")


def _verify_reserve(stage, policy, candidates, vacancies, preferences, allocation, reserve_list, declined, fill,
                    set_) -> None:
    """`verify --stage reserve|fill`: the reserve list's rules, or the fill's, checked from the policy, the inputs
    and the allocation (`solver.verify.stages`)."""
    from ..io.readers import read_problem
    from ..runs.stages import read_declined, read_rows
    from ..verify import read_allocation
    from ..verify.stages import check_fill, check_reserve

    if allocation is None or reserve_list is None or (stage == "fill" and (declined is None or fill is None)):
        usage("--stage reserve takes --allocation and --reserve-list; --stage fill also --declined and --fill")
    pol = load(policy, set_, "direct")
    try:
        problem = read_problem(pol, candidates, vacancies, preferences, warn=warn)
        alloc = read_allocation(allocation, problem, pol)
        rows = read_rows(reserve_list, ["candidate_id", "category", "list"])
        if stage == "reserve":
            broken = check_reserve(pol, problem, alloc, [(r["candidate_id"], r["category"], r["list"], r["line"])
                                                         for r in rows])
            clean = f"{len(rows):,} on the reserve and Extended Lists: every rule of the reserve list holds"
        else:
            gone = read_declined(declined, [{"candidate_id": x} for x in alloc.ids])
            broken = check_fill(pol, problem, alloc, {r["candidate_id"]: r["list"] for r in rows}, gone,
                                read_allocation(fill, problem, pol))
            clean = f"{len(gone):,} vacancies left: every rule of the fill holds"
    except AarakshanError as e:
        fail(e)
    _report_violations([[stage, "", "", text, pol.reserve_list.source] for text in broken], clean)


def _verify_slide(policy, candidates, vacancies, preferences, allocation, responses, slid, set_) -> None:
    """`verify --stage slide`: the sliding round's rules (`solver.verify.slide`)."""
    from ..io.readers import read_problem
    from ..runs.stages import read_responses
    from ..verify import read_allocation
    from ..verify.slide import check_slide

    if allocation is None or responses is None or slid is None:
        usage("--stage slide takes --allocation (the first round's), --responses and --slide (the round's)")
    pol = load(policy, set_, "direct")
    try:
        problem = read_problem(pol, candidates, vacancies, preferences, warn=warn)
        before = read_allocation(allocation, problem, pol)
        answers = read_responses(responses, [{"candidate_id": x} for x in before.ids], warn)
        broken = check_slide(pol, problem, before, answers, read_allocation(slid, problem, pol))
    except AarakshanError as e:
        fail(e)
    _report_violations([["slide", "", "", text, pol.slide.source] for text in broken],
                       f"{len(answers):,} responses: every rule of the sliding round holds")


@app.command()
def demo(out: Path = typer.Option(Path("aarakshan-demo"), "--out"),
         engine: str = typer.Option("both", "--engine"),
         policy: str = typer.Option("bihar-1991", "--policy", help="the bundled policy whose example to write"),
         inputs_only: bool = typer.Option(False, "--inputs-only", help="write the example's inputs, do not solve"),
         pipeline: bool = typer.Option(False, "--pipeline", help="write a whole combined exam's files instead "
                                       "(upsc-cse: prelims, mains, final, preferences, declines, responses)")):
    """Solve a bundled example end to end (Bihar 1991, 5,000 candidates, 400 posts, by default); the inputs are
    written to OUT/input/, the outputs to OUT/."""
    from ..examples import EXAMPLES, write_example, write_pipeline

    con = Console(highlight=False)
    if out.exists() and not out.is_dir():
        usage(f"--out: {out} is a file, not a folder")
    if pipeline:
        made = write_pipeline(out)
        con.print(f"a combined exam written to {out}/: prelims.csv, mains.csv ({made.mains_called:,} called), "
                  f"final.csv ({made.interview_called:,} called), vacancies.csv, preferences.csv, declined.csv, "
                  "responses.csv (docs/pipeline.md runs it stage by stage)")
        return
    if policy not in EXAMPLES:
        usage(f"--policy: no example for {policy!r}; there are examples for {', '.join(EXAMPLES)}")
    inputs = write_example(policy, out / "input")
    prefs = inputs / "preferences.csv"
    con.print(f"inputs written to {inputs}/ (bundled policy {policy}; `aarakshan models` lists them)")
    if inputs_only:
        return
    solve(policy=policy, candidates=inputs / "candidates.csv", vacancies=inputs / "vacancies.csv",
          out=out, preferences=prefs if prefs.exists() else None, engine=engine, register=None, year=None,
          replace=False, time_limit=None, workers=1, independent=False, set_=[], round_="main",
          recruitment="direct", quiet=False, json_=False, report=False, shortlist=None, reserve=False)
