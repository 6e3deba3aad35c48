"""A plain-words reason for every candidate's outcome (decisions.csv)."""
from __future__ import annotations

import numpy as np

from .pools import DERESERVED, EXCHANGE, FALLBACK, OPEN_MERIT
from .result import Result


def _label(result: Result, p) -> str:
    post = result.problem.posts[p.post]
    if p.route == OPEN_MERIT:
        return f"open at {post}"
    if p.route == EXCHANGE:
        return f"{'/'.join(p.sources)} exchange at {post}"
    if p.route == FALLBACK:
        return f"{p.sources[0]} vacancies passed to {p.sources[1]} at {post}"
    if p.route == DERESERVED:
        return f"de-reserved vacancies at {post}"
    return f"{p.category} at {post}"


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def decision_rows(result: Result):
    sel = result.pools.selection
    first = list(decision_rows(sel.stage)) if sel is not None else None
    for row, i in zip(_rows(result), range(len(result.problem.candidates))):
        if first is not None and row[1] == "false" and sel.category[i] == "":
            row = [row[0], "false", "", first[i][3].replace(" at recommendation list", " in the recommendation list")]
        elif first is not None and row[1] == "true":
            row[3] += f"; recommended {'on open merit' if sel.category[i] == result.policy.open else 'as ' + sel.category[i]}"
        yield row


def _rows(result: Result):
    pools = result.pools.pools
    a = result.assignment
    c = result.problem.candidates
    n = len(c)
    filled = a.filled(len(pools))
    last = np.full(len(pools), -1)
    for i in np.flatnonzero(a.pool >= 0):
        last[a.pool[i]] = max(last[a.pool[i]], i)
    caps = [max(0, p.base - int(sum(filled[q] for q in p.minus))) for p in pools]
    labels = [_label(result, p) for p in pools]
    elig = np.stack([p.eligible for p in pools], axis=1) if pools else np.zeros((n, 0), bool)
    phase = np.array([p.phase for p in pools])
    post = np.array([p.post for p in pools])
    prec = np.array([p.precedence for p in pools])
    common = result.pools.common_order
    if common:
        global_order = np.lexsort((prec, post, phase))
    for i in range(n):
        rank = i + 1
        mine = np.flatnonzero(elig[i])
        if common:
            mine = global_order[elig[i, global_order]]
        else:
            mine = mine[np.lexsort((prec[mine], result.pools.post_rank[i, post[mine]], phase[mine]))]
        notes = []
        if c.relaxed[i] and not result.policy.migration.relaxed_may_take_open:
            notes.append("availed a relaxed standard, so may not take an open vacancy")
        if c.creamy[i] and c.category[i] != result.policy.open:
            notes.append("creamy layer, so competes as open only")
        missed = []
        got = a.pool[i]
        for k in mine:
            if k == got:
                break
            if caps[k] == 0:
                continue
            if last[k] >= 0 and filled[k] >= caps[k]:
                ranked = "" if common else f" (ranked {_ordinal(int(result.pools.post_rank[i, pools[k].post]) + 1)})"
                missed.append(f"the {labels[k]}{ranked} cutoff is rank {last[k] + 1}")
        prefix = f"rank {rank}"
        if got >= 0:
            route = result.route(i)
            how = {"open_merit": "on open merit", "reserved": f"against a {pools[got].category} vacancy",
                   "upgrade": f"against a {pools[got].category} vacancy of a preferred post (Rule 16(2) upgrade)",
                   "exchange": "against a vacancy passed by exchange", "fallback": "against a fallback vacancy",
                   "dereserved": "against a de-reserved vacancy",
                   "horizontal_adjustment": f"by horizontal adjustment for {result.horizontal(i)}"}[route]
            text = f"{prefix}: selected {how} ({labels[got]})"
            if not common:
                text += f", ranked {_ordinal(int(result.pools.post_rank[i, pools[got].post]) + 1)}"
            if missed:
                text += "; " + "; ".join(missed[:3])
        elif not len(mine):
            text = f"{prefix}: no vacancy this candidate may hold"
        elif missed:
            text = f"{prefix} is below " + "; ".join(missed[:4]).replace("the ", "", 1)
        else:
            text = f"{prefix}: every vacancy this candidate may hold was filled or none was left"
        if notes:
            text += " (" + "; ".join(notes) + ")"
        yield [c.ids[i], "true" if got >= 0 else "false", result.problem.posts[pools[got].post] if got >= 0 else "",
               text]
