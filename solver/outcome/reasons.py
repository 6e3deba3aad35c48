"""A plain-words reason for every candidate's outcome (decisions.csv), e.g.
"rank 812 is below the OBC cutoff at ASO (rank 640, ranked 3rd)" or
"rank 235: selected at P06 (ranked 1st) under Rule 16(2), against an EWS vacancy; the open cutoff there is rank 232"."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..chain.compartment import held_vacancies
from ..chain.engines.assignment import natural_tops
from ..chain.pools import DERESERVED, EXCHANGE, FALLBACK, OPEN_MERIT, PROBATION, held_positions
from ..chain.pools.lists import pairs_before
from ..chain.selection import MERGED
from ..data.routes import NOT_RANKED, Route
from ..data.lists import ABSENT
from ..data.sorting import distinct_pairs
from ..data.words import article
from .bars import barred, ordinal, unmet_overall

if TYPE_CHECKING:
    from .result import Result   # (the type only: result imports this module when it writes decisions)


# The reason of one who ranked posts he may hold, none with a vacancy (a later round offers no seat that those
# who froze or kept theirs hold: `solver.exam.round_reasons` says so after it).
NO_SEAT = "the posts this candidate ranked have no vacancy he may hold"


@lru_cache(maxsize=None)
def _ranked(r: int) -> str:
    """Where a candidate ranked a post (r = 0 for her first choice), as the reasons say it."""
    return f" (ranked {ordinal(r + 1)})" if r < NOT_RANKED else " (not ranked)"


def ranked_words(r: np.ndarray) -> np.ndarray:
    """`_ranked` of each of `r` as an object array, every rank below NOT_RANKED worded once."""
    top = int(r[r < NOT_RANKED].max(initial=-1)) + 1
    return np.array([_ranked(x) for x in range(top)] + [_ranked(NOT_RANKED)], dtype=object)[np.minimum(r, top)]


def seat_kind(p) -> str:
    """A pool's seats as the reasons name them: open, a category, an exchange, a fallback, de-reserved."""
    if p.route == OPEN_MERIT:
        return "open"
    if p.route == EXCHANGE:
        return f"{'/'.join(p.sources)} exchange"
    if p.route == FALLBACK:
        return f"{p.sources[0]}-to-{p.sources[1]} fallback"
    if p.route == DERESERVED:
        return "de-reserved"
    if p.route == PROBATION:
        return f"{p.category} probation"
    return p.category


def decision_rows(result: Result):
    sel = result.pools.selection
    first = list(decision_rows(sel.stage)) if sel is not None else None
    for i, row in enumerate(_rows(result)):
        if first is not None and row[1] == "false" and sel.category[i] == "":
            row = [row[0], "false", "", first[i][3]]
        elif first is not None and row[1] == "true":
            if sel.route[i] == Route.HORIZONTAL_ADJUSTMENT:
                row[3] += f"; recommended as {sel.category[i]} by horizontal adjustment"
            else:
                row[3] += ("; recommended on open merit" if sel.category[i] == result.policy.open
                           else f"; recommended as {sel.category[i]}")
        yield row


