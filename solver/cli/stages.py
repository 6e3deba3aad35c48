"""The stages of a combined examination before the final list: `shortlist` (checked by `verify --stage
shortlist`)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from ..errors import AarakshanError
from .common import PolicyOpt, SetOpt, app, fail, load, warn


@app.command("shortlist")
def shortlist_cmd(
    policy: str = PolicyOpt,
    candidates: Path = typer.Option(..., "--candidates", help="the stage's candidates, with their stage score"),
    vacancies: Path = typer.Option(..., "--vacancies", help="the final stage's vacancies, as notified"),
    ratio: float = typer.Option(..., "--ratio", help="candidates called per vacancy of each category"),
    out: Path = typer.Option(..., "--out", help="output folder: shortlist.csv, cutoffs.csv, summary.json"),
    stage: str = typer.Option("next stage", "--stage", help="the stage called to (named in summary.json)"),
    shortlist: Optional[Path] = typer.Option(None, "--shortlist", help="the previous stage's shortlist.csv: "
                                             "these candidates must all be on it"),
    set_: list[str] = SetOpt,
):
    """Call candidates to the next stage: per category the ratio times its vacancies, the open list first, so
    that a reserved candidate who reaches its cut-off is counted in it (Rajat Yadav 2026); ties called."""
    from ..io.readers import read_problem
    from ..io.staging import stage as staged_out, write_csv, write_json
    from ..reports import provenance
    from ..shortlist import CUTOFF_COLUMNS, SHORTLIST_COLUMNS, only_called, shortlist as run_shortlist

    pol = load(policy, set_, "direct")
    try:
        problem = read_problem(pol, candidates, vacancies, warn=warn)
        sources = dict(problem.sources)
        if shortlist is not None:
            only_called(candidates, shortlist)
            sources["shortlist"] = str(shortlist)
        res = run_shortlist(pol, problem, ratio)
        doc = {"stage": stage, "ratio": ratio, "called": int(res.called.sum()), "candidates": problem.n,
               "places": res.places, "vacancies": res.vacancies,
               "cutoffs": {k: v for k, v in res.cutoffs.items()},
               "provenance": provenance(pol, list(set_), "shortlist", sources)}

        def write(tmp: Path) -> None:
            write_csv(tmp / "shortlist.csv", SHORTLIST_COLUMNS, res.rows(problem, pol))
            write_csv(tmp / "cutoffs.csv", CUTOFF_COLUMNS, res.cutoff_rows(pol))
            write_json(tmp / "summary.json", doc)
        staged_out(out, write, ("shortlist.csv", "cutoffs.csv", "summary.json")).publish()
    except AarakshanError as e:
        fail(e)
    cut = ", ".join(f"{k} {v:g}" for k, v in res.cutoffs.items() if v is not None)
    Console().print(f"{int(res.called.sum()):,} of {problem.n:,} called to the {stage} (cut-offs: {cut}); written "
                    f"to {out}/", highlight=False)
