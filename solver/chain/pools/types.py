"""The pools' data: a `Pool` (vacancies at one post filled on merit from one eligible set, its capacity linear in
earlier pools' fills), a `Shared` bound over several pools, and `Pools`, the phases of a recruitment's pools
with the candidates' preference lists over them (`solver.chain.pools.lists`)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from ...data.frozen import freeze_dicts
from ...data.ranking import Ranking
from ...data.routes import Route

OPEN_MERIT, RESERVED, EXCHANGE, FALLBACK, DERESERVED, PROBATION = (
    Route.OPEN_MERIT, Route.RESERVED, Route.EXCHANGE, Route.FALLBACK, Route.DERESERVED, Route.PROBATION)


@dataclass(frozen=True)
class Pool:
    index: int
    post: int
    route: str
    phase: int
    precedence: int
    sources: tuple[str, ...]          # categories whose vacancies the pool fills
    admits: np.ndarray                # bool over candidates (merit order): whom the pool's rules admit
    base: int
    minus: tuple[int, ...] = ()
    minimums: dict[str, int] = field(default_factory=dict)  # trait -> minimum (phase 0 only)
    beneficiary: dict[str, np.ndarray] = field(default_factory=dict)  # trait -> bool mask counted
    carried: bool = False             # holds the register's carried vacancies open to exchange partners
    # trait -> who may come in by adjustment, when not every beneficiary may (overall minimums: the open
    # compartment counts every beneficiary but takes by adjustment only those of no reserved category)
    incoming: dict[str, np.ndarray] = field(default_factory=dict)
    counts_each: bool = False         # several traits, an appointee counting for every trait they have
    serves: str = ""                  # the trait whose minimum the pool's seats are held for (service allocation)
    # trait -> this year's seats of its minimum that stay vacant when its beneficiaries do not fill them
    # (`horizontal.held`; the minimum's carried seats revert): `solver.chain.compartment.held_vacant`
    held: dict[str, int] = field(default_factory=dict)
    # the candidates' lists, whose `ranked_by_post` row of the post says who ranked it; None: `admits` is the
    # eligible set as it stands
    ranked_by: Ranking | None = None
    merit_list: int = 0               # the list that orders the pool's applicants (`Pools.lists`; 0: own merit)
    # each candidate's place in that list (`solver.data.lists`); None: the candidates' own order (their index)
    place: np.ndarray | None = None
    # the eligible set itself as candidate indices (ascending), where a pool holds a few of many: the certificate's
    # pools, cut to the pairs that can refute an assignment (at JoSAA size 27,465 masks over 172,782 candidates,
    # 4.7 GB, most holding a handful). `admits` stays the rules' admission, of which these are some.
    members: np.ndarray | None = None

    def in_order(self, who: np.ndarray) -> np.ndarray:
        """`who` (candidate indices) in the order of the pool's merit list."""
        return who if self.place is None else who[np.argsort(self.place[who], kind="stable")]

    def place_of(self, who):
        """Each of `who` (candidate indices, or one) as a place on the pool's merit list (0 the best): the
        candidate's own index where the pool ranks by the candidates' own merit. Ascending along `in_order`."""
        return who if self.place is None else self.place[who]

    def __post_init__(self):
        freeze_dicts(self)

    @property
    def ranked(self) -> np.ndarray | None:
        """bool over candidates: who ranked the pool's post; None where `admits` is the eligible set as it stands.
        Read off the candidates' lists when first asked (an n x P matrix: a round of counselling solved again
        made one of 600 MB each time, for the reasons only its last solve writes)."""
        return None if self.ranked_by is None else self.ranked_by.ranked_by_post[self.post]

    @property
    def eligible(self) -> np.ndarray:
        """bool over candidates: who may hold the pool, those it admits who ranked its post (or its `members`).
        Made when first read and kept: JoSAA's 4,635 pools are 800 MB of masks, which the greedy's path (reading
        the lists, made from `admits` and the ranked rows) never needs. A pool of `members` makes it afresh each
        time, for the few readers that want a mask (`who` is what the models read)."""
        if self.members is not None:
            mask = np.zeros(len(self.admits), dtype=bool)
            mask[self.members] = True
            return mask
        if (kept := self.__dict__.get("_eligible")) is None:
            kept = self.__dict__["_eligible"] = self.admits if self.ranked is None else self.admits & self.ranked
        return kept

    def who(self) -> np.ndarray:
        """The candidates who may hold the pool, as indices in ascending order (`eligible`'s)."""
        return self.members if self.members is not None else np.flatnonzero(self.eligible)

    @property
    def category(self) -> str:
        return self.sources[0]

    def capacity(self, filled: np.ndarray) -> int:
        """Vacancies this pool offers once earlier pools are filled: ``base - sum(filled[minus])``."""
        return max(0, self.base - int(sum(filled[q] for q in self.minus)))


@dataclass(frozen=True)
class Shared:
    """A bound several pools share: their fills together stay within ``base + sum(filled[plus]) -
    sum(filled[minus])``. The recommendation list uses it for open vacancies at a post held by several
    categories, and for the open vacancies a category may take: as many as upgrades took of its own."""

    members: tuple[int, ...]
    base: int
    plus: tuple[int, ...] = ()
    minus: tuple[int, ...] = ()

    def room(self, filled: np.ndarray) -> int:
        return self.base + int(filled[list(self.plus)].sum()) - int(filled[list(self.minus)].sum()) \
            - int(filled[list(self.members)].sum())


