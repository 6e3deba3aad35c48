"""Read and validate candidates, vacancies and preferences into a `Problem` (SPEC.md, "Input tables").

Each problem raises `InputError` naming file, line, column and the problem; nothing is written before
every input has been read.
"""
from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..background import Background
from ..errors import InputError
from ..policy import Policy
from ..problem import TRAITS, Candidates, Problem, VacancyRow
from ..sorting import sorted_by
from .tables import Table, _short, numbers_of, read_table, release_arrow_memory

TRUE = {"true", "1", "yes", "y", "t"}
FALSE = {"false", "0", "no", "n", "f", ""}
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _first_bad(mask: np.ndarray) -> int | None:
    idx = np.flatnonzero(mask)
    return int(idx[0]) if len(idx) else None


def _bools(t: Table, name: str, empty: bool = False) -> np.ndarray:
    """A true/false column; an empty cell (or no column) reads as `empty`."""
    if not t.has(name):
        return np.full(len(t), empty, dtype=bool)
    low = np.char.lower(t[name].astype(str))
    bad = ~(np.isin(low, list(TRUE)) | np.isin(low, list(FALSE)))
    if (k := _first_bad(bad)) is not None:
        raise t.error(k, name, f"{str(t[name][k])!r} is not true/false")
    return np.isin(low, list(TRUE)) | ((low == "") & empty)


def _choice(t: Table, name: str, allowed: set[str]) -> np.ndarray:
    if not t.has(name):
        return np.full(len(t), "", dtype=object)
    vals = t[name].astype(str)
    bad = ~np.isin(vals, sorted(allowed))
    if (k := _first_bad(bad)) is not None:
        raise t.error(k, name, f"{str(vals[k])!r} is not one of {sorted(a for a in allowed if a)} or empty")
    return vals.astype(object)


def _numbers(t: Table, name: str, integer: bool) -> np.ndarray:
    kept = t.arrow.get(name)
    if kept is not None and not pa.types.is_string(kept.type):   # (Arrow's numbers, from a file or a frame)
        if kept.null_count and (k := _first_bad(kept.is_null().to_numpy(zero_copy_only=False))) is not None:
            raise t.error(k, name, f"missing {name}")
        if pa.types.is_integer(kept.type):
            return numbers_of(kept).astype(np.int64 if integer else float, copy=False)
        kept = None   # (floats: checked below as text is)
    if kept is not None:
        if (k := _first_bad(pc.equal(kept, "").to_numpy(zero_copy_only=False))) is not None:
            raise t.error(k, name, f"missing {name}")
        try:
            vals = kept.cast(pa.float64()).to_numpy(zero_copy_only=False)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            vals = None
        if vals is not None and np.isfinite(vals).all() and (not integer or (vals == np.round(vals)).all()):
            return vals
    raw = t[name].astype(str)   # (a bad cell: found, and named, the slow way)
    empty = raw == ""
    if (k := _first_bad(empty)) is not None:
        raise t.error(k, name, f"missing {name}")
    # numpy's parser in C (a float() per cell took 12 s on JoSAA's 19 million preference orders; Arrow's cast
    # needs an Arrow array, whose making imports pandas). It reads what Python's float() reads, and more where
    # the text is not ASCII ("²" as 2): there float() says first, cell by cell.
    ascii_only = raw.dtype.kind == "U" and (not raw.size or int(raw.view(np.uint32).max()) < 128)
    try:
        if not ascii_only:
            raise ValueError
        vals = raw.astype(float)
    except ValueError:
        for k, v in enumerate(raw):
            try:
                float(v)
            except ValueError:
                raise t.error(k, name, f"{str(v)!r} is not a number") from None
        vals = np.array([float(v) for v in raw])
    if (k := _first_bad(~np.isfinite(vals))) is not None:
        raise t.error(k, name, f"{str(raw[k])!r} is not a finite number")
    if integer and (k := _first_bad(vals != np.round(vals))) is not None:
        raise t.error(k, name, f"{str(raw[k])!r} is not a whole number")
    return vals


