"""Aarakshan beside peer matching libraries on plain instances (one open category, no reservation), where the
right answer is the resident-optimal stable matching of the hospital-residents problem (Gale and Shapley 1962)
and, with one merit list for every programme, the unique one.

    python -m benchmarks.peers --residents 20000 --programs 200 --choices 10

Peers: `matching` (HospitalResident, resident-optimal) and `algmatch` (HospitalResidentsProblem,
residents-optimised) from PyPI: `pip install -e ".[bench]"`. Each solver runs in its own process (time and
peak memory are its own); the matchings are compared for equality.
"""
from __future__ import annotations

import importlib
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

from benchmarks import record
from rich.table import Table

HERE = Path(__file__).resolve().parent
POLICY = HERE / "policies" / "open-only.toml"
app = typer.Typer(add_completion=False)
con = Console(width=160)


def instance(residents: int, programs: int, choices: int, seed: int):
    """Merit order = resident index; each resident ranks `choices` distinct programmes; capacities sum to about
    60% of the residents so that competition is real."""
    rng = np.random.default_rng(seed)
    popularity = rng.dirichlet(np.ones(programs) * 2)
    prefs = [rng.choice(programs, size=choices, replace=False, p=popularity).tolist() for _ in range(residents)]
    caps = np.maximum(1, rng.multinomial(int(residents * 0.6), popularity)).tolist()
    return prefs, caps


def _ours(prefs, caps, engine: str) -> dict[int, int]:
    d = Path(tempfile.mkdtemp())
    n = len(prefs)
    with open(d / "c.csv", "w") as fh:
        fh.write("id,rank,category\n" + "".join(f"R{i},{i + 1},UR\n" for i in range(n)))
    with open(d / "v.csv", "w") as fh:
        fh.write("post,category,vacancies\n" + "".join(f"H{h},UR,{c}\n" for h, c in enumerate(caps)))
    with open(d / "p.csv", "w") as fh:
        fh.write("candidate_id,order,post\n")
        fh.writelines(f"R{i},{o + 1},H{h}\n" for i, ps in enumerate(prefs) for o, h in enumerate(ps))
    from solver import load_policy, solve
    from solver.io.readers import read_problem
    pol = load_policy(POLICY)
    t = time.perf_counter()
    prob = read_problem(pol, d / "c.csv", d / "v.csv", d / "p.csv")
    read_s = time.perf_counter() - t
    sol = solve(pol, prob, engine, workers=2)
    # Like the peers, which are handed dictionaries: the same problem built in memory, solved again.
    t2 = time.perf_counter()
    solve(pol, _in_memory(prefs, caps), engine, workers=2)
    in_memory_s = time.perf_counter() - t2
    r = sol.result
    out = {}
    for i in np.flatnonzero(r.selected):
        out[int(r.problem.candidates.ids[i][1:])] = int(r.problem.posts[r.pools.pools[r.assignment.pool[i]].post][1:])
    return out, {"from_csv_s": round(time.perf_counter() - t - in_memory_s, 3), "read_s": round(read_s, 3),
                 "in_memory_s": round(in_memory_s, 3)}


def _in_memory(prefs, caps):
    from solver.data.problem import Candidates, Problem, VacancyRow
    n = len(prefs)
    no = np.zeros(n, dtype=bool)
    c = Candidates(np.array([f"R{i}" for i in range(n)], dtype=object), np.full(n, "UR", dtype=object), no, no, no,
                   np.full(n, "", dtype=object), no, None, np.arange(2, n + 2))
    posts = tuple(f"H{h}" for h in range(len(caps)))
    return Problem(c, posts, tuple(VacancyRow(p, "UR", k) for p, k in zip(posts, caps)),
                   tuple(np.array(ps, dtype=np.int32) for ps in prefs))


def _hospital_lists(prefs, programs):
    lists = [[] for _ in range(programs)]
    for i, ps in enumerate(prefs):  # residents in merit order: every programme ranks them by merit
        for h in ps:
            lists[h].append(i)
    return lists


def _matching(prefs, caps) -> dict[int, int]:
    """`matching` recurses once per proposal: give it the depth (and a thread stack to match) it needs."""
    import threading
    sys.setrecursionlimit(10_000_000)
    threading.stack_size(1 << 30)
    box = {}
    th = threading.Thread(target=lambda: box.update(out=_matching_inner(prefs, caps)))
    th.start()
    th.join()
    return box["out"], {}


