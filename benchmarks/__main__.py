"""Generate benchmark instances and run engines on them, measuring time, peak memory and model size.

    python -m benchmarks generate single-1m          # writes benchmarks/instances/single-1m/
    python -m benchmarks run single-1m --engine greedy
    python -m benchmarks run single-10k --engine greedy --engine cpsat

Each engine runs in its own subprocess so that peak memory (ru_maxrss) is that engine's alone. Results are
printed as a table and, with AARAKSHAN_RECORD=1, appended to benchmarks/results/results.jsonl.
"""
from __future__ import annotations

import hashlib
import json
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from benchmarks import record

HERE = Path(__file__).resolve().parent
INSTANCES = HERE / "instances"
RESULTS = HERE / "results"
HORIZONTAL = str(HERE / "policies" / "bihar-horizontal.toml")
OVERALL = str(HERE / "policies" / "bihar-overall.toml")
EACH = str(HERE / "policies" / "bihar-each.toml")
PWBD = str(HERE / "policies" / "bihar-pwbd-overall.toml")
UPSC_PWBD = str(HERE / "policies" / "upsc-cse-pwbd.toml")

# name: (policy, candidates, vacancies, posts, seed, posts ranked by each candidate).
# Single cadres with nine categories (Maharashtra 2001: open + eight reserved); combined exams
# after published figures: UPSC CSE 2024 (1,129 vacancies, 24 services) and SSC CGL 2024 (17,727
# vacancies, 35 posts), every candidate ranking every post.
CATALOGUE = {
    "single-10k": ("maharashtra-2001", 10_000, 1_000, 1, 10, 0),
    "single-100k": ("maharashtra-2001", 100_000, 10_000, 1, 100, 0),
    "single-1m": ("maharashtra-2001", 1_000_000, 100_000, 1, 1000, 0),
    "bihar-100k": ("bihar-1991", 100_000, 10_000, 1, 101, 0),
    "upsc-cse": ("upsc-cse", 3_000, 1_129, 24, 2024, 24),
    "ssc-cgl": ("central-dopt", 25_000, 17_727, 35, 2024, 35),
    # ssc-cgl with a birth date each: its 10,727 candidates tied to the third decimal settled by age (the audit's
    # one lawful allocation per reading, as with a commission's tie-break rules).
    "ssc-cgl-dob": ("central-dopt", 25_000, 17_727, 35, 2024, 35),
    # BPSC 70th CCE: 2,035 vacancies over Bihar's services (30 here), ranked by 20,000 mains candidates.
    "bpsc-70": ("bihar-1991", 20_000, 2_035, 30, 70, 30),
    # RRB 2024 single-post recruitment: 64,197 posts, 1,000,000 candidates.
    "rrb-2024": ("central-dopt", 1_000_000, 64_197, 1, 2024, 0),
    # JoSAA 2025: 172,782 candidates, 927 programmes, 62,853 seats, 19.4 million choices (benchmarks/josaa.py).
    "josaa-2025": ("central-dopt", 172_782, 62_853, 927, 2025, 112),
    # women 35% and the four PwBD sub-categories at 1% each in every compartment, 5% of candidates
    # with a benchmark disability: several traits per compartment, one chain per trait signature in CP-SAT.
    "bihar-100k-horizontal": (HORIZONTAL, 100_000, 10_000, 1, 101, 0),
    "bpsc-70-horizontal": (HORIZONTAL, 20_000, 2_035, 30, 70, 30),
    # 20% of candidates are women against a 35% minimum per post, so every post adjusts.
    "bihar-100k-overall": (OVERALL, 100_000, 10_000, 1, 101, 0),
    "bihar-100k-20-posts-overall": (OVERALL, 100_000, 10_000, 20, 102, 0),
    # bihar-100k-horizontal's candidates with each appointee counting for every trait they have.
    "bihar-100k-each": (EACH, 100_000, 10_000, 1, 101, 0),
    "bihar-100k-20-posts-each": (EACH, 100_000, 10_000, 20, 102, 0),
    # The PwBD sub-categories at 1% each of every post, overall; 5% of candidates with a benchmark disability.
    "bihar-100k-pwbd-overall": (PWBD, 100_000, 10_000, 1, 101, 0),
    "bihar-100k-20-posts-pwbd-overall": (PWBD, 100_000, 10_000, 20, 102, 0),
    # upsc-cse with a PwBD minimum in every compartment (4%, rounded) and 5% of candidates with a disability:
    # the recommendation list and the service allocation both keep them.
    "upsc-cse-pwbd": (UPSC_PWBD, 3_000, 1_129, 24, 2024, 24),
}