def _is_date(text: str) -> bool:
    import datetime
    if not DATE.match(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def read_candidates(path, policy: Policy, warn=None) -> tuple[Candidates, Table]:
    optional = ["rank", "score", "gender", "creamy_layer", "relaxed", "pwbd", "ex_serviceman",
                "district", "block", "birth_date", "caste", "fit", "failed_test"]
    t = read_table(path, ["id", "category"], optional, warn)
    n = len(t)
    if n == 0:
        raise InputError(path, None, None, "no candidates")
    ids = unique_ids(t)
    cats = _categories(t, policy, warn)
    placed = t.has("caste") and policy.castes is not None
    for column in ("district", "block"):
        if warn and t.has(column) and not placed and (t[column] != "").any():
            warn(f"{path}: the {column} column places a caste by the policy's schedules ([castes]); with "
                 f"{'no caste column' if policy.castes is not None else 'a policy without schedules'} it is not used")
    bad = ~np.isin(cats, policy.member_codes)
    if (k := _first_bad(bad)) is not None:
        raise t.error(k, "category", "empty category: give it (or a caste the policy's schedules place)" if not cats[k]
                      else f"unknown category {str(cats[k])!r}; this policy knows {policy.member_codes}")
    has_rank, has_score = t.has("rank"), t.has("score")
    if has_rank == has_score:
        raise InputError(path, 1, None, "give exactly one of the columns 'rank' (1 = best) or 'score' (higher = better)")
    birth = t["birth_date"].astype(str) if t.has("birth_date") else np.full(n, "", dtype=object)
    if t.has("birth_date"):
        bad = np.array([b != "" and not _is_date(b) for b in birth], dtype=bool)
        if (k := _first_bad(bad)) is not None:
            raise t.error(k, "birth_date", f"{str(birth[k])!r} is not a date YYYY-MM-DD (a day of the calendar)")
    score, tied = None, None
    if has_rank:
        merit = np.argsort(ordinals(t, "rank", "1 = best, one rank per candidate"), kind="stable")
    else:
        score = _numbers(t, "score", integer=False)
        keys = [ids] if "id" in policy.merit.tie_breaks else []
        # lexsort: last key is primary. Older first = earlier birth date; empty dates sort last.
        tb = []
        for key in reversed(policy.merit.tie_breaks):
            if key == "id":
                tb.append(ids)
            else:
                tb.append(np.where(birth == "", "9999-99-99", birth))
        merit = np.lexsort(tuple(tb) + (-score,))
        s = score[merit]
        same = s[1:] == s[:-1]
        for key_arr in tb:
            same &= key_arr[merit][1:] == key_arr[merit][:-1]
        if not keys and (k := _first_bad(same)) is not None:
            a, b = merit[k], merit[k + 1]
            raise t.error(int(b), "score", f"tie with line {t.line[a]} that the policy's tie-breaks "
                          f"{policy.merit.tie_breaks} cannot resolve")
        score = score[merit]
        tied = _tied(s, [key[merit] for key, name in zip(tb, reversed(policy.merit.tie_breaks)) if name != "id"])
    gender = _choice(t, "gender", {"M", "F", "T", ""})
    c = Candidates(
        ids=ids[merit].astype(object),
        category=cats[merit].astype(object),
        female=(gender == "F")[merit],
        creamy=_bools(t, "creamy_layer")[merit],
        relaxed=_bools(t, "relaxed")[merit],
        pwbd=_choice(t, "pwbd", {"", "a", "b", "c", "d", "e"})[merit],
        ex_serviceman=_bools(t, "ex_serviceman")[merit],
        score=score,
        line=t.line[merit],
        tied=tied,
        unfit=~_bools(t, "fit", empty=True)[merit] if t.has("fit") else None,
        failed_test=_bools(t, "failed_test")[merit] if t.has("failed_test") else None,
    )
    return c, t


def _categories(t: Table, policy: Policy, warn=None) -> np.ndarray:
    """The `category` column, where empty derived from `caste` and `district` by the policy's schedules, and a
    given backward class the schedules contradict refused (Bihar Act 1991 s.2(j)); SC, ST and the open code are
    kept as given (the Constitution orders, not the schedules, make SC and ST)."""
    cats = t["category"].astype(str).astype(object)
    if not t.has("caste") or not (t["caste"] != "").any():
        return cats
    if policy.castes is None:
        # Under a policy without schedules (the central lists are notified, not in the Act) a caste decides
        # nothing: unused where the category is given, bad input where it is the only thing given.
        k = _first_bad((t["caste"] != "") & (cats == ""))
        if k is not None:
            raise t.error(k, "category", f"empty category, and {policy.name} has no caste schedules ([castes]) to "
                          f"place the caste {str(t['caste'][k])!r} by: give the category")
        if warn:
            warn(f"{t.path}: the caste column is not used: {policy.name} has no caste schedules ([castes]), and "
                 "every candidate's category is given")
        return cats
    from ..castes import load, resolve
    from ..policy.load import data_file
    entries = load(str(data_file(policy, policy.castes.file)))
    district = t["district"].astype(str) if t.has("district") else np.full(len(t), "", dtype=object)
    block = t["block"].astype(str) if t.has("block") else np.full(len(t), "", dtype=object)
    schedule_codes = {e.category for e in entries}
    for k in np.flatnonzero(t["caste"] != ""):
        given = cats[k]
        if given and given not in schedule_codes:
            continue   # SC, ST, the open code: not the schedules' to decide
        code, why = resolve(entries, str(t["caste"][k]), str(district[k]), str(block[k]))
        if code is None:
            raise t.error(int(k), "caste", f"{why} ({policy.castes.source or 'castes'})"
                          + ("; give the category" if not given else ""))
        if given and given != code:
            raise t.error(int(k), "category", f"{given}, but {why} ({policy.castes.source or 'castes'})")
        cats[k] = code
    return cats


def unique_ids(t: Table, column: str = "id") -> np.ndarray:
    """The `column` of ids, none empty and none twice (the second named with the line of the first)."""
    ids = t[column].astype(str)
    if (k := _first_bad(ids == "")) is not None:
        raise t.error(k, column, f"empty {column}")
    order = np.argsort(ids, kind="stable")
    dup = np.flatnonzero(ids[order][1:] == ids[order][:-1])
    if len(dup):
        first, second = sorted((order[dup[0]], order[dup[0] + 1]))
        raise t.error(second, column, f"duplicate {column} {str(ids[second])!r} (first on line {t.line[first]})")
    return ids


def ordinals(t: Table, name: str, note: str, plural: str = "") -> np.ndarray:
    """A column that numbers the rows 1..n, each number once (a rank, a seniority): outside 1..n, given twice,
    or a gap is an error naming the row."""
    n = len(t)
    v = _numbers(t, name, integer=True)
    if (k := _first_bad((v < 1) | (v > n))) is not None:
        raise t.error(k, name, f"{name} {t[name][k]} is outside 1..{n} ({note})")
    v = v.astype(np.int64)
    srt = np.sort(v)
    if (k := _first_bad(srt != np.arange(1, n + 1))) is not None:
        missing_or_dup = srt[k]
        dups = np.flatnonzero(v == missing_or_dup)
        if len(dups) > 1:
            raise t.error(int(dups[1]), name, f"{name} {missing_or_dup} given twice (also line {t.line[dups[0]]})")
        raise t.error(int(np.argmin(np.where(v > k + 1, v, np.iinfo(np.int64).max))), name,
                      f"{plural or name + 's'} must run 1..{n} without gaps; {name} {k + 1} is missing")
    return v


def _tied(score: np.ndarray, keys: list[np.ndarray]) -> np.ndarray | None:
    """Tie blocks in merit order: runs of candidates equal on score and on every tie-break but the id."""
    same = score[1:] == score[:-1]
    for k in keys:
        same &= k[1:] == k[:-1]
    if not same.any():
        return None
    start = np.r_[True, ~same]
    block = np.cumsum(start) - 1
    sizes = np.bincount(block)
    return np.where(sizes[block] > 1, block, -1).astype(np.int64)


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


def read_vacancies(path, policy: Policy, warn=None) -> tuple[tuple[str, ...], tuple[VacancyRow, ...]]:
    t = read_table(path, ["post", "category", "vacancies"], [*TRAITS, "cadre", "roster_start", "exempt",
                                                             "district", "direct_share", "post_class", "feeder_class"],
                   warn)
    if len(t) == 0:
        raise InputError(path, None, None, "no vacancy rows")
    allowed = [policy.open, *policy.reserved_codes, "TOTAL"]
    vac = _numbers(t, "vacancies", integer=True)
    if (k := _first_bad(vac < 0)) is not None:
        raise t.error(k, "vacancies", f"negative vacancies {t['vacancies'][k]}")
    if (k := _first_bad(vac > MAX_COUNT)) is not None:
        raise t.error(k, "vacancies", f"{t['vacancies'][k]} vacancies is more than {MAX_COUNT:,}")
    cadre, roster_start = _optional_counts(t, "cadre"), _optional_counts(t, "roster_start")
    exempt = t["exempt"] if t.has("exempt") else np.full(len(t), "", dtype=object)
    direct = _direct_shares(t, policy)
    _one_per_post(t, "post_class", "a post has one class")
    _one_per_post(t, "feeder_class", "a post is filled from one grade")
    _one_per_post(t, "district", "a district-level cadre is a post of its own, with its own roster and register "
                  "(Bihar s.6(1); Maharashtra s.4(4)): name each district's cadre apart, e.g. Clerk-Patna")
    mins = {trait: np.maximum(_optional_counts(t, trait, least=0), 0) for trait in TRAITS if t.has(trait)}
    posts: list[str] = []
    rows: list[VacancyRow] = []
    seen: dict[tuple[str, str], int] = {}
    for k in range(len(t)):
        post, cat = str(t["post"][k]), str(t["category"][k])
        if exempt[k] and cat == "TOTAL":
            cat = policy.open   # exempt vacancies are outside the roster: a TOTAL of them is that many open ones
        _row_place(t, k, post, cat, allowed, bool(exempt[k]), seen)
        m = {tr: int(mins[tr][k]) for tr in mins if mins[tr][k] > 0}
        _row_fields(t, k, policy, cat, m, int(vac[k]), exempt[k], {"cadre": cadre, "roster_start": roster_start})
        if post not in posts:
            posts.append(post)
        rows.append(VacancyRow(post, cat, int(vac[k]), m, int(t.line[k]),
                               int(cadre[k]) if cadre[k] > 0 else None,
                               int(roster_start[k]) if roster_start[k] > 0 else None, str(exempt[k]),
                               None if np.isnan(direct[k]) else float(direct[k]),
                               str(t["post_class"][k]) if t.has("post_class") else "",
                               str(t["district"][k]) if t.has("district") else "",
                               str(t["feeder_class"][k]) if t.has("feeder_class") else ""))
    return tuple(posts), tuple(rows)


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
    if exempt and cat != policy.open:
        raise t.error(k, "exempt", f"an exempt vacancy is not reserved: give it as {policy.open} (the row is "
                      f"{cat}), with the ground in exempt")
    if exempt and len(str(exempt)) > 200:
        raise t.error(k, "exempt", "the ground is over 200 characters")
    ex = policy.exemptions
    if exempt and ex.grounds and ex.ground(str(exempt)) is None:
        raise t.error(k, "exempt", f"{str(exempt)!r} is not a ground of exemption under {policy.name} "
                      f"({ex.source or 'exemptions'}); the grounds are {', '.join(g.key for g in ex.grounds)}")
    if exempt:
        for name, col in roster.items():
            if col[k] > 0:
                raise t.error(k, name, f"an exempt row takes no roster point: give {name} on the post's TOTAL row")
    for name, col in roster.items():
        if col[k] > 0 and cat != "TOTAL":
            raise t.error(k, name, f"{name} belongs on a TOTAL row (the roster splits it); this row is {cat}")
    over = [tr for tr, v in minimums.items() if v > vacancies]
    if over:
        raise t.error(k, over[0], f"minimum {minimums[over[0]]} exceeds the row's {vacancies} vacancies")


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
                      "s.3(2)); this is direct recruitment: leave it empty or solve with --recruitment promotion")
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
            raise t.error(k, name, f"post {post!r} has {name} {values[j] or 'empty'} on line {t.line[j]}: {why}")