def _matching_inner(prefs, caps) -> dict[int, int]:
    from matching.games import HospitalResident
    lists = _hospital_lists(prefs, len(caps))
    game = HospitalResident.create_from_dictionaries(
        {i: ps for i, ps in enumerate(prefs)}, {h: lists[h] for h in range(len(caps))},
        {h: c for h, c in enumerate(caps)})
    m = game.solve(optimal="resident")
    return {r.name: h.name for h, rs in m.items() for r in rs}


def _algmatch(prefs, caps) -> dict[int, int]:
    from algmatch import HospitalResidentsProblem
    lists = _hospital_lists(prefs, len(caps))
    data = {"residents": {i + 1: [h + 1 for h in ps] for i, ps in enumerate(prefs)},
            "hospitals": {h + 1: {"capacity": c, "preferences": [i + 1 for i in lists[h]]} for h, c in enumerate(caps)}}
    m = HospitalResidentsProblem(dictionary=data, optimised_side="residents").get_stable_matching()
    # {"resident_sided": {"r1": "h4", "r15": "", ...}, "hospital_sided": {...}}
    return {int(r[1:]) - 1: int(h[1:]) - 1 for r, h in m["resident_sided"].items() if h}, {}


SOLVERS = {"greedy": lambda p, c: _ours(p, c, "greedy"), "cpsat": lambda p, c: _ours(p, c, "cpsat"),
           "matching": _matching, "algmatch": _algmatch}


@app.command()
def child(solver: str, residents: int, programs: int, choices: int, seed: int):
    # Imports happen before the clock starts, for every solver alike.
    importlib.import_module({"matching": "matching.games", "algmatch": "algmatch"}.get(solver, "solver.cli"))
    prefs, caps = instance(residents, programs, choices, seed)
    t = time.perf_counter()
    m, extra = SOLVERS[solver](prefs, caps)
    wall = time.perf_counter() - t
    digest = __import__("hashlib").sha256(json.dumps(sorted(m.items())).encode()).hexdigest()[:16]
    print(json.dumps({"solver": solver, "seconds": round(wall, 3), "matched": len(m), "digest": digest,
                      "peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1), **extra}))


@app.command()
def main(residents: int = 20_000, programs: int = 200, choices: int = 10, seed: int = 7,
         solver: list[str] = typer.Option(list(SOLVERS), "--solver")):
    rows = []
    for s in solver:
        with con.status(f"{s} on {residents:,} x {programs} x {choices}..."):
            res = subprocess.run([sys.executable, "-m", "benchmarks.peers", "child", s, str(residents),
                                  str(programs), str(choices), str(seed)], capture_output=True, text=True,
                                 cwd=HERE.parent)
        if res.returncode:
            con.print(f"[red]{s} failed[/]: {res.stderr.strip().splitlines()[-1] if res.stderr else ''}")
            continue
        rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
    ours = {r["solver"]: r for r in rows}
    tbl = Table(title=f"{residents:,} residents x {programs} programmes x {choices} choices (seed {seed})")
    for c in ("solver", "seconds", "in memory s", "peak_mib", "matched", "digest", "same as greedy", "peer / this"):
        tbl.add_column(c)
    for r in rows:
        same = r["digest"] == ours.get("greedy", {}).get("digest")
        ratio = ""
        if r["solver"] in ("matching", "algmatch"):
            ratio = " ".join(f"{k}: {r['seconds'] / ours[k]['from_csv_s']:.0f}x from CSV, "
                             f"{r['seconds'] / ours[k]['in_memory_s']:.0f}x in memory;" for k in ("greedy", "cpsat") if k in ours)
        seconds = r.get("from_csv_s", r["seconds"])
        tbl.add_row(r["solver"], str(seconds), str(r.get("in_memory_s", "")), str(r["peak_mib"]), str(r["matched"]),
                    r["digest"], str(same), ratio)
    con.print(tbl)
    record("peers", rows, residents=residents, programs=programs, choices=choices, seed=seed)


if __name__ == "__main__":
    app()
