"""`sweep`: a recruitment (or a run of years) under many policies, and what each changes against a baseline."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from ..errors import AarakshanError, InputError, OptionError
from .common import say, cells, PolicyOpt, RecruitmentOpt, SetOpt, app, check_engine, fail, load, optional_report, warn
from .progress import bar as progress_bar

OUTPUTS = ("scenarios.csv", "results.csv", "results.parquet", "changes.csv", "against_baseline.csv", "winners.csv",
           "contributions.csv", "report.html", "summary.json")


@app.command("sweep")
def sweep_cmd(
    policy: str = PolicyOpt,
    out: Path = typer.Option(..., "--out", help="output folder: scenarios.csv, results.csv, results.parquet, "
                             "and with a baseline changes.csv, against_baseline.csv, winners.csv"),
    grid_: list[str] = typer.Option([], "--grid", help="KEY=V1,V2,...: repeatable, the product of the grids"),
    scenarios: Optional[Path] = typer.Option(None, "--scenarios", help="TOML file of \\[scenarios.NAME] tables, "
                                             "each with set = \\[\"KEY=VALUE\", ...]"),
    stack_: list[str] = typer.Option([], "--stack", help="KEY=VALUE: repeatable; the policy as given, then each "
                                     "override added in turn (contributions.csv: each one's own effect)"),
    candidates: Optional[Path] = typer.Option(None, "--candidates"),
    vacancies: Optional[Path] = typer.Option(None, "--vacancies"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    ranks: Optional[Path] = typer.Option(None, "--ranks", help="ranks.csv: the merit lists posts rank by"),
    years: Optional[Path] = typer.Option(None, "--years", help="a folder of year folders (as simulate takes): "
                                         "each scenario runs every year against a register of its own"),
    baseline: Optional[str] = typer.Option(None, "--baseline", help="the scenario the others are compared "
                                           "against (with --stack: stock, the policy as given)"),
    engine: str = typer.Option("greedy", "--engine", help="greedy | cpsat"),
    workers: int = typer.Option(1, "--workers", min=1, help="local worker processes; the output is the same "
                                "bytes for any number"),
    dask: Optional[str] = typer.Option(None, "--dask", help="local (a LocalCluster of --workers processes) or "
                                       "a scheduler address tcp://HOST:8786"),
    recruitment: str = RecruitmentOpt,
    set_: list[str] = SetOpt,
):
    """Solve one recruitment (or a run of years) under many policies: a tidy table per scenario, year, post and
    category, and against a baseline the changes, the difference by category and the winners and losers."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, \
        TimeRemainingColumn

    from ..io.staging import stage
    from ..study.sweep import scenario_notes, sweep, write
    from ..study.charts import provenance_table
    from ..study.sweep_tables import study_summary

    check_engine(engine, among=("greedy", "cpsat"))
    try:
        found, baseline = _scenarios(policy, grid_, scenarios, stack_, set_, recruitment, baseline)
        inputs = _inputs(years, candidates, vacancies, preferences, ranks)
        columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TextColumn("left:"), TimeRemainingColumn()]
        with progress_bar(*columns) as bar:
            task = bar.add_task(f"reading and checking the inputs of {len(inputs)} year(s)", total=len(found))
            result = sweep(policy, found, inputs, engine, workers, dask, recruitment=recruitment, baseline=baseline,
                           progress=lambda done: bar.update(task, completed=done, description="scenarios"))
        refused = [(name, status) for name, status in result.status.items() if status != "solved"]
        for sc, notes in zip(result.scenarios, scenario_notes(result)):
            for note in notes:
                warn(f"scenario {sc.name}: {note}")
        reported = []

        base = load(policy, set_, recruitment)
        if base.slide.unfilled_offered and years is None:
            warn(f"{base.name} is a counselling of rounds (slide.unfilled_offered): each scenario's figures are of its "
                 "first round, before anyone answers; the later rounds turn on the candidates' responses, which a "
                 "sweep does not take (run slide round by round)")
        doc = study_summary(base, list(set_), engine, found, inputs, result, baseline)

        def write_all(tmp: Path) -> None:
            from ..io.staging import write_json
            from ..study.charts import sweep_charts
            write(tmp, result, baseline, stacked=bool(stack_))
            write_json(tmp / "summary.json", doc)
            heading = f"policy {policy}" + (f"; baseline {baseline}" if baseline else "") + (
                ". Refused: " + "; ".join(f"{name} {status}" for name, status in refused) if refused else "")
            reported.append(optional_report(tmp, f"Sweep: {len(found)} scenarios", heading,
                                            lambda: [*sweep_charts(result, baseline, bool(stack_)),
                                                     *provenance_table(doc)]))
        stage(out, write_all, OUTPUTS, reads=[years, candidates, vacancies, preferences, ranks]).publish()
    except OptionError as e:
        # (--set's overrides were checked alone first: a bad one found now is a --grid or --stack value's)
        fail(OptionError("grid" if grid_ else "stack", e.problem) if e.field == "overrides" and (grid_ or stack_)
             else e)
    except AarakshanError as e:
        fail(e)
    if baseline is not None:
        _print_against(result, baseline, bool(stack_))
    written = ["scenarios.csv", "results.csv", "results.parquet"] + \
        (["changes.csv", "against_baseline.csv", "winners.csv"] if baseline else []) + \
        (["contributions.csv"] if stack_ else []) + (["report.html"] if reported and reported[0] else [])
    short = f"; {len(refused)} refused, with no figures from the year of refusal on (scenarios.csv's status)" \
        if refused else ""
    say(f"{len(found)} scenarios x {len(inputs)} year(s){short}: {len(result.rows)} rows written to "
                    f"{out}/ ({', '.join(written)})", highlight=False, markup=False)
    for name, status in refused[:10]:
        warn(f"scenario {name}: {status}")


