"""Surrender of employees when posts of a cadre are abolished (Bill 2004 s.12): a constrained choice, not a
merit fill.

"Where posts in a cadre are to be abolished and the employees are required to be surrendered or their services
are required to be terminated as a result thereof, a Scheduled Caste or Scheduled Tribe or an Other Backward
Class employee shall not be surrendered or his services shall not be terminated if it results in lowering the
representation of the Scheduled Castes or the Scheduled Tribes or the Other Backward Classes, as the case may
be, in relation to percentage of reservation fixed for them."

Read here as: after abolishing N posts of a cadre of S, a protected category c keeps at least
min(its employees now, its share of the cadre of S - N), its share being the posts the post-based roster of
S - N gives it (`solver.chain.vacancy.roster`, floor(share x posts)). Within that bound the service's order decides
(juniors first unless `order` is given). The choice is a CP-SAT model (`surrender`): exactly N surrendered,
each protected category within its bound, the sum of order positions least; because the bounds form a
partition matroid, that is the order's own choice skipping only those s.12 protects (`in_order`, the
reference), which `check` verifies independently.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import InputError, OptionError, PolicyConflict, Unsupported
from ..io.cells import _first_bad, ordinals, unique_ids
from ..io.tables import read_table
from ..policy import Policy
from ..chain.vacancy.roster import roster

COLUMNS = ["employee_id", "category", "order", "surrendered", "reason"]
MAX_STRENGTH = 1_000_000   # posts; as `aarakshan roster` bounds a cadre


@dataclass(frozen=True)
class Employees:
    ids: np.ndarray        # object, in the service's order of surrender (first to go first)
    category: np.ndarray   # object
    order: np.ndarray      # int: 1 = first to be surrendered
    source: str


@dataclass(frozen=True)
class Surrender:
    employees: Employees
    surrendered: np.ndarray         # bool, in the order of `employees`
    floors: dict[str, int]          # protected category -> employees it keeps at least
    before: dict[str, int]
    share_posts: dict[str, int]     # protected category -> its posts in the cadre of strength - abolish
    strength: int
    abolish: int
    engine: str


def read_employees(path: str | Path, policy: Policy, warn=None) -> Employees:
    """employees.csv: `id`, `category`, and `seniority` (1 = most senior; juniors are surrendered first) or
    `order` (the service's order of surrender, 1 = first)."""
    t = read_table(path, ["id", "category"], ["seniority", "order"], warn)
    if len(t) == 0:
        raise InputError(path, None, None, "no employees")
    ids, cats = unique_ids(t), t["category"].astype(str)
    if (k := _first_bad(~np.isin(cats, policy.member_codes))) is not None:
        raise t.error(k, "category", f"unknown category {str(cats[k])!r}; this policy knows {policy.member_codes}")
    if t.has("order") == t.has("seniority"):
        raise InputError(path, 1, None, "give exactly one of the columns 'seniority' (1 = most senior) or 'order' "
                         "(the service's order of surrender, 1 = first)")
    name = "order" if t.has("order") else "seniority"
    v = ordinals(t, name, "1 = first to be surrendered" if name == "order" else "1 = most senior",
                 "orders" if name == "order" else "seniorities")
    position = v if name == "order" else len(t) + 1 - v       # juniors first
    by = np.argsort(position, kind="stable")
    return Employees(ids[by].astype(object), cats[by].astype(object), position[by], str(path))


def bounds(policy: Policy, emp: Employees, strength: int, abolish: int) -> tuple[dict, dict, dict]:
    """(employees each protected category has, its posts in the cadre after abolition, the fewest it may
    keep). Read by roster (`surrender.reading = "roster"`), the fewest is the smaller of the first two; by
    percentage, the fewest that keeps its percentage of the remaining strength from falling below its
    percentage now, ceil(employees x (strength - abolish) / strength), or all it has."""
    prot = protected(policy)
    after = strength - abolish
    share = Counter(roster(policy, after)) if after > 0 else Counter()
    before = {c: int((emp.category == c).sum()) for c in prot}
    posts = {c: int(share.get(c, 0)) for c in prot}
    if policy.surrender.reading == "percentage":
        # integer ceiling of before x after / strength: no float rounding at the boundary
        return before, posts, {c: min(before[c], -(-before[c] * after // strength)) for c in prot}
    return before, posts, {c: min(before[c], posts[c]) for c in prot}


def protected(policy: Policy) -> list[str]:
    """The categories s.12 protects; Unsupported (exit 3) where the policy has no such rule."""
    if policy.surrender is None:
        raise Unsupported(f"{policy.name} has no rule on the surrender of employees ([surrender] table): Bill 2004 "
                          "s.12 is the central rule; the Bihar, Manipur and Maharashtra Acts have none")
    return list(policy.surrender.protected)


def in_order(emp: Employees, count: int, floors: dict) -> np.ndarray:
    """The reference: down the service's order, surrender each employee unless s.12 protects them (their
    category is at its floor), until `count` are surrendered."""
    out = np.zeros(len(emp.ids), dtype=bool)
    left = {c: int((emp.category == c).sum()) for c in floors}
    done = 0
    for k, c in enumerate(emp.category):
        if done == count:
            break
        if c in left:
            if left[c] <= floors[c]:
                continue
            left[c] -= 1
        out[k] = True
        done += 1
    return out


def surrender(policy: Policy, emp: Employees, abolish: int, strength: int | None = None,
              engine: str = "cpsat") -> Surrender:
    """Who is surrendered when `abolish` posts of the cadre (of `strength` posts; the employees by default, a
    larger cadre having vacant posts) are abolished: as many employees as the smaller cadre cannot hold.

    s.12 can always be kept: each protected category's floor is at most its posts in the smaller cadre, and
    those posts add up to at most the cadre, which holds everyone not surrendered."""
    n = len(emp.ids)
    strength = n if strength is None else strength
    if strength > MAX_STRENGTH:
        raise OptionError("strength", f"a cadre of {strength:,} posts is beyond any service (at most "
                         f"{MAX_STRENGTH:,}): the smaller cadre's roster would not end")
    if strength < n:
        raise OptionError("strength", f"a cadre of {strength} posts cannot hold {n} employees")
    if not 0 < abolish <= strength:
        raise OptionError("abolish", f"{abolish} posts abolished of a cadre of {strength}")
    before, posts, floors = bounds(policy, emp, strength, abolish)
    to_go = max(0, n - (strength - abolish))
    chosen = in_order(emp, to_go, floors) if engine == "greedy" else _cpsat(emp, to_go, floors)
    return Surrender(emp, chosen, floors, before, posts, strength, abolish, engine)


def _cpsat(emp: Employees, count: int, floors: dict) -> np.ndarray:
    """The choice as CP-SAT states it: exactly `count` surrendered, each protected category keeping its
    floor, the service's order followed as far as the law lets it (least sum of order positions)."""
    from ortools.sat.python import cp_model

    from ..chain.engines.cpsat.parameters import solve_stoppably
    m = cp_model.CpModel()
    out = [m.new_bool_var(f"surrender[{x}]") for x in emp.ids]
    m.add(sum(out) == count)
    for c, floor in floors.items():
        mine = [v for v, cat in zip(out, emp.category) if cat == c]
        m.add(len(mine) - sum(mine) >= floor)   # s.12: representation not lowered below its share
    m.minimize(sum(int(p) * v for p, v in zip(emp.order, out)))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solve_stoppably(solver, m)
    if status != cp_model.OPTIMAL:
        raise PolicyConflict(f"CP-SAT found no surrender ({solver.status_name(status)})")
    return np.array([bool(solver.value(v)) for v in out])


def check(policy: Policy, emp: Employees, surrendered: np.ndarray, abolish: int, strength: int) -> list[str]:
    """Independent check of a surrender: as many as the smaller cadre cannot hold, s.12's floors, and the
    service's order (nobody kept who could have gone in the place of one surrendered later in the order)."""
    out = []
    to_go = max(0, len(emp.ids) - (strength - abolish))
    if int(surrendered.sum()) != to_go:
        out.append(f"{int(surrendered.sum())} surrendered, but the cadre of {strength - abolish} left holds all but "
                   f"{to_go} of the {len(emp.ids)} employees")
    _, _, floors = bounds(policy, emp, strength, abolish)
    kept = {c: int(((emp.category == c) & ~surrendered).sum()) for c in floors}
    for c, f in floors.items():
        if kept[c] < f:
            out.append(f"{c} keeps {kept[c]} employees, below {f}: surrendering lowered its representation "
                       f"below its share (Bill 2004 s.12)")
    for k in np.flatnonzero(~surrendered):
        later = np.flatnonzero(surrendered & (np.arange(len(emp.ids)) > k))
        c = emp.category[k]
        for s in later:
            # Swapping k in for s keeps every floor when k's category may lose one more (or is s's own).
            if c not in floors or c == emp.category[s] or kept[c] - 1 >= floors[c]:
                out.append(f"{emp.ids[k]} (order {emp.order[k]}) was kept while {emp.ids[s]} (order "
                           f"{emp.order[s]}) was surrendered, against the service's order")
                break
    return out


def rows(policy: Policy, res: Surrender):
    """surrendered.csv: each employee in the service's order, and why."""
    emp = res.employees
    kept = {c: int(((emp.category == c) & ~res.surrendered).sum()) for c in res.floors}
    reached = int(np.flatnonzero(res.surrendered).max()) if res.surrendered.any() else -1
    for k in range(len(emp.ids)):
        c = emp.category[k]
        if res.surrendered[k]:
            why = f"surrendered in the service's order (position {emp.order[k]})"
        elif k < reached and c in res.floors and kept[c] <= res.floors[c]:
            if policy.surrender.reading == "percentage":
                why = (f"kept under s.12: {c} keeps {res.floors[c]} of {res.before[c]}, so that its percentage of the "
                       f"cadre of {res.strength - res.abolish} does not fall below its {res.before[c]} of "
                       f"{res.strength} now (surrender.reading = percentage)")
            else:
                why = (f"kept under s.12: {c} keeps {res.floors[c]}, its share of the cadre of "
                       f"{res.strength - res.abolish} ({res.share_posts[c]} posts) or all it has, whichever is fewer")
        else:
            why = "kept: not reached in the service's order"
        yield [emp.ids[k], c, int(emp.order[k]), "yes" if res.surrendered[k] else "no", why]
