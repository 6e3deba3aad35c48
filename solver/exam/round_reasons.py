"""decisions.csv after a round of counselling (`slide`): a reason for every candidate, as `solve` gives one.

Who took part in the round (a floater, a slider, a newcomer) has the reason the round's own allocation gives
(`solver.outcome.reasons`: the cutoffs he was below, on each pool's own list, his rank in the whole merit list),
after what he answered; who froze keeps his seat; who withdrew or did not report has left; one the round did not
take (under registration, one who did not register; one who left before) is told so. A floater whom the round
would have left without a seat or moved down keeps his own (nobody moves down: `solver.exam.slide`)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data.problem import Problem
from ..chain.compartment import held_vacancies
from ..chain.pools import held_positions
from ..chain.pools.lists import pairs_before
from ..outcome.reasons import NO_SEAT, decision_rows, ranked_words, seat_kind


@dataclass(frozen=True)
class Answers:
    said: dict[str, str]        # each holder's answer as given (JoSAA's freeze and withdraw included)
    answer: dict[str, str]      # the same in SSC's words (fix, float, slide, absent)
    responded: frozenset        # who gave a response at all (under registration a holder without one keeps his seat)
    fixed: set[str]             # who keeps his own seat: those who fixed, and floaters the round would move down
    registered: set[str]        # without a seat, registered for the round (`slide.registration`)
    gone: frozenset             # left in an earlier round
    registration: bool


def round_decisions(problem: Problem, first: dict, final: list[list], answers: Answers, solved) -> list[list]:
    """decisions.csv's rows (`candidate_id`, `selected`, `post`, `reason`), every candidate in merit order.

    Parameters
    ----------
    problem : the recruitment.
    first : candidate id -> his allocation.csv row before the round (those holding a seat).
    final : allocation.csv's rows after the round.
    answers : what each said, and who kept his seat, registered or had left.
    solved : (the round's last solution or None, its candidates as merit positions).
    """
    sol, pool = solved
    ids = problem.candidates.ids.tolist()
    after = {r[0]: r for r in final}
    own: dict[str, str] = {}
    if sol is not None:
        frozen = unoffered(sol.result)
        for j, (k, row) in enumerate(zip(np.asarray(pool).tolist(), decision_rows(sol.result))):
            if row[3].endswith(NO_SEAT):
                own[ids[k]] = row[3] + " in this round: it offers no seat held by one who froze or kept his own"
            else:
                own[ids[k]] = row[3] + (f"; not offered in this round (held by those who froze or kept theirs): "
                                        f"{frozen[j]}" if j in frozen else "")
    in_round = {ids[k] for k in np.asarray(pool).tolist()}
    out = []
    for i, cid in enumerate(ids):
        now = after.get(cid)
        reason = _reason(cid, i, first.get(cid), answers, own, in_round)
        out.append([cid, "true" if now is not None else "false", now[1] if now is not None else "", reason])
    return out


def _reason(cid: str, i: int, before: dict | None, answers: Answers, own: dict, in_round: set) -> str:
    if before is not None:
        return _holder(cid, before, answers, own)
    if cid in own:
        return own[cid]
    if cid in in_round:
        return f"rank {i + 1}: the round had no seat left to offer"
    if cid in answers.gone and cid not in answers.registered:
        return f"rank {i + 1}: left the counselling in an earlier round"
    if answers.registration:
        return f"rank {i + 1}: did not register for this round"
    return f"rank {i + 1}: held no seat before this round, and the round takes no newcomers (slide.newcomers)"


def _holder(cid: str, before: dict, answers: Answers, own: dict) -> str:
    seat = f"{before['post']} ({before['seat_category']})"
    said, answer = answers.said.get(cid, ""), answers.answer.get(cid, "")
    if answer == "absent":
        return (f"withdrew, giving up {seat}" if said == "withdraw" else f"did not report: dropped, giving up {seat}")
    if answer == "fix":
        if answers.registration and cid not in answers.responded:
            return f"did not register for this round: keeps {seat}"
        return f"{'froze' if said == 'freeze' else 'fixed'} {seat}: kept, and considered for nothing else"
    verb = "slid (within his institute)" if answer == "slide" else "floated"
    if cid in answers.fixed:
        return (f"{verb} from {seat}: keeps it; the round gave him no seat he ranks above it and would have given "
                "his own to another (nobody moves down)")
    return f"{verb} from {seat}: " + own.get(cid, "not in the round's allocation")


def unoffered(result, most: int = 3) -> dict[int, str]:
    """Per candidate of the round's own allocation (`result`), the pools he may hold, at posts he ranks above what
    he holds, that have no seat at all (the round offers none that those who froze or kept theirs hold), at most
    `most`, in his order and joined: "the open seats at P (ranked 1st); the OBC-NCL seats at P (ranked 1st)"."""
    pools, a = result.pools, result.assignment
    ci, pi = pools.preference_lists()
    start, _, at_held = held_positions(pools, a.pool)
    filled = a.filled(len(pools.pools)) + held_vacancies(pools, a.pool)
    none = np.array([p.capacity(filled) == 0 for p in pools.pools], dtype=bool)
    idx = pairs_before(none, pi, start, at_held, most)
    if not len(idx):
        return {}
    who, k = ci[idx], pi[idx]
    r = result.problem.places(who, pools.columns[1][k])
    # (worded as object arrays, each pool and each rank once: 262,000 named in a JoSAA-size round)
    head = np.full(len(pools.pools), "", dtype=object)
    for q in np.unique(k).tolist():
        head[q] = f"the {seat_kind(pools.pools[q])} seats at {result.problem.posts[pools.pools[q].post]}"
    text = (head[k] + ranked_words(r)).tolist()
    bounds, first = np.flatnonzero(np.r_[True, who[1:] != who[:-1], True]).tolist(), who.tolist()
    return {first[s]: "; ".join(text[s:e]) for s, e in zip(bounds[:-1], bounds[1:])}
