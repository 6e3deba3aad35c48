"""The cadre allocation of the All India Services (`aarakshan cadre`), measured at one year's size (about 180 IAS
officers over the 25 cadres of upsc-cse's groups) and at ten times that: the command and `verify --stage cadre`,
each in a process of its own (wall time and that process's peak memory), and the allocation alone in this process.

    python -m benchmarks.cadre                       # 180 and 1,800 officers
    python -m benchmarks.cadre --officers 180 --officers 18000

The instance: ranks spread over a final list about five times the officers; categories UR 40.5% and EWS 10% (counted in UR),
OBC 27%, SC 15%, ST 7.5%; home States weighted by the cadres' sizes; 70% opt for their home cadre; 4% PwBD;
each cadre's vacancies a third insider, two thirds outsider, split by category; every officer ranks every cadre,
in an order drawn with a popularity the same for all (so that the cycles' balancing matters).
With AARAKSHAN_RECORD=1 the rows go to results/cadre.jsonl."""
from __future__ import annotations

import time
from pathlib import Path
import tempfile

import numpy as np
import typer
from rich.console import Console

from benchmarks import record
from benchmarks.pipeline import _csv, _run

app = typer.Typer(add_completion=False)
con = Console(width=160)
SHARES = {"UR": 0.405, "EWS": 0.1, "OBC": 0.27, "SC": 0.15, "ST": 0.075}


def instance(folder: Path, n: int, seed: int) -> tuple[Path, Path, Path]:
    """officers.csv, cadre_vacancies.csv and cadre_preferences.csv for `n` officers."""
    from solver import load_policy
    rng = np.random.default_rng(seed)
    cadres = [c for g in load_policy("upsc-cse").cadre.groups for c in g]
    size = rng.uniform(0.5, 2.0, len(cadres))
    size /= size.sum()
    ranks = np.sort(rng.choice(np.arange(1, 5 * n + 1), n, replace=False))
    cats = rng.choice(list(SHARES), n, p=list(SHARES.values()))
    homes = rng.choice(cadres, n, p=size)
    officers = [[f"O{k:05d}", int(ranks[k]), cats[k], homes[k], "true" if rng.random() < 0.7 else "false",
                 "c" if rng.random() < 0.04 else ""] for k in range(n)]
    counted = np.where(cats == "EWS", "UR", cats)
    rows = []
    for j, c in enumerate(cadres):
        for cat in ("UR", "OBC", "SC", "ST"):
            total = int(round(n * size[j] * (counted == cat).mean() * 1.02))
            rows.append([c, cat, total // 3, total - total // 3])
    popularity = rng.uniform(0.2, 1.0, len(cadres))
    prefs = []
    for k in range(n):
        keys = rng.exponential(1.0, len(cadres)) / popularity
        prefs += [[officers[k][0], o + 1, cadres[j]] for o, j in enumerate(np.argsort(keys))]
    return (_csv(folder / "officers.csv", ["candidate_id", "rank", "category", "home_cadre", "home_opt", "pwbd"],
                 officers),
            _csv(folder / "cadre_vacancies.csv", ["cadre", "category", "insider", "outsider"], rows),
            _csv(folder / "cadre_preferences.csv", ["candidate_id", "order", "cadre"], prefs))


@app.command()
def main(officers: list[int] = typer.Option([180, 1800], "--officers"), seed: int = typer.Option(2026, "--seed")):
    """Time and peak memory of `cadre` and of `verify --stage cadre` at each size."""
    from solver import load_policy
    from solver.exam.cadres import allocate_cadres
    from solver.io.cadres import read_cadre_problem
    from solver.verify.state_cadres import check_cadres

    pol = load_policy("upsc-cse")
    rows: list[dict] = []
    for n in officers:
        with tempfile.TemporaryDirectory() as tmp:
            o, v, p = instance(Path(tmp), n, seed)
            t = time.perf_counter()
            prob = read_cadre_problem(pol, o, v, p, 2026)
            read = time.perf_counter() - t
            t = time.perf_counter()
            a = allocate_cadres(pol, prob)
            alloc = time.perf_counter() - t
            placed = {i: (int(a.cadre[i]), a.kind[i]) for i in range(n) if a.cadre[i] >= 0}
            t = time.perf_counter()
            broken = check_cadres(pol, prob, placed)
            check = time.perf_counter() - t
            assert broken == [], broken[:3]
            base = ["--policy", "upsc-cse", "--candidates", str(o), "--vacancies", str(v), "--preferences", str(p),
                    "--year", "2026"]
            stage_rows: list[dict] = []
            _run(f"cadre, {n:,} officers", ["cadre", *base, "--out", str(Path(tmp) / "out")], stage_rows)
            _run(f"verify --stage cadre, {n:,} officers", ["verify", *base, "--stage", "cadre", "--cadres",
                                                           str(Path(tmp) / "out" / "cadres.csv")], stage_rows)
            kinds = a.kind
            row = {"officers": n, "choices": n * 25, "read_s": round(read, 3), "allocate_s": round(alloc, 4),
                   "verify_checks_s": round(check, 4), "command_s": stage_rows[0]["seconds"],
                   "command_peak_mib": stage_rows[0]["peak_mib"], "verify_s": stage_rows[1]["seconds"],
                   "verify_peak_mib": stage_rows[1]["peak_mib"], "insiders": kinds.count("insider"),
                   "outsiders": kinds.count("outsider"), "unplaced": kinds.count("")}
            con.print(row, highlight=False)
            rows.append(row)
    record("cadre", rows)


if __name__ == "__main__":
    app()
