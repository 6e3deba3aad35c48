"""The `aarakshan` command (SPEC.md, "Commands"); exit codes 0 done, 1 violations, 2 bad input,
3 policy cannot be satisfied, 4 time limit reached."""
from __future__ import annotations

import csv
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .errors import AarakshanError, InputError

if TYPE_CHECKING:
    from .policy import Policy


def _lazy(module: str, name: str):
    """`module`'s function `name`, imported on its first call: `aarakshan --help` and a bad option load neither
    OR-Tools nor pandas nor the policy schema (start-up 1.2 s -> 0.3 s)."""
    def call(*args, **kwargs):
        from importlib import import_module
        return getattr(import_module(module, __package__), name)(*args, **kwargs)
    call.__name__ = name
    return call


read_problem = _lazy(".io.readers", "read_problem")
load_policy = _lazy(".policy", "load_policy")
diff_rows = _lazy(".reports", "diff_rows")
provenance = _lazy(".reports", "provenance")
stage_outputs = _lazy(".reports", "stage_outputs")
run_solve = _lazy(".solve", "solve")
make_replacement = _lazy(".vacancy", "replacement")
make_running = _lazy(".vacancy", "running")

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Allocation under Indian reservation law: solve, verify, rosters.")
err = Console(stderr=True, soft_wrap=True)


def _fail(e: AarakshanError) -> None:
    # (escaped: a message may quote a policy table such as [promotion], which is not markup)
    err.print(f"[bold red]error[/]: {escape(str(e))}", highlight=False)
    raise typer.Exit(e.exit_code)


def _done(what: str, seconds: float) -> None:
    err.print(f"[dim]{what} in {seconds:.1f} s[/]", highlight=False)


def _warn(msg: str) -> None:
    err.print(f"[yellow]warning[/]: {escape(msg)}", highlight=False)


def _version(value: bool) -> None:
    if value:
        from . import __version__
        typer.echo(f"aarakshan {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and exit")):
    """Allocation under Indian reservation law: solve, verify, rosters."""


PolicyOpt = typer.Option(..., "--policy", help="policy TOML file, or a name in models/ (e.g. bihar-1991)")
SetOpt = typer.Option([], "--set", help="override a policy value, e.g. ceiling.share=0.6 or categories.OBC.share=0.27")
RecruitmentOpt = typer.Option("direct", "--recruitment", help="direct, or promotion: the policy's [promotion] "
                              "rules (its categories, roster and method; candidates.csv is the select or "
                              "seniority list, `fit` = false for those found unfit)")


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
                                "own category, fill and dispositions (needs plotly: aarakshan[report])"),
    set_: list[str] = SetOpt,
):
    """Allocate vacancies and write allocation, decisions, unfilled, cutoffs and summary to OUT."""
    workers = _check_engine(engine, time_limit, workers)
    _check_register_args(register, year)
    if replace and register is None:
        err.print("[bold red]error[/]: --replace re-solves a year of a register: give --register and --year")
        raise typer.Exit(2)
    special = _check_round(round_, register)
    set_ = _with_recruitment(set_, recruitment)
    try:
        pol = load_policy(policy, set_)
        reg = _open_register(register, year, replace, pol, special) if register is not None else None
    except AarakshanError as e:
        _fail(e)
    with err.status("reading inputs...") as status:
        opts = RunOptions(pol, engine, time_limit, workers, hint=not independent, overrides=tuple(set_),
                          quiet=quiet or json_, report=report)
        sol, _ = _solve_year(opts, Round(candidates, vacancies, preferences, out, reg, year, replace, special), status)
    if json_:
        typer.echo((out / "summary.json").read_text(encoding="utf-8"), nl=False)
    elif not quiet:
        _print_summary(sol.result, out, sol.differences if sol.other is not None else None)
    if sol.result.assignment.status == "time_limit":
        err.print("[yellow]time limit reached before CP-SAT proved the answer; the greedy answer was written[/]")
        raise typer.Exit(4)


def _check_engine(engine: str, time_limit: float | None = None, workers: int = 1) -> int:
    """Validate the engine options; returns the number of CP-SAT workers to use (at most the cores there are:
    more only cost memory, and the output is the same for any number)."""
    import math
    import os
    _engine_among(engine, ("cpsat", "greedy", "both"))
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        err.print(f"[bold red]error[/]: --time-limit must be a number of seconds above 0, not {time_limit}")
        raise typer.Exit(2)
    if workers < 1:
        err.print(f"[bold red]error[/]: --workers must be at least 1, not {workers}")
        raise typer.Exit(2)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if workers > cores:
        _warn(f"--workers {workers}: this machine has {cores} cores; using {cores} (the output is the same)")
        return cores
    return workers


