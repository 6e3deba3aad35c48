"""`roster`, `models`, `surrender` and `generate`: the running roster, the bundled policies, the abolition of posts,
synthetic recruitment years."""
from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Optional

import typer

from ..errors import AarakshanError, InputError
from .common import say, PolicyOpt, RecruitmentOpt, SetOpt, app, check_engine, err, fail, load, usage, warn


@app.command()
def roster(policy: str = PolicyOpt, points: Optional[int] = typer.Option(None, "--points", min=1),
           start: int = typer.Option(1, "--start", min=1, help="first point (a running roster resumes here)"),
           cadre: Optional[int] = typer.Option(None, "--cadre", min=1,
                                               help="sanctioned posts of the cadre: points past it are refused"),
           vacated: Optional[str] = typer.Option(None, "--vacated", help="points of a fully operated roster whose "
                                                 "holders left, e.g. 4,7,8: prints the replacement categories"),
           recruitment: str = RecruitmentOpt, set_: list[str] = SetOpt):
    """Print the post-based roster as CSV (point,category): `--points` points from `--start` of the running
    roster (points count on through the policy's cycles, each cycle's end holding every share); or, with
    `--vacated`, the replacement rule (R.K. Sabharwal 1995)."""
    from ..chain.vacancy import replacement, running
    from ..io.vacancies import LAST_ROSTER_POINT

    pol = load(policy, set_, recruitment)
    try:
        if vacated is not None:
            if not all(x.strip().isascii() and x.strip().isdigit() for x in vacated.split(",")):
                raise InputError("--vacated", None, None, f"{vacated!r} is not a comma-separated list of points")
            at = [int(x) for x in vacated.split(",")]
            try:
                rows = list(zip(at, replacement(pol, at)))
            except ValueError as e:
                raise InputError("--vacated", None, None, str(e)) from None
        elif points is None:
            raise InputError("--points", None, None, "give --points N (or --vacated P,Q,...)")
        elif start + points - 1 > LAST_ROSTER_POINT:
            raise InputError("--points", None, None, f"points {start}..{start + points - 1} reach past "
                             f"{LAST_ROSTER_POINT:,}; a roster that long is not a cadre's")
        else:
            if cadre is not None:
                from ..chain.vacancy.split import check_cadre
                check_cadre(pol, "--cadre", cadre, start, points)
            rows = [(start + k, code) for k, code in enumerate(running(pol, start, points))]
    except AarakshanError as e:
        fail(e)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["point", "category"])
    w.writerows(rows)


@app.command()
def models():
    """List the bundled policy models (the names `--policy` takes) with their titles."""
    from ..policy.load import MODELS_DIR, bundled_models

    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["name", "title"])
    for name, title in bundled_models().items():
        w.writerow([name, title])
    err.print(f"[dim]from {MODELS_DIR}[/]", highlight=False)


@app.command("surrender")
def surrender_cmd(
    policy: str = PolicyOpt,
    employees: Path = typer.Option(..., "--employees", help="employees.csv: id, category, and seniority (1 = most "
                                   "senior; juniors go first) or order (the service's order of surrender)"),
    abolish: int = typer.Option(..., "--abolish", help="posts of the cadre abolished"),
    out: Path = typer.Option(..., "--out", help="output folder: surrendered.csv and surrender.json"),
    strength: Optional[int] = typer.Option(None, "--strength", help="the cadre's posts (default: the employees; "
                                           "more when some posts are vacant)"),
    engine: str = typer.Option("cpsat", "--engine", help="cpsat | greedy"),
    set_: list[str] = SetOpt,
):
    """Who is surrendered when posts of a cadre are abolished: the service's order, except that no SC, ST or
    OBC employee goes if that lowers their representation below their percentage (Bill 2004 s.12)."""
    from ..io.staging import stage, write_csv, write_json
    from ..study.surrender import COLUMNS, check, protected, read_employees, rows, surrender

    check_engine(engine, among=("cpsat", "greedy"))
    pol = load(policy, set_, "direct")
    try:
        protected(pol)
        emp = read_employees(employees, pol, warn=warn)
        res = surrender(pol, emp, abolish, strength, engine)
        problems = check(pol, emp, res.surrendered, abolish, res.strength)
        doc = {"policy": pol.name, "source": pol.surrender.source, "engine": engine, "strength": res.strength,
               "abolished": abolish, "employees": len(emp.ids), "surrendered": int(res.surrendered.sum()),
               "categories": {c: {"employees": res.before[c], "posts_after": res.share_posts[c],
                                  "kept_at_least": res.floors[c]} for c in res.floors},
               "check": problems or "every rule holds"}

        def write(tmp: Path) -> None:
            write_csv(tmp / "surrendered.csv", COLUMNS, rows(pol, res))
            write_json(tmp / "surrender.json", doc)
        stage(out, write, ("surrendered.csv", "surrender.json")).publish()
    except AarakshanError as e:
        fail(e)
    gone = ", ".join(emp.ids[res.surrendered][:10]) + (" ..." if res.surrendered.sum() > 10 else "")
    say(f"{int(res.surrendered.sum())} of {len(emp.ids)} employees surrendered ({gone or 'none'}); "
                    f"s.12 keeps {', '.join(f'{c} {k}' for c, k in res.floors.items())} at least; written to {out}/",
                    highlight=False)
    if problems:
        err.print("[bold red]the choice fails its own check[/]: " + "; ".join(problems))
        raise typer.Exit(1)


