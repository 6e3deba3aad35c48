"""`report.html`: one self-contained page of charts (plotly, its script inlined once, so the page opens with no
network) for `solve --report`, `compare` and `sweep`.

Charts are built from the same rows the CSV outputs hold, so a chart never says what the files do not. Div ids
are numbered, not random, so the same input gives the same bytes.
"""
from __future__ import annotations

import html
from pathlib import Path

from ..errors import OptionError


def _plotly():
    try:
        import plotly.graph_objects as go
        import plotly.offline
    except ImportError:
        raise OptionError("report", "the report needs plotly: pip install 'aarakshan[report]'") from None
    return go, plotly.offline


class Tabular:
    """A table on the page (the figures beside a chart, or in place of one)."""

    def __init__(self, columns: list[str], rows: list[list]):
        self.columns, self.rows = columns, rows

    def html(self) -> str:
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(f"<td>{html.escape('' if v is None else str(v))}</td>" for v in row) + "</tr>"
                       for row in self.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def available() -> bool:
    """Whether plotly is installed (an optional extra: compare and sweep then write report.html)."""
    import importlib.util
    return importlib.util.find_spec("plotly") is not None


def page(path: Path, title: str, subtitle: str, charts: list) -> None:
    """Write `charts` ((heading, figure) pairs) as one HTML page."""
    go, offline = _plotly()
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}</title>",
             "<style>body{font-family:sans-serif;margin:2em;max-width:1100px}h2{margin-top:2em}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
             "th{background:#f3f3f3}td:first-child,td:nth-child(2){text-align:left}</style>",
             f"<script>{offline.get_plotlyjs()}</script>",
             f"<h1>{html.escape(title)}</h1><p>{html.escape(subtitle)}</p>"]
    for k, (heading, fig) in enumerate(charts):
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        if isinstance(fig, str):           # a sentence instead of an empty chart
            parts.append(f"<p>{html.escape(fig)}</p>")
            continue
        if isinstance(fig, Tabular):
            parts.append(fig.html())
            continue
        fig.update_layout(template="plotly_white", height=420, margin=dict(t=30, l=60, r=20, b=60))
        parts.append(fig.to_html(full_html=False, include_plotlyjs=False, div_id=f"chart{k}",
                                 config={"displaylogo": False, "responsive": True}))
    if not charts:
        parts.append("<p>Nothing to chart.</p>")
    parts.append("</html>\n")
    path.write_text("".join(parts), encoding="utf-8")


def _bars(groups: dict[str, dict[str, float]], x_title: str, y_title: str, stacked: bool = False,
          labels: bool = False):
    """One bar series per group, over the same categories (x); `labels`: each bar's value on it."""
    go, _ = _plotly()
    fig = go.Figure()
    for name, values in groups.items():
        fig.add_bar(name=name, x=list(values), y=list(values.values()),
                    **({"text": [f"{v:g}" for v in values.values()], "textposition": "outside"} if labels else {}))
    fig.update_layout(barmode="stack" if stacked else "group", xaxis_title=x_title, yaxis_title=y_title)
    return fig


def solve_charts(result) -> list:
    """Cutoffs by category and post, selections by own category, fill and the dispositions of unfilled
    vacancies, horizontal minimums met."""
    from ..outcome.unfilled import fill_by_post
    policy = result.policy
    codes = policy.seat_codes
    cut: dict[str, dict[str, float]] = {}
    for post, code, _, rank, _ in result.cutoffs():
        if rank != "":
            cut.setdefault(post, {})[code] = rank
    own: dict[str, float] = {code: 0 for code in policy.member_codes}
    for (_, code), k in result.selected_by_own_category().items():
        own[code] = own.get(code, 0) + k
    fill: dict[str, dict[str, float]] = {"filled": dict.fromkeys(codes, 0)}
    for (_, code), (_, filled, left) in fill_by_post(result.dispositions).items():
        fill["filled"][code] = fill["filled"].get(code, 0) + filled
        for d, k in left.items():
            fill.setdefault(f"unfilled: {d}", dict.fromkeys(codes, 0))[code] += k
    charts = [("Last rank admitted, by post and seat category", _bars(cut, "seat category", "last rank admitted")),
              ("Selections by the candidates' own category (open merit included)",
               _bars({"selected": own}, "own category", "candidates selected")),
              ("Vacancies filled and unfilled, by seat category", _bars(fill, "seat category", "vacancies", True))]
    rows = result.horizontal_report()
    if rows:
        met = {"served": {f"{r['post']} {r['category']} {r['trait']}": r["minimum"] - r["short"] for r in rows},
               "short": {f"{r['post']} {r['category']} {r['trait']}": r["short"] for r in rows}}
        charts.append(("Horizontal minimums met", _bars(met, "compartment and trait", "seats", True)))
    return charts


