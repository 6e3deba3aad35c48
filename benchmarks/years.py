"""Several recruitment years against one register: what the register costs beside the solve, and whether the
engines agree every year.

    python -m benchmarks.years --years 5 --candidates 50000 --vacancies 5000 --posts 50 \\
        --engine greedy --engine cpsat

Each year is a fresh Bihar 1991 recruitment (seed + year) in which SC and ST candidates are scarce (most are
relabelled open), so that SC/ST vacancies stay unfilled, are carried, pass to the other category after three
years (s.4(6)) and lapse. Each engine runs all years in its own process with its own register; per year it
records the solve time (vacancy determination included), the time to derive and write the year's register
record, the carried vacancies offered, and a digest of the allocation. Rows go to results/years.jsonl.
"""
from __future__ import annotations

import hashlib
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from benchmarks import record

HERE = Path(__file__).resolve().parent
app = typer.Typer(add_completion=False)
con = Console(width=160)
KEEP = {"SC": 0.04}   # share of SC candidates who keep their category (ST ones all do)


def _year_folder(root: Path, year: int, n: int, vac: int, posts: int) -> Path:
    from solver import load_policy
    from solver.data.instances import generate, write_instance

    cands, rows, _ = generate(load_policy("bihar-1991"), n, vac, seed=year, posts=posts)
    rng = np.random.default_rng(year)
    for code, keep in KEEP.items():
        drop = (cands["category"] == code) & (rng.random(n) > keep)
        cands["category"] = np.where(drop, "UR", cands["category"])
    return write_instance(root / str(year), cands, rows)


def _child(engine: str, years: int, n: int, vac: int, posts: int) -> list[dict]:
    from solver import load_policy, solve
    from solver.io.readers import read_problem
    from solver.register import Register, year_record

    pol = load_policy("bihar-1991")
    root = Path(tempfile.mkdtemp())
    out = []
    with Register(root / "reg.sqlite") as reg:
        for k in range(years):
            year = 2021 + k
            d = _year_folder(root, year, n, vac, posts)
            prob = read_problem(pol, d / "candidates.csv", d / "vacancies.csv")
            t = time.perf_counter()
            state = reg.state(year)
            sol = solve(pol, prob, engine, state=state)
            solve_s = time.perf_counter() - t
            t = time.perf_counter()
            rec = year_record(sol.result, year)
            reg.record(rec, pol.name, engine)
            record_s = time.perf_counter() - t
            rows = "\n".join(",".join(map(str, r)) for r in sol.result.allocation_rows())
            table = rec.table
            out.append({"year": year, "engine": engine, "candidates": prob.n, "solve_s": round(solve_s, 3),
                        "record_s": round(record_s, 3), "carried_in": len(state.items),
                        "exchanged": sum(r["exchanged"] for r in table.values()),
                        "lapsed": sum(r["lapsed"] for r in table.values()),
                        "carried_out": sum(r["carried_out"] for r in table.values()),
                        "selected": int(sol.result.selected.sum()),
                        "allocation_sha256": hashlib.sha256(rows.encode()).hexdigest()[:16]})
        out[-1]["register_kib"] = round((root / "reg.sqlite").stat().st_size / 1024, 1)
    out[-1]["peak_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


@app.command()
def main(years: int = 5, candidates: int = 50_000, vacancies: int = 5_000, posts: int = 50,
         engine: list[str] = typer.Option(["greedy"], "--engine"), child: bool = typer.Option(False, hidden=True)):
    if child:
        print(json.dumps(_child(engine[0], years, candidates, vacancies, posts)))
        return
    rows = []
    for e in engine:
        cmd = [sys.executable, "-m", "benchmarks.years", "--child", "--engine", e, "--years", str(years),
               "--candidates", str(candidates), "--vacancies", str(vacancies), "--posts", str(posts)]
        res = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE.parent)
        if res.returncode:
            con.print(res.stderr)
            raise typer.Exit(1)
        rows += json.loads(res.stdout.strip().splitlines()[-1])
    cols = ["year", "engine", "candidates", "solve_s", "record_s", "carried_in", "exchanged", "lapsed",
            "carried_out", "selected", "allocation_sha256", "register_kib", "peak_mib"]
    tbl = Table(title=f"{years} Bihar years, {candidates:,} candidates, {vacancies:,} vacancies, {posts} posts")
    for c in cols:
        tbl.add_column(c)
    for r in sorted(rows, key=lambda r: (r["year"], r["engine"])):
        tbl.add_row(*[str(r.get(c, "")) for c in cols])
    con.print(tbl)
    record("years", rows)


if __name__ == "__main__":
    app()
