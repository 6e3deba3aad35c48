"""One recruitment year as a run: read the inputs, take the register's state (or the year's special round),
solve, make the year's record, stage the outputs, then record the year and publish its outputs together.

This is what `aarakshan solve` does, as a library function: a caller follows it through callbacks and
handles its exceptions (`AarakshanError` and its kinds, with their exit codes); it prints nothing.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..io.readers import input_sources, read_problem
from ..data.kinds import Engine
from ..policy import Policy
from ..data.problem import Problem
from ..errors import Unsupported
from ..outcome.reports import InputDigests, diff_rows, provenance, stage_outputs
from ..chain.solve import Solution, solve

Say = Callable[[str], None]                 # progress: what the run is doing now; warn: a warning
Done = Callable[[str, float], None]         # a step finished, and its seconds


ALL_POSTS, ENGINE_DIFFERENCES = "ALL", "engine_differences"   # the register's tally of a round's engine differences


def _quiet(*_) -> None:
    return None


@dataclass(frozen=True)
class RunOptions:
    """What every round of a run is solved with."""

    policy: Policy
    engine: Engine = Engine.CPSAT
    time_limit: float | None = None
    workers: int = 1
    hint: bool = True                  # CP-SAT certifies the greedy's answer (False: solves independently)
    overrides: tuple[str, ...] = ()    # the policy overrides, for the summary's provenance
    report: bool = False               # report.html beside the other outputs
    reserve_list: bool = False         # reserve_list.csv beside the other outputs (`solver.exam.reserve`)

    def __post_init__(self):
        object.__setattr__(self, "engine", Engine.parse(self.engine))


@dataclass(frozen=True)
class Round:
    """One round of one year: its inputs (files or tables, or a `Problem` already read), where its outputs go
    (None: none written), and its place in the register (if any)."""

    candidates: object = None
    vacancies: object = None
    preferences: object = None
    out: Path | None = None
    register: object = None            # solver.register.Register, opened by `open_register`
    year: int | None = None
    replace: bool = False              # solve again a year the register holds
    special: bool = False              # the year's special round (reserved-only, for the backlog)
    problem: Problem | None = None     # the inputs already read (then the files are not read again)
    shortlist: Path | None = None      # the previous stage's shortlist.csv: every candidate must be on it
    ranks: object = None               # ranks.csv: merit lists besides the candidates' own (`solver.io.ranks`)


@dataclass(frozen=True)
class YearRun:
    """A round solved (and recorded and published, where it had a register and an output folder)."""

    year: int | None
    round: str                         # "main" or "special"
    solution: Solution
    record: object                     # solver.register.YearRecord, or None without a register
    problem: Problem
    timings: dict
    notes: tuple[str, ...] = ()        # overrides that changed nothing here (solver.outcome.overrides), also warned


def open_register(path: str | Path, year: int, replace: bool, policy: Policy, special: bool = False,
                  warn: Say = _quiet):
    """The register at `path` (created if missing), checked for this year: its recruitment (direct or
    promotion), the year not yet recorded (or `replace`), a special round only of a recorded year. A register
    holding years solved under another policy is taken with a warning."""
    from ..register import Register

    reg = Register(path)
    try:
        reg.check_recruitment(policy.recruitment)
        if special:
            reg.check_special(year, replace)
        else:
            reg.check_year(year, replace)
    except BaseException:
        reg.discard_if_new()     # (refused before anything was recorded: no empty register left behind)
        raise
    other = reg.policies() - {policy.name}
    if other:
        warn(f"{path} holds years solved under {sorted(other)}; this year is solved under {policy.name!r}")
    return reg


def solve_round(options: RunOptions, problem: Problem, rnd: Round, progress: Say = _quiet) -> tuple[Solution, object]:
    """The round solved against the register's state before it (or as the year's special round), and the year's
    record (None without a register): no file written, nothing recorded."""
    from ..register import year_record
    from ..register.special import special_round

    pol, reg = options.policy, rnd.register
    if options.reserve_list:      # (refused before the solve, not after it)
        from ..exam.reserve import on_one_merit
        on_one_merit(problem)
    if reg is not None and any(pool is not None for pool in problem.post_pools):
        raise Unsupported(
            "a register carries a recruitment's unfilled reserved vacancies forward to the next year (backlog and "
            "carry-forward, by post and category); these vacancies are seat pools of counselling (quota, gender "
            "pool or trait columns), admissions with no carry-forward between years: solve them without a "
            "register, round by round")
    if reg is not None and pol.slide.unfilled_offered:
        raise Unsupported(
            "a register carries a recruitment's unfilled reserved vacancies forward to the next year; under this "
            "policy the seats a round leaves go to its next round (slide.unfilled_offered: a counselling, whose "
            "unfilled.csv says next_round): solve it without a register, round by round")
    if rnd.special:
        pol, problem, state = special_round(pol, problem, rnd.year, reg.backlog(rnd.year, rnd.replace))
    else:
        state = reg.state(rnd.year) if reg is not None else None
    sol = solve(pol, problem, options.engine, time_limit=options.time_limit, workers=options.workers, state=state,
                hint=options.hint, progress=progress)
    rec = year_record(sol.result, rnd.year if rnd.year is not None else 0) if reg is not None else None
    if rec is not None and options.engine == "both":
        rec.note(ALL_POSTS, "", ENGINE_DIFFERENCES, sol.differences)   # (simulation.csv's column, rebuilt on resume)
    return sol, rec


def run_year(options: RunOptions, rnd: Round, *, progress: Say = _quiet, done: Done = _quiet,
             warn: Say = _quiet) -> YearRun:
    """Read, solve, stage the outputs, then record the year in the register and publish the outputs (one
    transaction: a run stopped before the end leaves the register and the output folder as they were).

    Parameters
    ----------
    options : the policy, engine and solver settings of the run.
    rnd : the round's inputs, output folder and register place.
    progress : called with what the run does now ("solving 5,000 candidates with cpsat: greedy").
    done : called with each finished step and its seconds ("read 5,000 candidates", 0.2).
    warn : called with each warning (a file's unused column, a register of another policy).

    Returns
    -------
    YearRun: the solution, the year's record (with a register), the problem read, the timings.

    Raises
    ------
    InputError (exit 2), PolicyConflict and Unsupported (exit 3), TimeLimit (exit 4); a register this run
    created and never wrote to is removed, and no output is written.

    Example
    -------
    >>> import tempfile
    >>> from solver import load_policy
    >>> from solver.data.instances import generate, write_instance
    >>> pol = load_policy("central-dopt")
    >>> d = write_instance(tempfile.mkdtemp(), *generate(pol, 200, 20, seed=1))
    >>> run = run_year(RunOptions(pol, "greedy"), Round(d / "candidates.csv", d / "vacancies.csv", out=d / "out"))
    >>> int(run.solution.result.selected.sum()), sorted(p.name for p in (d / "out").iterdir())[:2]
    (20, ['allocation.csv', 'cutoffs.csv'])
    """
    pol, reg, year = options.policy, rnd.register, rnd.year
    staged = None
    try:
        t = time.perf_counter()
        problem = rnd.problem if rnd.problem is not None else \
            read_problem(pol, rnd.candidates, rnd.vacancies, rnd.preferences, warn=warn, ranks=rnd.ranks)
        # (hashed on the other core while this one solves: started with the read, the hashing took a core from
        # Arrow's parse of the choices)
        digests = None if rnd.problem is not None or rnd.out is None else \
            InputDigests(_sources(rnd, input_sources(rnd.candidates, rnd.vacancies, rnd.preferences, rnd.ranks)))
        if rnd.shortlist is not None:
            from ..exam.shortlist import only_called
            problem = only_called(rnd.candidates, rnd.shortlist, pol, problem)
        read_s = time.perf_counter() - t
        done(f"read {problem.n:,} candidates", read_s)
        doing = f"solving {problem.n:,} candidates with {options.engine}"
        progress(doing + "...")
        sol, rec = solve_round(options, problem, rnd, progress=lambda what: progress(f"{doing}: {what}..."))
        done(f"solved ({sol.result.assignment.status})", sum(v for k, v in sol.timings.items() if k != "total"))
        timings = {"read": round(read_s, 4), **sol.timings}
        from ..outcome.overrides import override_notes
        notes = tuple(override_notes(options.overrides, sol.result))
        for note in notes:
            warn(note)
        run = YearRun(year, "special" if rnd.special else "main", sol, rec, problem, timings, notes)
        if rnd.out is not None:
            progress(f"writing outputs and {problem.n:,} reasons to {rnd.out}/...")
            t = time.perf_counter()
            staged = _stage(options, rnd, run, digests)
        if reg is not None:
            # The year and its outputs go together: named in the register's transaction, published after it
            # (a run killed in between is completed when the register is next opened).
            (reg.record_special if rnd.special else reg.record)(rec, pol.name, options.engine, rnd.replace, staged)
        elif staged is not None:
            staged.publish()
    except BaseException:   # (a refusal, or a stop unwinding: SIGTERM, Ctrl-C)
        if staged is not None and (reg is None or year not in reg.pending_years()):
            staged.discard()
        if reg is not None:
            reg.discard_if_new()
        raise
    if rnd.out is not None:
        done("wrote outputs" + (f" and recorded {year} in {reg.path}" if reg is not None else ""),
             time.perf_counter() - t)
    return run


def _sources(rnd: Round, sources: dict) -> dict:
    """The round's inputs by role, the previous stage's shortlist among them: the chain of custody from one
    stage's outputs to the next names each file by its SHA-256."""
    return {**sources, **({"shortlist": str(rnd.shortlist)} if rnd.shortlist is not None else {})}


def _stage(options: RunOptions, rnd: Round, run: YearRun, digests):
    """Every output file of the round in a staging folder beside its output folder."""
    sol, pol, reg = run.solution, options.policy, rnd.register
    diff = list(diff_rows(sol.other, sol.result)) if sol.other is not None else None
    where = {"register": str(reg.path), "year": rnd.year, "round": run.round} if reg is not None else None
    extra = {**({"differences": sol.differences} if sol.other is not None else {}),
             "provenance": provenance(pol, list(options.overrides), options.engine,
                                      _sources(rnd, run.problem.sources), where, digests),
             **({"notes": [*sol.result.seats.notes, *run.notes]} if run.notes else {})}
    reserve = None
    if options.reserve_list:
        from ..exam.reserve import reserve_list
        reserve = reserve_list(pol, sol.result)
        extra["reserve_list"] = {**reserve.counts(), "source": pol.reserve_list.source}
    tables = ()
    if reserve is not None:
        from ..exam.reserve import RESERVE_COLUMNS
        tables = (("reserve_list.csv", RESERVE_COLUMNS, reserve.rows(run.problem.candidates.ids)),)
    from ..exam.shortlist import files_read
    read = [*run.problem.sources.values(), *files_read(rnd.shortlist), *([reg.path] if reg is not None else [])]
    staged = stage_outputs(rnd.out, sol.result, run.timings, diff, extra, run.record, tables, reads=read)
    if options.report:
        from ..study.charts import page, solve_charts
        page(staged.folder / "report.html", f"{pol.name}: allocation", f"{run.problem.n:,} candidates, engine "
             f"{options.engine}" + (f", year {rnd.year}" if rnd.year is not None else ""), solve_charts(sol.result))
    return staged
