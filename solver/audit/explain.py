"""Why the audit's answer is no: the rules of the conflict CP-SAT found, in words, with who holds the seats the
candidate asked about could not have."""
from __future__ import annotations

import numpy as np

from ..chain.compartment import held_vacant
from ..chain.engines.cpsat.model import Names
from ..outcome.result import Result
from .questions import Question


def _pool_name(res: Result, p) -> str:
    return Names(res.problem.posts).pool(p)


def explain(q: Question, res: Result, pools, why: dict, core: list, minimal: bool) -> tuple[str, str, bool]:
    """The audit's "no" in words: per rule of the conflict's `core` (capacity, non-wastefulness, eligibility, as
    the model names them), who holds what the candidate asked about could not have, and the rule's source.
    Returns (the rules' names, the words, whether the core is minimal)."""
    problem, i = res.problem, q.candidate
    ids = problem.candidates.ids
    parts, names = [], []
    for key in core:
        kind, p = key[0], pools.pools[key[1]]
        where = _pool_name(res, p)
        if kind == "eligibility":
            text, source = why[(key[1], key[2])]
            names.append(f"eligibility[{where}]")
            parts.append(f"{text} ({source})")
        elif kind == "capacity":
            above, rank, on = above_on_list(res, p, i)
            names.append(f"capacity[{where}]")
            who = ", ".join(f"{ids[h]} ({rank(h)})" for h in above[:5]) + (" and others" if len(above) > 5 else "")
            parts.append(f"the {p.base} vacancies of {where} (vacancies.csv) go to " + (
                f"{who}, eligible and ranked above {ids[i]} {on}(no justified envy: merit within the category; "
                "Indra Sawhney 1992)" if above else "candidates the rules place there")
                + _for_minimums(res, p, above, rank))
        elif kind == "waste":
            names.append(f"non_wastefulness[{where}]")
            parts.append(f"{where} may leave an eligible candidate who wants it out only when full, and "
                         f"{ids[i]} ranks within its cutoff (non-wastefulness; Saurav Yadav 2020)")
    if not parts:
        parts.append("every lawful allocation decides it so: merit order within each pool (and the minimum guarantee "
                     "where a compartment has horizontal minimums, whose rules the audit does not loosen) leaves no "
                     "other choice")
    return "; ".join(names), "no: " + "; ".join(parts), minimal


def _for_minimums(res: Result, p, above: list[int], rank) -> str:
    """Where pool p has horizontal minimums, its holders below the candidate asked about who came in by
    adjustment for a minimum's seat: named, for the seats `above` does not account for."""
    a, seen = res.assignment, set(above)
    below = [int(h) for h in p.in_order(np.flatnonzero((a.pool == p.index) & a.adjusted)) if h not in seen]
    vacant = held_vacant(p, np.flatnonzero(a.pool == p.index)) if p.held else {}
    kept = "".join(f", and {v} kept vacant for {t}: no {t} candidate could fill it, and it is carried forward "
                   f"({res.policy.horizontal.held_source})" for t, v in vacant.items())
    if not p.minimums or not below:
        return kept
    ids = res.problem.candidates.ids
    return (f", and {len(below)} to {', '.join(f'{ids[h]} ({rank(h)})' for h in below[:5])}, below on merit but "
            f"held for the {' and '.join(p.minimums)} minimum (the minimum guarantee: Rajesh Kumar Daria 2007)" + kept)


def above_on_list(res: Result, p, i: int):
    """The holders of pool `p` ranked above candidate i on the list that orders the pool (its own merit list
    under several lists: JoSAA Business Rules, "Rank lists"; else the candidates' own merit), best first; how a
    holder's rank is told; and the words naming that list."""
    holders = p.in_order(np.flatnonzero(res.assignment.pool == p.index))
    if p.place is None:
        return [int(h) for h in holders if h < i], lambda h: f"rank {h + 1}", ""
    name = res.problem.lists.names[p.merit_list]
    above = [int(h) for h in holders if p.place[h] < p.place[i]]
    return above, lambda h: f"rank {int(p.place[h]) + 1} on {name}", f"on {name}, the list that ranks these seats "