class _Standing:
    """What every reason reads: each pool's capacity, fill, worst holder (`last`), worst holder on merit
    (`last_merit`), the end of its natural merit top (`tops`), and each candidate's list of pools."""

    def _last_on_lists(self, placed: np.ndarray) -> None:
        """A pool ranked by a list of its own: its worst holder on that list (one sort of the holders by pool)."""
        pools, a = self.pools, self.a
        listed = placed[np.array([pools[int(k)].merit_list for k in a.pool[placed]], dtype=np.int64) > 0] \
            if len(placed) else placed
        by_pool = listed[np.argsort(a.pool[listed], kind="stable")]
        cuts = np.flatnonzero(np.diff(a.pool[by_pool])) + 1
        adjusted = bool(a.adjusted[listed].any())    # (JoSAA's 62,000 pools have none: one pass, not two)
        for held in np.split(by_pool, cuts) if len(by_pool) else []:
            k = int(a.pool[held[0]])
            self.last[k] = self.last_merit[k] = held[np.argmax(self.lists.position[pools[k].merit_list, held])]
            if adjusted:    # (under a minimum, the worst on merit, not by adjustment)
                merit = held[~a.adjusted[held]]
                self.last_merit[k] = merit[np.argmax(self.lists.position[pools[k].merit_list, merit])] \
                    if len(merit) else -1

    def _full_before(self, pi: np.ndarray, start: np.ndarray, at_held: np.ndarray) -> np.ndarray:
        """Positions in the preference lists of the full pools each candidate preferred to what she got, at most
        four each."""
        full = np.array([bool(c and self.last[k] >= 0 and self.filled[k] >= c) for k, c in enumerate(self.caps)],
                        dtype=bool)
        return pairs_before(full, pi, start, at_held, 4)

    def __init__(self, result: Result):
        pools, a = result.pools.pools, result.assignment
        self.result, self.pools, self.a = result, pools, a
        self.posts = result.problem.posts
        n = result.problem.n
        # (a seat kept vacant for a held minimum counts as taken: the pool is full to those it leaves out)
        self.vacant = held_vacancies(result.pools, a.pool)
        self.filled = a.filled(len(pools)) + self.vacant
        self.last = np.full(len(pools), -1)
        self.last_merit = np.full(len(pools), -1)
        placed = np.flatnonzero(a.pool >= 0)
        np.maximum.at(self.last, a.pool[placed], placed)
        on_merit = placed[~a.adjusted[placed]]
        np.maximum.at(self.last_merit, a.pool[on_merit], on_merit)
        self.lists = result.problem.lists if result.pools.several_lists else None
        if self.lists is not None:
            self._last_on_lists(placed)
        self.caps = [p.capacity(self.filled) for p in pools]
        self.tops = {k: (int(t[-1]) if len(t) else -1)
                     for k, t in natural_tops(result.pools, a.pool, self.vacant).items()}
        # (the merit top of the whole compartment where a held minimum kept seats vacant: who those seats cost)
        self.held_tops = {k: (int(t[-1]) if len(t) else -1) for k, t in natural_tops(
            result.pools, a.pool, np.zeros_like(self.vacant)).items() if self.vacant[k]} if self.vacant.any() else {}
        ci, pi = result.pools.preference_lists()
        start, end, at_held = held_positions(result.pools, a.pool)
        self.pi, self.start, self.end = pi, start, end
        self.run_of = np.full(n, -1, dtype=np.int64)     # candidate -> his run of pairs in (ci, pi)
        self.run_of[ci[start]] = np.arange(len(start))
        listed = np.zeros(n, dtype=bool)   # candidates with a pool they may hold
        listed[ci[start]] = True
        self.listed = listed.tolist()
        # The full pools each candidate preferred to what she got, at most four, in her order: what `_missed`
        # names. Found by walking every list at once from the top, four found or the held pair reached (a pool
        # before it is full but for a minimum's choices, so the walk is short; a mask over JoSAA's 31 million
        # pairs and its running counts made the run's peak).
        idx = self._full_before(pi, start, at_held)
        self.missed_pool = pi[idx]
        # The rank in her list of each post named: the missed ones, and the one she holds.
        self.post_of = result.pools.columns[1]
        # (where the candidate ranked each post in his own list, though a rule cut it, and a program, not its
        # seat pools: `Problem.places`)
        missed_rank = result.problem.places(ci[idx], self.post_of[pi[idx]])
        self.missed_rank = missed_rank.tolist()
        held_rank = np.full(n, -1, dtype=np.int64)
        held_rank[placed] = result.problem.places(placed, self.post_of[a.pool[placed]])
        self.held_rank = held_rank.tolist()
        self.missed_from = np.searchsorted(ci[idx], np.arange(n)).tolist()
        self.missed_to = np.searchsorted(ci[idx], np.arange(n), side="right").tolist()
        self.seat_category = result.seat_category.tolist()
        # Each candidate's rank as the reasons say it: his place in the whole merit list, where a later round's
        # problem holds some of its candidates (`Candidates.merit_rank`), else index + 1.
        shown = result.problem.candidates.merit_rank
        self.rank = (np.arange(1, n + 1) if shown is None else shown).tolist()
        self.how_cache: dict = {}
        self.where_cache: dict = {}
        self.took_cache: dict = {}
        self.held_cache: dict = {}
        self.cutoff_parts: dict = {}
        self.missed_text = self._missed_cutoffs(missed_rank)

    def _missed_cutoffs(self, rank: np.ndarray) -> list[str | None]:
        """Each missed merit cutoff worded, all at once: head, where the candidate ranked it, tail, joined as object
        arrays (JoSAA's half a million, where a comprehension took 0.6 s); None where the pool has minimums or a
        list of its own, whose wording depends on the candidate (`_missed`). Each (pool, place) worded once: a
        counselling's 573,048 missed cutoffs are 21,249 such. `rank`: `missed_rank` as an array."""
        pools = self.pools
        one, back = distinct_pairs(self.missed_pool, rank)
        k, r = self.missed_pool[one], rank[one]
        head, tail = np.full(len(pools), "", dtype=object), np.full(len(pools), "", dtype=object)
        worded, shown = np.zeros(len(pools), dtype=bool), np.zeros(len(pools), dtype=bool)
        for q in np.unique(k).tolist():
            if not pools[q].minimums and not pools[q].merit_list:
                head[q], shown[q], tail[q] = self._cutoff_parts(q)
                worded[q] = True
        text = head[k] + np.where(shown[k], ranked_words(r), "") + tail[k]
        text[~worded[k]] = None
        return text[back.reshape(-1)].tolist()

    def any_seat(self, i: int) -> bool:
        """Whether a pool candidate i may hold at a post he ranked has a vacancy at all (`_not_selected`: where
        none has, it is not better merit that kept him out)."""
        k = int(self.run_of[i])
        return k >= 0 and any(self.caps[q] > 0 for q in self.pi[self.start[k]:self.end[k]].tolist())

    def how(self, i: int, got: int, route: str, r: int) -> str:
        """"at P06 (ranked 1st) under Rule 16(2), against an EWS vacancy": where and how appointee i holds pool
        `got` by `route`, ranked r-th. The words before and after the rank made once per pool, route and seat
        (62,851 selected at JoSAA size; a counselling's 77,679 hold 50,000 such and rank alike), but for a
        horizontal adjustment, which names the traits she serves."""
        seat = self.seat_category[i]
        key = (got, route, seat)
        if route == Route.HORIZONTAL_ADJUSTMENT or key not in self.how_cache:
            p, result = self.pools[got], self.result
            after = f" {_how(route, p, seat, result, i)}"
            if result.pools.selection is not None and p.phase >= 4:
                after += ", on a seat held for a horizontal minimum that no beneficiary took (reverted last)"
            if route == Route.HORIZONTAL_ADJUSTMENT:
                return self.where(p, r) + after
            self.how_cache[key] = after
        return self.where(self.pools[got], r) + self.how_cache[key]

    def where(self, p, r: int) -> str:
        """At p's post, and where the candidate ranked it (r, from `missed_rank` or `held_rank`); the post's words
        made once per pool."""
        if p.index not in self.where_cache:
            self.where_cache[p.index] = (self._at(p), self._shows_rank(p))
        at, shows = self.where_cache[p.index]
        return at + _ranked(r) if shows else at

    def cutoff(self, k: int, r: int) -> str:
        """"the OBC cutoff at ASO (ranked 3rd) (rank 640)": pool k's merit cutoff, missed by one who ranked it
        r-th."""
        head, shows_rank, tail = self._cutoff_parts(k)
        return head + _ranked(r) + tail if shows_rank else head + tail

    def rank_on(self, p, i: int) -> str:
        """"rank 3", or "rank 3 on list paper2": candidate i's rank on the list that ranks pool p."""
        if not p.merit_list:
            return f"rank {self.rank[int(i)]}"
        return f"rank {int(p.place_of(i)) + 1} on list {self.lists.names[p.merit_list]}"

    def list_cutoff(self, k: int, r: int, i: int) -> str:
        """"the open cutoff at JSO (ranked 1st) (rank 3 on list paper2, where this candidate is 7th)": pool k,
        ranked by a list of its own, missed by candidate i."""
        p = self.pools[k]
        place = self.lists.position[p.merit_list]
        name = self.lists.names[p.merit_list]
        return (f"the {seat_kind(p)} cutoff {self.where(p, r)} (rank {place[self.last[k]] + 1} on list {name}, where "
                f"this candidate is {'not ranked' if place[i] >= ABSENT else ordinal(int(place[i]) + 1)})")

    def _cutoff_parts(self, k: int) -> tuple[str, bool, str]:
        """Pool k's cutoff wording before and after the rank, and whether it shows one: made once per pool (JoSAA
        names half a million missed cutoffs)."""
        if k not in self.cutoff_parts:
            p = self.pools[k]
            self.cutoff_parts[k] = (f"the {seat_kind(p)} cutoff {self._at(p)}", self._shows_rank(p),
                                    f" (rank {self.rank[self.last[k]]}{self.held_elsewhere(p)})")
        return self.cutoff_parts[k]

    def _at(self, p) -> str:
        post = self.posts[p.post]
        return "in the recommendation list" if post == MERGED else f"at {post}"

    def _shows_rank(self, p) -> bool:
        return not self.result.pools.common_order and not self.result.problem.file_order and \
            self.posts[p.post] != MERGED

    def held_elsewhere(self, p) -> str:
        """After a recommendation list: the seats of p's compartment at its post held for a minimum."""
        if self.result.pools.selection is None or p.serves or p.phase >= 4:
            return ""
        if p.index not in self.held_cache:
            self.held_cache[p.index] = "".join(
                f"; {m} more held for {t}" for (q, code, t), m in self.result.seats.minimums.items()
                if q == self.posts[p.post] and code == p.category and m > 0)
        return self.held_cache[p.index]


