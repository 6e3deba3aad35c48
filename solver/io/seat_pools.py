"""vacancies.csv's seat-pool columns read and checked: `quota` (with the program's `state`), `gender_pool`, `trait`,
`institute` and `supernumerary` (SPEC.md, fourth round). A row naming a pool other than the default is a post of
its own (`solver.data.seat_pools`)."""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..data.seat_pools import DEFAULT_GENDER_POOL, DEFAULT_QUOTA, SeatPool
from ..policy import Policy
from ..policy.counselling import GENDER_POOLS
from .cells import _bools, _first_bad
from .tables import Table

COLUMNS = ("quota", "gender_pool", "trait", "state", "institute", "supernumerary")
TRAIT_NAMES = ("women", "pwbd", "ex_serviceman", "pwbd_a", "pwbd_b", "pwbd_c", "pwbd_de")


def _text(t: Table, name: str, default: str = "") -> np.ndarray:
    if not t.has(name):
        return np.full(len(t), default, dtype=object)
    out = np.array([str(x).strip() for x in t[name]], dtype=object)
    out[out == ""] = default
    return out


def seat_pools(t: Table, policy: Policy) -> tuple[list[SeatPool] | None, np.ndarray]:
    """Each row's `SeatPool` (None where the file has none of the pool columns) and whether its seats are
    supernumerary (over the notified number)."""
    extra = _bools(t, "supernumerary") if t.has("supernumerary") else np.zeros(len(t), dtype=bool)
    if not any(t.has(c) for c in ("quota", "gender_pool", "trait", "state", "institute")):
        return None, extra
    quota, gender = _text(t, "quota", DEFAULT_QUOTA), _text(t, "gender_pool", DEFAULT_GENDER_POOL)
    trait, state, institute = _text(t, "trait"), _text(t, "state"), _text(t, "institute")
    rules = policy.seat_pools
    if (k := _first_bad(~np.isin(quota, list(rules.quotas)))) is not None:
        raise t.error(k, "quota", f"unknown quota {quota[k]!r}; {policy.name} defines {', '.join(rules.quotas)}")
    if (k := _first_bad(~np.isin(gender, list(GENDER_POOLS)))) is not None:
        raise t.error(k, "gender_pool", f"unknown gender pool {gender[k]!r}; expected {' or '.join(GENDER_POOLS)}")
    if (k := _first_bad(~np.isin(trait, ["", *TRAIT_NAMES]))) is not None:
        raise t.error(k, "trait", f"unknown trait {trait[k]!r}; expected one of {', '.join(TRAIT_NAMES)}")
    by_home = np.array([rules.quotas[q].holders != "all" for q in quota], dtype=bool)
    if (k := _first_bad(by_home & (state == ""))) is not None:
        raise t.error(k, "state", f"quota {quota[k]} is held by home state: give the program's state")
    program = np.array([str(p) for p in t["post"]], dtype=object)
    for name, values in (("state", state), ("institute", institute)):
        _one_per_program(t, program, name, values)
    return [SeatPool(*row) for row in zip(program, quota, gender, trait, state, institute)], extra


def _one_per_program(t: Table, program: np.ndarray, name: str, values: np.ndarray) -> None:
    """Every row of a program gives the same `name`: a program is in one state and one institute."""
    first: dict[str, int] = {}
    for k, p in enumerate(program.tolist()):
        j = first.setdefault(p, k)
        if values[j] != values[k]:
            raise t.error(k, name, f"program {p!r} has {name} {values[j] or 'empty'} on line {t.line[j]}: a "
                          f"program is in one {name}")


def check_home_states(policy: Policy, cands, rows, candidates, vacancies, warn) -> None:
    """Seats held by home state (a quota whose holders are `home` or `other`: JoSAA's HS and OS) are read against
    each candidate's `home_state`: a candidates file without the column would leave every HS seat to nobody, so
    it is refused; candidates with none given are said (they may hold no HS seat, and count as from outside every
    program's state)."""
    quotas = policy.seat_pools.quotas
    by_home = next((r for r in rows if r.pool is not None and quotas[r.pool.quota].holders != "all"), None)
    if by_home is None:
        return
    if cands.home_state is None:
        raise InputError(candidates, 1, "home_state", f"no home_state column, and {vacancies} line {by_home.line} "
                         f"has {by_home.pool.quota} seats, held by home state: give each candidate's state")
    none = np.flatnonzero(cands.home_state == "")
    if len(none) and warn is not None:
        k = none[np.argmin(cands.line[none])]
        warn(f"{candidates}: {len(none)} candidates give no home_state (line {cands.line[k]}): they may hold no seat "
             "of a quota by home state (HS), and count as from outside every program's state (OS)")
