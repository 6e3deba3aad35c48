"""Vacancies left after service allocation, filled from the reserve list (UPSC CSE Rule 16(5); Rule 20(5) as
amended 14 November 2025; `Policy.reserve_list`).

A recommended candidate who declined, had too few preferences, held an invalid reservation claim or had his
candidature cancelled leaves his vacancy (its post, seat category and the trait it served). The vacancies are
filled in two rounds, each an allocation under the year's own rules (open first, then each category; Rule 16(2)
upgrades where the policy has them, Union of India v. Ramesh Ram 2010; a vacancy that served a trait keeps its
minimum), solved by the engine asked for:
1. from the reserve list, every vacancy whatever its reason;
2. from the Extended List (and the reserve list's candidates still without a post), only the vacancies round 1
   left whose reason is among `reserve_list.extended_reasons` ("no further requisition" for any other).
In each round a vacancy is filled from the list's part of its category (`reserve_list.fill = "by_part"`, the
default: a general vacancy from the general part, where the meritorious reserved candidates stand, since that
part is sized by them; an OBC vacancy from the OBC part), a vacancy that served a trait also from the trait's
part; `"open_first"` reads the list as one pool, open first.
Where round 1 fills some of a post's and category's vacancies, those it fills are taken to be the ones the
Extended List may not fill (so that it leaves the most the Extended List may take). The 50% ceiling is not
applied again: a fill changes no vacancy's category.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..data.kinds import Engine
from ..errors import OptionError
from ..policy import Policy
from .later import later_round, round_policy
from ..data.problem import Problem
from ..outcome.cutoffs import allocation_cutoffs
from ..outcome.unfilled import category_rows

# SPEC's five columns first (candidate_id: who fills the vacancy), then who vacated it and how it is held.
FILLED_COLUMNS = ["post", "category", "candidate_id", "reason", "list", "horizontal", "vacated_by", "counted_as",
                  "route"]


@dataclass(frozen=True)
class Vacated:
    """A vacancy a recommended candidate left: his allocation.csv row and the reason."""

    post: str
    seat: str
    horizontal: str        # the first trait the seat served, or ''
    reason: str
    by: str                # the candidate who left it
    merit: int             # his merit position (orders the report)


@dataclass(frozen=True)
class Filled:
    rows: list[list]             # allocation.csv rows of the new appointments (rank: merit in the whole list)
    report: list[list]           # filled_from_reserve.csv rows, one per vacancy vacated
    unfilled: list[list]         # unfilled.csv rows: the vacancies neither list could fill
    rounds: dict                 # per round: candidates, vacancies, filled, engine status

    @property
    def filled(self) -> int:
        """How many vacated vacancies found a candidate."""
        return sum(1 for r in self.report if r[FILLED_COLUMNS.index("candidate_id")])

    @property
    def held_vacant(self) -> int:
        """How many vacated vacancies are kept for a held horizontal minimum (none on the lists could serve it)."""
        return sum(r[4] for r in self.unfilled if r[5] == "held_vacant")

    @property
    def from_extended(self) -> int:
        """How many of them from the Extended List."""
        return sum(1 for r in self.report if r[FILLED_COLUMNS.index("list")] == "extended")


def vacated(problem: Problem, allocation: list[dict], declined: dict[str, str]) -> list[Vacated]:
    """The vacancies the declined candidates leave (`allocation`: allocation.csv's rows as dicts)."""
    merit = {cid: i for i, cid in enumerate(problem.candidates.ids)}
    out = [Vacated(r["post"], r["seat_category"], (r.get("horizontal") or "").split(";")[0], declined[r["candidate_id"]],
                   r["candidate_id"], merit[r["candidate_id"]]) for r in allocation if r["candidate_id"] in declined]
    return sorted(out, key=lambda v: (v.post, v.seat, v.merit))


def fill(policy: Policy, problem: Problem, allocation: list[dict], reserve: dict[str, str],
         declined: dict[str, str], engine: Engine | str = Engine.GREEDY, time_limit: float | None = None,
         workers: int = 1, parts: dict[str, str] | None = None) -> Filled:
    """Fill the vacancies `declined` leaves (see the module's text).

    Parameters
    ----------
    policy, problem : the recruitment's own (its candidates in merit order, its vacancies and preferences).
    allocation : its allocation.csv, as dicts.
    reserve : its reserve_list.csv: candidate id -> "reserve" or "extended".
    declined : candidate id -> reason (one of `solver.policy.stages.REASONS`); each must hold a vacancy.
    parts : candidate id -> the part of the list he is in (reserve_list.csv's `category`), which
        `reserve_list.fill = "by_part"` (the default) fills by.

    Returns
    -------
    Filled: the new appointments, a row per vacancy vacated saying who filled it from which list, the vacancies
    left, and each round's figures.
    """
    rule, held = policy.reserve_list, set(policy.horizontal.held)
    single = round_policy(policy)
    left = vacated(problem, allocation, declined)
    index = {cid: i for i, cid in enumerate(problem.candidates.ids)}
    first = sorted(index[x] for x, kind in reserve.items() if kind == "reserve")
    second = sorted(index[x] for x, kind in reserve.items() if kind == "extended")
    rows, placed, rounds = [], {}, {}
    # Round 1 fills any vacancy, those the Extended List may not take first; round 2 only what it may.
    left.sort(key=lambda v: (v.reason in rule.extended_reasons, v.post, v.seat, v.merit))
    todo, barred = left, []
    for name in ("reserve", "extended"):
        pool = first
        if name == "extended":
            barred = [v for v in todo if v.reason not in rule.extended_reasons]   # left, whatever round 2 does
            todo = [v for v in todo if v.reason in rule.extended_reasons]
            pool = sorted(set(second) | {i for i in first if problem.candidates.ids[i] not in placed})
        if not todo or not pool:
            rounds[name] = {"candidates": len(pool), "vacancies": len(todo), "filled": 0}
            continue
        got, status, differences = _round(single, problem, todo, pool, parts, placed, engine, time_limit, workers)
        rounds[name] = {"candidates": len(pool), "vacancies": len(todo), "filled": len(got),
                        "status": ", ".join(sorted(set(status))) or "nothing to solve",
                        **({"engine_differences": differences} if str(engine) == "both" else {})}
        for row in got:
            rows.append(row)
            placed[row[0]] = row
        todo = _left(todo, got, held)
    return Filled(sorted(rows, key=lambda r: r[-1]), _report(left, rows, reserve, held),
                  _unfilled(left, barred + todo, held), rounds)


def _left(todo: list[Vacated], got: list[list], held: set[str]) -> list[Vacated]:
    """The vacancies a round left: of each post's and category's, those it filled are taken from the front
    (those round 2 may not take are sorted first), a trait's beneficiary on a vacancy that served it, and no
    one else on one that served a held trait (`horizontal.held`: it is kept for its beneficiaries)."""
    rest = list(todo)
    for row in got:
        at = [k for k, v in enumerate(rest) if (v.post, v.seat) == (row[1], row[2])]
        mine = [k for k in at if rest[k].horizontal and rest[k].horizontal in row[4].split(";")]
        plain = [k for k in at if rest[k].horizontal not in held]
        rest.pop((mine or plain or at)[0])
    return rest


def _round(policy: Policy, problem: Problem, todo: list[Vacated], pool: list[int], parts, placed: dict, engine,
           time_limit, workers) -> tuple[list[list], list[str], int]:
    """One round: part by part (`_by_part`), the vacancies against those on the list not yet placed. Returns
    the allocation.csv rows, each part's engine status, and the engines' differences."""
    got, status, differences = [], [], 0
    for vs, who in _by_part(policy, problem, todo, pool, parts):
        taken = placed.keys() | {r[0] for r in got}
        who = [i for i in who if problem.candidates.ids[i] not in taken]
        if not who:
            continue
        part = later_round(policy, problem, np.array(who, dtype=np.int64), *_seats(vs), engine, time_limit,
                           workers)
        got += part[0]
        status.append(part[1])
        differences += part[2]
    return got, status, differences


def _by_part(policy: Policy, problem: Problem, todo: list[Vacated], pool: list[int], parts: dict[str, str] | None):
    """The round's vacancies and candidates, each vacancy with those who may fill it. `by_part`: a vacancy of a
    category from the list's part of that category (a general vacancy from the general part, where meritorious
    reserved candidates stand), and a vacancy that served a trait also from the trait's part, its minimum kept;
    `open_first`: every vacancy from everyone, open first."""
    if policy.reserve_list.fill == "open_first":
        yield todo, pool
        return
    if parts is None:
        raise OptionError("parts", "reserve_list.fill = \"by_part\" fills each vacancy from the list's part of its "
                          "category: give each candidate's part (reserve_list.csv's category column)")
    ids = problem.candidates.ids
    for code in policy.seat_codes:
        vs = [v for v in todo if v.seat == code]
        served = {v.horizontal for v in vs if v.horizontal}
        who = [i for i in pool if parts.get(ids[i]) == code or parts.get(ids[i]) in served]
        if vs:
            yield vs, who


def _seats(todo: list[Vacated]) -> tuple[Counter, dict]:
    """The vacancies per post and category, and the traits they served (each a minimum of the round)."""
    counts = Counter((v.post, v.seat) for v in todo)
    mins: dict[tuple[str, str], Counter] = {}
    for v in todo:
        if v.horizontal:
            mins.setdefault((v.post, v.seat), Counter())[v.horizontal] += 1
    return counts, mins


def _report(left: list[Vacated], rows: list[list], reserve: dict[str, str], held: set[str]) -> list[list]:
    """A row per vacancy vacated: who filled it, from which list (fillers paired with the vacancies of their post
    and category in merit order, a trait's beneficiary with a vacancy that served it first, and one that served
    a held trait with its beneficiary only)."""
    fillers: dict[tuple[str, str], list] = {}
    for row in sorted(rows, key=lambda r: r[-1]):
        fillers.setdefault((row[1], row[2]), []).append(row)
    out = []
    for v in sorted(left, key=lambda v: (v.post, v.seat, v.horizontal == "", v.merit)):
        queue = fillers.get((v.post, v.seat), [])
        pick = next((r for r in queue if v.horizontal and v.horizontal in r[4].split(";")),
                    queue[0] if queue and v.horizontal not in held else None)   # (a held one: its beneficiary's)
        if pick is None:
            out.append([v.post, v.seat, "", v.reason, "", v.horizontal, v.by, "", ""])
            continue
        queue.remove(pick)
        out.append([v.post, v.seat, pick[0], v.reason, reserve[pick[0]], v.horizontal, v.by, pick[3], pick[5]])
    return out


def _unfilled(left: list[Vacated], todo: list[Vacated], held: set[str]) -> list[list]:
    """unfilled.csv's rows for the fill: per post and category, the vacancies vacated, filled and left, a row per
    disposition as the allocation's (`held_vacant`: one that served a held trait, kept for its beneficiaries and
    carried; `unfilled`: any other)."""
    total = Counter((v.post, v.seat) for v in left)
    short = Counter((v.post, v.seat) for v in todo)
    kept = Counter((v.post, v.seat) for v in todo if v.horizontal in held)
    return [row for (p, s), k in sorted(total.items()) for row in category_rows(
        p, s, k, k - short[(p, s)], [("held_vacant", kept[(p, s)]), ("unfilled", short[(p, s)] - kept[(p, s)])])]


def decision_rows(problem: Problem, reserve: dict[str, str], filled: Filled) -> list[list]:
    """decisions.csv for the fill: every candidate of the reserve list and the Extended List, in merit order,
    selected or not, with the reason (the vacancy he fills and who left it; or why none was his)."""
    who = FILLED_COLUMNS.index("candidate_id")
    by = {r[who]: r for r in filled.report if r[who]}
    held = {r[0]: r for r in filled.rows}
    ids = problem.candidates.ids
    index = {cid: i for i, cid in enumerate(ids)}
    out = []
    for cid in sorted(reserve, key=lambda x: index.get(x, len(ids))):
        where = "Extended List" if reserve[cid] == "extended" else "reserve list"
        if cid in held:
            r = by.get(cid)
            left = f", left by {r[6]} ({r[3].replace('_', ' ')})" if r is not None else ""
            out.append([cid, "true", held[cid][1], f"from the {where}: the {held[cid][2]} vacancy at "
                        f"{held[cid][1]}{left}"])
        else:
            out.append([cid, "false", "", f"on the {where}, not reached: every vacancy left that he could hold at a "
                        "post he ranked went to a candidate above him" + (", or was one the Extended List may not "
                                                                          "take" if reserve[cid] == "extended" else "")])
    return out


def cutoff_rows(policy: Policy, problem: Problem, filled: Filled) -> list[list]:
    """cutoffs.csv for the fill: per post and seat category the fill's appointments, the last rank and score."""
    return allocation_cutoffs(problem, policy.seat_codes, filled.rows)
