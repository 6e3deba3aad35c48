"""The same-rank rule in the CP-SAT model (JoSAA Business Rules, "Multiple student - same rank rule", as
summarised: where more candidates of one rank seek a pool's last seats than there are seats, all of them are
admitted, on seats over the number; the policy's `merit.same_rank = "supernumerary"`). Candidates of one rank
on a pool's list are admitted together or not at all (`link_blocks`); where they are the last the pool admits,
its capacity bounds only the holders better than them (`seats_over_the_number`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from ortools.sat.python import cp_model

if TYPE_CHECKING:
    from ...pools import Pool
    from .model import Chains, Model


def same_rank_blocks(level: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of two or more equal levels in `level` (a chain's members' levels, in its
    order): candidates of the same rank on the pool's list (`MeritLists.level`).

    Example
    -------
    >>> same_rank_blocks(np.array([0, 1, 1, 3, 4, 4, 4]))
    [(1, 3), (4, 7)]
    """
    if len(level) < 2:
        return []
    edge = np.flatnonzero(np.r_[True, level[1:] != level[:-1], True])
    return [(int(b), int(e)) for b, e in zip(edge[:-1], edge[1:]) if e - b > 1]


def deepened(depth: int, blocks: list[tuple[int, int]]) -> int:
    """A chain's depth with a block of the same rank at the cut taken whole."""
    return max([depth] + [e for b, e in blocks if b < depth < e])


def link_blocks(m: cp_model.CpModel, lits: list, blocks: list[tuple[int, int]], skip=frozenset()) -> None:
    """Each block of the same rank admitted whole: its members' literals equal, but those in `skip` (a candidate
    an audit may let the chain pass by, `Rules.ineligible`: her literal is free while her rule holds)."""
    for b, e in blocks:
        members = [k for k in range(b, min(e, len(lits))) if k not in skip]
        for x, y in zip(members, members[1:]):
            m.add(lits[x] == lits[y])


def tied_blocks(groups: list[np.ndarray], lits: list[list], blocks: list[tuple[int, int]],
         skip=frozenset()) -> list[tuple[list, object, object]]:
    """Per block of the same rank within the chain: its members, the literal "the block is admitted" and that of
    the first one after it (None: the chain ends with it), passing by those in `skip` (`link_blocks`)."""
    g = groups[0] if groups else np.zeros(0, np.int64)
    out = []
    for b, e in blocks:
        inside = [k for k in range(b, min(e, len(g))) if k not in skip]
        after = next((k for k in range(e, len(g)) if k not in skip), None)
        if inside:
            out.append((g[b:e].tolist(), lits[0][inside[0]], lits[0][after] if after is not None else None))
    return out


def seats_over_the_number(model: "Model", p: "Pool", ch: "Chains", used, within, guards: list) -> None:
    """Where the last candidates pool `p` admits are of one rank, all of them hold it on seats over the number,
    so long as fewer than its capacity of better ones hold it: where that block is the last admitted, the
    capacity (`within`) bounds the holders better than it; otherwise the holders. `guards`: literals the
    capacity is enforced under (an audit's rule switched off lifts both bounds)."""
    m, names = model.m, model.names
    last = []
    for members, admitted_, after in ch.ties:
        e = m.new_bool_var(names("last_admitted_same_rank", p))
        if after is None:
            m.add(e == admitted_)
        else:   # e = admitted_ and not after
            m.add_bool_and([admitted_, after.Not()]).only_enforce_if(e)
            m.add_bool_or([admitted_.Not(), after, e])
        mine = [model.holds[p.index][i] for i in members if i in model.holds[p.index]]
        m.add(used - cp_model.LinearExpr.sum(mine) <= p.base - 1).only_enforce_if([e, *guards])
        last.append(e.Not())
    within.only_enforce_if(last)
