"""`verify`: an allocation, or a stage's output, checked against every rule independently of both engines."""
from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Optional

import typer

from ..errors import AarakshanError
from .common import (say, PolicyOpt, RecruitmentOpt, SetOpt, app, check_register_args, check_round, err, fail, load, usage, warn)


@app.command()
def verify(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates"),
    vacancies: Path = typer.Option(..., "--vacancies"),
    allocation: Optional[Path] = typer.Option(None, "--allocation", help="the allocation.csv to check"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    ranks: Optional[Path] = typer.Option(None, "--ranks", help="ranks.csv: the merit lists posts rank by"),
    register: Optional[Path] = typer.Option(None, "--register", help="the register the year was solved against "
                                            "(read only)"),
    year: Optional[int] = typer.Option(None, "--year", help="recruitment year (with --register)"),
    round_: str = typer.Option("main", "--round", help="main, or special (the year's reserved-only round)"),
    stage: str = typer.Option("allocation", "--stage", help="allocation; shortlist (with --shortlist, --ratio); "
                              "reserve (with --allocation, --reserve-list); fill (those, --declined and --fill); "
                              "slide (--allocation, --responses, --slide); cadre (--cadres, --year)"),
    shortlist: Optional[Path] = typer.Option(None, "--shortlist", help="the shortlist.csv to check (--stage "
                                             "shortlist), or the one that called the allocation's candidates"),
    ratio: Optional[float] = typer.Option(None, "--ratio", help="the shortlist's candidates per vacancy"),
    reserve_list: Optional[Path] = typer.Option(None, "--reserve-list", help="the reserve_list.csv to check (or "
                                                "the fill drew on)"),
    declined: Optional[Path] = typer.Option(None, "--declined", help="the fill's declined.csv"),
    fill: Optional[Path] = typer.Option(None, "--fill", help="the fill's allocation.csv (its new appointments)"),
    responses: Optional[Path] = typer.Option(None, "--responses", help="the sliding round's responses.csv"),
    slid: Optional[Path] = typer.Option(None, "--slide", help="the allocation.csv after the sliding round"),
    withdrawn: Optional[Path] = typer.Option(None, "--withdrawn", help="with --stage slide: the withdrawn.csv of "
                                             "the round before (who left the counselling earlier; default: the "
                                             "one beside --allocation, if any)"),
    frozen: Optional[Path] = typer.Option(None, "--frozen", help="with --stage slide: the slide.csv of the round "
                                          "before (who froze then: a freeze is final; default: the one beside "
                                          "--allocation, if any, within the same counselling)"),
    cadres: Optional[Path] = typer.Option(None, "--cadres", help="the cadres.csv to check (--stage cadre: "
                                          "--candidates is officers.csv, --vacancies cadre_vacancies.csv, "
                                          "--preferences cadre_preferences.csv, with --year)"),
    recruitment: str = RecruitmentOpt,
    set_: list[str] = SetOpt,
):
    """Check an allocation (or a stage's output) against every rule, independently of both engines. Exit 1 on
    violations."""
    from ..io.readers import read_problem
    from ..runs import register_seats
    from ..verify import read_allocation, verify as run_verify
    from ..verify.carries import carries

    if ranks is not None and stage in ("shortlist", "cadre"):
        warn(f"{ranks}: not read by --stage {stage} (" + ("a shortlist is called on the stage's own score, before "
             "the final stage's lists)" if stage == "shortlist" else "the cadre allocation goes by the service's "
             "one order of merit)"))
    if stage == "shortlist":
        return _verify_shortlist(policy, candidates, vacancies, shortlist, ratio, set_)
    if stage == "slide":
        return _verify_slide(policy, candidates, vacancies, preferences, allocation, responses, slid, set_, ranks,
                             withdrawn, frozen, shortlist)
    if stage in ("reserve", "fill"):
        return _verify_reserve(stage, policy, candidates, vacancies, preferences, allocation, reserve_list, declined,
                               fill, set_, ranks)
    if stage == "cadre":
        return _verify_cadre(policy, candidates, vacancies, preferences, cadres, year, set_)
    if stage != "allocation":
        usage(f"--stage must be allocation, shortlist, reserve, fill, slide or cadre, not {stage!r}")
    if allocation is None:
        usage("give --allocation (or --stage shortlist with --shortlist)")
    check_register_args(register, year)
    special = check_round(round_, register)
    pol = load(policy, set_, recruitment)
    try:
        problem = read_problem(pol, candidates, vacancies, preferences, warn=warn, ranks=ranks)
        seats = None
        if register is not None:
            pol, problem, seats = register_seats(pol, problem, register, year, special)
        alloc = read_allocation(allocation, problem, pol)
        problem, calls = _called_by(problem, allocation, shortlist)
        violations = run_verify(pol, problem, alloc, seats, calls)
        if register is not None and not special:
            carried = carries(pol, alloc, seats, register, year)
            if carried is None:
                warn(f"the register does not record {year}: what the year carries is not checked")
            violations += carried or []
    except AarakshanError as e:
        fail(e)
    _report_violations([v.row() for v in violations], f"{len(alloc.cand):,} appointments checked: every rule holds")


def _report_violations(rows: list[list[str]], clean: str) -> None:
    """`verify`'s answer: `clean` when no rule is broken, else the violations as CSV on stdout and exit 1."""
    if not rows:
        say(clean)
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
    from ..verify.stages import check_shortlists
    from ..exam.shortlist import calls_in

    if shortlist is None or ratio is None:
        usage("--stage shortlist takes --shortlist FILE and --ratio R")
    pol = load(policy, set_, "direct")
    try:
        problem = read_problem(pol, candidates, vacancies, warn=warn, lists=False)
        lists = calls_in(shortlist)
        broken = check_shortlists(pol, problem, ratio, lists)
        called = {cid for calls in lists.values() for cid in calls}
    except AarakshanError as e:
        fail(e)
    source = "; ".join(x for x in (pol.shortlist.source or "solver.exam.shortlist (Rajasthan High Court v. Rajat "
                                   "Yadav, 2025 INSC 1503, para. 62)", pol.shortlist.separate_source) if x)
    _report_violations([["shortlist", *_about(text), text, source] for text in broken],
                       f"{len(called):,} called: every rule of the shortlist holds")


def _about(finding) -> list[str]:
    """The candidate and post a stage check's finding is about (`solver.verify.allocation.Broken`), for the
    CSV's columns: empty where it is about a whole list."""
    return [getattr(finding, "candidate", ""), getattr(finding, "post", "")]


def _verify_reserve(stage, policy, candidates, vacancies, preferences, allocation, reserve_list, declined, fill,
                    set_, ranks=None) -> None:
    """`verify --stage reserve|fill`: the reserve list's rules, or the fill's, checked from the policy, the inputs
    and the allocation (`solver.verify.stages`); refused where posts rank by several lists, as the list is."""
    from ..exam.reserve import on_one_merit
    from ..io.readers import read_problem
    from ..runs.stages import read_declined, read_rows
    from ..verify import read_allocation
    from ..verify.fill import check_fill
    from ..verify.stages import check_reserve

    if allocation is None or reserve_list is None or (stage == "fill" and (declined is None or fill is None)):
        usage("--stage reserve takes --allocation and --reserve-list; --stage fill also --declined and --fill")
    pol = load(policy, set_, "direct")
    try:
        problem = read_problem(pol, candidates, vacancies, preferences, warn=warn, ranks=ranks)
        on_one_merit(problem)
        alloc = read_allocation(allocation, problem, pol)
        rows = read_rows(reserve_list, ["candidate_id", "category", "list"])
        if stage == "reserve":
            broken = check_reserve(pol, problem, alloc, [(r["candidate_id"], r["category"], r["list"], r["line"])
                                                         for r in rows])
            clean = f"{len(rows):,} on the reserve and Extended Lists: every rule of the reserve list holds"
        else:
            gone = read_declined(declined, [{"candidate_id": x} for x in alloc.ids])
            broken = check_fill(pol, problem, alloc, {r["candidate_id"]: r["list"] for r in rows}, gone,
                                read_allocation(fill, problem, pol), {r["candidate_id"]: r["category"] for r in rows})
            clean = f"{len(gone):,} vacancies left: every rule of the fill holds"
    except AarakshanError as e:
        fail(e)
    _report_violations([[stage, *_about(text), text, pol.reserve_list.source] for text in broken], clean)


def _verify_slide(policy, candidates, vacancies, preferences, allocation, responses, slid, set_, ranks=None,
                  withdrawn=None, frozen=None, shortlist=None) -> None:
    """`verify --stage slide`: the sliding round's rules (`solver.verify.slide`). `frozen`: the round before's
    slide.csv, whose freezes are final (a frozen one without a response fixes; any other response is bad input).
    `shortlist`: the one that called the candidates, whose lists called apart keep each to their posts
    (`solver.verify.called`)."""
    from ..io.readers import read_problem
    from ..runs.stages import read_frozen, read_responses, read_withdrawn
    from ..verify import read_allocation
    from ..verify.slide import check_slide

    if allocation is None or responses is None or slid is None:
        usage("--stage slide takes --allocation (the first round's), --responses and --slide (the round's)")
    pol = load(policy, set_, "direct")
    withdrawn, frozen = _beside(allocation, pol, withdrawn, frozen)
    try:
        problem, calls = _called_by(read_problem(pol, candidates, vacancies, preferences, warn=warn, ranks=ranks),
                                    allocation, shortlist)
        if calls is not None:
            from ..verify.called import offered_called, open_posts
            problem = offered_called(problem, open_posts(pol, problem, calls))
        before = read_allocation(allocation, problem, pol)
        answers = read_responses(responses, [{"candidate_id": x} for x in before.ids], warn,
                                 read_frozen(frozen) if frozen is not None else frozenset(),
                                 frozenset(problem.candidates.ids.tolist()) if pol.slide.registration else None)
        gone = read_withdrawn(withdrawn) if withdrawn is not None else frozenset()
        broken = check_slide(pol, problem, before, answers, read_allocation(slid, problem, pol), gone)
    except AarakshanError as e:
        fail(e)
    _report_violations([["slide", *_about(text), text, pol.slide.source] for text in broken],
                       f"{len(answers):,} responses: every rule of the sliding round holds")


def _called_by(problem, allocation: Path, shortlist: Path | None) -> tuple:
    """The problem with the shortlist that called its candidates named among its sources (messages name it as
    they name the inputs), and the shortlist's calls (`solver.exam.shortlist.calls_in`); None without one, said
    where the run whose allocation is checked read one (its summary.json's inputs): its lists called apart would
    keep candidates to some posts, which verify then does not know."""
    import json
    from dataclasses import replace

    from ..exam.shortlist import calls_in
    if shortlist is not None:
        return replace(problem, sources={**problem.sources, "shortlist": str(shortlist)}), calls_in(shortlist)
    try:
        doc = json.loads((allocation.parent / "summary.json").read_text(encoding="utf-8"))
        used = doc["provenance"]["inputs"]["shortlist"]["path"]
    except (OSError, ValueError, KeyError, TypeError):
        return problem, None
    warn(f"the run in {allocation.parent} read the shortlist {used}: without --shortlist, candidates it called in "
         "some lists only are judged as free to hold every post")
    return problem, None


def _beside(allocation: Path, pol, withdrawn: Path | None, frozen: Path | None) -> tuple:
    """The round before's withdrawn.csv and slide.csv, where not given, from the folder of its allocation.csv (a
    round's output folder), each said: without them, one who froze or left before would be judged as if free.
    The freezes are not read where that round ran under another policy (a second counselling, as CSAB's special
    rounds after JoSAA: its freezes do not bind them)."""
    folder = allocation.parent
    if withdrawn is None and (folder / "withdrawn.csv").is_file():
        withdrawn = folder / "withdrawn.csv"
        warn(f"read {withdrawn} beside --allocation: who left the counselling before (--withdrawn names another)")
    if frozen is None and (folder / "slide.csv").is_file():
        from ..policy import load_policy
        try:
            same = load_policy(folder / "summary.json").model_dump() == pol.model_dump()
        except AarakshanError:
            same = False
        if same:
            frozen = folder / "slide.csv"
            warn(f"read {frozen} beside --allocation: who froze before, a freeze being final (--frozen names "
                 "another)")
        else:
            warn(f"{folder / 'slide.csv'} beside --allocation is not read: that round ran under another policy (or "
                 "its summary.json is not there), a counselling of its own whose freezes do not bind this one "
                 "(--frozen reads it)")
    return withdrawn, frozen


def _verify_cadre(policy, officers, vacancies, preferences, cadres, year, set_) -> None:
    """`verify --stage cadre`: a cadre allocation of the All India Services (`solver.verify.state_cadres`)."""
    from ..io.cadres import read_cadre_problem
    from ..verify.state_cadres import SOURCE, check_cadres, read_cadres

    if cadres is None or year is None:
        usage("--stage cadre takes --cadres FILE and --year")
    pol = load(policy, set_, "direct")
    try:
        p = read_cadre_problem(pol, officers, vacancies, preferences, year, warn)
        placed, broken = read_cadres(cadres, p)
        broken += check_cadres(pol, p, placed)
    except AarakshanError as e:
        fail(e)
    _report_violations([["cadre", *_about(text), text, SOURCE] for text in broken],
                       f"{len(placed):,} officers placed: every rule of the cadre allocation holds")
