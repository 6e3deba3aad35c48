"""Merit within each compartment (a post's open or reserved vacancies, phase 0): nobody eligible who prefers
it is passed over for worse merit, and no vacancy is left while such a one waits; under horizontal minimums,
the minimum-guarantee semantics of `solver.verify.horizontal`."""
from __future__ import annotations

import numpy as np

from ..data.routes import Route
from .allocation import Violation
from .horizontal import held_names, held_seats_vacant, homes, horizontal, trait_masks
from ..data.lists import ABSENT
from .reading import OPEN_MERIT, Reading
from ..data.words import article


def wanted_below(r: Reading, who: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """For each of `who` (candidate indices, who ranked a post `rank`-th), the precedence below which they would
    rather hold a compartment of that post than what they hold: above every compartment's where they hold
    nothing, hold by a later phase or hold a post they rank lower; their own compartment's where they hold that
    post; below every one (-1) where they hold a post they rank higher. A candidate wants the post's `code`
    compartment where this is above `r.precedence[code]`: worked once per post, compared once per compartment."""
    keys = r.keys[who]
    phase, held, prec = keys[:, 0], keys[:, 1], keys[:, 2]
    always = (phase > 0) | ((phase == 0) & (held > rank))
    return np.where(always, np.iinfo(np.int64).max, np.where((phase == 0) & (held == rank), prec, -1))


def merit_within_compartments(r: Reading) -> list[Violation]:
    """Open first, then each category, at every post (Indra Sawhney 1992; Saurav Yadav 2020; central Bill
    2004 s.5(2)): a compartment left short while an eligible candidate wanted it wastes a vacancy; one holder
    worse than an eligible candidate who wanted it is justified envy (merit within the category)."""
    out = []
    for j in range(len(r.problem.posts)):
        out.extend(_post(r, j))
    return out


def _post(r: Reading, j: int) -> list[Violation]:
    policy, seats, a = r.policy, r.seats, r.alloc
    post, ids = r.problem.posts[j], r.problem.candidates.ids
    at = a.post == j
    home = homes(policy, r.problem, seats, post, r.may) if seats.overall else None
    at_post = a.cand[at & r.own_phase]
    merit_seat = None
    if seats.overall:
        # the compartment the post holds each candidate in other than by adjustment
        merit_seat = np.full(r.problem.n, "", dtype=object)
        on_merit = np.flatnonzero(at & r.own_phase & (r.route != Route.HORIZONTAL_ADJUSTMENT))
        merit_seat[a.cand[on_merit]] = r.seat[on_merit]
    out = []
    here = np.flatnonzero(at & r.compartment_route)
    everyone, ranked = r.applicants(j)   # (those who ranked the post: a ninth of JoSAA's candidates)
    below = wanted_below(r, everyone, ranked)
    for code in r.precedence:
        cap = seats.cap(post, code)
        rows = here[r.seat[here] == code]
        if cap <= 0 and not len(rows):
            continue     # (no vacancy of the category at the post: none to waste or to be passed over for)
        # (the merit list of the post's code seats: the candidates' own order unless its row names one)
        place, listed = r.place(j, code)
        applied, above = everyone, below
        if listed:
            keep = place[applied] < ABSENT  # (one absent from the list may not hold its seats)
            applied, above = applied[keep], above[keep]
        holders = a.cand[rows]
        wants = applied[r.may[code][applied] & (above > r.precedence[code])]   # (ascending merit)
        held, vacant = _held_seats(r, j, code, holders, wants, cap)
        out += held
        if len(holders) < cap - vacant and cap > 0:
            for i in wants[:5].tolist():
                out.append(r.violation("vacancy left while an eligible candidate wanted it", i, j,
                                       f"{cap - vacant - len(holders)} {code} vacancies unfilled",
                                       r.cite("open_merit", OPEN_MERIT)))
            continue
        # Carried vacancies open to exchange partners are a separate class filled first, on merit (Art.
        # 16(4B)); the compartment's horizontal minimums apply to the year's own vacancies, held by the rest.
        by_merit = np.argsort(holders, kind="stable")[seats.exchangeable.get((post, code), 0):]
        masks = trait_masks(policy, r.problem, seats, post, code, holders[by_merit], at_post, home, merit_seat)
        if not masks and len(holders):
            worst = holders[np.argmax(place[holders])]
            where = f" of list {listed}" if listed else ""
            for i in wants[place[wants] < place[worst]].tolist():
                out.append(r.violation("justified envy", i, j, f"rank {place[i] + 1}{where} passed over for rank "
                                       f"{place[worst] + 1} ({ids[worst]}) on {article(code)} {code} vacancy",
                                       r.cite("open_merit", OPEN_MERIT) if code == policy.open else "merit within the category"))
            out += _same_rank_left(r, i_want=wants, j=j, worst=worst, code=code)
        if masks:
            want = np.zeros(r.problem.n, dtype=bool)
            want[wants] = True
            seen = (masks, holders[by_merit], r.route[rows][by_merit], want, ids)
            masks, held, routes, want, names = _on_list(place, *seen) if listed else seen
            out.extend(horizontal(masks, post, code, held, routes, want, names,
                                  policy.horizontal.multi_trait_counts_each, f" of list {listed}" if listed else ""))
    return out


def _held_seats(r: Reading, j: int, code: str, holders: np.ndarray, wants: np.ndarray, cap: int):
    """The compartment's seats kept vacant for a held minimum (`horizontal.held`): a breach where more are filled
    than that leaves, and how many may stay vacant with `wants` waiting (none that a beneficiary among them
    wanted). Returns (violations, seats that may stay vacant)."""
    vacant, post = r.held_vacant.get((j, code), 0), r.problem.posts[j]
    if not vacant:
        return [], 0
    out = []
    if len(holders) > cap - vacant:
        out.append(r.violation("held horizontal seat filled by another", int(holders.max()), j,
                               f"{vacant} of the {code} seats are held for {held_names(r.policy, r.seats, post, code)}"
                               f" and no beneficiary holds them, yet {len(holders)} of {cap} are filled",
                               r.policy.horizontal.held_source))
    return out, held_seats_vacant(r.policy, r.problem, r.seats, post, code, np.r_[holders, wants])


def _on_list(place: np.ndarray, masks: dict, holders: np.ndarray, routes: np.ndarray, want: np.ndarray, ids):
    """A compartment whose seats a list of their own ranks, renumbered in that list's order (`place`: each
    candidate's place on it, those absent last), for the minimum-guarantee checks, which read a candidate's
    number as her merit: the masks, the holders (ascending) with their routes, who wants it, and the ids."""
    order = np.argsort(place, kind="stable")
    at = np.empty_like(order)
    at[order] = np.arange(len(order))
    masks = {t: m._replace(counts=m.counts[order], incoming=m.incoming[order], adds=m.adds[order])
             for t, m in masks.items()}
    by_list = np.argsort(at[holders], kind="stable")
    return masks, at[holders][by_list], routes[by_list], want[order], np.asarray(ids, dtype=object)[order]


def _same_rank_left(r: Reading, i_want: np.ndarray, j: int, worst: int, code: str) -> list[Violation]:
    """One of the same rank as the last holder, who wanted the seat, left out: the same-rank rule admits every
    one of them (JoSAA Business Rules, "Multiple student - same rank rule", as summarised; `merit.same_rank`)."""
    level = r.level(j, code)
    if level is None:
        return []
    place, listed = r.place(j, code)
    return [r.violation("same rank left out", i, j, f"rank {place[i] + 1} of list {listed} is of the same rank as "
                        f"{r.problem.candidates.ids[worst]}, who holds {article(code)} {code} seat, and wanted it",
                        "JoSAA Business Rules, \"Multiple student - same rank rule\" (as summarised)")
            for i in i_want[(level[i_want] == level[worst]) & (place[i_want] > place[worst])].tolist()]
