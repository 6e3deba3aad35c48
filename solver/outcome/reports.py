"""Write the output files of SPEC.md atomically: everything goes to a temporary folder beside `--out`
and is moved in only once every file is complete."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

from ..io.background import Background
from ..io.choices import keep_choices
from ..io.invocation import COMMAND
from ..io.staging import Staged, sha256_file, stage, write_csv, write_json
from .reasons import decision_rows
from .result import ALLOCATION_COLUMNS, CUTOFF_COLUMNS, DECISION_COLUMNS, UNFILLED_COLUMNS, Result
from ..data.routes import Route

DIFF_COLUMNS = ["candidate_id", "greedy_post", "greedy_seat", "greedy_route", "cpsat_post", "cpsat_seat",
                "cpsat_route", "rule"]


def _supernumerary(result: Result, allocation: list[list]) -> dict | None:
    """The seats of rows marked supernumerary and how many of them `allocation` (its rows) holds; None where no
    row is marked."""
    rows = {(r.post, r.category): r.vacancies for r in result.problem.vacancy_rows if r.supernumerary}
    if not rows:
        return None
    held = sum(1 for row in allocation if (row[1], row[2]) in rows)
    return {"seats": int(sum(rows.values())), "filled": held}


def summary(result: Result, timings: dict, extra: dict | None = None) -> dict:
    sel = result.selected
    counted: dict[str, int] = {}
    routes: dict[str, int] = {}
    allocation = result.allocation_rows()
    for row in allocation:
        counted[row[3]] = counted.get(row[3], 0) + 1
        routes[row[5]] = routes.get(row[5], 0) + 1
    ceiling = {}
    uses = result.seats.ceiling_use(result.policy)
    for post in result.problem.posts:
        used, total = uses[post]
        ceiling[post] = {"reserved_in_ceiling": used, "vacancies": total,
                         "share": round(used / total, 6) if total else 0.0,
                         "limit": result.policy.ceiling.share}
    stats = {k: v for k, v in result.assignment.stats.items() if not k.endswith("seconds")}
    out = {
        "engine": result.engine,
        "status": result.assignment.status,
        "policy": result.policy.name,
        "candidates": int(len(sel)),
        "selected": int(sel.sum()),
        "vacancies": int(sum(result.seats.seats.values())),
        # of them, seats over the notified number (vacancies.csv `supernumerary`: JoSAA's female-only seats), and
        # how many were filled (absent where no row is)
        **({"supernumerary": extra_seats} if (extra_seats := _supernumerary(result, allocation)) else {}),
        "counted_as": dict(sorted(counted.items())),
        "routes": dict(sorted(routes.items())),
        "ceiling": ceiling,
        # each minimum, what held it and how many came in by adjustment (absent without minimums)
        **({"horizontal": rows} if (rows := result.horizontal_report()) else {}),
        # after a recommendation list: the list's own minimums (each category's, summed over the posts)
        **({"recommendation_horizontal": rows} if result.pools.selection is not None
           and (rows := result.pools.selection.stage.horizontal_report()) else {}),
        # counting for each trait: compartments where the procedure as written would have chosen otherwise
        **({"procedure_differs": result.procedure_differences}
           if result.policy.horizontal.multi_trait_counts_each else {}),
        "model": stats,
        "notes": list(result.seats.notes),
        # Timings vary run to run, and the command line with --workers; they are kept apart so the rest of the
        # file is byte-for-byte stable.
        "timings": timings,
        **({"invocation": {"command": list(COMMAND)}} if COMMAND else {}),
    }
    if extra:
        out.update(extra)
    return out


def provenance(policy, overrides, engine: str, sources: dict, register: dict | None = None,
               digests: "InputDigests | None" = None) -> dict:
    """What made this output: the policy as resolved after every `--set` (and the overrides themselves), the
    SHA-256 of each input file, the package version and the engine, so that two output folders can be told
    apart and a result traced to its inputs. `digests`: the hashing started when the run began."""
    import json
    from importlib.metadata import PackageNotFoundError, version

    from .. import __version__
    try:
        ortools = version("ortools")
    except PackageNotFoundError:
        ortools = ""
    sha = digests.result() if digests is not None and digests.sources == sources else _sha256_each(sources)
    resolved = policy.model_dump(mode="json", by_alias=True)
    return {"aarakshan": __version__, "ortools": ortools, "engine": engine, "overrides": list(overrides),
            # the model and every override since it, through any summary.json the policy was read back from
            "lineage": policy.lineage or {"model": policy.name, "overrides": list(overrides)},
            "policy_sha256": hashlib.sha256(json.dumps(resolved, sort_keys=True).encode()).hexdigest(),
            # (the path as given, and resolved: a later stage run from another folder finds the file)
            "inputs": {role: {"path": path, "resolved": str(Path(path).resolve()), "sha256": sha[role]}
                       for role, path in sorted(sources.items())},
            **({"register": register} if register else {}),
            "policy": resolved}


class InputDigests:
    """The SHA-256 of each input file (role -> path), worked out in a background thread once the run has read
    them (`solver.io.background`): JoSAA's 408 MB preferences hash (0.5-2 s) while the solver works on the other
    core, not while Arrow's threads parse them."""

    def __init__(self, sources: dict[str, str]):
        self.sources = dict(sources)
        self._work = Background(_sha256_each, self.sources)

    def result(self) -> dict[str, str]:
        return self._work.result()


