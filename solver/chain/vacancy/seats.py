"""The seat table: what vacancy determination gives the rest of the chain (each post and category's vacancies,
horizontal minimums, what the register carried in, lapsed or deferred, the roster points used)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...data.frozen import FrozenDict, freeze_dicts
from ...policy import Policy
from .carried import Carried
from .ceiling import ceiling_use, outside_ceiling


@dataclass(frozen=True)
class SeatTable:
    posts: tuple[str, ...]
    seats: dict[tuple[str, str], int]                 # (post, category) -> vacancies, open code included
    minimums: dict[tuple[str, str, str], int]         # (post, category, trait) -> horizontal minimum
    # horizontal.mode = "overall": (post, trait) -> minimum of the whole post; `solver.chain.overall` turns it into
    # compartment minimums before the engines run.
    overall: dict[tuple[str, str], int] = field(default_factory=dict)
    # Under overall minimums, post -> {candidate: compartment} for each beneficiary merit put at the post: no
    # other compartment of the post may take her by adjustment (only the remaining beneficiaries are adjusted).
    merit_held: dict[str, dict[int, str]] = field(default_factory=dict)
    carried_excess: dict[tuple[str, str], int] = field(default_factory=dict)  # ceiling excess carried forward
    notes: tuple[str, ...] = ()
    # From the register; empty without one.
    carried: dict[tuple[str, str], tuple[Carried, ...]] = field(default_factory=dict)  # offered this year, oldest first
    exchangeable: dict[tuple[str, str], int] = field(default_factory=dict)  # of them, open to exchange partners
    carried_horizontal: dict[tuple[str, str, str], tuple[Carried, ...]] = field(default_factory=dict)
    lapsed: tuple[Carried, ...] = ()
    deferred: tuple[tuple[Carried, str], ...] = ()       # live but not offered this year, with the reason
    exempt: dict[str, int] = field(default_factory=dict)   # post -> open vacancies exempt from reservation
    # post -> (first point, points, cadre or None) of the running roster a TOTAL row used
    roster_used: dict[str, tuple[int, int, int | None]] = field(default_factory=dict)

    def __post_init__(self):
        freeze_dicts(self)
        if any(not isinstance(v, FrozenDict) for v in self.merit_held.values()):
            object.__setattr__(self, "merit_held", FrozenDict({k: FrozenDict(v) for k, v in self.merit_held.items()}))

    def cap(self, post: str, cat: str) -> int:
        return self.seats.get((post, cat), 0)

    def minimums_of(self, post: str, cat: str) -> dict[str, int]:
        """The horizontal minimums of post's `cat` compartment above zero, trait -> minimum."""
        return self._minimums_by_compartment.get((post, cat), {})

    @cached_property
    def _minimums_by_compartment(self) -> dict[tuple[str, str], dict[str, int]]:
        """`minimums` grouped by compartment (made once: read per compartment, a scan of them all was quadratic)."""
        out: dict[tuple[str, str], dict[str, int]] = {}
        for (p, c, t), m in self.minimums.items():
            if m > 0:
                out.setdefault((p, c), {})[t] = m
        return out

    def rows(self) -> list[tuple[str, str, int]]:
        return [(p, c, v) for (p, c), v in self.seats.items()]

    def outside_ceiling(self, post: str, policy: Policy) -> tuple[int, int]:
        """(reserved, all) vacancies of a post that the ceiling does not see: carried ones under Art. 16(4B), of
        the categories `ceiling.backlog_excluded` names (Bill 2004 s.10 proviso: SC and ST), and exempt ones."""
        return outside_ceiling(policy, self.carried, post, self.exempt.get(post, 0))

    def ceiling_use(self, policy: Policy, posts=None) -> dict[str, tuple[int, int]]:
        """Per post (of `posts`, default all): (reserved vacancies counted against the ceiling, vacancies the
        ceiling is a share of), `solver.chain.vacancy.ceiling.ceiling_use`."""
        return ceiling_use(policy, self.seats, self.carried, self.exempt, self.posts if posts is None else posts)
