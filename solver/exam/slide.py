"""One sliding round after a first tentative allocation (SSC's sliding mechanism, notice of 3 March 2026;
`Policy.slide` says what was read and what is a reading).

Each candidate the first round placed answers at identity verification: `fix` (he keeps his post, and is
considered for nothing else), `float` (he may move, but only to a post he prefers to his own), `slide` (as
float, but only to a post of his own institute: JoSAA's slide, `institute` in vacancies.csv, a program its own
institute where none is given) or nothing (`absent`, or missing from the responses file: he did not report and
is dropped). JoSAA's `freeze` and `withdraw` are `fix` and `absent`. The round re-allocates every
seat of the first round but the fixed ones - those the absentees freed and those the floaters hold - among the
floaters (each offered the posts he ranks above his own, and his own) and, where `slide.newcomers`, the
candidates the first round left without a post, on merit and preference under the first round's own rules
(`solver.exam.later`). A floater the round would leave without a post keeps his own instead (he fixes), and the
round is solved again without his seat, until every floater has his own post or a better one: nobody is moved
down. One round; what it leaves is reported again for the next cycle (no waiting list after it).

A round of its own registration (`slide.registration`: CSAB's special rounds after JoSAA's last) takes only the
registered: a holder who gives no response keeps his seat, and one without a seat (or who left in an earlier
round) takes part by answering `register`. The posts ranked by a list of `slide.closed_lists` (the IITs', for
CSAB) are not offered: a seat there stays with its holder, or vacant once he moves.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..errors import PolicyConflict, Unsupported
from ..data.kinds import Engine
from .conversions import seats_left
from .later import later_solution, placed_posts, round_policy, round_rows
from .round_reasons import Answers, round_decisions
from ..chain.engines.greedy import resumable, resume
from ..chain.pools.reuse import earlier_lists, with_cut
from ..chain.solve import Solution
from ..outcome.cutoffs import allocation_cutoffs
from ..outcome.result import Result
from ..outcome.unfilled import NEXT_ROUND, category_rows
from ..policy import Policy
from ..data.problem import Problem

RESPONSES = ("fix", "float", "absent", "freeze", "slide", "withdraw", "register")
# JoSAA's words for SSC's (the Business Rules' freeze and withdraw): the same answer.
SAME_AS = {"freeze": "fix", "withdraw": "absent"}
SLIDE_COLUMNS = ["candidate_id", "response", "first_post", "first_seat", "post", "seat_category", "outcome"]


@dataclass(frozen=True)
class Slid:
    rows: list[list]          # allocation.csv rows after the round (fixed, then the round's), in merit order
    moves: list[list]         # slide.csv rows: every candidate of either round, what became of him
    unfilled: list[list]      # unfilled.csv rows: the round's seats per post and category, filled and left
    rounds: dict              # figures: fixed, floated, absent, moved up, newcomers placed, solves
    gone: list[str]           # withdrawn.csv: who has left (this round's absent and those before), in merit order
    decisions: list[list]     # decisions.csv rows: every candidate, with the reason (`solver.exam.round_reasons`)


def slide(policy: Policy, problem: Problem, allocation: list[dict], responses: dict[str, str],
          engine: Engine | str = Engine.GREEDY, time_limit: float | None = None, workers: int = 1,
          gone=frozenset()) -> Slid:
    """The sliding round (see the module's text).

    Parameters
    ----------
    policy, problem : the recruitment's own.
    allocation : the first round's allocation.csv, as dicts.
    responses : candidate id -> "fix" (or "freeze"), "float", "slide" or "absent" (or "withdraw"); a placed
        candidate not in it is absent (under `slide.registration`: keeps his seat). Under registration, one
        without a seat answers "register" to take part.
    gone : ids of those who left in an earlier round (the previous round's withdrawn.csv): no newcomers (under
        registration, one of them who registers takes part again).
    """
    if policy.migration.selection_list:
        raise Unsupported("a sliding round under a policy with a recommendation list (migration.selection_list) is "
                          "not implemented: the round is SSC's, whose allocation has none, and a floater's move would "
                          "need the list drawn again")
    ids = problem.candidates.ids
    index = {cid: i for i, cid in enumerate(ids)}
    first = {r["candidate_id"]: r for r in allocation}
    rule = policy.slide
    said, registered, newcomers = _taking_part(policy, problem, first, responses, gone)
    answer = {cid: SAME_AS.get(a, a) for cid, a in said.items()}
    closed = closed_posts(policy, problem)
    extra = _open(seats_left(policy, problem, [(r["post"], r["seat_category"]) for r in first.values()]), closed) \
        if rule.unfilled_offered else Counter()
    rows, status, differences, fixed, solves, solved = _rounds(round_policy(policy), problem, first, answer, newcomers,
                                                       (engine, time_limit, workers), extra, closed)
    kept = [[cid, r["post"], r["seat_category"], r.get("counted_as", ""), r.get("horizontal", ""),
             r.get("route", ""), index[cid] + 1] for cid, r in first.items() if cid in fixed]
    final = sorted(kept + rows, key=lambda r: r[-1])
    moves = _moves(problem, first, {**dict.fromkeys(registered, "register"), **said}, final)
    figures = _figures(answer, moves, len(fixed), solves, status,
                       {**({"engine_differences": differences} if str(engine) == "both" else {}),
                        **({"registered": len(registered)} if rule.registration else {})})
    left = (set(gone) - registered) | {cid for cid, a in answer.items() if a == "absent"}
    left_as = NEXT_ROUND if rule.unfilled_offered else "reported again"
    why = round_decisions(problem, first, final, Answers(said, answer, frozenset(responses), fixed, registered,
                                                         frozenset(gone), rule.registration), solved)
    return Slid(final, moves, _unfilled(first, fixed, rows, extra, closed, set(policy.horizontal.held), left_as),
                figures, [x for x in ids if x in left], why)


def round_cutoffs(policy: Policy, problem: Problem, slid: Slid) -> list[list]:
    """cutoffs.csv after the round: per post and seat category everyone who holds a seat when it ends, frozen
    and kept included (JoSAA's opening and closing ranks are of each round's allotment as a whole), the last
    rank on the post's own list; a pair the round offered and nobody took has a row with none."""
    return allocation_cutoffs(problem, policy.seat_codes, slid.rows,
                              [(r[0], r[1]) for r in slid.unfilled if int(r[2]) > 0])


def _taking_part(policy: Policy, problem: Problem, first: dict, responses: dict, gone) -> tuple[dict, set, list]:
    """Each holder's answer as said (one without a response: absent, or under `slide.registration` he keeps his
    seat), those without a seat who registered, and the newcomers (merit positions): every one the round before
    left without a seat and who has not left, or under registration those who registered."""
    ids, rule = problem.candidates.ids, policy.slide
    said = {cid: responses.get(cid, "fix" if rule.registration else "absent") for cid in first}
    registered = {cid for cid, a in responses.items() if a == "register" and cid not in first}
    newcomers = [i for i in range(problem.n) if ids[i] not in first and
                 (ids[i] in registered if rule.registration else ids[i] not in gone)] if rule.newcomers else []
    return said, registered, newcomers


def closed_posts(policy: Policy, problem: Problem) -> frozenset[str]:
    """The posts the round does not offer: those whose open seats a list of `slide.closed_lists` ranks (CSAB's
    special rounds: the IITs', by JEE (Advanced)). A list the ranks file does not give is a conflict (the round
    would offer every post without a word)."""
    names = policy.slide.closed_lists
    if not names:
        return frozenset()
    given = problem.lists.names[1:] if problem.lists is not None else ()
    if missing := [x for x in names if x not in given]:
        raise PolicyConflict(f"slide.closed_lists names {', '.join(missing)}, a merit list the ranks file does not "
                             f"give (its lists: {', '.join(given) or 'none'}): the round cannot tell which posts it "
                             "does not offer")
    return frozenset(post for j, post in enumerate(problem.posts) if problem.list_name(j, policy.open) in names)


def _open(seats: Counter, closed: frozenset[str]) -> Counter:
    """`seats` ((post, category) -> count) but those at posts the round does not offer."""
    return Counter({key: k for key, k in seats.items() if key[0] not in closed}) if closed else seats


def _figures(answer: dict, moves: list[list], kept: int, solves: int, status: str, extra: dict) -> dict:
    """summary.json's figures of the round."""
    said = Counter(answer.values())
    outcomes = Counter(m[-1] for m in moves)
    return {"fixed": said["fix"], "floated": said["float"], "slid": said["slide"], "absent": said["absent"],
            "kept_by_floaters": kept - said["fix"], "solves": solves, "status": status, **extra,
            "moved_up": outcomes["moved up"], "newcomers_placed": outcomes["new"]}


def _rounds(single: Policy, problem: Problem, first: dict, answer: dict, newcomers: list[int], solving: tuple,
            extra: Counter, closed: frozenset[str]):
    """Solve the round (the seats freed, and `extra`: those the last round left, converted), and again while a
    floater would be left out or moved down: he keeps his own post instead (no floater is moved down). Returns
    (rows, status, engine differences, those keeping their own post, solves, (the last solution, its candidates))."""
    ids = problem.candidates.ids
    index = {cid: i for i, cid in enumerate(ids)}
    where = problem.post_index
    fixed = {cid for cid, a in answer.items() if a == "fix"}
    floating = sorted(index[cid] for cid, a in answer.items() if a in ("float", "slide"))
    solves = 0
    lists = _lists(problem, floating + newcomers, first, answer, closed)
    earlier = None     # (the solve before's lists and its candidates: they serve the next solve)
    sol, lost = None, []
    while True:
        if (sol := _resumed(sol, lost, first, where, closed)) is None:
            pool = np.array(sorted([i for i in floating if ids[i] not in fixed] + newcomers), dtype=np.int64)
            sol = _afresh(single, problem, first, fixed, (closed, extra), pool, lists, solving, earlier)
        solves += 1
        lost = _lost(problem, placed_posts(sol, pool) if sol is not None else {}, floating, fixed, first, where)
        if not lost:
            if sol is None:
                return [], "none", 0, fixed, solves, (None, pool)
            return round_rows(sol, pool), sol.result.assignment.status, sol.differences, fixed, solves, (sol, pool)
        fixed |= set(lost)
        if sol is not None and not (str(solving[0]) == "greedy" and resumable(sol.result.pools)):
            # (its lists kept, not the solution: two JoSAA-size solutions at once cost 0.8 GB)
            earlier, sol = (earlier_lists(sol.result.pools), pool), None


def _afresh(single: Policy, problem: Problem, first: dict, fixed: set, offered: tuple, pool: np.ndarray,
            lists: dict, solving: tuple, earlier):
    """The round solved from the start for the candidates `pool`: the seats of those who do not keep their own
    (`fixed`), less those at posts the round does not offer, and the seats the last round left (`offered`:
    closed posts, extra seats); None where nobody or no seat is left. Who is placed where is all a solve that
    turns out not to be the last is read for."""
    closed, extra = offered
    counts, mins = _seats([r for cid, r in first.items() if cid not in fixed and r["post"] not in closed])
    counts = counts + extra
    if not len(pool) or not counts:
        return None
    return later_solution(single, problem, pool, counts, mins, *solving, [lists[i] for i in pool.tolist()], earlier)


def _resumed(sol, lost: list[str], first: dict, where: dict, closed: frozenset[str]):
    """The round solved again with the floaters `lost` fixed, resumed from `sol` (`greedy.resume`) where that
    gives what solving afresh gives: `sol` greedy's, of resumable pools, and each of `lost` holding nothing in
    it. Each fixed floater's own seat, if the round offered it, is cut from his post's pool of its category; he
    stays among the solve's candidates, holding nothing with nothing left to propose to, as one taken out.
    None where it is not resumed (the caller solves afresh)."""
    if sol is None or not lost:
        return None
    res = sol.result
    pools = res.pools
    ids = res.problem.candidates.ids
    own = {(p.post, p.category): p.index for p in pools if not p.carried}
    cut = np.zeros(len(pools), dtype=np.int64)
    for cid in lost:
        r = first[cid]
        if r["post"] in closed:
            continue
        k = own.get((where[r["post"]], r["seat_category"]))
        if k is None:
            return None
        cut[k] += 1
    if (res.assignment.pool[np.isin(ids, lost)] >= 0).any():
        return None
    return Solution(Result(res.policy, res.problem, res.seats, with_cut(pools, cut), resume(pools, res.assignment, cut),
                           res.engine), None, {})


def _lost(problem: Problem, got: dict[int, str], floating: list[int], fixed: set, first: dict, where: dict) -> list:
    """The floaters (not fixed) the round left out, or gave a post below their own (as a policy that allocates
    the recommended to unranked posts may): each keeps his own instead. `got`: merit position -> post."""
    ids = problem.candidates.ids
    return [ids[i] for i in floating if ids[i] not in fixed and
            (i not in got or _below(problem, i, got[i], first[ids[i]]["post"], where))]


def _lists(problem: Problem, taking_part: list[int], first: dict, answer: dict,
           closed: frozenset[str]) -> dict[int, np.ndarray]:
    """Candidate -> his list in the round (`_offered`, less the posts the round does not offer), made once: a
    re-solve takes the same lists of fewer candidates."""
    everyone = np.array(sorted(taking_part), dtype=np.int64)
    offered = np.array([p not in closed for p in problem.posts], dtype=bool)
    return {i: mine if not closed else mine[offered[mine]]
            for i, mine in zip(everyone.tolist(), _offered(problem, everyone, first, answer))}


def _below(problem: Problem, i: int, post: str, own: str, index: dict[str, int]) -> bool:
    """Whether candidate i ranks `post` below `own` (or not at all); in file order without preferences. `index`:
    post -> its index (a dict: JoSAA's 5,500 seat pools searched per floater took 0.6 s)."""
    j, k = index[post], index[own]
    if j == k:
        return False
    if problem.preferences is None:
        return j > k
    order = {p: n for n, p in enumerate(problem.preferences[i].tolist())}
    return j not in order or (k in order and order[j] > order[k])


def _seats(rows: list[dict]) -> tuple[Counter, dict]:
    counts = Counter((r["post"], r["seat_category"]) for r in rows)
    mins: dict[tuple[str, str], Counter] = {}
    for r in rows:
        for t in filter(None, (r.get("horizontal") or "").split(";")[:1]):
            mins.setdefault((r["post"], r["seat_category"]), Counter())[t] += 1
    return counts, mins


def _offered(problem: Problem, pool: np.ndarray, first: dict, answer: dict) -> list[np.ndarray]:
    """Each of the pool's lists in the round: a floater's up to his own post (without a preferences file, every
    post in file order, so those before his), a slider's the same at his own institute only, a newcomer's as
    given."""
    every = np.arange(len(problem.posts), dtype=np.int32)
    posts = problem.post_index
    home = np.array(institutes(problem), dtype=object)
    out = []
    for i in pool.tolist():
        mine = problem.preferences[i] if problem.preferences is not None else every
        cid = problem.candidates.ids[i]
        if answer.get(cid) in ("float", "slide"):
            own = np.flatnonzero(mine == posts[first[cid]["post"]])
            mine = mine[:own[0] + 1] if len(own) else mine   # (a floater on a post he did not rank keeps all)
        if answer.get(cid) == "slide":
            mine = mine[home[mine] == home[posts[first[cid]["post"]]]]
        out.append(mine)
    return out


def institutes(problem: Problem) -> list[str]:
    """Per post, the institute a slide stays within: its seat pool's `institute`, else its program (a post
    without seat pools is its own program)."""
    return [(p.institute or p.program) if p is not None else post
            for post, p in zip(problem.posts, problem.post_pools)]


def _moves(problem: Problem, first: dict, answer: dict, final: list[list]) -> list[list]:
    after = {r[0]: r for r in final}
    out = []
    for cid in problem.candidates.ids:
        before, now = first.get(cid), after.get(cid)
        if before is None and now is None:
            continue
        a = answer.get(cid, "")      # (as answered: freeze and withdraw are fix and absent)
        if before is None:
            outcome = "new"
        elif SAME_AS.get(a, a) == "absent":
            outcome = "dropped"
        elif now[1] == before["post"]:
            outcome = "kept" if SAME_AS.get(a, a) == "fix" else "stayed"
        else:
            outcome = "moved up"
        out.append([cid, a, before["post"] if before else "", before["seat_category"] if before else "",
                    now[1] if now else "", now[2] if now else "", outcome])
    return out


def _unfilled(first: dict, fixed: set, rows: list[list], extra: Counter, closed: frozenset[str],
              held: set[str], left_as: str) -> list[list]:
    """unfilled.csv: the round's seats (those it offered) per post and category, filled and left, a row per
    disposition: `held_vacant` for a seat whose holder in the round before served a held trait (its first label)
    and that no beneficiary holds now (kept and carried, `horizontal.held`), `left_as` for the others (`next_round`
    in a counselling, whose next round offers them; `reported again` for SSC's single round)."""
    freed = [r for cid, r in first.items() if cid not in fixed]
    total = _open(Counter((r["post"], r["seat_category"]) for r in freed), closed) + extra
    was_held = _open(Counter((r["post"], r["seat_category"]) for r in freed
                             if (r.get("horizontal") or "").split(";")[0] in held), closed)
    filled = Counter((r[1], r[2]) for r in rows)
    served = Counter((r[1], r[2]) for r in rows if str(r[4]).split(";")[0] in held)
    out = []
    for (p, s), k in sorted(total.items()):
        left = k - filled[(p, s)]
        kept = min(left, max(0, was_held[(p, s)] - served[(p, s)]))
        out += category_rows(p, s, k, filled[(p, s)], [("held_vacant", kept), (left_as, left - kept)])
    return out
