"""vacancies.csv read and checked: each row's post, category, count, horizontal minimums, roster columns,
exemption, promotion columns (direct_share, post_class, feeder_class) and district."""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..policy import Policy
from ..data.problem import TRAITS, VacancyRow
from .cells import FALSE, TRUE, _first_bad, _numbers
from .seat_pools import COLUMNS, seat_pools
from .tables import Table, _short, read_table


def _optional_counts(t: Table, name: str, least: int = 1) -> np.ndarray:
    """A column of whole numbers >= `least` where given, -1 where the cell is empty or the column absent."""
    out = np.full(len(t), -1, dtype=np.int64)
    if not t.has(name):
        return out
    raw = t[name].astype(str)
    for k in np.flatnonzero(raw != ""):
        text = str(raw[k]).strip()
        if text.endswith(".0"):   # (a spreadsheet's 3.0)
            text = text[:-2]
        if not (text.isascii() and text.isdigit()) or int(text) < least:   # ("²" is a digit to isdigit)
            raise t.error(int(k), name, f"{_short(text)!r} is not a whole number of at least {least}")
        if int(text) > MAX_COUNT:
            raise t.error(int(k), name, f"{text} is larger than any cadre ({MAX_COUNT:,} at most)")
        out[k] = int(text)
    return out


# Vacancies, cadres and roster points above this are typing mistakes, and would overflow the solver's integers.
MAX_COUNT = 10**9
# The last point of a running roster a TOTAL row may reach: a roster is walked point by point from its first, and
# a cadre of a million posts is already beyond any service (`aarakshan roster` keeps to the same).
LAST_ROSTER_POINT = 1_000_000


def read_vacancies(path, policy: Policy, warn=None) -> tuple[tuple[str, ...], tuple[VacancyRow, ...]]:
    t = read_table(path, ["post", "category", "vacancies"], [*TRAITS, "cadre", "roster_start", "exempt",
                                                             "district", "direct_share", "post_class", "feeder_class",
                                                             "merit_list", *COLUMNS],
                   warn)
    if len(t) == 0:
        raise InputError(path, None, None, "no vacancy rows")
    allowed = [*policy.seat_codes, "TOTAL"]
    vac = _numbers(t, "vacancies", integer=True)
    if (k := _first_bad(vac < 0)) is not None:
        raise t.error(k, "vacancies", f"negative vacancies {t['vacancies'][k]}")
    if (k := _first_bad(vac > MAX_COUNT)) is not None:
        raise t.error(k, "vacancies", f"{t['vacancies'][k]} vacancies is more than {MAX_COUNT:,}")
    cadre, roster_start = _optional_counts(t, "cadre"), _optional_counts(t, "roster_start")
    exempt = _exemptions(t)
    direct = _direct_shares(t, policy)
    _one_per_post(t, "post_class", "a post has one class")
    _one_per_post(t, "feeder_class", "a post is filled from one grade")
    _one_per_post(t, "district", "a district-level cadre is a post of its own, with its own roster and register "
                  "(Bihar s.6(1); Maharashtra s.4(4)): name each district's cadre apart, e.g. Clerk-Patna")
    mins = {trait: np.maximum(_optional_counts(t, trait, least=0), 0) for trait in TRAITS if t.has(trait)}
    pools, extra = seat_pools(t, policy)
    districts, classes = _spellings(policy)
    posts: dict[str, None] = {}       # (in file order; a dict: 40,000 rows of 5,000 seat pools)
    rows: list[VacancyRow] = []
    seen: dict[tuple[str, str], int] = {}
    for k in range(len(t)):
        post, cat = pools[k].name if pools else str(t["post"][k]), str(t["category"][k])
        if exempt[k] and cat == "TOTAL":
            cat = policy.open   # exempt vacancies are outside the roster: a TOTAL of them is that many open ones
        _row_place(t, k, post, cat, allowed, bool(exempt[k]), seen)
        m = {tr: int(mins[tr][k]) for tr in mins if mins[tr][k] > 0}
        _row_fields(t, k, policy, cat, m, int(vac[k]), exempt[k], {"cadre": cadre, "roster_start": roster_start})
        posts.setdefault(post)
        rows.append(VacancyRow(post, cat, int(vac[k]), m, int(t.line[k]),
                               int(cadre[k]) if cadre[k] > 0 else None,
                               int(roster_start[k]) if roster_start[k] > 0 else None, str(exempt[k]),
                               None if np.isnan(direct[k]) else float(direct[k]),
                               *_named_cells(t, k, classes, districts),
                               pools[k] if pools else None, bool(extra[k])))
    return tuple(posts), tuple(rows)


