"""Overall horizontal minimums turned into compartment minimums (between stages 1 and 2 of the chain).

Anil Kumar Gupta v. State of U.P. (1995), para 18, for horizontal reservation that is not divided among the
vertical categories: fill the open and reserved compartments on merit, count the beneficiaries selected;
if fewer than required, take the required number of the best remaining beneficiaries and adjust each
against her own category (open for a candidate of no reserved category), removing the lowest
non-beneficiary of that compartment. Nobody is removed for an excess.

The count is of the post's open and own-category seats (phase 0 of `solver.chain.pools`), where horizontal rules
act; exchange, fallback and de-reserved seats fill what the categories left.

Forward (`distribute`), post by post in file order (without preferences a post's phase-0 seats depend only
on the posts before it): fill with the minimums fixed so far (`solver.chain.compartment.fill_in_turn`; with one merit list the stable
assignment is unique, so any engine gives it); if the post is short, give each of its compartments a
minimum: the beneficiaries it already holds, plus one for each remaining beneficiary adjusted into it
(`adjustees`: the most the shortfalls and the compartments' room allow, then the best; with several traits,
which must not overlap, that is a b-matching, not the merit list alone).
Compartment minimums are what both engines and their minimum-guarantee semantics already implement, so the
engines then agree by construction. A man an adjustment removes may move down to his own compartment and
push a counted woman out; her compartment's minimum keeps her, and the step repeats until the post meets
its minimums or nobody is left to adjust (each round adjusts someone in for good, so this ends).
Inverse: none needed; the allocation is one of the original problem. The derived minimums are kept in
the seat table's notes so that a reader can see where each adjustment was placed.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np

from .compartment import fill_in_turn
from .eligibility import homes, member_mask
from ..policy import Policy
from .pools import build_pools, group, with_minimums
from ..data.problem import Problem
from .vacancy import SeatTable

PREFERENCES = (
    "horizontal.mode = \"overall\" with a preferences file is refused: the open compartment counts a woman of "
    "a reserved category only while she is within its merit top (she entered on merit, and her own compartment "
    "is where an adjustment would place her), so whether it must take a woman of no reserved category depends "
    "on who else applies (open, 3 seats, minimum 3: applicants U1 > R2 > N3 > R4 > U5 give U1, R2, U5; without "
    "N3 they give U1, R2, R4). That choice is not substitutable (Hatfield and Milgrom 2005) and merit-cum-"
    "preference allocation need not reach a stable result. Without preferences every post is filled in turn "
    "and the rule is well defined; or use \"compartmentalised\".")


def distribute(policy: Policy, problem: Problem, seats: SeatTable) -> SeatTable:
    """The seat table with the post's overall minimums placed in its compartments (a preferences file is
    refused by `solver.chain.reductions.PlaceOverallMinimums.accepts`, with `PREFERENCES`)."""
    if not seats.overall:
        return seats
    mins: dict[tuple[str, str, str], int] = {}
    members = {code: member_mask(policy, problem, code) for code in policy.reserved_codes}
    pools = build_pools(policy, problem, seats)
    taken = np.zeros(problem.n, dtype=bool)   # who holds an earlier post's open or own-category seat
    merit_held: dict[str, dict[int, str]] = {}   # per post, the compartment merit put each beneficiary in
    for j, post in enumerate(seats.posts):   # in turn: a post's phase-0 seats depend only on the posts before it
        wanted = {t: m for (p, t), m in seats.overall.items() if p == post}
        if wanted:
            pools, assign = _place(policy, problem, seats, pools, members, mins, merit_held, j, wanted, taken)
        else:
            assign = _phase0(pools, j, taken)[1]
        taken |= assign >= 0
    mins = {k: m for k, m in mins.items() if m > 0}
    seats = replace(seats, merit_held=merit_held)
    note = "overall horizontal minimums placed in compartments (Anil Kumar Gupta 1995): " + (", ".join(
        f"{p} {code} {t} {m}" for (p, code, t), m in mins.items()) or "every post met them on merit")
    return replace(seats, minimums=mins, notes=(*seats.notes, note))


def _phase0(pools, j: int, taken: np.ndarray):
    """Post j's open and own-category pools filled on their own, those `taken` by earlier posts left out
    (without preferences they hold what they have): the pools, indexed afresh, and who holds which."""
    sub = group(pools, [p.index for p in pools if p.post == j and p.phase == 0], ~taken, np.zeros(len(pools)))
    return sub, fill_in_turn(sub, len(taken))[0]


def _place(policy: Policy, problem: Problem, seats: SeatTable, pools, members: dict, mins: dict, merit: dict,
           j: int, wanted: dict, taken: np.ndarray):
    """Give the compartments of post j the minimums that meet the post's own, re-solving after each round of
    adjustments (`adjustees`) until the post meets them or nobody more can be adjusted in. Each round every
    beneficiary the post holds is kept by her compartment's minimum: the procedure replaces the lowest
    appointee who is not a beneficiary, so a man an adjustment removes, moving down to his own compartment,
    may not push her out. The first round is merit alone; where it puts each beneficiary is recorded in
    `merit` (the seat table's `merit_held`), and no other compartment may take her by adjustment."""
    post = seats.posts[j]
    home_of = homes(policy, problem, seats, post, members)
    codes = policy.seat_codes
    ben = {t: problem.candidates.trait(t) for t in wanted}
    for _ in range(1 + sum(wanted.values())):
        pools = with_minimums(policy, problem, pools, replace(seats, minimums=mins, merit_held=merit), j, members)
        sub, assign = _phase0(pools, j, taken)
        main = {p.category: p for p in sub if not p.carried}
        here = assign >= 0
        if post not in merit:
            counts = np.any([ben[t] for t in wanted], axis=0)
            merit[post] = {int(i): sub.pools[assign[i]].category for i in np.flatnonzero(here & counts)}
        elif any(not here[i] for i in merit[post]):
            # A cascade pushed one out (through carried vacancies, which no minimum protects): she is a
            # remaining beneficiary again, and may be adjusted in; solve again with her bar lifted.
            merit[post] = {i: code for i, code in merit[post].items() if here[i]}
            continue
        short = {t: m - int(ben[t][here].sum()) for t, m in wanted.items() if m > int(ben[t][here].sum())}
        if not short:
            return pools, assign
        room = _keep_held(post, main, ben, assign, here, mins)
        chosen = adjustees(_waiting(main, codes, ben, short, ~here & ~taken, home_of), short, room)
        if not chosen:
            return pools, assign
        for _, trait, code in chosen:
            mins[(post, code, trait)] += 1
    pools = with_minimums(policy, problem, pools, replace(seats, minimums=mins, merit_held=merit), j, members)
    return pools, _phase0(pools, j, taken)[1]


def _keep_held(post: str, main: dict, ben: dict, assign: np.ndarray, here: np.ndarray, mins: dict) -> dict:
    """Each compartment's minimum of each trait set to the beneficiaries it holds (so that none is pushed
    out); returns each compartment's seats held by nobody who counts."""
    held = {(code, t): int((assign[ben[t] & here] == pool.index).sum()) for code, pool in main.items() for t in ben}
    for (code, t), k in held.items():
        mins[(post, code, t)] = k
    return {code: pool.base - sum(held[code, t] for t in ben) for code, pool in main.items()}


def _waiting(main: dict, codes: list[str], ben: dict, short: dict, free: np.ndarray, home_of: np.ndarray) -> list:
    """The remaining beneficiaries (`free`) of the short traits, each in the compartment that is her home and
    admits her: (candidate, trait, compartment) in merit order."""
    cells = []
    for i in np.flatnonzero(free & np.any([ben[t] for t in short], axis=0) & (home_of >= 0)):
        pool = main.get(codes[home_of[i]])
        if pool is not None and pool.eligible[i]:
            # Several traits at a post are disjoint (see `solver.chain.vacancy.determine`): one trait each.
            cells.append((int(i), next(t for t in short if ben[t][i]), pool.category))
    return cells


def adjustees(cells: list[tuple[int, str, str]], short: dict[str, int], room: dict[str, int]) -> list:
    """Which waiting beneficiaries a short post adjusts in. `cells`: (candidate, trait, home compartment) in
    merit order; `short`: each trait's shortfall; `room`: each compartment's seats held by nobody who counts
    (an adjustment there replaces its lowest appointee who is not a beneficiary).

    The rule: as many as any choice can adjust (the post's minimums met as far as they can be), and of those
    choices the merit-lexicographically best (the best remaining beneficiaries first, Anil Kumar Gupta 1995).
    With one trait that is simply the best remaining beneficiaries down the merit list while their
    compartments have room. With several (disjoint) traits, the merit list alone can fall short: the best of
    trait a may take the last open seat that the only one of trait b needed, while the next of trait a had
    room in her own compartment. A choice is a b-matching of traits to compartments (each candidate an edge,
    a trait taking at most its shortfall and a compartment at most its room), so: the most that can be
    placed, by max flow; then down the merit list, keep each candidate whose inclusion still lets the rest
    reach that most (the greedy for a lexicographic optimum over the maximum matchings; Schrijver 2003,
    Combinatorial Optimization, ch. 21)."""
    # Only a cell's best min(shortfall, room) can ever be chosen.
    seen: Counter = Counter()
    kept = []
    for i, t, c in cells:
        if seen[t, c] < min(short[t], room[c]):
            seen[t, c] += 1
            kept.append((i, t, c))
    left = Counter((t, c) for _, t, c in kept)
    short, room = dict(short), dict(room)
    most = _most(short, room, left)
    chosen = []
    for i, t, c in kept:
        left[t, c] -= 1
        if len(chosen) < most and short[t] and room[c]:
            short[t] -= 1
            room[c] -= 1
            if len(chosen) + 1 + _most(short, room, left) == most:
                chosen.append((i, t, c))
                continue
            short[t] += 1
            room[c] += 1
    return chosen


def _most(short: dict, room: dict, cells: Counter) -> int:
    """The most candidates placeable: a max flow source -> trait (its shortfall) -> compartment (as many as
    wait in that cell) -> sink (the compartment's room)."""
    from ortools.graph.python import max_flow   # (here: a solve without overall minimums never loads it)
    g = max_flow.SimpleMaxFlow()
    node = {key: k for k, key in enumerate([*(("t", t) for t in short), *(("c", c) for c in room)], 2)}
    for t, k in short.items():
        g.add_arc_with_capacity(0, node["t", t], k)
    for c, k in room.items():
        g.add_arc_with_capacity(node["c", c], 1, max(0, k))
    for (t, c), k in cells.items():
        if k > 0:
            g.add_arc_with_capacity(node["t", t], node["c", c], k)
    return g.optimal_flow() if g.solve(0, 1) == g.OPTIMAL else 0
