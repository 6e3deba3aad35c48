"""The worked recruitments of tests/cases (mirrored from ../shared/cases): both engines reproduce the known answer and verify accepts it."""
import tomllib

import pytest

from conftest import CASES, SHARED_CASES, case_dirs, read_csv, rows_by_id
from solver import load_policy, solve
from solver.io.readers import read_problem
from solver.outcome.reports import write_outputs
from solver.verify import read_allocation, verify

PENDING: dict[str, str] = {}


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_case(case, engine, tmp_path):
    if case.name in PENDING:
        pytest.skip(PENDING[case.name])
    meta = tomllib.loads((case / "case.toml").read_text())
    pol = load_policy(meta["policy"], meta.get("set", []))
    prefs = case / "preferences.csv" if (case / "preferences.csv").exists() else None
    prob = read_problem(pol, case / "candidates.csv", case / "vacancies.csv", prefs)
    sol = solve(pol, prob, engine, hint=False)
    got = rows_by_id(sol.result)
    expected = read_csv(case / "expected.csv")
    assert sorted(got) == sorted(r["candidate_id"] for r in expected), meta["source"]
    for row in expected:
        for field, value in row.items():
            if value:
                assert got[row["candidate_id"]][field] == value, (row["candidate_id"], field, meta["source"])
    write_outputs(tmp_path, sol.result, {})
    alloc = read_allocation(tmp_path / "allocation.csv", prob, pol)
    assert verify(pol, prob, alloc) == []


def test_cases_present():
    assert len(case_dirs()) >= 4


@pytest.mark.skipif(not SHARED_CASES.exists(), reason="no ../shared/cases beside this checkout to compare with")
def test_cases_mirror_shared():
    """tests/cases is a copy of ../shared/cases: a case added or changed upstream must be mirrored here."""
    ours = {p.relative_to(CASES): p.read_bytes() for p in CASES.rglob("*") if p.is_file()}
    theirs = {p.relative_to(SHARED_CASES): p.read_bytes() for p in SHARED_CASES.rglob("*") if p.is_file()}
    assert set(theirs) <= set(ours), sorted(set(theirs) - set(ours))
    assert [k for k in theirs if theirs[k] != ours[k]] == []


def test_reasons_tell_the_displaced_why(tmp_path):
    """Rajesh Kumar Daria 2007 in the reasons: a man displaced by the women's minimum outranks the woman who
    came in, so his reason must name the minimum, not a cutoff he in fact beats."""
    from solver.outcome.reasons import decision_rows
    case = CASES / "horizontal-shortfall"
    pol = load_policy("central-dopt")
    prob = read_problem(pol, case / "candidates.csv", case / "vacancies.csv")
    rows = {r[0]: r[3] for r in decision_rows(solve(pol, prob, "greedy").result)}
    assert "was displaced from SC at P by the minimum for women (merit cutoff rank 9)" in rows["S5"]
    assert "rank 12" not in rows["S5"]
    assert rows["S8"].endswith("the SC cutoff at P (rank 12)")  # a woman below the last woman admitted
