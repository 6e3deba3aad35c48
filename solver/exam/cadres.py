"""The cadre allocation of the All India Services: the stage after service allocation, which gives each officer a
service has (IAS, IPS, IFoS) a State or joint cadre. The rule is the policy's `[cadre]` table
(`solver.policy.stages.CadreRule`: DoPT's Cadre Allocation Policy of 23 January 2026 as reported; the OM's own
text was not read, so what the reports leave unclear is an option there):

1. insider vacancies first: each officer who opted for his home cadre, in rank order, takes an insider vacancy
   of his category there while one is left;
2. insider vacancies left unfilled become outsider vacancies of the cadre that year (or lapse);
3. outsiders in cycles of ranks (1-25, 26-50, ...), PwBD officers first, each taking the cadre he prefers most
   with an outsider vacancy of his category, one outsider a cadre a cycle while he has such a choice.

Inputs (docs/formats.md): officers.csv (`candidate_id`, `rank`, `category`, `home_cadre`, `home_opt`, `pwbd`),
cadre_vacancies.csv (`cadre`, `category`, `insider`, `outsider`) and cadre_preferences.csv (`candidate_id`,
`order`, `cadre`). `solver.verify.state_cadres` checks an allocation on its own."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..io.cadres import CadreProblem, read_cadre_problem  # noqa: F401 (read_cadre_problem: the stage's API)
from ..policy import Policy

ALLOCATION_COLUMNS = ["candidate_id", "rank", "category", "home_cadre", "cadre", "kind", "cycle", "reason"]
VACANCY_COLUMNS = ["cadre", "category", "insider", "insider_filled", "converted", "outsider", "outsider_filled"]


@dataclass
class CadreAllocation:
    cadre: np.ndarray                                   # int per officer, -1: none
    kind: list[str]                                     # "insider", "outsider" or ""
    reason: list[str]
    converted: dict[tuple[int, str], int] = field(default_factory=dict)   # insider vacancies turned outsider

    def rows(self, p: CadreProblem, rule) -> list[list]:
        """cadres.csv: one row per officer, in rank order."""
        return [[p.ids[i], int(p.rank[i]), p.category[i], p.home_names[i] if p.home_names else "",
                 p.cadres[self.cadre[i]] if self.cadre[i] >= 0 else "", self.kind[i],
                 cycle_of(rule, p, i) if self.kind[i] == "outsider" else "", self.reason[i]] for i in range(len(p.ids))]

    def vacancy_rows(self, p: CadreProblem) -> list[list]:
        """cadre_vacancies_filled.csv: each cadre and category, its vacancies and how many were filled."""
        held: dict[tuple[int, str, str], int] = {}     # (cadre, category, kind) -> officers, counted once
        for i in np.flatnonzero(self.cadre >= 0).tolist():
            key = (int(self.cadre[i]), p.category[i], self.kind[i])
            held[key] = held.get(key, 0) + 1
        out = []
        for key in sorted(set(p.insider) | set(p.outsider)):
            out.append([p.cadres[key[0]], key[1], p.insider.get(key, 0), held.get((*key, "insider"), 0),
                        self.converted.get(key, 0), p.outsider.get(key, 0), held.get((*key, "outsider"), 0)])
        return out


def cycle_of(rule, p: CadreProblem, i: int) -> int:
    """The cycle an outsider is taken in: his rank's window of `rule.cycle` (1-25 is cycle 1); with
    `pwbd_first = "all"` a PwBD officer is in cycle 0, before every other."""
    if rule.pwbd_first == "all" and p.pwbd[i]:
        return 0
    return int((p.rank[i] - 1) // rule.cycle) + 1


def allocate_cadres(policy: Policy, p: CadreProblem) -> CadreAllocation:
    """Each officer's cadre under the policy's `[cadre]` rule (see the module's text).

    Example
    -------
    Two cadres, one UR insider vacancy in A and one UR outsider vacancy in each; X (rank 1, home A, opted)
    is A's insider; Y (rank 2, home A) did not opt, so he is an outsider, and not in A: he gets B.

    >>> from solver import load_policy
    >>> p = CadreProblem(("X", "Y", "Z"), np.array([1, 2, 3]), ("UR",) * 3, np.array([0, 0, 1]),
    ...                  np.array([True, False, False]), np.zeros(3, bool), ("A", "B"),
    ...                  {(0, "UR"): 1}, {(0, "UR"): 1, (1, "UR"): 1}, ((0, 1), (0, 1), (1, 0)), 2026)
    >>> a = allocate_cadres(load_policy("upsc-cse"), p)
    >>> [p.cadres[j] for j in a.cadre], a.kind
    (['A', 'B', 'A'], ['insider', 'outsider', 'outsider'])
    """
    rule, n = policy.cadre, len(p.ids)
    cadre, kind, reason = np.full(n, -1, dtype=np.int64), [""] * n, [""] * n
    left = dict(p.insider)
    for i in range(n):                       # 1. insiders, in rank order
        key = (int(p.home[i]), p.category[i])
        if p.opted[i] and key[0] >= 0 and left.get(key, 0) > 0:
            left[key] -= 1
            cadre[i], kind[i] = key[0], "insider"
            reason[i] = f"insider: opted for his home cadre, a {key[1]} insider vacancy left there at his rank"
    free = dict(p.outsider)
    converted = {}
    if rule.unfilled_insider == "outsider":  # 2. insider vacancies left become outsider vacancies this year
        for key, k in left.items():
            if k > 0:
                converted[key] = k
                free[key] = free.get(key, 0) + k
    year_order = [p.cadres.index(c) for c in rule.order(p.year) if c in p.cadres]
    year_order += [j for j in range(len(p.cadres)) if j not in year_order]
    outsiders = sorted((i for i in range(n) if cadre[i] < 0), key=lambda i: priority(rule, p, i))
    used: set[int] = set()
    current = None
    for i in outsiders:                      # 3. outsiders, cycle by cycle
        if cycle_of(rule, p, i) != current:
            current, used = cycle_of(rule, p, i), set()
        j, why = _choose(rule, p, i, free, used, year_order)
        if j < 0:
            reason[i] = f"no cadre but his home cadre has an outsider vacancy of his category ({p.category[i]}) left"
            continue
        free[(j, p.category[i])] -= 1
        used.add(j)
        cadre[i], kind[i], reason[i] = j, "outsider", f"outsider, cycle {current}: {why}"
    return CadreAllocation(cadre, kind, reason, converted)


def priority(rule, p: CadreProblem, i: int) -> tuple:
    """An outsider's turn: his cycle, then PwBD first within it (`pwbd_first = "cycle"`), then his rank."""
    first = 0 if rule.pwbd_first == "cycle" and p.pwbd[i] else 1
    return cycle_of(rule, p, i), first, int(p.rank[i])


def _choose(rule, p: CadreProblem, i: int, free: dict, used: set, year_order: list[int]) -> tuple[int, str]:
    c, home = p.category[i], int(p.home[i])
    open_ = [j for j in p.preferences[i] if j != home and free.get((j, c), 0) > 0]
    fresh = [j for j in open_ if j not in used] if rule.one_per_cycle else open_
    if fresh:
        return fresh[0], f"his most preferred cadre with a {c} outsider vacancy" + \
            (" not yet given an outsider this cycle" if rule.one_per_cycle else "")
    if open_:
        return open_[0], (f"every cadre he ranked with a {c} outsider vacancy had an outsider this cycle: his most "
                          "preferred of them")
    rest = [j for j in year_order if j != home and free.get((j, c), 0) > 0]
    rest = [j for j in rest if j not in used] or rest
    if rest:
        return rest[0], f"no cadre he ranked has a {c} outsider vacancy: the first in this year's order of groups"
    return -1, ""
