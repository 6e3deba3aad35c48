"""The application layer as a library: a year run (`solver.runs.run_year`), a run of years (`run_years`), the
chain as a `Chain` of reductions with real inverse data, and the words the library takes (`Engine`,
`Recruitment`) refused when they name nothing. Design: cvxpy's `Chain` (apply returns the problem and inverse
data, invert walks back), PyVRP's small solve() over immutable data and a thin command line."""
import filecmp

import pytest
from conftest import write_csv
from typer.testing import CliRunner

from solver import load_policy, solve
from solver.chain.reductions import DETERMINE, DIRECT, SINGLE_CADRE, Answer, BuildPools, Chain, DerivePromotion, Reduction, \
    StageData
from solver.cli import app
from solver.chain.engines.greedy import solve_greedy
from solver.errors import OptionError
from solver.io.readers import read_problem
from solver.data.kinds import Engine, Recruitment
from solver.register import Register
from solver.outcome.result import Result
from solver.runs import Round, RunOptions, YearInputs, open_register, read_years, run_year, run_years
from solver.study.sweep import Inputs, grid, sweep


def files(tmp_path, cands, vacs, name="in"):
    d = tmp_path / name
    d.mkdir(parents=True)
    write_csv(d / "candidates.csv", ["id", "rank", "category"], cands)
    write_csv(d / "vacancies.csv", ["post", "category", "vacancies"], vacs)
    return d / "candidates.csv", d / "vacancies.csv"


def bihar_years(root, years=range(2021, 2025)):
    """UR 6, SC 2, ST 1 each year, open and ST candidates only: the SC vacancies are carried (Bihar s.4(6))."""
    for y in years:
        d = root / str(y)
        d.mkdir(parents=True)
        write_csv(d / "candidates.csv", ["id", "rank", "category"],
                  [[f"U{y}-{k}", k + 1, "UR"] for k in range(8)] + [[f"T{y}-{k}", k + 9, "ST"] for k in range(6)])
        write_csv(d / "vacancies.csv", ["post", "category", "vacancies"], [["X", "UR", 6], ["X", "SC", 2],
                                                                            ["X", "ST", 1]])


OUTPUTS = ["allocation.csv", "decisions.csv", "unfilled.csv", "cutoffs.csv", "carried.csv"]


def test_a_year_run_from_python_writes_what_solve_register_writes(tmp_path):
    """`run_year` is what `aarakshan solve --register --year` runs: the same files, byte for byte, and the same
    register rows, for two years in a row (the second reading the first's backlog)."""
    bihar_years(tmp_path / "years", range(2021, 2023))
    pol = load_policy("bihar-1991")
    for y in (2021, 2022):
        d = tmp_path / "years" / str(y)
        r = CliRunner().invoke(app, ["solve", "--policy", "bihar-1991", "--candidates", str(d / "candidates.csv"),
                                     "--vacancies", str(d / "vacancies.csv"), "--out", str(tmp_path / "cli" / str(y)),
                                     "--register", str(tmp_path / "cli.sqlite"), "--year", str(y), "--quiet"])
        assert r.exit_code == 0, r.output
        reg = open_register(tmp_path / "lib.sqlite", y, False, pol)
        run = run_year(RunOptions(pol), Round(d / "candidates.csv", d / "vacancies.csv", out=tmp_path / "lib" / str(y),
                                              register=reg, year=y))
        reg.close()
        assert run.record is not None and run.round == "main"
        for f in OUTPUTS:
            assert filecmp.cmp(tmp_path / "cli" / str(y) / f, tmp_path / "lib" / str(y) / f, shallow=False), f
    with Register(tmp_path / "cli.sqlite", readonly=True) as a, Register(tmp_path / "lib.sqlite", readonly=True) as b:
        assert a.state(2023) == b.state(2023)
        assert [x.category for x in a.state(2023).items] == ["SC"] * 4, "the SC vacancies of both years are carried"


