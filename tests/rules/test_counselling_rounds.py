"""A round of counselling after the first (JoSAA's freeze, float, slide and withdraw; RULES.md, "Counselling":
"a candidate freezes, floats, slides (within the institute) or withdraws after each round"; the Business Rules'
own text was not read): freeze keeps the seat, withdraw gives it up, float may move to any choice above the
seat, slide only to one of the same institute, and nobody moves down. Worked by hand; both engines and verify."""
import numpy as np
from conftest import read_csv, write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver import load_policy
from solver.chain.pools.reuse import earlier_lists, lists_of_fewer
from solver.chain.solve import solve
from solver.cli import app
from solver.exam.slide import round_cutoffs, slide
from solver.io.readers import read_problem
from solver.outcome.reports import write_outputs
from solver.verify import read_allocation
from solver.verify.slide import check_slide

# Institute I1 has CSE and EE, institute I2 has ME; one OPEN seat each. Everyone ranks I2-ME, I1-CSE, I1-EE.
CANDS = [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"], ["D", 4, "OPEN"]]
VACS = [["I1-CSE", "OPEN", 1, "I1"], ["I1-EE", "OPEN", 1, "I1"], ["I2-ME", "OPEN", 1, "I2"]]
PREFS = [[c, k + 1, p] for c in "ABCD" for k, p in enumerate(["I2-ME", "I1-CSE", "I1-EE"])]


def first_round(tmp_path):
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "institute"], VACS)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], PREFS)
    pol = load_policy("josaa-2025")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    write_outputs(tmp_path / "out", solve(pol, prob, "greedy").result, {})
    return pol, prob, read_csv(tmp_path / "out" / "allocation.csv")



def round_one_by_command(tmp_path) -> list[str]:
    """The first round solved by `aarakshan solve` into r1/; returns the inputs' options."""
    first_round(tmp_path)
    base = ["--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"),
            "--preferences", str(tmp_path / "p.csv")]
    r = CliRunner().invoke(app, ["solve", *base, "--engine", "greedy", "--quiet", "--out", str(tmp_path / "r1")])
    assert r.exit_code == 0, r.output
    return base

def test_round_one(tmp_path):
    """A takes I2-ME, B I1-CSE, C I1-EE; D is left."""
    _, _, alloc = first_round(tmp_path)
    assert {r["candidate_id"]: r["post"] for r in alloc} == {"A": "I2-ME", "B": "I1-CSE", "C": "I1-EE"}


def test_a_slider_stays_in_his_institute_and_a_floater_may_leave_it(tmp_path):
    """A withdraws, freeing I2-ME; B freezes I1-CSE. C slides: I2-ME is of another institute, and I1-CSE (his
    institute's, above his seat) is frozen, so C stays at I1-EE and D, the newcomer, takes I2-ME. Had C
    floated, he would take I2-ME and D nothing (I1-EE is C's until he moves, then D's: D takes I1-EE)."""
    pol, prob, alloc = first_round(tmp_path)
    for engine in ("greedy", "cpsat"):
        done = slide(pol, prob, alloc, {"A": "withdraw", "B": "freeze", "C": "slide"}, engine)
        assert {r[0]: r[1] for r in done.rows} == {"B": "I1-CSE", "C": "I1-EE", "D": "I2-ME"}
    assert {m[0]: (m[1], m[-1]) for m in done.moves} == {"A": ("withdraw", "dropped"), "B": ("freeze", "kept"),
                                                         "C": ("slide", "stayed"), "D": ("", "new")}
    assert done.rounds["slid"] == 1 and done.rounds["fixed"] == 1 and done.rounds["absent"] == 1
    floated = slide(pol, prob, alloc, {"A": "withdraw", "B": "freeze", "C": "float"})
    assert {r[0]: r[1] for r in floated.rows} == {"B": "I1-CSE", "C": "I2-ME", "D": "I1-EE"}


def test_a_slider_moves_up_within_his_institute(tmp_path):
    """B withdraws, freeing I1-CSE; C slides up to it (same institute); D takes I1-EE."""
    pol, prob, alloc = first_round(tmp_path)
    done = slide(pol, prob, alloc, {"A": "freeze", "B": "withdraw", "C": "slide"})
    assert {r[0]: r[1] for r in done.rows} == {"A": "I2-ME", "C": "I1-CSE", "D": "I1-EE"}


