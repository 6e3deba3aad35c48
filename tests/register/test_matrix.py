"""Features right together, not only alone: every bundled policy x {single cadre, recommendation list} x {greedy,
CP-SAT} x {solve one year, simulate five years against a register, sweep the five years}, each cell checked
for what must hold whatever the law says:

- filled + unfilled = vacancies, per post and category (unfilled.csv, results.csv);
- carried out of year N equals carried into year N+1 (simulation.csv, results.csv);
- summary.json's totals are allocation.csv's;
- a vacancy filled is never carried, and `verify` and `verify --register` pass on every year.

A cell the chain refuses (a recommendation list under an Act whose exchange or de-reservation it does not
take) must be refused cleanly, exit 3, with the reason. The inputs are small synthetic recruitments with
more reserved vacancies than some categories' candidates, so that vacancies go unfilled and are carried."""
import json
from collections import defaultdict

import pytest
from conftest import read_csv
from typer.testing import CliRunner

from solver import load_policy
from solver.cli import app
from solver.data.instances import generate, write_instance
from solver.policy.load import bundled_models

YEARS = range(2021, 2026)
POLICIES = sorted(bundled_models())
MODES = {"single": "migration.selection_list=false", "list": "migration.selection_list=true"}
REFUSED = 3


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Per policy, five year folders of 40 candidates, 30 vacancies at three posts and two preferences each."""
    out = {}
    for name in POLICIES:
        root = tmp_path_factory.mktemp(name)
        pol = load_policy(name)
        for y in YEARS:
            c, v, p = generate(pol, 40, 30, seed=y, posts=3, preferences=2)
            write_instance(root / "years" / str(y), c, v, p)
        out[name] = root
    return out


def year_args(root, year):
    d = root / "years" / str(year)
    return ["--candidates", d / "candidates.csv", "--vacancies", d / "vacancies.csv",
            "--preferences", d / "preferences.csv"]


def check_year_outputs(out):
    """unfilled.csv's fills and leftovers add up to its vacancies; summary.json counts allocation.csv's rows."""
    alloc = read_csv(out / "allocation.csv")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["selected"] == len(alloc)
    seen = defaultdict(lambda: [None, None, 0])
    for row in read_csv(out / "unfilled.csv"):
        if row["disposition"] == "carried_forward" and row["filled"] == "0" and \
                (row["post"], row["category"]) in seen:
            continue   # the reservations above the ceiling, on a row of their own
        at = seen[(row["post"], row["category"])]
        at[0], at[1] = int(row["vacancies"]), int(row["filled"])
        at[2] += int(row["unfilled"])
    held = defaultdict(int)
    for row in alloc:
        held[(row["post"], row["seat_category"])] += 1
    for key, (vacancies, filled, unfilled) in seen.items():
        assert filled + unfilled == vacancies, key
        assert held[key] <= vacancies, key
    assert summary["vacancies"] == sum(v for v, _, _ in seen.values())


def refused_cleanly(r):
    assert r.exit_code == REFUSED, r.output
    assert "Traceback" not in r.output and r.output.strip()
    return True


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("policy", POLICIES)
def test_one_year(inputs, tmp_path, policy, mode, engine):
    root = inputs[policy]
    out = tmp_path / "out"
    r = invoke("solve", "--policy", policy, "--set", MODES[mode], *year_args(root, 2021), "--engine", engine,
               "--out", out)
    if r.exit_code == REFUSED:
        assert refused_cleanly(r)
        return
    assert r.exit_code == 0, r.output
    check_year_outputs(out)
    r = invoke("verify", "--policy", policy, "--set", MODES[mode], *year_args(root, 2021),
               "--allocation", out / "allocation.csv")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("policy", POLICIES)
def test_five_years_with_a_register(inputs, tmp_path, policy, mode, engine):
    root = inputs[policy]
    out, reg = tmp_path / "out", tmp_path / "reg.sqlite"
    r = invoke("simulate", "--policy", policy, "--set", MODES[mode], "--years", root / "years", "--register", reg,
               "--out", out, "--engine", engine)
    if r.exit_code == REFUSED:
        assert refused_cleanly(r)
        return
    assert r.exit_code == 0, r.output
    table = defaultdict(dict)
    for row in read_csv(out / "simulation.csv"):
        if row["round"] == "main":
            table[row["category"]][int(row["year"])] = row
    for code, by_year in table.items():
        for y in YEARS[:-1]:
            assert by_year[y]["carried_out"] == by_year[y + 1]["carried_in"], (code, y)
    for y in YEARS:
        check_year_outputs(out / str(y))
        carried = [row for row in read_csv(out / str(y) / "carried.csv") if row["event"] in ("carried", "unfilled")]
        unfilled = sum(int(row["unfilled"]) for row in read_csv(out / str(y) / "unfilled.csv"))
        assert len(carried) <= unfilled, y          # a vacancy filled is never carried
        r = invoke("verify", "--policy", policy, "--set", MODES[mode], *year_args(root, y),
                   "--allocation", out / str(y) / "allocation.csv", "--register", reg, "--year", y)
        assert r.exit_code == 0, (y, r.output)
        assert "not checked" not in r.output


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("policy", POLICIES)
def test_sweep_over_five_years(inputs, tmp_path, policy, mode, engine):
    root = inputs[policy]
    out = tmp_path / "sweep"
    r = invoke("sweep", "--policy", policy, "--set", MODES[mode], "--years", root / "years", "--engine", engine,
               "--grid", "roster.tie=relative_deficit,policy_order", "--out", out)
    if r.exit_code == REFUSED:
        assert refused_cleanly(r)
        return
    assert r.exit_code == 0, r.output
    rows = read_csv(out / "results.csv")
    assert rows
    by = {}
    for row in rows:
        if row["status"] != "solved":
            continue
        left = sum(int(row[k]) for k in row if k.startswith("unfilled_"))
        assert int(row["filled"]) + left == int(row["vacancies"]), row
        by[(row["scenario"], row["post"], row["category"], int(row["year"]))] = row
    for (scenario, post, code, y), row in by.items():
        nxt = by.get((scenario, post, code, y + 1))
        if nxt is not None:
            assert row["carried_out"] == nxt["carried_in"], (scenario, post, code, y)
