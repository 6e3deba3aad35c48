"""`verify` names the rule an allocation breaks: one planted violation of each kind."""
import pytest
from typer.testing import CliRunner

from conftest import write_csv
from solver import load_policy
from solver.cli import app
from solver.io.readers import read_problem
from solver.verify import read_allocation, verify

HEAD = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
CANDS = ["id", "score", "category", "gender", "creamy_layer", "relaxed"]


def check(tmp_path, policy, cands, vacs, alloc_rows, sets=()):
    write_csv(tmp_path / "c.csv", CANDS, cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "women"], vacs)
    write_csv(tmp_path / "a.csv", HEAD, alloc_rows)
    pol = load_policy(policy, list(sets))
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    return {v.rule for v in verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))}


BASE = [["A", 90, "UR", "M", "", ""], ["B", 85, "SC", "M", "", ""], ["C", 80, "OBC", "M", "true", ""],
        ["D", 70, "SC", "M", "", "true"], ["E", 60, "OBC", "M", "", ""]]
VAC = [["X", "UR", 2, ""], ["X", "SC", 1, ""], ["X", "OBC", 1, ""]]
GOOD = [["A", "X", "UR", "UR", "", "open_merit", 1], ["B", "X", "UR", "UR", "", "open_merit", 2],
        ["D", "X", "SC", "SC", "", "reserved", 4], ["E", "X", "OBC", "OBC", "", "reserved", 5]]


def test_good_allocation_passes(tmp_path):
    assert check(tmp_path, "central-dopt", BASE, VAC, GOOD) == set()


def test_over_capacity(tmp_path):
    rows = GOOD + [["C", "X", "UR", "UR", "", "open_merit", 3]]
    assert "over capacity" in check(tmp_path, "central-dopt", BASE, VAC, rows)


def test_wrong_category(tmp_path):
    """Central Bill 2004 s.11: reserved vacancies may not be filled by others."""
    rows = GOOD[:2] + [["E", "X", "SC", "SC", "", "reserved", 5], ["D", "X", "OBC", "OBC", "", "reserved", 4]]
    assert "wrong category" in check(tmp_path, "central-dopt", BASE, VAC, rows)


def test_justified_envy(tmp_path):
    """Indra Sawhney 1992: open seats go on merit; C (rank 3, creamy, open-eligible) passed over for nobody
    here, so plant it: B's open seat given to E instead."""
    rows = [GOOD[0], ["E", "X", "UR", "UR", "", "open_merit", 5], ["B", "X", "SC", "SC", "", "reserved", 2]]
    assert "justified envy" in check(tmp_path, "central-dopt", BASE, VAC, rows)


def test_relaxed_on_open(tmp_path):
    """DoPT OM 01.07.1998; Deepa E.V. 2017."""
    rows = [GOOD[0], ["D", "X", "UR", "UR", "", "open_merit", 4]]
    assert "relaxed candidate on an open vacancy" in check(tmp_path, "central-dopt", BASE, VAC, rows)


def test_creamy_layer_on_obc(tmp_path):
    """Central Bill 2004 s.3(1)."""
    rows = GOOD[:3] + [["C", "X", "OBC", "OBC", "", "reserved", 3]]
    assert "creamy layer on a reserved vacancy" in check(tmp_path, "central-dopt", BASE, VAC, rows)


def test_exchange_before_own_ran_out(tmp_path):
    """Maharashtra Act 2001 s.4(3): exchange only once the category has no candidates left."""
    cands = [["G", 99, "UR", "M", "", ""], ["G2", 98, "UR", "M", "", ""], ["N1", 90, "NT-B", "M", "", ""],
             ["T1", 80, "DT-A", "M", "", ""]]
    vac = [["X", "UR", 2, ""], ["X", "DT-A", 1, ""], ["X", "NT-B", 0, ""]]
    rows = [["G", "X", "UR", "UR", "", "open_merit", 1], ["G2", "X", "UR", "UR", "", "open_merit", 2],
            ["N1", "X", "DT-A", "NT-B", "", "exchange", 3]]
    assert "exchange before the own category ran out" in check(tmp_path, "maharashtra-2001", cands, vac, rows)


def test_fallback_before_own_ran_out(tmp_path):
    """Bihar Act 1991 s.4(6)."""
    cands = [["G", 99, "UR", "M", "", ""], ["S1", 90, "SC", "M", "", ""], ["W", 80, "BC", "F", "", ""]]
    vac = [["X", "UR", 1, ""], ["X", "WBC", 1, ""]]
    rows = [["G", "X", "UR", "UR", "", "open_merit", 1], ["S1", "X", "WBC", "SC", "", "fallback", 2]]
    got = check(tmp_path, "bihar-1991", cands, vac, rows)
    assert "fallback before the own category ran out" in got


