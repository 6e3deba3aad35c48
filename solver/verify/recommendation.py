"""Two-stage checks for a recommendation list drawn before service allocation (CSE Rule 16(2); Union of
India v. Ramesh Ram 2010)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..policy import Policy
from ..data.problem import Problem
from ..data.routes import NOT_RANKED, Route
from ..chain.vacancy.seats import SeatTable
from .allocation import Allocation, Violation, may_hold
from .cadre import verify_cadre
from .horizontal import trait_masks
from .reading import Reading


SRC_SERVICE = "CSE Rule 16(2); Union of India v. Ramesh Ram 2010"
SRC_HELD = "Anil Kumar Gupta 1995; OM 15.01.2018; CSE Rule 16(2)"
GENERAL, REVERT = "general", "revert"   # a class's kind besides a trait's held seats


@dataclass(frozen=True)
class ServiceSeats:
    """The service allocation among the recommended (CSE Rule 16(2); Ramesh Ram 2010), merit-cum-preference:
    open-selected candidates choose first (open vacancies, or an own-category vacancy at a post they prefer);
    then reserved-selected candidates (own category, or open vacancies freed by upgrades into their category,
    no more than those upgrades). Posts a candidate did not rank come after all ranked ones.

    A post's horizontal minimums are seats of their own in the compartment (the allocation's `horizontal`
    column names the trait a holder's seat is held for), for beneficiaries recommended against it, taken
    before the compartment's other seats at that post; upgrades and freed open vacancies take neither them
    nor a candidate recommended by horizontal adjustment. Held seats nobody took revert after every other
    allocation to the compartment's candidates still without a post (open-selected first).

    Seats come in classes (post, category, kind: a trait's held seats, the other seats (GENERAL), or the
    reverted ones (REVERT)), offered in phases: 0 open-selected at ranked posts, 1 at others, 2 reserved-
    selected at ranked posts, 3 at others, 4 and 5 the reverted seats."""

    policy: Policy
    problem: Problem
    seats: SeatTable
    alloc: Allocation
    sel: np.ndarray          # per candidate, the category recommended against ('' = not recommended)

    @cached_property
    def sel_open(self) -> np.ndarray:
        return self.sel == self.policy.open

    @cached_property
    def held_for(self) -> dict[tuple[int, str], dict[str, int]]:
        """(post, category) -> trait -> seats held for it: the compartment's minimums as one cadre reads them."""
        return {key: {t: m.minimum for t, m in ms.items()} for key, ms in self.masks.items()}

    @cached_property
    def masks(self) -> dict:
        posts, p = self.problem.posts, self.policy
        return {(j, code): trait_masks(p, self.problem, self.seats, post, code)
                for j, post in enumerate(posts) for code in [p.open, *p.reserved_codes]}

    def counts(self, j: int, code: str, t: str) -> np.ndarray:
        return self.masks[(j, code)][t].counts

    def phase(self, i: int, j: int, code: str, kind: str) -> int:
        """The phase in which candidate i comes to the class (post j, code, kind)."""
        if kind == REVERT:
            return 4 if self.sel_open[i] else 5
        if self.sel_open[i]:
            return 0 if self.problem.ranked[i, j] or code != self.policy.open else 1
        return 2 if self.problem.ranked[i, j] else 3

    @cached_property
    def seat_of(self) -> dict[int, tuple[int, str, str]]:
        """Each holder's class: a held seat by the `horizontal` column, else the other seats, or, beyond them,
        the reverted ones (those who came last to the post's compartment)."""
        a, out = self.alloc, {}
        rows_at: dict[tuple[int, str], list[int]] = {}
        for r, i in enumerate(a.cand.tolist()):
            j, code, t = int(a.post[r]), a.seat[r], a.horizontal[r]
            if t and t in self.held_for[(j, code)]:
                out[i] = (j, code, t)
            else:
                rows_at.setdefault((j, code), []).append(i)
        for (j, code), hs in rows_at.items():
            general = self.seats.cap(self.problem.posts[j], code) - sum(self.held_for[(j, code)].values())
            hs.sort(key=lambda h: (self.phase(h, j, code, GENERAL), h))
            for k, h in enumerate(hs):
                out[h] = (j, code, GENERAL if k < general else REVERT)
        return out

    @cached_property
    def holders(self) -> dict[tuple[int, str, str], list[int]]:
        out: dict[tuple[int, str, str], list[int]] = {}
        for i, key in self.seat_of.items():
            out.setdefault(key, []).append(i)
        return out

    def capacity(self, j: int, code: str, kind: str) -> int:
        mins = self.held_for[(j, code)]
        if kind == GENERAL:
            return self.seats.cap(self.problem.posts[j], code) - sum(mins.values())
        if kind == REVERT:
            return sum(mins.values()) - sum(len(self.holders.get((j, code, t), ())) for t in mins)
        return mins.get(kind, 0)

    @cached_property
    def freed(self) -> tuple[dict[str, int], dict[str, list[int]]]:
        """Per reserved category, the upgrades into it (open-selected on its vacancies) and the reserved-
        selected of it on open vacancies."""
        by = {code: 0 for code in self.policy.reserved_codes}
        to: dict[str, list[int]] = {code: [] for code in self.policy.reserved_codes}
        for i, (j, code, kind) in self.seat_of.items():
            if self.sel_open[i] and code != self.policy.open:
                by[code] += 1
            if not self.sel_open[i] and code == self.policy.open:
                to[self.sel[i]].append(i)
        return by, to

    def options(self, i: int) -> list[tuple]:
        """Classes candidate i may hold, in the order the procedure offers them: (phase, the post's rank in
        i's list, the class's place at the post, post, code, kind)."""
        p, sel = self.policy, self.sel
        if sel[i] == "":
            return []
        ranked = self.problem.ranked
        rank = np.where(ranked[i], self.problem.post_rank[i], NOT_RANKED + np.arange(len(self.problem.posts)))
        on_merit = self.on_merit[i]
        member = self.members
        opts = []
        for j in range(len(self.problem.posts)):
            if not ranked[i, j] and not p.migration.allocate_unranked:
                continue
            mine = sel[i]
            traits = self.held_for[(j, mine)]
            for u, t in enumerate(traits):
                if self.counts(j, mine, t)[i]:
                    opts.append((self.phase(i, j, mine, t), rank[j], u, j, mine, t))
            opts.append((self.phase(i, j, mine, GENERAL), rank[j], len(traits), j, mine, GENERAL))
            if traits:
                opts.append((self.phase(i, j, mine, REVERT), rank[j], 0, j, mine, REVERT))
            if not on_merit:
                continue
            if self.sel_open[i] and p.migration.upgrade and ranked[i, j]:
                opts += [(0, rank[j], len(traits) + k, j, code, GENERAL)
                         for k, code in enumerate(p.reserved_codes, 1) if member[code][i]]
            elif not self.sel_open[i]:
                opts.append((self.phase(i, j, p.open, GENERAL), rank[j], 1 << 10, j, p.open, GENERAL))
                if self.held_for[(j, p.open)]:
                    opts.append((5, rank[j], 1 << 10, j, p.open, REVERT))
        return sorted(opts)

    @cached_property
    def on_merit(self) -> np.ndarray:
        """Per candidate: not recommended by horizontal adjustment (only those may cross by Rule 16(2))."""
        out = np.ones(self.problem.n, dtype=bool)
        for r, i in enumerate(self.alloc.cand.tolist()):
            out[i] = self.alloc.route[r] != Route.HORIZONTAL_ADJUSTMENT
        return out

    @cached_property
    def members(self) -> dict[str, np.ndarray]:
        return {code: may_hold(self.policy, self.problem, code) for code in self.policy.reserved_codes}




