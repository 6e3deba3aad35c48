"""SSC CGL's final allocation at its published size with its post-specific merit list and horizontal PwBD
minimums: 25,000 candidates (5% with a benchmark disability), 17,727 vacancies over 35 posts ranked by every
candidate (the `ssc-cgl` instance of `python -m benchmarks`), the first two posts (JSO and SI-II's place) ranked by
a second list (Tier-II Paper-II: the candidates' score plus noise), and a PwBD minimum of 4% (rounded) of every
compartment of 25 vacancies or more (RPwD Act 2016 s.34). Each step in a process of its own (wall time and that
process's peak memory): `solve --engine greedy`, `solve --engine cpsat` (the certificate of the greedy's answer),
`verify` of the allocation, and `audit` (uniqueness). Each candidate has a birth date (`ssc-cgl-dob`'s), which
settles equal scores.

    python -m benchmarks.lists                 # writes benchmarks/instances/ssc-cgl-lists first

With AARAKSHAN_RECORD=1 the rows go to results/lists.jsonl."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import typer
from rich.console import Console

from benchmarks import record
from benchmarks.pipeline import _run

INSTANCES = Path(__file__).resolve().parent / "instances"
LISTED = ("P01", "P02")

app = typer.Typer(add_completion=False)
con = Console(width=160)


def write(folder: Path, seed: int = 2024) -> Path:
    """candidates.csv, vacancies.csv (with `pwbd` and `merit_list`), preferences.csv and ranks.csv."""
    from solver import load_policy
    from solver.data.instances import generate, write_instance

    # (a birth date each, as `ssc-cgl-dob`: scores tied to the third decimal are settled by age, a rule of law,
    # so the lists are strict and the audit may read uniqueness off the two extreme stable allocations)
    cands, vac_rows, prefs = generate(load_policy("central-dopt"), 25_000, 17_727, seed=seed, posts=35,
                                      preferences=35, disabled=0.05, birth_dates=True)
    write_instance(folder, cands, vac_rows, prefs)
    rng = np.random.default_rng(seed + 1)
    pacsv.write_csv(pa.table({
        "post": [r[0] for r in vac_rows], "category": [r[1] for r in vac_rows],
        "vacancies": [r[2] for r in vac_rows],
        "pwbd": [int(round(0.04 * r[2])) if r[2] >= 25 else 0 for r in vac_rows],
        "merit_list": ["tier2_paper2" if r[0] in LISTED else "" for r in vac_rows]}), folder / "vacancies.csv")
    score = np.asarray(cands["score"], dtype=float)
    order = np.argsort(-(score + rng.normal(0, 6, len(score))), kind="stable")
    pacsv.write_csv(pa.table({"candidate_id": np.asarray(cands["id"])[order],
                              "list": np.full(len(order), "tier2_paper2"), "rank": np.arange(1, len(order) + 1)}),
                    folder / "ranks.csv")
    return folder


@app.command()
def main(folder: Path = typer.Option(INSTANCES / "ssc-cgl-lists", "--folder")):
    """Write the instance (where missing), then time the greedy, the CP-SAT certificate and verify."""
    if not (folder / "ranks.csv").exists():
        write(folder)
    args = ["--policy", "central-dopt", *[x for role in ("candidates", "vacancies", "preferences", "ranks")
                                          for x in (f"--{role}", str(folder / f"{role}.csv"))]]
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        for engine in ("greedy", "cpsat"):
            _run(f"solve --engine {engine}", ["solve", *args, "--engine", engine, "--quiet", "--out",
                                              f"{tmp}/{engine}"], rows)
        _run("verify", ["verify", *args, "--allocation", f"{tmp}/greedy/allocation.csv"], rows)
        _run("audit", ["audit", *args, "--no-declared", "--time-limit", "120", "--out", f"{tmp}/audit"], rows)
        rows[-1].update(json.loads((Path(tmp) / "audit" / "audit.json").read_text())["status"])
        both = [(Path(tmp) / engine / "allocation.csv").read_bytes() for engine in ("greedy", "cpsat")]
        doc = json.loads((Path(tmp) / "cpsat" / "summary.json").read_text())
        rows[1].update(status=doc["status"], model=doc["model"], identical=both[0] == both[1])
        con.print(f"cpsat: {doc['status']}, model {doc['model']}; allocation.csv as greedy's: {both[0] == both[1]}")
    record("lists", rows)


if __name__ == "__main__":
    app()
