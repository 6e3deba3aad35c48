"""Example inputs for every bundled policy, and a whole combined exam, written deterministically (the same bytes
on every machine): what `aarakshan demo` writes and what every command in README.md and docs/ runs on.

The candidates are synthetic (`solver.data.instances.generate`, seeded); the vacancy tables follow each policy's
kind of recruitment: `TOTAL` rows where the policy's shares split them (so that a what-if on a share changes
something), ranked services under a recommendation list (upsc-cse).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..data.instances import generate, write_instance
from ..io.staging import write_csv
from ..policy import load_policy

# policy: (candidates, vacancies, posts, ranked posts, seed, TOTAL rows)
EXAMPLES = {
    "bihar-1991": (5_000, 400, 1, 0, 1991, False),
    "central-dopt": (3_000, 300, 2, 0, 2024, True),
    "central-2004": (2_000, 200, 2, 0, 2004, True),
    "maharashtra-2001": (3_000, 300, 2, 0, 2001, False),
    "manipur-1976": (1_000, 100, 1, 0, 1976, False),
    "upsc-cse": (2_000, 100, 8, 8, 2025, False),
}
DECLINE_REASONS = ["declined", "declined", "declined", "limited_preferences", "invalid_claim", "cancelled"]


def write_example(policy: str, folder: str | Path) -> Path:
    """candidates.csv, vacancies.csv (and preferences.csv where the policy's posts are ranked) for a bundled
    policy, in `folder`.

    Example
    -------
    >>> import tempfile
    >>> d = write_example("central-dopt", tempfile.mkdtemp())
    >>> sorted(p.name for p in d.iterdir()), (d / "vacancies.csv").read_text().splitlines()[1]
    (['candidates.csv', 'vacancies.csv'], 'P01,TOTAL,150')
    """
    if policy not in EXAMPLES:
        raise KeyError(f"no example for {policy!r}; there are examples for {', '.join(EXAMPLES)}")
    n, vac, posts, ranked, seed, total = EXAMPLES[policy]
    pol = load_policy(policy)
    cands, rows, prefs = generate(pol, n, vac, seed=seed, posts=posts, preferences=ranked,
                                  women_share=0.3 if policy == "bihar-1991" else 0.0,
                                  disabled=0.05 if policy == "upsc-cse" else 0.0)
    folder = write_instance(folder, cands, [] if total else rows, prefs)
    if total:
        per = [vac // posts + (k < vac % posts) for k in range(posts)]
        write_csv(folder / "vacancies.csv", ["post", "category", "vacancies"],
                  ([f"P{k + 1:02d}", "TOTAL", v] for k, v in enumerate(per)))
    return folder


@dataclass(frozen=True)
class Pipeline:
    """The files of a combined exam (`write_pipeline`)."""

    folder: Path
    mains_called: int
    interview_called: int


def write_pipeline(folder: str | Path, candidates: int = 20_000, seed: int = 2025) -> Pipeline:
    """A UPSC-like combined exam under upsc-cse, every stage's file: prelims.csv (everyone's preliminary
    score), vacancies.csv (100 vacancies over 8 services), mains.csv (those 12x the vacancies call, with their
    main examination scores), final.csv (those 2x call to the interview, main + interview; main_scores.csv and interview_scores.csv hold the two
    stages' own scores), preferences.csv
    (each finalist ranks every service), declined.csv (5% of the final allocation, with reasons) and
    responses.csv (fix, float or absent for a sliding round of the finalists under central-dopt).

    Example
    -------
    >>> import tempfile
    >>> p = write_pipeline(tempfile.mkdtemp(), candidates=2_000)
    >>> p.mains_called > p.interview_called > 0
    True
    """
    from ..io.readers import read_problem
    from ..exam.shortlist import shortlist
    from ..chain.solve import solve

    folder = Path(folder)
    pol = load_policy("upsc-cse")
    rng = np.random.default_rng(seed)
    cands, rows, _ = generate(pol, candidates, 100, seed=seed, posts=8, disabled=0.05)
    write_instance(folder, cands, rows)
    (folder / "candidates.csv").rename(folder / "prelims.csv")
    vac = folder / "vacancies.csv"

    def next_stage(given: Path, ratio: float, name: str, score) -> tuple[Path, list[str]]:
        problem = read_problem(pol, given, vac)
        called = shortlist(pol, problem, ratio).called
        ids = [problem.candidates.ids[i] for i in np.flatnonzero(called)]
        chosen = set(ids)
        keep = np.array([k in chosen for k in cands["id"]])
        sub = {k: np.asarray(v)[keep] for k, v in cands.items()}
        sub["score"] = np.round(score(sub), 3)
        write_instance(folder / "tmp", sub, rows)
        (folder / "tmp" / "candidates.csv").rename(folder / name)
        return folder / name, list(sub["id"])

    mains_score = np.round(rng.normal(800, 120, candidates), 3)   # (rounded as published, so that sums agree)
    index = {k: i for i, k in enumerate(cands["id"])}
    mains, called = next_stage(folder / "prelims.csv", 12, "mains.csv",
                               lambda s: mains_score[[index[k] for k in s["id"]]])
    interview = np.round(rng.normal(170, 25, candidates), 3)
    final, finalists = next_stage(mains, 2, "final.csv",
                                  lambda s: mains_score[[index[k] for k in s["id"]]] +
                                  interview[[index[k] for k in s["id"]]])
    for p in (folder / "tmp").iterdir():
        p.unlink()
    (folder / "tmp").rmdir()
    # each counted stage's own scores for the finalists (`aarakshan merit` adds them up to final.csv's)
    for name, score in (("main_scores.csv", mains_score), ("interview_scores.csv", interview)):
        write_csv(folder / name, ["candidate_id", "score"], ([k, float(score[index[k]])] for k in finalists))
    services = sorted({p for p, *_ in rows})
    write_csv(folder / "preferences.csv", ["candidate_id", "order", "post"],
              ([k, o, services[p]] for k in finalists for o, p in enumerate(rng.permutation(len(services)), 1)))
    prefs = folder / "preferences.csv"
    held = [r[0] for r in solve(pol, read_problem(pol, final, vac, prefs), "greedy").result.allocation_rows()]
    gone = sorted(rng.choice(len(held), size=max(1, len(held) // 20), replace=False))
    write_csv(folder / "declined.csv", ["candidate_id", "reason"],
              ([held[k], DECLINE_REASONS[k % len(DECLINE_REASONS)]] for k in gone))
    ssc = load_policy("central-dopt")
    placed = [r[0] for r in solve(ssc, read_problem(ssc, final, vac, prefs), "greedy").result.allocation_rows()]
    answer = rng.choice(["fix", "float", "absent"], size=len(placed), p=[0.6, 0.35, 0.05])
    write_csv(folder / "responses.csv", ["candidate_id", "response"], ([k, str(a)] for k, a in zip(placed, answer)))
    return Pipeline(folder, len(called), len(finalists))