def _check_register_args(register, year) -> None:
    if (register is None) != (year is None):
        err.print("[bold red]error[/]: --register and --year go together")
        raise typer.Exit(2)


def _engine_among(engine: str, allowed: tuple[str, ...]) -> None:
    """An engine the command does not run is bad input (exit 2), named with those it does."""
    if engine not in allowed:
        err.print(f"[bold red]error[/]: --engine must be {', '.join(allowed[:-1])} or {allowed[-1]}, not {engine!r}")
        raise typer.Exit(2)


def _with_recruitment(set_: list[str], recruitment: str) -> list[str]:
    """The --set overrides with --recruitment promotion as the override it is (recruitment=promotion: the
    policy's [promotion] rules, `solver.policy.promotion`)."""
    if recruitment not in ("direct", "promotion"):
        err.print(f"[bold red]error[/]: --recruitment must be direct or promotion, not {recruitment!r}")
        raise typer.Exit(2)
    return [*set_, "recruitment=promotion"] if recruitment == "promotion" else list(set_)


def _check_round(round_: str, register) -> bool:
    if round_ not in ("main", "special"):
        err.print(f"[bold red]error[/]: --round must be main or special, not {round_!r}")
        raise typer.Exit(2)
    if round_ == "special" and register is None:
        err.print("[bold red]error[/]: --round special fills what a recorded year left: give --register and --year")
        raise typer.Exit(2)
    return round_ == "special"


def _open_register(path: Path, year: int, replace: bool, pol, special: bool = False):
    from .register import Register

    reg = Register(path)
    reg.check_recruitment(pol.recruitment)
    if special:
        reg.check_special(year, replace)
    else:
        reg.check_year(year, replace)
    other = reg.policies() - {pol.name}
    if other:
        _warn(f"{path} holds years solved under {sorted(other)}; this year is solved under {pol.name!r}")
    return reg


@dataclass(frozen=True)
class RunOptions:
    """What every round of a run is solved with."""

    policy: Policy
    engine: str
    time_limit: float | None
    workers: int
    hint: bool = True                  # CP-SAT certifies the greedy's answer (False: --independent)
    overrides: tuple[str, ...] = ()    # the --set options, for the summary's provenance
    quiet: bool = False                # no line per step (simulate shows a progress bar instead)
    report: bool = False               # report.html beside the other outputs


@dataclass(frozen=True)
class Round:
    """One round of one year: its inputs, where its outputs go, and its place in the register (if any)."""

    candidates: Path
    vacancies: Path
    preferences: Path | None
    out: Path
    register: object = None            # solver.register.Register
    year: int | None = None
    replace: bool = False              # solve again a year the register holds
    special: bool = False              # the year's special round (reserved-only, for the backlog)


def _solve_year(opts: RunOptions, rnd: Round, status):
    """Read, solve, write the outputs atomically, then record the year in the register (one transaction):
    a run stopped before the end leaves the register as it was."""
    from .register import year_record
    from .register.special import special_round

    pol, engine, reg, year, special, out = opts.policy, opts.engine, rnd.register, rnd.year, rnd.special, rnd.out
    candidates, vacancies, preferences = rnd.candidates, rnd.vacancies, rnd.preferences
    quiet, replace = opts.quiet, rnd.replace

    note = (lambda *a: None) if quiet else _done
    from .io.readers import input_sources
    from .reports import InputDigests
    digests = InputDigests(input_sources(candidates, vacancies, preferences))
    try:
        t = time.perf_counter()
        problem = read_problem(pol, candidates, vacancies, preferences, warn=_warn)
        read_s = time.perf_counter() - t
        note(f"read {problem.n:,} candidates", read_s)
        doing = f"solving {problem.n:,} candidates with {engine}"
        status.update(doing + "...")
        if special:
            spol, problem, state = special_round(pol, problem, year, reg.backlog(year, replace))
        else:
            spol, state = pol, (reg.state(year) if reg is not None else None)
        sol = run_solve(spol, problem, engine, time_limit=opts.time_limit, workers=opts.workers, state=state, hint=opts.hint,
                        progress=lambda what: status.update(f"{doing}: {what}..."))
        note(f"solved ({sol.result.assignment.status})", sum(v for k, v in sol.timings.items() if k != "total"))
    except AarakshanError as e:
        status.stop()
        if reg is not None:
            reg.discard_if_new()
        _fail(e)
    status.update(f"writing outputs and {problem.n:,} reasons to {out}/...")
    t = time.perf_counter()
    timings = {"read": round(read_s, 4), **sol.timings}
    diff = list(diff_rows(sol.other, sol.result)) if sol.other is not None else None
    extra = {**({"differences": sol.differences} if sol.other is not None else {}),
             "provenance": provenance(pol, list(opts.overrides), engine, problem.sources,
                                      {"register": str(reg.path), "year": year, "round": "special" if special
                                       else "main"} if reg is not None else None, digests)}
    rec = year_record(sol.result, year) if reg is not None else None
    staged = None
    try:
        staged = stage_outputs(out, sol.result, timings, diff, extra, rec)
        if opts.report:
            from .charts import page, solve_charts
            page(staged.folder / "report.html", f"{pol.name}: allocation", f"{problem.n:,} candidates, engine "
                 f"{engine}" + (f", year {year}" if year is not None else ""), solve_charts(sol.result))
        if reg is not None:
            # The year and its outputs go together: named in the register's transaction, published after it
            # (a run killed in between is completed when the register is next opened).
            (reg.record_special if special else reg.record)(rec, pol.name, engine, replace, staged)
        else:
            staged.publish()
    except AarakshanError as e:
        status.stop()
        if staged is not None and (reg is None or year not in reg.pending_years()):
            staged.discard()
        if reg is not None:
            reg.discard_if_new()
        _fail(e)
    note("wrote outputs" + (f" and recorded {year} in {reg.path}" if reg is not None else ""), time.perf_counter() - t)
    return sol, rec