app = typer.Typer(add_completion=False, no_args_is_help=True)
con = Console(width=160)


def _known(name: str) -> str:
    if name not in CATALOGUE:
        raise typer.BadParameter(f"no instance {name!r}; the instances are: {', '.join(CATALOGUE)}")
    return name


NAME = typer.Argument(..., callback=_known, help="an instance: " + ", ".join(CATALOGUE))


@app.command()
def generate(name: str = NAME):
    """Write the named instance (deterministic by seed) under benchmarks/instances/."""
    from solver import load_policy
    from solver.data.instances import generate as gen, write_instance

    policy, n, vac, posts, seed, ranked = CATALOGUE[name]
    t = time.perf_counter()
    if name == "josaa-2025":
        from benchmarks.josaa import write
        write(INSTANCES / name, seed)
        con.print(f"{name}: written in {time.perf_counter() - t:.1f} s")
        return
    write_instance(INSTANCES / name, *gen(load_policy(policy), n, vac, seed=seed, posts=posts, preferences=ranked,
                                          disabled=0.05 if policy in (HORIZONTAL, OVERALL, EACH, PWBD, UPSC_PWBD) else 0.0,
                                          female=0.2 if policy == OVERALL else 0.35,
                                          birth_dates=name.endswith("-dob")))
    con.print(f"{name}: {n:,} candidates, {vac:,} vacancies ({policy}) in {time.perf_counter() - t:.1f} s")


def _read(name: str):
    """The named instance's policy and problem, as written under benchmarks/instances/."""
    from solver import load_policy
    from solver.io.readers import read_problem

    folder = INSTANCES / name
    pol = load_policy(CATALOGUE[name][0])
    prefs = folder / "preferences.csv"
    return pol, read_problem(pol, folder / "candidates.csv", folder / "vacancies.csv",
                             prefs if prefs.exists() else None)


def _measure(name: str, engine: str, verify: bool, workers: int) -> dict:
    """Runs inside the child process."""
    from solver import solve

    t = time.perf_counter()
    pol, prob = _read(name)
    read_s = time.perf_counter() - t
    sol = solve(pol, prob, engine, workers=workers)
    out = {"instance": name, "engine": engine, "workers": workers if engine == "cpsat" else "", "candidates": prob.n, "read_s": round(read_s, 3),
           **{f"{k}_s": v for k, v in sol.timings.items()}, "status": sol.result.assignment.status,
           "selected": int(sol.result.selected.sum())}
    out.update({k: v for k, v in sol.result.assignment.stats.items() if k in ("variables", "constraints")})
    rows = "\n".join(",".join(map(str, r)) for r in sol.result.allocation_rows())
    out["allocation_sha256"] = hashlib.sha256(rows.encode()).hexdigest()[:16]
    if verify:
        import tempfile

        from solver.outcome.reports import write_outputs
        from solver.verify import read_allocation
        from solver.verify.checks import verify as run_verify
        out_dir = Path(tempfile.mkdtemp())
        write_outputs(out_dir, sol.result, {})
        alloc = read_allocation(out_dir / "allocation.csv", prob, pol)
        t = time.perf_counter()
        out["violations"] = len(run_verify(pol, prob, alloc))
        out["verify_s"] = round(time.perf_counter() - t, 3)
    out["peak_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


@app.command(hidden=True)
def child(name: str, engine: str, verify: bool = False, workers: int = 2):
    print(json.dumps(_measure(name, engine, verify, workers)))


@app.command()
def run(name: str = NAME, engine: list[str] = typer.Option(["greedy"], "--engine"), verify: bool = False,
        workers: int = typer.Option(2, "--workers", help="CP-SAT workers")):
    """Run each engine on the instance in a fresh process and report time, peak memory and model size."""
    if not (INSTANCES / name).exists():
        generate(name)
    rows = []
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=con) as bar:
        task = bar.add_task(name, total=len(engine))
        for e in engine:
            bar.update(task, description=f"{name}: {e}")
            cmd = [sys.executable, "-m", "benchmarks", "child", name, e, "--workers", str(workers)] + \
                (["--verify"] if verify else [])
            res = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE.parent)
            if res.returncode:
                con.print(res.stderr)
                raise typer.Exit(1)
            rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
            bar.advance(task)
    greedy = next((r for r in rows if r["engine"] == "greedy"), None)
    tbl = Table(title=f"{name} on {platform.machine()}, {platform.python_version()}")
    cols = ["engine", "workers", "status", "read_s", "greedy_s", "cpsat_s", "verify_s", "violations", "peak_mib", "variables",
            "constraints", "ratio", "allocation_sha256"]
    for c in cols:
        tbl.add_column(c)
    for r in rows:
        if greedy and r["engine"] == "cpsat" and "greedy_s" in greedy:
            r["ratio_vs_greedy"] = round(r["cpsat_s"] / max(greedy["greedy_s"], 1e-9), 1)
        r["ratio"] = r.get("ratio_vs_greedy", "")
        tbl.add_row(*[str(r.get(c, "")) for c in cols])
    con.print(tbl)
    record("results", rows)


