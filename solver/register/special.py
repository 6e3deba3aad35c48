"""The special recruitment of a year: a second round open to the reserved categories only, for the backlog the
year's first round left (a reduction of the chain: policy, problem and register state in, the same out).

Bihar Act 1991 s.4(6)(e): "fresh advertisement may be made only for the candidates belonging to the members of
[SC, ST, EBC, BC and WBC], as the case may be, to fill the backlog vacancies only". Manipur Act 1976 s.8(4): "a
fresh recruitment may be made only from candidates belonging to the Scheduled Castes or the Scheduled Tribes,
as the case may be, for filling up the remaining reserved vacancies".

- Its vacancies are the kept-vacant reserved posts (`vacancy` items) live after the year's first round; the
  special round's `vacancies.csv` names, per post and category, how many of them it advertises (oldest first).
  A post de-reserved and filled from the open list in the first round (Manipur s.7 read as the same year) is no
  longer vacant: there is nothing for a special round to fill.
- Its candidates are of the reserved categories only; each vacancy goes to its own category ("as the case may
  be"): no exchange, fallback or de-reservation, and no open vacancies. Where the policy de-reserves only
  after it (`unfilled.dereserve_when = "after_special_round"`, Manipur s.8(5): "the vacancies which remain
  unfilled shall be filled by general candidates in accordance with the procedure laid down in sections 6
  and 7"), the round goes on in that order: the same-year exchange (s.6), then de-reservation to general
  candidates (s.7), the reservation carried; its candidates file may then hold general candidates, who take
  only what is de-reserved.
- The register records what it filled as events of the same year, after the first round's.
"""
from __future__ import annotations

from dataclasses import replace

from ..errors import InputError
from ..policy import Policy
from ..data.problem import Problem, VacancyRow
from ..chain.vacancy.carried import Carried, YearState

def source(policy: Policy) -> str:
    """The policy's authority for its special round (`authorities.special`)."""
    return policy.authorities.special or f"{policy.name}: a special recruitment"


def then_general(policy: Policy) -> bool:
    """Whether the special round ends with the general candidates (Manipur s.8(5))."""
    return policy.unfilled.dereserve and policy.unfilled.dereserve_when == "after_special_round"


def special_policy(policy: Policy) -> Policy:
    """The policy of a special round: each backlog vacancy to its own category only, no ceiling to apply (the
    round fills backlog, which the year's first round already counted); where the policy de-reserves after
    it, then the same-year exchange and de-reservation (s.8(5))."""
    ceiling = policy.ceiling.model_copy(update={"share": 1.0, "excess": "refuse"})
    if then_general(policy):
        unfilled = policy.unfilled.model_copy(update={"dereserve_when": "same_year"})
        exchange = [g for g in policy.exchange if g.after_years == 0]
    else:
        unfilled = policy.unfilled.model_copy(update={"dereserve": False})
        exchange = []
    return policy.model_copy(update={"exchange": exchange, "fallback": [], "unfilled": unfilled, "ceiling": ceiling})


def special_round(policy: Policy, problem: Problem, year: int, backlog: tuple[Carried, ...]) \
        -> tuple[Policy, Problem, YearState]:
    """(policy, problem, state) of the special round: `problem`'s vacancy rows say how many of each post and
    category's backlog (`backlog`: live kept-vacant items after the year's first round, oldest first) it
    advertises; they become carried items of a year with no vacancies of its own.

    Raises InputError (exit 2) for a candidate of the open category, a TOTAL or open row, or more vacancies
    advertised than the backlog holds."""
    path = problem.sources.get("candidates", "candidates.csv")
    c = problem.candidates
    for i in range(problem.n):
        if c.category[i] == policy.open and not then_general(policy):
            raise InputError(path, int(c.line[i]), "category", f"candidate {str(c.ids[i])!r} is {policy.open}: a "
                             f"special recruitment is open to the reserved categories only ({source(policy)})")
    vpath = problem.sources.get("vacancies", "vacancies.csv")
    chosen: list[Carried] = []
    rows: list[VacancyRow] = []
    for row in problem.vacancy_rows:
        if row.category in ("TOTAL", policy.open):
            raise InputError(vpath, row.line, "category", f"a special recruitment advertises backlog "
                             f"vacancies of reserved categories, not {row.category} ({source(policy)})")
        live = [x for x in backlog if (x.post, x.category) == (row.post, row.category)]
        if row.vacancies > len(live):
            raise InputError(vpath, row.line, "vacancies", f"{row.vacancies} {row.category} vacancies advertised "
                             f"at {row.post}, but the register holds {len(live)} unfilled after {year}'s first "
                             "round")
        chosen += live[:row.vacancies]
        # (the row as read but for its count: the list that ranks its seats, its seat pool, its district stay)
        rows.append(replace(row, vacancies=0, minimums={}))
    first: dict[str, VacancyRow] = {}
    for row in problem.vacancy_rows:
        first.setdefault(row.post, row)
    for j, post in enumerate(problem.posts):
        # (an open row of none, ranked by the post's list where its rows name one: `Problem.list_of`)
        rows.append(replace(first[post], category=policy.open, vacancies=0, minimums={}, line=0, exempt="",
                            cadre=None, roster_start=None, merit_list=problem.list_name(j, policy.open)))
    return special_policy(policy), replace(problem, vacancy_rows=tuple(rows)), YearState(year, {}, tuple(chosen))