SCREEN_ROWS = 20   # post-category rows printed at most; the rest are in cutoffs.csv and unfilled.csv


def _print_summary(result, out: Path, differences) -> None:
    """Totals by category (vacancies, filled, unfilled by disposition), then at most a screenful of posts."""
    from .result import fill_by_post

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
def compare(
    a: Path = typer.Argument(..., help="a `solve` output folder (the baseline)"),
    b: Path = typer.Argument(..., help="another `solve` output folder (the scenario)"),
    out: Path = typer.Option(..., "--out", help="output folder: changes.csv and compare.json"),
    candidates: Optional[Path] = typer.Option(None, "--candidates", help="candidates.csv, for counts by the "
                                              "candidates' own category (default: the file the runs recorded)"),
):
    """What changed from A to B: who gains or loses a post, selections, cutoffs and unfilled per post and
    category, selections by the candidates' own category."""
    from .compare import CHANGE_COLUMNS, compare as run_compare
    from .reports import _write_csv, stage, write_json

    try:
        rows, doc = run_compare(a, b, candidates)

        def write(tmp: Path) -> None:
            from .charts import compare_charts
            _write_csv(tmp / "changes.csv", CHANGE_COLUMNS, rows)
            write_json(tmp / "compare.json", doc)
            _optional_report(tmp, "Comparison of two allocations", f"A: {a}; B: {b}", lambda: compare_charts(doc))
        stage(out, write, ("changes.csv", "compare.json", "report.html")).publish()
    except AarakshanError as e:
        _fail(e)
    Console().print(f"{doc['candidates_changed']} candidates fare otherwise ({', '.join(f'{k}: {v}' for k, v in doc['changes'].items()) or 'none'}); "
                    f"{len(doc['posts'])} post-category rows changed; written to {out}/", highlight=False)


@app.command("report")
def annual_report(
    register: list[Path] = typer.Option(..., "--register", help="a register (read only); repeat it for the "
                                        "register of the other recruitment (direct and promotion keep one each)"),
    year: int = typer.Option(..., "--year", help="recruitment year"),
    out: Path = typer.Option(..., "--out", help="output folder: report.csv and report.html"),
    policy: Optional[str] = typer.Option(None, "--policy", help="the policy the year was solved under, for its "
                                         "recruitment year (default: the bundled model the register names)"),
    set_: list[str] = SetOpt,
):
    """The annual report on appointments (Bill 2004 s.14; Manipur Act 1976 s.13; Bihar Act 1991 s.15(2)(c)):
    per cadre and category, for direct recruitment and promotion, the vacancies, appointments by route,
    backlog carried in and out, exchanged, de-reserved and lapsed."""
    from contextlib import ExitStack

    from .annual import held, report as make_report, write_report
    from .register import Register
    from .reports import stage

    try:
        with ExitStack() as stack:
            regs = [stack.enter_context(Register(path, readonly=True)) for path in register]
            held(regs, year)
            pol = load_policy(policy or _recorded_policy(regs, year), set_)
            rep = make_report(pol, year, regs)
        stage(out, lambda tmp: write_report(tmp, rep), ("report.csv", "report.html")).publish()
    except AarakshanError as e:
        _fail(e)
    Console().print(f"annual report on appointments, recruitment year {rep.period}: "
                    f"{sum(r['appointed'] for r in rep.rows if r['post'] == 'ALL')} appointments; written to "
                    f"{out}/ (report.csv, report.html)", highlight=False)