@dataclass(frozen=True)
class Pools:
    pools: tuple[Pool, ...]
    ranking: Ranking        # each candidate's ranked posts (Problem.ranking)
    common_order: bool      # every candidate ranks posts the same way (no preferences file)
    selection: "object | None" = None  # solver.chain.selection.Selection when a recommendation list came first
    shared: tuple[Shared, ...] = ()
    lists: "object | None" = None      # solver.data.lists.MeritLists where some post ranks by a list of its own

    @cached_property
    def same_rank(self) -> bool:
        """Some list has candidates of the same rank (`MeritLists.level`): the same-rank rule applies."""
        return self.several_lists and self.lists.level is not None

    @cached_property
    def several_lists(self) -> bool:
        """Some pool orders its applicants by a list other than the candidates' own merit."""
        return self.lists is not None and any(p.merit_list for p in self.pools)

    def __iter__(self):
        return iter(self.pools)

    def __len__(self):
        return len(self.pools)

    @property
    def post_rank(self) -> np.ndarray:
        """n x P: position of each post in each candidate's list (`Ranking.post_rank`)."""
        return self.ranking.post_rank

    @property
    def merit_only(self) -> bool:
        """Every candidate orders pools alike, no bound is shared and one merit list orders every pool: pools
        can be filled one by one."""
        return self.common_order and not self.shared and not self.several_lists

    @cached_property
    def minimums_with_preferences(self) -> bool:
        """Horizontal minimums with ranked preferences: several stable assignments exist (a compartment may take
        a beneficiary who would rather be elsewhere), and the candidate-optimal one is the rule."""
        return not self.merit_only and any(p.minimums for p in self.pools)

    @cached_property
    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Phase, post and precedence of every pool, as arrays (the parts of `order_key` a pool fixes)."""
        return tuple(np.array([getattr(p, name) for p in self.pools], dtype=np.int64)
                     for name in ("phase", "post", "precedence"))

    def order_key(self, pool: Pool, i: int):
        """Preference of candidate i for pool: smaller is better."""
        return (pool.phase, self.ranking.rank(i, pool.post), pool.precedence)

    def preference_lists(self, members: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(candidate, pool) pairs of eligibility (int32), sorted by candidate and then by the candidate's
        preference: phase, post, and the pool's place at that post (open before own category before extra
        eligibility). Those of every pool are computed once (the greedy, the certificate and the reasons all
        read them); treat them as read-only."""
        ci, pi = self._all_lists
        if members is None or len(set(members)) == len(self.pools):
            return ci, pi
        # (a subset of a sorted list, filtered, stays sorted: the keys are the same)
        wanted = np.zeros(len(self.pools), dtype=bool)
        wanted[members] = True
        keep = wanted[pi]
        return ci[keep], pi[keep]

    def take_lists(self, earlier, kept: np.ndarray) -> bool:
        """Read the preference lists off an earlier solve's (`solver.chain.pools.reuse.EarlierLists`) where
        they are the same over fewer candidates (`kept`: theirs there, ascending). Returns whether they were."""
        from .reuse import lists_of_fewer
        if "_all_lists" in self.__dict__ or (lists := lists_of_fewer(self, earlier, kept)) is None:
            return False
        self.seed_lists(*lists)
        return True

    def seed_lists(self, ci: np.ndarray, pi: np.ndarray) -> None:
        """Take (ci, pi) as these pools' preference lists, where the caller knows them: the pairs an earlier set of
        pools listed, cut down to those these pools admit (a subset of lists sorted by one rule stays sorted)."""
        for a in (ci, pi):
            a.flags.writeable = False
        self.__dict__["_all_lists"] = (ci, pi)     # (the cached property's own slot: made once, as if computed)

    @cached_property
    def runs(self) -> tuple[np.ndarray, np.ndarray]:
        """Start and end of each candidate's pairs in `preference_lists()` (candidates with none skipped)."""
        from .lists import runs
        return runs(self._all_lists[0])

    @cached_property
    def _all_lists(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.pools:
            return np.zeros(0, np.int32), np.zeros(0, np.int32)
        from .lists import _lists_by_rows, _lists_by_sort   # (the array code, apart from the data types)
        lists = _lists_by_rows(self)
        if lists is None:
            lists = tuple(a.astype(np.int32) for a in _lists_by_sort(self))
        for a in lists:
            a.flags.writeable = False
        return lists


def group(pools: Pools, members: list[int], free: np.ndarray, filled: np.ndarray) -> Pools:
    """The pools `members` as a problem of their own, indexed afresh: only the candidates `free` (those earlier
    pools left unplaced) are eligible, and capacities taken by the other pools' fills (`filled`, per pool) are
    constants. Used where pools are filled in turn (CP-SAT solving group by group, `solver.chain.overall` placing
    one post's minimums)."""
    local = {k: j for j, k in enumerate(members)}
    out = []
    for j, k in enumerate(members):
        p = pools.pools[k]
        taken = sum(int(filled[q]) for q in p.minus if q not in local)
        out.append(replace(p, index=j, admits=p.admits & free, base=max(0, p.base - taken),
                           minus=tuple(local[q] for q in p.minus if q in local),
                           members=None if p.members is None else p.members[free[p.members]]))
    return replace(pools, pools=tuple(out))