def sweep_charts(out, baseline: str | None = None, stacked: bool = False) -> list:
    """Per scenario: against the baseline (selections by own category, as a difference with its figures, and the
    winners and losers), each stacked override's contribution, then the levels: selections by own category, the
    last rank admitted, unfilled vacancies, and the backlog over the years. Sums cover only the years every
    scenario ran (the title says which), and a refused scenario is marked where it is missing."""
    status = dict(out.status)
    rows = [r for r in out.rows if r["status"] == "solved"]     # (a refused scenario's rows have no figures)
    solved = [n for n, st in status.items() if st == "solved" or any(r["scenario"] == n for r in rows)]
    common = set.intersection(*[{r["year"] for r in rows if r["scenario"] == n} for n in solved]) if solved else set()
    multi = any(r["year"] is not None for r in rows)
    span = f" ({', '.join(map(str, sorted(common)))}: the years every scenario ran)" if multi else ""
    line = _along_parameter(out, rows, common, span)
    charts = _against_baseline(out, baseline, stacked, multi, line) if baseline is not None else \
        ([line] if line is not None else [])
    mark = {n: n if st == "solved" else f"{n} [{st.split(':')[0]}]" for n, st in status.items()}
    return _opening(out, baseline, stacked) + charts + _levels(rows, mark, common, span, multi)


def _opening(out, baseline: str | None, stacked: bool) -> list:
    """report.html's first sections: the headline against the baseline, and each scenario's settings."""
    return ([("Headline", _headline(out, baseline))] if baseline is not None and not stacked else []) + \
        [("The scenarios", Tabular(["scenario", "settings", "status", "notes"],
                                   [[sc.name, "; ".join(sc.overrides) or "the policy as given", st, "; ".join(notes)]
                                    for sc, st, notes in zip(out.scenarios, out.status.values(), _notes(out))]))]


def _notes(out) -> list[tuple[str, ...]]:
    from .sweep_tables import scenario_notes
    return scenario_notes(out)


def _headline(out, baseline: str) -> str:
    """Per scenario and category, the change in selections by own category against the baseline over the
    period both ran (a flow: summed over the years), in one sentence each."""
    from .sweep_tables import against_baseline
    parts: dict[str, list[str]] = {}
    years: dict[str, str] = {}
    for r in against_baseline(out, baseline):
        if r[2] != "selected":
            continue
        years[r[0]] = r[7]
        pct = "" if r[6] is None else f" ({r[6]:+.1f}%)"
        parts.setdefault(r[0], []).append(f"{r[1]} {r[5]:+d}{pct}")
    if not parts:
        return f"No scenario other than {baseline} was solved."
    return " ".join(f"{name} against {baseline}{' over ' + years[name] if years[name] else ''}: "
                    f"{', '.join(p)} selected." for name, p in parts.items())


def _against_baseline(out, baseline: str, stacked: bool, multi: bool, line) -> list:
    """The change against the baseline (or, stacked, each step's contribution): a chart of selections by own
    category with its values, the table of its figures, the line along a numeric parameter, the winners and
    losers of the first five scenarios."""
    from .sweep_tables import against_baseline, contributions
    charts: list = []
    diff = [r for r in (contributions(out) if stacked else against_baseline(out, baseline))
            if r[3 if stacked else 2] == "selected"]
    if not diff:
        charts.append(("Against the baseline", f"No scenario other than {baseline} was solved."))
    else:
        from .sweep_tables import scenario_notes
        charts += _difference_charts(diff, baseline, stacked, multi,
                                     tuple(n for told in scenario_notes(out) for n in told))
    if line is not None:
        charts.append(line)
    for name, table in out.winners[:5]:
        charts.append((f"Winners and losers, {baseline} to {name}", winners_table(list(table)) if table else
                       "Nobody fares otherwise."))
    return charts