def _optional_report(folder: Path, title: str, subtitle: str, charts) -> None:
    """report.html into `folder` where plotly is installed (an optional extra), else a warning saying so."""
    from .charts import available, page
    if available():
        page(folder / "report.html", title, subtitle, charts())
    else:
        _warn("report.html not written: it needs plotly (pip install 'aarakshan[report]')")


def _recorded_policy(regs, year: int) -> str:
    """The bundled model whose name the registers recorded for `year`."""
    from .policy.load import bundled_models
    names = {name for reg in regs for name in reg.policies_of(year)}
    found = [stem for stem, title in bundled_models().items() if title in names]
    if len(found) != 1:
        raise InputError("--policy", None, None, f"the registers recorded {year} under {sorted(names) or 'no policy'}"
                         ", which is not one bundled model: give --policy")
    return found[0]


@app.command("surrender")
def surrender_cmd(
    policy: str = PolicyOpt,
    employees: Path = typer.Option(..., "--employees", help="employees.csv: id, category, and seniority (1 = most "
                                   "senior; juniors go first) or order (the service's order of surrender)"),
    abolish: int = typer.Option(..., "--abolish", help="posts of the cadre abolished"),
    out: Path = typer.Option(..., "--out", help="output folder: surrendered.csv and surrender.json"),
    strength: Optional[int] = typer.Option(None, "--strength", help="the cadre's posts (default: the employees; "
                                           "more when some posts are vacant)"),
    engine: str = typer.Option("cpsat", "--engine", help="cpsat | greedy"),
    set_: list[str] = SetOpt,
):
    """Who is surrendered when posts of a cadre are abolished: the service's order, except that no SC, ST or
    OBC employee goes if that lowers their representation below their percentage (Bill 2004 s.12)."""
    from .reports import _write_csv, stage, write_json
    from .surrender import COLUMNS, check, protected, read_employees, rows, surrender

    _engine_among(engine, ("cpsat", "greedy"))
    try:
        pol = load_policy(policy, set_)
        protected(pol)
        emp = read_employees(employees, pol, warn=_warn)
        res = surrender(pol, emp, abolish, strength, engine)
        problems = check(pol, emp, res.surrendered, abolish, res.strength)
        doc = {"policy": pol.name, "source": pol.surrender.source, "engine": engine, "strength": res.strength,
               "abolished": abolish, "employees": len(emp.ids), "surrendered": int(res.surrendered.sum()),
               "categories": {c: {"employees": res.before[c], "posts_after": res.share_posts[c],
                                  "kept_at_least": res.floors[c]} for c in res.floors},
               "check": problems or "every rule holds"}

        def write(tmp: Path) -> None:
            _write_csv(tmp / "surrendered.csv", COLUMNS, rows(pol, res))
            write_json(tmp / "surrender.json", doc)
        stage(out, write, ("surrendered.csv", "surrender.json")).publish()
    except AarakshanError as e:
        _fail(e)
    gone = ", ".join(emp.ids[res.surrendered][:10]) + (" ..." if res.surrendered.sum() > 10 else "")
    Console().print(f"{int(res.surrendered.sum())} of {len(emp.ids)} employees surrendered ({gone or 'none'}); "
                    f"s.12 keeps {', '.join(f'{c} {k}' for c, k in res.floors.items())} at least; written to {out}/",
                    highlight=False)
    if problems:
        err.print("[bold red]the choice fails its own check[/]: " + "; ".join(problems))
        raise typer.Exit(1)


