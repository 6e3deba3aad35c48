"""verify splits a TOTAL row by its own reading of the running roster (DoPT OM 02.07.1997; R.K. Sabharwal
v. State of Punjab 1995), so a split that keeps the row's sum but moves a vacancy between categories is a
violation even where both engines fill it."""
from collections import Counter

from hypothesis import given, settings, strategies as st

from conftest import write_csv
from solver import load_policy, solve
from solver.chain.vacancy import running
from solver.io.readers import read_problem
from solver.policy import Policy
from solver.verify import read_allocation, verify
from solver.verify.roster import roster_points, total_split


def test_a_running_roster_resumes_at_its_next_point():
    """RULES.md's 20-post cadre (SC 15, ST 7.5, OBC 27): OBC 4, 8, 12, 16, 19; SC 7, 15, 20; ST 14. A year of
    five vacancies from point 4 takes points 4-8: OBC, UR, UR, SC, OBC."""
    assert roster_points(load_policy("central-2004"), 4, 5) == ["OBC", "UR", "UR", "SC", "OBC"]
    assert roster_points(load_policy("central-2004"), 13, 3) == ["UR", "ST", "SC"]


def test_bihar_hundred_points_by_the_act():
    """Bihar Act 1991 s.4(2) as amended: SC 16, ST 1, EBC 18, BC 12, WBC 3 of every 100."""
    assert Counter(roster_points(load_policy("bihar-1991"), 1, 100)) == \
        {"SC": 16, "ST": 1, "EBC": 18, "BC": 12, "WBC": 3, "UR": 50}


def test_central_dopt_two_hundred_points():
    """DoPT OM 02.07.1997 with EWS (OM 31.01.2019): 200 x (15%, 7.5%, 27%, 10%) = 30, 15, 54, 20, the rest open."""
    assert Counter(roster_points(load_policy("central-dopt"), 1, 200)) == \
        {"SC": 30, "ST": 15, "OBC": 54, "EWS": 20, "UR": 81}


def test_two_vacancies_carried_over_are_read_for_their_sum_only():
    """Manipur s.4(2)(a) proviso: a year of two vacancies takes the carry-over of the preceding years, which the
    rows alone do not give, so verify reads no split of its own there."""
    from solver.data.problem import VacancyRow
    pol = load_policy("manipur-1976", ['roster.two_vacancies="carry_over"'])
    assert total_split(pol, VacancyRow("X", "TOTAL", 2), None) is None
    assert total_split(pol, VacancyRow("X", "TOTAL", 3), None) == Counter(roster_points(pol, 1, 3))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 300), min_size=1, max_size=6).filter(lambda xs: sum(xs) <= 900),
       st.integers(1, 120), st.integers(1, 300), st.integers(0, 250),
       st.sampled_from(["relative_deficit", "policy_order", "largest_deficit"]))
def test_verify_reads_the_roster_as_the_vacancy_stage_does(permille, cycle, start, count, tie):
    """Property: verify's reading of the due-point rule and the vacancy stage's give every point the same
    category, for any shares, cycle, tie rule and stretch of a running roster."""
    pol = Policy.model_validate({"name": "t", "source": "t", "roster": {"tie": tie, "points": cycle},
                                 "categories": [{"code": f"R{k}", "share": x / 1000} for k, x in enumerate(permille)]})
    assert roster_points(pol, start, count) == running(pol, start, count)


def test_a_roster_split_moved_between_categories_is_caught(tmp_path, monkeypatch):
    """Planted: the vacancy stage gives one of a TOTAL row's SC vacancies to UR, the row's sum unchanged. Both
    engines fill the table they are given and agree; verify, splitting the row by the roster itself (20 points
    of central-2004: SC 3), names the post."""
    import solver.chain.vacancy.determine as determine

    cats = ["UR", "SC", "ST", "OBC"]
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [[f"C{k:02}", k + 1, cats[k % 4]] for k in range(60)])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 20]])
    pol = load_policy("central-2004")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")

    def written(run, name):
        from solver.outcome.reports import write_outputs
        write_outputs(tmp_path / name, run.result, {})
        return read_allocation(tmp_path / name / "allocation.csv", prob, pol)

    assert verify(pol, prob, written(solve(pol, prob, "both"), "honest")) == []

    split_rows = determine.split_rows

    def planted(policy, problem, state, notes):
        seats, *rest = split_rows(policy, problem, state, notes)
        assert seats[("X", "SC")] == 3      # the roster's points 7, 15 and 20
        seats[("X", "SC")] -= 1
        seats[("X", "UR")] += 1
        return (seats, *rest)
    monkeypatch.setattr(determine, "split_rows", planted)
    wrong = solve(pol, prob, "both")
    assert wrong.differences == 0 and int(wrong.result.selected.sum()) == 20   # both engines accept it
    found = [(v.rule, v.post) for v in verify(pol, prob, written(wrong, "wrong")) if v.rule == "seats not as given"]
    assert ("seats not as given", "X") in found
