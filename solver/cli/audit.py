"""`audit`: is the allocation the only lawful one, who is contested, and could a named candidate have been
selected (or left out) under any lawful allocation."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import AarakshanError
from .common import (say, PolicyOpt, RecruitmentOpt, SetOpt, app, check_engine, check_register_args, fail, load,
                     usage, warn)
from .progress import spinner


@app.command()
def audit(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates"),
    vacancies: Path = typer.Option(..., "--vacancies"),
    out: Path = typer.Option(..., "--out", help="output folder: audit.json, contested.csv, answers.csv, "
                             "alternatives/"),
    preferences: Optional[Path] = typer.Option(None, "--preferences"),
    ranks: Optional[Path] = typer.Option(None, "--ranks", help="ranks.csv: the merit lists posts rank by (each "
                                         "stable allocation is lawful: the institution-optimal one is written)"),
    shortlist: Optional[Path] = typer.Option(None, "--shortlist", help="the previous stage's shortlist.csv that "
                                             "called these candidates (its lists called apart keep each to their "
                                             "posts)"),
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
    stage: str = typer.Option("allocation", "--stage", help="allocation (default), or shortlist: whose call to "
                              "the next stage turns on an open question (with --ratio)"),
    ratio: Optional[float] = typer.Option(None, "--ratio", help="with --stage shortlist: candidates called per "
                                          "vacancy, as `shortlist` takes it"),
    recruitment: str = RecruitmentOpt,
    set_: list[str] = SetOpt,
):
    """Is the allocation the only lawful one, who is contested, and could a named candidate have been selected
    (or left out) under any lawful allocation, and if not, which rules and whose rights stand in the way. With
    --stage shortlist: who is called to the next stage under one reading of the law and not under another."""
    if stage not in ("allocation", "shortlist"):
        usage(f"--stage {stage}: give allocation or shortlist")
    if stage == "shortlist":
        if ratio is None or ask or register is not None or shortlist is not None:
            usage("--stage shortlist takes --ratio, and neither --ask, --register nor --shortlist")
        return _audit_shortlist(policy, candidates, vacancies, out, reading, declared, ratio, recruitment, set_)
    from ..audit import audit as run_audit, parse
    from ..audit.readings import open_options, parse_readings
    from ..audit.report import stage_audit
    from ..register import Register

    from ..io.readers import read_problem
    from ..policy import load_policy

    _, workers = check_engine("cpsat", time_limit, workers)
    check_register_args(register, year)
    pol = load(policy, set_, recruitment)
    kind = pol.recruitment   # (the readings are loaded for the same recruitment)
    try:
        problem = read_problem(pol, candidates, vacancies, preferences, warn=warn, ranks=ranks)
        if shortlist is not None:
            from ..exam.shortlist import only_called
            problem = only_called(candidates, shortlist, pol, problem)
        readings = open_options(pol, parse_readings(reading), declared, problem)
        _say_unsolved(pol.open_questions if declared else (), readings)
        for o in readings:
            for v in o.values:
                load_policy(policy, [*set_, f"{o.key}={v}"], kind)   # a bad reading is refused before any solve
        questions = [parse(q, problem) for q in ask]
        state = None
        if register is not None:
            with Register(register, readonly=True) as reg:
                reg.check_recruitment(pol.recruitment)
                state = reg.state(year)
        with spinner("auditing: uniqueness and the questions (by theorem, the two extreme stable allocations or "
                     "CP-SAT)..."):
            result = run_audit(pol, problem, questions, readings, lambda sets: load_policy(policy, [*set_, *sets], kind),
                               time_limit, workers, prove_unique, state)
        stage_audit(out, result).publish()
    except AarakshanError as e:
        fail(e)
    _say_result(result)
    say(f"written to {out}/ (audit.json, contested.csv, answers.csv)")
    if result.unique is None or any(a["answer"] == "unknown" for a in result.answers):
        raise typer.Exit(4)


def _say_unsolved(questions, readings) -> None:
    """A warning for each declared question the allocation's audit does not solve, saying why."""
    for q in questions:
        if q.decides == "shortlist":
            warn(f"open question {q.key} decides who is called at a shortlisting stage: audit --stage "
                 "shortlist --ratio R solves it")
        elif q.decides != "allocation":
            warn(f"open question {q.key} decides a {q.decides}, not an allocation: the audit does not solve it")
        elif q.key not in {o.key for o in readings}:
            warn(f"open question {q.key} cannot decide this recruitment (no row it reads): not solved")


def _audit_shortlist(policy, candidates, vacancies, out, reading, declared, ratio, recruitment, set_) -> None:
    """`audit --stage shortlist`: the shortlist under every reading of the open questions that decide one
    (`solver.audit.shortlisting`)."""
    from ..audit.readings import open_options, parse_readings
    from ..audit.report import stage_shortlist_audit
    from ..audit.shortlisting import audit_shortlist
    from ..io.readers import read_problem
    from ..policy import load_policy

    pol = load(policy, set_, recruitment)
    try:
        problem = read_problem(pol, candidates, vacancies, warn=warn, lists=False)
        options = open_options(pol, parse_readings(reading), declared, problem, decides="shortlist")
        for q in pol.open_questions if declared else ():
            if q.decides == "shortlist" and q.key not in {o.key for o in options}:
                warn(f"open question {q.key} cannot decide this shortlist (nobody it reads): not solved")
        result = audit_shortlist(pol, problem, ratio, options,
                                 lambda sets: load_policy(policy, [*set_, *sets], pol.recruitment))
        stage_shortlist_audit(out, result, ratio).publish()
    except AarakshanError as e:
        fail(e)
    say(f"{len(result.readings)} readings; called under the policy as given: {len(result.called()):,}; "
        f"contested: {len({r[0] for r in result.contested})} candidates")
    for row in result.contested[:20]:
        say(f"{row[0]}: {row[2]} as given, {row[3]} under {row[1]}" + (f" (list {row[8]})" if len(row) > 8 else ""))
    say(f"written to {out}/ (audit.json, contested.csv)")


def _say_result(result) -> None:
    """The audit's answer on the command line: uniqueness, the contested, the readings (each refused one warned
    with its reason), then each question's answer."""
    refused = _refused(result)
    say(f"unique: {_unique(result)}; contested: {len({r[0] for r in result.contested})} candidates; "
        f"{len(result.readings)} readings" + (f" ({len(refused)} more refused)" if refused else ""))
    for name, why in refused:
        warn(f"reading {name} not solved: {why}")
    for a in result.answers:
        say(f"{a['question']}: {a['answer']}" + (f" ({a['reading']})" if a['answer'] == "yes" else "")
            + f" - {a['detail']}", highlight=False)


def _refused(result) -> list[tuple[str, str]]:
    """(reading, why) of each reading the solve refused (audit.json's `status`): said, not left out silently."""
    status = result.status if isinstance(result.status, dict) else {}
    return [(key.removeprefix("reading "), text.removeprefix("refused: ")) for key, text in status.items()
            if key.startswith("reading ") and str(text).startswith("refused: ")]


def _unique(result) -> str:
    """"True (lattice)": the audit's answer, and how it was decided (`AuditResult.status["unique"]`: by theorem,
    the two extreme stable allocations, CP-SAT's model, or the ties)."""
    how = result.status.get("unique", "") if isinstance(result.status, dict) else ""
    return f"{result.unique} ({how})" if how else str(result.unique)