def _named_cells(t: Table, k: int, classes: dict, districts: dict) -> tuple[str, str, str, str]:
    """Row k's post class, district, feeder class and merit list ("" where the column is absent)."""
    return (spelt(classes, t["post_class"][k]) if t.has("post_class") else "",
            _district(t, k, districts) if t.has("district") else "",
            spelt(classes, t["feeder_class"][k]) if t.has("feeder_class") else "",
            str(t["merit_list"][k]).strip() if t.has("merit_list") else "")


def _folded(text) -> str:
    return " ".join(str(text).casefold().split())


def spelt(known: dict[str, str], text) -> str:
    """`text` as the policy spells it, where it names one of `known` (folded -> spelling) in another case or
    spacing ("patna" for "Patna", "iv" for "IV"); as written otherwise."""
    return known.get(_folded(text), str(text))


def _district(t: Table, k: int, districts: dict[str, str]) -> str:
    """Row k's district as the policy spells it. Where the policy has district shares, a name it does not know
    is refused with the nearest it does (a misspelt "Patan" took the State's shares with only a note)."""
    import difflib
    text = str(t["district"][k])
    if not text.strip() or not districts or _folded(text) in districts:
        return spelt(districts, text)
    near = difflib.get_close_matches(_folded(text), list(districts), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(districts[x] for x in near)}?" if near else ""
    raise t.error(k, "district", f"{text!r} is not a district the policy gives shares for{hint} (the districts: "
                  f"{', '.join(sorted(districts.values()))})")


def _spellings(policy: Policy) -> tuple[dict[str, str], dict[str, str]]:
    """The district names and post classes the policy names, folded -> as it writes them."""
    names = set()
    if policy.probation is not None:
        names |= set(policy.probation.post_classes)
    for d in policy.districts.values():
        names |= set(d.post_classes or ())
    if policy.promotion is not None:
        names |= set(policy.promotion.senior_included_classes)
        names |= {x for v in policy.promotion.reserved_classes.values() for e in v for x in e.split("->")}
    return {_folded(d): d for d in policy.districts}, {_folded(c): c for c in names}


def _exemptions(t: Table) -> np.ndarray:
    """The `exempt` column: the ground of each exempt row, "" for the others. A cell that reads as a boolean is
    one: false, no, 0 (formats.md's boolean words) mean not exempt, where they would otherwise be taken for a
    ground and strip the row of its reservation; true, yes, 1 name no ground and are refused."""
    if not t.has("exempt"):
        return np.full(len(t), "", dtype=object)
    out = np.array([str(x).strip() for x in t["exempt"]], dtype=object)
    low = np.array([x.lower() for x in out], dtype=object)
    if (k := _first_bad(np.isin(low, list(TRUE - {""})))) is not None:
        raise t.error(k, "exempt", f"{str(t['exempt'][k])!r}: exempt names the ground on which the row is exempt "
                      "from reservation, not true or false; write the ground, or leave the cell empty (or false) "
                      "for a row that is not exempt")
    out[np.isin(low, list(FALSE))] = ""
    return out


def _row_place(t: Table, k: int, post: str, cat: str, allowed: list[str], exempt: bool, seen: dict) -> None:
    """Row k names a post and a known category, once, and does not mix a TOTAL row with per-category rows."""
    if post == "":
        raise t.error(k, "post", "empty post")
    if cat not in allowed:
        raise t.error(k, "category", f"unknown category {str(cat)!r}; expected one of {allowed}")
    key = (post, "exempt" if exempt else cat)   # (an exempt row sits beside the post's other rows)
    if key in seen:
        raise t.error(k, "category", f"post {str(post)!r} category {cat}{' exempt' if exempt else ''} given "
                      f"twice (also line {seen[key]})")
    has_total = not exempt and ((post, "TOTAL") in seen or
                                (cat == "TOTAL" and any(p == post and c != "exempt" for p, c in seen)))
    if has_total:
        raise t.error(k, "category", f"post {str(post)!r} mixes a TOTAL row with per-category rows")
    seen[key] = int(t.line[k])