def test_verify_refuses_a_slide_to_another_institute(tmp_path):
    """C slid to I2-ME, of another institute: refused, naming the rule; the lawful round is accepted."""
    pol, prob, alloc = first_round(tmp_path)
    before = read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)
    answers = {"A": "withdraw", "B": "freeze", "C": "slide"}
    head = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"]
    write_csv(tmp_path / "bad.csv", head, [["B", "I1-CSE", "OPEN", "OPEN", "", "open_merit"],
                                           ["C", "I2-ME", "OPEN", "OPEN", "", "open_merit"],
                                           ["D", "I1-EE", "OPEN", "OPEN", "", "open_merit"]])
    found = check_slide(pol, prob, before, answers, read_allocation(tmp_path / "bad.csv", prob, pol))
    assert any("at another institute" in str(f) and "a slide is within the institute" in str(f) for f in found)
    done = slide(pol, prob, [dict(r) for r in alloc], answers)
    write_csv(tmp_path / "good.csv", head, [r[:6] for r in done.rows])
    assert check_slide(pol, prob, before, answers, read_allocation(tmp_path / "good.csv", prob, pol)) == []


def test_the_command_line_takes_josaa_words(tmp_path):
    first_round(tmp_path)
    r = CliRunner().invoke(app, ["solve", "--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"),
                                 "--engine", "greedy", "--quiet", "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    write_csv(tmp_path / "r.csv", ["candidate_id", "response"], [["A", "withdraw"], ["B", "freeze"], ["C", "slide"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "out"), "--responses", str(tmp_path / "r.csv"),
                                 "--out", str(tmp_path / "r2")])
    assert r.exit_code == 0, r.output
    assert "1 slid" in r.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "r2" / "allocation.csv")} == \
        {"B": "I1-CSE", "C": "I1-EE", "D": "I2-ME"}
    r = CliRunner().invoke(app, ["verify", "--stage", "slide", "--policy", "josaa-2025", "--candidates",
                                 str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"), "--preferences",
                                 str(tmp_path / "p.csv"), "--allocation", str(tmp_path / "out" / "allocation.csv"),
                                 "--responses", str(tmp_path / "r.csv"),
                                 "--slide", str(tmp_path / "r2" / "allocation.csv")])
    assert r.exit_code == 0, r.output



