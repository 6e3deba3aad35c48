"""unfilled.csv: per post and category, its vacancies, those its own category filled, and what became of the
rest (exchanged, de-reserved, kept vacant for a held horizontal minimum, lapsed or carried forward, or in a
counselling left for the next round)."""
from __future__ import annotations

from ..policy import Policy
from ..chain.vacancy import SeatTable

# A counselling round's seats left unfilled: offered in the next round (`Policy.slide.unfilled_offered`).
NEXT_ROUND = "next_round"


def fill_by_post(rows) -> dict[tuple[str, str], tuple[int, int, dict[str, int]]]:
    """unfilled.csv's rows (post, category, vacancies, filled, unfilled, disposition) per post and category:
    (vacancies, filled, unfilled per disposition). A post and category whose unfilled vacancies went
    different ways has a row per disposition, each repeating its vacancies and fills."""
    out: dict[tuple[str, str], tuple[int, int, dict[str, int]]] = {}
    for post, code, vacancies, filled, unfilled, disposition in rows:
        _, _, left = out.setdefault((str(post), str(code)), (int(vacancies or 0), int(filled or 0), {}))
        if int(unfilled or 0):
            key = str(disposition) or "unfilled"
            left[key] = left.get(key, 0) + int(unfilled)
    return out


def category_rows(post: str, code: str, vacancies: int, filled: int, parts) -> list[list]:
    """unfilled.csv's rows for one post and category: one per disposition that took some of its vacancies
    (`parts`: (disposition, count)), or one with none left.

    Example
    -------
    >>> category_rows("X", "UR", 3, 1, [("held_vacant", 1), ("unfilled", 1), ("exchanged", 0)])
    [['X', 'UR', 3, 1, 1, 'held_vacant'], ['X', 'UR', 3, 1, 1, 'unfilled']]
    >>> category_rows("X", "UR", 3, 3, [("unfilled", 0)])
    [['X', 'UR', 3, 3, 0, '']]
    """
    return [[post, code, vacancies, filled, k, d] for d, k in parts if k] or [[post, code, vacancies, filled, 0, ""]]


def disposition_rows(policy: Policy, seats: SeatTable, post: str, own: dict, moved: dict, rest: dict) -> list:
    """unfilled.csv's rows for one post: per category its vacancies, those its own filled, and what became of
    the rest (exchanged, de-reserved, kept vacant for a held minimum, lapsed, carried), one row each; carried
    excess on a row of its own."""
    rows = []
    for code in policy.seat_codes:
        vac = seats.cap(post, code)
        carried = seats.carried_excess.get((post, code), 0)
        if vac == 0 and not carried:
            continue
        filled = own.get(code, 0)
        parts = [(d, moved.get((code, d), 0)) for d in ("exchanged", "dereserved", "held_vacant")]
        unfilled = rest.get(code, vac - filled)
        if unfilled:
            parts.append((leftover_disposition(policy, code), unfilled))
        rows += category_rows(post, code, vac, filled, parts)
        if carried:
            rows.append([post, code, carried, 0, carried, "carried_forward"])
    return rows


def leftover_disposition(policy: Policy, code: str) -> str:
    """What becomes of a category's vacancies left unfilled: in a counselling (`slide.unfilled_offered`) the next
    round offers them (after the policy's conversions), so they have not lapsed; else lapsed, carried forward or
    backlog by the category's rule.

    >>> from solver import load_policy
    >>> leftover_disposition(load_policy("josaa-2025"), "OBC-NCL")
    'next_round'
    >>> leftover_disposition(load_policy("central-dopt"), "UR")
    'lapsed'
    """
    if policy.slide.unfilled_offered:
        return NEXT_ROUND
    if code == policy.open:
        return "lapsed"
    if not policy.category(code).carry_forward:
        return "lapsed"  # EWS: never carried forward (OM 31.01.2019)
    return "backlog" if policy.unfilled.carry_years is None else "carried_forward"
