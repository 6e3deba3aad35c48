"""ranks.csv, the merit lists other than the candidates file's own: `candidate_id`, `list`, and `rank` (1 the best,
each once within a list) or `score` (more is better; equal scores in the candidates' own merit order). Errors
name file, line and column (`solver.data.lists`)."""
from __future__ import annotations

import numpy as np

from ..data.lists import ABSENT, MeritLists
from .cells import _first_bad, _numbers
from .tables import read_table


def read_ranks(path, ids_by_merit: dict[str, int], n: int, same_rank: bool = False) -> MeritLists:
    """The lists of `path` over the `n` candidates (`ids_by_merit`: id -> place in the candidates' own merit
    order, the order of `Problem.candidates`). `same_rank`: candidates of equal rank (or score) on a list are of
    the same rank (the policy's `merit.same_rank = "supernumerary"`), kept as one level; otherwise an equal rank
    is refused and equal scores are ordered by the candidates' own merit.

    Example
    -------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "ranks.csv"
    >>> _ = f.write_text("candidate_id,list,score\\nA,p2,50\\nB,p2,70\\n")
    >>> read_ranks(f, {"A": 0, "B": 1, "C": 2}, 3).position[1].tolist()[:2]
    [1, 0]
    """
    t = read_table(path, ["candidate_id", "list"], ["rank", "score"])
    if t.has("rank") == t.has("score"):
        raise t.error(None, None, "give a rank column or a score column (one of the two)")
    who = np.array([ids_by_merit.get(str(x), -1) for x in t["candidate_id"]], dtype=np.int64)
    if (k := _first_bad(who < 0)) is not None:
        raise t.error(k, "candidate_id", f"{str(t['candidate_id'][k])!r} is not among the candidates")
    names = [str(x) for x in t["list"]]
    if (k := _first_bad(np.array([x.strip() == "" for x in names]))) is not None:
        raise t.error(k, "list", "empty list name")
    column = "rank" if t.has("rank") else "score"
    value = _numbers(t, column, integer=column == "rank")
    lists: dict[str, np.ndarray] = {}
    levels: dict[str, np.ndarray] = {}
    for name in dict.fromkeys(names):
        rows = np.flatnonzero(np.array(names) == name)
        lists[name], levels[name] = _positions(t, rows, who, value, column, n, name, same_rank)
    return MeritLists.of(n, lists, levels)


def _positions(t, rows: np.ndarray, who: np.ndarray, value: np.ndarray, column: str, n: int, name: str,
               same_rank: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """One list's place of each candidate (by own merit position), ABSENT where not on it, and each one's level
    (the place of the first of equal rank, where `same_rank`; else the place)."""
    seen = {}
    for r in rows.tolist():
        if who[r] in seen:
            raise t.error(r, "candidate_id", f"{t['candidate_id'][r]} is on list {name!r} twice (also line "
                                             f"{t.line[seen[who[r]]]})")
        seen[who[r]] = r
    if column == "rank":
        if (k := _first_bad(value[rows] < 1)) is not None:
            raise t.error(int(rows[k]), "rank", "a rank is a whole number from 1")
        ranks = value[rows]
        srt = np.argsort(ranks, kind="stable")
        if not same_rank and len(dup := np.flatnonzero(ranks[srt][1:] == ranks[srt][:-1])):
            a, b = sorted((int(rows[srt[dup[0]]]), int(rows[srt[dup[0] + 1]])))
            raise t.error(b, "rank", f"rank {int(ranks[srt[dup[0]]])} is given twice on list {name!r} (also line "
                                     f"{t.line[a]})")
        order = np.lexsort((who[rows], ranks))
        key = ranks[order]
    else:
        order = np.lexsort((who[rows], -value[rows]))     # more first; equal scores in own merit order
        key = -value[rows][order]
    out = np.full(n, ABSENT, dtype=np.int64)
    out[who[rows[order]]] = np.arange(len(rows))
    level = out
    if same_rank and len(key):
        first = np.r_[0, np.flatnonzero(key[1:] != key[:-1]) + 1]      # (each run of equal ranks' first place)
        level = out.copy()
        level[who[rows[order]]] = np.repeat(first, np.diff(np.r_[first, len(key)]))
    return out, level