def test_the_same_rank_rule_in_a_later_round(tmp_path):
    """JoSAA Business Rules, "Multiple student - same rank rule" (as summarised: candidates of the same rank
    seeking the last seats are all admitted, over the number), in a round after the first. X (institute I1)
    and Y (I2) have one OPEN seat each, ranked on list adv: A 1, B and C both 2, D 3. A, B and D want X; C
    wants X, then Y. Round 1: A holds X; C, turned away there, holds Y; B and D nothing. Round 2: A withdraws
    and C floats: B and C, of the same rank, seek X's one seat and both hold it (one over the number); D, rank
    3, does not; Y is left. verify --stage slide accepts it, names B left out where only C holds X, and
    refuses D as a third holder."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [[x, k + 1, "OPEN"] for k, x in enumerate("ABCD")])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "merit_list", "institute"],
              [["X", "OPEN", 1, "adv", "I1"], ["Y", "OPEN", 1, "adv", "I2"]])
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], [["A", "adv", 1], ["B", "adv", 2],
                                                                    ["C", "adv", 2], ["D", "adv", 3]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [["A", 1, "X"], ["B", 1, "X"], ["C", 1, "X"], ["C", 2, "Y"], ["D", 1, "X"]])
    pol = load_policy("josaa-2025")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv", ranks=tmp_path / "r.csv")
    write_outputs(tmp_path / "out", solve(pol, prob, "greedy").result, {})
    alloc = read_csv(tmp_path / "out" / "allocation.csv")
    assert {r["candidate_id"]: r["post"] for r in alloc} == {"A": "X", "C": "Y"}
    answers = {"A": "withdraw", "C": "float"}
    done = slide(pol, prob, [dict(r) for r in alloc], answers, "greedy")
    assert {r[0]: r[1] for r in done.rows} == {"B": "X", "C": "X"}
    before = read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)
    head = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"]

    def judged(holders):
        write_csv(tmp_path / "a.csv", head, [[x, "X", "OPEN", "OPEN", "", "open_merit"] for x in holders])
        return [str(f) for f in check_slide(pol, prob, before, answers, read_allocation(tmp_path / "a.csv", prob, pol))]
    assert judged("BC") == []
    left = judged("C")
    assert len(left) == 1 and left[0].startswith("B is of the same rank") and "same rank left out" in left[0]
    assert judged("BCD") == ["3 hold the OPEN seats at X, where the first round had 1"]

def test_seats_left_unfilled_are_converted_for_the_next_round(tmp_path):
    """P: one OPEN seat, one OBC-NCL seat, one OPEN seat for PwD. No OBC-NCL or PwD candidate: round 1 fills only
    OPEN (A). Between rounds the OBC-NCL seat becomes OPEN, and the PwD seat P's own OPEN seat (josaa-2025's
    conversions). A freezes; round 2 gives the two seats to B and C, the best left; D stays out. verify derives
    the two seats itself: the same round with D in C's place is refused (C passed over), and a third newcomer
    beyond the converted seats is refused too."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "trait"],
              [["P", "OPEN", 1, ""], ["P", "OBC-NCL", 1, ""], ["P", "OPEN", 1, "pwbd"]])
    pol = load_policy("josaa-2025")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    write_outputs(tmp_path / "out", solve(pol, prob, "greedy").result, {})
    alloc = read_csv(tmp_path / "out" / "allocation.csv")
    assert [(r["candidate_id"], r["post"]) for r in alloc] == [("A", "P")]
    for engine in ("greedy", "cpsat"):
        done = slide(pol, prob, alloc, {"A": "freeze"}, engine)
        assert {r[0]: (r[1], r[2]) for r in done.rows} == {"A": ("P", "OPEN"), "B": ("P", "OPEN"), "C": ("P", "OPEN")}
    assert [r for r in done.unfilled if r[0] == "P"] == [["P", "OPEN", 2, 2, 0, ""]]
    before = read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)
    head = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"]
    write_csv(tmp_path / "good.csv", head, [r[:6] for r in done.rows])
    assert check_slide(pol, prob, before, {"A": "freeze"}, read_allocation(tmp_path / "good.csv", prob, pol)) == []
    rows = [["A", "P", "OPEN", "OPEN", "", "open_merit"], ["B", "P", "OPEN", "OPEN", "", "open_merit"],
            ["D", "P", "OPEN", "OPEN", "", "open_merit"]]
    write_csv(tmp_path / "bad.csv", head, rows)
    found = check_slide(pol, prob, before, {"A": "freeze"}, read_allocation(tmp_path / "bad.csv", prob, pol))
    assert any("C (merit position 3) is passed over for D" in str(f) for f in found)
    write_csv(tmp_path / "bad2.csv", head, rows[:2] + [["C", "P", "OPEN", "OPEN", "", "open_merit"]] + rows[2:])
    found = check_slide(pol, prob, before, {"A": "freeze"}, read_allocation(tmp_path / "bad2.csv", prob, pol))
    assert any("4 hold the OPEN seats at P" in str(f) for f in found)