policy_app = typer.Typer(add_completion=False, no_args_is_help=True,
                         help="Policies: show one resolved, with the sources of its rules.")
app.add_typer(policy_app, name="policy")


@policy_app.command("show")
def policy_show(name: str = typer.Argument(..., help="a bundled model (aarakshan models) or a policy file"),
                recruitment: str = RecruitmentOpt, set_: list[str] = SetOpt):
    """Print the policy as resolved after every --set, as TOML-like lines `key = value`, each table's `source`
    beside its keys; the overrides applied are listed first."""
    import json

    from ..policy.load import entry_labels
    pol = load(name, set_, recruitment)
    out = [f"# {pol.name}", f"# source: {pol.source}"]
    out += [f"# --set {s}" for s in set_] or ["# as the model gives it (no --set)"]

    def walk(prefix: str, value) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else k, v)
        elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            for x, key in zip(value, entry_labels(value)):
                walk(f"{prefix}.{key}", x)
        else:
            out.append(f"{prefix} = {json.dumps(value, ensure_ascii=False)}")
    data = pol.model_dump(mode="json", by_alias=True, exclude={"folder"})
    for key in ("name", "source"):
        data.pop(key, None)
    walk("", data)
    typer.echo("\n".join(out))


@app.command("generate")
def generate_cmd(
    policy: str = PolicyOpt,
    out: Path = typer.Option(..., "--out", help="the folder of year folders to write (simulate and sweep --years "
                             "read it)"),
    years: str = typer.Option(..., "--years", help="FIRST-LAST, e.g. 2025-2029 (or one year)"),
    candidates: int = typer.Option(5000, "--candidates", min=1, help="candidates per year"),
    post: list[str] = typer.Option([], "--post", help="NAME=VACANCIES: a post's TOTAL row, split by its running "
                                   "roster; repeatable"),
    vacancies: int = typer.Option(0, "--vacancies", min=0, help="without --post: vacancies per year, split by "
                                  "the policy's shares over --posts posts"),
    posts: int = typer.Option(1, "--posts", min=1, help="without --post: how many posts"),
    preferences: int = typer.Option(0, "--preferences", min=0, help="posts each candidate ranks (0: no "
                                    "preferences.csv)"),
    gaps: str = typer.Option("synthetic", "--gaps", help="the categories' merit gaps: synthetic (nearly none) or "
                             "upsc-cse-2025 (CSE 2025's final cut-off gaps; docs/years.md)"),
    recruitment: str = RecruitmentOpt,
):
    """Write synthetic recruitment years: per year a candidates.csv drawn with the year as its seed, its
    vacancies.csv (and preferences.csv). The data are synthetic (solver.data.instances says what they can and
    cannot tell)."""
    from ..data.instances import GAPS, write_years

    first, _, last = years.partition("-")
    if not first.strip().isdigit() or (last and not last.strip().isdigit()) or int(last or first) < int(first):
        usage(f"--years: {years!r} is not FIRST-LAST (e.g. 2025-2029) or a year")
    if gaps not in GAPS:
        usage(f"--gaps: no merit gaps named {gaps!r}; there are {', '.join(GAPS)}")
    named: dict[str, int] = {}
    for given in post:
        name, eq, k = given.partition("=")
        if not eq or not name.strip() or not k.strip().isdigit() or name.strip() in named:
            usage(f"--post: {given!r} is not NAME=VACANCIES (each name once)")
        named[name.strip()] = int(k)
    if not named and not vacancies:
        usage("give --post NAME=VACANCIES (repeatable) or --vacancies N")
    pol = load(policy, [], recruitment)
    span = list(range(int(first), int(last or first) + 1))
    try:
        made = write_years(pol, out, span, candidates, named or None, vacancies, posts, preferences, gaps)
    except OSError as e:
        fail(InputError(out, None, None, f"cannot be written: {e.strerror or e}"))
    say(f"{len(made)} recruitment year(s) of {candidates:,} synthetic candidates written to {out}/ "
        f"({', '.join(p.name for p in made)}; merit gaps: {gaps})")