def _lookup(t: Table, column: str, index: dict[str, int], what: str, hint: str = "") -> np.ndarray:
    """`index[value]` for each cell of a dictionary-encoded `column` (int32); an error names the first unknown
    cell. Matched on the distinct values (a dict: JoSAA's 177,000 values, against 19.4 million cells), then one
    gather per row."""
    enc = t.encoded[column]
    found = np.fromiter((index.get(v, -1) for v in enc.values.tolist()), dtype=np.int32, count=len(enc.values))
    out = enc.take(found)
    if (found < 0).any() and (k := _first_bad(out < 0)) is not None:
        raise t.error(k, column, f"unknown {what} {enc.value(k)!r}{hint}")
    return out


def _cell(t: Table, column: str, row: int) -> str:
    return t.encoded[column].value(row)


def _first_repeat(a: np.ndarray, b: np.ndarray) -> tuple[int, int] | None:
    """First pair of rows (earlier, later in the file) with equal (a, b), or None."""
    srt = sorted_by([a, b])   # (stable: equal pairs stay in file order)
    same = (a[srt][1:] == a[srt][:-1]) & (b[srt][1:] == b[srt][:-1])
    if not same.any():
        return None
    later = srt[1:][same]
    k = int(later.min())
    first = int(srt[:-1][same][np.argmin(later)])
    return first, k


