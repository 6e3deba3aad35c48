"""A sweep's tables: one row per (scenario, year, post, category), a column per scenario parameter (typed: an
analyst filters `categories.OBC.share >= 0.25` without parsing scenario names), refused scenarios kept with
their status, and the changes against a baseline.

The cut-off columns are named as in `solve`'s cutoffs.csv (`last_rank`, `last_score`).
"""
from __future__ import annotations

from pathlib import Path

DISPOSITIONS = ["exchanged", "dereserved", "carried_forward", "backlog", "held_vacant", "lapsed", "next_round"]
COUNTS = ["vacancies", "filled", *[f"unfilled_{d}" for d in DISPOSITIONS], "carried_in", "carried_out"]
COLUMNS = ["scenario", "year", "post", "category", "status", *COUNTS, "last_rank", "last_score",
           "selected_own_category"]
VALUES = [*COUNTS, "last_rank", "last_score", "selected_own_category"]     # what changes.csv compares
CHANGE_COLUMNS = ["scenario", "year", "post", "category", "column", "baseline", "value", "change"]
SOLVED = "solved"


def rows_of(name: str, year, result, rec) -> list[dict]:
    """The rows of one solved (scenario, year): per post and category, in the policy's order."""
    from ..outcome.unfilled import fill_by_post
    policy = result.policy
    cut = {(p, code): (rank, score) for p, code, _, rank, score in result.cutoffs()}
    own = result.selected_by_own_category()
    fill = fill_by_post(result.dispositions)
    codes = set(policy.seat_codes)
    keys = list(dict.fromkeys([*fill, *own, *(k for k, v in rec.by_post.items() if k[1] in codes and
                                               (v.get("carried_in") or v.get("carried_out")))]))
    out = []
    for post, code in keys:
        vac, filled, left = fill.get((post, code), (0, 0, {}))
        tally = rec.by_post.get((post, code), {})
        rank, score = cut.get((post, code), (None, None))
        out.append({"scenario": name, "year": year, "post": post, "category": code, "status": SOLVED,
                    "vacancies": vac, "filled": filled,
                    **{f"unfilled_{d}": left.get(d, 0) for d in DISPOSITIONS},
                    "carried_in": tally.get("carried_in", 0), "carried_out": tally.get("carried_out", 0),
                    "last_rank": None if rank in (None, "") else int(rank),
                    "last_score": None if score in (None, "") else float(score),
                    "selected_own_category": own.get((post, code), 0)})
    order = {code: k for k, code in enumerate(policy.seat_codes)}
    posts = result.problem.post_index
    return sorted(out, key=lambda r: (posts.get(r["post"], len(posts)), order.get(r["category"], len(order))))


def refused_rows(name: str, years: list, status: str) -> list[dict]:
    """A row per year a refused scenario did not run: its status and reason, no figures (never zeros, which
    would read as an outcome)."""
    return [{"scenario": name, "year": year, "post": None, "category": None, "status": status,
             **{c: None for c in VALUES}} for year in years]


def parameters(scenarios) -> dict[str, dict[str, object]]:
    """key -> {scenario name -> value}, each key's values typed alike: integers where every value is one,
    numbers where every value is one, true/false, else text (a TOML list, a name)."""
    raw: dict[str, dict[str, str]] = {}
    for sc in scenarios:
        for given in sc.overrides:
            key, _, value = given.partition("=")
            raw.setdefault(key.strip(), {})[sc.name] = value.strip()
    return {key: _typed(values) for key, values in raw.items()}


def _typed(values: dict[str, str]) -> dict[str, object]:
    """Each value read as `--set` reads it (TOML), then one type for the key: integers, numbers, true/false,
    else the text as given."""
    from ..policy.load import _parse_value
    read = {k: _parse_value(v) for k, v in values.items()}
    kinds = {type(v) for v in read.values()}
    if kinds == {int}:
        return read
    if kinds <= {int, float}:
        return {k: float(v) for k, v in read.items()}
    if kinds == {bool}:
        return read
    return {k: v if isinstance(v, str) else values[k] for k, v in read.items()}


def changes(rows, baseline: str) -> list[list]:
    """Against the baseline scenario, each (scenario, year, post, category) value that differs (refused rows
    are left out: they have no values)."""
    from ..errors import OptionError
    base = {(r["year"], r["post"], r["category"]): r for r in rows
            if r["scenario"] == baseline and r["status"] == SOLVED}
    if not base:
        raise OptionError("baseline", f"the baseline {baseline!r} has no rows (refused, or not a "
                          "scenario: see scenarios.csv)")
    out = []
    for r in rows:
        if r["scenario"] == baseline or r["status"] != SOLVED:
            continue
        b = base.get((r["year"], r["post"], r["category"]), {})
        for col in VALUES:
            x, y = b.get(col), r[col]
            x = 0 if x is None and col in COUNTS else x
            if x != y:
                delta = round(y - x, 6) if isinstance(x, (int, float)) and isinstance(y, (int, float)) else None
                out.append([r["scenario"], r["year"], r["post"], r["category"], col, x, y, delta])
    return out


