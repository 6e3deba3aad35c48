"""Row by row: may this appointee hold a seat of this pool by its quota, gender pool and trait (JoSAA Business
Rules, "Division of seats into program-sections"; the policy's `seat_pools`). Read again from the vacancy rows
and the candidates file, not from `solver.data.seat_pools`."""
from __future__ import annotations

import numpy as np

from ..data.words import article
from .allocation import Violation
from .reading import Reading

SRC = "JoSAA Business Rules, \"Division of seats into program-sections\" (the policy's seat_pools)"


def pool_holders(r: Reading) -> list[Violation]:
    """A female-only seat is held by a woman; a seat for a trait by one who has it; a quota's seat by one its
    rule admits: `home` those whose home state is the program's state, `other` those whose is not (or who gave
    none), `all` anyone."""
    bars = PoolBars(r.policy, r.problem)
    return [r.violation("not eligible for the seat pool", i, j, w, f"{SRC}; {r.policy.seat_pools.source}")
            for i, j in zip(r.alloc.cand.tolist(), r.alloc.post.tolist()) for w in bars(i, j)]


class PoolBars:
    """What bars candidate i from post j's seat pool, in words (none where it has no pool, or nothing does): made
    once per check, read per holder."""

    def __init__(self, policy, problem):
        c = problem.candidates
        self.policy, self.problem, self.c = policy, problem, c
        self.pool_of = {row.post: row.pool for row in problem.vacancy_rows if row.pool is not None}
        self.traits = {t: c.trait(t) for t in {p.trait for p in self.pool_of.values() if p.trait}}   # (once each)

    def __call__(self, i: int, j: int) -> list[str]:
        c = self.c
        pool = self.pool_of.get(self.problem.posts[j])
        if pool is None:
            return []
        home = str(c.home_state[i]) if c.home_state is not None else ""
        rule = self.policy.seat_pools.quotas[pool.quota].holders
        why = []
        if pool.gender_pool == "female" and not c.female[i]:
            why.append("a female-only seat held by a candidate who is not a woman")
        if pool.trait and not self.traits[pool.trait][i]:
            why.append(f"a seat for {pool.trait} held by a candidate without it")
        if rule == "home" and home != pool.state:
            why.append(f"{article(pool.quota)} {pool.quota} seat of {pool.state} held by a candidate whose home state is "
                       f"{home or 'not given'}")
        if rule == "other" and home == pool.state:
            why.append(f"{article(pool.quota)} {pool.quota} seat of {pool.state} held by a candidate of that home state")
        return why

    def of_ranked_program(self, i: int, j: int) -> list[str]:
        """What bars candidate i from post j's seat pool, where he ranked its program: the pool is then off his
        list for the bar, not because he did not rank it; [] where nothing bars him or he did not rank the
        program. His program is ranked where his list as he gave it holds another of its pools, or names it
        among the programs none of whose pools he may hold (`Problem.unheld`)."""
        problem, program = self.problem, self.problem.program_of
        bars = self(i, j) if program is not None else []
        if not bars:
            return []
        given = problem.stated if problem.stated is not None else problem.preferences
        if given is not None and (program[np.asarray(given[i], dtype=np.int64)] == program[j]).any():
            return bars
        u = problem.unheld
        return bars if u is not None and (program[u.post[u.who == i]] == program[j]).any() else []
