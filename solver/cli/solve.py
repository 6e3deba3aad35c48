"""`solve` and `demo`: one recruitment (one year of a register, or its special round); `verify` is in
`cli/verify.py`."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..errors import AarakshanError
from .common import (cells, PolicyOpt, RecruitmentOpt, SetOpt, TimeLimitOpt, WorkersOpt, app, check_engine,
                     check_register_args, check_round, done, err, fail, load, usage, warn)
from .progress import spinner

SCREEN_ROWS = 20   # post-category rows printed at most; the rest are in cutoffs.csv and unfilled.csv


@app.command()
def solve(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates"),
    vacancies: Path = typer.Option(..., "--vacancies"),
    out: Path = typer.Option(..., "--out", help="output folder"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    ranks: Optional[Path] = typer.Option(None, "--ranks", help="ranks.csv: candidate_id, list, rank or score: the "
                                         "merit lists a post's merit_list column names (several merit lists)"),
    engine: str = typer.Option("cpsat", "--engine", help="cpsat | greedy | both"),
    register: Optional[Path] = typer.Option(None, "--register", help="carry-forward register (SQLite); "
                                            "created if missing"),
    year: Optional[int] = typer.Option(None, "--year", help="recruitment year (with --register)"),
    replace: bool = typer.Option(False, "--replace", help="solve again a year the register already holds"),
    recruitment: str = RecruitmentOpt,
    round_: str = typer.Option("main", "--round", help="main, or special: a second, reserved-only round of a "
                               "year already in the register, for the backlog its first round left (Bihar "
                               "s.4(6)(e), Manipur s.8(4))"),
    time_limit: Optional[float] = TimeLimitOpt,
    workers: int = WorkersOpt,
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
        with spinner("reading inputs...", quiet) as status:
            run = run_year(opts, Round(candidates, vacancies, preferences, out, reg, year, replace, special,
                                 shortlist=shortlist, ranks=ranks),
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
    from ..outcome.unfilled import fill_by_post

    con = Console()
    totals: dict[str, dict] = {}
    for (_, code), (vacancies, filled, left) in fill_by_post(result.dispositions).items():
        t = totals.setdefault(code, {"vacancies": 0, "filled": 0, "unfilled": {}})
        t["vacancies"] += vacancies
        t["filled"] += filled
        for k, v in left.items():
            t["unfilled"][k] = t["unfilled"].get(k, 0) + v
    tot = Table(title=Text(f"{result.policy.name}: {result.engine} ({result.assignment.status}), totals by category"))
    for col in ("category", "vacancies", "filled", "unfilled"):
        tot.add_column(col, justify="left" if col in ("category", "unfilled") else "right")
    for code, t in totals.items():
        tot.add_row(*cells(code, f"{t['vacancies']:,}", f"{t['filled']:,}",
                           ", ".join(f"{k} {v:,}" for k, v in t["unfilled"].items()) or "-"))
    con.print(tot)
    rows = list(result.cutoffs())
    if len(rows) > 1:
        tbl = Table(title=Text("by post" + (f" (the first {SCREEN_ROWS} of {len(rows)} rows; all in {out}/cutoffs.csv)"
                                            if len(rows) > SCREEN_ROWS else "")))
        for col in ("post", "category", "vacancies", "filled", "last rank"):
            tbl.add_column(col, justify="right" if col not in ("post", "category") else "left")
        for post, code, filled, last, _ in rows[:SCREEN_ROWS]:
            tbl.add_row(*cells(post, code, str(result.seats.cap(post, code)), str(filled), str(last)))
        con.print(tbl)
    msg = f"{int(result.selected.sum()):,} of {len(result.selected):,} candidates selected; files in {out}/"
    if differences is not None:
        msg += f"; engines differ on {differences} candidates (diff.csv)"
    if result.policy.horizontal.multi_trait_counts_each and (odd := result.procedure_differences):
        msg += (f"; in {len(odd)} compartments the procedure as written would choose otherwise "
                "(summary.json: procedure_differs)")
    con.print(msg, markup=False, highlight=False)


@app.command()
def demo(out: Path = typer.Option(Path("aarakshan-demo"), "--out"),
         engine: str = typer.Option("both", "--engine"),
         policy: str = typer.Option("bihar-1991", "--policy", help="the bundled policy whose example to write"),
         inputs_only: bool = typer.Option(False, "--inputs-only", help="write the example's inputs, do not solve"),
         pipeline: bool = typer.Option(False, "--pipeline", help="write a whole combined exam's files instead "
                                       "(upsc-cse: prelims, mains, final, preferences, declines, responses)"),
         counselling: bool = typer.Option(False, "--counselling", help="a JoSAA-shaped counselling instead "
                                          "(josaa-2025: two merit lists, every seat pool, six rounds; then a CSAB "
                                          "special round under csab-2025)")):
    """Solve a bundled example end to end (Bihar 1991, 5,000 candidates, 400 vacancies at one post, by default);
    the inputs are written to OUT/input/, the outputs to OUT/."""
    from ..runs.examples import EXAMPLES, write_example, write_pipeline

    con = Console(highlight=False)
    if out.exists() and not out.is_dir():
        usage(f"--out: {out} is a file, not a folder")
    if pipeline:
        made = write_pipeline(out)
        con.print(f"a combined exam written to {out}/: prelims.csv, mains.csv ({made.mains_called:,} called), "
                  f"final.csv ({made.interview_called:,} called), vacancies.csv, preferences.csv, declined.csv, "
                  "responses.csv (docs/pipeline.md runs it stage by stage)")
        return
    if counselling:
        _counselling(out, engine, con)
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
          recruitment="direct", quiet=False, json_=False, report=False, shortlist=None, reserve=False,
          ranks=None)


def _counselling(out: Path, engine: str, con: Console) -> None:
    """`demo --counselling`: the example's inputs in OUT/input/, round 1 solved in OUT/round-1/, rounds 2 to 6
    each on responses drawn after the round before (OUT/input/responses-K.csv) in OUT/round-K/, then CSAB's
    special round (`_special`)."""
    from ..io.staging import write_csv
    from ..runs.counselling import responses, write_counselling
    from ..runs.stages import read_frozen, read_rows, run_slide

    made = write_counselling(out / "input")
    inputs = made.folder
    con.print(f"a counselling written to {inputs}/: {made.candidates:,} candidates, {made.seats:,} seats "
              "(josaa-2025; docs/counselling.md runs it round by round)")
    solve(policy="josaa-2025", candidates=inputs / "candidates.csv", vacancies=inputs / "vacancies.csv",
          out=out / "round-1", preferences=inputs / "preferences.csv", engine=engine, register=None, year=None,
          replace=False, time_limit=None, workers=1, independent=False, set_=[], round_="main",
          recruitment="direct", quiet=True, json_=False, report=False, shortlist=None, reserve=False,
          ranks=inputs / "ranks.csv")
    held = len(read_rows(out / "round-1" / "allocation.csv", ["candidate_id"]))
    con.print(f"round 1: {held:,} hold seats (OUT/round-1/)")
    for k in range(2, 7):
        before = read_rows(out / f"round-{k - 1}" / "allocation.csv", ["candidate_id", "post", "seat_category"])
        answers = inputs / f"responses-{k}.csv"
        write_csv(answers, ["candidate_id", "response"],
                  responses(before, k, read_frozen(out / f"round-{k - 1}" / "slide.csv")))
        try:
            _, done = run_slide(out / f"round-{k - 1}", answers, out / f"round-{k}", engine)
        except AarakshanError as e:
            fail(e)
        f = done.rounds
        con.print(f"round {k}: {f['fixed']} froze, {f['floated']} floated, {f['slid']} slid, {f['absent']} "
                  f"withdrew; {f['moved_up']} moved up, {f['newcomers_placed']} placed anew; {len(done.rows):,} "
                  f"hold seats (OUT/round-{k}/)")
    _special(out, engine, con)


def _special(out: Path, engine: str, con: Console) -> None:
    """`demo --counselling`'s CSAB special round after round 6 (csab-2025): registration and fresh choices drawn
    into OUT/input/special-*.csv, the round in OUT/special-1/."""
    from ..policy import load_policy
    from ..runs.counselling import special_round
    from ..runs.stages import run_slide

    said, fresh = special_round(out / "input", out / "round-6")
    try:
        _, done = run_slide(out / "round-6", said, out / "special-1", engine, policy=load_policy("csab-2025"),
                            preferences=fresh)
    except AarakshanError as e:
        fail(e)
    f = done.rounds
    con.print(f"CSAB special round (csab-2025): {f['registered']} registered anew, {f['floated']} seat holders to move "
              f"up, {f['absent']} withdrew; {f['moved_up']} moved up, {f['newcomers_placed']} placed anew; "
              f"{len(done.rows):,} hold seats (OUT/special-1/)")