def test_one_who_withdrew_takes_no_part_in_later_rounds(tmp_path):
    """Round 2: A withdraws (I2-ME freed), B and C freeze; D takes I2-ME. Round 3: D withdraws; A, gone since
    round 2, is not a newcomer though he is unplaced and ranks I2-ME first: the seat stays empty. withdrawn.csv
    carries A (and then D) from round to round; verify, given it, refuses A placed in round 3."""
    base = round_one_by_command(tmp_path)
    write_csv(tmp_path / "a2.csv", ["candidate_id", "response"], [["A", "withdraw"], ["B", "freeze"], ["C", "freeze"]])
    write_csv(tmp_path / "a3.csv", ["candidate_id", "response"], [["B", "freeze"], ["C", "freeze"], ["D", "withdraw"]])
    for k, answers in ((2, "a2.csv"), (3, "a3.csv")):
        r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / f"r{k - 1}"), "--responses",
                                     str(tmp_path / answers), "--out", str(tmp_path / f"r{k}")])
        assert r.exit_code == 0, r.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "r2" / "allocation.csv")}["D"] == "I2-ME"
    assert {x["candidate_id"] for x in read_csv(tmp_path / "r3" / "allocation.csv")} == {"B", "C"}
    assert [x["candidate_id"] for x in read_csv(tmp_path / "r3" / "withdrawn.csv")] == ["A", "D"]
    check = ["verify", "--stage", "slide", *base, "--allocation", str(tmp_path / "r2" / "allocation.csv"),
             "--responses", str(tmp_path / "a3.csv"), "--withdrawn", str(tmp_path / "r2" / "withdrawn.csv")]
    r = CliRunner().invoke(app, [*check, "--slide", str(tmp_path / "r3" / "allocation.csv")])
    assert r.exit_code == 0, r.output
    write_csv(tmp_path / "bad.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [["A", "I2-ME", "OPEN", "OPEN", "", "open_merit"], ["B", "I1-CSE", "OPEN", "OPEN", "", "open_merit"],
               ["C", "I1-EE", "OPEN", "OPEN", "", "open_merit"]])
    r = CliRunner().invoke(app, [*check, "--slide", str(tmp_path / "bad.csv")])
    assert r.exit_code == 1 and "left the counselling in an earlier round" in r.output



def test_a_freeze_is_final(tmp_path):
    """A candidate who freezes accepts the seat and takes no part in later rounds (JoSAA's freeze as summarised;
    IIT Bombay's UCEED 2020 allotment rules, a sister joint allocation: such candidates "will NOT be considered
    in subsequent rounds"). Round 2: A withdraws (I2-ME freed), B freezes I1-CSE, C floats and takes I2-ME, D
    takes I1-EE. Round 3: a response of float for B is refused, naming the file, line and column; without a
    response B keeps I1-CSE (not absent), and the third round's slide.csv says he froze."""
    base = round_one_by_command(tmp_path)
    write_csv(tmp_path / "a2.csv", ["candidate_id", "response"], [["A", "withdraw"], ["B", "freeze"], ["C", "float"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r1"), "--responses", str(tmp_path / "a2.csv"),
                                 "--out", str(tmp_path / "r2")])
    assert r.exit_code == 0, r.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "r2" / "allocation.csv")} == \
        {"B": "I1-CSE", "C": "I2-ME", "D": "I1-EE"}
    write_csv(tmp_path / "a3.csv", ["candidate_id", "response"], [["C", "freeze"], ["B", "float"], ["D", "freeze"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r2"), "--responses", str(tmp_path / "a3.csv"),
                                 "--out", str(tmp_path / "r3")])
    assert r.exit_code == 2 and "line 3" in r.output and "response" in r.output and "froze" in r.output, r.output
    assert not (tmp_path / "r3").exists()
    write_csv(tmp_path / "a3.csv", ["candidate_id", "response"], [["C", "freeze"], ["D", "freeze"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r2"), "--responses", str(tmp_path / "a3.csv"),
                                 "--out", str(tmp_path / "r3")])
    assert r.exit_code == 0 and "no response" not in r.output, r.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "r3" / "allocation.csv")} == \
        {"B": "I1-CSE", "C": "I2-ME", "D": "I1-EE"}
    assert {x["candidate_id"]: x["response"] for x in read_csv(tmp_path / "r3" / "slide.csv")}["B"] == "freeze"
    # verify, told who froze before, takes B as fixing; it reads the slide.csv beside the round before's
    # allocation by itself, and says so; told of a record where nobody froze, it takes B as absent yet holding
    check = ["verify", "--stage", "slide", *base, "--allocation", str(tmp_path / "r2" / "allocation.csv"),
             "--responses", str(tmp_path / "a3.csv"), "--slide", str(tmp_path / "r3" / "allocation.csv")]
    r = CliRunner().invoke(app, [*check, "--frozen", str(tmp_path / "r2" / "slide.csv")])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, check)
    assert r.exit_code == 0 and "slide.csv beside --allocation" in r.output, r.output
    write_csv(tmp_path / "none.csv", ["candidate_id", "response"], [])
    r = CliRunner().invoke(app, [*check, "--frozen", str(tmp_path / "none.csv")])
    assert r.exit_code == 1 and "B did not report" in r.output, r.output