def held_seats_to_their_beneficiaries(s: ServiceSeats) -> list[Violation]:
    """A seat held for a post's minimum goes to a beneficiary recommended against its compartment; a
    `horizontal` label names a minimum the compartment has (Anil Kumar Gupta 1995; OM 15.01.2018)."""
    a, posts, ids, out = s.alloc, s.problem.posts, s.problem.candidates.ids, []
    for r, i in enumerate(a.cand.tolist()):
        j, code, t = int(a.post[r]), a.seat[r], a.horizontal[r]
        if t and t in s.held_for[(j, code)]:
            if not (s.counts(j, code, t)[i] and s.sel[i] == code):
                out.append(Violation("held horizontal seat of one not recommended for it", ids[i], posts[j],
                                     f"a {code} seat held for {t}: the candidate is not a {t} beneficiary "
                                     f"recommended against {code}", SRC_HELD))
        elif t:
            out.append(Violation("horizontal seat without a minimum", ids[i], posts[j], f"no {t} minimum in {code} "
                                 f"at {posts[j]}", SRC_HELD))
    return out


def class_capacities(s: ServiceSeats) -> list[Violation]:
    """No class holds more than its seats: a trait's held seats, the other seats, the reverted ones."""
    out = []
    for (j, code, kind), hs in sorted(s.holders.items()):
        cap = s.capacity(j, code, kind)
        if len(hs) > cap:
            what = "seats reverted from unfilled held seats" if kind == REVERT else f"{kind} seats"
            out.append(Violation("over capacity", "", s.problem.posts[j], f"{len(hs)} appointees on {cap} {code} "
                                 f"{what}", SRC_HELD))
    return out


