"""`aarakshan cadre`: the cadre allocation of the All India Services (`solver.exam.cadres`), read, allocated and
written whole (cadres.csv, cadre_vacancies_filled.csv, summary.json) or not at all."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..exam.cadres import ALLOCATION_COLUMNS, VACANCY_COLUMNS, CadreAllocation, allocate_cadres, read_cadre_problem
from ..io.cadres import CadreProblem
from ..policy import Policy

CADRE_FILES = ("cadres.csv", "cadre_vacancies_filled.csv", "summary.json")


@dataclass(frozen=True)
class CadreRun:
    problem: CadreProblem
    allocation: CadreAllocation

    def counts(self) -> dict[str, int]:
        kinds = self.allocation.kind
        return {"officers": len(kinds), "insiders": kinds.count("insider"), "outsiders": kinds.count("outsider"),
                "unplaced": kinds.count(""), "converted": sum(self.allocation.converted.values())}


def run_cadre(policy: Policy, officers, vacancies, preferences, year: int, out: str | Path | None,
              overrides: tuple[str, ...] = (), warn=lambda _: None) -> CadreRun:
    """Read the three files, allocate, and (with `out`) write the outputs in one step; returns the run."""
    from ..io.staging import stage, write_csv, write_json
    from ..outcome.reports import provenance

    if not policy.cadre.groups:
        from ..errors import Unsupported
        raise Unsupported(f"{policy.name} has no [cadre] table (its groups of cadres): the cadre allocation of the "
                          "All India Services is modelled in upsc-cse")
    p = read_cadre_problem(policy, officers, vacancies, preferences, year, warn)
    a = allocate_cadres(policy, p)
    run = CadreRun(p, a)
    if out is not None:
        sources = {k: str(v) for k, v in (("officers", officers), ("cadre_vacancies", vacancies),
                                           ("cadre_preferences", preferences)) if v is not None}
        doc = {"stage": "cadre", "year": year, "order": policy.cadre.order(year), **run.counts(),
               "provenance": provenance(policy, list(overrides), "greedy", sources)}

        def write(tmp: Path) -> None:
            write_csv(tmp / "cadres.csv", ALLOCATION_COLUMNS, a.rows(p, policy.cadre))
            write_csv(tmp / "cadre_vacancies_filled.csv", VACANCY_COLUMNS, a.vacancy_rows(p))
            write_json(tmp / "summary.json", doc)
        stage(out, write, CADRE_FILES, reads=[Path(x) for x in sources.values()]).publish()
    return run