def _who_ranked(cand: np.ndarray, post: np.ndarray, n: int, posts: int) -> np.ndarray | None:
    """P x n bool, who ranked each post (`Ranking.ranked_by_post`), by a scatter where it is small enough
    (JoSAA: 160 MB); None where it is not. Fewer marks than rows means some candidate ranks a post twice (the
    sort in `_first_repeat` then names the lines)."""
    if n * posts > 400_000_000:
        return None
    seen = np.zeros((posts, n), dtype=bool)
    seen[post, cand] = True
    return seen


def preferences_table(path, warn=None) -> Table:
    """preferences.csv as read, before its ids and posts are looked up (`read_preferences`)."""
    return read_table(path, ["candidate_id", "order", "post"], [], warn, encode=("candidate_id", "post"),
                      numbers=("order",))


def read_preferences(path, ids_by_input: dict[str, int], posts: tuple[str, ...], n: int, warn=None,
                     table: Table | None = None):
    """preferences.csv: candidate_id, order (1 = most wanted), post; vectorised for tens of millions of rows.
    Returns each candidate's posts in order, and the `Ranking` views the read made on the way: who ranked each
    post (P x n, where small enough) and the ranked rows in merit order (where the file or the sort gave them).
    `table`: the file already read (`preferences_table`)."""
    t = table if table is not None else preferences_table(path, warn)
    order = _numbers(t, "order", integer=True)
    if len(order) and (order.min() < 1 or order.max() > 2**31 - 1):
        k = _first_bad((order < 1) | (order > 2**31 - 1))
        raise t.error(k, "order", f"order must be from 1 to {2**31 - 1}, got {t['order'][k]}")
    order = order.astype(np.int64, copy=False)
    cand = _lookup(t, "candidate_id", ids_by_input, "candidate")
    post = _lookup(t, "post", {p: j for j, p in enumerate(posts)}, "post", " (not in vacancies.csv)")
    # A file written candidate by candidate, each list in order, needs no sort (two checks, 0.2 s at JoSAA
    # size, against two sorts of 19 million rows), and then no candidate gives an order twice. (Masks only: a
    # difference of the orders is 155 MB.)
    new = np.r_[True, cand[1:] != cand[:-1]] if len(cand) else np.zeros(0, bool)
    starts = np.flatnonzero(new)
    grouped = len(starts) == np.count_nonzero(np.bincount(cand, minlength=n)) and \
        not (~new[1:] & (order[1:] <= order[:-1])).any()
    if not grouped and (rep := _first_repeat(cand, order)) is not None:
        raise t.error(rep[1], "order", f"order {order[rep[1]]} given twice for candidate "
                      f"{_cell(t, 'candidate_id', rep[1])!r} (also line {t.line[rep[0]]})")
    seen = _who_ranked(cand, post, n, len(posts))
    if (seen is None or np.count_nonzero(seen) < len(cand)) and (rep := _first_repeat(cand, post)) is not None:
        raise t.error(rep[1], "post", f"post {posts[post[rep[1]]]!r} ranked twice by "
                      f"{_cell(t, 'candidate_id', rep[1])!r} (also line {t.line[rep[0]]})")
    views = {"ranked_by_post": seen} if seen is not None else {}
    if grouped:
        lists = [post[:0]] * n
        for s, e in zip(starts.tolist(), np.r_[starts[1:], len(cand)].tolist()):
            lists[cand[s]] = post[s:e]
        if (np.diff(cand[starts]) > 0).all():   # (candidates in merit order too: the rows as they stand)
            views["rows"] = (cand, post)
        return tuple(lists), views
    srt = sorted_by([cand, order])
    cand, ranked = cand[srt], post[srt]
    bounds = np.searchsorted(cand, np.arange(n + 1))
    views["rows"] = (cand, ranked)
    return tuple(ranked[bounds[i]:bounds[i + 1]] for i in range(n)), views


