"""Scenario sweeps: the read-once gain and the executors, measured.

    python -m benchmarks.sweep one --candidates 100000 --posts 10 --vacancies 10000 --workers 2
    python -m benchmarks.sweep years --years 5 --candidates 20000 --vacancies 2000 --posts 10 --workers 2

`one`: central-dopt with TOTAL rows (so shares matter), 64 scenarios (OBC share x ceiling x relaxed standards,
8 x 4 x 2), the greedy: one `solve` command; the sweep in this process, on a process pool and on a Dask
LocalCluster (the same bytes, checked); and 64 separate `aarakshan solve --set ...` commands. `years`: 16
scenarios over `--years` Bihar recruitment years, each with its own register. Rows go to results/sweep.jsonl.
"""
from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import typer
from rich.console import Console

from benchmarks import record

HERE = Path(__file__).resolve().parent
app = typer.Typer(add_completion=False)
con = Console(width=160)
GRID = ["categories.OBC.share=0.19,0.205,0.22,0.235,0.25,0.255,0.26,0.27", "ceiling.share=0.5,0.55,0.6,0.65",
        "migration.relaxed_may_take_open=true,false"]


def _instance(folder: Path, policy: str, n: int, vac: int, posts: int, seed: int) -> Path:
    """Candidates of `policy`, and `posts` TOTAL rows splitting `vac` vacancies (the roster applies shares)."""
    from solver import load_policy
    from solver.data.instances import generate, write_instance
    cands, _, _ = generate(load_policy(policy), n, vac, seed=seed, posts=posts)
    d = write_instance(folder, cands, [])
    with open(d / "vacancies.csv", "w") as fh:
        fh.write("post,category,vacancies\n")
        fh.writelines(f"P{k + 1:02d},TOTAL,{vac // posts}\n" for k in range(posts))
    return d


def _timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:6])} ...: {r.stderr[-800:]}")
    return time.perf_counter() - t


def _digest(folder: Path) -> str:
    return hashlib.sha256(b"".join((folder / f).read_bytes() for f in ("results.csv", "results.parquet"))).hexdigest()


def _record(row: dict) -> None:
    con.print(row)
    record("sweep", [row])


@app.command()
def one(candidates: int = 100_000, vacancies: int = 10_000, posts: int = 10, workers: int = 2,
        separate: int = typer.Option(64, help="how many separate solve commands to time (the rest extrapolated)")):
    """64 scenarios of one recruitment: one solve, the sweep per executor, separate commands."""
    from solver.study.sweep import grid
    aarakshan = [sys.executable, "-m", "solver.cli"]
    scenarios = grid(GRID)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        d = _instance(tmp / "in", "central-dopt", candidates, vacancies, posts, seed=11)
        files = ["--candidates", str(d / "candidates.csv"), "--vacancies", str(d / "vacancies.csv")]
        single = _timed([*aarakshan, "solve", "--policy", "central-dopt", *files, "--out", str(tmp / "single"),
                         "--engine", "greedy", "--quiet"])
        sweeps = {}
        for name, extra in (("in-process", ["--workers", "1"]), (f"pool-{workers}", ["--workers", str(workers)]),
                            (f"dask-local-{workers}", ["--dask", "local", "--workers", str(workers)])):
            sweeps[name] = _timed([*aarakshan, "sweep", "--policy", "central-dopt", *files, "--out",
                                   str(tmp / name), *sum((["--grid", g] for g in GRID), []), *extra])
        digests = {_digest(tmp / name) for name in sweeps}
        t = time.perf_counter()
        for k, sc in enumerate(scenarios[:separate]):
            _timed([*aarakshan, "solve", "--policy", "central-dopt", *files, "--out", str(tmp / f"s{k}"), "--engine",
                    "greedy", "--quiet", *sum((["--set", o] for o in sc.overrides), [])])
        per = (time.perf_counter() - t) / separate
    _record({"bench": "sweep-one", "candidates": candidates, "vacancies": vacancies, "posts": posts,
             "scenarios": len(scenarios), "one_solve_s": round(single, 2),
             **{f"sweep_{k}_s": round(v, 2) for k, v in sweeps.items()},
             "separate_solves_s": round(per * len(scenarios), 1), "separate_timed": separate,
             "same_bytes": len(digests) == 1})


@app.command()
def years(years: int = 5, candidates: int = 20_000, vacancies: int = 2_000, posts: int = 10, workers: int = 2):
    """16 scenarios over several Bihar years, a register per scenario."""
    aarakshan = [sys.executable, "-m", "solver.cli"]
    grid_ = ["categories.EBC.share=0.16,0.18,0.2,0.22", "unfilled.dereserve=true,false", "ceiling.share=0.5,0.6"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for y in range(years):
            _instance(tmp / "years" / str(2021 + y), "bihar-1991", candidates, vacancies, posts, seed=21 + y)
        out = {}
        for name, extra in (("in-process", ["--workers", "1"]), (f"pool-{workers}", ["--workers", str(workers)])):
            out[name] = _timed([*aarakshan, "sweep", "--policy", "bihar-1991", "--years", str(tmp / "years"), "--out",
                                str(tmp / name), *sum((["--grid", g] for g in grid_), []), *extra])
        same = len({_digest(tmp / name) for name in out}) == 1
        sim = _timed([*aarakshan, "simulate", "--policy", "bihar-1991", "--years", str(tmp / "years"), "--register",
                      str(tmp / "reg.sqlite"), "--out", str(tmp / "sim"), "--engine", "greedy"])
    _record({"bench": "sweep-years", "years": years, "candidates": candidates, "vacancies": vacancies,
             "posts": posts, "scenarios": 16, **{f"sweep_{k}_s": round(v, 2) for k, v in out.items()},
             "one_simulate_s": round(sim, 2), "same_bytes": same})


if __name__ == "__main__":
    app()
