"""The stages of a combined examination around the final list: `shortlist` and `merit` before it, `fill` and
`slide` after it, and `cadre`, the All India Services' cadre allocation after service allocation (each checked
by `verify --stage ...`)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import AarakshanError
from .common import say, PolicyOpt, SetOpt, TimeLimitOpt, WorkersOpt, app, fail, load, usage, warn


@app.command("shortlist")
def shortlist_cmd(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates", help="the stage's candidates, with their stage score"),
    vacancies: Path = typer.Option(..., "--vacancies", help="the final stage's vacancies, as notified"),
    ratio: float = typer.Option(..., "--ratio", help="candidates called per vacancy of each category"),
    out: Path = typer.Option(..., "--out", help="output folder: shortlist.csv, cutoffs.csv, summary.json"),
    stage: str = typer.Option("next stage", "--stage", help="the stage called to (named in summary.json)"),
    shortlist: Optional[Path] = typer.Option(None, "--shortlist", help="the previous stage's shortlist.csv: "
                                             "these candidates must all be on it"),
    set_: list[str] = SetOpt,
):
    """Call candidates to the next stage: per category the ratio times its vacancies, the open list first, so
    that a reserved candidate who reaches its cut-off is counted in it (Rajat Yadav, 2025 INSC 1503); ties called.
    Where the policy calls groups of posts apart (shortlist.separate), a call per list, and a list column."""
    import numpy as np

    from ..errors import Unsupported
    from ..exam.called import restricted
    from ..exam.shortlist import CUTOFF_COLUMNS, SHORTLIST_COLUMNS, only_called, shortlists
    from ..io.readers import read_problem
    from ..io.staging import stage as staged_out, write_csv, write_json
    from ..outcome.reports import provenance

    pol = load(policy, set_, "direct")
    try:
        problem = read_problem(pol, candidates, vacancies, warn=warn, lists=False)
        sources = dict(problem.sources)
        if shortlist is not None:
            kept = restricted(only_called(candidates, shortlist, pol, problem))
            if kept.any():
                raise Unsupported(f"{problem.candidates.ids[np.argmax(kept)]} was called by {shortlist} in some of "
                                  "its lists only: a second shortlist whose lists take only their own callees is "
                                  "not built (the final stage keeps such a candidate to his lists' posts)")
            sources["shortlist"] = str(shortlist)
        calls = shortlists(pol, problem, ratio)
        for name, posts in pol.shortlist.separate.items():
            if not set(posts) & set(problem.posts):
                warn(f"shortlist.separate: no post of list {name} ({', '.join(posts)}) is in {vacancies}: it has no "
                     "call of its own")
        called = np.logical_or.reduce([res.called for res in calls.values()])
        each = {name: {"called": int(res.called.sum()), "places": res.places, "vacancies": res.vacancies,
                       "cutoffs": dict(res.cutoffs)} for name, res in calls.items()}
        doc = {"stage": stage, "ratio": ratio, "called": int(called.sum()), "candidates": problem.n,
               **(each[""] if "" in calls else {"lists": each, "separate_source": pol.shortlist.separate_source}),
               "provenance": provenance(pol, list(set_), "shortlist", sources)}
        named = [] if "" in calls else ["list"]

        def write(tmp: Path) -> None:
            write_csv(tmp / "shortlist.csv", SHORTLIST_COLUMNS + named,
                      [row + ([name] if named else []) for name, res in calls.items() for row in res.rows(problem, pol)])
            write_csv(tmp / "cutoffs.csv", CUTOFF_COLUMNS + named,
                      [row + ([name] if named else []) for name, res in calls.items() for row in res.cutoff_rows(pol)])
            write_json(tmp / "summary.json", doc)
        staged_out(out, write, ("shortlist.csv", "cutoffs.csv", "summary.json"),
                   reads=[candidates, vacancies, shortlist]).publish()
    except AarakshanError as e:
        fail(e)
    cut = "; ".join((f"{name}: " if name else "") + ", ".join(f"{k} {v:g}" for k, v in res.cutoffs.items()
                                                              if v is not None) for name, res in calls.items())
    say(f"{int(called.sum()):,} of {problem.n:,} called to the {stage} (cut-offs: {cut}); written "
                    f"to {out}/", highlight=False)


@app.command("merit")
def merit_cmd(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates", help="the final stage's candidates.csv"),
    stage: list[str] = typer.Option(..., "--stage", help="NAME=FILE: a stage's scores (candidate_id, score); "
                                    "repeatable"),
    out: Path = typer.Option(..., "--out", help="the candidates file to write, with score the final merit's"),
    set_: list[str] = SetOpt,
):
    """The final order of merit: candidates.csv with `score` the sum of the stages the policy counts (CSE: the main
    examination and the interview, not the preliminary)."""
    from ..errors import InputError
    from ..exam.merit import combined_scores, write_scores
    from ..io.staging import write_file

    pol = load(policy, set_, "direct")
    try:
        stages = {}
        for given in stage:
            name, eq, path = given.partition("=")
            if not eq or not name.strip() or not path.strip():
                raise InputError("--stage", None, None, f"{given!r} is not NAME=FILE")
            if name.strip() in stages:
                raise InputError("--stage", None, None, f"the {name.strip()} stage is given twice")
            stages[name.strip()] = Path(path.strip())
        table = combined_scores(pol, candidates, stages, warn=warn)
        write_file(out, lambda tmp: write_scores(table, tmp), reads=[candidates, *stages.values()])
    except AarakshanError as e:
        fail(e)
    counted = pol.merit.stages or list(stages)
    say(f"{table.num_rows:,} candidates' final scores ({' + '.join(counted)}) written to {out}",
                    highlight=False)


@app.command("fill")
def fill_cmd(
    result: Path = typer.Option(..., "--result", help="the output folder of `aarakshan solve --reserve-list`"),
    declined: Path = typer.Option(..., "--declined", help="candidate_id,reason: who left his vacancy, and why "
                                  "(declined, limited_preferences, invalid_claim, cancelled)"),
    out: Path = typer.Option(..., "--out", help="output folder: allocation.csv (the new appointments), unfilled.csv, "
                             "filled_from_reserve.csv, summary.json"),
    engine: str = typer.Option("greedy", "--engine", help="cpsat | greedy | both"),
    time_limit: Optional[float] = TimeLimitOpt,
    workers: int = WorkersOpt,
):
    """Fill the vacancies recommended candidates left, from the run's reserve list, and from its Extended List only
    for limited preferences, invalid claims and cancelled candidature (CSE Rule 20(5) as amended 14.11.2025)."""
    from ..runs.stages import run_fill
    from .common import check_engine

    chosen, workers = check_engine(engine, time_limit, workers)
    try:
        _, done = run_fill(result, declined, out, chosen, time_limit, workers, warn=warn)
    except AarakshanError as e:
        fail(e)
    filled, extended = done.filled, done.from_extended
    kept = done.held_vacant
    say(f"{filled} of {len(done.report)} vacancies filled ({extended} from the Extended List"
        + (f"; {kept} kept vacant for a held horizontal minimum, carried forward" if kept else "")
        + f"); written to {out}/", highlight=False)


@app.command("slide")
def slide_cmd(
    result: Path = typer.Option(..., "--result", help="the output folder of the round before "
                                "(`aarakshan solve`, or a slide's)"),
    responses: Path = typer.Option(..., "--responses", help="candidate_id,response: fix (freeze), float, slide or "
                                   "absent (withdraw) (a placed candidate not listed did not report; one who froze "
                                   "in an earlier round keeps his seat: a freeze is final)"),
    out: Path = typer.Option(..., "--out", help="output folder: allocation.csv (after the round), unfilled.csv, "
                             "slide.csv, withdrawn.csv, summary.json"),
    engine: str = typer.Option("greedy", "--engine", help="cpsat | greedy | both"),
    time_limit: Optional[float] = TimeLimitOpt,
    workers: int = WorkersOpt,
    policy: Optional[str] = typer.Option(None, "--policy", help="the round's policy, where it is not the round "
                                         "before's: a second counselling on the seats left (csab-2025: CSAB's "
                                         "special rounds, where one without a seat answers register)"),
    preferences: Optional[Path] = typer.Option(None, "--preferences", help="the round's choices, where filled "
                                               "afresh (candidate_id, order, post); later rounds read them"),
    set_: list[str] = SetOpt,
):
    """One sliding round (SSC, March 2026; a round of counselling): the absent dropped, fixed posts kept, floaters
    moved only up, the freed seats re-allocated on merit and preference under the first round's rules."""
    from ..runs.stages import run_slide
    from .common import check_engine

    chosen, workers = check_engine(engine, time_limit, workers)
    pol = load(policy, set_, "direct") if policy is not None else None
    if pol is None and set_:
        usage("--set with slide needs --policy (the round before's policy stands unchanged without it)")
    try:
        prev, done = run_slide(result, responses, out, chosen, time_limit, workers, warn=warn, policy=pol,
                               preferences=preferences)
    except AarakshanError as e:
        fail(e)
    f = done.rounds
    left = sum(r[4] for r in done.unfilled)
    slid = f", {f['slid']} slid" if f["slid"] else ""
    slid += f", {f['registered']} registered anew" if "registered" in f else ""
    say(f"{f['fixed']} fixed, {f['floated']} floated{slid} ({f['moved_up']} moved up), {f['absent']} absent; "
                    f"{f['newcomers_placed']} placed anew; {left} seats left for the next "
                    f"{'round' if prev.policy.slide.unfilled_offered else 'cycle'}; written to {out}/",
                    highlight=False)