def upgrade_budget(s: ServiceSeats) -> list[Violation]:
    """Rule 16(2)'s budget: reserved-selected candidates on open vacancies, no more than the upgrades into
    their category freed."""
    by, to = s.freed
    return [Violation("open vacancies beyond those upgrades freed", "", "", f"{len(to[code])} {code}-selected on "
                      f"open vacancies, {by[code]} upgrades into {code}", SRC_SERVICE)
            for code in s.policy.reserved_codes if len(to[code]) > by[code]]


def merit_cum_preference(s: ServiceSeats) -> list[Violation]:
    """Nobody is passed over for a class they come to before their own seat while it has room (a wasted
    vacancy) or a holder who came to it later (justified envy)."""
    posts, ids, out = s.problem.posts, s.problem.candidates.ids, []
    by, to = s.freed
    for i in np.flatnonzero(s.sel != "").tolist():
        mine = s.seat_of.get(i)
        for ph, _, _, j, code, kind in s.options(i):
            if (j, code, kind) == mine:
                break
            cap = s.capacity(j, code, kind)
            if cap <= 0:
                continue
            if code == s.policy.open and not s.sel_open[i]:
                # A freed open vacancy: only while upgrades into the category left one to those ahead of i.
                ahead = sum(1 for h in to[s.sel[i]] if h != i and (s.phase(h, *s.seat_of[h]), h) < (ph, i))
                if ahead >= by[s.sel[i]]:
                    continue
            hs = s.holders.get((j, code, kind), [])
            rivals = [h for h in hs if (s.phase(h, j, code, kind), h) > (ph, i)]
            what = f"{code} vacancies" + ("" if kind == GENERAL else " reverted from held seats" if kind == REVERT
                                          else f" held for {kind}")
            source = SRC_SERVICE if kind == GENERAL else SRC_HELD
            if len(hs) < cap:
                out.append(Violation("vacancy left while an eligible candidate wanted it", ids[i], posts[j],
                                     f"{cap - len(hs)} {what} unfilled", source))
            elif rivals:
                h = max(rivals)
                out.append(Violation("justified envy", ids[i], posts[j], f"rank {i + 1} passed over for rank "
                                     f"{h + 1} ({ids[h]}) on {what}", source))
    return out


