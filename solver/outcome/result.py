"""From an assignment back to the law's terms (the inverse of stage 2): which vacancy each appointee fills,
what it counts against, by which route, and what became of every unfilled vacancy."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..chain.compartment import held_vacancies
from ..chain.engines import Assignment
from ..policy import Policy
from ..chain.pools import DERESERVED, EXCHANGE, FALLBACK, OPEN_MERIT, PROBATION, Pools
from ..data.problem import Problem
from ..data.routes import Route
from ..chain.vacancy import SeatTable
from .cutoffs import CUTOFF_COLUMNS, cutoff_rows
from .unfilled import disposition_rows

ALLOCATION_COLUMNS = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
DECISION_COLUMNS = ["candidate_id", "selected", "post", "reason"]
UNFILLED_COLUMNS = ["post", "category", "vacancies", "filled", "unfilled", "disposition"]


@dataclass
class Result:
    policy: Policy
    problem: Problem
    seats: SeatTable
    pools: Pools
    assignment: Assignment
    engine: str

    # Each appointee's vacancy, and the unfilled rows, worked out when first read: a round of counselling solved
    # again only to see who is placed where (`solver.exam.slide`) never reads them (0.3 s a solve at JoSAA size).
    @cached_property
    def _attributed(self) -> tuple[np.ndarray, np.ndarray, list]:
        return attribute(self.policy, self.seats, self.pools, self.assignment)

    # object per candidate: the category of the vacancy each holds ('' when not selected); the phase-0 pool whose
    # vacancy each appointee fills; unfilled.csv's rows
    seat_category = property(lambda self: self._attributed[0])
    source_pool = property(lambda self: self._attributed[1])
    dispositions = property(lambda self: self._attributed[2])

    @cached_property
    def _horizontal(self) -> list:
        return overall_labels(self) if self.seats.overall else horizontal_labels(self.pools, self.assignment)

    @property
    def selected(self) -> np.ndarray:
        return self.assignment.pool >= 0

    def counted_as(self, i: int, route: str | None = None) -> str:
        """What appointee i's selection counts against (`route`: hers, where already known)."""
        p = self.pools.pools[self._held[i]]
        sel = self.pools.selection
        if sel is not None and sel.category[i] != p.category:
            # Rule 16(2) crossings; Ramesh Ram 2010 leaves the count to the policy (migration.upgraded_counts_as).
            as_reserved = self.policy.migration.upgraded_counts_as == "reserved"
            if p.category == self.policy.open:      # a reserved-selected candidate on an open vacancy an upgrade freed
                return self.policy.open if as_reserved else sel.category[i]
            return p.category if as_reserved else self.policy.open
        route = route or self.route(i)
        if route in (OPEN_MERIT, DERESERVED):
            return self.policy.open
        if route in (EXCHANGE, FALLBACK):
            return self.problem.candidates.category[i]  # the appointee counts against their own category
        return p.category

    def horizontal(self, i: int) -> str:
        return self._horizontal[i]

    def serves(self, i: int) -> list[str]:
        """The traits whose minimums appointee i's seat serves (several when appointees count for each)."""
        return [t for t in self._horizontal[i].split(";") if t]

    def route(self, i: int) -> str:
        if self._adjusted[i]:
            return Route.HORIZONTAL_ADJUSTMENT
        p = self.pools.pools[self._held[i]]
        sel = self.pools.selection
        if sel is not None:
            if sel.category[i] == p.category:
                return sel.route[i]
            return Route.UPGRADE if p.category != self.policy.open else Route.RESERVED
        return p.route

    def horizontal_report(self) -> list[dict]:
        """Each horizontal minimum and how it was met: per compartment, or per post when minimums are overall
        (counting the beneficiaries on the post's open and own-category seats)."""
        a, c, posts = self.assignment, self.problem.candidates, self.problem.posts
        out = []
        for (post, trait), m in self.seats.overall.items():
            at = _phase0_at(self, post)
            ben = c.trait(trait)[at]
            out.append({"post": post, "category": "all", "trait": trait, "minimum": m, "held": int(ben.sum()),
                        "by_adjustment": int((ben & a.adjusted[at]).sum()), "short": max(0, m - int(ben.sum()))})
        if self.seats.overall:
            return out
        if self.pools.selection is not None:
            return self._held_seats_report()
        for p in self.pools:
            if not p.minimums:
                continue
            holders = np.flatnonzero(a.pool == p.index)
            for t, m in p.minimums.items():
                served = holders[[t in self.serves(int(i)) for i in holders]]
                out.append({"post": posts[p.post], "category": p.category, "trait": t, "minimum": m,
                            "held": len(served), "by_adjustment": int(a.adjusted[served].sum()),
                            "short": m - len(served)})
        return out

    def _held_seats_report(self) -> list[dict]:
        """After a recommendation list: each post's minimums, as the seats held for them (`solver.chain.selection`), and
        how many beneficiaries recommended by adjustment hold them."""
        a, posts = self.assignment, self.problem.posts
        sel = self.pools.selection
        out = []
        for (post, code, t), m in self.seats.minimums.items():
            if m <= 0:
                continue
            j = posts.index(post)
            held = np.flatnonzero(np.isin(a.pool, [p.index for p in self.pools if p.post == j and p.serves == t
                                                   and p.category == code]))
            out.append({"post": post, "category": code, "trait": t, "minimum": m, "held": len(held),
                        "by_adjustment": int((sel.route[held] == Route.HORIZONTAL_ADJUSTMENT).sum()),
                        "short": m - len(held)})
        return out

    @cached_property
    def procedure_differences(self) -> list[dict]:
        """Where appointees count for each trait they have: the compartments whose best set (by the definition
        taken here) differs from what the procedure as written would select from the same candidates
        (`solver.chain.compartment.procedure`), with who only the procedure would select and who only the rule
        does. For the reader who must answer "why not the procedure?"."""
        from ..chain.engines.assignment import available
        from ..chain.compartment import procedure
        a, ids, out = self.assignment, self.problem.candidates.ids, []
        filled = a.filled(len(self.pools))
        for p in self.pools:
            if not p.counts_each:
                continue
            written = procedure(p, available(self.pools, a.pool, p), p.capacity(filled))[0]
            held = np.flatnonzero(a.pool == p.index)
            if not np.array_equal(np.sort(written), held):   # (written: in the order of the pool's list)
                out.append({"post": self.problem.posts[p.post], "category": p.category,
                            "procedure_only": [ids[i] for i in np.setdiff1d(written, held)],
                            "rule_only": [ids[i] for i in np.setdiff1d(held, written)]})
        return out

    def selected_by_own_category(self) -> dict[tuple[str, str], int]:
        """(post, the appointees' own category) -> appointees, open merit included."""
        posts, cat = self.problem.posts, self.problem.candidates.category
        out: dict[tuple[str, str], int] = {}
        for i in np.flatnonzero(self.selected):
            key = (posts[self.held_post[i]], str(cat[i]))
            out[key] = out.get(key, 0) + 1
        return out

    def to_frames(self) -> dict:
        """allocation, decisions, cutoffs and unfilled as pandas DataFrames, with the output files' columns; the
        cut-offs typed (`last_rank` a nullable integer, `last_score` a float, missing where nobody was admitted),
        where the file writes text."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Result.to_frames needs pandas: pip install pandas") from None
        from .reasons import decision_rows
        return {"allocation": pd.DataFrame(list(self.allocation_rows()), columns=ALLOCATION_COLUMNS),
                "decisions": pd.DataFrame(list(decision_rows(self)), columns=DECISION_COLUMNS),
                "cutoffs": _typed_cutoffs(pd.DataFrame(self.cutoffs(), columns=CUTOFF_COLUMNS)),
                "unfilled": pd.DataFrame(self.dispositions, columns=UNFILLED_COLUMNS)}

    def allocation_rows(self) -> list[list]:
        """The rows of allocation.csv, in merit order (made once: the file and summary.json's counts read them)."""
        return self._allocation

    @cached_property
    def _allocation(self) -> list[list]:
        sel = np.flatnonzero(self.selected)
        # (lists of the appointees' fields, not numpy scalars read one at a time: 62,851 rows at JoSAA size)
        ids, seat, labels = (np.asarray(a)[sel].tolist() for a in (self.problem.candidates.ids, self.seat_category,
                                                                     self._horizontal))
        post_of = [self.problem.posts[p.post] for p in self.pools.pools]
        out = []
        for k, i in enumerate(sel.tolist()):
            route = self.route(i)
            out.append([ids[k], post_of[self._held[i]], seat[k], self.counted_as(i, route), labels[k], route, i + 1])
        return out

    @cached_property
    def held_post(self) -> np.ndarray:
        """Each candidate's post (an index into `problem.posts`), -1 where he holds none."""
        return np.append(self.pools.columns[1], -1)[self.assignment.pool]

    @cached_property
    def _held(self) -> list[int]:
        """The pool each candidate holds (-1: none), as Python ints: read one at a time, per appointee."""
        return self.assignment.pool.tolist()

    @cached_property
    def _adjusted(self) -> list[bool]:
        return self.assignment.adjusted.tolist()

    def cutoffs(self):
        """Per post and seat category: how many filled and the last (worst) merit admitted; for a post ranked by a
        list of its own (`Problem.lists`), the last rank on that list, and no score (the list's own). A pair with
        seats and nobody in them has a row too."""
        post_of = self.held_post
        sel = np.flatnonzero(self.selected)
        held = zip(sel.tolist(), post_of[sel].tolist(), np.asarray(self.seat_category, dtype=object)[sel].tolist())
        codes = self.policy.seat_codes
        offered = {(j, code) for j, post in enumerate(self.problem.posts) for code in codes
                   if self.seats.cap(post, code)}
        return cutoff_rows(self.problem, codes, held, offered)


def _typed_cutoffs(frame):
    import pandas as pd
    frame["last_rank"] = pd.to_numeric(frame["last_rank"].replace("", None)).astype("Int64")
    frame["last_score"] = pd.to_numeric(frame["last_score"].replace("", None)).astype("float64")
    return frame


def _holders_by_pool(pool: np.ndarray, n_pools: int) -> list[np.ndarray]:
    """Holders of each pool in merit order, from one sort instead of a scan per pool."""
    sel = np.flatnonzero(pool >= 0)
    order = sel[np.argsort(pool[sel], kind="stable")]
    bounds = np.searchsorted(pool[order], np.arange(n_pools + 1))
    return [order[bounds[k]:bounds[k + 1]] for k in range(n_pools)]


def _phase0_at(result: "Result", post: str) -> np.ndarray:
    """Who holds one of the post's open or own-category seats (phase 0), where overall minimums count."""
    j = result.problem.posts.index(post)
    here = [p.index for p in result.pools if p.post == j and p.phase == 0]
    return np.flatnonzero(np.isin(result.assignment.pool, here))


def overall_labels(result: "Result") -> np.ndarray:
    """Under overall minimums, the appointees who serve a post's minimum: on its open and own-category seats,
    those placed by adjustment, then the others in merit order, up to the minimum (one trait per post)."""
    a, c = result.assignment, result.problem.candidates
    out = np.full(len(a.pool), "", dtype=object)
    for (post, trait), m in result.seats.overall.items():
        at = _phase0_at(result, post)
        ben = at[c.trait(trait)[at]]
        out[np.r_[ben[a.adjusted[ben]], ben[~a.adjusted[ben]]][:m]] = trait
    return out


def horizontal_labels(pools: Pools, a: Assignment) -> np.ndarray:
    """The trait whose minimum each appointee's seat serves (where appointees count for each trait they have,
    every such trait up to its minimum's seats, ';'-separated). Otherwise each serves at most one trait, and the
    seats are matched to the minimums as fully as the holders allow: appointees placed by adjustment first,
    then the others in merit order, each by an augmenting path (Kuhn 1955) over the traits they count for."""
    out = np.full(len(a.pool), "", dtype=object)
    for p in pools:
        if p.serves:
            out[a.pool == p.index] = p.serves
        if not p.minimums:
            continue
        holders = np.flatnonzero(a.pool == p.index)
        order = np.r_[holders[a.adjusted[holders]], holders[~a.adjusted[holders]]]
        if p.counts_each:
            # each appointee serves every minimum they count for, up to its seats: adjustments first
            for t, m in p.minimums.items():
                for i in order[p.beneficiary[t][order]][:m]:
                    out[i] = f"{out[i]};{t}" if out[i] else t
            continue
        seats: dict[str, list[int]] = {t: [] for t in p.minimums}

        def place(i: int, seen: set) -> bool:
            for t in p.minimums:
                if not p.beneficiary[t][i] or t in seen:
                    continue
                seen.add(t)
                if len(seats[t]) < p.minimums[t]:
                    seats[t].append(i)
                    return True
                for k, j in enumerate(seats[t]):
                    if place(j, seen):
                        seats[t][k] = i
                        return True
            return False

        for i in order.tolist():
            place(i, set())
        for t, held in seats.items():
            out[held] = t
    return out


def attribute(policy: Policy, seats: SeatTable, pools: Pools, a: Assignment):
    """Seat category of each appointee, the phase-0 pool whose vacancy each fills, and the disposition rows
    of unfilled.csv.

    A later-phase pool (exchange, fallback, de-reservation) fills the vacancies its earlier pools (`minus`)
    left, taking them in the order listed there: policy order of the source categories."""
    n = len(a.pool)
    seat = np.full(n, "", dtype=object)
    source = np.full(n, -1, dtype=np.int64)
    rows = []
    holders_of = _holders_by_pool(a.pool, len(pools))
    vacant = held_vacancies(pools, a.pool)      # (kept vacant for a held minimum: no later phase took them)
    left = {p.index: p.base - len(holders_of[p.index]) - int(vacant[p.index]) for p in pools if p.phase == 0}
    kept = dict(pools.selection.kept) if pools.selection is not None else {}
    by_post: dict[int, list] = {}
    for p in pools:
        by_post.setdefault(p.post, []).append(p)
    for j, post in enumerate(seats.posts):
        at = sorted(by_post.get(j, []), key=lambda p: (p.phase, p.precedence))
        own: dict[str, int] = {}
        moved: dict[tuple[str, str], int] = {}
        for p in at:
            holders = holders_of[p.index]
            if p.phase == 0 or pools.selection is not None:
                # (after a recommendation list every phase fills the pool's own category's vacancies)
                seat[holders] = p.category
                source[holders] = p.index
                own[p.category] = own.get(p.category, 0) + len(holders)
                continue
            disp = "dereserved" if p.route == DERESERVED else "exchanged"
            for i in holders:
                q = next(q for q in p.minus if left.get(q, 0) > 0)
                left[q] -= 1
                seat[i], source[i] = pools.pools[q].category, q
                if p.route == PROBATION:   # filled by the category's own member (Manipur s.8(3))
                    own[seat[i]] = own.get(seat[i], 0) + 1
                else:
                    moved[(seat[i], disp)] = moved.get((seat[i], disp), 0) + 1
        rest: dict[str, int] = {}
        if pools.selection is not None and pools.selection.kept:
            _kept_at(seats, post, at, holders_of, own, moved, rest, kept)
        if pools.selection is None:
            for p in at:
                if p.phase == 0:
                    rest[p.category] = rest.get(p.category, 0) + max(0, left[p.index])
                    moved[p.category, "held_vacant"] = moved.get((p.category, "held_vacant"), 0) + int(vacant[p.index])
        rows += disposition_rows(policy, seats, post, own, moved, rest)
    return seat, source, rows


def _kept_at(seats: SeatTable, post: str, at: list, holders_of, own: dict, moved: dict, rest: dict,
             kept: dict) -> None:
    """After a recommendation list, the held seats at `post` left vacant, as many as the list kept vacant in each
    compartment (`kept`, drawn down post by post): a compartment's held seats (its minimums at the post) less
    those its trait and reverted pools filled."""
    for code in list(kept):
        seats_held = sum(m for (q, c, _), m in seats.minimums.items() if q == post and c == code)
        took = sum(len(holders_of[p.index]) for p in at if p.category == code and (p.serves or p.phase >= 4))
        k = min(kept[code], max(0, seats_held - took))
        if k:
            kept[code] -= k
            moved[code, "held_vacant"] = k
            rest[code] = seats.cap(post, code) - own.get(code, 0) - k
