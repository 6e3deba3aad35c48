"""`sweep` and `compare`: a recruitment under many policies, and what changed between two runs."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from ..errors import AarakshanError, InputError
from .common import PolicyOpt, RecruitmentOpt, SetOpt, app, check_engine, err, fail, load, optional_report, warn


@app.command()
def compare(
    a: Path = typer.Argument(..., help="a `solve` output folder (the baseline)"),
    b: Path = typer.Argument(..., help="another `solve` output folder (the scenario)"),
    out: Path = typer.Option(..., "--out", help="output folder: changes.csv and compare.json"),
    candidates: Optional[Path] = typer.Option(None, "--candidates", help="candidates.csv, for counts by the "
                                              "candidates' own category (default: the file the runs recorded)"),
    other_candidates: bool = typer.Option(False, "--other-candidates", help="compare runs solved from different "
                                          "candidates (refused by default: two merit lists)"),
):
    """What changed from A to B: who gains or loses a post, selections, cutoffs and unfilled per post and
    category, selections by the candidates' own category."""
    from ..compare import CHANGE_COLUMNS, compare as run_compare
    from ..io.staging import stage, write_csv, write_json

    try:
        rows, doc = run_compare(a, b, candidates, other_candidates)

        def write(tmp: Path) -> None:
            from ..charts import compare_charts
            write_csv(tmp / "changes.csv", CHANGE_COLUMNS, rows)
            write_json(tmp / "compare.json", doc)
            optional_report(tmp, "Comparison of two allocations", f"A: {a}; B: {b}", lambda: compare_charts(doc))
        stage(out, write, ("changes.csv", "compare.json", "report.html")).publish()
    except AarakshanError as e:
        fail(e)
    if doc.get("winners_losers"):
        print_winners(doc["winners_losers"], "Winners and losers, A to B")
    Console().print(f"{doc['candidates_changed']} candidates fare otherwise ({', '.join(f'{k}: {v}' for k, v in doc['changes'].items()) or 'none'}); "
                    f"{len(doc['posts'])} post-category rows changed; written to {out}/", highlight=False)


def print_winners(rows: list[dict], title: str) -> None:
    """The winners-and-losers table (`solver.winners.tally`) on the console: the kinds that occur, and the net."""
    from rich.table import Table

    from ..winners import KINDS
    kinds = [k for k in KINDS if any(r[k] for r in rows)]
    t = Table(title=title)
    for c in ("own category", "traits", *kinds, "net posts"):
        t.add_column(c, justify="left" if c in ("own category", "traits") else "right")
    for r in rows:
        t.add_row(r["category"], r["traits"], *(str(r[k]) for k in kinds), f"{r['net']:+d}")
    Console().print(t)


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

    from ..io.staging import stage
    from ..sweep import Inputs, Scenario, grid, read_scenarios, sweep, write

    from ..runs import folder_inputs, year_folders

    check_engine(engine, among=("greedy", "cpsat"))
    try:
        if bool(grid_) == (scenarios is not None):
            raise InputError("--grid", None, None, "give --grid KEY=V1,V2 (repeatable) or --scenarios FILE, one of them")
        found = grid(grid_) if grid_ else read_scenarios(scenarios)
        if set_:
            load(policy, set_, recruitment)   # (the overrides every scenario shares, blamed on --set)
        found = [Scenario(sc.name, (*set_, *sc.overrides), sc.origin) for sc in found]
        if baseline is not None and baseline not in {sc.name for sc in found}:
            raise InputError("--baseline", None, None, f"no scenario named {baseline!r}; there are "
                             + ", ".join(sc.name for sc in found[:10]))
        if years is not None:
            if candidates or vacancies or preferences:
                raise InputError("--years", None, None, "give --years or --candidates/--vacancies, not both")
            folders = year_folders(years)
            special = [d for d in folders if (d / "special").is_dir()]
            if special:
                from ..errors import Unsupported
                raise Unsupported(f"{special[0] / 'special'}: special rounds are not run in a sweep; use simulate")
            inputs = [Inputs(int(d.name), *folder_inputs(d)) for d in folders]
        elif candidates is None or vacancies is None:
            raise InputError("--candidates", None, None, "give --candidates and --vacancies, or --years")
        else:
            inputs = [Inputs(None, candidates, vacancies, preferences)]
        columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
        with Progress(*columns, console=err) as bar:
            task = bar.add_task("scenarios", total=len(found))
            result = sweep(policy, found, inputs, engine, workers, dask, recruitment=recruitment,
                           progress=lambda done: bar.update(task, completed=done))
        refused = [(sc.name, status) for sc, status in result.status if status != "solved"]
        from ..sweep import scenario_notes
        for (sc, _), notes in zip(result.status, scenario_notes(result)):
            for note in notes:
                warn(f"scenario {sc.name}: {note}")

        def write_all(tmp: Path) -> None:
            from ..charts import sweep_charts
            write(tmp, result, baseline)
            optional_report(tmp, f"Sweep: {len(found)} scenarios", f"policy {policy}" + (
                ". Refused: " + "; ".join(f"{name} {status}" for name, status in refused) if refused else ""),
                lambda: sweep_charts(list(result.rows)))
        stage(out, write_all, ("scenarios.csv", "results.csv", "results.parquet", "changes.csv",
                               "report.html")).publish()
    except AarakshanError as e:
        fail(e)
    Console().print(f"{len(found)} scenarios x {len(inputs)} year(s): {len(result.rows)} rows written to {out}/ "
                    "(scenarios.csv, results.csv, results.parquet" + (", changes.csv" if baseline else "")
                    + ", report.html)", highlight=False)
    for name, status in refused[:10]:
        warn(f"scenario {name}: {status}")
