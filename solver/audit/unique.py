"""Is the official allocation the only lawful one, and who is contested if not (`solver.audit.audit`'s first
question): by theorem where one strict merit list settles it, by tie blocks at exam size, by the lattice of
stable allocations where posts rank by several merit lists, else by CP-SAT, one contested candidate at a time."""
from __future__ import annotations

import numpy as np

from ..chain.engines.assignment import Assignment
from ..outcome.result import Result
from .houses import alternatives, extend, houses
from .lawful import differs, lawful_model, solution
from ..chain.engines.cpsat.conflict import run
from ..chain.engines.cpsat.model import Rules
from .stable import lattice_supported, stable_allocation, strict
from .ties import model_bytes, solved_in, tie_orders, too_large

TIE = "merit tie settled only by id"
TIE_ABOVE = "a merit tie above, settled only by id, moves the seats left to her"
SEVERAL = "horizontal minimums with preferences: several stable allocations (the official one is candidate-optimal)"
SRC_TIE = "SPEC.md merit.tie_breaks; an id is not a rule of law"
# Alternatives of tie blocks completed and compared for the contested set at exam size.
ALTERNATIVES_SHOWN = 50
SRC_SEVERAL = "Rajesh Kumar Daria 2007; Gale and Shapley 1962"
SRC_LISTS = "Gale and Shapley 1962; Roth and Sotomayor 1990 (the lattice of stable matchings); JoSAA's deferred acceptance (Baswana et al. 2019)"
LISTS = "several merit lists: another stable allocation (the official one is candidate-optimal)"


def outcome(result: Result, i: int) -> str:
    """What candidate i got: "P01 OBC" (post and seat category) or "not selected"."""
    if not result.selected[i]:
        return "not selected"
    return f"{result.problem.posts[result.pools.pools[result.assignment.pool[i]].post]} {result.seat_category[i]}"


def uniqueness(res: Result, official, time_limit, workers, prove: bool = False, state=None):
    """(unique, contested.csv rows, status, the institution-optimal allocation where posts rank by several
    merit lists, else None). `official`: the procedure, to solve a tie order again (`solver.audit.ties`)."""
    if res.pools.several_lists and lattice_supported(res.pools) and strict(res.problem) and not prove:
        return by_lattice(res)
    return (*_by_model(res, official, time_limit, workers, prove, state), None)


def by_lattice(res: Result):
    """Several merit lists: the institution-optimal stable allocation (`solver.audit.stable`) against the
    official, candidate-optimal one. Unique exactly when they agree; a candidate whose seat differs is contested,
    the institution-optimal seat her alternative, and nobody else is (every stable allocation lies between the
    two in her preference)."""
    alt = with_pools(res, stable_allocation(res.pools, res.problem.n, "pools"))
    moved = np.flatnonzero(alt.assignment.pool != res.assignment.pool).tolist()
    out = [[res.problem.candidates.ids[i], "alternative", outcome(res, i), outcome(alt, i), LISTS, SRC_LISTS]
           for i in moved]
    return not moved, out, "lattice", alt if moved else None


