"""Minimum-guarantee checks inside a compartment (Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007;
Saurav Yadav 2020)."""
from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import numpy as np

from ..data.routes import Route
from .allocation import Violation
from ..data.words import article

SRC_HORIZONTAL = "Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007"


class TraitMask(NamedTuple):
    """One horizontal minimum of a compartment as verify reads it."""

    minimum: int
    counts: np.ndarray      # who counts for it
    incoming: np.ndarray    # who may come in by adjustment
    adds: np.ndarray        # who would add to the count by coming in


def trait_masks(policy, problem, seats, post, code, holders=None, at_post=None, home=None, merit_seat=None) -> dict:
    """The compartment's horizontal minimums: trait -> (minimum, who counts, who may come in by adjustment,
    who would add to the count by coming in).

    Compartmentalised: the minimums vacancies.csv or the shares give the compartment. Overall (Anil Kumar
    Gupta 1995, para 18): what the post's minimum still needs from this compartment once the post's other
    appointees (`at_post` less `holders`) are counted; every beneficiary counts, and an adjustment places a
    beneficiary in her own category's compartment (open for one of no reserved category): `home`, from
    `homes`, per post. An adjustment takes the best *remaining* beneficiaries: none whom the post holds on
    merit in another compartment (`merit_seat`: per candidate, the compartment the post holds them in other
    than by adjustment, '' for none; a woman selected against Bihar's WBC stays there)."""
    out = {}
    c = problem.candidates
    for (p, cc, trait), minimum in seats.minimums.items():
        if p == post and cc == code and minimum > 0:
            ben = c.trait(trait)
            if code == policy.open and not policy.horizontal.open_compartment_for_all:
                ben = ben & (c.category == policy.open)
            out[trait] = TraitMask(minimum, ben, ben, ben)
    several = sum(1 for (p, _) in seats.overall if p == post) > 1
    for (p, trait), minimum in seats.overall.items():
        if p == post and holders is not None:
            ben = c.trait(trait)
            elsewhere = int(ben[at_post].sum()) - int(ben[holders].sum())
            mine = home == code
            # Into open only those of no reserved category there; a reserved compartment may keep by adjustment
            # any beneficiary it admits (one a removed appointee pushed out), but the post's shortfall is met
            # in each beneficiary's own compartment.
            incoming = ben & mine if code == policy.open else ben
            if merit_seat is not None:
                incoming = incoming & ((merit_seat == "") | (merit_seat == code))
            away = np.ones(len(ben), dtype=bool)
            away[at_post] = False          # one who already serves the post's minimum adds nothing by moving
            need = max(0, minimum - elsewhere)
            if several:
                # The procedure replaces the lowest appointee who is not a beneficiary: with several traits a
                # holder of one the post holds more of than its minimum still keeps her seat against an
                # adjustment for another.
                need = max(need, int(ben[holders].sum()))
            out[trait] = TraitMask(need, ben, incoming, ben & mine & away)
    return out


def held_seats_vacant(policy, problem, seats, post, code, holders: np.ndarray) -> int:
    """How many of the compartment's seats may stay vacant, read from `horizontal.held` itself: a held trait's
    seats of this year (its minimum less the seats carried into it) that its beneficiaries among the
    compartment's `holders` leave unfilled, the carried seats counted as served first. "Where in any recruitment
    year any vacancy ... cannot be filled up due to non-availability of a suitable person with disability ...,
    such vacancy shall be carried forward in the succeeding recruitment year" (PwD Act 1995 s.36; RPwD Act 2016
    s.34(2) as summarised)."""
    c, out = problem.candidates, 0
    for (p, cc, trait), minimum in seats.minimums.items():
        if p == post and cc == code and minimum > 0 and trait in policy.horizontal.held:
            ben = c.trait(trait)
            if code == policy.open and not policy.horizontal.open_compartment_for_all:
                ben = ben & (c.category == policy.open)
            this_year = minimum - len(seats.carried_horizontal.get((p, cc, trait), ()))
            out += max(0, min(this_year, minimum - int(ben[holders].sum())))
    return out


def held_names(policy, seats, post, code) -> str:
    """The held traits with a minimum in the compartment, as a verify message names them."""
    return " and ".join(t for (p, cc, t), m in seats.minimums.items()
                        if (p, cc) == (post, code) and m > 0 and t in policy.horizontal.held)


def homes(policy, problem, seats, post, may: dict) -> np.ndarray:
    """The compartment an adjustment under overall minimums would place each candidate in, from the policy
    text: own reserved category where it has vacancies at the post and the candidate may hold them, else
    open. `may`: `may_hold` per code."""
    c = problem.candidates
    out = np.where(may[policy.open], policy.open, "").astype(object)
    for code in policy.reserved_codes:
        if seats.cap(post, code) - seats.exchangeable.get((post, code), 0) > 0:
            out[may[code] & (c.category == code)] = code
    return out


