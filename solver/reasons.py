"""A plain-words reason for every candidate's outcome (decisions.csv), e.g.
"rank 812 is below the OBC cutoff at ASO (rank 640, ranked 3rd)" or
"rank 235: selected at P06 (ranked 1st) under Rule 16(2), against an EWS vacancy; the open cutoff there is rank 232"."""
from __future__ import annotations

import numpy as np

from .engines.assignment import natural_tops
from .pools import DERESERVED, EXCHANGE, FALLBACK, OPEN_MERIT, homes, member_mask
from .result import Result
from .selection import MERGED
from .routes import NOT_RANKED


def _article(code: str) -> str:
    # Letters said with a leading vowel sound: an EWS, an SC, an OBC, but a BC, a DT-A.
    return "an" if code[:1].upper() in "AEFHILMNORSX" else "a"


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _what(p) -> str:
    if p.route == OPEN_MERIT:
        return "open"
    if p.route == EXCHANGE:
        return f"{'/'.join(p.sources)} exchange"
    if p.route == FALLBACK:
        return f"{p.sources[0]}-to-{p.sources[1]} fallback"
    if p.route == DERESERVED:
        return "de-reserved"
    return p.category


def decision_rows(result: Result):
    sel = result.pools.selection
    first = list(decision_rows(sel.stage)) if sel is not None else None
    for i, row in enumerate(_rows(result)):
        if first is not None and row[1] == "false" and sel.category[i] == "":
            row = [row[0], "false", "", first[i][3]]
        elif first is not None and row[1] == "true":
            if sel.route[i] == "horizontal_adjustment":
                row[3] += f"; recommended as {sel.category[i]} by horizontal adjustment"
            else:
                row[3] += ("; recommended on open merit" if sel.category[i] == result.policy.open
                           else f"; recommended as {sel.category[i]}")
        yield row


def _rows(result: Result):
    pools = result.pools.pools
    a = result.assignment
    c = result.problem.candidates
    posts = result.problem.posts
    n = len(c)
    filled = a.filled(len(pools))
    last = np.full(len(pools), -1)          # worst holder
    last_merit = np.full(len(pools), -1)    # worst holder admitted on merit (not by horizontal adjustment)
    for i in np.flatnonzero(a.pool >= 0):
        last[a.pool[i]] = max(last[a.pool[i]], i)
        if not a.adjusted[i]:
            last_merit[a.pool[i]] = max(last_merit[a.pool[i]], i)
    caps = [p.capacity(filled) for p in pools]
    tops = {k: (int(t[-1]) if len(t) else -1) for k, t in natural_tops(result.pools, a.pool).items()}
    common = result.pools.common_order
    unmet = _unmet_overall(result)
    ci, pi = result.pools.preference_lists()
    starts = np.searchsorted(ci, np.arange(n))
    ends = np.searchsorted(ci, np.arange(n), side="right")

    def where(i, p) -> str:
        post = posts[p.post]
        text = "in the recommendation list" if post == MERGED else f"at {post}"
        if not common and post != MERGED:
            r = int(result.pools.post_rank[i, p.post])
            text += f" (ranked {_ordinal(r + 1)})" if r < NOT_RANKED else " (not ranked)"
        return text

    took_cache: dict = {}

    held_cache: dict = {}

    def held_elsewhere(p) -> str:
        """After a recommendation list: the seats of p's compartment at its post held for a minimum."""
        if result.pools.selection is None or p.serves or p.phase >= 4:
            return ""
        if p.index not in held_cache:
            held_cache[p.index] = "".join(f"; {m} more held for {t}" for (q, code, t), m in result.seats.minimums.items()
                                          if q == posts[p.post] and code == p.category and m > 0)
        return held_cache[p.index]

    for i in range(n):
        got = a.pool[i]
        missed = []
        for k in pi[starts[i]:ends[i]]:
            if k == got:
                break
            if caps[k] and last[k] >= 0 and filled[k] >= caps[k]:
                p = pools[k]
                ben = [t for t, mask in p.beneficiary.items() if mask[i]]
                took = _adjusted_for(p, a, took_cache)
                traits = " and ".join([t for t in took if t not in ben] or took)
                if p.counts_each:
                    # the best set may trade a beneficiary of one trait for one who serves several
                    traits = " and ".join(p.minimums) + ", each appointee counting for every trait they have"
                if p.minimums and i <= tops[k]:
                    # Within the merit top, yet out: a minimum, not merit, kept this one out.
                    cut = f"merit cutoff rank {last_merit[k] + 1}" if last_merit[k] >= 0 else "no seat left on merit"
                    missed.append(f"displaced from {_what(p)} {where(i, p)} by the minimum for {traits} ({cut})")
                elif p.minimums and i < last[k]:
                    missed.append(f"the {_what(p)} merit cutoff {where(i, p)} (rank {tops[k] + 1}; the seats after "
                                  f"it went by adjustment to {traits})")
                else:
                    also = held_elsewhere(p)
                    missed.append(f"the {_what(p)} cutoff {where(i, p)} (rank {last[k] + 1}{also})")
                if len(missed) == 4 and got < 0:
                    break  # a reason names at most four cutoffs
        notes = []
        if c.relaxed[i] and not result.policy.migration.relaxed_may_take_open:
            notes.append("availed a relaxed standard, so may not take an open vacancy")
        if c.creamy[i] and c.category[i] != result.policy.open and \
                result.policy.category(c.category[i]).creamy_layer_excluded:
            notes.append("creamy layer, so competes as open only")
        if got < 0:
            notes += [why for mask, why in unmet if mask[i]]
        if got >= 0:
            p = pools[got]
            route = result.route(i)
            how = {
                "open_merit": "on open merit",
                "reserved": f"against {_article(p.category)} {p.category} vacancy",
                "upgrade": f"under Rule 16(2), against {_article(p.category)} {p.category} vacancy",
                "exchange": f"against {_article(result.seat_category[i])} {result.seat_category[i]} vacancy passed by exchange",
                "fallback": f"against {_article(p.sources[0])} {p.sources[0]} vacancy passed down the fallback chain",
                "dereserved": f"against a de-reserved {result.seat_category[i]} vacancy",
                "horizontal_adjustment": f"against {_article(p.category)} {p.category} vacancy by horizontal "
                                         f"adjustment for {' and '.join(result.serves(i))}",
            }[route]
            text = f"rank {i + 1}: selected {where(i, p)} {how}"
            if result.pools.selection is not None and p.phase >= 4:
                text += ", on a seat held for a horizontal minimum that no beneficiary took (reverted last)"
            if missed:
                text += "; " + "; ".join(("was " if m.startswith("displaced") else "below ") + m for m in missed[:3])
        elif ends[i] == starts[i]:
            text = f"rank {i + 1}: there is no vacancy this candidate may hold"
        elif missed:
            text = f"rank {i + 1} is below " + "; ".join(missed[:4])
            text = text.replace("is below displaced", "was displaced").replace("; displaced", "; was displaced")
        else:
            text = f"rank {i + 1}: every vacancy this candidate may hold was filled by better merit or left none"
        if notes:
            text += " (" + "; ".join(notes) + ")"
        yield [c.ids[i], "true" if got >= 0 else "false", posts[pools[got].post] if got >= 0 else "", text]