def _by_model(res: Result, official, time_limit, workers, prove: bool = False, state=None):
    """CP-SAT: is there a lawful allocation in which someone fares otherwise? Repeated, each time for someone
    not yet contested, until none is left: the contested set, exactly (for outcomes as pools held)."""
    problem = res.problem
    ties = problem.candidates.tie_blocks()
    if ties.max(initial=-1) < 0 and not res.pools.minimums_with_preferences and not prove and \
            not res.pools.several_lists:
        # One strict merit list for every pool: the stable assignment is unique (serial dictatorship; the
        # model's solution, which the property tests check on thousands of instances). CP-SAT's proof of it
        # takes minutes at 3,000 candidates and 24 posts, and adds nothing.
        return True, [], "theorem"
    if not res.pools.minimums_with_preferences and not prove and too_large(res.pools):
        h = houses(res.pools, ties)
        if h is not None:
            return _uniqueness_by_blocks(res, h, ties)
        # (ties left to ids at a size the model cannot take: every tie block reversed, by the procedure)
        alt = solved_in(tie_orders(ties)[0], official, res, state)
        moved = np.flatnonzero(alt.assignment.pool != res.assignment.pool).tolist()
        size = f"the model of every lawful allocation would take about {model_bytes(res.pools) / 2**30:.1f} GiB"
        if moved:
            return False, contested_rows(res, {i: outcome(alt, i) for i in moved}, ties), \
                f"ties: contested found by reversing every tie block, at least these ({size}; prove_unique=True builds it)"
        return None, [], f"not proven: reversing every tie block changes nothing, and {size}"
    model = lawful_model(res.pools, problem, Rules(ties=ties))
    offi = res.assignment.pool
    contested: dict[int, str] = {}
    while True:
        lits = differs(model, offi, set(range(problem.n)) - set(contested))
        if not lits:
            break
        ask = model.m.new_bool_var(f"differs[{len(contested)}]")
        model.m.add_bool_or(lits).only_enforce_if(ask)
        status, solver = run(model, [ask], time_limit, workers)
        if status == "time_limit":
            return None, contested_rows(res, contested, ties), "time_limit"
        if status == "infeasible":
            break
        alt = Result(res.policy, problem, res.seats, res.pools, solution(model, solver, problem.n), "cpsat")
        for i in np.flatnonzero(alt.assignment.pool != offi).tolist():
            if i not in contested:
                contested[i] = outcome(alt, i)
    return not contested, contested_rows(res, contested, ties), "optimal"


def _uniqueness_by_blocks(res: Result, h, ties: np.ndarray) -> tuple[bool | None, list[list[str]], str]:
    """A house allocation too large for the model: unique exactly when no tie block has another resolution
    given the official seats above it (`houses.alternatives`); each one found, completed by serial
    dictatorship below, is a lawful allocation, and whom it moves is contested (at least those)."""
    offi = res.assignment.pool
    found, undecided = alternatives(h, offi)
    size = f"the model of every lawful allocation would take about {model_bytes(res.pools) / 2**30:.1f} GiB"
    contested: dict[int, str] = {}
    for block, local in found[:ALTERNATIVES_SHOWN]:
        pool = offi.copy()
        pool[block.start:block.stop] = local
        alt = with_pools(res, extend(h, pool, block.stop))
        for i in np.flatnonzero(alt.assignment.pool != offi).tolist():
            contested.setdefault(i, outcome(alt, i))
    where = ", ".join(f"ranks {b.start + 1}-{b.stop}" for b in sorted({b for b, _ in found}, key=lambda b: b.start)[:5])
    if found:
        return False, contested_rows(res, contested, ties), \
            f"ties, decided tie block by tie block: another lawful resolution of the block at {where}" + \
            (" and others" if len({b for b, _ in found}) > 5 else "") + \
            f"; contested: those these alternatives move, at least these ({size}; not built)"
    if undecided:
        return None, [], f"not proven: {len(undecided)} tie blocks passed the search's limit ({size}; not built)"
    return True, [], f"ties, decided tie block by tie block: no block has another lawful resolution ({size}; not built)"


def with_pools(res: Result, pool: np.ndarray) -> Result:
    return Result(res.policy, res.problem, res.seats, res.pools,
                  Assignment(pool, np.zeros(len(pool), dtype=bool), "audit"), "audit")


def contested_rows(res: Result, contested: dict[int, str], ties: np.ndarray) -> list[list[str]]:
    rows = []
    for i in sorted(contested):
        tied = ties[i] >= 0
        rule, source = (TIE, SRC_TIE) if tied else (SEVERAL, SRC_SEVERAL) if res.pools.minimums_with_preferences else \
            (TIE_ABOVE, SRC_TIE) if (ties[:i] >= 0).any() else \
            ("unexplained (please report: the model admits another allocation)", "")
        rows.append([res.problem.candidates.ids[i], "tie" if tied else "alternative", outcome(res, i), contested[i],
                     rule, source])
    return rows