def matched(people: np.ndarray, masks: dict) -> int:
    """How many of the minimums' seats `people` can fill, each counting for one trait: by Hall's theorem with
    deficiency (Ore 1955), the seats less the worst shortfall of any set of traits."""
    traits = list(masks)
    worst = 0
    for y in range(1, 1 << len(traits)):
        ts = [t for k, t in enumerate(traits) if y >> k & 1]
        seats = sum(masks[t].minimum for t in ts)
        can = int(np.any([masks[t].counts[people] for t in ts], axis=0).sum()) if len(people) else 0
        worst = max(worst, seats - can)
    return sum(m.minimum for m in masks.values()) - worst


def several(masks: dict, post, code, holders, routes, want, ids, on: str = "") -> list[Violation]:
    """Several traits in one compartment, each appointee counting for one: the holders must fill as many of
    the minimums' seats as anyone available could, and nobody may be passed over for someone worse unless
    taking them instead would fill fewer of those seats (the merit-best set meeting the minimums)."""
    out = []
    names = " and ".join(masks)
    anyben = np.any([m.counts for m in masks.values()], axis=0)
    # Under overall minimums (`trait_masks`) one who counts may come in by adjustment only where it is her home,
    # and adds to the post's count only if the post does not already hold her.
    incoming = np.any([m.incoming for m in masks.values()], axis=0)
    adds = np.any([m.adds for m in masks.values()], axis=0)
    have = matched(holders, masks)
    for i in holders[routes == Route.HORIZONTAL_ADJUSTMENT]:
        if not incoming[i]:
            out.append(Violation("horizontal adjustment of a non-beneficiary", ids[i], post,
                                 f"counts for none of {names} that may be adjusted into {code}", SRC_HORIZONTAL))
    waiting = np.flatnonzero(want & (incoming | ~anyben))
    out.extend(_left_out_of_merit_top(want & anyben & ~incoming, holders, want, post, code, "", ids, on))
    if have < sum(m.minimum for m in masks.values()) and len(holders) > have:
        for w in waiting[adds[waiting]]:
            if matched(np.r_[holders, w], masks) > have:
                out.append(Violation("horizontal shortfall that could have been met", ids[w], post,
                                     f"{have} of the {names} seats in {code} filled; rank {w + 1}{on} was available",
                                     SRC_HORIZONTAL))
                break
    # One waiting counts here only for what she would add (under overall minimums one the post already holds
    # elsewhere adds nothing by moving in); the holders count for what they have.
    held = np.zeros(len(anyben), dtype=bool)
    held[holders] = True
    counted = {t: m._replace(counts=m.counts & (m.adds | held)) for t, m in masks.items()}
    sig = sum(m.counts.astype(np.int64) << k for k, m in enumerate(counted.values()))
    for s in np.unique(sig[waiting]):
        u = waiting[sig[waiting] == s][0]                   # the best waiting of this signature
        for t in np.unique(sig[holders]):
            v = holders[sig[holders] == t].max()            # the worst holder of that signature
            if u < v and matched(np.r_[holders[holders != v], u], counted) >= have:
                out.append(Violation("justified envy", ids[u], post, f"rank {u + 1}{on} passed over for rank "
                                     f"{v + 1}{on} in {code}, who serves the {names} minimums no better",
                                     SRC_HORIZONTAL))
    return out


def each(masks: dict, post, code, holders, routes, want, ids, on: str = "") -> list[Violation]:
    """Several traits, each appointee counting for every trait they have (`multi_trait_counts_each`): the
    holders must fill as many of the minimums' seats (the sum over traits of min(minimum, count)) as any set
    of as many of the available could, and be the merit-lexicographic best such set (the definition taken here).
    Checked by exchanges, candidates grouped by the traits they have: nobody waiting is better than the worst
    holder of the same traits, and no exchange of one or two holders (each the worst of their group) for as
    many waiting (each the best of another group) fills more of the seats, or as many with better merit."""
    out = []
    names = " and ".join(masks)
    mins = np.array([m.minimum for m in masks.values()])
    ben = np.array([m.counts for m in masks.values()])
    anyben = ben.any(axis=0)
    for i in holders[routes == Route.HORIZONTAL_ADJUSTMENT]:
        if not anyben[i]:
            out.append(Violation("horizontal adjustment of a non-beneficiary", ids[i], post,
                                 f"counts for none of {names}", SRC_HORIZONTAL))
    group = (ben.astype(np.int64) << np.arange(len(mins))[:, None]).sum(axis=0)
    waiting = np.flatnonzero(want)
    worst = {g: int(holders[group[holders] == g].max()) for g in np.unique(group[holders])}
    best = {g: int(waiting[group[waiting] == g].min()) for g in np.unique(group[waiting])}
    for g in worst.keys() & best.keys():
        if best[g] < worst[g]:
            out.append(Violation("justified envy", ids[best[g]], post, f"rank {best[g] + 1}{on} passed over for rank "
                                 f"{worst[g] + 1}{on} in {code}, who counts for the same of {names}", SRC_HORIZONTAL))
    return out + _exchanges(mins, ben[:, holders].sum(axis=1), worst, best, post, code, names, ids, on)


