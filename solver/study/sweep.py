"""Scenario sweeps: one recruitment, or a run of recruitment years, solved under many
policies, as one tidy table.

A scenario is a name and a list of `--set` overrides (a reform as data, after PSLmodels Tax-Calculator and
OpenFisca): `grid` makes the product of `KEY=V1,V2` grids, `read_scenarios` reads named ones from a TOML file.
The inputs are read and validated once per distinct reading (a scenario that changes what the readers depend on,
such as the category codes or the merit tie-breaks, gets its own), and shipped to each worker once: a process
pool's initializer, or a Dask cluster's `scatter`. Rows come back in scenario order whatever the executor or the
number of workers, so the outputs are the same bytes.

Each row of the table is one (scenario, year, post, category): vacancies, filled, unfilled by disposition,
carried in and out (years only), the cutoff rank and score, and the selections by the candidates' own category.
"""
from __future__ import annotations

import itertools
import re
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from pathlib import Path

from ..errors import InputError, OptionError, PolicyConflict, Unsupported
from ..io.readers import read_problem
from ..policy import Policy, load_policy
from ..policy.load import axis

from .sweep_tables import COLUMNS, changes, refused_rows, rows_of, scenario_notes, write  # noqa: F401 (the API)


@dataclass(frozen=True)
class Scenario:
    name: str
    overrides: tuple[str, ...] = ()
    # where a scenarios file gives it: (the file, the line of its table), for messages about its overrides
    origin: tuple[str, int] | None = None


def stack(specs: list[str]) -> list[Scenario]:
    """Stacked scenarios: the policy as given ("stock"), then each override added in turn to those before it,
    so that each step's difference from the one before is that override's own contribution (after Tax-Brain's
    stacked reforms).

    Example
    -------
    >>> [(s.name, s.overrides) for s in stack(["ceiling.share=0.6", "categories.OBC.share=0.19"])][1:]
    [('+ceiling.share=0.6', ('ceiling.share=0.6',)), ('+categories.OBC.share=0.19', ('ceiling.share=0.6', \
'categories.OBC.share=0.19'))]
    """
    out, given = [Scenario("stock", ())], []
    for spec in specs:
        if "=" not in spec or not spec.partition("=")[0].strip():
            raise OptionError("stack", f"{spec!r} is not of the form KEY=VALUE")
        key = spec.partition("=")[0].strip()
        if any(g.partition("=")[0].strip() == key for g in given):
            raise OptionError("stack", f"{key} is given twice: stack each key once")
        given.append(spec)
        out.append(Scenario(f"+{spec}", tuple(given)))
    return out


def grid(specs: list[str]) -> list[Scenario]:
    """The product of `KEY=V1,V2,...` grids, named by their values (``categories.OBC.share=0.27;ceiling.share=0.6``).

    Example
    -------
    >>> [s.name for s in grid(["ceiling.share=0.5,0.6", "categories.OBC.share=0.27"])]
    ['ceiling.share=0.5;categories.OBC.share=0.27', 'ceiling.share=0.6;categories.OBC.share=0.27']
    """
    axes, keys = [], []
    for spec in specs:
        key, values = axis(spec, "grid", "ceiling.share=0.5,0.6")
        if key in keys:
            raise OptionError("grid", f"{key} is given twice: give its values once ({key}=V1,V2)")
        if len(set(values)) != len(values):
            twice = next(v for v in values if values.count(v) > 1)
            raise OptionError("grid", f"{key} lists {twice} twice")
        keys.append(key)
        axes.append([f"{key}={v}" for v in values])
    return [Scenario(";".join(combo), combo) for combo in itertools.product(*axes)]