@st.composite
def counselling(draw):
    """Up to 8 candidates (category, gender, home state), up to 4 programs at 2 institutes, each split by gender pool
    and (at one institute) by home-state quota, random preferences, and a response for each placed. The merit
    lists: the candidates' own rank everywhere, or an IIT-like list for the first institute's programs, or an
    OBC-NCL rank list of its own for the OBC-NCL seats (a category ranked apart from the post's other seats), or
    both; each list some of the candidates in a drawn order (the ranks file's rows)."""
    n = draw(st.integers(1, 8))
    cands = [[f"C{i}", i + 1, draw(st.sampled_from(["OPEN", "OPEN", "OBC-NCL"])), draw(st.sampled_from("MF")),
              draw(st.sampled_from(["KA", "MH"]))] for i in range(n)]
    programs = [("I1-A", "I1"), ("I1-B", "I1"), ("I2-A", "I2"), ("I2-B", "I2")][:draw(st.integers(1, 4))]
    ranks = []
    for name, wanted in (("adv", [c[0] for c in cands]), ("obc", [c[0] for c in cands if c[2] != "OPEN"])):
        if wanted and draw(st.booleans()):
            listed = draw(st.permutations(wanted))[:draw(st.integers(1, len(wanted)))]
            ranks += [[cid, name, k + 1] for k, cid in enumerate(listed)]
    adv, obc = (any(r[1] == name for r in ranks) for name in ("adv", "obc"))

    def merit_list(inst, category):
        return "obc" if obc and category != "OPEN" else "adv" if adv and inst == "I1" else ""
    vacs = []
    for name, inst in programs:
        quotas = [("AI", "")] if inst == "I1" else [("HS", "KA"), ("OS", "KA")]
        for quota, state in quotas:
            for gender in ("neutral", "female")[:draw(st.integers(1, 2))]:
                k = draw(st.integers(0, 1))     # (open at least half of each pool: within the 50% ceiling)
                vacs += [[name, "OPEN", k + draw(st.integers(0, 1)), quota, state, gender, inst, merit_list(inst, "OPEN")],
                         [name, "OBC-NCL", k, quota, state, gender, inst, merit_list(inst, "OBC-NCL")]]
    prefs = {c[0]: list(draw(st.permutations([p for p, _ in programs])))[:draw(st.integers(0, len(programs)))]
             for c in cands}
    answers = {c[0]: draw(st.sampled_from(["freeze", "float", "slide", "withdraw"])) for c in cands}
    return cands, vacs, prefs, answers, ranks


