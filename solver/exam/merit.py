"""The final order of merit from the stages' scores: each stage's file gives a score per candidate, and the
policy says which stages count (`merit.stages`; CSE: the main examination and the interview, the preliminary
marks being a screening test only). The candidates file comes back with `score` the sum of the stages that
count, every other column as it was, ready for `aarakshan solve`."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from ..errors import InputError, OptionError
from ..io.cells import _first_bad, _numbers, unique_ids
from ..io.tables import read_table
from ..policy import Policy


def combined_scores(policy: Policy, candidates, stages: dict[str, str | Path], warn=lambda _: None) -> pa.Table:
    """The candidates table with `score` the sum of the counted stages' scores.

    Parameters
    ----------
    policy : its `merit.stages` name the stages that count (empty: every stage given).
    candidates : the final stage's candidates file (its `score`, if any, is replaced).
    stages : stage name -> a file of `candidate_id, score` (or `id, score`) for that stage.

    Raises
    ------
    InputError (exit 2): a stage the policy counts not given, a candidate without a score at a counted stage, a
    score that is not a number, a candidate twice in a stage's file.

    Example
    -------
    >>> import tempfile, pathlib
    >>> from solver import load_policy
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "c.csv").write_text("id,category\\nA,UR\\nB,OBC\\n")
    >>> _ = (d / "m.csv").write_text("candidate_id,score\\nA,700\\nB,720\\n")
    >>> _ = (d / "i.csv").write_text("candidate_id,score\\nA,180\\nB,150\\n")
    >>> t = combined_scores(load_policy("upsc-cse"), d / "c.csv", {"main": d / "m.csv", "interview": d / "i.csv"})
    >>> t.column("score").to_pylist(), t.column("score_interview").to_pylist()
    ([880.0, 870.0], [180.0, 150.0])
    """
    counted = list(policy.merit.stages) or list(stages)
    missing = [s for s in counted if s not in stages]
    if missing:
        raise OptionError("stages", f"the policy counts the {', '.join(missing)} stage(s) toward the "
                         f"final merit ({policy.merit.stages_source or 'merit.stages'}): give their scores")
    breaking = {c[len("score_"):] for c in policy.merit.stage_columns()}
    for name in stages:
        if name not in counted and name not in breaking:
            warn(f"the {name} stage's scores are not counted toward the final merit (the policy counts "
                 f"{', '.join(counted)}) nor in its tie-breaks; written as score_{name}")
    base = read_table(candidates, ["id"], [])
    ids = unique_ids(base).tolist()     # (an empty or repeated id is the candidates file's, not a stage's)
    total = np.zeros(len(ids))
    each = {name: _stage_scores(path, ids, name, warn) for name, path in stages.items()}
    for name in counted:
        with np.errstate(over="ignore"):    # (an overflow is told below, naming the candidate)
            total += each[name]
    if (k := _first_bad(~np.isfinite(total))) is not None:
        raise InputError(candidates, int(base.line[k]), "id", f"{ids[k]}'s final score is not a finite number "
                         f"(the stages' scores sum to {total[k]}): a stage's score is out of range")
    if Path(candidates).suffix == ".parquet":   # (formats.md: Parquet wherever a CSV is read)
        import pyarrow.parquet as pq
        read = pq.ParquetFile(candidates).read()
        table = pa.table({c: read.column(c).cast(pa.string()).fill_null("") for c in read.column_names})
    else:
        table = pacsv.read_csv(candidates, convert_options=pacsv.ConvertOptions(
            strings_can_be_null=False, column_types={c: pa.string() for c in base.header}))
    score = pa.array(np.round(total, 6))
    if "score" in table.column_names:
        table = table.set_column(table.column_names.index("score"), "score", score)
    else:
        table = table.append_column("score", score)
    # each stage's own marks, for the tie-breaks that read them (merit.tie_breaks: score_STAGE)
    for name, marks in each.items():
        column = f"score_{name}"
        if column in table.column_names:
            table = table.drop_columns([column])
        table = table.append_column(column, pa.array(np.round(marks, 6)))
    return table


def _stage_scores(path, ids: list[str], stage: str, warn=lambda _: None) -> np.ndarray:
    """Each candidate's score at one stage, in the candidates file's order; a score for someone not among the
    candidates is said (one not called to the final stage), not counted."""
    t = read_table(path, ["score"], ["candidate_id", "id"])
    column = "candidate_id" if t.has("candidate_id") else "id"
    if not t.has(column):
        raise InputError(path, 1, None, "give a candidate_id (or id) column beside score")
    scores = _numbers(t, "score", integer=False)
    seen: dict[str, float] = {}
    for k, cid in enumerate(str(x) for x in t[column]):
        if cid in seen:
            raise t.error(k, column, f"{cid} has a second score at the {stage} stage")
        seen[cid] = float(scores[k])
    known = set(ids)
    extra = [k for k, cid in enumerate(str(x) for x in t[column]) if cid not in known]
    if extra:
        warn(f"{path}: {len(extra)} candidate(s) scored at the {stage} stage are not in the candidates file (the "
             f"first, {t[column][extra[0]]}, on line {t.line[extra[0]]}): not counted")
    absent = [cid for cid in ids if cid not in seen]
    if absent:
        raise InputError(path, None, None, f"{absent[0]} has no score at the {stage} stage ({len(absent)} such)")
    return np.array([seen[cid] for cid in ids])


def write_scores(table: pa.Table, path: Path) -> None:
    """The table as CSV, quoting only what needs it (as the candidates files are written)."""
    import csv
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(table.column_names)
        cols = [c.to_pylist() for c in table.columns]
        w.writerows([_cell(v) for v in row] for row in zip(*cols))


def _cell(v):
    from ..outcome.cutoffs import number_text
    return number_text(v) if isinstance(v, float) else "" if v is None else v
