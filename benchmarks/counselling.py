"""A round of counselling at JoSAA-2025's size under josaa-2025: 172,782 candidates, 927 programs split into seat
pools (AI at the 23 IIT-like institutes' programs, HS and OS at the others; gender-neutral and female-only
supernumerary; PwD seats), two merit lists (JEE (Advanced) for the IIT-like programs, 48,000 candidates on it;
the candidates' own rank for the others), 19.4 million ranked programs. Each step in a process of its own (wall
time and that process's peak memory): the whole `solve` command (greedy), `verify`, one `slide` round, and
Arrow's own single-threaded read of the choices for the ratio; then `slide` rounds up to the sixth, each
holder answering (one who froze stays frozen), each round checked by `verify --stage slide` against its own time,
and the six rounds' time against the first's.

    python -m benchmarks.counselling                    # writes benchmarks/instances/counselling-2025 first
    python -m benchmarks.counselling --candidates 20000 --choices 2000000

With AARAKSHAN_RECORD=1 the rows go to results/counselling.jsonl."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import typer
from rich.console import Console

from benchmarks import record
from benchmarks.pipeline import _csv, _run

INSTANCES = Path(__file__).resolve().parent / "instances"

app = typer.Typer(add_completion=False)
con = Console(width=160)
STATES = [f"S{k:02d}" for k in range(30)]


def write(folder: Path, n: int, choices: int, programs: int = 927, seats: int = 62_853, seed: int = 2025) -> Path:
    """candidates.csv, ranks.csv, vacancies.csv and preferences.csv of the instance (deterministic by seed)."""
    from solver import load_policy
    from solver.chain.vacancy import roster
    from solver.data.instances import category_mix
    from benchmarks.josaa import write as josaa

    josaa(folder, seed, n=n, programmes=programs, seats=seats, choices=choices)   # (its preferences and names)
    rng = np.random.default_rng(seed + 1)
    pol = load_policy("josaa-2025")
    codes, w = category_mix(pol)
    ids = np.char.add("C", np.char.zfill(np.arange(n).astype(str), 6))
    pacsv.write_csv(pa.table({"id": ids, "rank": np.arange(1, n + 1),
                              "category": np.array(codes)[rng.choice(len(codes), n, p=w)],
                              "gender": np.where(rng.random(n) < 0.2, "F", "M"),
                              "pwbd": np.where(rng.random(n) < 0.03, "b", ""),
                              "home_state": np.array(STATES)[rng.integers(0, len(STATES), n)]}),
                    folder / "candidates.csv")
    on = np.sort(rng.choice(n, min(n, 48_000), replace=False))
    order = on[np.argsort(on + rng.normal(0, n / 20, len(on)), kind="stable")]
    pacsv.write_csv(pa.table({"candidate_id": ids[order], "list": np.full(len(order), "advanced"),
                              "rank": np.arange(1, len(order) + 1)}), folder / "ranks.csv")
    old = pacsv.read_csv(folder / "vacancies.csv").to_pandas()
    total = old.groupby("post", sort=False)["vacancies"].sum()
    rows = []
    for j, (program, k) in enumerate(total.items()):
        iit = j < len(total) // 40                       # (23 of 927)
        quotas = [("AI", "")] if iit else [("HS", STATES[j % len(STATES)]), ("OS", STATES[j % len(STATES)])]
        for quota, state in quotas:
            part = max(1, int(k) // len(quotas))
            for gender, trait, m, extra in (("neutral", "", part, False), ("neutral", "pwbd", max(1, part // 20), False),
                                            ("female", "", max(1, part // 5), True)):
                split = roster(pol, m)
                rows += [(program, code, split.count(code), "advanced" if iit else "", f"I{j // 3:03d}", quota, state,
                          gender, trait, str(extra).lower())
                         for code in [pol.open, *pol.reserved_codes] if split.count(code)]
    cols = ["post", "category", "vacancies", "merit_list", "institute", "quota", "state", "gender_pool", "trait",
            "supernumerary"]
    pacsv.write_csv(pa.table({c: [r[k] for r in rows] for k, c in enumerate(cols)}), folder / "vacancies.csv")
    return folder


@app.command()
def main(candidates: int = typer.Option(172_782), choices: int = typer.Option(19_400_000),
         folder: Path = typer.Option(None, help="default benchmarks/instances/counselling-NNN"),
         fresh: bool = typer.Option(False, help="write the instance again"),
         rounds: int = typer.Option(6, help="rounds of counselling in all: the first, then slide rounds"),
         check: bool = typer.Option(True, "--verify-rounds/--no-verify-rounds",
                                    help="verify --stage slide each slide round, against the round's own time")):
    import tempfile

    folder = folder or INSTANCES / f"counselling-{candidates}"
    if fresh or not (folder / "preferences.csv").is_file():
        t = time.perf_counter()
        write(folder, candidates, choices)
        con.print(f"written in {time.perf_counter() - t:.1f} s to {folder}")
    inputs = ["--policy", "josaa-2025", "--candidates", str(folder / "candidates.csv"), "--vacancies",
              str(folder / "vacancies.csv"), "--preferences", str(folder / "preferences.csv"), "--ranks",
              str(folder / "ranks.csv")]
    out = Path(tempfile.mkdtemp())
    rows = []
    t0 = time.perf_counter()
    table = pacsv.read_csv(folder / "preferences.csv", read_options=pacsv.ReadOptions(use_threads=False))
    arrow = time.perf_counter() - t0
    rows.append({"stage": "arrow read (1 thread)", "seconds": round(arrow, 2), "rows": table.num_rows})
    del table
    _run("solve (greedy, round 1)", ["solve", *inputs, "--engine", "greedy", "--quiet", "--out", str(out / "r1")], rows)
    rows[-1]["x_arrow"] = round(rows[-1]["seconds"] / arrow, 1)
    _run("verify (round 1)", ["verify", *inputs, "--allocation", str(out / "r1" / "allocation.csv")], rows)
    rng = np.random.default_rng(7)
    frozen: set[str] = set()
    for k in range(2, rounds + 1):
        # Each round's holders answer (half freeze, 30% float, 15% slide, 5% withdraw); one who froze stays frozen
        held = pacsv.read_csv(out / f"r{k - 1}" / "allocation.csv").column("candidate_id").to_pylist()
        said = {cid: "freeze" if cid in frozen else
                str(rng.choice(["freeze", "float", "slide", "withdraw"], p=[0.5, 0.3, 0.15, 0.05])) for cid in held}
        frozen |= {cid for cid, a in said.items() if a == "freeze"}
        _csv(out / f"responses-{k}.csv", ["candidate_id", "response"], [[cid, a] for cid, a in said.items()])
        _run(f"slide (round {k})", ["slide", "--result", str(out / f"r{k - 1}"), "--responses",
                                    str(out / f"responses-{k}.csv"), "--out", str(out / f"r{k}")], rows)
        if check:
            took = rows[-1]["seconds"]
            _run(f"verify (slide round {k})", ["verify", "--stage", "slide", *inputs, "--allocation",
                                               str(out / f"r{k - 1}" / "allocation.csv"), "--responses",
                                               str(out / f"responses-{k}.csv"), "--slide",
                                               str(out / f"r{k}" / "allocation.csv")], rows)
            rows[-1]["x_round"] = round(rows[-1]["seconds"] / took, 2)
    one = next(r["seconds"] for r in rows if r["stage"].startswith("solve"))
    every = one + sum(r["seconds"] for r in rows if r["stage"].startswith("slide"))
    rows.append({"stage": f"{rounds} rounds (solve and {rounds - 1} slides)", "seconds": round(every, 2),
                 "x_one_round": round(every / one, 2)})
    for r in rows:
        con.print(r)
    record("counselling", rows, candidates=candidates, choices=choices)


if __name__ == "__main__":
    app()
