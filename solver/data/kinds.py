"""The choices a caller names by word: which engine fills the pools, and which recruitment a policy governs.

Each is a `StrEnum`, so it compares equal to the word a file or the command line gives; `parse` turns a word
into the member or raises `OptionError` naming the field and the words it takes (never a silent default).
"""
from __future__ import annotations

from enum import StrEnum

from ..errors import OptionError


class _Word(StrEnum):
    """A choice given as a word."""

    @classmethod
    def field_name(cls) -> str:
        """The field the choice fills, as errors name it."""
        return cls.__name__.lower()

    @classmethod
    def parse(cls, value, among: tuple | None = None, field: str | None = None):
        """The member `value` names, if it is one of `among` (default: every member).

        Example
        -------
        >>> Engine.parse("greedy")
        <Engine.GREEDY: 'greedy'>
        >>> Engine.parse("bogus")
        Traceback (most recent call last):
        ...
        solver.errors.OptionError: engine: must be cpsat, greedy or both, not 'bogus'
        """
        allowed = tuple(among or cls)
        if isinstance(value, cls) and value in allowed:
            return value
        if isinstance(value, str) and value in {str(a) for a in allowed}:
            return cls(value)
        words = [str(a) for a in allowed]
        said = ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]
        raise OptionError(field or cls.field_name(), f"must be {said}, not {value!r}")


class Engine(_Word):
    """Who fills the seat pools: CP-SAT (the defining model; by default it certifies the greedy's answer), the
    greedy (the official procedure replayed), or both (CP-SAT's answer with the greedy's beside it)."""

    @classmethod
    def field_name(cls) -> str:
        return "engine"

    CPSAT = "cpsat"
    GREEDY = "greedy"
    BOTH = "both"


class Recruitment(_Word):
    """Direct recruitment, or promotion under the policy's `[promotion]` table (`solver.policy.promotion`)."""

    @classmethod
    def field_name(cls) -> str:
        return "recruitment"

    DIRECT = "direct"
    PROMOTION = "promotion"


# A shortlist calls at most this many candidates per vacancy: far above any commission's ratio (UPSC calls
# about 12 to the main examination, 2 to the personality test), and low enough that ratio x vacancies is a
# whole number a list can be sized by (1e307 x 6 overflowed).
MAX_RATIO = 10_000


def shortlist_ratio(ratio) -> float:
    """The candidates a shortlist calls per vacancy, checked: a positive, finite number of at most `MAX_RATIO`.

    Example
    -------
    >>> shortlist_ratio(12)
    12.0
    >>> shortlist_ratio(0)
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: ratio: the ratio must be a positive number of at most 10,000, not 0
    """
    import math
    try:
        value = float(ratio)
    except (TypeError, ValueError):
        value = math.nan
    if not (0 < value <= MAX_RATIO):
        raise OptionError("ratio", f"the ratio must be a positive number of at most {MAX_RATIO:,}, not {ratio}")
    return value