def _row_fields(t: Table, k: int, policy: Policy, cat: str, minimums: dict, vacancies: int, exempt,
                roster: dict) -> None:
    """Row k's minimums, exemption and roster columns fit its category and vacancies."""
    if minimums and cat == "TOTAL":
        raise t.error(k, next(iter(minimums)), "horizontal minimums belong on per-category rows, not TOTAL")
    if exempt:
        _exempt_row(t, k, policy, cat, exempt, roster)
    for name, col in roster.items():
        if col[k] > 0 and cat != "TOTAL":
            raise t.error(k, name, f"{name} belongs on a TOTAL row (the roster splits it); this row is {cat}")
    first = max(int(roster["roster_start"][k]), 1)   # (-1 where the row gives none: the roster's first point)
    if cat == "TOTAL" and first + vacancies - 1 > LAST_ROSTER_POINT:
        raise t.error(k, "roster_start" if roster["roster_start"][k] > 0 else "vacancies", too_long(first, vacancies))
    over = [tr for tr, v in minimums.items() if v > vacancies]
    if over:
        raise t.error(k, over[0], f"minimum {minimums[over[0]]} exceeds the row's {vacancies} vacancies")


def too_long(first: int, vacancies: int) -> str:
    """Why a TOTAL row reaching past `LAST_ROSTER_POINT` is refused."""
    return (f"{vacancies:,} vacancies from roster point {first:,} reach past point {LAST_ROSTER_POINT:,}: a roster "
            "that long is not a cadre's; give per-category rows")


def _exempt_row(t: Table, k: int, policy: Policy, cat: str, exempt, roster: dict) -> None:
    """An exempt row: an open vacancy, a ground of at most 200 characters the policy knows (where it lists
    them), and no roster point."""
    if cat != policy.open:
        raise t.error(k, "exempt", f"an exempt vacancy is not reserved: give it as {policy.open} (the row is "
                      f"{cat}), with the ground in exempt")
    if len(str(exempt)) > 200:
        raise t.error(k, "exempt", "the ground is over 200 characters")
    ex = policy.exemptions
    if ex.grounds and ex.ground(str(exempt)) is None:
        raise t.error(k, "exempt", f"{str(exempt)!r} is not a ground of exemption under {policy.name} "
                      f"({ex.source or 'exemptions'}); the grounds are {', '.join(g.key for g in ex.grounds)}")
    for name, col in roster.items():
        if col[k] > 0:
            raise t.error(k, name, f"an exempt row takes no roster point: give {name} on the post's TOTAL row")


def _direct_shares(t: Table, policy: Policy) -> np.ndarray:
    """The `direct_share` column: the share of the post's grade filled by direct recruitment, which decides
    whether its promotions are reserved (Bill 2004 s.3(2): at most 75%; Manipur Act 1976 s.10: by selection, at
    most 50%); NaN where empty. Read in promotion only."""
    out = np.full(len(t), np.nan)
    if not t.has("direct_share"):
        return out
    raw = t["direct_share"].astype(str)
    given = np.flatnonzero(raw != "")
    if len(given) and policy.recruitment != "promotion":
        raise t.error(int(given[0]), "direct_share", "direct_share decides reservation in promotion (Bill 2004 "
                      "s.3(2)); this is direct recruitment: leave it empty or solve with recruitment=promotion")
    for k in given:
        try:
            v = float(raw[k])
        except ValueError:
            raise t.error(int(k), "direct_share", f"{_short(str(raw[k]))!r} is not a number") from None
        if not 0 <= v <= 1:
            raise t.error(int(k), "direct_share", f"{raw[k]} is not a share between 0 and 1 (0.75 for 75%)")
        out[k] = v
    _one_per_post(t, "direct_share", "a grade has one share of direct recruitment")
    return out


def _one_per_post(t: Table, name: str, why: str) -> None:
    """Every row of a post gives the same `name` (a property of the post, not of a category's row)."""
    if not t.has(name):
        return
    first: dict[str, int] = {}
    values = t[name].astype(str)
    for k in range(len(t)):
        post = str(t["post"][k])
        j = first.setdefault(post, k)
        if values[j] != values[k]:
            raise t.error(k, name, f"post {str(post)!r} has {name} {values[j] or 'empty'} on line {t.line[j]}: {why}")
