"""Deterministic synthetic recruitments (demo, tests, benchmarks): candidates with a policy's category mix
and flags, a vacancy table split by the policy's shares, optional preferences."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from ..policy import Policy
from ..chain.vacancy import roster


def category_mix(policy: Policy) -> tuple[list[str], np.ndarray]:
    codes = policy.member_codes
    w = np.array([0.0] + [policy.category(c).share for c in codes[1:]])
    w[0] = max(0.05, 1 - w.sum())
    return codes, w / w.sum()


def generate(policy: Policy, n: int, vacancies: int, seed: int = 0, posts: int = 1, preferences: int = 0,
             women_share: float = 0.0, disabled: float = 0.0, female: float = 0.35, birth_dates: bool = False):
    """Columns of candidates.csv, rows of vacancies.csv and (when `preferences`) of preferences.csv.
    `disabled`: share of candidates with a benchmark disability (sub-categories a-e alike); `female`: share of
    women among the candidates; `birth_dates`: a birth date each (1970-2004), drawn after everything else so
    that the other columns are those of the same seed without them (scores tied to the third decimal are
    then settled by age, `merit.tie_breaks`, as commissions settle them)."""
    rng = np.random.default_rng(seed)
    codes, w = category_mix(policy)
    cat = np.array(codes, dtype=object)[rng.choice(len(codes), size=n, p=w)]
    # Merit differs a little by category so that migration, exhaustion and exchange all happen.
    bias = {code: k * 0.15 for k, code in enumerate(codes)}
    score = rng.normal(60, 12, n) - np.vectorize(bias.get)(cat) * 3
    score = np.round(score, 3)
    female = rng.random(n) < female
    creamy = (rng.random(n) < 0.1) & np.isin(cat, [c.code for c in policy.categories if c.creamy_layer_excluded])
    relaxed = (rng.random(n) < 0.05) & (cat != policy.open)
    width = len(str(n))
    cands = {
        "id": [f"C{k:0{width}d}" for k in range(n)],
        "score": score,
        "category": cat,
        "gender": np.where(female, "F", "M"),
        "creamy_layer": np.where(creamy, "true", ""),
        "relaxed": np.where(relaxed, "true", ""),
    }
    if disabled:
        letters = np.array(list("abcde"), dtype=object)[rng.integers(0, 5, n)]
        cands["pwbd"] = np.where(rng.random(n) < disabled, letters, "")
    post_names = [f"P{k + 1:02d}" for k in range(posts)]
    split = rng.multinomial(vacancies - posts, np.ones(posts) / posts) + 1
    vac_rows = []
    for name, total in zip(post_names, split):
        points = roster(policy, int(total))
        for code in [policy.open, *policy.reserved_codes]:
            k = points.count(code)
            women = int(np.floor(k * women_share))
            vac_rows.append((name, code, k, women if women else ""))
    prefs = []
    if preferences:
        for k in range(n):
            for o, p in enumerate(rng.permutation(posts)[:preferences], 1):
                prefs.append((cands["id"][k], o, post_names[p]))
    if birth_dates:
        days = rng.integers(0, 35 * 365, n)
        seen: set = set()
        for k in range(n):   # (no two of one score born the same day: merit and age settle every tie)
            while (score[k], days[k]) in seen:
                days[k] += 1
            seen.add((score[k], days[k]))
        cands["birth_date"] = (np.datetime64("1970-01-01") + days.astype("timedelta64[D]")).astype(str)
    return cands, vac_rows, prefs


def write_instance(folder: str | Path, cands, vac_rows, prefs=()) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    pacsv.write_csv(pa.table({k: pa.array(list(v) if not isinstance(v, np.ndarray) else v.tolist())
                              for k, v in cands.items()}), folder / "candidates.csv",
                    write_options=pacsv.WriteOptions(quoting_style="none"))
    with open(folder / "vacancies.csv", "w") as fh:
        fh.write("post,category,vacancies,women\n")
        fh.writelines(f"{p},{c},{v},{w}\n" for p, c, v, w in vac_rows)
    if prefs:
        with open(folder / "preferences.csv", "w") as fh:
            fh.write("candidate_id,order,post\n")
            fh.writelines(f"{a},{b},{c}\n" for a, b, c in prefs)
    return folder