def _rows(result: Result):
    st = _Standing(result)
    notes = barred(result)
    for mask, why in unmet_overall(result):
        for i in np.flatnonzero(mask & (st.a.pool < 0)).tolist():
            notes.setdefault(i, []).append(why)
    ids, post_of = result.problem.candidates.ids.tolist(), [st.posts[p.post] for p in st.pools]
    for i, got in enumerate(st.a.pool.tolist()):
        missed = st.missed_text[st.missed_from[i]:st.missed_to[i]]
        if None in missed:
            text = _selected(st, i, got, _missed(st, i)) if got >= 0 else _not_selected(st, i, _missed(st, i))
        elif got >= 0:
            text = _selected(st, i, got, missed)
        elif missed:   # (the common case, merit cutoffs only: `_not_selected` without its rewording)
            text = f"rank {st.rank[i]} is below {'; '.join(missed)}"
        else:
            text = _not_selected(st, i, missed)
        if i in notes:
            text += " (" + "; ".join(notes[i]) + ")"
        yield [ids[i], "true" if got >= 0 else "false", post_of[got] if got >= 0 else "", text]


def _missed(st: _Standing, i: int) -> list[str]:
    """The full pools candidate i preferred to what they got: the cutoff of each (merit, or, under a minimum,
    the displacement by it), at most four."""
    at = slice(st.missed_from[i], st.missed_to[i])
    missed = st.missed_text[at]
    if None not in missed:
        return missed
    missed = []
    for k, r, text in zip(st.missed_pool[at].tolist(), st.missed_rank[at], st.missed_text[at]):
        p = st.pools[k]
        if text is not None:
            missed.append(text)
            continue
        if p.merit_list and not p.minimums:
            missed.append(st.list_cutoff(k, r, i))
            continue
        ben = [t for t, mask in p.beneficiary.items() if mask[i]]
        took = _adjusted_for(p, st.a, st.took_cache)
        traits = " and ".join([t for t in took if t not in ben] or took)
        if p.counts_each:
            # the best set may trade a beneficiary of one trait for one who serves several
            traits = " and ".join(p.minimums) + ", each appointee counting for every trait they have"
        at = p.place_of          # (places on the pool's merit list: its own, or the candidates' merit)
        if kept := _kept_out(st, p, k, i, r):
            missed.append(kept)
        elif p.minimums and at(i) <= at(st.tops[k]):
            # Within the merit top, yet out: a minimum, not merit, kept this one out.
            cut = f"merit cutoff {st.rank_on(p, st.last_merit[k])}" if st.last_merit[k] >= 0 else \
                "no seat left on merit"
            missed.append(f"displaced from {seat_kind(p)} {st.where(p, r)} by the minimum for {traits} ({cut})")
        elif p.minimums and at(i) < at(st.last[k]):
            missed.append(f"the {seat_kind(p)} merit cutoff {st.where(p, r)} ({st.rank_on(p, st.tops[k])}; the seats "
                          f"after it went by adjustment to {traits})")
        else:
            missed.append(st.list_cutoff(k, r, i) if p.merit_list else st.cutoff(k, r))
    return missed


