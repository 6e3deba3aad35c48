"""`audit()`: is the official allocation the only lawful one, whose fate turns on a choice the law leaves
open, and, for a named candidate, could any lawful allocation select her (or leave her out), and if not,
which rules and whose rights stand in the way."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from ..chain.reductions import DIRECT, Answer, StageData
from ..chain.engines.cpsat.certificate import contested_pools
from ..chain.engines.cpsat.conflict import core as named_core, shrunk
from ..chain.engines.cpsat.model import Rules
from ..chain.engines.greedy import solve_greedy
from ..errors import PolicyConflict, Unsupported
from ..policy import Policy
from ..chain.pools import Pools
from ..data.problem import Problem
from ..data.seat_pools import Holders
from ..data.routes import NOT_RANKED
from ..outcome.bars import unheld_programs
from ..outcome.result import Result
from .lawful import lawful_model, relaxable, solution
from .questions import Question
from .readings import OpenOption, combinations, sources
from .explain import above_on_list, explain
from .houses import extend, houses, truncated
from .lattice import contested_no, institution_optimal, lattice_answer
from .stable import lattice_supported, strict
from .ties import model_bytes, solved_in, tie_orders, too_large
from .unique import outcome, uniqueness, with_pools



@dataclass
class Reading:
    """One combination of the open questions' options, and the official allocation under it."""

    name: str                      # "as given", or "key=value; key=value"
    sets: tuple[str, ...]          # the --set overrides it adds
    policy: Policy
    result: Result
    rule: str = ""                 # the options it changes from the policy as given
    source: str = ""               # the authority on each side