def test_run_years_yields_each_round_in_order_and_stops_at_a_refusal(tmp_path):
    """`run_years` solves the years in order against one register, each recorded before the next is solved; the
    SC vacancies carried from 2021 are in 2022's seats (Bihar Act 1991 s.4(6))."""
    bihar_years(tmp_path / "years", range(2021, 2024))
    pol = load_policy("bihar-1991")
    with Register(tmp_path / "reg.sqlite") as reg:
        runs = list(run_years(RunOptions(pol, "greedy"), read_years(tmp_path / "years"), reg, tmp_path / "out"))
        assert [r.year for r in runs] == [2021, 2022, 2023]
        assert [r.solution.result.seats.cap("X", "SC") for r in runs] == [2, 4, 6]
        assert reg.years() == [2021, 2022, 2023]
    assert (tmp_path / "out" / "2023" / "allocation.csv").is_file()


def test_run_years_without_outputs_records_only(tmp_path):
    """A sweep's years: recorded in the register, no output folder written."""
    bihar_years(tmp_path / "years", range(2021, 2023))
    pol = load_policy("bihar-1991")
    with Register(tmp_path / "reg.sqlite") as reg:
        years = read_years(tmp_path / "years")
        runs = list(run_years(RunOptions(pol, "greedy"), years, reg))
        assert reg.years() == [2021, 2022] and len(runs) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reg.sqlite", "years"]


def test_a_bad_engine_is_an_error_not_a_silent_cpsat(tmp_path):
    """An engine the library does not have is refused, naming the field and the words it takes; before, the
    word was ignored and CP-SAT ran under the wrong label."""
    c, v = files(tmp_path, [["A", 1, "UR"]], [["X", "UR", 1]])
    with pytest.raises(OptionError, match=r"engine: must be cpsat, greedy or both, not 'bogus'"):
        solve("central-dopt", candidates=c, vacancies=v, engine="bogus")
    with pytest.raises(OptionError, match="engine"):
        RunOptions(load_policy("central-dopt"), "bogus")
    with pytest.raises(OptionError, match="must be greedy or cpsat, not 'both'"):
        sweep("central-dopt", grid(["ceiling.share=0.5"]), [Inputs(None, c, v)], engine="both")
    assert solve("central-dopt", candidates=c, vacancies=v, engine=Engine.GREEDY).result.engine == "greedy"


def test_recruitment_is_a_parameter_not_an_override():
    """`load_policy(..., recruitment=...)` derives the promotion's policy (Bihar s.4(2) second proviso: SC and ST
    only; s.6(1): a 50-point roster) without a `recruitment=promotion` override; a bad word is refused."""
    p = load_policy("bihar-1991", recruitment=Recruitment.PROMOTION)
    assert p.recruitment == "promotion" and p.roster.points == 50
    assert {c.code for c in p.categories if c.share} == {"SC", "ST"}
    assert load_policy("bihar-1991", recruitment="direct").roster.points == load_policy("bihar-1991").roster.points
    with pytest.raises(OptionError, match="recruitment: must be direct or promotion, not 'lateral'"):
        load_policy("bihar-1991", recruitment="lateral")


def test_the_chain_is_a_reduction_whose_inverse_reads_the_answer_back(tmp_path):
    """`Chain` is itself a `Reduction`; `apply` keeps each stage's inverse data and `invert` walks them back: the
    pools' inverse turns an engine's answer into the `Result` `solve` returns."""
    c, v = files(tmp_path, [["A", 1, "OBC"], ["B", 2, "UR"], ["C", 3, "OBC"]], [["X", "UR", 1], ["X", "OBC", 1]])
    pol = load_policy("central-dopt")
    prob = read_problem(pol, c, v)
    assert isinstance(DIRECT, Reduction) and DIRECT.reductions == DETERMINE.reductions + SINGLE_CADRE.reductions
    pooled, inverse = DIRECT(StageData(pol, prob))
    assert len(inverse) == len(DIRECT.reductions) and inverse[-1] is pooled
    result = DIRECT.invert(Answer(solve_greedy(pooled.pools, prob.n), "greedy"), inverse)
    assert isinstance(result, Result)
    expected = solve(pol, prob, "greedy").result
    assert list(result.allocation_rows()) == list(expected.allocation_rows())
    # A stage's refusal is told before it applies (exit 3).
    refuse = type("Refuse", (Reduction,), {"accepts": lambda self, data: "not today"})()
    with pytest.raises(Exception, match="not today"):
        Chain([refuse, BuildPools()])(StageData(pol, prob))


