"""The lawful allocations of a house allocation with ties, decided from its structure at exam size.

A recruitment is a house allocation when its pools form one phase of fixed capacities (no capacity follows
another pool's fill), with no horizontal minimum and no shared bound: each candidate takes, in merit order, the
first pool on her list with room (serial dictatorship; the official allocation). Where candidates tie on merit
and only their ids order them (an id is not a rule of law), every allocation is lawful in which nobody is kept
out of a pool she prefers unless it is full of candidates ranked at or above her, tied ones included (weak
stability: the model's chains in `engines.cpsat.model._link_blocks` admit a tie block in any order).

Three facts, each argued in its function's docstring and checked against the full model by property tests,
let the audit answer at SSC size without the model of every lawful allocation (7.7 GiB there):

- `alternatives`: the official allocation is the only lawful one if and only if no tie block, given the
  official seats of everyone above it, has another weakly stable resolution in the room they leave (a few
  candidates at a time).
- `possible`: bounds, pool by pool, on how many candidates above each block any lawful allocation can place
  there narrow each candidate's pools to those she can hold in some lawful allocation (and the one she must
  at least reach); a model restricted to those pairs has the same solutions.
- `truncated`: what a candidate can get depends only on the candidates at or above her block; any lawful
  allocation of those extends to a whole one by serial dictatorship of the rest (`extend`).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from ..chain.pools import Pools

# Nodes one block's search may visit before it gives up (a block is at most a few candidates; its options are
# the pools with little room left before the first with room for all of them).
NODE_LIMIT = 200_000


@dataclass(frozen=True)
class Houses:
    lists: list[list[int]]     # per candidate (merit order): the pools she may hold, most preferred first
    cap: np.ndarray            # per pool: its vacancies
    blocks: list[range]        # the merit list cut into tie blocks (a candidate no one ties with alone)


def houses(pools: Pools, ties: np.ndarray) -> Houses | None:
    """The recruitment as a house allocation, or None where it is not one (several phases, a capacity that
    follows another pool's fill, horizontal minimums, a shared bound, a recommendation list, several merit
    lists)."""
    if pools.shared or pools.selection is not None or pools.several_lists or len({p.phase for p in pools}) > 1 or \
            any(p.minus or p.minimums or p.serves for p in pools):
        return None
    n = len(ties)
    ci, pi = pools.preference_lists()
    start, end = pools.runs
    lists: list[list[int]] = [[] for _ in range(n)]
    for w, s, e in zip(ci[start].tolist(), start.tolist(), end.tolist()):
        lists[w] = pi[s:e].tolist()
    cap = np.array([p.base for p in pools.pools], dtype=np.int64)
    cuts = [0] + [k for k in range(1, n) if ties[k] < 0 or ties[k] != ties[k - 1]] + [n]
    return Houses(lists, cap, [range(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b > a])


def resolutions(h: Houses, block: range, room: np.ndarray, limit: int = NODE_LIMIT):
    """Every weakly stable assignment of one block's members to the `room` left by those above (a tuple of
    pools, -1 for none), or None past `limit` nodes. A member may hold a pool only where it has room; a pool
    she prefers to hers must end up with no room left, taken by her block mates. A pool with more room than
    her mates who list it can take is one she reaches at least, so her options end there."""
    members = list(block)
    demand = Counter(q for m in members for q in h.lists[m])
    options = []
    for m in members:
        mine = []
        for q in h.lists[m]:
            if room[q] > 0:
                mine.append(q)
                if room[q] > demand[q] - 1:
                    break
        else:
            mine.append(-1)
        options.append(mine)
    out, used, pick, nodes = [], Counter(), [], [0]

    def need() -> int:   # room the chosen members' better pools must still lose to the rest of the block
        short = {}
        for k, got in enumerate(pick):
            for q in options[k]:
                if q == got:
                    break
                short[q] = room[q] - used[q]
        return sum(short.values())

    def walk(k: int) -> bool:
        nodes[0] += 1
        if nodes[0] > limit:
            return False
        if need() > len(members) - k:
            return True
        if k == len(members):
            out.append(tuple(pick))
            return True
        for q in options[k]:
            if q >= 0 and used[q] >= room[q]:
                continue
            pick.append(q)
            used[q] += q >= 0
            ok = walk(k + 1)
            used[q] -= q >= 0
            pick.pop()
            if not ok:
                return False
        return True

    return out if walk(0) else None


def alternatives(h: Houses, official: np.ndarray, limit: int = NODE_LIMIT):
    """Per tie block with another lawful resolution given the official seats above it: (block, resolution).
    Returns (found, undecided): the blocks whose search passed `limit` are undecided.

    Exact: if a lawful allocation differs from the official one, take the first block where they differ; above
    it they agree, so the room left is the official one and her block's assignment is one of its weakly stable
    resolutions. Conversely a block's other resolution, with the official seats above and serial dictatorship
    below (`extend`), is a lawful allocation: those above lose nothing they could claim, the block's members
    are blocked only by full pools of mates, and those below find full what they pass."""
    used = np.zeros(len(h.cap), dtype=np.int64)
    found, undecided = [], []
    for block in h.blocks:
        mine = tuple(int(official[m]) for m in block)
        if len(block) > 1:
            got = resolutions(h, block, h.cap - used, limit)
            if got is None:
                undecided.append(block)
            else:
                found += [(block, r) for r in got if r != mine]
        for q in mine:
            if q >= 0:
                used[q] += 1
    return found, undecided


def possible(h: Houses, upto: int) -> list[list[int]]:
    """Per candidate of the blocks up to the one holding candidate `upto`: the pools (-1 for none) she holds in
    some lawful allocation, a superset, in her order. Sound by induction down the merit list: `lo[q]` counts
    candidates above the block who hold q in every lawful allocation (one option left), `hi[q]` those who
    may; a pool `lo` fills is closed to the block, and one whose `hi`, with the block mates who list it, leaves
    room is one she reaches at least. A model whose pairs are these has the same solutions as the full one:
    every pair dropped is held in no lawful allocation, and the stability constraints it drops (a pool above
    filled by those forced there, or one below the pool she must reach) follow from those kept."""
    lo = np.zeros(len(h.cap), dtype=np.int64)
    hi = np.zeros(len(h.cap), dtype=np.int64)
    out: list[list[int]] = []
    for block in h.blocks:
        if block.start > upto:
            break
        demand = Counter(q for m in block for q in h.lists[m])
        sets = []
        for m in block:
            mine = []
            for q in h.lists[m]:
                if lo[q] < h.cap[q]:
                    mine.append(q)
                if hi[q] + demand[q] - 1 < h.cap[q]:
                    break
            else:
                mine.append(-1)
            sets.append(mine)
        for mine in sets:
            if len(mine) == 1 and mine[0] >= 0:
                lo[mine[0]] += 1
            for q in mine:
                if q >= 0:
                    hi[q] = min(h.cap[q], hi[q] + 1)
        out += sets
    return out


def truncated(pools: Pools, h: Houses, i: int) -> tuple[Pools, int]:
    """The pools with each candidate of the blocks down to candidate i's eligible only where `possible` says
    she may hold a pool (i herself as she is), and everyone below them eligible nowhere: the model of what
    the lawful allocations give those at or above her. Returns the pools and the number of candidates kept."""
    sets = possible(h, i)
    kept = len(sets)
    keep = np.zeros((len(h.cap), len(h.lists)), dtype=bool)
    for m, mine in enumerate(sets):
        for q in mine:
            if q >= 0:
                keep[q, m] = True
    keep[:, i] = True
    return replace(pools, pools=tuple(replace(p, admits=p.eligible & keep[p.index], ranked_by=None)
                                      for p in pools.pools)), kept


def extend(h: Houses, pool: np.ndarray, kept: int) -> np.ndarray:
    """A lawful allocation of the first `kept` candidates (`pool`) completed by serial dictatorship of the
    rest: each takes the first pool on her list with room."""
    out = pool.copy()
    room = h.cap - np.bincount(out[:kept][out[:kept] >= 0], minlength=len(h.cap))
    for m in range(kept, len(out)):
        out[m] = -1
        for q in h.lists[m]:
            if room[q] > 0:
                out[m] = q
                room[q] -= 1
                break
    return out
