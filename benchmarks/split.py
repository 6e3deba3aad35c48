"""CP-SAT's build and search time apart, with CP-SAT parameters to compare (the greedy's hint given).

    python -m benchmarks.split bihar-100k-horizontal
    python -m benchmarks.split bihar-100k-horizontal --linearization 2 --presolve

Instances come from `python -m benchmarks generate NAME`; the policy is the catalogue's.
"""
from __future__ import annotations

from typing import Optional

import typer

from benchmarks.__main__ import CATALOGUE, INSTANCES

app = typer.Typer(add_completion=False)


@app.command()
def main(name: str, linearization: Optional[int] = None, presolve: bool = False, workers: int = 1,
         log: bool = typer.Option(False, help="print CP-SAT's search log")):
    from ortools.sat.python import cp_model

    import solver.chain.engines.cpsat as engine
    from solver import load_policy
    from solver.chain.engines.greedy import solve_greedy
    from solver.io.readers import read_problem
    from solver.chain.overall import distribute
    from solver.chain.pools import build_pools
    from solver.chain.vacancy import determine_seats

    folder = INSTANCES / name
    pol = load_policy(CATALOGUE[name][0])
    prefs = folder / "preferences.csv"
    prob = read_problem(pol, folder / "candidates.csv", folder / "vacancies.csv", prefs if prefs.exists() else None)
    pools = build_pools(pol, prob, distribute(pol, prob, determine_seats(pol, prob)))
    hint = solve_greedy(pools, prob.n)

    class Solver(cp_model.CpSolver):
        def solve(self, model, *args):
            self.parameters.cp_model_presolve = presolve
            self.parameters.log_search_progress = log
            if linearization is not None:
                self.parameters.linearization_level = linearization
            return super().solve(model, *args)

    engine.cp_model.CpSolver = Solver
    out = engine.solve_cpsat(pools, prob.n, hint=hint, workers=workers)
    same = bool((out.pool == hint.pool).all())
    print(f"{name}: build {out.stats['build_seconds']:.2f} s, search {out.stats['solve_seconds']:.2f} s, "
          f"{out.stats['variables']:,} variables, {out.stats['constraints']:,} constraints, "
          f"{out.status}, same as greedy: {same}")


if __name__ == "__main__":
    app()