def drawn_problem(folder, cands, vacs, prefs, ranks=()):
    """josaa-2025 and the problem of a drawn `counselling()` instance, written to `folder` and read back."""
    write_csv(folder / "c.csv", ["id", "rank", "category", "gender", "home_state"], cands)
    write_csv(folder / "v.csv", ["post", "category", "vacancies", "quota", "state", "gender_pool", "institute",
                                 "merit_list"], vacs)
    write_csv(folder / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    write_csv(folder / "r.csv", ["candidate_id", "list", "rank"], ranks)
    pol = load_policy("josaa-2025")
    return pol, read_problem(pol, folder / "c.csv", folder / "v.csv", folder / "p.csv", ranks=folder / "r.csv")


def drawn_round(folder, m):
    """A drawn `counselling()` instance's first round solved and written to `folder`: the policy, the problem,
    allocation.csv's rows, and each holder's drawn response."""
    cands, vacs, prefs, answers, ranks = m
    pol, prob = drawn_problem(folder, cands, vacs, prefs, ranks)
    write_outputs(folder / "out", solve(pol, prob, "greedy").result, {})
    alloc = read_csv(folder / "out" / "allocation.csv")
    return pol, prob, alloc, {r["candidate_id"]: answers[r["candidate_id"]] for r in alloc}


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=counselling())
def test_a_round_moves_nobody_down_keeps_slides_in_the_institute_and_verify_agrees(tmp_path_factory, m):
    """Random seat pools and responses: after a round no floater or slider holds a post he ranks below his own,
    a slider who moved is at his own institute, one who froze holds his seat, one who withdrew holds nothing,
    and verify --stage slide finds nothing; both engines give the same round."""
    cands, vacs, prefs, answers, ranks = m
    folder = tmp_path_factory.mktemp("round")
    pol, prob, alloc, said = drawn_round(folder, m)
    done = slide(pol, prob, [dict(r) for r in alloc], said)
    assert [r[:3] for r in slide(pol, prob, [dict(r) for r in alloc], said, "cpsat").rows] == \
        [r[:3] for r in done.rows]
    now = {r[0]: (r[1], r[2]) for r in done.rows}
    order = {cid: [prob.posts[j] for j in prob.preferences[i]] for i, cid in enumerate(prob.candidates.ids)}
    site = {v[0]: v[6] for v in vacs}
    for r in alloc:
        cid, post = r["candidate_id"], r["post"]
        a = said[cid]
        if a == "freeze":
            assert now[cid] == (post, r["seat_category"])
        elif a == "withdraw":
            assert cid not in now
        else:
            assert cid in now and order[cid].index(now[cid][0]) <= order[cid].index(post)
            if a == "slide":
                assert site[now[cid][0].partition(" [")[0]] == site[post.partition(" [")[0]]
    write_csv(folder / "after.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [r[:6] for r in done.rows])
    before = read_allocation(folder / "out" / "allocation.csv", prob, pol)
    assert check_slide(pol, prob, before, said, read_allocation(folder / "after.csv", prob, pol)) == []
    # cutoffs.csv after the round: per pool and category every holder counted, and the last rank that of the
    # worst holder on the list vacancies.csv names for the program's category (ranks.csv's rank, or the own rank)
    place = {(cid, name): int(k) for cid, name, k in ranks} | {(c[0], ""): c[1] for c in cands}
    named = {(v[0], v[1]): v[7] for v in vacs}
    expect: dict = {}
    for cid, post, seat, *_ in done.rows:
        k = place[cid, named[post.partition(" [")[0], seat]]
        got = expect.setdefault((post, seat), [0, 0])
        expect[post, seat] = [got[0] + 1, max(got[1], k)]
    cut = {(r[0], r[1]): [r[2], r[3]] for r in round_cutoffs(pol, prob, done) if r[2]}
    assert cut == expect
    # no seat lost or made: after the round every seat of vacancies.csv is held or left for the next round
    # (unfilled.csv: those it offered and nobody took, after conversions), as compare counts a round's seats
    assert len(done.rows) + sum(int(u[4]) for u in done.unfilled) == sum(v[2] for v in vacs)
    # decisions.csv: every candidate once, in merit order, selected as the round's allocation says, and a holder's
    # reason opening with his answer
    assert [d[0] for d in done.decisions] == [c[0] for c in cands]
    assert {d[0]: d[2] for d in done.decisions if d[1] == "true"} == {cid: post for cid, (post, _) in now.items()}
    opens = {"freeze": "froze ", "withdraw": "withdrew, ", "float": "floated from ", "slide": "slid (within"}
    assert all(d[3].startswith(opens[said[d[0]]]) for d in done.decisions if d[0] in said)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=counselling(), data=st.data())
def test_lists_read_off_an_earlier_solve_are_those_made_afresh(tmp_path_factory, m, data):
    """A round solved again without some candidates (a floater keeping his own seat) reads its preference lists
    off the solve before (`solver.chain.pools.reuse`): they are, pair for pair, the lists made afresh for the
    candidates kept, and the allocation is the same."""
    cands, vacs, prefs, _, ranks = m
    folder = tmp_path_factory.mktemp("lists")
    pol, prob = drawn_problem(folder, cands, vacs, prefs, ranks)
    before = earlier_lists(solve(pol, prob, "greedy").result.pools)
    kept = np.array(sorted(data.draw(st.sets(st.integers(0, prob.n - 1), min_size=1))), dtype=np.int64)
    sub = prob.reordered(kept)
    fresh = solve(pol, sub, "greedy")
    read = solve(pol, sub, "greedy", earlier=(before, kept))
    assert lists_of_fewer(read.result.pools, before, kept) is not None     # (read off, not made again)
    for mine, made in zip(read.result.pools.preference_lists(), fresh.result.pools.preference_lists()):
        assert mine.tolist() == made.tolist()
    assert read.result.allocation_rows() == fresh.result.allocation_rows()