SERVICE_RULES = (held_seats_to_their_beneficiaries, class_capacities, upgrade_budget, merit_cum_preference)


def service_allocation(policy, problem, seats, alloc, sel) -> list[Violation]:
    """Every rule of the service allocation among the recommended (`ServiceSeats`, `SERVICE_RULES`)."""
    s = ServiceSeats(policy, problem, seats, alloc, sel)
    return [v for rule in SERVICE_RULES for v in rule(s)]


def recommended_as(policy: Policy, problem: Problem, alloc: Allocation) -> np.ndarray:
    """The category each appointee was recommended against, read off the allocation: open for open merit,
    de-reservation and upgrades (Rule 16(2) upgrades open-selected candidates); a reserved-selected candidate
    on an open vacancy freed by an upgrade was recommended against their own category; a de-reserved
    appointee against the reserved vacancy it fills."""
    sel = np.full(len(problem.candidates), "", dtype=object)
    for r, i in enumerate(alloc.cand):
        route, seat = alloc.route[r], alloc.seat[r]
        if route in (Route.OPEN_MERIT, Route.UPGRADE):
            sel[i] = policy.open
        elif route == Route.RESERVED and seat == policy.open:
            sel[i] = problem.candidates.category[i]
        else:
            sel[i] = seat
    return sel


def recommendation_list(policy, problem, seats, alloc, sel, unplaced=()) -> list[Violation]:
    """The recommendation list is a single-cadre recruitment over every post's vacancies: check it as one, with
    the recommended whom no ranked post could take (`listed_unplaced`) on it."""
    totals: dict[tuple[str, str], int] = {}
    for (_, code), k in seats.seats.items():
        totals[("ALL", code)] = totals.get(("ALL", code), 0) + k
    prefs = None
    if not policy.migration.allocate_unranked:
        prefs = tuple(np.array([0] if ok else [], dtype=np.int32) for ok in competes_for_list(policy, problem, seats))
    merged_problem = Problem(problem.candidates, ("ALL",), (), prefs, problem.sources)
    minimums: dict[tuple[str, str, str], int] = {}
    for (_, code, t), m in seats.minimums.items():
        minimums[("ALL", code, t)] = minimums.get(("ALL", code, t), 0) + m
    merged_seats = SeatTable(("ALL",), totals, minimums)
    merged = _merged_allocation(policy, problem, alloc, sel, unplaced)
    single = policy.model_copy(update={"migration": policy.migration.model_copy(update={"selection_list": False})})
    found = verify_cadre(single, merged_problem, merged, merged_seats)  # the merged list is one cadre
    return [Violation(f"recommendation list: {x.rule}", x.candidate, "", x.detail, x.source) for x in found
            if x.rule not in ("ceiling broken", "seats not as given")]   # (both checked on the posts' own seats)


def _merged_allocation(policy, problem, alloc, sel, unplaced) -> Allocation:
    """The recommendation list as one cadre's allocation, in merit order: each recommended candidate against the
    category recommended for, an upgrade read as the open selection it was, and the listed without a post."""
    rows = np.flatnonzero(sel[alloc.cand] != "")
    route = [Route.OPEN_MERIT if alloc.route[r] == Route.UPGRADE else alloc.route[r] for r in rows]
    seat = [sel[alloc.cand[r]] for r in rows]
    counted = [policy.open if s == policy.open or alloc.route[r] == Route.DERESERVED else
               (problem.candidates.category[alloc.cand[r]] if alloc.route[r] in (Route.EXCHANGE, Route.FALLBACK) else s)
               for r, s in zip(rows, seat)]
    cand, ids = alloc.cand[rows].tolist(), [alloc.ids[r] for r in rows]
    for i, code in unplaced:
        cand.append(i)
        ids.append(str(problem.candidates.ids[i]))
        seat.append(code)
        counted.append(code)
        route.append(Route.OPEN_MERIT if code == policy.open else Route.RESERVED)
    order = np.argsort(cand, kind="stable").tolist()
    return Allocation(np.array(cand, dtype=np.int64)[order], np.zeros(len(cand), dtype=np.int64),
                      [seat[k] for k in order], [counted[k] for k in order], [""] * len(cand),
                      [route[k] for k in order], [ids[k] for k in order])