@app.command("cadre")
def cadre_cmd(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates", help="officers.csv: candidate_id, rank, category, "
                                    "home_cadre, home_opt, pwbd (one service's officers, after service allocation)"),
    vacancies: Path = typer.Option(..., "--vacancies", help="cadre_vacancies.csv: cadre, category, insider, "
                                   "outsider"),
    preferences: Optional[Path] = typer.Option(None, "--preferences", help="cadre_preferences.csv: candidate_id, "
                                               "order, cadre"),
    year: int = typer.Option(..., "--year", help="the examination year (the groups' order rotates each year)"),
    out: Path = typer.Option(..., "--out", help="output folder: cadres.csv, cadre_vacancies_filled.csv, "
                             "summary.json"),
    set_: list[str] = SetOpt,
):
    """The cadre allocation of the All India Services (DoPT's policy of 23 January 2026, as reported): insiders
    first where they opted for their home cadre, unfilled insider vacancies turned outsider, outsiders in cycles
    of 25 ranks with PwBD officers first."""
    from ..runs.cadres import run_cadre

    pol = load(policy, set_, "direct")
    try:
        run = run_cadre(pol, candidates, vacancies, preferences, year, out, tuple(set_), warn=warn)
    except AarakshanError as e:
        fail(e)
    n = run.counts()
    say(f"{n['officers']} officers: {n['insiders']} insiders, {n['outsiders']} outsiders, {n['unplaced']} without a "
        f"cadre; {n['converted']} insider vacancies turned outsider; written to {out}/")
