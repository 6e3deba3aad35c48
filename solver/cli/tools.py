"""`roster`, `models` and `surrender`: the running roster, the bundled policies, the abolition of posts."""
from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Optional

import typer

from ..errors import AarakshanError, InputError
from .common import say, PolicyOpt, RecruitmentOpt, SetOpt, app, check_engine, err, fail, load, warn


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

    pol = load(name, set_, recruitment)
    out = [f"# {pol.name}", f"# source: {pol.source}"]
    out += [f"# --set {s}" for s in set_] or ["# as the model gives it (no --set)"]

    def walk(prefix: str, value) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else k, v)
        elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            for x in value:
                key = x.get("code") or x.get("name") or x.get("key") or x.get("from") or \
                    "-".join(x.get("categories", [])) or "?"
                walk(f"{prefix}.{key}", {k: v for k, v in x.items()})
        else:
            out.append(f"{prefix} = {json.dumps(value, ensure_ascii=False)}")
    data = pol.model_dump(mode="json", by_alias=True, exclude={"folder"})
    for key in ("name", "source"):
        data.pop(key, None)
    walk("", data)
    typer.echo("\n".join(out))
