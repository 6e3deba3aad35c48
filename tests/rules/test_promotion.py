"""Reservation in promotion: each answer below is derived by hand from the Acts' text.

- Bihar Act 1991 s.4(2), second proviso: "in case of promotion, reservation shall be made only for Scheduled
  Castes/Scheduled Tribes in the same proportion"; s.6(1): "50 points for promotion"; s.6(2): "separate running
  rosters for recruitment and promotion".
- Bill 2004 s.3(2): SC/ST reserved in promotion "where element of direct recruitment does not exceed seventy-
  five per cent"; s.5(2): an SC/ST candidate filling an unreserved vacancy on merit "by promotion" is not
  adjusted against a reserved vacancy, "Provided that promotions made by the method of non-selection shall not
  be treated as made on the basis of merit"; s.8(2) proviso: "no candidate who is found unfit to hold the post
  shall be appointed"; s.11(2): reserved promotion vacancies "filled only by" SC/ST.
- Manipur Act 1976 s.4(2)(b): the lower grade's SC/ST share on 1 April 1976, not above their population share.
"""
from __future__ import annotations

import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver import load_policy, solve
from solver.cli import app
from solver.errors import InputError, Unsupported
from solver.io.readers import read_problem
from solver.verify import read_allocation, verify

# Seniority (or select-list) order: S1 is SC and the most senior; S5 is SC and the most junior.
LIST = [["S1", 1, "SC", ""], ["U2", 2, "UR", ""], ["U3", 3, "UR", ""], ["U4", 4, "UR", ""], ["S5", 5, "SC", ""]]
ROWS = [["X", "UR", 3, 0.5], ["X", "SC", 1, 0.5]]


def promotion(tmp_path, rows=ROWS, cands=LIST, sets=(), policy="central-2004",
              header=("post", "category", "vacancies", "direct_share")):
    pol = load_policy(policy, [*sets, "recruitment=promotion"])
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "fit"], cands)
    write_csv(tmp_path / "v.csv", list(header), rows)
    return pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")


def selected(sol) -> dict[str, tuple[str, str]]:
    return {r[0]: (r[2], r[5]) for r in sol.result.allocation_rows()}


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_by_selection_an_sc_officer_on_merit_holds_an_unreserved_vacancy(tmp_path, engine):
    """Bill 2004 s.5(2): by selection, S1 (SC, first on the select list) is promoted on merit to an unreserved
    vacancy and not adjusted against the reserved one, which goes to S5; U4 is left out."""
    pol, prob = promotion(tmp_path)
    sol = solve(pol, prob, engine)
    assert selected(sol) == {"S1": ("UR", "open_merit"), "U2": ("UR", "open_merit"), "U3": ("UR", "open_merit"),
                             "S5": ("SC", "reserved")}
    assert verify(pol, prob, _alloc(tmp_path, sol, pol, prob)) == []


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_by_non_selection_an_sc_officer_promoted_by_seniority_counts_against_the_reserved_vacancy(tmp_path, engine):
    """Bill 2004 s.5(2) proviso: promotion by non-selection (seniority-cum-fitness) is not on merit, so S1,
    promoted by seniority, is adjusted against the SC vacancy; the three unreserved go to U2, U3, U4 and S5 is
    left out (the opposite of promotion by selection on the same list)."""
    pol, prob = promotion(tmp_path, sets=["promotion.method=non_selection"])
    assert pol.compartment_order[:2] == ["SC", "ST"] and pol.compartment_order[2] == "UR"
    sol = solve(pol, prob, engine)
    assert selected(sol) == {"S1": ("SC", "reserved"), "U2": ("UR", "open_merit"), "U3": ("UR", "open_merit"),
                             "U4": ("UR", "open_merit")}
    assert verify(pol, prob, _alloc(tmp_path, sol, pol, prob)) == []


