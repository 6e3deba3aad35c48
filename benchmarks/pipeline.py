"""A combined exam end to end, measured stage by stage: each stage is one `aarakshan` command in its own process,
so that its time and peak memory (ru_maxrss of that process) are its own.

    python -m benchmarks.pipeline --candidates 550000 --vacancies 1000 --posts 25
    python -m benchmarks.pipeline --candidates 20000 --vacancies 200 --posts 10 --no-verify   # a quick look

The instance is UPSC-like (upsc-cse: 25 services, 5% of candidates with a benchmark disability):
preliminary scores for everyone; 12x the vacancies called to the main examination; fresh main scores for those
called, 2x to the interview; the final score is main + interview, and every finalist ranks every service.
Then the final list with its reserve list, a decline file of 5% of those allocated (reasons mixed: declined,
limited preferences, invalid claim, cancelled), the fill from the reserve list, and a sliding round. The sliding
round is SSC's and is refused under a recommendation list (upsc-cse's Rule 16(2)), so it runs on the same
finalists allocated under central-dopt: 5% absent, 35% float, the rest fix. With verification on, every stage
is also checked by `verify --stage ...`. Each stage's CP-SAT certificate (CP-SAT hinted by the greedy, as
`solve` does by default) is measured beside the greedy. With AARAKSHAN_RECORD=1 the rows go to results/pipeline.jsonl.
"""
from __future__ import annotations

import json
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
REASONS = ["declined"] * 7 + ["limited_preferences", "invalid_claim", "cancelled"]


def _csv(path: Path, header: list[str], rows) -> Path:
    from solver.io.staging import write_csv
    write_csv(path, header, rows)
    return path


def _ids(path: Path, column: str = "candidate_id") -> list[str]:
    import pyarrow.csv as pacsv
    return pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
        column_types={column: "string"})).column(column).to_pylist()


# A child's ru_maxrss counts the memory it had before exec, a copy of this process's (which holds the instance):
# each stage is started by this small launcher instead, which reports its own child's figures.
LAUNCHER = """import json, os, subprocess, sys
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(p.pid, 0)
open(sys.argv[1], "w").write(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_maxrss]))
"""


def _run(stage: str, args: list[str], rows: list[dict]) -> None:
    """One `aarakshan` command in a fresh process: wall time and that process's peak memory."""
    with tempfile.TemporaryDirectory() as tmp, open(Path(tmp) / "err", "w+") as err:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", LAUNCHER, str(Path(tmp) / "rc"), sys.executable, "-m", "solver.cli",
                        *args], stderr=err, check=True)
        wall = time.perf_counter() - t
        code, peak = json.loads((Path(tmp) / "rc").read_text())
        if code:
            err.seek(0)
            con.print(f"[red]{stage} failed (exit {code})[/]\n{err.read()[-3000:]}", highlight=False)
            raise typer.Exit(1)
    rows.append({"stage": stage, "seconds": round(wall, 2), "peak_mib": round(peak / 1024, 1)})
    con.print(f"{stage}: {wall:.2f} s, {peak / 1024:,.0f} MiB", highlight=False)