def _exchanges(mins: np.ndarray, count: np.ndarray, worst: dict, best: dict, post, code, names: str, ids,
               on: str = "") -> list:
    """No exchange of one or two holders (each the worst of their group of traits) for as many waiting (each
    the best of another group) fills more of the minimums' seats, or as many with better merit."""
    out = []
    filled = int(np.minimum(mins, count).sum())
    bits = np.arange(len(mins))
    seen = set()
    for k in (1, 2):
        for outs in combinations(sorted(worst), k):
            for ins in combinations(sorted(best.keys() - set(outs)), k):
                d = sum((g >> bits) & 1 for g in ins) - sum((g >> bits) & 1 for g in outs)
                gain = int(np.minimum(mins, count + d).sum()) - filled
                u, v = min(best[g] for g in ins), min(worst[g] for g in outs)
                if gain > 0 and ("short", u) not in seen:
                    seen.add(("short", u))
                    out.append(Violation("horizontal shortfall that could have been met", ids[u], post,
                                         f"{filled} of the {int(mins.sum())} {names} seats in {code} filled, each "
                                         f"appointee counting for every trait; rank {u + 1}{on} was available",
                                         SRC_HORIZONTAL))
                elif gain == 0 and u < v and ("envy", u) not in seen:
                    seen.add(("envy", u))
                    out.append(Violation("justified envy", ids[u], post, f"rank {u + 1}{on} passed over for "
                                         f"rank {v + 1}{on} in {code}: exchanging them fills as many of the {names} "
                                         "seats", SRC_HORIZONTAL))
    return out


def horizontal(masks: dict, post, code, holders, routes, want, ids, counts_each: bool = False,
               on: str = "") -> list[Violation]:
    """Minimum-guarantee semantics inside one compartment (Rajesh Kumar Daria 2007; Saurav Yadav 2020):
    a beneficiary is passed over only by better merit; a non-beneficiary only by better non-beneficiaries,
    or by beneficiaries while the compartment holds no more of them than its minimum. One who counts but
    may not come in by adjustment is passed over only by better merit or by an adjustment. Candidates are
    indices in the order of the compartment's merit list (`merit._on_list` puts a list's into it), a rank told
    as the index + 1 and `on` ("of list X", or nothing for the candidates' own merit)."""
    if len(masks) > 1 and counts_each:
        return each(masks, post, code, holders, routes, want, ids, on)
    if len(masks) > 1:
        return several(masks, post, code, holders, routes, want, ids, on)
    out = []
    for trait, (minimum, ben, incoming, adds) in masks.items():
        have = int(ben[holders].sum())
        adjusted = holders[routes == Route.HORIZONTAL_ADJUSTMENT]
        for i in adjusted:
            if not incoming[i]:
                out.append(Violation("horizontal adjustment of a non-beneficiary", ids[i], post,
                                     f"not {article(trait)} {trait} beneficiary who may be adjusted into {code}", SRC_HORIZONTAL))
        if len(adjusted) and have > minimum:
            out.append(Violation("removal for excess", ids[adjusted[-1]], post,
                                 f"{have} {trait} beneficiaries exceed the minimum {minimum}, yet "
                                 f"{len(adjusted)} were placed by adjustment", SRC_HORIZONTAL))
        if have < minimum:
            waiting = np.flatnonzero(want & adds)
            if len(waiting) and (~ben[holders]).any():
                out.append(Violation("horizontal shortfall that could have been met", ids[waiting[0]], post,
                                     f"{have} of {minimum} {trait} in {code}; rank {waiting[0] + 1}{on} was available",
                                     SRC_HORIZONTAL))
        if not len(holders):
            continue
        worst = holders.max()
        for i in np.flatnonzero(want[:worst] & incoming[:worst]):
            out.append(Violation("justified envy", ids[i], post, f"{trait} beneficiary rank {i + 1}{on} passed over "
                                 f"for rank {worst + 1}{on} in {code}", SRC_HORIZONTAL))
        out.extend(_left_out_of_merit_top(want & ben & ~incoming, holders, want, post, code, f"{trait} ", ids, on))
        others = holders[~ben[holders]]
        limit = (int(others.max()) if len(others) else 0) if have <= minimum else int(worst)
        for i in np.flatnonzero(want[:limit] & ~ben[:limit]):
            out.append(Violation("justified envy", ids[i], post, f"rank {i + 1}{on} passed over for rank "
                                 f"{limit + 1}{on} in {code} ({have} {trait} beneficiaries, minimum {minimum})",
                                 SRC_HORIZONTAL))
    return out


def _left_out_of_merit_top(who: np.ndarray, holders: np.ndarray, want: np.ndarray, post, code, label: str,
                           ids, on: str = "") -> list[Violation]:
    """One who counts but may enter only on merit (`who`: she wants the compartment) belongs in whenever its
    merit top (its best `len(holders)` of those who hold it or want it) includes her: no adjustment removes
    her (Saurav Yadav 2020)."""
    if not len(holders):
        return []
    return [Violation("justified envy", ids[i], post, f"{label}beneficiary rank {i + 1}{on} is within the merit top of "
                      f"{code} but left out", SRC_HORIZONTAL)
            for i in np.flatnonzero(who[:holders.max()]) if int((holders < i).sum() + want[:i].sum()) < len(holders)]
