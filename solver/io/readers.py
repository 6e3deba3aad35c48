"""Read and validate candidates, vacancies and preferences into a `Problem` (SPEC.md, "Input tables").

Each problem raises `InputError` naming file, line, column and the problem; nothing is written before
every input has been read.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa

from .background import Background
from ..errors import InputError
from ..policy import Policy
from ..data.problem import Candidates, Problem, availed
from .cells import _bools, _choice, _first_bad, _is_date, _numbers, _parsed, ordinals, unique_ids
from .choices import CHOICES, read_choices
from .tables import Table, read_table, release_arrow_memory, source_name
from .preferences import preferences_table, read_preferences
from .seat_pools import check_home_states
from .vacancies import read_vacancies


def read_candidates(path, policy: Policy, warn=None) -> tuple[Candidates, Table]:
    optional = ["rank", "score", "gender", "creamy_layer", "relaxed", "pwbd", "ex_serviceman",
                "district", "block", "birth_date", "caste", "fit", "failed_test", "appointed", "name", "home_state",
                *policy.merit.stage_columns()]
    t = read_table(path, ["id", "category"], optional, warn)
    n = len(t)
    if n == 0:
        raise InputError(path, None, None, "no candidates")
    ids = unique_ids(t)
    _formula_like(t, ids, warn)
    cats = _categories(t, policy, warn)
    _unused_places(t, policy, path, warn)
    bad = ~np.isin(cats, policy.member_codes)
    if (k := _first_bad(bad)) is not None:
        raise t.error(k, "category", "empty category: give it (or a caste the policy's schedules place)" if not cats[k]
                      else f"unknown category {str(cats[k])!r}; this policy knows {policy.member_codes}")
    if t.has("rank") == t.has("score"):
        raise InputError(path, 1, None, "give exactly one of the columns 'rank' (1 = best) or 'score' (higher = better)")
    birth = _birth_dates(t, n)
    kinds = _relaxations(t)
    if t.has("rank"):
        merit, score, tied = np.argsort(ordinals(t, "rank", "1 = best, one rank per candidate"), kind="stable"), None, None
    else:
        merit, score, tied = _merit_by_score(t, policy, ids, birth, warn)
    gender = _choice(t, "gender", {"M", "F", "T", ""})
    c = Candidates(
        ids=ids[merit].astype(object),
        category=cats[merit].astype(object),
        female=(gender == "F")[merit],
        creamy=_bools(t, "creamy_layer")[merit],
        relaxed=availed(kinds, policy.migration.bars_open.final)[merit] if kinds is not None
        else _bools(t, "relaxed")[merit],
        pwbd=_choice(t, "pwbd", {"", "a", "b", "c", "d", "e"})[merit],
        ex_serviceman=_bools(t, "ex_serviceman")[merit],
        score=score,
        line=t.line[merit],
        tied=tied,
        unfit=~_bools(t, "fit", empty=True)[merit] if t.has("fit") else None,
        failed_test=_bools(t, "failed_test")[merit] if t.has("failed_test") else None,
        appointed=t["appointed"].astype(str).astype(object)[merit] if t.has("appointed") else None,
        relaxations=kinds[merit] if kinds is not None else None,
        home_state=np.array([str(x).strip() for x in t["home_state"]], dtype=object)[merit]
        if t.has("home_state") else None,
    )
    return c, t


RELAXATIONS = ("age", "attempts", "fee", "qualifying", "standard")


def _relaxations(t: Table) -> np.ndarray | None:
    """The `relaxed` column as the kinds of relaxation availed (';'-joined in `RELAXATIONS`' order), where a cell
    names kinds (age, attempts, fee, qualifying, standard; several joined by ';', ',' or '+'); None where every
    cell is true/false (a true is a relaxed standard, read as before)."""
    from .cells import FALSE, TRUE
    if not t.has("relaxed"):
        return None
    raw = [str(x).strip().casefold() for x in t["relaxed"]]
    if all(x in TRUE or x in FALSE for x in raw):
        return None
    out = []
    for k, cell in enumerate(raw):
        if cell in FALSE:
            out.append("")
            continue
        if cell in TRUE:
            out.append("standard")
            continue
        parts = {p.strip() for p in cell.replace(",", ";").replace("+", ";").split(";") if p.strip()}
        unknown = sorted(parts - set(RELAXATIONS))
        if unknown:
            raise t.error(k, "relaxed", f"{unknown[0]!r} is not a relaxation: give true/false, or what was relaxed "
                          f"({', '.join(RELAXATIONS)}; several joined by ';')")
        out.append(";".join(x for x in RELAXATIONS if x in parts))
    return np.array(out, dtype=object)



def _unused_places(t: Table, policy: Policy, path, warn) -> None:
    """A district or block column places a caste by the policy's schedules: said where nothing it places."""
    placed = t.has("caste") and policy.castes is not None
    for column in ("district", "block"):
        if warn and t.has(column) and not placed and (t[column] != "").any():
            warn(f"{path}: the {column} column places a caste by the policy's schedules ([castes]); with "
                 f"{'no caste column' if policy.castes is not None else 'a policy without schedules'} it is not used")


def _birth_dates(t: Table, n: int) -> np.ndarray:
    """The birth dates as text ("" where none), each a day of the calendar."""
    if not t.has("birth_date"):
        return np.full(n, "", dtype=object)
    birth = t["birth_date"].astype(str)
    bad = np.array([b != "" and not _is_date(b) for b in birth], dtype=bool)
    if (k := _first_bad(bad)) is not None:
        raise t.error(k, "birth_date", f"{str(birth[k])!r} is not a date YYYY-MM-DD (a day of the calendar)")
    return birth


def _merit_by_score(t: Table, policy: Policy, ids: np.ndarray, birth: np.ndarray, warn=None):
    """The merit order by score, ties broken by `merit.tie_breaks` in order (`_tie_keys`). Returns (order, scores
    in merit order, tie blocks only ids settle); a tie the breaks cannot settle, where the id is not one of
    them, is an error naming both lines."""
    score = _numbers(t, "score", integer=False)
    names, keys = zip(*_tie_keys(t, policy, ids, birth, score, warn)) if policy.merit.tie_breaks else ((), ())
    # lexsort: last key is primary.
    merit = np.lexsort(tuple(reversed(keys)) + (-score,))
    s = score[merit]
    same = s[1:] == s[:-1]
    for key_arr in keys:
        same &= key_arr[merit][1:] == key_arr[merit][:-1]
    if "id" not in names and (k := _first_bad(same)) is not None:
        a, b = merit[k], merit[k + 1]
        raise t.error(int(b), "score", f"tie with line {t.line[a]} that the policy's tie-breaks "
                      f"{policy.merit.tie_breaks} cannot resolve")
    tied = _tied(s, [key[merit] for key, name in zip(keys, names) if name != "id"])
    return merit, s, tied


def _tie_keys(t: Table, policy: Policy, ids, birth, score, warn) -> list[tuple[str, np.ndarray]]:
    """Each tie-break's sort key, ascending = better: the id; the birth date (the older first; none last); the
    name (alphabetical, case folded; none last); a stage's or stages' marks (more first; none last). A stage
    break whose score_STAGE column the file lacks is said where scores tie, and left out."""
    out = []
    for key in policy.merit.tie_breaks:
        if key == "id":
            out.append((key, ids))
        elif key == "birth_date":
            out.append((key, np.where(birth == "", "9999-99-99", birth)))
        elif key == "name":
            names = t["name"].astype(str) if t.has("name") else np.full(len(ids), "", dtype=object)
            out.append((key, np.array([x.casefold() if x else "\uffff" for x in names], dtype=object)))
        else:
            columns = [f"score_{s}" for s in key.split("+")]
            missing = [c for c in columns if not t.has(c)]
            if missing:
                if warn and len(np.unique(score)) < len(score):
                    warn(f"{t.path}: scores tie and the policy breaks ties on {key} marks first, but the file has no "
                         f"{', '.join(missing)} column (aarakshan merit writes it): that break is not applied")
                continue
            marks = sum(_stage_marks(t, c) for c in columns)
            out.append((key, -marks))
    return out


def _stage_marks(t: Table, column: str) -> np.ndarray:
    """A stage's marks for a tie-break: numbers (parsed as every number column is, `cells._parsed`), a blank
    cell last (minus infinity)."""
    raw = t[column].astype(str)
    blank = raw == ""
    vals = _parsed(t, column, np.where(blank, "-inf", raw))
    if (k := _first_bad(~blank & ~np.isfinite(vals))) is not None:
        raise t.error(k, column, f"{str(raw[k])!r} is not a finite number (a stage's marks)")
    return vals


def _appointed_elsewhere(c: Candidates, posts: tuple[str, ...], path, warn) -> None:
    """An `appointed` post not among this recruitment's posts bars nothing here: said, as it may be a misspelling."""
    if warn is None or c.appointed is None:
        return
    other = np.flatnonzero((c.appointed != "") & ~np.isin(c.appointed, list(posts)))
    if len(other):
        k = other[np.argmin(c.line[other])]
        warn(f"{path}: {len(other)} candidates' appointed post is not among the posts of this recruitment (line "
             f"{c.line[k]}: {str(c.appointed[k])!r}); it bars them from none")


def _formula_like(t: Table, ids: np.ndarray, warn) -> None:
    """Ids a spreadsheet would run as formulas (beginning =, +, - or @): the outputs keep them exactly, so say
    that opening allocation.csv in a spreadsheet is not safe (OWASP, "CSV injection")."""
    if warn is None or not len(ids):
        return
    risky = np.flatnonzero(np.isin(ids.astype("U1"), ["=", "+", "-", "@"]))   # (U1: each id's first character)
    if len(risky):
        warn(f"{t.path}: {len(risky)} ids begin with =, +, - or @ (line {t.line[risky[0]]}: "
             f"{str(ids[risky[0]])[:40]!r}); the outputs keep them as they are, and a spreadsheet opening the CSV "
             "files may run them as formulas: import the files as text")


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
    from ..data.castes import load, resolve
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


def _lists(ranks, cands, rows, vacancies, same_rank: bool = False, warn=None):
    """The merit lists of a ranks file (`solver.io.ranks`), each post's `merit_list` one of them; None without
    a ranks file, where a post naming a list is refused. A ranks file no post ranks by is said."""
    named = [r for r in rows if r.merit_list]
    if ranks is None:
        if named:
            raise InputError(vacancies, named[0].line, "merit_list", f"post {named[0].post!r} is ranked by list "
                             f"{named[0].merit_list!r}: give the ranks file that holds it")
        return None
    from .ranks import read_ranks
    lists = read_ranks(ranks, {cid: i for i, cid in enumerate(cands.ids)}, len(cands), same_rank)
    for r in named:
        if r.merit_list not in lists.names:
            raise InputError(vacancies, r.line, "merit_list", f"list {r.merit_list!r} is not in {ranks} (its lists: "
                             f"{', '.join(lists.names[1:])})")
    if not named and warn:
        warn(f"{source_name(ranks)}: no post ranks by its lists (vacancies.csv merit_list, the policy's "
             "merit.post_lists): every post ranks by the candidates' own merit")
    return lists


def _policy_lists(policy: Policy, rows, ranks, vacancies, warn):
    """Rows whose `merit_list` is empty take the policy's list for their post (`merit.post_lists`); without a
    ranks file those posts rank by the candidates' own merit, and it is said."""
    named = policy.merit.post_lists
    if not named:
        return rows
    key = [r.pool.program if r.pool is not None else r.post for r in rows]
    wanted = {k for r, k in zip(rows, key) if not r.merit_list and k in named}
    if ranks is None:
        if wanted and warn:
            warn(f"{vacancies}: {', '.join(sorted(wanted))} rank by their own merit lists under {policy.name} "
                 f"(merit.post_lists: {', '.join(sorted({named[k] for k in wanted}))}); without a ranks file they rank "
                 "here by the candidates' own merit")
        return rows
    return tuple(replace(r, merit_list=named[k]) if k in wanted and not r.merit_list else r for r, k in zip(rows, key))


def programs_of(rows, posts: tuple[str, ...]) -> tuple[str, ...]:
    """The programs a preferences file ranks: the posts themselves, or where rows name seat pools the programs
    they split (`solver.data.seat_pools`), in file order."""
    if not any(r.pool for r in rows):
        return posts
    return tuple(dict.fromkeys(r.pool.program for r in rows))


def _in_pools(policy: Policy, cands: Candidates, posts, rows, prefs, views):
    """Ranked programs as ranked seat pools (`solver.data.seat_pools.expand`); without a preferences file every
    candidate ranks every program in file order. As read where no row names a pool. Returns (the lists, the
    programs left out of them: `seat_pools.Unheld` or None, the reader's views)."""
    if not any(r.pool for r in rows):
        return prefs, None, views
    from ..data.seat_pools import expand
    programs = programs_of(rows, posts)
    pool = {r.post: r.pool for r in rows}
    if prefs is None:
        prefs = (np.arange(len(programs)),) * len(cands)
    read = views.get("rows")      # (the choices candidate after candidate, in merit order, as the read made them)
    return *expand(prefs, programs, tuple(pool[p] for p in posts), policy.seat_pools, cands,
                   read[1] if read is not None else None), {}


def input_sources(candidates, vacancies, preferences=None, ranks=None) -> dict[str, str]:
    """Each input's role and where it came from (`Problem.sources`: messages and the provenance name them)."""
    return {"candidates": source_name(candidates), "vacancies": source_name(vacancies),
            **({"preferences": source_name(preferences)} if preferences is not None else {}),
            **({"ranks": source_name(ranks)} if ranks is not None and not (isinstance(ranks, str) and not ranks)
               else {})}


def read_problem(policy: Policy, candidates, vacancies, preferences=None, warn=None, ranks=None,
                 choices=None, lists: bool = True) -> Problem:
    """The problem in the input files (SPEC.md, "Input tables"), read and checked under `policy`. `choices`:
    the path of an earlier run's choices.npy (`solver.io.choices`): each candidate's ranked posts as that run read
    `preferences`, taken in place of reading that file again (`preferences` still names it), or, where it does not
    fit these candidates and posts, the file is read after all, with a warning. `lists=False`: the posts' merit
    lists (vacancies.csv `merit_list`, the policy's `merit.post_lists`) are not read, every post ranking by the
    candidates' own merit: a shortlist is called on the stage's score, before the final stage's lists exist."""
    # The preferences are decoded (Arrow, outside the interpreter's lock) while the candidates and vacancies are
    # read and checked; their warnings are said after those files', and a bad candidates file is still told
    # first, as when the files were read one after another.
    for name, given in (("candidates", candidates), ("vacancies", vacancies), ("preferences", preferences)):
        if given is not None and not isinstance(given, (str, Path, pa.Table)) and \
                type(given).__name__ != "DataFrame":
            raise TypeError(f"read_problem: {name} must be a path, a pandas DataFrame or a pyarrow Table, not "
                            f"{type(given).__module__.split('.')[0]}.{type(given).__name__}")
    said: list[str] = []
    pending = Background(preferences_table, preferences, said.append) \
        if preferences is not None and choices is None else None
    cands, _ = read_candidates(candidates, policy, warn)
    posts, rows = read_vacancies(vacancies, policy, warn)
    check_home_states(policy, cands, rows, source_name(candidates), source_name(vacancies), warn)
    rows = _policy_lists(policy, rows, ranks, vacancies, warn) if lists else \
        tuple(replace(r, merit_list="") if r.merit_list else r for r in rows)
    if choices is not None and (choices := read_choices(choices, len(cands), len(posts))) is None:
        if warn:
            warn(f"the earlier run's {CHOICES} does not hold choices of these candidates and posts in this "
                 f"version's format: {preferences} read again")
        pending = Background(preferences_table, preferences, said.append)
    prefs, views = None, {}
    if pending is not None:
        table, pending = pending.result(), None
        for text in said:
            if warn:
                warn(text)
        ids_by_merit = {cid: i for i, cid in enumerate(cands.ids)}
        prefs, views = read_preferences(preferences, ids_by_merit, programs_of(rows, posts), len(cands), warn,
                                        table)
        del table                # (its 300 MB at JoSAA size handed back before the seat pools' expansion allocates)
        release_arrow_memory()
    prefs, unheld, views = (*choices, {}) if choices is not None else \
        _in_pools(policy, cands, posts, rows, prefs, views)
    _appointed_elsewhere(cands, posts, candidates, warn)
    ranks = ranks if lists else None
    merit_lists = _lists(ranks, cands, rows, vacancies, policy.merit.same_rank == "supernumerary", warn)
    sources = input_sources(candidates, vacancies, preferences, ranks)
    # (seat pools without a preferences file: each candidate's list is every program in file order, which he did
    # not rank, so his reasons name no place in it)
    problem = Problem(cands, posts, rows, prefs, sources, merit_lists, unheld=unheld,
                      file_order=preferences is None and prefs is not None)
    problem.ranking.seed(**views)   # (what the reader's checks made: no second copy of 19 million rows)
    release_arrow_memory()
    return problem