def _kept_out(st: _Standing, p, k: int, i: int, r: int) -> str:
    """Where pool k kept seats vacant for a held minimum (`horizontal.held`) and candidate i, who counts for none
    of its held traits, was within its merit top but for them: that, in words; else ""."""
    if k not in st.held_tops or p.place_of(i) > p.place_of(st.held_tops[k]) or \
            any(p.beneficiary[t][i] for t in p.held):
        return ""
    held, v = " and ".join(p.held), int(st.vacant[k])
    return (f"displaced from {seat_kind(p)} {st.where(p, r)} by {'a seat' if v == 1 else f'{v} seats'} held vacant for "
            f"{held}, which no {held} candidate could fill: carried forward ({st.result.policy.horizontal.held_source})")


def _selected(st: _Standing, i: int, got: int, missed: list[str]) -> str:
    route = st.result.route(i)
    text = f"rank {st.rank[i]}: selected {st.how(i, got, route, st.held_rank[i])}"
    if missed:
        text += "; " + "; ".join(("was " if m.startswith("displaced") else "below ") + m for m in missed[:3])
    return text


def _how(route: Route, p, seat: str, result: Result, i: int) -> str:
    """How a selected candidate holds her seat, by the route (only the one needed is worded: 62,851 selected at
    JoSAA size)."""
    if route == Route.OPEN_MERIT:
        return "on open merit"
    if route == Route.RESERVED and p.category == result.policy.open and result.pools.selection is not None:
        mine = result.pools.selection.category[i]
        return (f"against an open vacancy that a Rule 16(2) upgrade into {mine} freed (Union of India v. Ramesh Ram "
                f"2010), counted as {result.counted_as(i, route)} (migration.upgraded_counts_as = "
                f"{result.policy.migration.upgraded_counts_as})")
    if route == Route.RESERVED:
        return f"against {article(p.category)} {p.category} vacancy"
    if route == Route.UPGRADE:
        return f"under Rule 16(2), against {article(p.category)} {p.category} vacancy"
    if route == Route.EXCHANGE:
        return f"against {article(seat)} {seat} vacancy passed by exchange"
    if route == Route.FALLBACK:
        return f"against {article(p.sources[0])} {p.sources[0]} vacancy passed down the fallback chain"
    if route == Route.DERESERVED:
        return f"against a de-reserved {seat} vacancy"
    if route == Route.PROBATION:
        return (f"on probation against {article(seat)} {seat} vacancy left after every other way of filling it "
                "(failed the prescribed test; Manipur Act 1976 s.8(3), second proviso)")
    if route == Route.HORIZONTAL_ADJUSTMENT:
        return (f"against {article(p.category)} {p.category} vacancy by horizontal adjustment for "
                f"{' and '.join(result.serves(i))}")
    raise KeyError(route)


def _not_selected(st: _Standing, i: int, missed: list[str]) -> str:
    if not st.listed[i]:
        return f"rank {st.rank[i]}: there is no vacancy this candidate may hold"
    if missed:
        text = f"rank {st.rank[i]} is below " + "; ".join(missed[:4])
        return text.replace("is below displaced", "was displaced").replace("; displaced", "; was displaced")
    if not st.any_seat(i):
        return f"rank {st.rank[i]}: {NO_SEAT}"
    return f"rank {st.rank[i]}: every vacancy this candidate may hold was filled by better merit or left none"


def _adjusted_for(pool, a, cache: dict) -> list[str]:
    """The minimums of `pool` that its appointees by adjustment serve (all of them when none is marked): under
    overall minimums a compartment's minimum also keeps beneficiaries merit put there, who displaced nobody."""
    if pool.index not in cache:
        mine = np.flatnonzero((a.pool == pool.index) & a.adjusted)
        cache[pool.index] = [t for t in pool.minimums if pool.beneficiary[t][mine].any()] or list(pool.minimums)
    return cache[pool.index]
