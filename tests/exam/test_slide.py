"""One sliding round after the first tentative allocation (SSC notice of 3 March 2026, read from press summaries:
`Policy.slide`): the absent dropped, a fixed post kept, a floater moved only up, the freed seats re-allocated
on merit and preference under the first round's rules. Worked by hand; both engines and verify."""
import hypothesis.strategies as st
from conftest import read_csv, write_csv
from hypothesis import HealthCheck, assume, given, settings
from strategies import instances, materialise
from typer.testing import CliRunner

from solver import load_policy
from solver.cli import app
from solver.errors import Unsupported
from solver.io.readers import read_problem
from solver.outcome.reports import write_outputs
from solver.exam.slide import slide
from solver.chain.solve import solve
from solver.verify import read_allocation
from solver.verify.slide import check_slide

HEAD = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
# Posts A, B, C of one open seat each; everyone ranks A, B, C, but U0, who ranks A alone.
CANDS = [["U1", 100, "UR"], ["U0", 95, "UR"], ["U2", 90, "UR"], ["U3", 80, "UR"], ["U4", 70, "UR"]]
VACS = [["A", "UR", 1], ["B", "UR", 1], ["C", "UR", 1]]
PREFS = [["U0", 1, "A"]] + [[c, k + 1, p] for c in ("U1", "U2", "U3", "U4") for k, p in enumerate("ABC")]


def first_round(tmp_path, sets=()):
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], VACS)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], PREFS)
    pol = load_policy("central-dopt", list(sets))
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    write_outputs(tmp_path / "out", solve(pol, prob, "greedy").result, {})
    return pol, prob, read_csv(tmp_path / "out" / "allocation.csv")


def posts(done):
    return {r[0]: r[1] for r in done.rows}


def test_the_first_round_as_the_round_starts(tmp_path):
    """U1 takes A; U0 wanted only A and is left; U2 B, U3 C; U4 is left."""
    _, _, alloc = first_round(tmp_path)
    assert {r["candidate_id"]: r["post"] for r in alloc} == {"U1": "A", "U2": "B", "U3": "C"}


def test_a_floater_moves_up_into_a_seat_an_absentee_freed_and_a_newcomer_takes_his(tmp_path):
    """U1 does not report; U2 floats, U3 fixes. A is free: U0 (95) wanted it and ranks above U2 (90), so U0 takes
    A; U2 stays at B (he is offered A and B only). Had U0 not been there, U2 would move up to A and U4 take B."""
    pol, prob, alloc = first_round(tmp_path)
    for engine in ("greedy", "cpsat"):
        done = slide(pol, prob, alloc, {"U2": "float", "U3": "fix"}, engine)
        assert posts(done) == {"U0": "A", "U2": "B", "U3": "C"}
    outcome = {m[0]: m[-1] for m in done.moves}
    assert outcome == {"U1": "dropped", "U0": "new", "U2": "stayed", "U3": "kept"}
    cands = [c for c in CANDS if c[0] != "U0"]
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], cands)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], PREFS[1:])
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    done = slide(pol, prob, alloc, {"U2": "float", "U3": "fix"})
    assert posts(done) == {"U2": "A", "U4": "B", "U3": "C"}


def test_a_fixed_post_is_kept_though_a_better_one_frees(tmp_path):
    """U1 absent, U2 fixes B, U3 floats: A goes to U0 (he ranks above U3); U3 stays at C, B being U2's."""
    pol, prob, alloc = first_round(tmp_path)
    done = slide(pol, prob, alloc, {"U2": "fix", "U3": "float"})
    assert posts(done) == {"U0": "A", "U2": "B", "U3": "C"}


def test_without_newcomers_only_floaters_move_and_the_last_seat_is_reported_again(tmp_path):
    """`slide.newcomers = false`: U1 absent, U2 and U3 float. U2 takes A, U3 B; C is left for the next cycle."""
    pol, prob, alloc = first_round(tmp_path, ["slide.newcomers=false"])
    done = slide(pol, prob, alloc, {"U2": "float", "U3": "float"})
    assert posts(done) == {"U2": "A", "U3": "B"}
    assert [r for r in done.unfilled if r[4]] == [["C", "UR", 1, 0, 1, "reported again"]]


def test_verify_checks_the_round(tmp_path):
    """The engines' round passes; planted: U3 (fixed) moved, U2 (floating) moved down to C, U1 (absent) kept;
    U4 (70) given A over U0 (95), who wanted it; and U0, new to the round, given B, which he did not rank (U2
    moving up from B to A is no breach of his float, but passes U0 over at A)."""
    pol, prob, alloc = first_round(tmp_path)
    answers = {"U2": "float", "U3": "fix"}
    done = slide(pol, prob, alloc, answers)
    before = read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)
    write_csv(tmp_path / "s.csv", HEAD, done.rows)
    assert check_slide(pol, prob, before, answers, read_allocation(tmp_path / "s.csv", prob, pol)) == []
    bad = [["U1", "A", "UR", "UR", "", "open_merit", 1], ["U2", "C", "UR", "UR", "", "open_merit", 3],
           ["U3", "B", "UR", "UR", "", "open_merit", 4]]
    write_csv(tmp_path / "b.csv", HEAD, bad)
    found = " | ".join(check_slide(pol, prob, before, answers, read_allocation(tmp_path / "b.csv", prob, pol)))
    assert "U3 fixed" in found and "U2 floated" in found and "U1 did not report" in found
    bad = [["U4", "A", "UR", "UR", "", "open_merit", 5], *[r for r in done.rows if r[0] != "U0"]]
    write_csv(tmp_path / "b.csv", HEAD, bad)
    found = " | ".join(check_slide(pol, prob, before, answers, read_allocation(tmp_path / "b.csv", prob, pol)))
    assert "U0 (merit position 2) is passed over for U4" in found
    bad = [["U0", "B", "UR", "UR", "", "open_merit", 2], ["U2", "A", "UR", "UR", "", "open_merit", 3],
           ["U3", "C", "UR", "UR", "", "open_merit", 4]]
    write_csv(tmp_path / "b.csv", HEAD, bad)
    found = " | ".join(check_slide(pol, prob, before, answers, read_allocation(tmp_path / "b.csv", prob, pol)))
    assert "U0 holds B, a post he did not rank" in found and "U2 floated" not in found


