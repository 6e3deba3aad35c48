"""What compiling the one-list allocation would buy: the greedy's deferred acceptance (numpy, by rounds) beside a
serial dictatorship compiled by numba, on the same seat pools, the answers compared.

    python -m benchmarks generate josaa-2025
    pip install numba      # (not a dependency of Aarakshan: this probe measures the option)
    python -m benchmarks.compiled josaa-2025

With one merit list every pool ranks by, deferred acceptance's outcome is serial dictatorship's (each candidate
in merit order takes the first pool on her list with room): the compiled loop is that. It does not cover
compartments with horizontal minimums, several merit lists or shared bounds. Each figure is one process's:
numba's import, the compile (or, with `--cache`, loading it from numba's cache), the run.
"""
from __future__ import annotations

import time

import typer

from benchmarks.__main__ import CATALOGUE, INSTANCES

app = typer.Typer(add_completion=False)


def _serial(numba, cache: bool):
    import numpy as np

    @numba.njit(cache=cache)
    def serial(ci, pi, cap, n):
        assign = np.full(n, -1, np.int64)
        room = cap.copy()
        for k in range(len(ci)):
            i = ci[k]
            if assign[i] < 0 and room[pi[k]] > 0:
                room[pi[k]] -= 1
                assign[i] = pi[k]
        return assign
    return serial


@app.command()
def main(name: str, cache: bool = typer.Option(False, help="numba's on-disk cache (a second run loads it)")):
    import numpy as np

    t = time.perf_counter()   # (numba's own import, numpy's already paid)
    try:
        import numba
    except ImportError:
        raise typer.BadParameter("numba is not installed (pip install numba): the probe measures it") from None
    imported = time.perf_counter() - t

    from solver import load_policy
    from solver.chain.engines.greedy import solve_greedy
    from solver.chain.overall import distribute
    from solver.chain.pools import build_pools
    from solver.chain.vacancy import determine_seats
    from solver.io.readers import read_problem

    folder = INSTANCES / name
    pol = load_policy(CATALOGUE[name][0])
    prefs = folder / "preferences.csv"
    prob = read_problem(pol, folder / "candidates.csv", folder / "vacancies.csv", prefs if prefs.exists() else None)
    pools = build_pools(pol, prob, distribute(pol, prob, determine_seats(pol, prob)))
    if pools.merit_only or pools.several_lists or pools.shared or any(p.minimums or p.phase for p in pools):
        raise typer.BadParameter(f"{name}: the probe covers one merit list and own-category pools only")
    ci, pi = pools.preference_lists()
    cap = np.array([p.base for p in pools.pools], dtype=np.int64)
    t = time.perf_counter()
    want = solve_greedy(pools, prob.n).pool
    greedy = time.perf_counter() - t
    serial = _serial(numba, cache)
    t = time.perf_counter()
    serial(ci[:1], pi[:1], cap, prob.n)
    compiled = time.perf_counter() - t
    t = time.perf_counter()
    got = serial(ci, pi, cap, prob.n)
    ran = time.perf_counter() - t
    print(f"{name}: {len(ci):,} pairs, {len(cap):,} pools; greedy (numpy) {greedy:.3f} s; numba {numba.__version__}: "
          f"import {imported:.3f} s, {'cache load' if cache else 'compile'} {compiled:.3f} s, run {ran:.3f} s; "
          f"the same allocation: {bool((got == want).all())}")


if __name__ == "__main__":
    app()
