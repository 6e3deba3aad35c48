"""The service allocation among the recommended, as `verify` reads it on its own (CSE Rule 16(2); Union of India
v. Ramesh Ram 2010): its classes of seats, who holds each, and the order in which candidates come to them."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from ..policy import Policy
from ..data.problem import Problem
from ..data.routes import NOT_RANKED, Route
from ..chain.vacancy.seats import SeatTable
from .allocation import Allocation, may_hold
from .horizontal import trait_masks


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
    listed: tuple = ()       # (candidate, category): recommended but without a post (`solver.verify.listed`)

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
                for j, post in enumerate(posts) for code in p.seat_codes}

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
    def list_minimums(self) -> dict[str, dict[str, tuple[int, np.ndarray]]]:
        """Per category, trait -> (its minimum summed over the posts, who counts for it): the list's minimums."""
        out: dict[str, dict[str, tuple[int, np.ndarray]]] = {}
        for code in self.policy.seat_codes:
            for j in range(len(self.problem.posts)):
                for t, m in self.held_for[(j, code)].items():
                    if m > 0:
                        have, ben = out.setdefault(code, {}).get(t, (0, self.counts(j, code, t)))
                        out[code][t] = (have + m, ben | self.counts(j, code, t))
        return out

    @cached_property
    def _held_traits(self) -> dict[str, tuple[int, dict[str, tuple[int, np.ndarray]]]]:
        """Per category: (its minimums' seats over every post, `list_minimums` of its held traits)."""
        out = {}
        for code, traits in self.list_minimums.items():
            if held := {t: v for t, v in traits.items() if t in self.policy.horizontal.held}:
                out[code] = (sum(m for m, _ in traits.values()), held)
        return out

    def kept_places(self, code: str, extra=()) -> int:
        """The list's places of category `code` held vacant: each held trait's minimum summed over the posts, less
        the beneficiaries recommended against the compartment (and among `extra`, more listed against it)."""
        _, traits = self._held_traits.get(code, (0, {}))
        mine, extra = self.sel == code, list(extra)
        return sum(max(0, m - int(np.count_nonzero(ben & mine)) - int(np.count_nonzero(ben[extra])))
                   for m, ben in traits.values())

    @cached_property
    def kept(self) -> dict[str, tuple[int, int, str]]:
        """Per category with held minimums (`horizontal.held`): (its held seats over every post, those the list
        leaves vacant, the traits). The list recommends against the compartment no more beneficiaries than it
        has, and a held seat is not given to another (PwD Act 1995 s.36: "such vacancy shall be carried
        forward"): each held trait's minimum summed over the posts, less the beneficiaries recommended against
        the compartment (`listed` among them), stays vacant."""
        out = {}
        for code, (total, traits) in self._held_traits.items():
            if vacant := self.kept_places(code, [i for i, c in self.listed if c == code]):
                out[code] = (total, vacant, " and ".join(traits))
        return out

    def as_listed(self, i: int, code: str, on_merit: bool = True) -> "ServiceSeats":
        """The same allocation read with candidate i, who holds no seat, recommended against `code` (on merit, or
        by horizontal adjustment): what she would have come to (`options`)."""
        sel = self.sel.copy()
        sel[i] = code
        other = replace(self, sel=sel)
        for k in ("masks", "held_for", "seat_of", "holders", "members", "freed", "_on_held", "kept"):
            if k in self.__dict__:   # (i holds no seat: none of these changes)
                other.__dict__[k] = self.__dict__[k]
        other.__dict__["on_merit"] = merit = self.on_merit.copy()
        merit[i] = on_merit
        return other

    @cached_property
    def _on_held(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for (_, code, kind), hs in self.holders.items():
            if kind != GENERAL:
                out.setdefault(code, []).extend(hs)
        return out

    def held_taken(self, code: str) -> list[int]:
        """Those on the compartment's held seats at every post: beneficiaries on them, and reverted to others."""
        return self._on_held.get(code, [])

    def held_full(self, code: str, i: int) -> bool:
        """Whether the compartment's held seats, candidate i's own aside, are as filled as the list lets them be
        (`kept`)."""
        if code not in self.kept:
            return False
        taken = self.held_taken(code)
        return len(taken) - taken.count(i) >= self.kept[code][0] - self.kept[code][1]

    @cached_property
    def members(self) -> dict[str, np.ndarray]:
        return {code: may_hold(self.policy, self.problem, code) for code in self.policy.reserved_codes}