def test_verify_tells_the_two_methods_apart(tmp_path):
    """The selection answer, checked as a non-selection promotion, breaks s.5(2) proviso: S1 could have been
    adjusted against the SC vacancy S5 holds; and the other way round."""
    pol_sel, prob = promotion(tmp_path)
    by_selection = _alloc(tmp_path, solve(pol_sel, prob, "greedy"), pol_sel, prob)
    pol_non, prob_non = promotion(tmp_path, sets=["promotion.method=non_selection"])
    rules = {v.rule for v in verify(pol_non, prob_non, by_selection)}
    assert "justified envy" in rules
    by_seniority = _alloc(tmp_path, solve(pol_non, prob_non, "greedy"), pol_non, prob_non)
    assert {v.rule for v in verify(pol_sel, prob, by_seniority)} & {"justified envy",
                                                                     "vacancy left while an eligible candidate wanted it"}


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_one_found_unfit_is_promoted_to_nothing(tmp_path, engine):
    """Bill 2004 s.8(2) proviso; Manipur s.9: S1 is found unfit. By non-selection the SC vacancy passes to
    the next SC officer in seniority, S5; the unreserved to U2, U3, U4. verify rejects an allocation that
    promotes S1 anyway, naming the rule."""
    cands = [["S1", 1, "SC", "false"], *LIST[1:]]
    pol, prob = promotion(tmp_path, cands=cands, sets=["promotion.method=non_selection"])
    sol = solve(pol, prob, engine)
    assert selected(sol) == {"S5": ("SC", "reserved"), "U2": ("UR", "open_merit"), "U3": ("UR", "open_merit"),
                             "U4": ("UR", "open_merit")}
    write_csv(tmp_path / "bad.csv", ["candidate_id", "post", "seat_category", "counted_as", "route"],
              [["S1", "X", "SC", "SC", "reserved"], ["U2", "X", "UR", "UR", "open_merit"],
               ["U3", "X", "UR", "UR", "open_merit"], ["U4", "X", "UR", "UR", "open_merit"]])
    rules = [v.rule for v in verify(pol, prob, read_allocation(tmp_path / "bad.csv", prob, pol))]
    assert rules.count("appointed though found unfit") == 1
    reasons = {r["candidate_id"]: r["reason"] for r in _decisions(tmp_path, sol)}
    assert "found unfit" in reasons["S1"]


def test_bihar_promotion_reserves_sc_and_st_only_on_a_50_point_roster(tmp_path):
    """Bihar s.4(2) second proviso and s.6(1): SC 16% on a 50-point roster falls due where floor(n x 0.16)
    first reaches 1, 2, ... 8: points 7, 13, 19, 25, 32, 38, 44, 50; ST's 1% gives no point in 50; EBC, BC and
    WBC none at all. A TOTAL row of 7 vacancies therefore splits UR 6, SC 1, and an EBC officer competes for
    the unreserved vacancies only."""
    r = CliRunner().invoke(app, ["roster", "--policy", "bihar-1991", "--recruitment", "promotion", "--points", "50"])
    assert r.exit_code == 0, r.output
    points = [line.split(",") for line in r.output.strip().splitlines()[1:]]
    assert [int(p) for p, c in points if c == "SC"] == [7, 13, 19, 25, 32, 38, 44, 50]
    assert {c for _, c in points} == {"UR", "SC"}
    pol, prob = promotion(tmp_path, policy="bihar-1991", rows=[["X", "TOTAL", 7]],
                          header=("post", "category", "vacancies"),
                          cands=[["E1", 1, "EBC", ""], ["S2", 2, "SC", ""], ["U3", 3, "UR", ""]])
    sol = solve(pol, prob, "greedy")
    assert {c: v for (p, c), v in sol.result.seats.seats.items() if v} == {"UR": 6, "SC": 1}
    assert selected(sol)["E1"] == ("UR", "open_merit")


def test_a_category_not_reserved_in_promotion_is_refused_on_its_row(tmp_path):
    """Bill 2004 s.3(2) reserves promotions for SC and ST: an OBC promotion vacancy is an input error naming
    the file, the line and the column."""
    with pytest.raises(InputError, match=r"v.csv, line 3, column category.*OBC is not reserved in promotion"):
        pol, prob = promotion(tmp_path, rows=[["X", "UR", 3, 0.5], ["X", "OBC", 1, 0.5]])
        solve(pol, prob, "greedy")


def test_no_reservation_in_promotion_where_direct_recruitment_is_above_75_percent(tmp_path):
    """Bill 2004 s.3(2): a grade 80% filled by direct recruitment has no reservation in promotion: the TOTAL row
    is all open (S1 promoted on seniority to an open vacancy, no SC vacancy at all); without the grade's
    direct_share the Act cannot be applied, which is an input error; an SC row there contradicts the Act."""
    pol, prob = promotion(tmp_path, rows=[["X", "TOTAL", 4, 0.8]])
    sol = solve(pol, prob, "greedy")
    assert {c: v for (p, c), v in sol.result.seats.seats.items() if v} == {"UR": 4}
    assert any("above 75%: no reservation in promotion" in n for n in sol.result.seats.notes)
    with pytest.raises(InputError, match="column direct_share.*at most 75%"):
        pol, prob = promotion(tmp_path, rows=[["X", "TOTAL", 4, ""]])
        solve(pol, prob, "greedy")
    with pytest.raises(InputError, match="column category.*above 75%"):
        pol, prob = promotion(tmp_path, rows=[["X", "UR", 3, 0.8], ["X", "SC", 1, 0.8]])
        solve(pol, prob, "greedy")
    with pytest.raises(InputError, match="direct_share decides reservation in promotion"):
        read_problem(load_policy("central-2004"), tmp_path / "c.csv", tmp_path / "v.csv")