def _difference_charts(diff: list, baseline: str, stacked: bool, multi: bool, notes: tuple = ()) -> list:
    """The chart of selections by own category against the baseline (or each step's contribution) and the
    table of its figures."""
    groups = _difference_groups(diff, stacked)
    what = "each override's contribution" if stacked else \
        f"the difference from {baseline}{' (over the years both ran: the table names them)' if multi else ''}"
    title = f"Selections by own category: {what}"
    if all(v == 0 for g in groups.values() for v in g.values()):
        charts = [(title, f"No scenario changes the selections of any category against {baseline}." + _why(notes))]
    else:
        charts = [(title, _bars(groups, "own category", "change in candidates selected", labels=True))]
    table = [[r[0], *r[2:3], *r[4:-1]] if stacked else [r[0], r[1], *r[3:-1]] for r in diff]   # (selections: a sum)
    heads = ["step" if stacked else "scenario", "own category", "before" if stacked else baseline,
             "after" if stacked else "scenario", "difference", "percent", "years"]
    if all(row[-1] == "" for row in table):     # (one recruitment: no years to name)
        heads, table = heads[:-1], [row[:-1] for row in table]
    return charts + [("The figures of that chart", Tabular(heads, table))]


def _difference_groups(diff: list, stacked: bool) -> dict[str, dict[str, float]]:
    """Per scenario (or step) the change by own category; a scenario compared over fewer years than another
    (refused in a later year) is named with its years."""
    groups: dict[str, dict[str, float]] = {}
    spans = {r[0]: r[-2] for r in diff}
    for r in diff:
        name = r[0] if len(set(spans.values())) <= 1 else f"{r[0]} [{spans[r[0]] or 'one recruitment'}]"
        groups.setdefault(name, {})[r[2] if stacked else r[1]] = r[6] if stacked else r[5]
    return groups


def _why(notes) -> str:
    """Why nothing changed: the overrides that could not, or did not bind (scenarios.csv's notes)."""
    why = "; ".join(dict.fromkeys(n for n in notes if "no-op" in n or "does not bind" in n))
    return f" Why: {why}." if why else " (scenarios.csv's notes say what each override did.)"


def _levels(rows: list[dict], mark: dict, common: set, span: str, multi: bool) -> list:
    """Each scenario's levels: selections by own category and unfilled vacancies over the years every scenario
    ran, the last rank admitted, and the backlog over the years."""
    def by(value, key=lambda r: r["category"], agg=sum, years=common):
        got: dict[str, dict[str, list]] = {}
        for r in rows:
            if r["year"] in years:
                got.setdefault(mark[r["scenario"]], {}).setdefault(key(r), []).append(value(r))
        return {s: {k: agg(v) for k, v in d.items()} for s, d in got.items()}
    every = {r["year"] for r in rows}
    # unfilled vacancies are a stock: those left at the end of the last year every scenario ran, never a sum
    end = {max(common)} if multi and common else common
    unfilled = by(lambda r: sum(v for k, v in r.items() if k.startswith("unfilled_")), years=end)
    charts = [(f"Selections by the candidates' own category, per scenario{span}",
               _bars(by(lambda r: r["selected_own_category"]), "own category", "candidates selected", labels=True)),
              (f"Last rank admitted (worst over posts and years), per scenario{span}",
               _bars(by(lambda r: r["last_rank"] or 0, agg=max), "seat category", "rank")),
              (f"Unfilled vacancies at the end of {max(common)}, per scenario (the last year every scenario ran)"
               if multi and common else "Unfilled vacancies, per scenario",
               _bars(unfilled, "seat category", "vacancies", labels=True)
               if any(v for d in unfilled.values() for v in d.values()) else
               "No vacancy was left unfilled in any scenario.")]
    if multi:
        go, _ = _plotly()
        fig = go.Figure()
        for s, d in by(lambda r: r["carried_out"], key=lambda r: r["year"], years=every).items():
            fig.add_scatter(name=s, x=sorted(d), y=[d[y] for y in sorted(d)], mode="lines+markers")
        fig.update_layout(xaxis_title="year", yaxis_title="vacancies and reservations carried out")
        charts.append(("Backlog carried out, over the years (a refused scenario's line stops where it was refused)",
                       fig))
    return charts