def _sha256_each(sources: dict[str, str]) -> dict[str, str]:
    return {role: sha256_file(path) for role, path in sorted(sources.items())}


def diff_rows(greedy: Result, cpsat: Result):
    ids = greedy.problem.candidates.ids
    posts = greedy.problem.posts
    a, b = greedy.assignment, cpsat.assignment

    def where(r: Result, i):
        if r.assignment.pool[i] < 0:
            return ["", "", ""]
        return [posts[r.pools.pools[r.assignment.pool[i]].post], r.seat_category[i], r.route(i)]

    for i in np.flatnonzero((a.pool != b.pool) | (a.adjusted != b.adjusted)):
        g, c = where(greedy, i), where(cpsat, i)
        rule = "horizontal" if Route.HORIZONTAL_ADJUSTMENT in (g[2], c[2]) else (g[2] or c[2])
        yield [ids[i], *g, *c, rule]


CARRIED_COLUMNS = ["item", "post", "category", "origin_year", "kind", "event", "detail"]


def carried_rows(record):
    """The year's register events (carried.csv): what became of each carried vacancy, and the new ones."""
    for item, event, detail in sorted(record.events, key=lambda e: (e[0].origin_year, e[0].id)):
        yield [item.id, item.post, item.category, item.origin_year, ":".join(filter(None, [item.kind, item.trait])),
               event, detail]
    for post, code, kind, detail, *trait in record.new_items:
        yield ["", post, code, record.year, ":".join([kind, *trait]), "carried", detail]


def write_simulation(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    write_csv(tmp, list(rows[0]) if rows else [], (list(r.values()) for r in rows))
    os.replace(tmp, path)


def stage_outputs(out: str | Path, result: Result, timings: dict, diff: list | None = None,
                  extra: dict | None = None, record=None, tables: tuple = (), reads=()) -> Staged:
    """Write every output file into a staging folder beside `out` (so that moving them in is a rename).
    `tables`: more (name, columns, rows) to write beside the standard files; `reads`: the files the run read,
    which `out` may not hold. summary.json names the SHA-256 of every file written before it (`outputs`) and
    of itself (`digest`; `io.staging.seal`), so that a later stage reading them (fill, slide, compare) can tell
    a file changed since the run wrote it."""
    def write(tmp: Path) -> None:
        write_csv(tmp / "allocation.csv", ALLOCATION_COLUMNS, result.allocation_rows())
        write_csv(tmp / "decisions.csv", DECISION_COLUMNS, decision_rows(result))
        write_csv(tmp / "unfilled.csv", UNFILLED_COLUMNS, result.dispositions)
        write_csv(tmp / "cutoffs.csv", CUTOFF_COLUMNS, result.cutoffs())
        keep_choices(tmp, result.problem)   # (for the stage after this one: `solver.io.choices`)
        if diff is not None:
            write_csv(tmp / "diff.csv", DIFF_COLUMNS, diff)
        if record is not None:
            write_csv(tmp / "carried.csv", CARRIED_COLUMNS, carried_rows(record))
        for name, columns, rows in tables:
            write_csv(tmp / name, columns, rows)
        write_json(tmp / "summary.json", summary(result, timings, extra or {}))   # (sealed by `stage`)
    return stage(out, write, reads=reads)


def changed_outputs(folder: Path, doc: dict, names) -> list[str]:
    """Which of the files `names` of a run's folder differ from the SHA-256 its summary.json (`doc`) recorded
    when the run wrote them (none for a summary from before the digests were recorded)."""
    recorded = doc.get("outputs") if isinstance(doc.get("outputs"), dict) else {}
    return [n for n in names if n in recorded and (folder / n).is_file() and sha256_file(folder / n) != recorded[n]]


def write_outputs(out: str | Path, result: Result, timings: dict, diff: list | None = None,
                  extra: dict | None = None, record=None) -> Path:
    """Stage every output file, then move them into `out` (a failed run leaves no half-written file)."""
    staged = stage_outputs(out, result, timings, diff, extra, record)
    try:
        staged.publish()
    finally:
        staged.discard()
    return Path(out)
