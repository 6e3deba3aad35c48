"""Recruitment years in order against one register, as `aarakshan simulate` and a multi-year sweep run them:
each year's main round, then its special round where it has one. A year's carried vacancies, roster position
and exchange claims come from the years before it, so the years run one after another, never in parallel."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..errors import InputError
from ..io.readers import read_problem
from .year import ENGINE_DIFFERENCES, Done, Round, RunOptions, Say, YearRun, _quiet, run_year


@dataclass(frozen=True)
class YearInputs:
    """A year's input files (or tables), and its special round's where it has one."""

    year: int
    candidates: object
    vacancies: object
    preferences: object = None
    ranks: object = None          # ranks.csv: merit lists besides the candidates' own (`solver.io.ranks`)
    special: "YearInputs | None" = None


def year_folders(years: str | Path) -> list[Path]:
    """The year folders (named like 2021) of a years folder, in order."""
    years = Path(years)
    folders = sorted((d for d in years.iterdir() if d.is_dir() and d.name.isdigit()), key=lambda d: int(d.name)) \
        if years.is_dir() else []
    if not folders:
        raise InputError(years, None, None, "no year folders (named like 2021) found")
    return folders


def folder_inputs(d: Path) -> tuple[Path, Path, Path | None, Path | None]:
    """A year folder's candidates, vacancies and (optional) preferences and ranks files, CSV or Parquet."""
    def pick(stem: str, required: bool = True):
        for ext in (".csv", ".parquet"):
            if (d / f"{stem}{ext}").exists():
                return d / f"{stem}{ext}"
        if required:
            raise InputError(d, None, None, f"no {stem}.csv (or .parquet) in this year folder")
        return None
    return pick("candidates"), pick("vacancies"), pick("preferences", required=False), pick("ranks", required=False)


def read_years(years: str | Path) -> list[YearInputs]:
    """The years of a folder of year folders (each with candidates, vacancies, optionally preferences and ranks,
    and optionally special/ with the year's special round), in order."""
    out = []
    for d in year_folders(years):
        special = YearInputs(int(d.name), *folder_inputs(d / "special")) if (d / "special").is_dir() else None
        out.append(YearInputs(int(d.name), *folder_inputs(d), special=special))
    return out


def check_inputs(policy, years: list[YearInputs], warn: Say = _quiet) -> None:
    """Every year's files read and checked before the first is solved: a bad file in year five must not leave
    the register holding four years of a run that cannot finish."""
    for y in years:
        for x in (y, y.special):
            if x is not None:
                read_problem(policy, x.candidates, x.vacancies, x.preferences, warn=warn, ranks=x.ranks)


def resumable(register, years: list[YearInputs]) -> list[int]:
    """The years a register already holds, when they are the first years given, in order (a run stopped part
    way resumes after them); any other overlap is refused."""
    have, wanted = register.years(), [y.year for y in years]
    since = [y for y in have if y >= wanted[0]]
    if since == wanted[:len(since)]:
        return since
    raise InputError(register.path, None, None, f"already holds years {have}, which are not the first years of "
                     "this folder in order; simulate into a new register file (or one that ends before the first "
                     "year, or that holds this folder's first years, to resume)")


def run_years(options: RunOptions, years: list[YearInputs], register, out: Path | None = None, *,
              problems: dict | None = None, progress: Say = _quiet, done: Done = _quiet,
              warn: Say = _quiet) -> Iterator[YearRun]:
    """Each year's rounds solved in order against `register`, each recorded before the next is solved; yields
    each round's `YearRun` as it is done (an exception stops the run at that round, the earlier ones recorded).

    Parameters
    ----------
    options : the policy, engine and solver settings of every year.
    years : the years in order (`read_years`), without those the register holds already (`resumable`).
    register : an open `solver.register.Register`.
    out : the folder of the per-year output folders (`out/YEAR/`, `out/YEAR/special/`), or None for none.
    problems : year -> `Problem` already read (a sweep reads each year once for many scenarios), or None.
    progress, done, warn : as `run_year` takes them, each year's text led by the year.
    """
    problems = problems or {}
    for y in years:
        lead = lambda text, y=y: f"year {y.year}: {text}"   # noqa: E731
        rounds = [(y, False, None if out is None else out / str(y.year))]
        if y.special is not None:
            rounds.append((y.special, True, None if out is None else out / str(y.year) / "special"))
        for inputs, special, folder in rounds:
            rnd = Round(inputs.candidates, inputs.vacancies, inputs.preferences, folder, register, y.year,
                        special=special, problem=None if special else problems.get(y.year), ranks=inputs.ranks)
            if special:
                progress(lead("special round..."))
            yield run_year(options, rnd, progress=lambda t: progress(lead(t)), done=lambda t, s: done(lead(t), s),
                           warn=warn)


def simulation_rows(run: YearRun, engine) -> list[dict]:
    """simulation.csv rows of one round: reserved categories in policy order, then horizontal seats."""
    return _rows(run.solution.result.policy, run.year, run.round, run.record.table, engine,
                 run.solution.differences)


def _rows(policy, year: int, round_: str, table: dict[str, dict[str, int]], engine, differences: int) -> list[dict]:
    """One round's rows in one order whatever the events' (every reserved category, then the horizontal seats'
    rows by their compartment in policy order): a resumed run rebuilds the same table from the register."""
    from ..register.outcome import TABLE_COLUMNS
    order = {code: k for k, code in enumerate(policy.seat_codes)}
    names = list(policy.reserved_codes) + sorted(
        (n for n in table if n not in policy.reserved_codes),
        key=lambda n: (order.get(n.split()[0], len(order)), n))
    return [{"year": year, "round": round_, "category": code,
             **{c: table.get(code, {}).get(c, 0) for c in TABLE_COLUMNS},
             **({"engine_differences": differences} if engine == "both" else {})} for code in names]


def earlier_rows(register, policy, years: list[int], engine) -> list[dict]:
    """simulation.csv rows of the years a resumed simulation does not solve again, rebuilt from the register's
    tally (a run stopped part way wrote no simulation.csv), as the run that solved them gave them."""
    from ..register.outcome import TABLE_COLUMNS
    out = []
    for year in years:
        rounds: dict[str, dict[str, dict[str, int]]] = {}
        differences: dict[str, int] = {}
        for round_, post, code, what, k in register.tally(year):
            rounds.setdefault(round_, {})
            if what == ENGINE_DIFFERENCES:
                differences[round_] = k
            elif what in TABLE_COLUMNS and code != policy.open:   # (the open category's tally is the report's)
                row = rounds[round_].setdefault(code, {})
                row[what] = row.get(what, 0) + k
        for round_ in sorted(rounds, key=lambda r: r != "main"):
            out += _rows(policy, year, round_, rounds[round_], engine, differences.get(round_, 0))
    return out


__all__ = ["YearInputs", "check_inputs", "earlier_rows", "folder_inputs", "read_years", "resumable", "run_years",
           "simulation_rows", "year_folders"]