def test_dereservation_forbidden(tmp_path):
    """DoPT OM 20.07.2000: the centre does not de-reserve in direct recruitment."""
    cands = [["A", 90, "UR", "M", "", ""], ["B", 80, "UR", "M", "", ""]]
    rows = [["A", "X", "UR", "UR", "", "open_merit", 1], ["B", "X", "SC", "UR", "", "dereserved", 2]]
    assert "de-reservation forbidden" in check(tmp_path, "central-dopt", cands, [["X", "UR", 1, ""], ["X", "SC", 1, ""]], rows)


def test_ceiling_broken(tmp_path):
    """Central Bill 2004 s.10: the vacancy table itself breaks the 50% ceiling (allowed through by --set)."""
    cands = [["A", 90, "SC", "M", "", ""], ["B", 80, "SC", "M", "", ""]]
    rows = [["A", "X", "SC", "SC", "", "reserved", 1], ["B", "X", "SC", "SC", "", "reserved", 2]]
    assert "ceiling broken" in check(tmp_path, "central-2004", cands, [["X", "UR", 0, ""], ["X", "SC", 2, ""]], rows)


HCANDS = [["G1", 99, "UR", "M", "", ""], ["G2", 95, "UR", "M", "", ""], ["S1", 90, "SC", "M", "", ""], ["S2", 88, "SC", "M", "", ""],
          ["S3", 86, "SC", "F", "", ""], ["S4", 84, "SC", "F", "", ""]]
HVAC = [["X", "UR", 2, ""], ["X", "SC", 2, 1]]


def test_horizontal_shortfall_that_could_be_met(tmp_path):
    """Rajesh Kumar Daria 2007: a shortfall must be met from the remaining beneficiaries."""
    rows = [["G1", "X", "UR", "UR", "", "open_merit", 1], ["G2", "X", "UR", "UR", "", "open_merit", 2],
            ["S1", "X", "SC", "SC", "", "reserved", 3], ["S2", "X", "SC", "SC", "", "reserved", 4]]
    assert "horizontal shortfall that could have been met" in check(tmp_path, "central-2004", HCANDS, HVAC, rows)


def test_horizontal_removal_for_excess(tmp_path):
    """Rajesh Kumar Daria 2007: nobody is removed for an excess of beneficiaries."""
    rows = [["G1", "X", "UR", "UR", "", "open_merit", 1], ["G2", "X", "UR", "UR", "", "open_merit", 2],
            ["S3", "X", "SC", "SC", "women", "reserved", 5], ["S4", "X", "SC", "SC", "women", "horizontal_adjustment", 6]]
    got = check(tmp_path, "central-2004", HCANDS, HVAC, rows)
    assert "removal for excess" in got


def test_horizontal_general_only_reading(tmp_path):
    """Saurav Yadav 2020: where the policy opens open-compartment horizontal seats to all, giving the seat to a
    general woman over a better SC woman is justified envy."""
    cands = [["G1", 99, "UR", "M", "", ""], ["G2", 98, "UR", "M", "", ""], ["S1", 90, "SC", "F", "", ""],
             ["G3", 80, "UR", "F", "", ""], ["S2", 70, "SC", "M", "", ""]]
    vac = [["X", "UR", 2, 1], ["X", "SC", 1, ""]]
    general_only = [["G1", "X", "UR", "UR", "", "open_merit", 1],
                    ["G3", "X", "UR", "UR", "women", "horizontal_adjustment", 4],
                    ["S1", "X", "SC", "SC", "", "reserved", 3]]
    assert "justified envy" in check(tmp_path, "central-2004", cands, vac, general_only)
    assert check(tmp_path, "central-2004", cands, vac, general_only,
                 ["horizontal.open_compartment_for_all=false"]) == set()


def test_verify_cli_exit_codes(tmp_path):
    write_csv(tmp_path / "c.csv", CANDS, BASE)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "women"], VAC)
    write_csv(tmp_path / "good.csv", HEAD, GOOD)
    write_csv(tmp_path / "bad.csv", HEAD, GOOD + [["C", "X", "UR", "UR", "", "open_merit", 3]])
    args = ["verify", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
            "--vacancies", str(tmp_path / "v.csv"), "--allocation"]
    runner = CliRunner()
    assert runner.invoke(app, args + [str(tmp_path / "good.csv")]).exit_code == 0
    bad = runner.invoke(app, args + [str(tmp_path / "bad.csv")])
    assert bad.exit_code == 1 and "over capacity" in bad.stdout


# verify as a judge: every column of allocation.csv is checked, a malformed file is exit 2.

