"""`compare`: what changed between two runs (`sweep`, many policies at once, is in `cli/sweeps.py`)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import AarakshanError
from .common import say, app, fail, optional_report
from .sweeps import print_winners


@app.command()
def compare(
    a: Path = typer.Argument(..., help="a `solve` output folder (the baseline)"),
    b: Path = typer.Argument(..., help="another `solve` output folder (the scenario)"),
    out: Path = typer.Option(..., "--out", help="output folder: changes.csv and compare.json"),
    candidates: Optional[Path] = typer.Option(None, "--candidates", help="candidates.csv, for counts by the "
                                              "candidates' own category (default: the file the runs recorded)"),
    other_candidates: bool = typer.Option(False, "--other-candidates", help="compare runs solved from different "
                                          "candidates (refused by default: two merit lists)"),
):
    """What changed from A to B: who gains or loses a post, selections, cutoffs and unfilled per post and
    category, selections by the candidates' own category."""
    from ..study.compare import CHANGE_COLUMNS, compare as run_compare
    from ..io.staging import stage, write_csv, write_json

    try:
        rows, doc = run_compare(a, b, candidates, other_candidates)

        def write(tmp: Path) -> None:
            from ..study.charts import compare_charts
            write_csv(tmp / "changes.csv", CHANGE_COLUMNS, rows)
            write_json(tmp / "compare.json", doc)

            def told(side: str) -> str:
                sets = doc[side]["overrides"]
                return f"{doc[side]['folder']} ({'; '.join(sets) if sets else 'the policy as given'})"
            optional_report(tmp, "Comparison of two allocations", f"A (the baseline): {told('a')}; B: {told('b')}",
                            lambda: compare_charts(doc))
        stage(out, write, ("changes.csv", "compare.json", "report.html"),
              reads=[a, b, candidates]).publish()
    except AarakshanError as e:
        fail(e)
    if doc.get("winners_losers"):
        print_winners(doc["winners_losers"], "Winners and losers, A to B")
    say(f"{doc['candidates_changed']} candidates fare otherwise ({', '.join(f'{k}: {v}' for k, v in doc['changes'].items()) or 'none'}); "
                    f"{len(doc['posts'])} post-category rows changed; written to {out}/", highlight=False)