@app.command()
def horizontal(name: str = NAME):
    """How an instance's horizontal minimums were met (the greedy's allocation): per minimum, the seats that
    serve it, by adjustment, and short; after a recommendation list, the list's own minimums and the seats
    that reverted to others."""
    from solver import solve

    if not (INSTANCES / name).exists():
        generate(name)
    pol, prob = _read(name)
    result = solve(pol, prob, "greedy").result
    sel = result.pools.selection
    parts = [("minimums", result.horizontal_report())]
    if sel is not None:
        parts.insert(0, ("recommendation list", sel.stage.horizontal_report()))
    tbl = Table(title=f"{name}: horizontal minimums")
    for c in ("stage", "minimums", "seats", "serving", "by adjustment", "short"):
        tbl.add_column(c)
    for stage, rows in parts:
        tbl.add_row(stage, str(len(rows)), str(sum(r["minimum"] for r in rows)), str(sum(r["held"] for r in rows)),
                    str(sum(r["by_adjustment"] for r in rows)), str(sum(max(0, r["short"]) for r in rows)))
    con.print(tbl)
    if sel is not None:
        reverted = sum(int((result.assignment.pool == p.index).sum()) for p in result.pools if p.phase >= 4)
        con.print(f"service allocation: {reverted} appointees on held seats that no beneficiary took (reverted)")


_MODEL_SIZE_CHILD = """
import json, resource, sys, tempfile, pathlib
from solver import load_policy, solve
from solver.data.instances import generate, write_instance
from solver.io.readers import read_problem
from solver.chain.pools import build_pools
from solver.chain.vacancy import determine_seats
n, posts = int(sys.argv[1]), int(sys.argv[2])
pol = load_policy("central-dopt")
d = write_instance(pathlib.Path(tempfile.mkdtemp()), *generate(pol, n, posts * 5, seed=1, posts=posts,
                                                               preferences=posts))
prob = read_problem(pol, d / "candidates.csv", d / "vacancies.csv", d / "preferences.csv")
pairs = sum(int(p.eligible.sum()) for p in build_pools(pol, prob, determine_seats(pol, prob)).pools)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
sol = solve(pol, prob, "cpsat")
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"pairs": pairs, "variables": sol.result.assignment.stats.get("variables"),
                  "model_mib": (peak - base) / 1024}))
"""


@app.command("model-size")
def model_size(candidates: int = typer.Option(1000, "--candidates"),
               posts: list[int] = typer.Option([100, 200, 400], "--posts")):
    """Peak memory of CP-SAT's model per (candidate, pool) pair, every candidate ranking every post
    (central-dopt): the constant behind `solver.chain.engines.cpsat.BYTES_PER_PAIR`, which refuses a model too large
    for the machine before it is built."""
    from solver.chain.engines.cpsat import BYTES_PER_PAIR
    tbl = Table(title=f"CP-SAT model size, {candidates:,} candidates ranking every post")
    for c in ("posts", "pairs", "variables", "model MiB", "bytes / pair", "estimate MiB"):
        tbl.add_column(c, justify="right")
    for k in posts:
        out = subprocess.run([sys.executable, "-c", _MODEL_SIZE_CHILD, str(candidates), str(k)],
                             capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        tbl.add_row(str(k), f"{r['pairs']:,}", f"{r['variables']:,}", f"{r['model_mib']:,.0f}",
                    f"{r['model_mib'] * 2**20 / r['pairs']:,.0f}", f"{r['pairs'] * BYTES_PER_PAIR / 2**20:,.0f}")
    con.print(tbl)


if __name__ == "__main__":
    app()
