"""The upgrade-only rule across recruitment cycles (MPSC circular of 13 May 2026, read from press summaries): a
candidate already appointed to a post (candidates.csv `appointed`) is not recommended for that post or for any
post he ranks below it. Worked by hand; both engines and verify."""
import pytest
from conftest import write_csv
from typer.testing import CliRunner

from solver import load_policy
from solver.cli import app
from solver.io.readers import read_problem
from solver.outcome.reports import write_outputs
from solver.chain.solve import solve
from solver.verify import read_allocation, verify

CANDS = [["X", 100, "UR", "B"], ["Y", 90, "UR", ""], ["Z", 80, "UR", ""]]
VACS = [["A", "UR", 1], ["B", "UR", 1], ["C", "UR", 1]]


def run(tmp_path, order_x, engine, cands=CANDS, vacs=VACS, prefs=True):
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "appointed"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], vacs)
    pp = None
    if prefs:
        rows = [["X", k + 1, p] for k, p in enumerate(order_x)]
        rows += [[c, k + 1, p] for c in ("Y", "Z") for k, p in enumerate(["B", "A", "C"])]
        pp = write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], rows)
    pol = load_policy("central-dopt")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", pp)
    res = solve(pol, prob, engine).result
    got = {prob.candidates.ids[i]: prob.posts[res.pools.pools[p].post]
           for i, p in enumerate(res.assignment.pool.tolist()) if p >= 0}
    write_outputs(tmp_path / "out", res, {})
    return pol, prob, got


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_only_posts_above_the_one_he_holds(tmp_path, engine):
    """X (best) holds B and ranks A, B, C: only A is open to him, and he takes it; Y then B, Z C. Had he ranked B
    first, nothing would be open to him: Y takes B, Z A, and C is left."""
    pol, prob, got = run(tmp_path, ["A", "B", "C"], engine)
    assert got == {"X": "A", "Y": "B", "Z": "C"}
    assert verify(pol, prob, read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)) == []
    pol, prob, got = run(tmp_path, ["B", "A", "C"], engine)
    assert got == {"Y": "B", "Z": "A"}
    assert verify(pol, prob, read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)) == []


def test_verify_finds_an_appointment_the_rule_bars(tmp_path):
    """Planted: X given B (the post he holds) or C (below it in his list): each an "upgrade only" breach."""
    pol, prob, _ = run(tmp_path, ["A", "B", "C"], "greedy")
    for post in ("B", "C"):
        rows = [["X", post, "UR", "UR", "", "open_merit", 1]]
        write_csv(tmp_path / "bad.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route",
                                         "rank"], rows)
        found = verify(pol, prob, read_allocation(tmp_path / "bad.csv", prob, pol))
        assert any(v.rule == "upgrade only" and v.candidate == "X" and v.post == post for v in found)


def test_without_preferences_the_post_he_holds_is_barred(tmp_path):
    """One post, no preferences file: X holds P and is not selected for it; Y is."""
    cands = [["X", 100, "UR", "P"], ["Y", 90, "UR", ""]]
    pol, prob, got = run(tmp_path, [], "greedy", cands, [["P", "UR", 1]], prefs=False)
    assert got == {"Y": "P"}
    assert verify(pol, prob, read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)) == []


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_without_preferences_the_file_order_is_his_preference_order(tmp_path, engine):
    """No preferences file: every candidate applies to every post in the file's order (formats.md), so that
    order is his preference order. X (best) holds A, the file's first post: every other post is lower in his
    order, and he is barred from all of them (he was once given B). Y takes A, Z B, C is left. The same answer
    as a preferences file listing the posts in file order, and verify refuses X on B."""
    cands = [["X", 100, "UR", "A"], ["Y", 90, "UR", ""], ["Z", 80, "UR", ""]]
    pol, prob, got = run(tmp_path, [], engine, cands, VACS, prefs=False)
    assert got == {"Y": "A", "Z": "B"}
    assert verify(pol, prob, read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)) == []
    decisions = (tmp_path / "out" / "decisions.csv").read_text()
    assert "X,false,,\"rank 1: there is no vacancy this candidate may hold (holds A already, so is not recommended" in decisions
    assert "(ranked" not in decisions     # (nobody ranked anything: the file's order is no list they gave)
    write_csv(tmp_path / "bad.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route",
                                     "rank"], [["X", "B", "UR", "UR", "", "open_merit", 1]])
    found = verify(pol, prob, read_allocation(tmp_path / "bad.csv", prob, pol))
    assert any(v.rule == "upgrade only" and v.candidate == "X" and v.post == "B" for v in found)


def test_a_post_not_in_this_recruitment_is_told_and_bars_nothing(tmp_path):
    """An appointed post this recruitment does not have (a misspelling, or another cadre's) is said on the
    console, and bars nothing."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "appointed"], [["X", 100, "UR", "Q"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["P", "UR", 1]])
    res = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                   "--vacancies", str(tmp_path / "v.csv"), "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 0 and "appointed post is not among the posts" in res.output
    assert "X,P" in (tmp_path / "o" / "allocation.csv").read_text()


def test_refused_where_the_recommended_take_unranked_posts(tmp_path):
    """upsc-cse gives the recommended without a ranked service the vacancies left (allocate_unranked), which would
    hand X a barred post: refused (exit 3) naming the option."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "appointed"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], VACS)
    res = CliRunner().invoke(app, ["solve", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"),
                                   "--vacancies", str(tmp_path / "v.csv"), "--out", str(tmp_path / "o")])
    assert res.exit_code == 3 and "allocate_unranked" in res.output
    res = CliRunner().invoke(app, ["solve", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"),
                                   "--vacancies", str(tmp_path / "v.csv"), "--out", str(tmp_path / "o"), "--quiet",
                                   "--set", "migration.allocate_unranked=false", "--engine", "both"])
    assert res.exit_code == 0, res.output
    assert "X,B" not in (tmp_path / "o" / "allocation.csv").read_text()


def test_verify_names_the_bar_once_not_a_post_not_applied_for(tmp_path):
    """X holds B, ranked first: given B again he breaks the upgrade-only rule, and that is the one breach named of
    him at B ("post not applied for" was said too, of the post he ranked first)."""
    pol, prob, _ = run(tmp_path, ["B", "A", "C"], "greedy")
    write_csv(tmp_path / "bad.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route",
                                     "rank"], [["X", "B", "UR", "UR", "", "open_merit", 1]])
    found = [(v.rule, v.candidate, v.post) for v in verify(pol, prob, read_allocation(tmp_path / "bad.csv", prob, pol))
             if v.candidate == "X" and v.post == "B"]
    assert found == [("upgrade only", "X", "B")]