@pytest.mark.parametrize("route", ["exchange", "fallback", "dereserved"])
def test_a_later_phase_route_on_an_open_vacancy_is_named_not_a_crash(tmp_path, route):
    """Exchange, fallback and de-reservation fill reserved vacancies only (SPEC.md allocation.csv)."""
    rows = [["A", "X", "UR", "UR", "", "open_merit", 1], ["B", "X", "UR", "UR", "", route, 2],
            ["D", "X", "SC", "SC", "", "reserved", 3], ["E", "X", "EBC", "EBC", "", "reserved", 4]]
    assert "wrong route" in check(tmp_path, "bihar-1991", BASE_BIHAR, VAC_BIHAR, rows)


def test_route_reserved_on_an_open_vacancy(tmp_path):
    """Open vacancies are filled on merit (Indra Sawhney 1992): route reserved on one is a mislabel."""
    rows = [r if r[0] != "B" else ["B", "X", "UR", "UR", "", "reserved", 2] for r in GOOD]
    assert "wrong route" in check(tmp_path, "central-dopt", BASE, VAC, rows)


def test_a_man_on_a_womens_seat(tmp_path):
    """A seat labelled women must be held by a woman (Anil Kumar Gupta 1995)."""
    rows = [r if r[0] != "A" else ["A", "X", "UR", "UR", "women", "open_merit", 1] for r in GOOD]
    assert "horizontal seat held by a non-beneficiary" in check(tmp_path, "central-dopt", BASE, VAC, rows)


def malformed(tmp_path, bad: dict) -> str:
    """verify's output on GOOD with cells replaced: {(row, column): value}."""
    rows = [list(r) for r in GOOD]
    for (k, column), value in bad.items():
        rows[k][HEAD.index(column)] = value
    write_csv(tmp_path / "c.csv", CANDS, BASE)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "women"], VAC)
    write_csv(tmp_path / "a.csv", HEAD, rows)
    r = CliRunner().invoke(app, ["verify", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--allocation", str(tmp_path / "a.csv")])
    assert r.exit_code == 2, r.output
    return r.output.replace("\n", " ")


@pytest.mark.parametrize("column, value, problem", [("horizontal", "tall", "unknown trait 'tall'"),
                                                    ("counted_as", "XYZ", "unknown category 'XYZ'"),
                                                    ("candidate_id", "Q", "unknown candidate 'Q'"),
                                                    ("post", "Z", "unknown post 'Z'"),
                                                    ("seat_category", "XYZ", "unknown category 'XYZ'"),
                                                    ("route", "walk", "unknown route 'walk'")])
def test_a_malformed_allocation_is_bad_input(tmp_path, column, value, problem):
    out = malformed(tmp_path, {(2, column): value})
    assert problem in out and "line 4" in out and f"column {HEAD.index(column) + 1}" in out


def test_the_first_bad_row_is_named_and_its_first_bad_cell(tmp_path):
    """Row 2 (line 3) has a bad route and a bad post, row 1 (line 2) a bad trait: line 2's trait is named. With
    row 1 good, line 3's post (the post column comes before the route)."""
    two = {(1, "route"): "walk", (1, "post"): "Z"}
    assert "line 2" in (out := malformed(tmp_path, {**two, (0, "horizontal"): "tall"})) and "unknown trait" in out
    assert "line 3" in (out := malformed(tmp_path, two)) and "unknown post 'Z'" in out and "walk" not in out


BASE_BIHAR = [["A", 90, "UR", "M", "", ""], ["B", 85, "SC", "M", "", ""], ["D", 70, "SC", "M", "", ""],
              ["E", 60, "EBC", "M", "", ""]]
VAC_BIHAR = [["X", "UR", 2, ""], ["X", "SC", 1, ""], ["X", "EBC", 1, ""]]



def test_a_post_not_ranked_is_not_held(tmp_path):
    """SPEC.md preferences.csv: an appointee holds a post he ranked. A ranks X then Y, B only Y, C only X (one
    UR seat at each). B placed at X, which he did not rank, is named, and only he: A at Y (ranked second) and C
    nowhere are no such breach, whatever else the allocation breaks."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], [["A", 90, "UR"], ["B", 80, "UR"], ["C", 70, "UR"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["Y", "UR", 1]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [["A", 1, "X"], ["A", 2, "Y"], ["B", 1, "Y"], ["C", 1, "X"]])
    write_csv(tmp_path / "a.csv", HEAD, [["A", "Y", "UR", "UR", "", "open_merit", 1],
                                         ["B", "X", "UR", "UR", "", "open_merit", 2]])
    pol = load_policy("central-dopt")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    found = [(v.candidate, v.post) for v in verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))
             if v.rule == "post not applied for"]
    assert found == [("B", "X")]
