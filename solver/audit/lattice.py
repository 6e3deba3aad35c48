"""A question about one candidate read off the two extreme stable allocations, where posts rank by several merit
lists and the model of every lawful allocation is too large to build (JoSAA size). Every stable allocation gives
a candidate a seat from her seat in the candidate-optimal allocation (the official one) down to her seat in the
institution-optimal one, in her order of preference (the lattice of stable matchings: Roth and Sotomayor 1990,
Theorem 5.35; under the same-rank rule, Chambers and Yenmez 2017). So a question is settled by the two where
what it asks about is one of them, or lies outside that range; only a post strictly inside it needs the model."""
from __future__ import annotations

import numpy as np

from ..outcome.result import Result

SRC = ("the lattice of stable allocations (Roth and Sotomayor 1990, Theorem 5.35; Chambers and Yenmez 2017; Hatfield "
       "and Milgrom 2005 for a choice such as the minimum guarantee)")


def lattice_answer(q, res: Result, alt: Result):
    """("yes", the allocation that answers it) or ("no", why) for question `q` (`solver.audit.questions`) from the
    official, candidate-optimal allocation `res` and the institution-optimal `alt`; None where a post strictly
    between the two in the candidate's order is asked about (some stable allocation between them may give it)."""
    i = q.candidate
    ci, pi = res.pools.preference_lists()
    mine = pi[np.searchsorted(ci, i):np.searchsorted(ci, i, side="right")].tolist()   # her pools, best first
    best, worst = int(res.assignment.pool[i]), int(alt.assignment.pool[i])
    at = {p: k for k, p in enumerate(mine)}
    b, w = at.get(best, len(mine)), at.get(worst, len(mine))
    posts = [res.pools.pools[p].post for p in mine] + [None]    # (the post of each place; None: no seat)

    def answers(k: int) -> bool:
        return (posts[k] is not None and q.asks(posts[k])) == q.selected

    for k, witness in ((b, res), (w, alt)):
        if answers(k):
            return "yes", witness
    if not any(answers(k) for k in range(b + 1, w)):
        return "no", _why(q, res, alt)
    return None


def _why(q, res: Result, alt: Result) -> str:
    from .unique import outcome
    i = q.candidate
    ids, posts = res.problem.candidates.ids, res.problem.posts
    official, other = outcome(res, i), outcome(alt, i)
    if official == other:
        return (f"no: {ids[i]}'s outcome is {official} in every stable allocation (the official, candidate-optimal "
                f"allocation and the institution-optimal one agree, and every stable allocation lies between them "
                f"in {ids[i]}'s order of preference; {SRC})")
    return (f"no: every stable allocation gives {ids[i]} an outcome from {official} (the official, "
            f"candidate-optimal allocation) down to {other} (the institution-optimal one) in {ids[i]}'s order "
            f"of preference, and {_asked(q, posts)} is not among them ({SRC})")


def contested_no(q, res: Result, contested: int) -> str:
    """A "no" the model of the contested candidates found (`solver.audit.audit._among_contested`), in words."""
    i = q.candidate
    ids, posts = res.problem.candidates.ids, res.problem.posts
    return (f"no: no stable allocation gives {ids[i]} {_asked(q, posts)}: everyone whose outcome the official and the "
            f"institution-optimal allocations agree on has it in every stable allocation, and with them there, "
            f"no allocation of the {contested} contested candidates that is stable gives it ({SRC})")


def _asked(q, posts) -> str:
    """What question `q` asks her outcome to be, in words."""
    asked = q.named(posts)
    if q.selected:
        return "a seat" if asked is None else asked
    return "no seat" if asked is None else f"a seat other than {asked}"


def institution_optimal(res: Result) -> Result:
    """The institution-optimal stable allocation of the official result's pools (`solver.audit.stable`)."""
    from .stable import stable_allocation
    from .unique import with_pools
    return with_pools(res, np.asarray(stable_allocation(res.pools, res.problem.n, "pools")))
