"""A JoSAA-shaped counselling, bundled (`aarakshan demo --counselling`): two exams (JEE (Main), the candidates'
own rank, ranks the NIT-like programs; JEE (Advanced), a list of its own in ranks.csv, the IIT-like ones),
programs split into every kind of seat pool (AI at the IIT-like institutes, HS and OS at the NIT-like ones; a
gender-neutral and a female-only pool; PwD seats), and six rounds: the first solved, each later one on the
responses drawn after the one before (freeze, float, slide, withdraw)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..data.instances import category_mix
from ..io.staging import write_csv
from ..policy import load_policy
from ..chain.vacancy import roster

RESPONSES = ("freeze", "float", "slide", "withdraw")


@dataclass(frozen=True)
class Counselling:
    """The example's files (`write_counselling`)."""

    folder: Path
    candidates: int
    seats: int


def write_counselling(folder: str | Path, candidates: int = 3_000, seed: int = 2025) -> Counselling:
    """candidates.csv (id, rank on JEE (Main), category, gender, pwbd, home_state), ranks.csv (the JEE (Advanced)
    list: a quarter of the candidates), vacancies.csv (per program, pool and category, with `merit_list`,
    `institute`, `quota`, `state`, `gender_pool`, `trait`, `supernumerary`) and preferences.csv, under josaa-2025.

    Example
    -------
    >>> import tempfile
    >>> made = write_counselling(tempfile.mkdtemp(), candidates=300)
    >>> sorted(p.name for p in made.folder.iterdir())
    ['candidates.csv', 'preferences.csv', 'ranks.csv', 'vacancies.csv']
    """
    rng = np.random.default_rng(seed)
    pol = load_policy("josaa-2025")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    codes, w = category_mix(pol)
    n = candidates
    ids = [f"J{i:05d}" for i in range(n)]
    states = np.array(["KA", "MH", "TN", "UP"])
    write_csv(folder / "candidates.csv", ["id", "rank", "category", "gender", "pwbd", "home_state"],
              zip(ids, range(1, n + 1), np.array(codes)[rng.choice(len(codes), n, p=w)],
                  np.where(rng.random(n) < 0.25, "F", "M"), np.where(rng.random(n) < 0.04, "b", ""),
                  states[rng.integers(0, len(states), n)]))
    advanced = np.sort(rng.choice(n, n // 4, replace=False))   # (Advanced ranks follow Main's loosely)
    order = advanced[np.argsort(advanced + rng.normal(0, n / 20, len(advanced)), kind="stable")]
    write_csv(folder / "ranks.csv", ["candidate_id", "list", "rank"],
              ((ids[i], "advanced", k + 1) for k, i in enumerate(order)))
    programs, rows = [], []
    for inst, kind, state in (("IIT-A", "iit", ""), ("IIT-B", "iit", ""), ("NIT-K", "nit", "KA"),
                              ("NIT-M", "nit", "MH"), ("NIT-T", "nit", "TN")):
        for branch in ("CSE", "ECE", "ME"):
            name = f"{inst}-{branch}"
            programs.append(name)
            seats = int(rng.integers(20, 60))
            for quota in (["AI"] if kind == "iit" else ["HS", "OS"]):
                rows += _pool_rows(pol, name, inst, kind, quota, state, seats // (1 if kind == "iit" else 2))
    write_csv(folder / "vacancies.csv", ["post", "category", "vacancies", "merit_list", "institute", "quota", "state",
                                         "gender_pool", "trait", "supernumerary"], rows)
    popularity = rng.dirichlet(np.ones(len(programs)))
    prefs = []
    for cid in ids:
        k = int(rng.integers(1, 9))
        for j, p in enumerate(rng.choice(len(programs), k, replace=False, p=popularity)):
            prefs.append((cid, j + 1, programs[p]))
    write_csv(folder / "preferences.csv", ["candidate_id", "order", "post"], prefs)
    return Counselling(folder, n, sum(r[2] for r in rows))


def _pool_rows(pol, program, inst, kind, quota, state, seats) -> list[tuple]:
    """One quota of a program: its gender-neutral seats split by the roster into categories, 5% of them for PwD
    (at least one), and female-only supernumerary seats (a fifth of the neutral ones) split the same way."""
    rows = []
    listed = "advanced" if kind == "iit" else ""
    for gender, trait, k, extra in (("neutral", "", seats, False), ("neutral", "pwbd", max(1, seats // 20), False),
                                    ("female", "", max(1, seats // 5), True)):
        split = roster(pol, k)
        for code in pol.seat_codes:
            if split.count(code):
                rows.append((program, code, split.count(code), listed, inst, quota, state, gender, trait,
                             str(extra).lower()))
    return rows


def responses(allocation: list[dict], round_no: int, frozen=frozenset(), seed: int = 2025) -> list[tuple[str, str]]:
    """A round's responses, drawn for those `allocation` placed: more freeze as the rounds go on; one in `frozen`
    (who froze in an earlier round) freezes again, a freeze being final."""
    rng = np.random.default_rng(seed + round_no)
    freeze = min(0.9, 0.3 + 0.1 * round_no)
    p = np.array([freeze, (1 - freeze) * 0.6, (1 - freeze) * 0.3, (1 - freeze) * 0.1])
    pick = rng.choice(len(RESPONSES), len(allocation), p=p / p.sum())
    return [(r["candidate_id"], "freeze" if r["candidate_id"] in frozen else RESPONSES[k])
            for r, k in zip(allocation, pick)]


def special_round(folder: str | Path, last: str | Path, seed: int = 2025) -> tuple[Path, Path]:
    """CSAB's special round after JoSAA's last round (the output folder `last`), as csab-2025 reads it: writes
    `folder`/special-responses.csv (a tenth of the NIT-like seat holders withdraw, their seats going to the
    round; a tenth register to move up; the 300 best without a seat register, some who withdrew in JoSAA among
    them) and `folder`/special-preferences.csv (the choices filled afresh: each registered one's JoSAA choices but
    the IIT-like programs, which the special rounds do not offer). Returns the two paths."""
    from .stages import read_rows
    folder, last = Path(folder), Path(last)
    closed = {r["post"] for r in read_rows(folder / "vacancies.csv", ["post"], ["merit_list"])
              if r.get("merit_list") == "advanced"}
    said = _registered(folder, last, closed, np.random.default_rng(seed + 100))
    taking = {cid for cid, a in said if a != "withdraw"}
    choices: dict[str, list[str]] = {}
    for r in read_rows(folder / "preferences.csv", ["candidate_id", "order", "post"]):
        if r["candidate_id"] in taking and r["post"] not in closed:
            choices.setdefault(r["candidate_id"], []).append(r["post"])
    write_csv(folder / "special-responses.csv", ["candidate_id", "response"], said)
    write_csv(folder / "special-preferences.csv", ["candidate_id", "order", "post"],
              [(cid, k + 1, p) for cid, posts in choices.items() for k, p in enumerate(posts)])
    return folder / "special-responses.csv", folder / "special-preferences.csv"


def _registered(folder: Path, last: Path, closed: set[str], rng) -> list[tuple[str, str]]:
    """The special round's responses (`special_round`): the NIT-like seat holders' (withdraw, float or none) and
    the registrations of those without a seat."""
    from .stages import read_rows
    held = read_rows(last / "allocation.csv", ["candidate_id", "post"])
    left = {r["candidate_id"] for r in read_rows(last / "withdrawn.csv", ["candidate_id"])}
    said = [(r["candidate_id"], ["withdraw", "float", ""][rng.choice(3, p=[0.1, 0.1, 0.8])]) for r in held
            if not r["post"].startswith(tuple(closed))]
    placed = {r["candidate_id"] for r in held}
    ids = [r["id"] for r in read_rows(folder / "candidates.csv", ["id"])]
    fresh = [cid for cid in ids if cid not in placed and (cid not in left or rng.random() < 0.5)][:300]
    return [(cid, a) for cid, a in said if a] + [(cid, "register") for cid in fresh]