def _unmet_overall(result: Result) -> list[tuple[np.ndarray, str]]:
    """Under overall minimums (Anil Kumar Gupta 1995), why a beneficiary left out of a post that is short of
    its minimum was not adjusted in: an adjustment goes to her own category's compartment, and every seat of
    it holds a beneficiary already (or she may hold none there). (mask of those it concerns, reason)"""
    if not result.seats.overall:
        return []
    policy, problem, seats = result.policy, result.problem, result.seats
    members = {code: member_mask(policy, problem, code) for code in policy.reserved_codes}
    codes = [policy.open, *policy.reserved_codes]
    ranked = problem.ranked
    out = []
    for row in result.horizontal_report():
        if row["short"] <= 0:
            continue
        post, trait = row["post"], row["trait"]
        j = problem.posts.index(post)
        home = homes(policy, problem, seats, post, members)
        ben = problem.candidates.trait(trait) & ranked[:, j]
        head = f"the {trait} minimum at {post} is {row['short']} short"
        out.append((ben & (home < 0), f"{head}, but no vacancy there is one this candidate may hold"))
        for k, code in enumerate(codes):
            size = seats.cap(post, code) - seats.exchangeable.get((post, code), 0)
            rest = f"every {code} seat at {post} is held by a {trait} beneficiary" if size else \
                f"there is no {code} vacancy at {post}"
            out.append((ben & (home == k), f"{head}, but an adjustment goes to the candidate's own category, "
                        f"{code}, and {rest}"))
    return out


def _adjusted_for(pool, a, cache: dict) -> list[str]:
    """The minimums of `pool` that its appointees by adjustment serve (all of them when none is marked): under
    overall minimums a compartment's minimum also keeps beneficiaries merit put there, who displaced nobody."""
    if pool.index not in cache:
        mine = np.flatnonzero((a.pool == pool.index) & a.adjusted)
        cache[pool.index] = [t for t in pool.minimums if pool.beneficiary[t][mine].any()] or list(pool.minimums)
    return cache[pool.index]
