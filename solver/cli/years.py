"""`simulate` and `report`: recruitment years against a register, and the annual report the register makes."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..errors import AarakshanError, InputError
from .common import say, cells, PolicyOpt, RecruitmentOpt, SetOpt, app, check_engine, err, fail, load, warn
from .progress import bar as progress_bar


@app.command()
def simulate(
    policy: str = PolicyOpt,
    years: Path = typer.Option(..., "--years", help="folder with one subfolder per year (e.g. 2021/) holding "
                               "candidates.csv, vacancies.csv and optionally preferences.csv and ranks.csv, and optionally "
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
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from ..register import Register
    from ..outcome.reports import write_simulation
    from ..runs import RunOptions, check_inputs, earlier_rows, read_years, resumable, run_years, simulation_rows

    chosen, workers = check_engine(engine, time_limit, workers)
    try:
        inputs = read_years(years)
        pol = load(policy, set_, recruitment)
        check_inputs(pol, inputs, warn=warn)
        reg = Register(register)
        reg.check_recruitment(pol.recruitment)
        recorded = resumable(reg, inputs)
    except AarakshanError as e:
        fail(e)
    rows = earlier_rows(reg, pol, recorded, chosen)
    if recorded:
        err.print(f"resuming: {', '.join(map(str, recorded))} already recorded in {register}", highlight=False)
        inputs = [y for y in inputs if y.year not in recorded]
    opts = RunOptions(pol, chosen, time_limit, workers, overrides=tuple(set_))
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    try:
        with progress_bar(*columns) as progress:
            task = progress.add_task("years", total=len(inputs))
            last = {y.year: "special" if y.special else "main" for y in inputs}   # a year's last round
            for run in run_years(opts, inputs, reg, out, warn=warn,
                                 progress=lambda text: progress.update(task, description=text)):
                rows += simulation_rows(run, chosen)
                if run.round == last[run.year]:
                    progress.advance(task)
    except AarakshanError as e:
        fail(e)
    write_simulation(out / "simulation.csv", rows)
    tbl = Table(title=Text(f"{pol.name}: {len(inputs)} years, register {register}"))
    for col in rows[0] if rows else []:
        tbl.add_column(col.replace("_", " "), justify="left" if col == "category" else "right", overflow="fold")
    for r in rows:
        if any(v for k, v in r.items() if k not in ("year", "category")):  # (the CSV keeps the all-zero rows)
            tbl.add_row(*cells(*map(str, r.values())))
    Console().print(tbl)
    say(f"per-year outputs in {out}/YEAR/, the table in {out}/simulation.csv")


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

    from ..study.annual import held, report as make_report, write_report
    from ..io.staging import stage
    from ..policy import load_policy
    from ..register import Register

    try:
        with ExitStack() as stack:
            regs = [stack.enter_context(Register(path, readonly=True)) for path in register]
            held(regs, year)
            pol = load_policy(policy or _recorded_policy(regs, year), set_)
            recorded = {name for reg in regs for name in reg.policies_of(year)}
            if pol.name not in recorded:
                raise InputError("--policy", None, None, f"{year} was solved under {sorted(recorded)}, not "
                                 f"{pol.name!r}: its report is that policy's (give it, or leave --policy out)")
            rep = make_report(pol, year, regs)
        stage(out, lambda tmp: write_report(tmp, rep), ("report.csv", "report.html")).publish()
    except AarakshanError as e:
        fail(e)
    say(f"annual report on appointments, recruitment year {rep.period}: "
                    f"{sum(r['appointed'] for r in rep.rows if r['post'] == 'ALL')} appointments; written to "
                    f"{out}/ (report.csv, report.html)", highlight=False)


def _recorded_policy(regs, year: int) -> str:
    """The bundled model whose name the registers recorded for `year`."""
    from ..policy.load import bundled_models
    names = {name for reg in regs for name in reg.policies_of(year)}
    found = [stem for stem, title in bundled_models().items() if title in names]
    if len(found) != 1:
        raise InputError("--policy", None, None, f"the registers recorded {year} under {sorted(names) or 'no policy'}"
                         ", which is not one bundled model: give --policy")
    return found[0]
