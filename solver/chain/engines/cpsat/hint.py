"""The greedy's assignment as a hint to CP-SAT: each chain admits up to its last holder, every "holds" literal
says what the greedy did."""
from __future__ import annotations

import numpy as np

from ...compartment import hall_terms
from ..assignment import Assignment, free_for, natural_tops


def add_hint(model, hint: Assignment) -> None:
    """A hint from the greedy: each chain admits up to its last holder, or everyone when not full; every
    "holds" literal says what the greedy did. Written into the proto in one go (hundreds of thousands of
    add_hint calls were a fifth of the model's build time)."""
    m, pools, chains, x_of = model.m, model.pools, model.chains, model.holds
    filled = hint.filled(len(pools))
    index: list[int] = []
    value: list[int] = []
    for p, ch in zip(pools, chains):
        _chain_hint(p, ch, hint, filled, index, value)
    tops = natural_tops(pools, hint.pool) if any(ch.merit for ch in chains) else {}
    for p, ch in zip(pools, chains):
        if ch.merit:
            _merit_hint(pools, p, ch, hint, tops[p.index], filled, index, value)
    chained = set(index)
    for p in pools:
        for i, x in x_of[p.index].items():
            if x.index not in chained:  # "holds" literals that are not chain literals themselves
                index.append(x.index)
                value.append(int(hint.pool[i] == p.index))
    m.proto.solution_hint.vars.extend(index)
    m.proto.solution_hint.values.extend(value)


def _chain_hint(p, ch, hint: Assignment, filled: np.ndarray, index: list, value: list) -> None:
    """Each of the pool's chains admits up to its last holder, or everyone when the pool is not full."""
    cap = p.capacity(filled)
    last = [g[hint.pool[g] == p.index][-1:] for g in ch.groups]   # each chain's worst holder, if any
    # (under counts-for-each the classes' cutoffs are left to the solver beyond each one's last holder)
    meets = hall_terms(p)[2] if p.minimums and not p.counts_each else None
    for a, (g, lits) in enumerate(zip(ch.groups, ch.lits)):
        if filled[p.index] < cap:
            upto = len(g)
        else:
            upto = int(np.searchsorted(ch.key(g), ch.key(last[a][0]))) + 1 if len(last[a]) else 0
            for b, u in enumerate(ch.sigs if meets is not None else ()):
                # a chain admits everyone ahead of a worse holder it may never be passed over for
                if b != a and len(last[b]) and not (meets[:, u] & (1 - meets[:, ch.sigs[a]])).any():
                    upto = max(upto, int(np.searchsorted(ch.key(g), ch.key(last[b][0]))))
        index += [lit.index for lit in lits]
        value += [1] * min(upto, len(lits)) + [0] * max(0, len(lits) - upto)


def _merit_hint(pools, p, ch, hint: Assignment, top, filled: np.ndarray, index: list, value: list) -> None:
    """The merit top: everyone up to its last member, or everyone when it is short of the capacity."""
    # (compared as places on the pool's list: `Chains.key`)
    upto = (int(ch.key(top[-1])) if len(top) else -1) if len(top) >= p.capacity(filled) else 1 << 62
    for i, g in ch.merit.items():
        index.append(g.index)
        value.append(int(ch.key(i) <= upto))
        both = ch.top_free[i]
        if both is not g:
            index.append(both.index)
            value.append(int(ch.key(i) <= upto and free_for(pools, hint.pool, p, i)))