@dataclass
class AuditResult:
    unique: bool | None                        # None: not proven either way (time limit)
    readings: list[Reading]
    contested: list[list[str]]                 # contested.csv rows
    answers: list[dict]                        # one per question
    alternatives: dict[str, Result] = field(default_factory=dict)   # folder name -> allocation
    asked: dict[str, str] = field(default_factory=dict)             # folder name -> the question as asked
    status: dict[str, str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    options: list[OpenOption] = field(default_factory=list)   # the open questions the readings combine


def official(policy: Policy, problem: Problem, state=None) -> Result:
    """The allocation the procedure gives (the greedy: with one merit list it is the model's solution), for
    the year after the register's `state` where one is given."""
    if policy.migration.selection_list:
        raise Unsupported("audit of a recommendation list (migration.selection_list) is not built yet: its two "
                          "stages are two models, and a question about one candidate spans both")
    data, inverse = DIRECT(StageData(policy, problem, state))
    return DIRECT.invert(Answer(solve_greedy(data.pools, problem.n), "greedy"), inverse)


def audit(policy: Policy, problem: Problem, questions: list[Question], readings: list[OpenOption] = (),
          load=None, time_limit: float | None = None, workers: int = 1, prove: bool = False,
          state=None) -> AuditResult:
    """Parameters
    ----------
    policy, problem : the recruitment as given.
    questions : the `--ask` questions.
    readings : the options the law leaves open (`readings.open_options`: the model file's open questions and
        `--reading`'s), every combination of their values solved and compared with the policy as given.
    load : callable(sets) -> Policy, the policy with `--set` overrides added (for the readings).
    time_limit : seconds per CP-SAT solve.
    prove : prove uniqueness with CP-SAT even where the theorem settles it (strict merit, no minimums with
        preferences): status "optimal" instead of "theorem".
    state : the register's view before the year (`Register.state`), or None: the year's vacancies are then
        determined with its backlog and roster position, as `solve --register --year` determines them. The
        earlier years stand as recorded: a reading is applied to this year only.

    Returns
    -------
    AuditResult. A reading whose policy the chain refuses (exit 3 for `solve`) is not solved: its status
    says why.
    """
    t0 = time.perf_counter()
    base = Reading("as given", (), policy, official(policy, problem, state))
    read = [base]
    out = AuditResult(None, read, [], [], options=list(readings))
    for sets in combinations(policy, list(readings)):
        name = "; ".join(sets)
        pol = load(list(sets))
        try:
            result = official(pol, problem, state)
        except (Unsupported, PolicyConflict) as e:
            out.status[f"reading {name}"] = f"refused: {e}"
            continue
        read.append(Reading(name, sets, pol, result, *sources(policy, list(readings), sets)))
    unique, rows, out.status["unique"], lattice = uniqueness(base.result, official, time_limit, workers, prove, state)
    if lattice is not None:
        out.alternatives["institution-optimal"] = lattice
    out.unique = unique
    # (the institution-optimal allocation per reading, for questions the two extremes settle: the lattice's own)
    extremes = {id(base.result): lattice or base.result} if out.status["unique"] == "lattice" else {}
    out.contested = rows + _between_readings(base, read[1:])
    out.timings["unique"] = round(time.perf_counter() - t0, 3)
    for n, q in enumerate(questions, 1):
        t = time.perf_counter()
        answer, alt = _ask(q, read, time_limit, workers, extremes)
        answer["seconds"] = round(time.perf_counter() - t, 3)
        out.answers.append(answer)
        if alt is not None:
            name = q.name if q.name and q.name not in out.alternatives else f"question-{n}"
            out.alternatives[name] = alt
            out.asked[name] = q.text
    out.timings["total"] = round(time.perf_counter() - t0, 3)
    return out


def _between_readings(base: Reading, others: list[Reading]) -> list[list[str]]:
    """Candidates whose outcome differs between the policy as given and a reading, with the options it
    changes and the authority on each side."""
    rows = []
    ids = base.result.problem.candidates.ids
    for r in others:
        for i in range(base.result.problem.n):
            a, b = outcome(base.result, i), outcome(r.result, i)
            if a != b:
                rows.append([ids[i], r.name, a, b, r.rule, r.source])
    return rows


def _ask(q: Question, readings: list[Reading], time_limit, workers, extremes: dict) -> tuple[dict, Result | None]:
    """Under each reading in turn: fix the question's literal and solve; the first yes is the answer, with
    its allocation; a no under every reading names, for the policy as given, the blocking rules."""
    explained, unsettled = None, None
    for r in readings:
        verdict, detail, alt = _ask_one(q, r.result, readings[0].result, time_limit, workers, extremes=extremes)
        if verdict == "time_limit":
            return {"question": q.text, "answer": "unknown", "reading": r.name, "blocking": "",
                    "detail": "time limit reached", "minimal": False}, None
        if verdict == "yes":
            return {"question": q.text, "answer": "yes", "reading": r.name, "blocking": "", "detail": detail,
                    "minimal": True}, alt
        if verdict == "unknown":   # (a yes under a later reading still answers it)
            unsettled = unsettled or (r.name, detail)
        elif explained is None:
            explained = detail
    if unsettled is not None:
        return {"question": q.text, "answer": "unknown", "reading": unsettled[0], "blocking": "",
                "detail": unsettled[1], "minimal": False}, None
    blocking, text, minimal = explained
    blocking, text = _also_closed(q, readings[0].result, blocking, text)
    return {"question": q.text, "answer": "no", "reading": "; ".join(r.name for r in readings),
            "blocking": blocking, "detail": text, "minimal": minimal}, None


def settled_by_structure(res: Result) -> bool:
    """Whether the reading's official allocation is its only lawful one: one strict merit list (no tie an id
    alone settles) and no horizontal minimums meeting preferences, the stable allocation is unique (serial
    dictatorship: the candidates choose in merit order), so a question is answered by that allocation alone."""
    return res.problem.candidates.tie_blocks().max(initial=-1) < 0 and not res.pools.minimums_with_preferences \
        and not res.pools.several_lists


def _also_closed(q: Question, res: Result, blocking: str, text: str) -> tuple[str, str]:
    """A "no" (`blocking`, `text`) with what else closes the seats asked about to the candidate: asked about any
    seat, the programs he ranked with no seat open to him (`unheld_programs`); asked about a program, those of
    its seat pools not on his list (`_not_open`), where others are."""
    i = q.candidate
    if q.post is None and q.selected and (said := unheld_programs(res).get(i)):
        return blocking, f"{text}; {said}"
    closed = [p for p in q.posts or () if not res.problem.ranked[i, p]]
    if closed and len(closed) < len(q.posts):
        more, words, _ = _not_open(res, i, tuple(closed))
        return "; ".join(dict.fromkeys(blocking.split("; ") + more.split("; "))), f"{text}; {words[4:]}"
    return blocking, text


def _not_open(res: Result, i: int, posts: tuple[int, ...]) -> tuple[str, str, bool]:
    """Why candidate i may hold none of `posts`, none of which is on his list: a seat pool's quota, gender pool
    or trait bars him (`Holders.bar`), he did not rank it, or he did but the shortlist's lists called apart keep
    him to others' posts (`solver.exam.called`). Returns (the rules' names, the words, True)."""
    problem = res.problem
    ids, called = problem.candidates.ids, problem.candidates.called_in
    holders = Holders(res.policy.seat_pools, problem.candidates)
    names, barred, parts = [], [], []
    for post in posts:
        pool, name = problem.post_pools[post], problem.posts[post]
        if pool is not None and (bar := holders.bar(pool, i)):
            names.append("seat pool not open to him")
            barred.append(f"{name}'s seats are {bar}")
        elif called is not None and called[i] and problem.stated_ranking.rank(i, post) < NOT_RANKED:
            many = len(called[i]) > 1
            names.append("not called for this post")
            parts.append(f"{ids[i]} was called by the shortlist in the list{'s' * many} {' and '.join(called[i])} "
                         f"only, and {name} is not one of {'their' if many else 'its'} posts (shortlist.separate)")
        else:
            names.append("post not applied for")
            parts.append(f"{ids[i]} did not rank {name} (SPEC.md preferences.csv)")
    if barred:
        parts.insert(0, "; ".join(barred) + " (vacancies.csv quota, gender_pool and trait; the policy's seat_pools)")
    return "; ".join(dict.fromkeys(names)), "no: " + "; ".join(parts), True


def _ask_one(q: Question, res: Result, base: Result, time_limit, workers, model: bool = False,
             reduce: bool | None = None, extremes: dict | None = None):
    """The question under one reading: "yes" with the allocation, "no" with the blocking rules, or "time_limit".
    Where the structure settles it (`settled_by_structure`) and `model` is false, from the reading's official
    allocation, with no CP-SAT model built (an SSC-size model took 6.9 GB); with several lists and the model past
    the budget, from the two extreme stable allocations where they settle it (`_by_lattice`; `extremes`: the
    institution-optimal allocation per reading, made once); else from the model of every lawful allocation, or,
    where that is past the budget (or `reduce`) and the recruitment is a house allocation, from the model of the
    part of it the question can touch (`houses.truncated`)."""
    problem, i = res.problem, q.candidate
    tied = problem.candidates.tie_blocks()
    if q.post is not None and not problem.ranked[i, list(q.posts)].any():
        return "no", _not_open(res, i, q.posts), None
    if not model and (found := _read_off(q, res, base, extremes, time_limit, workers)) is not None:
        return found
    h, pools, kept = _scope(res, i, reduce if reduce is not None else not model and too_large(res.pools))
    if pools is None or (h is not None and too_large(pools)):
        return _by_tie_orders(q, res, base, pools)
    if h is not None and _answers(q, res):   # (the official allocation is lawful: no model needed)
        return "yes", _yes_detail(q, base, res), res
    pools, why = relaxable(res.policy, problem, pools, i)
    rules = Rules(ties=tied, ineligible=why, capacity=True, waste=True)
    model = lawful_model(pools, problem, rules)
    mine = [xs[i] for p, xs in enumerate(model.holds) if i in xs and q.asks(pools.pools[p].post)]
    model.m.add(cp_model.LinearExpr.sum(mine) == (1 if q.selected else 0))
    status, solver, core = named_core(model, rules, time_limit, workers)
    if status == "time_limit":
        return "time_limit", None, None
    if status == "feasible":
        got = solution(model, solver, problem.n)
        alt = with_pools(res, extend(h, got.pool, kept)) if h is not None else \
            Result(res.policy, problem, res.seats, res.pools, got, "cpsat")
        return "yes", _yes_detail(q, base, alt), alt
    core, minimal = shrunk(model, rules, core, time_limit, workers)
    return "no", explain(q, res, pools, why, core, minimal), None


def _read_off(q: Question, res: Result, base: Result, extremes: dict | None, time_limit=None, workers: int = 1):
    """The answer where the structure (`settled_by_structure`) or the lattice (`_by_lattice`) settles it without
    the whole model; None where neither does."""
    if settled_by_structure(res):
        return _by_structure(q, res, base)
    return _by_lattice(q, res, base, extremes, time_limit, workers)


def _by_lattice(q: Question, res: Result, base: Result, extremes: dict | None, time_limit, workers):
    """Several merit lists whose model of every lawful allocation is past the budget (JoSAA size): the answer
    the official (candidate-optimal) and the institution-optimal allocations settle (`solver.audit.lattice`);
    where they do not (a post strictly between them in her order), the model of the contested candidates alone,
    everyone else at the seat both give him (`_among_contested`). None where the lists are not a plain market, or
    where minimums' choices (which count all free to take a pool: not the contested alone) leave it open."""
    if not (res.pools.several_lists and lattice_supported(res.pools) and strict(res.problem) and too_large(res.pools)):
        return None
    extremes = {} if extremes is None else extremes
    if id(res) not in extremes:      # (the results live as long as the audit: their ids stand)
        extremes[id(res)] = institution_optimal(res)
    found = lattice_answer(q, res, extremes[id(res)])
    if found is None:
        return None if any(p.minimums for p in res.pools) else \
            _among_contested(q, res, base, extremes[id(res)], time_limit, workers)
    verdict, said = found
    return ("yes", _yes_detail(q, base, said), said) if verdict == "yes" else ("no", ("stability", said, True), None)


def _among_contested(q: Question, res: Result, base: Result, alt: Result, time_limit, workers):
    """The model of every lawful allocation cut down to the candidates whose seats differ between the two
    extremes (`certificate.contested_pools`): the others hold in every stable allocation the seat both give
    them, so they are fixed there, and the question is asked of the rest."""
    problem, held = res.problem, res.assignment.pool
    free = held != alt.assignment.pool
    pools = contested_pools(res.pools, held, free)
    rules = Rules(ties=problem.candidates.tie_blocks(), capacity=True, waste=True)
    model = lawful_model(pools, problem, rules)
    for p, xs in enumerate(model.holds):
        for i, x in xs.items():
            if not free[i]:
                model.m.add(x == int(held[i] == p))
    mine = [xs[q.candidate] for p, xs in enumerate(model.holds)
            if q.candidate in xs and q.asks(pools.pools[p].post)]
    model.m.add(cp_model.LinearExpr.sum(mine) == (1 if q.selected else 0))
    status, solver, core = named_core(model, rules, time_limit, workers)
    if status == "time_limit":
        return "time_limit", None, None
    if status == "feasible":
        got = Result(res.policy, problem, res.seats, res.pools, solution(model, solver, problem.n), "cpsat")
        return "yes", _yes_detail(q, base, got), got
    if not core:     # (what stands in the way is the others' seats, fixed: no rule of the model's own)
        return "no", ("stability", contested_no(q, res, int(free.sum())), True), None
    core, minimal = shrunk(model, rules, core, time_limit, workers)
    return "no", explain(q, res, pools, {}, core, minimal), None


def _scope(res: Result, i: int, reduce: bool):
    """The pools a question about candidate i is asked of: all of them; or, to `reduce` a house allocation,
    those of the candidates at or above her (`houses.truncated`), with its `Houses` and the number kept; or
    (None, None, n) where there is no such reduction (minimums meeting preferences keep their full model)."""
    n = res.problem.n
    if not reduce or res.pools.minimums_with_preferences:
        return None, res.pools, n
    h = houses(res.pools, res.problem.candidates.tie_blocks())
    if h is None:
        return None, None, n
    return (h, *truncated(res.pools, h, i))


def _by_tie_orders(q: Question, res: Result, base: Result, reduced: Pools | None):
    """Where no model within the budget can answer: the procedure under orders of the tie blocks the question
    points to; a yes is one, else "unknown" with the size of the smallest model that would settle it."""
    problem, i = res.problem, q.candidate
    ids, tied = problem.candidates.ids, problem.candidates.tie_blocks()
    for order in tie_orders(tied, i):
        alt = solved_in(order, official, res)
        if _answers(q, alt):
            return "yes", _yes_detail(q, base, alt), alt
    tried = "every tie block reversed" + (f", and {ids[i]} first in hers" if tied[i] >= 0 else "")
    which = "the model of the candidates who can reach her seats" if reduced is not None else \
        "the model of every lawful allocation"
    return "unknown", f"not settled by the orders tried ({tried}: {int((tied >= 0).sum()):,} candidates tie " \
        f"on merit that only ids order), and {which} would take about " \
        f"{model_bytes(reduced if reduced is not None else res.pools) / 2**30:.1f} GiB: not built", None


def _answers(q: Question, res: Result) -> bool:
    """Whether `res` has the outcome the question asks about."""
    held = int(res.assignment.pool[q.candidate])
    got = held >= 0 and q.asks(res.pools.pools[held].post)
    return got == q.selected


def _by_structure(q: Question, res: Result, base: Result):
    """The answer read off the reading's one lawful allocation; a "no" names what stands in the way as the
    model's core would: the capacity of each pool she could hold at the posts asked about, filled by candidates
    ranked above her, and a rule that bars her from a pool where she would rank within the cutoff (a relaxed
    standard, the creamy layer); or, asked to be left out, the non-wastefulness of the pool she holds."""
    i = q.candidate
    held = int(res.assignment.pool[i])
    if _answers(q, res):
        return "yes", _yes_detail(q, base, res), res
    if not q.selected:
        return "no", explain(q, res, res.pools, {}, [("waste", int(held))], True), None
    posts = q.posts if q.post is not None else [j for j in range(len(res.problem.posts)) if res.problem.ranked[i, j]]
    relaxed, why = relaxable(res.policy, res.problem, res.pools, i)
    # Each pool she could hold at the posts asked about is closed to her by one rule, and opening any one would
    # let her in: its capacity (held by candidates above her, in merit order), or the rule that bars her.
    core = []
    filled = res.assignment.filled(len(res.pools.pools))
    for p in res.pools.pools:
        if p.post in posts and p.eligible[i]:
            # (selected elsewhere, a pool not filled by candidates above her binds nobody: she holds a seat she
            # ranks higher, whose waste is named below)
            if held < 0 or len(above_on_list(res, p, i)[0]) >= p.capacity(filled):
                core.append(("capacity", p.index))
        elif p.post in posts and (p.index, i) in why:
            core.append(("eligibility", p.index, i))
    rank = res.problem.ranking.rank
    if held >= 0 and all(rank(i, res.pools.pools[held].post) < rank(i, j) for j in posts):
        # (selected elsewhere, at a post she ranks above those asked about: to move her down would leave a seat
        # she wants; at one she ranks below them, the capacities above are what keep her out)
        core.append(("waste", held))
    core.sort(key=str)   # (the order the model's core is named in)
    return "no", explain(q, res, relaxed, why, core, bool(held < 0)), None


def _yes_detail(q: Question, res: Result, alt: Result) -> str:
    i = q.candidate
    moved = int((alt.assignment.pool != res.assignment.pool).sum())
    return f"yes: {res.problem.candidates.ids[i]} {outcome(alt, i)} (officially {outcome(res, i)}); {moved} " \
           "candidates fare otherwise than officially (alternatives/NAME/diff.csv)"