def scenario_notes(out) -> list[tuple[str, ...]]:
    """Each scenario's notes: the overrides that changed nothing, and "same outcome as X" where its rows equal
    those of an earlier scenario (every value of every post, category and year)."""
    rows: dict[str, list] = {}
    for r in out.rows:
        rows.setdefault(r["scenario"], []).append(tuple(v for k, v in r.items() if k != "scenario"))
    first: dict[tuple, str] = {}
    told = []
    for sc, notes in zip(out.scenarios, out.notes or [()] * len(out.scenarios)):
        status, same = out.status[sc.name], ()
        if status == SOLVED:
            key = tuple(rows.get(sc.name, ()))
            same = (f"same outcome as {first[key]}",) if key in first else ()
            first.setdefault(key, sc.name)
        told.append(tuple(notes) + same)
    return told


def write(folder: Path, out, baseline: str | None, stacked: bool = False) -> None:
    """scenarios.csv (each scenario's overrides, parameters, status and notes), results.csv, results.parquet
    (typed columns, nulls where a refused scenario has no figures) and, with a baseline, changes.csv,
    against_baseline.csv and winners.csv; stacked, contributions.csv."""
    import pyarrow.parquet as pq

    from ..io.staging import write_csv
    scenarios = list(out.scenarios)
    params = parameters(scenarios)
    keys = [k for k in params if k not in COLUMNS]
    write_csv(folder / "scenarios.csv", ["scenario", "overrides", *keys, "status", "notes"],
              ([sc.name, "; ".join(sc.overrides), *(_cell(params[k].get(sc.name)) for k in keys), out.status[sc.name],
                " | ".join(notes)] for sc, notes in zip(out.scenarios, scenario_notes(out))))
    columns = ["scenario", *keys, *COLUMNS[1:]]
    rows = [{**r, **{k: params[k].get(r["scenario"]) for k in keys}} for r in out.rows]
    write_csv(folder / "results.csv", columns, ([_cell(r[c]) for c in columns] for r in rows))
    pq.write_table(_results_table(rows, columns, keys), folder / "results.parquet", compression="zstd")
    if baseline is not None:
        _write_against(folder, out, baseline)
    if stacked:
        write_csv(folder / "contributions.csv", CONTRIBUTION_COLUMNS,
                  ([_cell(x) for x in row] for row in contributions(out)))


def _results_table(rows: list[dict], columns: list[str], keys: list[str]):
    """results.csv's rows as an Arrow table: years and counts integers, scores floats, parameters as typed,
    the rest text (nulls where a refused scenario has no figures)."""
    import pyarrow as pa
    types = {"year": pa.int64(), "last_score": pa.float64(), **{c: pa.int64() for c in VALUES if c != "last_score"}}
    return pa.table({c: pa.array([r[c] for r in rows], types.get(c)) if c in types or c in keys else
                     pa.array([r[c] for r in rows], pa.string()) for c in columns})


def _write_against(folder: Path, out, baseline: str) -> None:
    """changes.csv, against_baseline.csv and winners.csv."""
    from ..io.staging import write_csv
    from .winners import KINDS
    write_csv(folder / "changes.csv", CHANGE_COLUMNS, ([_cell(x) for x in row] for row in changes(out.rows, baseline)))
    write_csv(folder / "against_baseline.csv", BASELINE_COLUMNS,
              ([_cell(x) for x in row] for row in against_baseline(out, baseline)))
    write_csv(folder / "winners.csv", [*WINNER_COLUMNS, *KINDS, "net"], winner_rows(out))


def _cell(value) -> object:
    """A CSV cell: empty for none, true/false for booleans (as the inputs write them)."""
    from ..outcome.cutoffs import number_text
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return number_text(value) if isinstance(value, float) else value


MEASURES = {"selected": "selected_own_category", "filled": "filled", "unfilled": None, "carried out": "carried_out"}
# Flows (appointments, each made once) are summed over the years; stocks (the vacancies left empty, the backlog
# carried out) are what stands at the end of the last year: a backlog carried through five years is one
# backlog, not five.
STOCKS = {"unfilled", "carried out"}
BASELINE_COLUMNS = ["scenario", "category", "measure", "baseline", "value", "difference", "percent", "years",
                    "over"]
