"""The records every stage shares hold their dicts frozen (solver/data/frozen.py): a stage changing a shared dict
in place would change what another stage already read. Each dict a solved recruitment's records hold is checked,
so that a field whose annotation the freezing does not read as a dict's fails here."""
from dataclasses import fields

import pytest

from solver import load_policy, solve
from solver.data.frozen import FrozenDict
from solver.data.instances import generate, write_instance
from solver.io.readers import read_problem


def test_every_dict_of_the_shared_records_is_frozen(tmp_path):
    pol = load_policy("bihar-1991")
    d = write_instance(tmp_path, *generate(pol, 300, 40, seed=3, women_share=0.35))
    problem = read_problem(pol, d / "candidates.csv", d / "vacancies.csv")
    sol = solve(pol, problem, "greedy")
    records = [*problem.vacancy_rows, sol.result.seats, *sol.result.pools.pools]
    seen = 0
    for record in records:
        for f in fields(record):
            value = getattr(record, f.name)
            if isinstance(value, dict):
                seen += 1
                assert isinstance(value, FrozenDict), (type(record).__name__, f.name)
    assert seen > len(records)            # (each record has at least one dict field)
    with pytest.raises(TypeError, match="cannot change"):
        sol.result.pools.pools[0].minimums["women"] = 1