@app.command()
def main(candidates: int = typer.Option(550_000, "--candidates"), vacancies: int = typer.Option(1_000, "--vacancies"),
         posts: int = typer.Option(25, "--posts"), seed: int = typer.Option(2025, "--seed"),
         verify: bool = typer.Option(True, "--verify/--no-verify", help="also check every stage with verify"),
         keep: Path = typer.Option(None, "--keep", help="write the stages' folders here (default: a temporary one)")):
    """Run the whole pipeline and print (and record) each stage's time and peak memory."""
    from solver import load_policy
    from solver.data.instances import generate, write_instance

    root = keep or Path(tempfile.mkdtemp(prefix="pipeline-"))
    pol = load_policy("upsc-cse")
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    cands, vac_rows, _ = generate(pol, candidates, vacancies, seed=seed, posts=posts, disabled=0.05)
    pre = write_instance(root / "prelims", cands, vac_rows)
    con.print(f"generated {candidates:,} candidates, {vacancies:,} vacancies over {posts} posts in "
              f"{time.perf_counter() - t:.1f} s ({root})", highlight=False)
    vac = str(pre / "vacancies.csv")
    upsc = ["--policy", "upsc-cse", "--vacancies", vac]
    rows: list[dict] = []
    by_id = {k: i for i, k in enumerate(cands["id"])}

    def stage_file(name: str, ids: list[str], score: np.ndarray) -> Path:
        """Those called, with the stage's own score, in candidates.csv's columns."""
        folder = root / name
        folder.mkdir(exist_ok=True)
        take = np.array([by_id[k] for k in ids])
        sub = {k: np.asarray(v)[take] for k, v in cands.items()}
        sub["score"] = np.round(score, 3)
        write_instance(folder, sub, vac_rows)
        return folder / "candidates.csv"

    def shortlist(name: str, given: Path, ratio: float, previous: Path | None) -> Path:
        out = root / f"{name}-shortlist"
        more = ["--shortlist", str(previous)] if previous else []
        _run(f"shortlist {ratio:g}x to the {name}", ["shortlist", *upsc, "--candidates", str(given), "--ratio",
                                                     str(ratio), "--stage", name, *more, "--out", str(out)], rows)
        if verify:
            _run(f"verify the {name} shortlist", ["verify", *upsc, "--candidates", str(given), "--stage", "shortlist",
                                                  "--ratio", str(ratio), "--shortlist", str(out / "shortlist.csv")],
                 rows)
        return out / "shortlist.csv"

    first = shortlist("main examination", pre / "candidates.csv", 12, None)
    called = _ids(first)
    main_score = rng.normal(800, 120, len(called))
    mains = stage_file("mains", called, main_score)
    second = shortlist("interview", mains, 2, first)
    finalists = _ids(second)
    mains_of = dict(zip(called, main_score))
    final_score = np.array([mains_of[k] for k in finalists]) + rng.normal(170, 25, len(finalists))
    final = stage_file("final", finalists, final_score)
    post_names = sorted({p for p, *_ in vac_rows})
    prefs = _csv(root / "final" / "preferences.csv", ["candidate_id", "order", "post"],
                 ((k, o, post_names[p]) for k in finalists
                  for o, p in enumerate(rng.permutation(len(post_names)), 1)))
    inputs = ["--candidates", str(final), "--preferences", str(prefs)]
    for engine in ("greedy", "cpsat"):
        _run(f"final list + reserve list ({engine})", ["solve", *upsc, *inputs, "--engine", engine, "--reserve-list",
                                                       "--quiet", "--out", str(root / f"final-{engine}")], rows)
    out = root / "final-greedy"
    alloc = out / "allocation.csv"
    if verify:
        _run("verify the final list", ["verify", *upsc, *inputs, "--allocation", str(alloc)], rows)
        _run("verify the reserve list", ["verify", *upsc, *inputs, "--allocation", str(alloc), "--stage", "reserve",
                                         "--reserve-list", str(out / "reserve_list.csv")], rows)
    held = _ids(alloc)
    gone = rng.choice(len(held), size=max(1, round(0.05 * len(held))), replace=False)
    declined = _csv(root / "declined.csv", ["candidate_id", "reason"],
                    ((held[k], REASONS[rng.integers(len(REASONS))]) for k in sorted(gone)))
    for engine in ("greedy", "cpsat"):
        _run(f"fill {len(gone)} declines ({engine})", ["fill", "--result", str(out), "--declined", str(declined),
                                                      "--engine", engine, "--out", str(root / f"fill-{engine}")], rows)
    if verify:
        _run("verify the fill", ["verify", *upsc, *inputs, "--allocation", str(alloc), "--stage", "fill",
                                 "--reserve-list", str(out / "reserve_list.csv"), "--declined", str(declined),
                                 "--fill", str(root / "fill-greedy" / "allocation.csv")], rows)
    ssc = ["--policy", "central-dopt", "--vacancies", vac, *inputs]
    _run("first round for the slide (central-dopt, greedy)",
         ["solve", *ssc, "--engine", "greedy", "--quiet", "--out", str(root / "round1")], rows)
    placed = _ids(root / "round1" / "allocation.csv")
    answer = rng.choice(["absent", "float", "fix"], size=len(placed), p=[0.05, 0.35, 0.60])
    responses = _csv(root / "responses.csv", ["candidate_id", "response"], zip(placed, answer))
    for engine in ("greedy", "cpsat"):
        _run(f"sliding round ({engine})", ["slide", "--result", str(root / "round1"), "--responses", str(responses),
                                           "--engine", engine, "--out", str(root / f"slide-{engine}")], rows)
    if verify:
        _run("verify the slide", ["verify", *ssc, "--stage", "slide", "--allocation",
                                  str(root / "round1" / "allocation.csv"), "--responses", str(responses),
                                  "--slide", str(root / "slide-greedy" / "allocation.csv")], rows)
    greedy = [r for r in rows if "cpsat" not in r["stage"] and not r["stage"].startswith("verify")]
    tbl = Table(title=f"pipeline: {candidates:,} candidates, {vacancies:,} vacancies, {posts} posts "
                      f"({len(called):,} to the mains, {len(finalists):,} to the interview)")
    for c in ("stage", "seconds", "peak_mib"):
        tbl.add_column(c, justify="left" if c == "stage" else "right")
    for r in rows:
        tbl.add_row(r["stage"], f"{r['seconds']:.2f}", f"{r['peak_mib']:,.0f}")
    con.print(tbl)
    con.print(f"greedy pipeline (no verify, no CP-SAT): {sum(r['seconds'] for r in greedy):.1f} s, peak "
              f"{max(r['peak_mib'] for r in greedy):,.0f} MiB in one stage", highlight=False)
    record("pipeline", rows, candidates=candidates, vacancies=vacancies, posts=posts, mains=len(called),
           interview=len(finalists))


if __name__ == "__main__":
    app()