CONTRIBUTION_COLUMNS = ["step", "added", "category", "measure", "before", "after", "contribution", "percent",
                        "years", "over"]
WINNER_COLUMNS = ["scenario", "category", "traits"]


def _totals(rows, name: str, years: set) -> dict[tuple[str, str], int]:
    """(category, measure) -> over the posts of one scenario, a flow's sum over `years`, a stock's value in the
    last of them (`STOCKS`)."""
    last = max(years, key=lambda y: -1 if y is None else y) if years else None
    out: dict[tuple[str, str], int] = {}
    for r in rows:
        if r["scenario"] != name or r["status"] != SOLVED or r["year"] not in years:
            continue
        for measure, col in MEASURES.items():
            if measure in STOCKS and r["year"] != last:
                continue
            value = sum(r[f"unfilled_{d}"] for d in DISPOSITIONS) if col is None else r[col]
            out[(r["category"], measure)] = out.get((r["category"], measure), 0) + value
    return out


def _over(measure: str, years: set) -> str:
    """against_baseline.csv's `over`: how a measure is taken over the years."""
    if years == {None}:
        return "the recruitment"
    if measure in STOCKS:
        return f"at the end of {max(years)}"
    return "sum over the years"


def _years(rows, name: str) -> set:
    return {r["year"] for r in rows if r["scenario"] == name and r["status"] == SOLVED}


def _label(years: set) -> str:
    return "" if years == {None} else " ".join(str(y) for y in sorted(years))


def against(rows, baseline: str, name: str) -> list[list]:
    """Scenario `name` against `baseline` by category: selections (by own category) and filled, summed over the
    years both ran; unfilled and carried out as they stand at the end of the last of them (stocks, never summed);
    each as both levels, the difference and the percentage, over the years both ran only (never unequal
    years), the `over` column saying which."""
    years = _years(rows, baseline) & _years(rows, name)
    base, mine = _totals(rows, baseline, years), _totals(rows, name, years)
    out = []
    for key in dict.fromkeys([*base, *mine]):
        x, y = base.get(key, 0), mine.get(key, 0)
        out.append([name, *key, x, y, y - x, round(100 * (y - x) / x, 1) if x else None, _label(years),
                    _over(key[1], years)])
    return out


def against_baseline(out, baseline: str) -> list[list]:
    """`against` for every scenario other than the baseline over the years it ran (against_baseline.csv's rows;
    a scenario refused in a later year is compared over its earlier years, which the `years` column names)."""
    return [row for sc in out.scenarios if sc.name != baseline and _years(out.rows, sc.name)
            for row in against(out.rows, baseline, sc.name)]


def contributions(out) -> list[list]:
    """Stacked scenarios: each step against the one before it, by category (contributions.csv's rows): the
    contribution of the override the step adds. A step after a refused one is not told (its difference would
    be two overrides')."""
    steps = [(sc, out.status[sc.name]) for sc in out.scenarios]
    rows = []
    for (prev, ps), (cur, cs) in zip(steps, steps[1:]):
        if ps != SOLVED or cs != SOLVED:
            continue
        for row in against(out.rows, prev.name, cur.name):
            rows.append([cur.name, cur.overrides[-1], *row[1:]])
    return rows


def winner_rows(out) -> list[list]:
    """winners.csv's rows: per scenario and group, each kind's count and the net (`solver.study.winners.tally`)."""
    from .winners import KINDS
    return [[name, r["category"], r["traits"], *(r[k] for k in KINDS), r["net"]]
            for name, table in out.winners for r in table]


def study_summary(policy, overrides: list[str], engine: str, scenarios, inputs, out, baseline: str | None) -> dict:
    """A sweep's summary.json: what made it (the policy as resolved, the package's version, every input file's
    SHA-256, as `solve` records them), each scenario's settings and status, the baseline and the years."""
    from ..outcome.reports import provenance
    sources = {}
    for i in inputs:
        prefix = "" if i.year is None else f"{i.year}/"
        for role in ("candidates", "vacancies", "preferences"):
            if getattr(i, role) is not None:
                sources[prefix + role] = str(getattr(i, role))
    status = dict(out.status)
    return {"study": "sweep", "engine": engine, "baseline": baseline,
            "years": [i.year for i in inputs if i.year is not None],
            "scenarios": [{"name": sc.name, "settings": list(sc.overrides), "status": status[sc.name]}
                          for sc in scenarios],
            "provenance": provenance(policy, overrides, engine, sources)}

