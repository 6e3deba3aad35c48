"""The immutable problem data every stage shares: candidates as arrays in merit order, the vacancy table,
preferences. Index ``i`` of every candidate array is the candidate's merit position (0 = best)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property

import numpy as np

from .frozen import freeze_dicts
from .ranking import Ranking
from .lists import MeritLists
from .seat_pools import SeatPool, Unheld

TRAITS = ("women", "pwbd", "ex_serviceman")


# The sub-categories of benchmark disability (RPwD Act 2016 s.34(1)): a, b, c, and d with e. Nobody is in two.
SUBCATEGORIES = ("pwbd_a", "pwbd_b", "pwbd_c", "pwbd_de")


def availed(kinds: np.ndarray, bars) -> np.ndarray:
    """Per candidate, whether the relaxations availed (';'-joined kinds, '' none) include one of `bars`."""
    wanted = set(bars)
    values, index = np.unique(kinds.astype(str), return_inverse=True)
    hit = np.array([bool(wanted & set(k.split(";"))) if k else False for k in values.tolist()], dtype=bool)
    return hit[index] if len(kinds) else np.zeros(0, dtype=bool)


@dataclass(frozen=True)
class Candidates:
    ids: np.ndarray          # object (str), merit order
    category: np.ndarray     # object (str), the candidate's own code
    female: np.ndarray       # bool
    creamy: np.ndarray       # bool
    relaxed: np.ndarray      # bool
    pwbd: np.ndarray         # object: '' or a..e
    ex_serviceman: np.ndarray  # bool
    score: np.ndarray | None  # float, when merit came as scores
    line: np.ndarray         # int: line of the row in candidates.csv (for messages)
    # Per candidate, the tie block of candidates whose merit only their ids order (equal score, and equal
    # birth date where that breaks ties): -1 for none. An id is not a rule of law (`solver.audit`).
    tied: np.ndarray | None = None
    # Found unfit by the selection or promotion committee (`fit` = false): appointed to nothing (Bill 2004 s.8(2)
    # proviso: "no candidate who is found unfit to hold the post shall be appointed"; Manipur Act 1976 s.9:
    # promoted "provided they possess the minimum qualifications"). None: everyone is fit.
    unfit: np.ndarray | None = None
    # Has the educational qualification but failed the prescribed test (`failed_test`): no vacancy but one on
    # probation (Manipur Act 1976 s.8(3), second proviso). None: nobody.
    failed_test: np.ndarray | None = None
    # The post each already holds from an earlier recruitment (`appointed`; '' none): he is not recommended for
    # it or for any post he ranks below it (MPSC circular of 13 May 2026, read from press summaries: the
    # upgrade-only rule). None: nobody.
    appointed: np.ndarray | None = None
    # What each candidate availed a relaxation in (`relaxed`: age, attempts, fee, qualifying, standard, ';'-joined
    # in that order; '' none); `relaxed` is whether one of them bars the open list at the final stage under the
    # policy read with (`migration.bars_open`). None: nobody named a kind (a true/false column).
    relaxations: np.ndarray | None = None
    # Each candidate's home state (`home_state`; '' none), which a quota by home state reads
    # (`solver.data.seat_pools`). None: nobody gave one.
    home_state: np.ndarray | None = None
    # The lists of a shortlist called apart (`shortlist.separate`: JSO, SI, others) each candidate was called in,
    # as a tuple of their names, where he was not called in every one (() where he was): he may hold only their
    # posts (`solver.exam.called`). None: the stage took no such shortlist.
    called_in: np.ndarray | None = None
    # Each candidate's rank in the whole merit list where these are some of its candidates (a later round's:
    # `solver.exam.later`), for the reasons to say (`solver.outcome.reasons`). None: their own order (index + 1).
    merit_rank: np.ndarray | None = None

    def relaxed_at(self, bars) -> np.ndarray:
        """Whether each availed a relaxation of a kind in `bars` (a stage's `migration.bars_open`); a plain true
        in the file is a relaxed standard ("standard")."""
        if self.relaxations is None:
            return self.relaxed & ("standard" in bars)
        return availed(self.relaxations, bars)

    @property
    def fit(self) -> np.ndarray:
        return ~self.unfit if self.unfit is not None else np.ones(len(self.ids), dtype=bool)

    @property
    def qualified(self) -> np.ndarray:
        """Fit, and passed the test: who may hold a vacancy other than on probation."""
        return self.fit & ~self.failed_test if self.failed_test is not None else self.fit

    def tie_blocks(self) -> np.ndarray:
        return self.tied if self.tied is not None else np.full(len(self.ids), -1, dtype=np.int64)

    def __len__(self) -> int:
        return len(self.ids)

    @cached_property
    def _category_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """The categories named, sorted, and each candidate's as an integer index into them (made once)."""
        names, index = np.unique(self.category.astype(str), return_inverse=True)
        return names, index.reshape(-1)

    def in_categories(self, *codes: str) -> np.ndarray:
        """Whether each candidate's own category is one of `codes`: compared as integer codes, a lookup per
        candidate, not a string comparison per candidate and code (a mask per category and kind of pool, over
        JoSAA's 172,782 candidates).

        Example
        -------
        >>> c = Candidates(np.array(["A", "B", "C"], dtype=object), np.array(["SC", "OPEN", "ST"], dtype=object),
        ...                *[np.zeros(3, bool)] * 3, np.array(["", "", ""], dtype=object), np.zeros(3, bool), None,
        ...                np.arange(2, 5))
        >>> c.in_categories("SC", "ST").tolist(), c.in_categories("OBC").tolist()
        ([True, False, True], [False, False, False])
        """
        names, index = self._category_codes
        return np.isin(names, list(codes))[index] if len(index) else np.zeros(0, dtype=bool)

    def trait(self, name: str) -> np.ndarray:
        """Who counts for a horizontal trait; `pwbd_a` .. `pwbd_c` and `pwbd_de` are the sub-categories of
        benchmark disability (RPwD Act 2016 s.34(1): a, b, c, and d with e)."""
        if name == "women":
            return self.female
        if name == "pwbd" or name.startswith("pwbd_"):
            # (a lookup of each candidate's code, as `in_categories`: a string comparison per candidate was 3 ms
            # a mask at JoSAA's size, asked for per seat pool)
            names, index = self._pwbd_codes
            hit = names != "" if name == "pwbd" else np.isin(names, list(name[5:]))
            return hit[index] if len(index) else np.zeros(0, dtype=bool)
        return self.ex_serviceman

    @cached_property
    def _pwbd_codes(self) -> tuple[np.ndarray, np.ndarray]:
        names, index = np.unique(self.pwbd.astype(str), return_inverse=True)
        return names, index.reshape(-1)


@dataclass(frozen=True)
class VacancyRow:
    post: str
    category: str
    vacancies: int
    minimums: dict[str, int] = field(default_factory=dict)  # horizontal trait -> minimum
    line: int = 0
    # TOTAL rows: the cadre's sanctioned posts (its roster's length) and the next unused point of its running
    # roster, for use without a register (with one, the register holds both).
    cadre: int | None = None
    roster_start: int | None = None
    # The ground on which the row's (open) vacancies are exempt from reservation, e.g. "work charged" (Bill 2004
    # s.4; Manipur s.3; Bihar s.3(1): `Policy.exemptions`); empty otherwise. They take no roster point and the ceiling does not see them.
    exempt: str = ""
    # The share of the post's grade filled by direct recruitment (promotion only: Bill 2004 s.3(2)); None if
    # not given.
    direct_share: float | None = None
    # The post's class, as the policy's `probation.post_classes` names them (e.g. "III-non-technical").
    post_class: str = ""
    # A district- or division-level post's district (Bihar s.4(2) first proviso; Maharashtra s.4(2), (4)): its
    # vacancies are split by that district's percentages. Empty for a State cadre.
    district: str = ""
    # Promotion: the class (Group) of the grade the post is filled from (Bill 2004 s.3(2)(b): by selection
    # "from Group B post to Group A post"); empty if not given.
    feeder_class: str = ""
    # The merit list that ranks the post's applicants (`solver.data.lists`); empty: the candidates' own merit.
    merit_list: str = ""
    # The post's seat pool (`solver.data.seat_pools`: program, quota, gender pool, trait); None: the post is its
    # own program. `supernumerary`: the row's seats are over the notified number (JoSAA's female-only seats).
    pool: SeatPool | None = None
    supernumerary: bool = False

    def __post_init__(self):
        freeze_dicts(self)


@dataclass(frozen=True)
class Problem:
    candidates: Candidates
    posts: tuple[str, ...]              # in file order
    vacancy_rows: tuple[VacancyRow, ...]
    # prefs[i] = post indices in order of preference; None = every post in file order for everyone.
    preferences: tuple[np.ndarray, ...] | None = None
    sources: dict[str, str] = field(default_factory=dict)  # role -> path, for messages
    # Merit lists besides the candidates' own (a ranks file): None where every post ranks by the candidates' own.
    lists: MeritLists | None = None
    # Each candidate's preferences as he gave them, where a rule cut `preferences` to the posts open to him (the
    # shortlist's lists called apart: `solver.exam.called`): the reasons say where he ranked a post in his own
    # list. None: `preferences` are as given.
    stated: tuple[np.ndarray, ...] | None = None
    # True where no preferences were given, yet a rule cut `preferences` from every post in the file's order: the
    # candidates ranked nothing, and the reasons name no rank.
    file_order: bool = False
    # Programs ranked that stand for no seat pool the candidate may hold, left out of his list: counted in the
    # places his reasons say (`seat_pools.Unheld`). None: none.
    unheld: Unheld | None = None

    @property
    def n(self) -> int:
        return len(self.candidates)

    @cached_property
    def ranking(self) -> Ranking:
        """The preferences and their views (rows, rank matrix, who ranked each post), each made when first
        asked for."""
        return Ranking(self.preferences, self.n, len(self.posts))

    @cached_property
    def stated_ranking(self) -> Ranking:
        """Where each candidate ranked each post in his own list (`stated`), as `ranking` reads `preferences`."""
        return Ranking(self.stated, self.n, len(self.posts)) if self.stated is not None else self.ranking

    @cached_property
    def post_index(self) -> dict[str, int]:
        """post -> its index in `posts` (read, not changed, by whoever asks)."""
        return {p: j for j, p in enumerate(self.posts)}

    @cached_property
    def program_of(self) -> np.ndarray | None:
        """Each post's program, as an index, where posts are seat pools of programs (`solver.data.seat_pools`);
        None where each post is its own."""
        if not any(r.pool for r in self.vacancy_rows):
            return None
        program = {r.post: r.pool.program for r in self.vacancy_rows if r.pool}
        index: dict[str, int] = {}
        return np.array([index.setdefault(program.get(p, p), len(index)) for p in self.posts], dtype=np.int64)

    def places(self, cands, posts) -> np.ndarray:
        """Where each candidate ranked each post in his own list (0 = first, NOT_RANKED where he did not), as
        his reasons say it (`stated_ranking`): where posts are seat pools, the place he gave the pool's program
        among the programs he ranked, not the pool's place among the pools they stand for (a woman's first
        program stands for its gender-neutral pool, then its female-only one: both ranked 1st). A program that
        stands for no pool he may hold is not in his list (`seat_pools.expand`), yet counted: the programs after
        it are told the place he gave them (`unheld`)."""
        if self.program_of is None or self.preferences is None:
            return self.stated_ranking.ranks(cands, posts)
        place = self.stated_ranking.places(cands, posts, self.program_of)
        return place if self.unheld is None else self.unheld.places(cands, place)

    @property
    def post_rank(self) -> np.ndarray:
        """n x P matrix: position of post p in candidate i's list (0 = first), large when not ranked.
        Made once per problem, when first asked for (it is n x P: 640 MB at JoSAA size)."""
        return self.ranking.post_rank

    @cached_property
    def post_classes(self) -> dict[str, str]:
        """post -> its class (vacancies.csv `post_class`, one per post; "" where not given)."""
        return {row.post: row.post_class for row in self.vacancy_rows}

    def reordered(self, order: np.ndarray) -> "Problem":
        """The problem with candidate order[k] at merit position k: an order a tie allows (`solver.audit`), or
        the candidates of a later round in their merit order (a sorted subset: `solver.exam.fill`)."""
        c, n = self.candidates, self.n
        moved = {f.name: getattr(c, f.name)[order] for f in fields(c)
                 if isinstance(getattr(c, f.name), np.ndarray) and len(getattr(c, f.name)) == n}
        prefs = None if self.preferences is None else tuple(self.preferences[k] for k in order)
        lists = None if self.lists is None else self.lists.reordered(order)
        stated = None if self.stated is None else tuple(self.stated[k] for k in order)
        unheld = None if self.unheld is None else self.unheld.reordered(order, n)
        return replace(self, candidates=replace(c, **moved), preferences=prefs, lists=lists, stated=stated,
                       unheld=unheld)

    @cached_property
    def post_lists(self) -> tuple[int, ...]:
        """Per post, the index in `lists` of a list that ranks it (the first its rows name; 0: none, the
        candidates' own merit for every category). `list_of` gives each category's."""
        if self.lists is None:
            return (0,) * len(self.posts)
        named: dict[str, str] = {}
        for row in self.vacancy_rows:
            if row.merit_list:
                named.setdefault(row.post, row.merit_list)
        return tuple(self.lists.index(named.get(post, "")) for post in self.posts)

    @cached_property
    def _row_lists(self) -> dict[tuple[str, str], int]:
        """(post, category or TOTAL) -> the index of the list its row names (rows naming none left out); and
        (post, None) -> the one list every row of the post names, where they agree (0: none names one)."""
        if self.lists is None:
            return {}
        out = {(row.post, row.category): self.lists.index(row.merit_list) for row in self.vacancy_rows
               if row.merit_list}
        named: dict[str, set[int]] = {}
        for row in self.vacancy_rows:
            named.setdefault(row.post, set()).add(out.get((row.post, row.category), 0))
        out.update({(post, None): next(iter(k)) for post, k in named.items() if len(k) == 1})
        return out

    def list_of(self, j: int, category: str) -> int:
        """The list that ranks post j's `category` seats: its row's (a category's own rank list, as JoSAA's
        category rank lists), else the post's TOTAL row's, else the list all the post's rows name (a category
        with no row of its own in a later round: the post still ranks by its list), else 0 (the candidates'
        own merit)."""
        rows, post = self._row_lists, self.posts[j]
        if not rows:
            return 0
        return rows.get((post, category), rows.get((post, "TOTAL"), rows.get((post, None), 0)))

    def list_name(self, j: int, category: str) -> str:
        """The name of `list_of(j, category)` as vacancies.csv's `merit_list` writes it ("" the candidates' own
        merit)."""
        return self.lists.names[self.list_of(j, category)] if self.lists is not None else ""

    @cached_property
    def post_pools(self) -> tuple[SeatPool | None, ...]:
        """Per post, its seat pool (`solver.data.seat_pools`); None for a post that is its own program."""
        pool = {row.post: row.pool for row in self.vacancy_rows}
        return tuple(pool.get(post) for post in self.posts)

    @property
    def ranked(self) -> np.ndarray:
        """n x P bool: whether candidate i ranked post p (everyone ranks every post without preferences)."""
        return self.ranking.ranked