def input_sources(candidates, vacancies, preferences=None) -> dict[str, str]:
    """Each input's role and where it came from (`Problem.sources`: messages and the provenance name them)."""
    return {"candidates": str(candidates), "vacancies": str(vacancies),
            **({"preferences": str(preferences)} if preferences is not None else {})}


def read_problem(policy: Policy, candidates, vacancies, preferences=None, warn=None) -> Problem:
    # The preferences are decoded (Arrow, outside the interpreter's lock) while the candidates and vacancies are
    # read and checked; their warnings are said after those files', and a bad candidates file is still told
    # first, as when the files were read one after another.
    said: list[str] = []
    pending = Background(preferences_table, preferences, said.append) if preferences is not None else None
    cands, _ = read_candidates(candidates, policy, warn)
    posts, rows = read_vacancies(vacancies, policy, warn)
    prefs, views = None, {}
    if pending is not None:
        table = pending.result()
        for text in said:
            if warn:
                warn(text)
        ids_by_merit = {cid: i for i, cid in enumerate(cands.ids)}
        prefs, views = read_preferences(preferences, ids_by_merit, posts, len(cands), warn, table)
    problem = Problem(cands, posts, rows, prefs, input_sources(candidates, vacancies, preferences))
    problem.ranking.seed(**views)   # (what the reader's checks made: no second copy of 19 million rows)
    release_arrow_memory()
    return problem
