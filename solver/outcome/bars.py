"""What keeps a candidate from vacancies he might otherwise hold, in plain words for decisions.csv: a bar of
his own (found unfit, a relaxed standard, the creamy layer, a post held already, a shortlist's call, programs he
ranked that have no seat open to him), and under overall minimums why a beneficiary was not adjusted in."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..chain.eligibility import homes, member_mask
from ..data.seat_pools import Holders

if TYPE_CHECKING:
    from .result import Result


def barred(result: Result) -> dict[int, list[str]]:
    """Per candidate barred from every vacancy (found unfit), from open vacancies (a relaxed standard) or from
    their category's (creamy layer): what barred them. Candidates barred from nothing are not keys."""
    c, policy = result.problem.candidates, result.policy
    bars = []
    if c.failed_test is not None:
        bars.append((c.failed_test, "failed the prescribed test, so may hold only a reserved vacancy on probation "
                     "where the policy and the post's class allow it (Manipur Act 1976 s.8(3), second proviso)"))
    if c.unfit is not None:
        bars.append((c.unfit, "found unfit (fit = false), so appointed to nothing (Bill 2004 s.8(2) proviso; "
                     "Manipur Act 1976 s.9)"))
    if not policy.migration.relaxed_may_take_open:
        bars.append((c.relaxed_at(policy.migration.bars_open.final), "availed a relaxation that bars the open list "
                     f"({', '.join(policy.migration.bars_open.final)}: migration.bars_open), so may not take an open "
                     "vacancy"))
    excluded = [x.code for x in policy.categories if x.code != policy.open and x.creamy_layer_excluded]
    bars.append((c.creamy & c.in_categories(*excluded), "creamy layer, so competes as open only"))
    out: dict[int, list[str]] = {}
    for mask, why in bars:
        for i in np.flatnonzero(mask).tolist():
            out.setdefault(i, []).append(why)
    if c.appointed is not None:
        posts = set(result.problem.posts)
        for i in np.flatnonzero(c.appointed != "").tolist():
            if c.appointed[i] in posts:
                out.setdefault(i, []).append(f"holds {c.appointed[i]} already, so is not recommended for it or "
                                             "any post below it in his order (upgrade only: MPSC circular of "
                                             "13 May 2026, as summarised)")
    kept = c.called_in.tolist() if c.called_in is not None else []
    for i in [i for i, names in enumerate(kept) if names]:
        names, several = kept[i], len(kept[i]) > 1
        out.setdefault(i, []).append(f"called by the shortlist in the list{'s' * several} {' and '.join(names)} "
                                     f"only, so may hold only {'their' if several else 'its'} posts "
                                     "(shortlist.separate)")
    for i, why in unheld_programs(result).items():
        out.setdefault(i, []).append(why)
    return out


def unheld_programs(result: Result, named: int = 3) -> dict[int, str]:
    """Per candidate who ranked, above what he holds, programs none of whose seat pools he may hold (left out of
    his list: `solver.data.seat_pools.Unheld`), those programs, the first `named` by name and place. None said
    where he ranked nothing (every program in the file's order)."""
    problem = result.problem
    u = problem.unheld
    if u is None or problem.file_order:
        return {}
    place, post_held = u.ranked(), result.held_post[u.who]
    held = post_held >= 0
    above = np.ones(len(u.who), dtype=bool)
    above[held] = place[held] < problem.places(u.who[held], post_held[held])
    pools, ranked = problem.post_pools, {}      # (candidate -> (place, program) of each, in his order)
    for i, r, post in zip(u.who[above].tolist(), place[above].tolist(), u.post[above].tolist()):
        ranked.setdefault(i, []).append((r, pools[post].program))
    bars = _program_bars(result, {i: [q for _, q in these[:named]] for i, these in ranked.items()})
    out = {}
    for i, these in ranked.items():
        parts = [f"{ordinal(r + 1)} choice {q}" for r, q in these[:named]] + \
            ([f"{len(these) - named} more"] if len(these) > named else [])
        listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
        why = "; ".join(f"{q}'s seats are {bars[i, q]}" for _, q in these[:named])
        out[i] = f"his {listed} {'has' if len(these) == 1 else 'have'} no seat open to him: {why}"
    return out


def _program_bars(result: Result, named: dict[int, list[str]]) -> dict[tuple[int, str], str]:
    """(candidate, program) -> what keeps him from each of the program's seat pools (`Holders.bar`), the kinds
    of pool in the policy's order, each bar said once: "HS (for candidates from KA) or female-only"."""
    holders = Holders(result.policy.seat_pools, result.problem.candidates)
    kinds: dict[str, dict] = {}
    for p in result.problem.post_pools:
        if p is not None:
            kinds.setdefault(p.program, {}).setdefault(holders.key(p), p)
    rank = result.policy.seat_pools.rank
    return {(i, q): " or ".join(dict.fromkeys(holders.bar(p, i) for p in sorted(
        kinds[q].values(), key=lambda p: rank(p.quota, p.gender_pool, p.trait)))) for i, programs in named.items()
        for q in programs}


@lru_cache(maxsize=None)
def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, ..., 21st."""
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def unmet_overall(result: Result) -> list[tuple[np.ndarray, str]]:
    """Under overall minimums (Anil Kumar Gupta 1995), why a beneficiary left out of a post that is short of
    its minimum was not adjusted in: an adjustment goes to her own category's compartment, and every seat of
    it holds a beneficiary already (or she may hold none there). (mask of those it concerns, reason)"""
    if not result.seats.overall:
        return []
    policy, problem, seats = result.policy, result.problem, result.seats
    members = {code: member_mask(policy, problem, code) for code in policy.reserved_codes}
    codes = policy.seat_codes
    ranked = problem.ranked
    out = []
    for row in result.horizontal_report():
        if row["short"] <= 0:
            continue
        post, trait = row["post"], row["trait"]
        j = problem.posts.index(post)
        home = homes(policy, problem, seats, post, members)
        ben = problem.candidates.trait(trait) & ranked[:, j]
        head = f"the {trait} minimum at {post} is {row['short']} short"
        out.append((ben & (home < 0), f"{head}, but no vacancy there is one this candidate may hold"))
        for k, code in enumerate(codes):
            size = seats.cap(post, code) - seats.exchangeable.get((post, code), 0)
            rest = f"every {code} seat at {post} is held by a {trait} beneficiary" if size else \
                f"there is no {code} vacancy at {post}"
            out.append((ben & (home == k), f"{head}, but an adjustment goes to the candidate's own category, "
                        f"{code}, and {rest}"))
    return out