def read_scenarios(path: str | Path) -> list[Scenario]:
    """Named scenarios from TOML: ``[scenarios.NAME]`` with ``set = ["KEY=VALUE", ...]`` (an empty list is the
    policy as given)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(path, None, None, f"cannot be read: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise InputError(path, None, None, f"not valid TOML: {e}") from None
    table = data.get("scenarios")
    if not isinstance(table, dict) or not table:
        raise InputError(path, None, None, "no [scenarios.NAME] tables")
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for name, body in table.items():
        line = _table_line(lines, name)
        sets = body.get("set", []) if isinstance(body, dict) else None
        if not isinstance(sets, list) or not all(isinstance(x, str) for x in sets) or set(body) - {"set"}:
            raise InputError(path, line, None, f"scenarios.{name}: expected only set = [\"KEY=VALUE\", ...]")
        for x in sets:
            if "=" not in x or not x.partition("=")[0].strip():
                raise InputError(path, line, None, f"scenario {name}: {x!r} in set is not of the form KEY=VALUE")
        out.append(Scenario(name, tuple(sets), (str(path), line)))
    return out


def _table_line(lines: list[str], name: str) -> int | None:
    """The line of the `[scenarios.NAME]` header (bare or quoted), None where it is written otherwise."""
    for k, text in enumerate(lines, 1):
        m = re.match(r'\s*\[\s*scenarios\s*\.\s*(?:"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+))\s*\]', text)
        if m and name in m.groups():
            return k
    return None


@dataclass(frozen=True)
class Inputs:
    """One year's input files; `year` None for a single recruitment."""

    year: int | None
    candidates: Path
    vacancies: Path
    preferences: Path | None = None
    ranks: Path | None = None          # the merit lists posts rank by (`solver.io.ranks`)


def _reading_key(policy) -> tuple:
    """What the readers take from a policy: a scenario that changes none of it shares the problem read once
    (the seat pools' order and quotas and the lists' rules among it: they shape the ranked pools)."""
    return (tuple(policy.member_codes), tuple(policy.reserved_codes), tuple(policy.merit.tie_breaks),
            policy.recruitment, policy.castes, policy.open, policy.seat_pools.model_dump_json(),
            policy.merit.same_rank, tuple(sorted(policy.merit.post_lists.items())))


@dataclass(frozen=True)
class Sweep:
    """The tidy rows (`COLUMNS`, scenarios in order) and each scenario's status: "solved", or "refused ..." with
    the reason its policy could not be applied (e.g. the ceiling broken with `ceiling.excess = "refuse"`)."""

    rows: tuple[dict, ...]
    scenarios: tuple[Scenario, ...]
    status: Mapping[str, str]                 # scenario name -> its status, in the scenarios' order
    notes: tuple[tuple[str, ...], ...] = ()   # per scenario: overrides that changed nothing (solver.outcome.overrides)
    # with a baseline: per scenario, winners and losers against it by own category x trait (solver.study.winners)
    winners: tuple[tuple[str, tuple[dict, ...]], ...] = ()


@dataclass(frozen=True)
class _Task:
    index: int
    scenario: Scenario
    policy: Policy        # the scenario's, loaded once (its overrides checked before any solve)
    reading: int
    held: bool = False    # keep each year's allocation, for winners and losers against a baseline
    refused: str = ""     # the scenario's inputs refused under its policy: the status, and it is not solved


def sweep(policy: str | Path, scenarios: list[Scenario], inputs: list[Inputs], engine: str = "greedy",
          workers: int = 1, dask: str | None = None, progress=None, recruitment="direct",
          baseline: str | None = None) -> Sweep:
    """Solve every scenario (every year in order, each scenario with a register of its own) and return the tidy
    rows (`COLUMNS`), scenarios in the order given, with each scenario's status. A scenario whose policy cannot
    be applied is refused with its reason and the sweep goes on.

    Parameters
    ----------
    policy : the policy file or bundled model every scenario's overrides apply to.
    scenarios : `grid` or `read_scenarios`; names must differ.
    inputs : one `Inputs` (year None), or one per year in order.
    engine : "greedy" (the default for sweeps) or "cpsat".
    workers : processes of the local pool (1: in this process).
    dask : None, "local" (a LocalCluster of `workers` processes) or a scheduler address (tcp://HOST:8786).
    progress : called with the number of scenarios done after each.
    recruitment : `solver.data.kinds.Recruitment` or its word: "promotion" solves every scenario under the
        policy's `[promotion]` rules.

    Example
    -------
    >>> import tempfile
    >>> from solver.data.instances import generate, write_instance
    >>> d = write_instance(tempfile.mkdtemp(), *generate(load_policy("central-dopt"), n=200, vacancies=40, posts=2))
    >>> out = sweep("central-dopt", grid(["migration.relaxed_may_take_open=true,false"]),
    ...             [Inputs(None, d / "candidates.csv", d / "vacancies.csv")])
    >>> sorted({r["scenario"] for r in out.rows})
    ['migration.relaxed_may_take_open=false', 'migration.relaxed_may_take_open=true']
    """
    from ..data.kinds import Engine
    engine = Engine.parse(engine, (Engine.GREEDY, Engine.CPSAT))
    if dask is not None:
        from .executors import check_dask_address
        check_dask_address(dask)
    names = [s.name for s in scenarios]
    if len(set(names)) != len(names):
        dup = next(x for x in names if names.count(x) > 1)
        raise OptionError("scenarios", f"scenario {dup!r} is given twice")
    problems, tasks = _tasks(policy, scenarios, inputs, recruitment, baseline is not None)
    if progress:
        progress(0)     # (the inputs are read and checked: the scenarios begin)
    results = _run(engine, workers, dask, problems, tasks, progress)
    results.sort(key=lambda r: r[0])
    held = {scenarios[k].name: (tasks[k].reading, h) for k, _, _, _, h in results}
    return Sweep(tuple(row for _, rows, _, _, _ in results for row in rows),
                 tuple(scenarios[k] for k, _, _, _, _ in results),
                 MappingProxyType({scenarios[k].name: status for k, _, status, _, _ in results}),
                 tuple(notes for _, _, _, notes, _ in results),
                 _winners(held, baseline, problems, tasks[0].policy) if baseline in held else ())


