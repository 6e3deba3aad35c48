"""`aarakshan compare A/ B/`: what changed between two `solve` output folders (or two rounds of counselling,
`slide`'s folders, or a round against the first): who gains or
loses a post, per post and category the change in selections, cutoffs and unfilled vacancies, and selections
by the candidates' own category (open merit included).

Read from the folders' own files (allocation.csv, cutoffs.csv, unfilled.csv, summary.json); the candidates'
own categories from `--candidates`, or else from the candidates file the run recorded in its provenance,
where it is still there with the same SHA-256.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

from ..errors import InputError, OptionError
from ..io.cells import _first_bad, _numbers
from ..io.tables import read_table
from ..outcome.reports import changed_outputs, sha256_file
from ..outcome.unfilled import fill_by_post

CHANGE_COLUMNS = ["candidate_id", "category", "a_post", "a_seat", "a_route", "b_post", "b_seat", "b_route", "change"]


def _allocation(folder: Path) -> dict[str, tuple[str, str, str]]:
    t = read_table(folder / "allocation.csv", ["candidate_id", "post", "seat_category", "route"], [])
    return {str(t["candidate_id"][k]): (str(t["post"][k]), str(t["seat_category"][k]), str(t["route"][k]))
            for k in range(len(t))}


def _per_post(folder: Path, summary: dict) -> tuple[dict, dict]:
    """(post, category) -> last rank (cutoffs.csv), and -> [vacancies, filled, unfilled] (unfilled.csv). After a
    round of counselling (`slide`) unfilled.csv holds only the seats that round offered: the seats are then
    everyone holding one when it ends (cutoffs.csv's `filled`, who froze before included) and those it left."""
    c = read_table(folder / "cutoffs.csv", ["post", "category", "filled", "last_rank"], [])
    keys = [(str(c["post"][k]), str(c["category"][k])) for k in range(len(c))]
    cut = {key: str(c["last_rank"][k]) for k, key in enumerate(keys)}
    u = read_table(folder / "unfilled.csv", ["post", "category", "vacancies", "filled", "unfilled"], ["disposition"])
    counts = {name: _numbers(u, name, integer=True) for name in ("vacancies", "filled", "unfilled")}
    if (k := _first_bad(np.any([v < 0 for v in counts.values()], axis=0))) is not None:
        raise u.error(k, next(n for n, v in counts.items() if v[k] < 0), "a negative count")
    rows = zip(u["post"], u["category"], counts["vacancies"], counts["filled"], counts["unfilled"],
               u["disposition"] if u.has("disposition") else [""] * len(u))
    fill = {key: [v, f, sum(left.values())] for key, (v, f, left) in fill_by_post(rows).items()}
    if summary.get("stage") == "slide":
        held = dict(zip(keys, _numbers(c, "filled", integer=True).tolist()))
        left = {key: v[2] for key, v in fill.items()}
        fill = {key: [held.get(key, 0) + left.get(key, 0), held.get(key, 0), left.get(key, 0)]
                for key in held.keys() | left.keys()}
    return cut, fill


def _summary(folder: Path) -> dict:
    path = folder / "summary.json"
    if not path.exists():
        raise InputError(path, None, None, "file not found: not a `solve` output folder")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise InputError(path, None, None, f"not valid JSON ({e})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("provenance", {}), dict):
        raise InputError(path, None, None, "not a `solve` summary: expected a JSON object with its provenance")
    return doc


def _inputs(summary: dict) -> dict[str, str]:
    """input name -> SHA-256, as the run's provenance recorded them."""
    inputs = summary.get("provenance", {}).get("inputs", {})
    return {k: str(v.get("sha256", "")) for k, v in inputs.items() if isinstance(v, dict)} \
        if isinstance(inputs, dict) else {}


def _overrides(summary: dict) -> list:
    """A run's reform: every override since its model (the lineage, through a summary.json read back as its
    policy), else the overrides it recorded."""
    prov = summary.get("provenance", {})
    lineage = prov.get("lineage") if isinstance(prov.get("lineage"), dict) else {}
    return list(lineage.get("overrides", prov.get("overrides", [])))


def _order(summary: dict) -> list[str]:
    """The policy's category codes in its own order (open first), from a run's recorded policy."""
    pol = summary.get("provenance", {}).get("policy", {})
    cats = pol.get("categories", []) if isinstance(pol, dict) else []
    return [pol.get("open", "")] + [c.get("code", "") for c in cats if isinstance(c, dict)]


def differing_inputs(sa: dict, sb: dict) -> list[str]:
    """The inputs (candidates, vacancies, preferences) two runs recorded with different contents."""
    ia, ib = _inputs(sa), _inputs(sb)
    return [k for k in sorted(ia.keys() | ib.keys()) if ia.get(k) != ib.get(k)]


def _recorded(summaries: list[dict], role: str) -> list[Path]:
    """The run's `role` input where it is still there with the SHA-256 its provenance recorded."""
    out = []
    for s in summaries:
        inp = s.get("provenance", {}).get("inputs", {}).get(role, {})
        p = Path(inp.get("path", "")) if isinstance(inp, dict) and inp.get("path") else None
        if p is not None and p.is_file() and sha256_file(p) == inp.get("sha256"):
            out.append(p)
    return out


def _categories(candidates: Path | None, summaries: list[dict]) -> tuple[dict[str, tuple[str, str]], str]:
    """Each candidate's own category and horizontal traits (`winners.traits_label`), and where they were read
    from ('' when nowhere)."""
    from ..io.cells import _bools
    from .winners import traits_label
    for p in ([candidates] if candidates is not None else []) + _recorded(summaries, "candidates"):
        t = read_table(p, ["id", "category"], ["gender", "pwbd", "ex_serviceman"])
        female = [str(g).strip().upper() == "F" for g in t["gender"]] if t.has("gender") else [False] * len(t)
        pwbd = [str(x).strip() for x in t["pwbd"]] if t.has("pwbd") else [""] * len(t)
        ex = _bools(t, "ex_serviceman") if t.has("ex_serviceman") else [False] * len(t)
        return {str(t["id"][k]): (str(t["category"][k]), traits_label(female[k], pwbd[k], bool(ex[k])))
                for k in range(len(t))}, str(p)
    return {}, ""


def _preferences(summaries: list[dict]) -> dict[str, list[str]] | None:
    """Each candidate's posts in order of preference, from the preferences file the runs recorded (None: none)."""
    for p in _recorded(summaries, "preferences"):
        t = read_table(p, ["candidate_id", "order", "post"], [])
        order = _numbers(t, "order", integer=True)
        lists: dict[str, list] = {}
        for k in np.argsort(order, kind="stable"):
            lists.setdefault(str(t["candidate_id"][k]), []).append(str(t["post"][k]))
        return lists
    return None


def _posts(a: Path, b: Path, sa: dict, sb: dict) -> list[dict]:
    """Per post and category of either run: vacancies, filled, unfilled and the last rank selected in each,
    and whether any of them changed."""
    cut_a, fill_a = _per_post(a, sa)
    cut_b, fill_b = _per_post(b, sb)
    posts = []
    for key in sorted(fill_a.keys() | fill_b.keys()):
        va, vb = fill_a.get(key, [0, 0, 0]), fill_b.get(key, [0, 0, 0])
        posts.append({"post": key[0], "category": key[1], "vacancies": [va[0], vb[0]], "filled": [va[1], vb[1]],
                      "unfilled": [va[2], vb[2]], "last_rank": [cut_a.get(key, ""), cut_b.get(key, "")],
                      "changed": va != vb or cut_a.get(key) != cut_b.get(key)})
    return posts


def _by_own(own: dict, xa: dict, xb: dict, order: list) -> dict:
    """Those selected in each run by own category, in the policy's order of categories."""
    ca = Counter(own.get(cid, "?") for cid in xa)
    cb = Counter(own.get(cid, "?") for cid in xb)
    codes = sorted(ca | cb, key=lambda c: (order.index(c) if c in order else len(order), c))
    return {code: {"a": ca[code], "b": cb[code], "change": cb[code] - ca[code]} for code in codes}


def _as_written(folder: Path, summary: dict) -> None:
    """The run's files compare reads, as the run wrote them (their SHA-256 in its summary.json's outputs)."""
    for name in changed_outputs(folder, summary, ("allocation.csv", "cutoffs.csv", "unfilled.csv")):
        raise InputError(folder / name, None, None, "changed since the run wrote it (its SHA-256 differs "
                         "from summary.json's outputs): compare the runs' own files")


def compare(a: str | Path, b: str | Path, candidates: str | Path | None = None,
            other_candidates: bool = False) -> tuple[list[list[str]], dict]:
    """The changes.csv rows (one per candidate who fares otherwise) and the compare.json document.

    Two runs solved from different candidates are not a what-if of one recruitment: refused (InputError) unless
    `other_candidates`; other differing inputs (vacancies, preferences) are compared and named in the document.

    Example
    -------
    A folder compared with itself has no changes (`tests/study/test_compare.py`)."""
    a, b = Path(a), Path(b)
    sa, sb = _summary(a), _summary(b)
    _as_written(a, sa)
    _as_written(b, sb)
    differ = differing_inputs(sa, sb)
    if "candidates" in differ and not other_candidates:
        raise OptionError("other_candidates", f"{b} was solved from other candidates than {a} (their summaries "
                          "record different SHA-256s): its changes would mix two merit lists; not compared unless "
                          "asked for")
    from .winners import change_kind, tally
    xa, xb = _allocation(a), _allocation(b)
    groups, own_from = _categories(Path(candidates) if candidates else None, [sa, sb])
    own = {cid: g[0] for cid, g in groups.items()}
    ranked = _preferences([sa, sb])
    rows = []
    for cid in sorted(xa.keys() | xb.keys()):
        pa, pb = xa.get(cid), xb.get(cid)
        if pa == pb:
            continue
        change = change_kind(pa and pa[:2], pb and pb[:2], ranked.get(cid) if ranked is not None else None) \
            or "another route to the seat"
        rows.append([cid, own.get(cid, ""), *(pa or ("", "", "")), *(pb or ("", "", "")), change])
    posts = _posts(a, b, sa, sb)
    by_own = _by_own(own, xa, xb, _order(sb)) if own else None
    doc = {
        "a": {"folder": str(a), "overrides": _overrides(sa), "selected": len(xa)},
        "b": {"folder": str(b), "overrides": _overrides(sb), "selected": len(xb)},
        "inputs_differ": differ,
        "candidates_changed": len(rows),
        "changes": dict(sorted(Counter(r[-1] for r in rows).items())),
        "selected_by_own_category": by_own,
        "own_category_from": own_from or "not available: give the candidates file",
        # by own category x horizontal trait: who gains, loses, moves up or down his preferences
        "winners_losers": tally([(*groups.get(r[0], ("?", "?")), r[-1]) for r in rows], _order(sb))
        if groups else None,
        "posts": [p for p in posts if p["changed"]],
    }
    return rows, doc