def _scenarios(policy, grid_, scenarios, stack_, set_, recruitment, baseline):
    """The scenarios of exactly one of --grid, --scenarios, --stack, each with the common --set overrides first,
    and the baseline (with --stack: stock)."""
    from ..study.sweep import Scenario, grid, read_scenarios, stack
    if sum(map(bool, (grid_, scenarios is not None, stack_))) != 1:
        raise InputError("--grid", None, None, "give one of --grid KEY=V1,V2 (repeatable), --scenarios FILE "
                         "or --stack KEY=VALUE (repeatable)")
    found = grid(grid_) if grid_ else read_scenarios(scenarios) if scenarios is not None else stack(stack_)
    if stack_ and baseline is None:
        baseline = "stock"
    if set_:
        load(policy, set_, recruitment)   # (the overrides every scenario shares, blamed on --set)
    found = [Scenario(sc.name, (*set_, *sc.overrides), sc.origin) for sc in found]
    if baseline is not None and baseline not in {sc.name for sc in found}:
        raise InputError("--baseline", None, None, f"no scenario named {baseline!r}; there are "
                         + ", ".join(sc.name for sc in found[:10]))
    return found, baseline


def _inputs(years, candidates, vacancies, preferences, ranks=None):
    """One recruitment's files, or a folder of years (no special rounds in a sweep)."""
    from ..runs import folder_inputs, year_folders
    from ..study.sweep import Inputs
    if years is not None:
        if candidates or vacancies or preferences or ranks:
            raise InputError("--years", None, None, "give --years or --candidates/--vacancies, not both")
        folders = year_folders(years)
        special = [d for d in folders if (d / "special").is_dir()]
        if special:
            from ..errors import Unsupported
            raise Unsupported(f"{special[0] / 'special'}: special rounds are not run in a sweep; use simulate")
        return [Inputs(int(d.name), *folder_inputs(d)) for d in folders]
    if candidates is None or vacancies is None:
        raise InputError("--candidates", None, None, "give --candidates and --vacancies, or --years")
    return [Inputs(None, candidates, vacancies, preferences, ranks)]


def _print_against(result, baseline: str, stacked: bool) -> None:
    """Selections by own category against the baseline (or, stacked, each step's contribution), then each
    scenario's winners and losers (the first three; winners.csv holds all)."""
    from ..study.sweep_tables import against_baseline, contributions
    rows = contributions(result) if stacked else against_baseline(result, baseline)
    title = "Each override's own contribution: selections by own category" if stacked else \
        f"Selections by own category against {baseline}"
    t = Table(title=title)
    for c in ("step" if stacked else "scenario", "category", "before" if stacked else baseline, "after" if stacked
              else "scenario's", "difference", "percent", "years"):
        t.add_column(c, justify="left" if c in ("step", "scenario", "category", "years") else "right")
    for r in rows:
        if stacked and r[3] == "selected":
            t.add_row(*cells(r[0], r[2], str(r[4]), str(r[5]), f"{r[6]:+d}", "" if r[7] is None else f"{r[7]:+.1f}%", r[8]))
        elif not stacked and r[2] == "selected":
            t.add_row(*cells(r[0], r[1], str(r[3]), str(r[4]), f"{r[5]:+d}", "" if r[6] is None else f"{r[6]:+.1f}%", r[7]))
    Console().print(t)
    for name, table in result.winners[:3]:
        if table:
            print_winners(list(table), f"Winners and losers, {baseline} to {name}")
    if len(result.winners) > 3:
        say(f"(winners and losers of {len(result.winners) - 3} more scenarios in winners.csv)")


def print_winners(rows: list[dict], title: str) -> None:
    """The winners-and-losers table (`solver.study.winners.tally`) on the console: the kinds that occur, and the net."""
    from ..study.winners import KINDS
    kinds = [k for k in KINDS if any(r[k] for r in rows)]
    t = Table(title=title)
    for c in ("own category", "traits", *kinds, "net posts"):
        t.add_column(c, justify="left" if c in ("own category", "traits") else "right")
    for r in rows:
        t.add_row(*cells(r["category"], r["traits"], *(str(r[k]) for k in kinds), f"{r['net']:+d}"))
    Console().print(t)