def _along_parameter(out, rows: list[dict], years: set, span: str):
    """Where the scenarios vary one numeric parameter (a grid over a share), selections by own category as lines
    along it: how much each category gains or loses as the parameter moves. None otherwise."""
    from .sweep_tables import parameters
    params = parameters(list(out.scenarios))
    varying = [k for k, v in params.items() if len(set(v.values())) > 1]
    if len(varying) != 1 or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                    for x in params[varying[0]].values()):
        return None
    key = varying[0]
    at = params[key]
    totals: dict[str, dict[float, int]] = {}
    for r in rows:
        if r["year"] in years and r["scenario"] in at:
            line = totals.setdefault(r["category"], {})
            line[at[r["scenario"]]] = line.get(at[r["scenario"]], 0) + r["selected_own_category"]
    go, _ = _plotly()
    fig = go.Figure()
    for code, points in totals.items():
        xs = sorted(points)
        fig.add_scatter(name=code, x=xs, y=[points[x] for x in xs], mode="lines+markers+text",
                        text=[str(points[x]) for x in xs], textposition="top center")
    fig.update_layout(xaxis_title=key, yaxis_title="candidates selected")
    return (f"Selections by own category along {key}{span}", fig)


def winners_table(rows: list[dict]) -> "Tabular":
    """Winners and losers by own category x horizontal trait (`solver.study.winners.tally`)."""
    from .winners import KINDS
    kinds = [k for k in KINDS if any(r[k] for r in rows)]
    return Tabular(["own category", "traits", *kinds, "net posts"],
                   [[r["category"], r["traits"], *(r[k] for k in kinds), r["net"]] for r in rows])


def compare_charts(doc: dict) -> list:
    """A against B: winners and losers by group, selections by own category (where the candidates' categories
    are known), and the last rank admitted and the vacancies filled, per post and category that changed."""
    charts = []
    if doc.get("winners_losers") is not None:
        charts.append(("Winners and losers, by own category and horizontal trait (A to B)",
                       winners_table(doc["winners_losers"]) if doc["winners_losers"] else
                       "Nobody fares otherwise in B."))
    own = doc.get("selected_by_own_category") or {}
    if own:
        groups = {side.upper(): {code: v[side] for code, v in own.items()} for side in ("a", "b")}
        charts.append(("Selections by the candidates' own category, A and B", _bars(groups, "own category",
                                                                                  "selected", labels=True)))
    rows = doc.get("posts", [])
    for what, title in (("last_rank", "Last rank admitted"), ("filled", "Vacancies filled")):
        groups = {side: {f"{r['post']} {r['category']}": float(r[what][k]) for r in rows if r[what][k] != ""}
                  for k, side in enumerate(("A", "B"))}
        charts.append((f"{title}, where the post and category changed",
                       _bars(groups, "post and category", what, labels=True) if any(groups.values()) else
                       "No post and category changed between A and B."))
    return charts


def provenance_table(doc: dict) -> list:
    """report.html's closing table: the version, the policy and each input file's SHA-256."""
    prov = doc["provenance"]
    rows = [["aarakshan", prov["aarakshan"], ""], ["policy", prov["lineage"].get("model", ""), prov["policy_sha256"]]]
    rows += [[role, v["path"], v["sha256"]] for role, v in prov["inputs"].items()]
    return [("Provenance: the version, the policy and the inputs (summary.json holds them whole)",
             Tabular(["what", "name", "SHA-256"], rows))]