def test_no_de_reservation_of_reserved_promotion_vacancies_at_the_centre(tmp_path):
    """Bill 2004 s.11(2): reserved promotion vacancies go to SC/ST only. With no SC officer on the list the SC
    vacancy stays unfilled even by non-selection, where U4 waits."""
    cands = [r for r in LIST if r[2] == "UR"]
    pol, prob = promotion(tmp_path, cands=[[c[0], k + 1, c[2], ""] for k, c in enumerate(cands)],
                          sets=["promotion.method=non_selection"])
    assert pol.unfilled.dereserve is False
    sol = solve(pol, prob, "greedy")
    assert set(selected(sol)) == {"U2", "U3", "U4"}


def test_manipur_promotion_share_is_the_1976_lower_grade_share_capped_at_the_population_share():
    """Manipur s.4(2)(b): the promotion share is the lower grade's share on 1 April 1976, which the Act does
    not give (refused until given, exit 3), and never above the population share: SC 5% in the lower grade is
    capped at 2%; ST 20% stays 20% (under 31%)."""
    with pytest.raises(Unsupported, match="s.4\\(2\\)\\(b\\).*promotion.categories.SC.share"):
        load_policy("manipur-1976", ["recruitment=promotion"])
    pol = load_policy("manipur-1976", ["recruitment=promotion", "promotion.categories.SC.share=0.05",
                                       "promotion.categories.ST.share=0.2"])
    assert {c.code: c.share for c in pol.categories} == {"SC": 0.02, "ST": 0.2}
    assert pol.compartment_order == ["SC", "ST", "UR"]   # s.9: seniority-cum-fitness


def test_a_policy_without_promotion_rules_is_refused_naming_the_section(tmp_path):
    """Maharashtra Act 2001 s.4(2) reserves "at the stage of direct recruitment": a promotion under it is
    refused with exit 3, and nothing is written."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["A", 1, "SC"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 1]])
    r = CliRunner().invoke(app, ["solve", "--policy", "maharashtra-2001", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--out", str(tmp_path / "o"),
                                 "--recruitment", "promotion"])
    assert r.exit_code == 3 and "direct recruitment" in r.output and not (tmp_path / "o").exists()
    assert "([promotion] table)" in r.output   # (the message is not read as rich markup)


def test_promotion_keeps_its_own_register(tmp_path):
    """Bihar s.6(2): separate running rosters for recruitment and promotion. A promotion against a register of
    direct recruitment is refused (exit 2, nothing written); in its own register the promotion roster runs on
    its 50 points: 7 vacancies in 2021 use points 1-7 (SC at 7), 2022 resumes at point 8."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["S1", 1, "SC"], ["U2", 2, "UR"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 7]])

    def run(year, reg, kind):
        return CliRunner().invoke(app, ["solve", "--policy", "bihar-1991", "--candidates", str(tmp_path / "c.csv"),
                                        "--vacancies", str(tmp_path / "v.csv"), "--out", str(tmp_path / f"o{year}{kind}"),
                                        "--engine", "greedy", "--register", str(tmp_path / reg), "--year", str(year),
                                        "--recruitment", kind, "--quiet"])
    assert run(2021, "direct.sqlite", "direct").exit_code == 0
    r = run(2022, "direct.sqlite", "promotion")
    assert r.exit_code == 2 and "s.6(2)" in r.output and not (tmp_path / "o2022promotion").exists()
    assert run(2021, "promotion.sqlite", "promotion").exit_code == 0
    assert run(2022, "promotion.sqlite", "promotion").exit_code == 0
    summary = (tmp_path / "o2022promotion" / "summary.json").read_text()
    assert "50-point roster from point 8" in summary