def two_stages(r: Reading) -> list[Violation]:
    """A recommendation list and the service allocation among the recommended, each checked by its rules
    (CSE Rule 16(2); Union of India v. Ramesh Ram 2010)."""
    sel = recommended_as(r.policy, r.problem, r.alloc)
    unplaced = ()
    if r.problem.preferences is not None and not r.policy.migration.allocate_unranked:
        unplaced = listed_unplaced(r.policy, r.problem, r.seats, r.alloc, sel)
    return [*recommendation_list(r.policy, r.problem, r.seats, r.alloc, sel, unplaced),
            *service_allocation(r.policy, r.problem, r.seats, r.alloc, sel)]


def competes_for_list(policy: Policy, problem: Problem, seats: SeatTable) -> np.ndarray:
    """Allocated only to posts they ranked, only those who could hold a vacancy at a post they ranked compete for
    the list."""
    can = np.zeros(len(problem.candidates), dtype=bool)
    for code in [policy.open, *policy.reserved_codes]:
        has = np.array([seats.cap(p, code) > 0 for p in problem.posts])
        can |= may_hold(policy, problem, code) & (problem.ranked & has).any(axis=1)
    return can


def listed_unplaced(policy: Policy, problem: Problem, seats: SeatTable, alloc: Allocation, sel) -> list[tuple[int, str]]:
    """Allocated only to posts they ranked (`migration.allocate_unranked` false), a recommended candidate whom no
    ranked post could take is left without a post, the vacancy to the reserve list: the list holds candidates the
    allocation does not show. The list's places the allocation leaves empty go, in merit order, to those not
    allocated whom no ranked post could take as the posts were filled (each vacancy they could hold as listed
    held by someone above them), open places first (open first on merit: Indra Sawhney 1992). Leaving such a
    candidate off the list, or on it, changes no one's post. Returns (candidate, category listed against)."""
    holders: dict[tuple[int, str], list[int]] = {}
    for i, j, seat in zip(alloc.cand.tolist(), alloc.post.tolist(), alloc.seat):
        holders.setdefault((j, seat), []).append(i)
    codes = [policy.open, *policy.reserved_codes]
    eligible = {code: may_hold(policy, problem, code) for code in codes}
    places = {code: sum(k for (_, c), k in seats.seats.items() if c == code) - int((sel == code).sum())
              for code in codes}
    competes = competes_for_list(policy, problem, seats)
    cat, out = problem.candidates.category, []
    for i in np.flatnonzero((sel == "") & competes).tolist():
        own = str(cat[i])
        code = next((c for c in (policy.open, own) if c in eligible and eligible[c][i] and places[c] > 0), None)
        if code is None:
            continue
        # what one listed against `code` may hold: its vacancies, and, listed open on merit, a vacancy of their own
        # category at a post they prefer where the policy allows it (Rule 16(2))
        kinds = [code] + ([own] if code == policy.open and policy.migration.upgrade and own in eligible
                          and own != code and eligible[own][i] else [])
        if _could_take(problem, seats, holders, i, kinds):
            continue   # the service allocation's to judge
        places[code] -= 1
        out.append((i, code))
    return out


def _could_take(problem: Problem, seats: SeatTable, holders: dict, i: int, kinds: list[str]) -> bool:
    """Whether a post i ranked has a vacancy of one of `kinds` empty or held by someone below i."""
    for j in np.flatnonzero(problem.ranked[i]).tolist():
        for code in kinds:
            cap, hs = seats.cap(problem.posts[j], code), holders.get((j, code), [])
            if cap > 0 and (len(hs) < cap or max(hs) > i):
                return True
    return False