def _tasks(policy, scenarios: list[Scenario], inputs: list[Inputs], recruitment, held: bool):
    """Each scenario's policy (a bad override refused before any solve, naming its scenarios file line) and
    the inputs read once per reading of them (`_reading_key`): (problems per reading, tasks). Inputs that one
    reading refuses (ties under `merit.same_rank = "refuse"`, a code only another scenario defines) refuse that
    reading's scenarios, and the sweep goes on; refused under every reading, the inputs are at fault: raised."""
    readings: dict[tuple, int] = {}
    problems: list[list] = []
    errors: dict[int, tuple] = {}       # reading -> (year, InputError)
    tasks = []
    for k, sc in enumerate(scenarios):
        try:
            pol = load_policy(policy, list(sc.overrides), recruitment)
        except InputError as e:
            if sc.origin is None:
                raise
            raise InputError(sc.origin[0], sc.origin[1], None, f"scenario {sc.name}: {e.problem}") from None
        key = _reading_key(pol)
        if key not in readings:
            readings[key] = len(problems)
            problems.append(_read(pol, inputs, errors, len(problems)))
        year, error = errors.get(readings[key], (None, None))
        status = f"refused{f' in {year}' if year is not None else ''} (exit {error.exit_code}): {error}" \
            if error else ""
        tasks.append(_Task(k, sc, pol, readings[key], held=held, refused=status))
    if len(errors) == len(problems):
        raise next(iter(errors.values()))[1]
    return problems, tasks


def _read(pol, inputs: list[Inputs], errors: dict, reading: int) -> list:
    """Each year's problem under `pol`; where a year's inputs are refused, (year, None) for every year and the
    error in `errors[reading]`."""
    out = []
    for x in inputs:
        try:
            out.append((x.year, read_problem(pol, x.candidates, x.vacancies, x.preferences, ranks=x.ranks)))
        except InputError as e:
            errors[reading] = (x.year, e)
            return [(y.year, None) for y in inputs]
    return out


def _run(job, workers: int, dask: str | None, problems: list, tasks: list, progress) -> list:
    """The tasks solved on a Dask cluster, a local pool of processes, or in this process."""
    from ..io.interrupt import unwinding
    from .executors import on_dask, on_pool
    if dask is not None:
        with unwinding():     # (a stop shuts the cluster down)
            return on_dask(_solve_scenario, dask, workers, job, problems, tasks, progress)
    if workers > 1 and len(tasks) > 1:
        with unwinding():     # (and the pool's processes)
            return on_pool(_solve_scenario, workers, job, problems, tasks, progress)
    results = []
    for t in tasks:
        results.append(_solve_scenario(job, problems[t.reading], t))
        if progress:
            progress(len(results))
    return results