def test_refused_with_a_recommendation_list(tmp_path):
    """upsc-cse draws a recommendation list before services (Rule 16(2)): a sliding round under it is refused
    (exit 3), not guessed."""
    first_round(tmp_path)
    r = CliRunner()
    args = ["solve", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--quiet", "--out", str(tmp_path / "u")]
    assert r.invoke(app, args).exit_code == 0
    write_csv(tmp_path / "resp.csv", ["candidate_id", "response"], [["U2", "float"]])
    res = r.invoke(app, ["slide", "--result", str(tmp_path / "u"), "--responses", str(tmp_path / "resp.csv"),
                         "--out", str(tmp_path / "u2")])
    assert res.exit_code == 3 and "selection_list" in res.output and not (tmp_path / "u2").exists()


def test_slide_from_the_command_line(tmp_path):
    """`aarakshan slide --result DIR --responses R --out D2`, then `verify --stage slide`; a response of a
    candidate not placed, or not among fix, float and absent, is refused (exit 2, line and column)."""
    first_round(tmp_path)
    base = ["solve", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--quiet", "--out", str(tmp_path / "r1")]
    r = CliRunner()
    assert r.invoke(app, base).exit_code == 0
    write_csv(tmp_path / "resp.csv", ["candidate_id", "response"], [["U2", "float"], ["U3", "FIX"]])
    res = r.invoke(app, ["slide", "--result", str(tmp_path / "r1"), "--responses", str(tmp_path / "resp.csv"),
                         "--out", str(tmp_path / "r2"), "--engine", "both"])
    assert res.exit_code == 0, res.output
    assert "1 candidates placed in the first round have no response" in res.output
    assert {x["candidate_id"]: x["outcome"] for x in read_csv(tmp_path / "r2" / "slide.csv")}["U0"] == "new"
    res = r.invoke(app, ["verify", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
                         str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--stage", "slide",
                         "--allocation", str(tmp_path / "r1" / "allocation.csv"), "--responses",
                         str(tmp_path / "resp.csv"), "--slide", str(tmp_path / "r2" / "allocation.csv")])
    assert res.exit_code == 0, res.output
    for rows, where in (([["U4", "float"]], "line 2, column 1"), ([["U2", "maybe"]], "line 2, column 2")):
        write_csv(tmp_path / "bad.csv", ["candidate_id", "response"], rows)
        res = r.invoke(app, ["slide", "--result", str(tmp_path / "r1"), "--responses", str(tmp_path / "bad.csv"),
                             "--out", str(tmp_path / "r3")])
        assert res.exit_code == 2 and where in res.output and not (tmp_path / "r3").exists()


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(inst=instances(max_n=18, policies=["central-dopt", "bihar-1991", "maharashtra-2001"], ranked=True),
       data=st.data(),
       newcomers=st.booleans())
def test_no_floater_moves_down_and_verify_accepts_both_engines(tmp_path_factory, inst, data, newcomers):
    """On random recruitments and responses: both engines' rounds agree, verify accepts them, nobody who floated
    is moved down; a fixed candidate planted elsewhere is found."""
    d = tmp_path_factory.mktemp("s")
    pol, prob = materialise(d, inst)
    pol = pol.model_copy(update={"slide": pol.slide.model_copy(update={"newcomers": newcomers})})
    write_outputs(d / "out", solve(pol, prob, "greedy").result, {})
    alloc = read_csv(d / "out" / "allocation.csv")
    answers = {r["candidate_id"]: data.draw(st.sampled_from(["fix", "float", "absent"])) for r in alloc}
    try:
        done = slide(pol, prob, alloc, answers, "greedy")
    except Unsupported:
        # floaters' lists cut at their posts are preferences, which overall minimums refuse (docs/limits.md)
        assume(False)
    assert slide(pol, prob, alloc, answers, "cpsat").rows == done.rows
    before = read_allocation(d / "out" / "allocation.csv", prob, pol)
    write_csv(d / "s.csv", HEAD, done.rows)
    assert check_slide(pol, prob, before, answers, read_allocation(d / "s.csv", prob, pol)) == []
    rank = prob.post_rank
    index = {cid: i for i, cid in enumerate(prob.candidates.ids)}
    first = {r["candidate_id"]: prob.posts.index(r["post"]) for r in alloc}
    for row in done.rows:
        if answers.get(row[0]) == "float":
            i = index[row[0]]
            assert rank[i, prob.posts.index(row[1])] <= rank[i, first[row[0]]]
    fixed = [r for r in done.rows if answers.get(r[0]) == "fix"]
    if fixed and len(prob.posts) > 1:
        moved = [[*r[:1], prob.posts[(prob.posts.index(r[1]) + 1) % len(prob.posts)], *r[2:]] if r is fixed[0] else r
                 for r in done.rows]
        write_csv(d / "m.csv", HEAD, moved)
        assert check_slide(pol, prob, before, answers, read_allocation(d / "m.csv", prob, pol)) != []
