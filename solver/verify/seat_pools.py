"""Row by row: may this appointee hold a seat of this pool by its quota, gender pool and trait (JoSAA Business
Rules, "Division of seats into program-sections"; the policy's `seat_pools`). Read again from the vacancy rows
and the candidates file, not from `solver.data.seat_pools`."""
from __future__ import annotations

from .allocation import Violation
from .reading import Reading

SRC = "JoSAA Business Rules, \"Division of seats into program-sections\" (the policy's seat_pools)"


def pool_holders(r: Reading) -> list[Violation]:
    """A female-only seat is held by a woman; a seat for a trait by one who has it; a quota's seat by one its
    rule admits: `home` those whose home state is the program's state, `other` those whose is not (or who gave
    none), `all` anyone."""
    c, out = r.problem.candidates, []
    pool_of = {row.post: row.pool for row in r.problem.vacancy_rows if row.pool is not None}
    traits = {t: c.trait(t) for t in {p.trait for p in pool_of.values() if p.trait}}    # (once per trait)
    for i, j in zip(r.alloc.cand.tolist(), r.alloc.post.tolist()):
        pool = pool_of.get(r.problem.posts[j])
        if pool is None:
            continue
        home = str(c.home_state[i]) if c.home_state is not None else ""
        rule = r.policy.seat_pools.quotas[pool.quota].holders
        why = []
        if pool.gender_pool == "female" and not c.female[i]:
            why.append("a female-only seat held by a candidate who is not a woman")
        if pool.trait and not traits[pool.trait][i]:
            why.append(f"a seat for {pool.trait} held by a candidate without it")
        if rule == "home" and home != pool.state:
            why.append(f"a {pool.quota} seat of {pool.state} held by a candidate whose home state is "
                       f"{home or 'not given'}")
        if rule == "other" and home == pool.state:
            why.append(f"a {pool.quota} seat of {pool.state} held by a candidate of that home state")
        out += [r.violation("not eligible for the seat pool", i, j, w, f"{SRC}; {r.policy.seat_pools.source}")
                for w in why]
    return out
