"""Deterministic synthetic recruitments (demo, tests, benchmarks): candidates with a policy's category mix
and flags, a vacancy table split by the policy's shares, optional preferences.

The data are synthetic. Scores are normal (mean 60, sd 12) and each category's distribution is shifted by its
merit gap (`gaps`). Who gains and who loses under a reform turns on those gaps: with the default ("synthetic",
a small shift growing by 0.45 points per category in the policy's order) every category has nearly the same
merit, and reserved candidates take about half the open seats, more than in any published result. The preset
"upsc-cse-2025" shifts each category by its distance below the general category at the final cut-off of CSE
2025 (General 963, EWS 926, OBC 931, SC 905, ST 902 of 2,025 marks; UPSC's notice of 9 March 2026 as the
Indian Express reported it on 10 March 2026), scaled to this score: the cut-off gap is a proxy for the gap
between the distributions, which the UPSC does not publish. Synthetic data can show how the rules move seats
for given merit gaps; they cannot tell how a real recruitment would come out.
"""
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


# Merit gaps: per category the points its scores are shifted down by (0 for the open category); "synthetic" is
# the default's 0.45 points per category in the policy's order. CSE 2025's final cut-offs, as fractions of the
# general cut-off (963), times the mean score (60): EWS (963 - 926) / 963 x 60 = 2.3, OBC 2.0, SC 3.6, ST 3.8.
GAPS: dict[str, dict[str, float] | None] = {
    "synthetic": None,
    "upsc-cse-2025": {"EWS": 2.3, "OBC": 2.0, "SC": 3.6, "ST": 3.8},
}


def merit_gaps(policy: Policy, gaps: str | dict[str, float] | None) -> dict[str, float]:
    """Per category code the points its scores are shifted down by: a preset of `GAPS` by name, a mapping, or
    None (the synthetic default). A category a preset does not name is not shifted."""
    if isinstance(gaps, str):
        if gaps not in GAPS:
            raise KeyError(f"no merit gaps named {gaps!r}; there are {', '.join(GAPS)}")
        gaps = GAPS[gaps]
    if gaps is None:
        return {code: k * 0.15 * 3 for k, code in enumerate(policy.member_codes)}   # (as first written: same data)
    return {code: float(gaps.get(code, 0.0)) for code in policy.member_codes}


def generate(policy: Policy, n: int, vacancies: int, seed: int = 0, posts: int = 1, preferences: int = 0,
             women_share: float = 0.0, disabled: float = 0.0, female: float = 0.35, birth_dates: bool = False,
             gaps: str | dict[str, float] | None = None):
    """Columns of candidates.csv, rows of vacancies.csv and (when `preferences`) of preferences.csv.
    `disabled`: share of candidates with a benchmark disability (sub-categories a-e alike); `female`: share of
    women among the candidates; `birth_dates`: a birth date each (1970-2004), drawn after everything else so
    that the other columns are those of the same seed without them (scores tied to the third decimal are
    then settled by age, `merit.tie_breaks`, as commissions settle them); `gaps`: the categories' merit gaps
    (`merit_gaps`: a preset's name, a mapping, or None for the synthetic default)."""
    rng = np.random.default_rng(seed)
    codes, w = category_mix(policy)
    cat = np.array(codes, dtype=object)[rng.choice(len(codes), size=n, p=w)]
    # Merit differs by category (`merit_gaps`; by default a little, so that migration, exhaustion and exchange
    # all happen).
    shift = merit_gaps(policy, gaps)
    score = rng.normal(60, 12, n) - np.vectorize(shift.get)(cat)
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
        for code in policy.seat_codes:
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


def write_years(policy: Policy, folder: str | Path, years: list[int], n: int, posts: dict[str, int] | None = None,
                vacancies: int = 0, n_posts: int = 1, preferences: int = 0, gaps=None) -> list[Path]:
    """A folder of recruitment years (`simulate` and `sweep --years` read it): per year, candidates drawn with
    the year as the seed and its vacancies, either `posts` (name -> vacancies, a TOTAL row each, split by the
    running roster across the years) or `vacancies` over `n_posts` posts split by the policy's shares.

    Example
    -------
    >>> import tempfile
    >>> from solver import load_policy
    >>> d = tempfile.mkdtemp()
    >>> [p.name for p in write_years(load_policy("central-dopt"), d, [2025, 2026], 50, {"ASO": 6})]
    ['2025', '2026']
    """
    out = []
    for year in years:
        total = sum(posts.values()) if posts else vacancies
        cands, rows, prefs = generate(policy, n, total, seed=year, posts=len(posts) if posts else n_posts,
                                      preferences=preferences, gaps=gaps)
        if posts:   # (generate names its posts P01, P02, ...: the preferences name the posts given)
            names = {f"P{k + 1:02d}": name for k, name in enumerate(posts)}
            prefs = [(cid, order, names[p]) for cid, order, p in prefs]
        d = write_instance(Path(folder) / str(year), cands, [] if posts else rows, prefs)
        if posts:
            (d / "vacancies.csv").write_text("post,category,vacancies\n" + "".join(
                f"{name},TOTAL,{k}\n" for name, k in posts.items()), encoding="utf-8")
        out.append(d)
    return out