def test_a_quota_s_unfilled_seats_converted_to_another_quota(tmp_path):
    """CSAB's special rounds convert state quota seats ("State Quota Seats Conversion", a heading read on
    collegepravesh.com, its text not read): `seat_pools.conversions` with `quota = "HS", to = "OS"`. NIT program
    Q in Karnataka has one HS and one OS OPEN seat; M1 and M2 are of Maharashtra, nobody of Karnataka, so round 1
    gives M1 the OS seat and the HS seat stays empty. Converted, the HS seat is Q's OS seat in round 2: M1
    freezes and M2 takes it; under josaa-2025's own conversions (none by quota) the seat stays HS and M2 has
    nothing. verify derives the converted seat itself: the round with M2 is accepted under the conversion and
    refused without it; M2 on the HS seat is refused: that seat is Q's OS seat now, left empty while M2 could
    take it."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "home_state"], [["M1", 1, "OPEN", "MH"],
                                                                             ["M2", 2, "OPEN", "MH"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "quota", "state"],
              [["Q", "OPEN", 1, "HS", "KA"], ["Q", "OPEN", 1, "OS", "KA"]])
    stock = load_policy("josaa-2025")
    hs_to_os = load_policy("josaa-2025", ['seat_pools.conversions=[{quota="HS", to="OS"}]'])
    prob = read_problem(stock, tmp_path / "c.csv", tmp_path / "v.csv")
    write_outputs(tmp_path / "out", solve(stock, prob, "greedy").result, {})
    alloc = read_csv(tmp_path / "out" / "allocation.csv")
    assert [(r["candidate_id"], r["post"]) for r in alloc] == [("M1", "Q [OS]")]
    for engine in ("greedy", "cpsat"):
        done = slide(hs_to_os, prob, alloc, {"M1": "freeze"}, engine)
        assert {r[0]: r[1] for r in done.rows} == {"M1": "Q [OS]", "M2": "Q [OS]"}
        assert {r[0]: r[1] for r in slide(stock, prob, alloc, {"M1": "freeze"}, engine).rows} == {"M1": "Q [OS]"}
    before = read_allocation(tmp_path / "out" / "allocation.csv", prob, stock)
    head = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"]
    write_csv(tmp_path / "good.csv", head, [r[:6] for r in done.rows])
    good = read_allocation(tmp_path / "good.csv", prob, stock)
    assert check_slide(hs_to_os, prob, before, {"M1": "freeze"}, good) == []
    assert any("2 hold the OPEN seats at Q [OS]" in str(f) for f in check_slide(stock, prob, before,
                                                                                 {"M1": "freeze"}, good))
    write_csv(tmp_path / "bad.csv", head, [[*r[:1], "Q [HS]", *r[2:6]] if r[0] == "M2" else r[:6] for r in done.rows])
    found = check_slide(hs_to_os, prob, before, {"M1": "freeze"}, read_allocation(tmp_path / "bad.csv", prob, stock))
    said = [str(f) for f in found]
    assert "1 hold the OPEN seats at Q [HS], where the first round had 0" in said    # (converted: it is OS's now)
    assert "an OPEN seat at Q [OS] is left empty while M2 could take it" in said
    # (M2 may not hold Q's HS seat, of Karnataka, by its quota: that is the breach, not a post he did not rank)
    assert "M2 holds Q [HS], an HS seat of KA held by a candidate whose home state is MH" in said
    assert not any("did not rank" in x for x in said)


def test_a_quota_conversion_names_quotas_the_policy_defines():
    """A conversion between quotas the policy's `seat_pools.quotas` does not define is refused when the policy is
    read, naming them; the policy's description says what each conversion makes of the seats."""
    import pytest
    from solver.errors import InputError
    from solver.policy.describe import _seat_pools
    with pytest.raises(InputError, match="names a quota seat_pools.quotas does not"):
        load_policy("josaa-2025", ['seat_pools.conversions=[{quota="HS", to="XX"}]'])
    text = _seat_pools(load_policy("josaa-2025", ['seat_pools.conversions=[{quota="HS", to="OS", source="S"}]']))
    assert "- HS seats to OS seats: S" in text
