"""The allocation as `verify` reads it: the facts every rule's check starts from, derived once from the policy
text and the allocation's own columns (not from `solver.chain.pools`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..policy import Policy
from ..data.problem import Problem
from ..data.routes import LATER_ROUTES, Route
from ..chain.vacancy.seats import SeatTable
from .allocation import Allocation, Violation, may_hold, may_hold_on_probation

# The order of the procedure's phases as routes (solver.data.routes.Phase): own compartments, exchange, fallback,
# de-reservation last.
ROUTE_PHASE = {Route.OPEN_MERIT: 0, Route.RESERVED: 0, Route.HORIZONTAL_ADJUSTMENT: 0, Route.UPGRADE: 0,
               Route.EXCHANGE: 1, Route.FALLBACK: 2, Route.PROBATION: 8, Route.DERESERVED: 9}
UNSELECTED = 99   # the phase of one who holds nothing: after every phase
# Routes that fill a compartment's own vacancies.
COMPARTMENT_ROUTES = [Route.OPEN_MERIT, Route.RESERVED, Route.HORIZONTAL_ADJUSTMENT, Route.UPGRADE]

# The judgments that hold a rule under every Act; the Act's own section comes from the policy (`Reading.cite`).
OPEN_MERIT = "Indra Sawhney 1992; Saurav Yadav 2020"


@dataclass(frozen=True)
class Reading:
    """Parameters
    ----------
    policy, problem, alloc : what is verified.
    seats : the seat table the allocation is checked against (vacancy determination, ceiling not enforced).
    """

    policy: Policy
    problem: Problem
    seats: SeatTable
    alloc: Allocation

    def cite(self, rule: str, judgments: str = "") -> str:
        """The source a violation of `rule` names: the policy's own authority for it (`Policy.authorities`: the
        Act in force, never another's) and the judgments that hold it anywhere."""
        return "; ".join(x for x in (getattr(self.policy.authorities, rule), judgments) if x) or \
            f"the policy ({self.policy.name})"

    def violation(self, rule: str, i: int | None, j: int | None, detail: str, source: str) -> Violation:
        """A breach of `rule` by candidate i (merit index) at post j (index), either may be None."""
        return Violation(rule, self.problem.candidates.ids[i] if i is not None else "",
                         self.problem.posts[j] if j is not None else "", detail, source)

    @property
    def rows(self) -> range:
        return range(len(self.alloc.cand))

    @cached_property
    def held(self) -> np.ndarray:
        """Per candidate, the allocation row they hold (-1: none; the last row where one holds two)."""
        held = np.full(self.problem.n, -1)
        for r, i in enumerate(self.alloc.cand.tolist()):
            held[i] = r
        return held

    @property
    def selected(self) -> np.ndarray:
        return self.held >= 0

    @cached_property
    def may(self) -> dict[str, np.ndarray]:
        """Per category code (open included), who may hold its vacancies, from the policy text."""
        return {code: may_hold(self.policy, self.problem, code)
                for code in self.policy.seat_codes}

    @cached_property
    def on_probation(self) -> dict[str, np.ndarray]:
        """Per reserved code, who may be recruited on probation against its vacancies (Manipur s.8(3))."""
        return {code: may_hold_on_probation(self.policy, self.problem, code) for code in self.policy.reserved_codes}

    def probation_post(self, j: int) -> bool:
        """Whether post j's class admits recruitment on probation (`probation.post_classes`)."""
        prob = self.policy.probation
        return prob is not None and self.problem.post_classes.get(self.problem.posts[j], "") in prob.post_classes

    @cached_property
    def precedence(self) -> dict[str, int]:
        """A compartment's place at a post: open, then own categories, then those of extra eligibility (reserved
        before open in promotion by non-selection: Bill 2004 s.5(2) proviso)."""
        return {code: k for k, code in enumerate(self.policy.compartment_order)}

    @cached_property
    def route(self) -> np.ndarray:
        return np.array(self.alloc.route, dtype=object)

    @cached_property
    def seat(self) -> np.ndarray:
        return np.array(self.alloc.seat, dtype=object)

    @cached_property
    def own_phase(self) -> np.ndarray:
        """Per row: filled in the candidates' own compartments (phase 0), not by a later phase."""
        return np.array([ROUTE_PHASE[x] == 0 for x in self.alloc.route], dtype=bool)

    @cached_property
    def misrouted(self) -> frozenset[int]:
        """Rows whose route cannot fill their seat (a later phase's route on an open vacancy): reported once
        by `route_eligibility`, then left alone."""
        return frozenset(r for r in self.rows if self.alloc.route[r] in LATER_ROUTES
                         and self.alloc.seat[r] == self.policy.open)

    @cached_property
    def count(self) -> dict[tuple[int, str], int]:
        """(post, seat category) -> appointees."""
        out: dict[tuple[int, str], int] = {}
        for j, seat in zip(self.alloc.post.tolist(), self.alloc.seat):
            out[(j, seat)] = out.get((j, seat), 0) + 1
        return out

    @cached_property
    def held_vacant(self) -> dict[tuple[int, str], int]:
        """(post, seat category) -> its seats a held horizontal minimum keeps vacant (`horizontal.held_seats_vacant`,
        counting the compartment's own appointees); only where the policy holds a trait."""
        from .horizontal import held_seats_vacant
        if not self.policy.horizontal.held:
            return {}
        own = np.flatnonzero(self.compartment_route)
        out = {}
        for j, post in enumerate(self.problem.posts):
            for code in self.precedence:
                holders = self.alloc.cand[own[(self.alloc.post[own] == j) & (self.seat[own] == code)]]
                if v := held_seats_vacant(self.policy, self.problem, self.seats, post, code, holders):
                    out[(j, code)] = v
        return out

    @cached_property
    def own_fills(self) -> dict[tuple[int, str], int]:
        """(post, seat category) -> appointees in the own compartments (phase 0)."""
        out: dict[tuple[int, str], int] = {}
        for r in np.flatnonzero(self.own_phase):
            key = (int(self.alloc.post[r]), self.alloc.seat[r])
            out[key] = out.get(key, 0) + 1
        return out

    @cached_property
    def exchange_groups(self) -> dict[int, list]:
        """Per exchange row, the policy's exchange groups that let its holder take its vacancy: the seat's
        category in the group, the holder a member of a partner, and (for groups that exchange only carried
        vacancies, `after_years`) a carried vacancy old enough at that post."""
        out = {}
        own = self.may
        for r in self.rows:
            if self.alloc.route[r] != Route.EXCHANGE or r in self.misrouted:
                continue
            i, j, seat = self.alloc.cand[r], int(self.alloc.post[r]), self.alloc.seat[r]
            carried = self.seats.exchangeable.get((self.problem.posts[j], seat), 0)
            out[r] = [g for g in self.policy.exchange if (g.after_years == 0 or carried) and seat in g.categories
                      and any(own[x][i] for x in g.categories if x != seat)]
        return out

    @cached_property
    def after_years_exchange(self) -> dict[tuple[int, str], int]:
        """(post, seat category) -> vacancies taken by exchange groups that exchange only carried vacancies."""
        out: dict[tuple[int, str], int] = {}
        for r, groups in self.exchange_groups.items():
            if groups and all(g.after_years for g in groups):
                key = (int(self.alloc.post[r]), self.alloc.seat[r])
                out[key] = out.get(key, 0) + 1
        return out

    @cached_property
    def dereserved(self) -> dict[tuple[int, str], int]:
        """(post, seat category) -> vacancies de-reserved."""
        out: dict[tuple[int, str], int] = {}
        for r in self.rows:
            if self.alloc.route[r] == Route.DERESERVED and r not in self.misrouted:
                key = (int(self.alloc.post[r]), self.alloc.seat[r])
                out[key] = out.get(key, 0) + 1
        return out

    def backlog_left(self, j: int, seat: str) -> int:
        """Carried vacancies old enough to exchange at post j that the category's own appointees did not fill
        (they clear the oldest first) and no partner took by exchange."""
        carried = self.seats.exchangeable.get((self.problem.posts[j], seat), 0)
        return carried - self.own_fills.get((j, seat), 0) - self.after_years_exchange.get((j, seat), 0)

    @cached_property
    def keys(self) -> np.ndarray:
        """Per candidate, where their seat stands in the procedure's order: (phase, the post's rank in their
        list, the compartment's precedence); (UNSELECTED, 0, 0) for one who holds nothing."""
        a = self.alloc
        out = np.zeros((self.problem.n, 3), dtype=np.int64)
        out[:, 0] = UNSELECTED
        chosen = np.flatnonzero(self.selected)
        rows = self.held[chosen].tolist()
        if len(chosen):
            out[chosen, 0] = [ROUTE_PHASE[a.route[r]] for r in rows]
            out[chosen, 1] = self.problem.ranking.ranks(chosen, np.asarray(a.post)[rows])
            out[chosen, 2] = [self.precedence.get(a.seat[r], 0) for r in rows]
        return out

    @cached_property
    def _rows_by_post(self) -> tuple[np.ndarray, np.ndarray]:
        return self.problem.ranking.rows_by_post()

    def applicants(self, j: int) -> tuple[np.ndarray, np.ndarray]:
        """Who ranked post j (ascending: merit order) and where each ranked it, read off the ranked rows by
        post (no n x P rank matrix: 640 MB and 1.8 s of a JoSAA-size verify)."""
        bounds, order = self._rows_by_post
        rows = order[bounds[j]:bounds[j + 1]]
        cand_row, _ = self.problem.ranking.rows
        who = cand_row[rows].astype(np.int64)
        return who, rows - self.problem.ranking.bounds[0][who]

    def place(self, j: int, code: str) -> tuple[np.ndarray, str]:
        """Each candidate's place in the merit list that ranks post j's `code` seats (0 the best;
        `solver.data.lists.ABSENT` where not on it), and the list's name ("" for the candidates' own merit: their
        order)."""
        p = self.problem
        k = p.list_of(j, code)
        if not k:
            return self._own_order, ""
        return p.lists.position[k], p.lists.names[k]

    @cached_property
    def _own_order(self) -> np.ndarray:
        """The candidates' own merit as places (made once: a post asks for it per appointee)."""
        out = np.arange(self.problem.n)
        out.flags.writeable = False
        return out

    def level(self, j: int, code: str) -> np.ndarray | None:
        """Where the policy admits candidates of the same rank together (`merit.same_rank = "supernumerary"`) and
        the list of post j's `code` seats has ties: each candidate's level on it (equal for the same rank); None
        otherwise."""
        return same_rank_level(self.policy, self.problem, j, code)

    def applied(self, j: int) -> np.ndarray:
        """Who ranked post j (a mask over candidates)."""
        return self.problem.ranking.ranked_by_post[j]

    @cached_property
    def compartment_route(self) -> np.ndarray:
        """Per allocation row, whether its route fills a compartment's own vacancies (`COMPARTMENT_ROUTES`)."""
        return np.isin(self.route, COMPARTMENT_ROUTES)


def same_rank_level(policy: Policy, problem: Problem, j: int, code: str) -> np.ndarray | None:
    """Each candidate's level on the list of post j's `code` seats (equal for the same rank), where the policy
    admits candidates of the same rank together (`merit.same_rank = "supernumerary"`) and that list has ties;
    None otherwise."""
    k = problem.list_of(j, code)
    if not k or policy.merit.same_rank != "supernumerary" or problem.lists.level is None:
        return None
    return problem.lists.level[k]


def tied_past(levels: np.ndarray, seats: int) -> bool:
    """Whether the holders past `seats` (`levels`: each holder's level on the seats' list) are all of the same rank
    as the last within them: seats over the number, as the same-rank rule makes them."""
    if seats <= 0:
        return False
    held = np.sort(levels)
    return bool((held[seats - 1:] == held[seats - 1]).all())