def test_promotion_is_a_stage_of_the_chain(tmp_path):
    """A policy marked for promotion but not derived (built by hand) is derived by the chain's first stage:
    the same allocation as from `load_policy(..., recruitment="promotion")` (Bihar s.4(2), second proviso)."""
    c, v = files(tmp_path, [["A", 1, "SC"], ["B", 2, "UR"], ["C", 3, "BC"], ["D", 4, "SC"]],
                 [["X", "TOTAL", 4]])
    derived = load_policy("bihar-1991", recruitment="promotion")
    direct = load_policy("bihar-1991")
    marked = direct.model_copy(update={"recruitment": "promotion"})
    assert DerivePromotion()(StageData(marked, None))[0].policy.roster.points == 50
    prob = read_problem(derived, c, v)
    a = solve(derived, prob, "greedy").result
    b = solve(marked, prob, "greedy").result
    assert list(a.allocation_rows()) == list(b.allocation_rows())
    assert b.policy.roster.points == 50


def test_year_inputs_name_a_folders_years_in_order(tmp_path):
    bihar_years(tmp_path / "years", (2023, 2021))
    (tmp_path / "years" / "2021" / "special").mkdir()
    write_csv(tmp_path / "years" / "2021" / "special" / "candidates.csv", ["id", "rank", "category"], [["S", 1, "SC"]])
    write_csv(tmp_path / "years" / "2021" / "special" / "vacancies.csv", ["post", "category", "vacancies"],
              [["X", "SC", 1]])
    found = read_years(tmp_path / "years")
    assert [y.year for y in found] == [2021, 2023]
    assert isinstance(found[0].special, YearInputs) and found[1].special is None


def test_verify_checks_the_seats_against_the_rows_not_the_vacancy_stage(tmp_path, monkeypatch):
    """A seat table that does not follow from vacancies.csv is a violation even where both engines fill it:
    verify counts the seats a post's rows give on its own (`solver.verify.seats`). Planted: the vacancy stage
    adds one SC vacancy at X to the rows' UR 2, SC 1; both engines fill the 4 vacancies (A, B on merit; C, E SC), and verify, reading
    the same wrong table, still names the post: 4 vacancies solved for where the rows give 3."""
    import solver.chain.vacancy.determine as determine
    from solver.verify import read_allocation, verify
    from solver.outcome.reports import write_outputs

    c, v = files(tmp_path, [["A", 1, "UR"], ["B", 2, "SC"], ["C", 3, "SC"], ["D", 4, "UR"], ["E", 5, "SC"]],
                 [["X", "UR", 2], ["X", "SC", 1]])
    pol = load_policy("central-dopt")
    prob = read_problem(pol, c, v)
    honest = solve(pol, prob, "both")
    write_outputs(tmp_path / "honest", honest.result, {})
    assert verify(pol, prob, read_allocation(tmp_path / "honest" / "allocation.csv", prob, pol)) == []

    split_rows = determine.split_rows

    def planted(policy, problem, state, notes):
        seats, *rest = split_rows(policy, problem, state, notes)
        seats[("X", "SC")] += 1
        return (seats, *rest)
    monkeypatch.setattr(determine, "split_rows", planted)
    wrong = solve(pol, prob, "both")
    assert wrong.differences == 0 and int(wrong.result.selected.sum()) == 4   # both engines accept it
    write_outputs(tmp_path / "wrong", wrong.result, {})
    found = verify(pol, prob, read_allocation(tmp_path / "wrong" / "allocation.csv", prob, pol))
    assert [(x.rule, x.post) for x in found if x.rule == "seats not as given"] == [("seats not as given", "X")]
    assert "4 vacancies solved for, where the rows give 3" in found[0].detail
