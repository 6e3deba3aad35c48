"""The cadre allocation's inputs (`solver.exam.cadres`), read and checked once: officers.csv (`candidate_id`,
`rank`, `category`, `home_cadre`, `home_opt`, `pwbd`), cadre_vacancies.csv (`cadre`, `category`, `insider`,
`outsider`) and cadre_preferences.csv (`candidate_id`, `order`, `cadre`). Errors name file, line and column."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..policy import Policy
from .cells import _bools, _first_bad, _numbers, unique_ids
from .tables import read_table


@dataclass(frozen=True)
class CadreProblem:
    """The officers in rank order, the cadres, their vacancies and the officers' preferences (cadre indices)."""

    ids: tuple[str, ...]
    rank: np.ndarray            # int, all-India rank
    category: tuple[str, ...]   # the category each is counted in (EWS in UR: `CadreRule.counted_in`)
    home: np.ndarray            # int: cadre index, -1 where the home State has no cadre of its own here
    opted: np.ndarray           # bool: willing to serve in the home cadre (`home_opt`)
    pwbd: np.ndarray            # bool
    cadres: tuple[str, ...]
    insider: dict[tuple[int, str], int]
    outsider: dict[tuple[int, str], int]
    preferences: tuple[tuple[int, ...], ...]
    year: int
    home_names: tuple[str, ...] = ()   # the home cadre as given (a State with no vacancies here among them)


def read_cadre_problem(policy: Policy, officers, vacancies, preferences=None, year: int = 2026,
                       warn=lambda _: None) -> CadreProblem:
    """officers.csv, cadre_vacancies.csv and cadre_preferences.csv, each checked (errors name file, line and
    column). Without preferences every officer is placed in the year's order of groups."""
    rule = policy.cadre
    known = set(policy.seat_codes)
    cadres, ins_, out_ = _read_vacancies(vacancies, rule.counted_in, known)
    index = {c: k for k, c in enumerate(cadres)}
    t = read_table(officers, ["candidate_id", "rank", "category", "home_cadre"], ["home_opt", "pwbd"])
    ids = unique_ids(t, "candidate_id")
    rank = _numbers(t, "rank", integer=True).astype(np.int64)
    if (k := _first_bad(rank < 1)) is not None:
        raise t.error(k, "rank", "a rank is a whole number from 1")
    by_rank = np.argsort(rank, kind="stable")
    if len(dup := np.flatnonzero(rank[by_rank][1:] == rank[by_rank][:-1])):
        first, second = sorted((int(by_rank[dup[0]]), int(by_rank[dup[0] + 1])))
        raise t.error(second, "rank", f"rank {rank[second]} is given twice (also line {t.line[first]})")
    cats = [rule.counted_in.get(str(x), str(x)) for x in t["category"]]
    if (k := _first_bad(np.array([c not in known for c in cats]))) is not None:
        raise t.error(k, "category", f"unknown category {cats[k]!r}; the policy's are {sorted(known)}")
    homes = np.array([index.get(str(x), -1) for x in t["home_cadre"]], dtype=np.int64)
    opted = _bools(t, "home_opt")
    pwbd = np.array([str(x).strip() != "" for x in t["pwbd"]]) if t.has("pwbd") else np.zeros(len(t), bool)
    for k in np.flatnonzero((homes < 0) & opted).tolist()[:1]:
        warn(f"{officers}: line {t.line[k]}: {ids[k]} opted for his home cadre {t['home_cadre'][k]!r}, which has no "
             "vacancies here: he is an outsider everywhere")
    order = by_rank
    prefs = _read_preferences(preferences, {str(x): k for k, x in enumerate(ids)}, index, len(ids))
    take = order.tolist()
    return CadreProblem(tuple(str(ids[k]) for k in take), rank[order], tuple(cats[k] for k in take), homes[order],
                        opted[order], pwbd[order], cadres, ins_, out_, tuple(prefs[k] for k in take), year,
                        tuple(str(t["home_cadre"][k]) for k in take))


def _read_vacancies(path, counted_in: dict[str, str], known: set[str]):
    """cadre_vacancies.csv: the cadres in the file's order, and the insider and outsider vacancies per (cadre
    index, category)."""
    v = read_table(path, ["cadre", "category", "insider", "outsider"], [])
    cadres = tuple(dict.fromkeys(str(x) for x in v["cadre"]))
    index = {c: k for k, c in enumerate(cadres)}
    ins_, out_ = {}, {}
    counts = {name: _numbers(v, name, integer=True).astype(int) for name in ("insider", "outsider")}
    for r in range(len(v)):
        code = counted_in.get(str(v["category"][r]), str(v["category"][r]))
        if code not in known:
            raise v.error(r, "category", f"unknown category {code!r}; the policy's are {sorted(known)}")
        key = (index[str(v["cadre"][r])], code)
        if key in ins_:
            raise v.error(r, "category", f"{key[1]} at {cadres[key[0]]} is given twice")
        if min(counts["insider"][r], counts["outsider"][r]) < 0:
            raise v.error(r, "insider", "vacancies may not be negative")
        ins_[key], out_[key] = int(counts["insider"][r]), int(counts["outsider"][r])
    return cadres, ins_, out_


def _read_preferences(path, ids: dict[str, int], cadres: dict[str, int], n: int) -> list[tuple[int, ...]]:
    if path is None:
        return [()] * n
    t = read_table(path, ["candidate_id", "order", "cadre"], [])
    order = _numbers(t, "order", integer=True)
    got: dict[int, list[tuple[float, int, int]]] = {}
    for r in range(len(t)):
        who, where = ids.get(str(t["candidate_id"][r])), cadres.get(str(t["cadre"][r]))
        if who is None:
            raise t.error(r, "candidate_id", f"unknown officer {str(t['candidate_id'][r])!r}")
        if where is None:
            raise t.error(r, "cadre", f"unknown cadre {str(t['cadre'][r])!r} (the vacancies file names "
                                      f"{len(cadres)})")
        if any(c == where for _, c, _ in got.get(who, [])):
            raise t.error(r, "cadre", f"{t['cadre'][r]} is ranked twice by {t['candidate_id'][r]}")
        got.setdefault(who, []).append((float(order[r]), where, r))
    return [tuple(c for _, c, _ in sorted(got.get(k, []))) for k in range(n)]

