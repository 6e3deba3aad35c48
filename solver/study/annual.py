"""The annual report on appointments, read from the register: per cadre and category, what a recruitment year's
rounds did (Bill 2004 s.14(1): "a report on the appointments made by direct recruitment and promotions";
Manipur Act 1976 s.13(1): "an annual report on appointments by the end of the month of July of the succeeding
financial year"; Bihar Act 1991 s.15(2)(c): the annual report "regarding number of persons recruited").

One register holds one recruitment, direct or promotion (Bihar s.6(2)), so a report of both is two registers'
reports: `report(...)` takes several. The year is the policy's recruitment year (Bill 2004 s.2(k), Bihar s.2(e):
the calendar year; Manipur s.2(b): the financial year).
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from ..policy import Policy
from ..data.routes import Route

ROUTES = [str(r) for r in Route]
COLUMNS = ["recruitment", "round", "post", "category", "vacancies", "exempt", "carried_in", "appointed",
           *[f"appointed_{r}" for r in ROUTES], "appointees_own_category", "exchanged", "dereserved",
           "carried_out", "lapsed"]
# The register's tally names -> the report's columns.
_TALLY = {"vacancies": "vacancies", "exempt": "exempt", "carried_in": "carried_in", "exchanged": "exchanged",
          "dereserved": "dereserved", "carried_out": "carried_out", "lapsed": "lapsed",
          "appointees": "appointees_own_category", **{f"appointed:{r}": f"appointed_{r}" for r in ROUTES}}
ALL_POSTS = "ALL"


@dataclass(frozen=True)
class AnnualReport:
    year: int
    period: str            # the recruitment year as the policy defines it, e.g. "2021-22 (financial year)"
    due: str               # when the Act wants it, or "" where it leaves that to the rules
    policy: str
    rows: tuple[dict, ...]  # COLUMNS per (recruitment, round, post, category), then ALL-post totals


def period(policy: Policy, year: int) -> tuple[str, str]:
    """(the recruitment year `year` as the policy defines it, the report's due date where the Act sets one).

    Example
    -------
    >>> from solver import load_policy
    >>> period(load_policy("manipur-1976"), 2021)[0]
    '2021-22 (financial year, 1 April 2021 to 31 March 2022)'
    >>> period(load_policy("manipur-1976"), 2021)[1][:12]
    '31 July 2022'
    >>> period(load_policy("bihar-1991"), 2021)[0]
    '2021 (calendar year)'
    """
    y = policy.year
    due = f"{y.report_due} {year + 1}" + (f" ({y.source})" if y.source else "") if y.report_due else ""
    if y.kind == "financial":
        return f"{year}-{(year + 1) % 100:02d} (financial year, 1 April {year} to 31 March {year + 1})", due
    return f"{year} (calendar year)", due


def report(policy: Policy, year: int, registers: list) -> AnnualReport:
    """The year's report from one register per recruitment (`solver.register.Register`s, read only).

    Raises InputError (exit 2) where a register does not hold the year."""
    rows: dict[tuple, dict] = {}
    for reg, kind in zip(registers, held(registers, year)):
        for round_, post, code, what, k in reg.tally(year):
            if what not in _TALLY:
                continue
            for at in (post, ALL_POSTS):
                row = rows.setdefault((kind, round_, at, code), _empty(kind, round_, at, code))
                row[_TALLY[what]] += k
    order = {code: k for k, code in enumerate(policy.seat_codes)}
    out = sorted(rows.values(), key=lambda r: (r["recruitment"], r["round"] != "main", r["post"] == ALL_POSTS,
                                               r["post"], order.get(r["category"].split()[0], len(order)),
                                               r["category"]))
    for r in out:
        r["appointed"] = sum(r[f"appointed_{x}"] for x in ROUTES)
    text, due = period(policy, year)
    return AnnualReport(year, text, due, policy.name, tuple(out))


def held(registers: list, year: int) -> list[str]:
    """The recruitment (direct or promotion) each register recorded `year` as; InputError where one did not."""
    from ..errors import InputError
    kinds = []
    for reg in registers:
        kinds.append(reg.recruitment(year))
        if kinds[-1] is None:
            raise InputError(reg.path, None, None, f"holds no year {year} (recorded: {reg.years() or 'none'})")
    if len(set(kinds)) != len(kinds):
        raise InputError(registers[-1].path, None, None, f"two registers hold {year} as {kinds[-1]} recruitment; "
                         "give one register per recruitment (direct, promotion)")
    return kinds


def _empty(kind: str, round_: str, post: str, code: str) -> dict:
    return {**dict.fromkeys(COLUMNS, 0), "recruitment": kind, "round": round_, "post": post, "category": code}


def write_report(folder: Path, rep: AnnualReport) -> None:
    """report.csv (COLUMNS) and report.html (the same tables, one per recruitment and round, readable
    without a network) into `folder`."""
    from ..io.staging import write_csv
    write_csv(folder / "report.csv", COLUMNS, ([r[c] for c in COLUMNS] for r in rep.rows))
    (folder / "report.html").write_text(_html(rep), encoding="utf-8")


def _html(rep: AnnualReport) -> str:
    e = html.escape
    shown = [c for c in COLUMNS[2:] if any(r[c] for r in rep.rows) or c in ("vacancies", "appointed")]
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8><title>Annual report on appointments {rep.year}"
             "</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:"
             "2em}td,th{border:1px solid #999;padding:.25em .6em;text-align:right}td:nth-child(-n+2),th"
             "{text-align:left}tr.total{font-weight:bold;background:#eee}</style>",
             f"<h1>Annual report on appointments</h1><p>{e(rep.policy)}<br>Recruitment year {e(rep.period)}"
             + (f"<br>Due: {e(rep.due)}" if rep.due else "") + "</p>"]
    groups: dict[tuple, list] = {}
    for r in rep.rows:
        groups.setdefault((r["recruitment"], r["round"]), []).append(r)
    for (kind, round_), rows in groups.items():
        title = ("Direct recruitment" if kind == "direct" else "Promotion") + \
            (" (special recruitment)" if round_ == "special" else "")
        parts.append(f"<h2>{e(title)}</h2><table><tr>" + "".join(f"<th>{e(c.replace('_', ' '))}</th>"
                                                                   for c in shown) + "</tr>")
        for r in rows:
            cls = " class=total" if r["post"] == ALL_POSTS else ""
            parts.append(f"<tr{cls}>" + "".join(f"<td>{e(str(r[c]))}</td>" for c in shown) + "</tr>")
        parts.append("</table>")
    parts.append("</html>\n")
    return "".join(parts)