@app.command("sweep")
def sweep_cmd(
    policy: str = PolicyOpt,
    out: Path = typer.Option(..., "--out", help="output folder: scenarios.csv, results.csv, results.parquet, "
                             "changes.csv"),
    grid_: list[str] = typer.Option([], "--grid", help="KEY=V1,V2,...: repeatable, the product of the grids"),
    scenarios: Optional[Path] = typer.Option(None, "--scenarios", help="TOML file of [scenarios.NAME] tables, each "
                                             "with set = [\"KEY=VALUE\", ...]"),
    candidates: Optional[Path] = typer.Option(None, "--candidates"),
    vacancies: Optional[Path] = typer.Option(None, "--vacancies"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    years: Optional[Path] = typer.Option(None, "--years", help="a folder of year folders (as simulate takes): "
                                         "each scenario runs every year against a register of its own"),
    baseline: Optional[str] = typer.Option(None, "--baseline", help="the scenario changes.csv compares against"),
    engine: str = typer.Option("greedy", "--engine", help="greedy | cpsat"),
    workers: int = typer.Option(1, "--workers", min=1, help="local worker processes; the output is the same "
                                "bytes for any number"),
    dask: Optional[str] = typer.Option(None, "--dask", help="local (a LocalCluster of --workers processes) or "
                                       "a scheduler address tcp://HOST:8786"),
    recruitment: str = RecruitmentOpt,
    set_: list[str] = SetOpt,
):
    """Solve one recruitment (or a run of years) under many policies: a tidy table per scenario, year, post and
    category, and the changes against a baseline."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .reports import stage
    from .sweep import Inputs, Scenario, grid, read_scenarios, sweep, write

    _engine_among(engine, ("greedy", "cpsat"))
    common = _with_recruitment(set_, recruitment)
    try:
        if bool(grid_) == (scenarios is not None):
            raise InputError("--grid", None, None, "give --grid KEY=V1,V2 (repeatable) or --scenarios FILE, one of them")
        found = grid(grid_) if grid_ else read_scenarios(scenarios)
        found = [Scenario(sc.name, (*common, *sc.overrides)) for sc in found]
        if baseline is not None and baseline not in {sc.name for sc in found}:
            raise InputError("--baseline", None, None, f"no scenario named {baseline!r}; there are "
                             + ", ".join(sc.name for sc in found[:10]))
        if years is not None:
            if candidates or vacancies or preferences:
                raise InputError("--years", None, None, "give --years or --candidates/--vacancies, not both")
            folders = _year_folders(years)
            special = [d for d in folders if (d / "special").is_dir()]
            if special:
                from .errors import Unsupported
                raise Unsupported(f"{special[0] / 'special'}: special rounds are not run in a sweep; use simulate")
            inputs = [Inputs(int(d.name), *_year_inputs(d)) for d in folders]
        elif candidates is None or vacancies is None:
            raise InputError("--candidates", None, None, "give --candidates and --vacancies, or --years")
        else:
            inputs = [Inputs(None, candidates, vacancies, preferences)]
        columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
        with Progress(*columns, console=err) as bar:
            task = bar.add_task("scenarios", total=len(found))
            result = sweep(policy, found, inputs, engine, workers, dask,
                           progress=lambda done: bar.update(task, completed=done))
        refused = [(sc.name, status) for sc, status in result.status if status != "solved"]

        def write_all(tmp: Path) -> None:
            from .charts import sweep_charts
            write(tmp, result, baseline)
            _optional_report(tmp, f"Sweep: {len(found)} scenarios", f"policy {policy}" + (
                ". Refused: " + "; ".join(f"{name} {status}" for name, status in refused) if refused else ""),
                lambda: sweep_charts(list(result.rows)))
        stage(out, write_all, ("scenarios.csv", "results.csv", "results.parquet", "changes.csv",
                               "report.html")).publish()
    except AarakshanError as e:
        _fail(e)
    Console().print(f"{len(found)} scenarios x {len(inputs)} year(s): {len(result.rows)} rows written to {out}/ "
                    "(scenarios.csv, results.csv, results.parquet" + (", changes.csv" if baseline else "")
                    + ", report.html)", highlight=False)
    for name, status in refused[:10]:
        _warn(f"scenario {name}: {status}")


@app.command()
def audit(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates"),
    vacancies: Path = typer.Option(..., "--vacancies"),
    out: Path = typer.Option(..., "--out", help="output folder: audit.json, contested.csv, answers.csv, "
                             "alternatives/"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    ask: list[str] = typer.Option([], "--ask", help="ID (could any lawful allocation select ID?), ID@POST (at "
                                  "POST?) or '!ID' (leave ID out?); repeatable"),
    reading: list[str] = typer.Option([], "--reading", help="KEY=V1,V2: an option the law leaves open, every "
                                      "value solved and compared (e.g. horizontal.open_compartment_for_all="
                                      "true,false); adds to the model file's open_questions, or narrows one of "
                                      "them; repeatable"),
    declared: bool = typer.Option(True, "--declared/--no-declared", help="solve the model file's "
                                  "open_questions (--no-declared: only --reading's)"),
    register: Optional[Path] = typer.Option(None, "--register", help="the register the year is solved against "
                                            "(read only): its backlog and roster position"),
    year: Optional[int] = typer.Option(None, "--year", help="recruitment year (with --register)"),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="seconds per CP-SAT solve"),
    workers: int = typer.Option(1, "--workers"),
    prove_unique: bool = typer.Option(False, "--prove-unique", help="prove uniqueness with CP-SAT even where "
                                      "the theorem settles it (one strict merit list, no horizontal minimums "
                                      "with preferences); slow on large instances"),
    recruitment: str = RecruitmentOpt,
    set_: list[str] = SetOpt,
):
    """Is the allocation the only lawful one, who is contested, and could a named candidate have been selected
    (or left out) under any lawful allocation, and if not, which rules and whose rights stand in the way."""
    from .audit import audit as run_audit, parse
    from .audit.readings import open_options, parse_readings
    from .audit.report import stage_audit
    from .register import Register

    workers = _check_engine("cpsat", time_limit, workers)
    _check_register_args(register, year)
    set_ = _with_recruitment(set_, recruitment)
    try:
        pol = load_policy(policy, set_)
        readings = open_options(pol, parse_readings(reading), declared)
        for o in readings:
            for v in o.values:
                load_policy(policy, [*set_, f"{o.key}={v}"])   # a bad reading is refused before any solve
        problem = read_problem(pol, candidates, vacancies, preferences, warn=_warn)
        questions = [parse(q, problem) for q in ask]
        state = None
        if register is not None:
            with Register(register, readonly=True) as reg:
                reg.check_recruitment(pol.recruitment)
                state = reg.state(year)
        with err.status("auditing: uniqueness and the questions with CP-SAT..."):
            result = run_audit(pol, problem, questions, readings, lambda sets: load_policy(policy, [*set_, *sets]),
                               time_limit, workers, prove_unique, state)
        stage_audit(out, result).publish()
    except AarakshanError as e:
        _fail(e)
    Console().print(f"unique: {result.unique}; contested: {len({r[0] for r in result.contested})} candidates; "
                    f"{len(result.readings)} readings")
    for a in result.answers:
        Console().print(f"{a['question']}: {a['answer']}" + (f" ({a['reading']})" if a['answer'] == "yes" else "")
                        + f" - {a['detail']}", highlight=False)
    Console().print(f"written to {out}/ (audit.json, contested.csv, answers.csv)")
    if result.unique is None or any(a["answer"] == "unknown" for a in result.answers):
        raise typer.Exit(4)


@app.command()
def verify(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates"),
    vacancies: Path = typer.Option(..., "--vacancies"),
    allocation: Path = typer.Option(..., "--allocation"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    register: Optional[Path] = typer.Option(None, "--register", help="the register the year was solved against "
                                            "(read only)"),
    year: Optional[int] = typer.Option(None, "--year", help="recruitment year (with --register)"),
    round_: str = typer.Option("main", "--round", help="main, or special (the year's reserved-only round)"),
    recruitment: str = RecruitmentOpt,
    set_: list[str] = SetOpt,
):
    """Check an allocation against every rule, independently of both engines. Exit 1 on violations."""
    from .register import Register
    from .vacancy import determine_seats
    from .verify import read_allocation, verify as run_verify

    _check_register_args(register, year)
    special = _check_round(round_, register)
    set_ = _with_recruitment(set_, recruitment)
    try:
        pol = load_policy(policy, set_)
        problem = read_problem(pol, candidates, vacancies, preferences, warn=_warn)
        seats = None
        if register is not None:
            with Register(register, readonly=True) as reg:
                reg.check_recruitment(pol.recruitment)
                if special:
                    from .register.special import special_round
                    # (the backlog as the special round found it, whether or not it is recorded yet)
                    pol, problem, state = special_round(pol, problem, year,
                                                        reg.backlog(year, replace=reg.has_special(year)))
                else:
                    state = reg.state(year)
                seats = determine_seats(pol, problem, enforce_ceiling=False, state=state)
        alloc = read_allocation(allocation, problem, pol)
        violations = run_verify(pol, problem, alloc, seats)
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


ROSTER_LIMIT = 1_000_001  # points; a cadre of a million posts is already beyond any service


@app.command()
def roster(policy: str = PolicyOpt, points: Optional[int] = typer.Option(None, "--points", min=1),
           start: int = typer.Option(1, "--start", min=1, help="first point (a running roster resumes here)"),
           cadre: Optional[int] = typer.Option(None, "--cadre", min=1, max=ROSTER_LIMIT,
                                               help="sanctioned posts of the cadre: points past it are refused"),
           vacated: Optional[str] = typer.Option(None, "--vacated", help="points of a fully operated roster whose "
                                                 "holders left, e.g. 4,7,8: prints the replacement categories"),
           recruitment: str = RecruitmentOpt, set_: list[str] = SetOpt):
    """Print the post-based roster as CSV (point,category): `--points` points from `--start` of the running
    roster (points count on through the policy's cycles, each cycle's end holding every share); or, with
    `--vacated`, the replacement rule (R.K. Sabharwal 1995)."""
    set_ = _with_recruitment(set_, recruitment)
    try:
        pol = load_policy(policy, set_)
        if vacated is not None:
            if not all(x.strip().isascii() and x.strip().isdigit() for x in vacated.split(",")):
                raise InputError("--vacated", None, None, f"{vacated!r} is not a comma-separated list of points")
            at = [int(x) for x in vacated.split(",")]
            try:
                rows = list(zip(at, make_replacement(pol, at)))
            except ValueError as e:
                raise InputError("--vacated", None, None, str(e)) from None
        elif points is None:
            raise InputError("--points", None, None, "give --points N (or --vacated P,Q,...)")
        elif cadre is not None:
            from .vacancy.determine import check_cadre
            check_cadre(pol, "--cadre", cadre, start, points)
            rows = [(start + k, code) for k, code in enumerate(make_running(pol, start, points))]
        elif start + points > ROSTER_LIMIT:
            raise InputError("--points", None, None, f"points {start}..{start + points - 1} reach past "
                             f"{ROSTER_LIMIT - 1:,}; a roster that long is not a cadre's")
        else:
            rows = [(start + k, code) for k, code in enumerate(make_running(pol, start, points))]
    except AarakshanError as e:
        _fail(e)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["point", "category"])
    w.writerows(rows)


@app.command()
def simulate(
    policy: str = PolicyOpt,
    years: Path = typer.Option(..., "--years", help="folder with one subfolder per year (e.g. 2021/) holding "
                               "candidates.csv, vacancies.csv and optionally preferences.csv, and optionally "
                               "special/ with the year's special round (its candidates.csv and vacancies.csv)"),
    register: Path = typer.Option(..., "--register", help="carry-forward register (SQLite); created if missing"),
    out: Path = typer.Option(..., "--out", help="output folder: one subfolder per year and simulation.csv"),
    engine: str = typer.Option("cpsat", "--engine", help="cpsat | greedy | both"),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="seconds for CP-SAT, per year"),
    workers: int = typer.Option(1, "--workers"),
    recruitment: str = RecruitmentOpt,
    set_: list[str] = SetOpt,
):
    """Solve recruitment years in order against one register: carried vacancies, exchange after N years,
    lapse, the ceiling with backlog. Prints and writes (simulation.csv) a table per year and category."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .register import Register
    from .reports import write_simulation

    workers = _check_engine(engine, time_limit, workers)
    set_ = _with_recruitment(set_, recruitment)
    try:
        folders = _year_folders(years)
        pol = load_policy(policy, set_)
        inputs = [(int(d.name), *_year_inputs(d)) for d in folders]
        # Every year's files are checked before the first is solved: a bad file in year five must not leave
        # the register holding four years of a run that cannot finish.
        for _, cand, vac, prefs in inputs:
            read_problem(pol, cand, vac, prefs, warn=_warn)
        specials = {y: _year_inputs(folder / "special") for (y, *_), folder in zip(inputs, folders)
                    if (folder / "special").is_dir()}
        for cand, vac, prefs in specials.values():
            read_problem(pol, cand, vac, prefs, warn=_warn)
        reg = Register(register)
        reg.check_recruitment(pol.recruitment)
        done = _resumable(reg, inputs, register)
    except AarakshanError as e:
        _fail(e)
    rows = _earlier_rows(out / "simulation.csv", done)
    if done:
        err.print(f"resuming: {', '.join(map(str, done))} already recorded in {register}", highlight=False)
        inputs = [x for x in inputs if x[0] not in done]
    opts = RunOptions(pol, engine, time_limit, workers, overrides=tuple(set_), quiet=True)
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with Progress(*columns, console=err) as progress:
        task = progress.add_task("years", total=len(inputs))
        for year, cand, vac, prefs in inputs:
            stage = _Stage(progress, task, year)
            stage.update("reading inputs...")
            sol, rec = _solve_year(opts, Round(cand, vac, prefs, out / str(year), reg, year), stage)
            rows += _table_rows(year, "main", sol, rec, engine)
            if year in specials:
                stage.update("special round...")
                sol, rec = _solve_year(opts, Round(*specials[year], out / str(year) / "special", reg, year,
                                                   special=True), stage)
                rows += _table_rows(year, "special", sol, rec, engine)
            progress.advance(task)
    write_simulation(out / "simulation.csv", rows)
    tbl = Table(title=f"{pol.name}: {len(inputs)} years, register {register}")
    for col in rows[0] if rows else []:
        tbl.add_column(col.replace("_", " "), justify="left" if col == "category" else "right", overflow="fold")
    for r in rows:
        if any(v for k, v in r.items() if k not in ("year", "category")):  # (the CSV keeps the all-zero rows)
            tbl.add_row(*map(str, r.values()))
    Console().print(tbl)
    Console().print(f"per-year outputs in {out}/YEAR/, the table in {out}/simulation.csv")


def _table_rows(year: int, round_: str, sol, rec, engine: str) -> list[dict]:
    """simulation.csv rows of one round: reserved categories in policy order, then horizontal seats."""
    return [{"year": year, "round": round_, "category": code, **row,
             **({"engine_differences": sol.differences} if engine == "both" else {})}
            for code, row in rec.table.items()]


def _resumable(reg, inputs, register) -> list[int]:
    """The years of the folder a register already holds, when they are its first years in order (a simulation
    stopped part way resumes after them); any other overlap is refused."""
    have, wanted = reg.years(), [y for y, *_ in inputs]
    since = [y for y in have if y >= wanted[0]]
    if since == wanted[:len(since)]:
        return since
    raise InputError(register, None, None, f"already holds years {have}, which are not the first years of this "
                     "folder in order; simulate into a new register file (or one that ends before the first "
                     "year, or that holds this folder's first years, to resume)")


def _earlier_rows(path: Path, years: list[int]) -> list[dict]:
    """simulation.csv rows of the years a resumed simulation does not solve again."""
    if not years or not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as fh:
        return [dict(r, year=int(r["year"])) for r in csv.DictReader(fh) if int(r["year"]) in years]


class _Stage:
    """The progress bar's description stands in for the status line while years run."""

    def __init__(self, progress, task, year):
        self.progress, self.task, self.year = progress, task, year

    def update(self, what: str) -> None:
        self.progress.update(self.task, description=f"year {self.year}: {what}")

    def stop(self) -> None:
        self.progress.stop()


def _year_folders(years: Path) -> list[Path]:
    """The year folders (named like 2021) of a years folder, in order."""
    folders = sorted((d for d in years.iterdir() if d.is_dir() and d.name.isdigit()), key=lambda d: int(d.name)) \
        if years.is_dir() else []
    if not folders:
        raise InputError(years, None, None, "no year folders (named like 2021) found")
    return folders


def _year_inputs(d: Path):
    def pick(stem: str, required: bool = True):
        for ext in (".csv", ".parquet"):
            if (d / f"{stem}{ext}").exists():
                return d / f"{stem}{ext}"
        if required:
            raise InputError(d, None, None, f"no {stem}.csv (or .parquet) in this year folder")
        return None
    return pick("candidates"), pick("vacancies"), pick("preferences", required=False)


@app.command()
def models():
    """List the bundled policy models (the names `--policy` takes) with their titles."""
    from .policy.load import MODELS_DIR, bundled_models

    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["name", "title"])
    for name, title in bundled_models().items():
        w.writerow([name, title])
    err.print(f"[dim]from {MODELS_DIR}[/]", highlight=False)


@app.command()
def demo(out: Path = typer.Option(Path("aarakshan-demo"), "--out"),
         engine: str = typer.Option("both", "--engine")):
    """Solve a bundled example (Bihar 1991, 5,000 candidates, 400 posts) end to end."""
    from .instances import generate, write_instance

    pol = load_policy("bihar-1991")
    inputs = write_instance(out / "input", *generate(pol, 5000, 400, seed=1991, women_share=0.3)[:2])
    Console().print(f"inputs written to {inputs}/ (bundled policy bihar-1991; `aarakshan models` lists them)")
    solve(policy="bihar-1991", candidates=inputs / "candidates.csv", vacancies=inputs / "vacancies.csv",
          out=out, preferences=None, engine=engine, register=None, year=None, replace=False, time_limit=None,
          workers=1, independent=False, set_=[], round_="main", recruitment="direct", quiet=False, json_=False,
          report=False)


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


if __name__ == "__main__":
    main()
