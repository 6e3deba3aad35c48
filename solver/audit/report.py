"""The audit's outputs, written like `solve`'s: into a staging folder, published whole."""
from __future__ import annotations

from pathlib import Path

from .. import __version__
from ..io.staging import Staged, stage, write_csv, write_json
from ..outcome.reports import diff_rows
from ..outcome.result import ALLOCATION_COLUMNS
from .audit import AuditResult

CONTESTED_COLUMNS = ["candidate_id", "reading", "outcome", "alternative", "rule", "source"]
ANSWER_COLUMNS = ["question", "answer", "reading", "blocking", "detail"]
ALTERNATIVE_DIFF = ["candidate_id", "official_post", "official_seat", "official_route", "alternative_post",
                    "alternative_seat", "alternative_route", "rule"]
AUDIT_FILES = ("audit.json", "contested.csv", "answers.csv", "alternatives")


def stage_audit(out: str | Path, a: AuditResult) -> Staged:
    def write(tmp: Path) -> None:
        base = a.readings[0].result
        write_csv(tmp / "contested.csv", CONTESTED_COLUMNS, a.contested)
        write_csv(tmp / "answers.csv", ANSWER_COLUMNS, [[x[k] for k in ANSWER_COLUMNS] for x in a.answers])
        for name, alt in a.alternatives.items():
            folder = tmp / "alternatives" / name
            folder.mkdir(parents=True)
            write_csv(folder / "allocation.csv", ALLOCATION_COLUMNS, alt.allocation_rows())
            write_csv(folder / "diff.csv", ALTERNATIVE_DIFF, diff_rows(base, alt))
        write_json(tmp / "audit.json", {
            "unique": a.unique,
            "open_questions": [{"key": o.key, "question": o.question, "values": list(o.values),
                                "authority": {v: o.source(v) for v in o.values}} for o in a.options],
            "readings": [{"reading": r.name, "sets": list(r.sets), "changes": r.rule, "authority": r.source}
                         for r in a.readings],
            "contested": len({row[0] for row in a.contested}), "questions": a.answers,
            "alternatives": {name: {"question": a.asked.get(name, name), "folder": f"alternatives/{name}"}
                             for name in a.alternatives},
            "status": a.status,
            "timings": a.timings, "version": __version__})
    return stage(out, write, AUDIT_FILES)


def stage_shortlist_audit(out: str | Path, a, ratio: float) -> Staged:
    """audit.json and contested.csv of a shortlisting stage's audit (`solver.audit.shortlisting`)."""
    from .shortlisting import CONTESTED_COLUMNS as SHORTLIST_CONTESTED, POST_LIST

    def write(tmp: Path) -> None:
        write_csv(tmp / "contested.csv", SHORTLIST_CONTESTED + ([POST_LIST] if a.lists else []), a.contested)
        write_json(tmp / "audit.json", {
            "stage": "shortlist", "ratio": ratio,
            "open_questions": [{"key": o.key, "question": o.question, "values": list(o.values),
                                "authority": {v: o.source(v) for v in o.values}} for o in a.options],
            "readings": [{"reading": name, "sets": list(sets), "changes": rule, "authority": source,
                          "called": len(a.called(name)), **({"cutoffs": calls[""].cutoffs} if "" in calls else
                                                            {"lists": {k: {"called": int(x.called.sum()),
                                                                           "cutoffs": x.cutoffs}
                                                                       for k, x in calls.items()}})}
                         for name, sets, rule, source, calls in a.readings],
            "contested": len({row[0] for row in a.contested}), "version": __version__})
    return stage(out, write, AUDIT_FILES)
