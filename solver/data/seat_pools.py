"""Seat pools: a program's seats split by quota, gender pool and trait besides the category (JoSAA's seat pools,
`[seat_pools]` in the policy). Each combination is a post of its own, named after its program and the parts
that are not the default (``"IITX-CSE [female]"``, ``"NITY-ME [HS, pwbd]"``), with its categories inside it as
at any post; a choice of the program stands for the pools its candidate may hold, in the policy's order
(`expand`). Where no row names a pool every post is its own program and nothing changes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DEFAULT_QUOTA, DEFAULT_GENDER_POOL = "AI", "neutral"


@dataclass(frozen=True)
class SeatPool:
    """The parts of a post besides its categories: its program, quota (with the program's state), gender pool,
    the trait its seats are held for ('' none), and the program's institute (what a slide stays within)."""

    program: str
    quota: str = DEFAULT_QUOTA
    gender_pool: str = DEFAULT_GENDER_POOL
    trait: str = ""
    state: str = ""
    institute: str = ""

    @property
    def name(self) -> str:
        """The post's name: the program, and in brackets the parts that are not the default.

        Example
        -------
        >>> SeatPool("NIT1-ME", quota="HS", trait="pwbd").name
        'NIT1-ME [HS, pwbd]'
        >>> SeatPool("IIT1-CSE").name
        'IIT1-CSE'
        """
        parts = [p for p, default in ((self.quota, DEFAULT_QUOTA), (self.gender_pool, DEFAULT_GENDER_POOL),
                                      (self.trait, "")) if p != default]
        return self.program if not parts else f"{self.program} [{', '.join(parts)}]"


def holders(rules, candidates, pool: SeatPool) -> np.ndarray:
    """bool over candidates: who may hold the pool's seats by its quota, gender pool and trait (the categories
    inside it are the pools' business). `rules`: the policy's `seat_pools`; `candidates`: `Candidates` with
    `home_state` where a quota turns on it."""
    n = len(candidates)
    ok = np.ones(n, dtype=bool)
    if pool.gender_pool == "female":
        ok &= candidates.female
    if pool.trait:
        ok &= candidates.trait(pool.trait)
    who = rules.quotas[pool.quota].holders
    if who != "all":
        home = candidates.home_state if candidates.home_state is not None else np.full(n, "", dtype=object)
        same = home == pool.state
        ok &= same if who == "home" else ~same
    return ok


def expand(prefs: tuple[np.ndarray, ...], programs: tuple[str, ...], pools: tuple[SeatPool, ...], rules,
           candidates) -> tuple[np.ndarray, ...]:
    """Each candidate's ranked programs (indices into `programs`) as ranked posts (indices into `pools`): a
    program's place taken by the pools of it the candidate may hold (`holders`), in the policy's order
    (`rules.rank`). Vectorised over the pairs: one membership matrix per distinct pool."""
    n = len(candidates)
    key = [rules.rank(p.quota, p.gender_pool, p.trait) for p in pools]
    of = {name: [] for name in programs}
    for v in sorted(range(len(pools)), key=lambda v: (key[v], v)):
        of[pools[v].program].append(v)
    width = max(len(v) for v in of.values())
    table = np.full((len(programs), width), -1, dtype=np.int64)
    for j, name in enumerate(programs):
        table[j, :len(of[name])] = of[name]
    may = np.stack([holders(rules, candidates, p) for p in pools]) if pools else np.zeros((0, n), bool)
    sizes = np.fromiter((len(p) for p in prefs), dtype=np.int64, count=n)
    who = np.repeat(np.arange(n), sizes)
    chosen = np.concatenate(prefs).astype(np.int64) if len(who) else np.zeros(0, np.int64)
    posts = table[chosen]                                   # pairs x width, -1 past a program's pools
    keep = posts >= 0
    keep[keep] = may[posts[keep], np.broadcast_to(who[:, None], posts.shape)[keep]]
    flat, owner = posts[keep], np.broadcast_to(who[:, None], posts.shape)[keep]
    bounds = np.searchsorted(owner, np.arange(n + 1))
    return tuple(flat[bounds[i]:bounds[i + 1]] for i in range(n))