def _winners(held: dict, baseline: str, problems: list, policy: Policy) -> tuple:
    """Per scenario, its winners and losers against the baseline, over the years both ran: each candidate's
    post and seat in the two, told as `solver.study.winners.change_kind` tells them, counted by own category x trait
    (the candidates as the baseline's reading read them)."""
    from .winners import change_kind, tally, traits_label
    reading, base = held[baseline]
    order = policy.seat_codes
    out = []
    for name, (_, mine) in held.items():
        if name == baseline:
            continue
        moved = []
        for year, problem in problems[reading]:
            if year not in base or year not in mine:
                continue
            c, a, b = problem.candidates, base[year], mine[year]
            index = {cid: i for i, cid in enumerate(c.ids)}
            for cid in sorted(a.keys() | b.keys()):
                i = index[cid]
                ranked = None if problem.preferences is None else [problem.posts[p] for p in problem.preferences[i]]
                kind = change_kind(a.get(cid), b.get(cid), ranked)
                if kind is not None:
                    moved.append((c.category[i], traits_label(c.female[i], c.pwbd[i], c.ex_serviceman[i]), kind))
        out.append((name, tuple(tally(moved, order))))
    return tuple(out)


def _solve_scenario(engine: str, problems, t: _Task):
    """(scenario index, rows, status) of one scenario: each year in order against a register of its own
    (`solver.runs.run_years`, writing no outputs), or the one recruitment."""
    from ..register import Register, year_record
    from ..runs import Round, RunOptions, YearInputs, run_year, run_years
    from ..outcome.overrides import override_notes
    if t.refused:
        return t.index, refused_rows(t.scenario.name, [y for y, _ in problems], t.refused), t.refused, (), {}
    options = RunOptions(t.policy, engine)
    rows: list[dict] = []
    solved: list[int] = []
    notes: dict[str, list] = {}     # note -> the years it holds in

    held: dict = {}                 # year -> {candidate id: (post, seat category)}, for winners and losers

    def said(year, result) -> None:
        for note in override_notes(t.scenario.overrides, result, detail=problems[0][0] is None):
            notes.setdefault(note, []).append(year)
        if t.held:      # (only for a baseline's winners and losers: each is shipped back from its worker)
            held[year] = {r[0]: (r[1], r[2]) for r in result.allocation_rows()}
    try:
        if problems[0][0] is None:
            run = run_year(options, Round(problem=problems[0][1]))
            rows += rows_of(t.scenario.name, None, run.solution.result, year_record(run.solution.result, 0))
            said(None, run.solution.result)
        else:
            with tempfile.TemporaryDirectory() as tmp, Register(Path(tmp) / "register.sqlite") as reg:
                years = [YearInputs(y, None, None) for y, _ in problems]
                for run in run_years(options, years, reg, problems=dict(problems)):
                    rows += rows_of(t.scenario.name, run.year, run.solution.result, run.record)
                    solved.append(run.year)
                    said(run.year, run.solution.result)
    except (PolicyConflict, Unsupported) as e:
        # The scenario's policy cannot be applied: its reason is the scenario's outcome, and the sweep goes on
        # (a refused year ends the scenario: later years depend on it).
        where = f" in {problems[len(solved)][0]}" if problems[0][0] is not None else ""
        status = f"refused{where} (exit {e.exit_code}): {e}"
        rows += refused_rows(t.scenario.name, [y for y, _ in problems[len(solved):]], status)
        return t.index, rows, status, _told(notes, solved, where.strip()), held
    return t.index, rows, "solved", _told(notes, solved), held


def _told(notes: dict[str, list], ran: list, refused: str = "") -> tuple[str, ...]:
    """Each note once, with the years it holds in where that is not every year run (`ran`). A scenario refused
    (`refused`: "in YEAR", or "" for one recruitment refused) holds its notes only for the years it ran, which
    each note names, with the refusal: "the ceiling does not bind" of years before the one whose ceiling broke
    is no finding about the scenario."""
    ran = set(ran)
    out = []
    for note, years in notes.items():
        if refused:
            out.append(f"{note} (only in {', '.join(map(str, years))}; the scenario was refused {refused})")
        elif None in years or set(years) == ran:
            out.append(note)
        else:
            out.append(f"{note} ({', '.join(map(str, years))})")
    return tuple(out)