def test_a_promotion_runs_summary_is_read_back_as_its_policy_from_another_folder(tmp_path, monkeypatch):
    """A promotion run's summary.json given as --policy from another folder (its model a relative path, with
    an override) solves the promotion again to the same allocation, and verify accepts it."""
    import shutil
    from pathlib import Path
    run = tmp_path / "a"
    run.mkdir()
    write_csv(run / "c.csv", ["id", "rank", "category"], [["S1", 1, "SC"], ["U2", 2, "UR"]])
    write_csv(run / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 7]])
    shutil.copy(Path(__file__).parents[2] / "models" / "bihar-1991.toml", run / "mine.toml")
    monkeypatch.chdir(run)
    first = CliRunner().invoke(app, ["solve", "--policy", "mine.toml", "--candidates", "c.csv", "--vacancies", "v.csv",
                                     "--out", "out", "--recruitment", "promotion", "--engine", "greedy", "--quiet",
                                     "--set", "promotion.roster_points=50"])
    assert first.exit_code == 0, first.output
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "b")
    again = ["--policy", "../a/out/summary.json", "--candidates", "../a/c.csv", "--vacancies", "../a/v.csv",
             "--recruitment", "promotion"]
    r = CliRunner().invoke(app, ["solve", *again, "--out", "out", "--engine", "greedy", "--quiet"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "b" / "out" / "allocation.csv").read_text() == (run / "out" / "allocation.csv").read_text()
    r = CliRunner().invoke(app, ["verify", *again, "--allocation", "../a/out/allocation.csv"])
    assert r.exit_code == 0 and "every rule holds" in r.output, r.output


def _decisions(tmp_path, sol):
    from solver.outcome.reports import write_outputs
    write_outputs(tmp_path / "out", sol.result, {})
    return read_csv(tmp_path / "out" / "decisions.csv")


def _alloc(tmp_path, sol, pol, prob):
    rows = [r[:6] for r in sol.result.allocation_rows()]
    write_csv(tmp_path / "alloc.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              rows)
    return read_allocation(tmp_path / "alloc.csv", prob, pol)


def test_a_senior_group_a_selection_is_refused_naming_s3_3(tmp_path):
    """Bill 2004 s.3(3) (SC/ST officers within the number of vacancies by seniority included unless unfit) is
    not modelled: a post of that class is refused with exit 3, not solved as an ordinary selection."""
    pol, prob = promotion(tmp_path, rows=[["X", "UR", 3, 0.5, "A-senior"], ["X", "SC", 1, 0.5, "A-senior"]],
                          header=("post", "category", "vacancies", "direct_share", "post_class"))
    with pytest.raises(Unsupported, match=r"s\.3\(3\)"):
        solve(pol, prob, "greedy")


GROUPS = ("post", "category", "vacancies", "direct_share", "post_class", "feeder_class")


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_a_group_a_selection_from_group_a_is_not_reserved(tmp_path, engine):
    """Bill 2004 s.3(2)(b): by selection, reservation in promotion "from Group B post to Group A post or in Group
    B, Group C or Group D posts". Four vacancies of a Group A post filled from Group A: not reserved, so all four
    are open and go down the select list (S1, U2, U3, U4); S5 (SC, fifth), who would take the SC vacancy of a
    Group B to Group A promotion, is not promoted. Filled from Group B, the same TOTAL row has an SC vacancy
    (the central roster's first four points: UR 1-3, OBC 4, OBC unreserved in promotion)."""
    pol, prob = promotion(tmp_path, rows=[["X", "TOTAL", 4, 0.5, "A", "A"]], header=GROUPS)
    sol = solve(pol, prob, engine)
    assert {c: v for (p, c), v in sol.result.seats.seats.items() if v} == {"UR": 4}
    assert sorted(selected(sol)) == ["S1", "U2", "U3", "U4"]
    assert any("promotion by selection to a A post from A: not reserved" in n for n in sol.result.seats.notes)
    assert verify(pol, prob, _alloc(tmp_path, sol, pol, prob)) == []
    pol, prob = promotion(tmp_path, rows=[["X", "UR", 3, 0.5, "B", "C"], ["X", "SC", 1, 0.5, "B", "C"]],
                          header=GROUPS)
    assert selected(solve(pol, prob, engine))["S5"] == ("SC", "reserved")   # within Group B: reserved


def test_a_group_a_selection_needs_the_grade_it_is_filled_from(tmp_path):
    """s.3(2)(b) reserves a Group A selection only from Group B: without `feeder_class` the row is bad input
    naming the column; an SC row of a Group A post filled from Group A contradicts the section."""
    with pytest.raises(InputError, match="reserved only from B") as e:
        solve(*promotion(tmp_path, rows=[["X", "TOTAL", 4, 0.5, "A", ""]], header=GROUPS), "greedy")
    assert (e.value.line, e.value.column) == (2, "feeder_class")
    with pytest.raises(InputError, match="SC vacancies at X, where promotion by selection to a A post from A"):
        solve(*promotion(tmp_path, rows=[["X", "UR", 3, 0.5, "A", "A"], ["X", "SC", 1, 0.5, "A", "A"]],
                         header=GROUPS), "greedy")
