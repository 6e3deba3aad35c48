"""Horizontal minimums in a compartment ranked by a list of its own. SSC CGL ranks JSO on Tier-II Paper-II
(models/ssc-cgl.toml, `merit.post_lists`; the notice as summarised) and reserves PwBD seats horizontally in each
post's compartments. A compartment is filled on merit and, only on a shortfall, its lowest appointees who count
for no minimum are replaced by the best remaining beneficiaries (Rajesh Kumar Daria v. RPSC 2007; Anil Kumar Gupta
v. State of U.P. 1995): "merit" and "best" are the compartment's own list, Paper-II for JSO. Each answer is worked
by hand below."""
from unittest import mock

import numpy as np
from conftest import read_csv, write_csv
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from solver import load_policy, solve
from solver.audit import audit, parse
from solver.audit import ties as ties_module
from solver.cli import app
from solver.exam.slide import slide
from solver.outcome.reports import write_outputs
from solver.io.readers import read_problem
from solver.verify import read_allocation
from solver.verify.checks import verify
from solver.verify.slide import check_slide

# Paper-I (the candidates' own score) ranks AAO; Paper-II ranks JSO. C and E are persons with benchmark
# disabilities. AAO: 1 UR vacancy; JSO: 2 UR, of which at least 1 for PwBD.
CANDS = [["A", 100, "UR", ""], ["B", 90, "UR", ""], ["C", 80, "UR", "b"], ["D", 70, "UR", ""], ["E", 60, "UR", "c"]]
VACS = [["AAO", "UR", 1, 0], ["JSO", "UR", 2, 1]]
PREFS = {"A": ["AAO", "JSO"], "B": ["JSO", "AAO"], "C": ["JSO", "AAO"], "D": ["JSO", "AAO"], "E": ["JSO"]}
PAPER2 = ["D", "B", "E", "A", "C"]
COLUMNS = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"]


def inputs(folder, paper2=PAPER2, cands=CANDS, vacs=VACS, prefs=PREFS):
    write_csv(folder / "c.csv", ["id", "score", "category", "pwbd"], cands)
    write_csv(folder / "v.csv", ["post", "category", "vacancies", "pwbd"], vacs)
    write_csv(folder / "r.csv", ["candidate_id", "list", "rank"], [[c, "tier2_paper2", k + 1] for k, c in
                                                                   enumerate(paper2)])
    write_csv(folder / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    pol = load_policy("ssc-cgl")
    return pol, read_problem(pol, folder / "c.csv", folder / "v.csv", folder / "p.csv", ranks=folder / "r.csv")


def args(folder) -> list[str]:
    return ["--policy", "ssc-cgl", "--candidates", str(folder / "c.csv"), "--vacancies", str(folder / "v.csv"),
            "--preferences", str(folder / "p.csv"), "--ranks", str(folder / "r.csv")]


def placed(rows) -> dict:
    return {r[0]: (r[1], r[5]) for r in rows}


def test_the_shortfall_is_met_from_the_best_beneficiary_on_the_post_s_list(tmp_path):
    """Round 1: A proposes to AAO; B, C, D, E to JSO, which reads them on Paper-II as D, B, E, C. Its best two,
    D and B, hold no PwBD: the lowest of them who counts for nothing, B, makes way for the best PwBD left on
    Paper-II, E (3rd), not C (5th on Paper-II, though 80 to E's 60 on Paper-I). Round 2: B and C propose to AAO,
    which keeps A (100). So A AAO on merit, D JSO on merit, E JSO by adjustment; on the candidates' own merit JSO
    would have taken B and C (C a PwBD: no adjustment)."""
    pol, prob = inputs(tmp_path)
    want = {"A": ("AAO", "open_merit"), "D": ("JSO", "open_merit"), "E": ("JSO", "horizontal_adjustment")}
    for engine in ("greedy", "cpsat"):
        assert placed(solve(pol, prob, engine=engine).result.allocation_rows()) == want, engine
    r = CliRunner().invoke(app, ["solve", *args(tmp_path), "--engine", "both", "--independent", "--quiet",
                                 "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "o" / "allocation.csv")
    assert {x["candidate_id"]: (x["post"], x["route"], x["horizontal"]) for x in rows} == \
        {"A": ("AAO", "open_merit", ""), "D": ("JSO", "open_merit", ""), "E": ("JSO", "horizontal_adjustment", "pwbd")}
    r = CliRunner().invoke(app, ["verify", *args(tmp_path), "--allocation", str(tmp_path / "o" / "allocation.csv")])
    assert r.exit_code == 0, r.output
    # B, 2nd on Paper-II, was within JSO's merit top and made way for the minimum (not "below the cutoff")
    why = {x["candidate_id"]: x["reason"] for x in read_csv(tmp_path / "o" / "decisions.csv")}
    assert "displaced from open at JSO (ranked 1st) by the minimum for pwbd (merit cutoff rank 1 on list " \
        "tier2_paper2)" in why["B"], why["B"]
    assert "(rank 3 on list tier2_paper2, where this candidate is 5th)" in why["C"], why["C"]
    # the same candidates ranked on one merit (no list): B and C hold JSO, C meeting the minimum on merit
    write_csv(tmp_path / "v1.csv", ["post", "category", "vacancies", "pwbd"], VACS)
    one = read_problem(pol.model_copy(update={"merit": pol.merit.model_copy(update={"post_lists": {}})}),
                       tmp_path / "c.csv", tmp_path / "v1.csv", tmp_path / "p.csv")
    assert placed(solve(pol, one, engine="greedy").result.allocation_rows()) == \
        {"A": ("AAO", "open_merit"), "B": ("JSO", "open_merit"), "C": ("JSO", "open_merit")}


def test_no_adjustment_where_the_list_s_top_meets_the_minimum(tmp_path):
    """Paper-II: C, D, B, E, A. JSO's best two on it, C and D, include a PwBD (C): the minimum is met on merit, and
    nobody is adjusted in; B, turned away, is refused by AAO (A, 100, holds it). On Paper-I JSO would have
    taken B and C."""
    pol, prob = inputs(tmp_path, paper2=["C", "D", "B", "E", "A"])
    want = {"A": ("AAO", "open_merit"), "C": ("JSO", "open_merit"), "D": ("JSO", "open_merit")}
    for engine in ("greedy", "cpsat"):
        assert placed(solve(pol, prob, engine=engine).result.allocation_rows()) == want, engine


def test_verify_judges_the_minimum_on_the_post_s_list(tmp_path):
    """The lawful allocation (A AAO, D JSO, E JSO by adjustment) is accepted. Planted: C adjusted in for E (C is
    a PwBD, but 5th on Paper-II to E's 3rd): E, a beneficiary, is passed over for a worse one on the list. Planted:
    B for E (JSO then holds no PwBD while E wanted it): a shortfall that could have been met. Each is told in
    Paper-II's ranks."""
    pol, prob = inputs(tmp_path)
    lawful = [["A", "AAO", "UR", "UR", "", "open_merit"], ["D", "JSO", "UR", "UR", "", "open_merit"],
              ["E", "JSO", "UR", "UR", "pwbd", "horizontal_adjustment"]]

    def judged(rows):
        write_csv(tmp_path / "a.csv", COLUMNS, rows)
        return verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))

    assert judged(lawful) == []
    found = judged(lawful[:2] + [["C", "JSO", "UR", "UR", "pwbd", "horizontal_adjustment"]])
    envy = [v for v in found if v.rule == "justified envy" and v.candidate == "E"]
    assert envy and "rank 3 of list tier2_paper2 passed over for rank 5 of list tier2_paper2" in envy[0].detail, found
    found = judged(lawful[:2] + [["B", "JSO", "UR", "UR", "", "open_merit"]])
    short = [v for v in found if v.rule == "horizontal shortfall that could have been met"]
    assert short and short[0].candidate == "E" and "rank 3 of list tier2_paper2" in short[0].detail, found


def test_the_audit_reads_the_minimum_on_the_post_s_list(tmp_path):
    """Could B (2nd on Paper-II) hold JSO? No: D (1st) holds one seat on merit and E (3rd) the other for the PwBD
    minimum. Could C (a PwBD, 5th on Paper-II) hold it? No: D, and E above C on Paper-II. The allocation is the
    only lawful one."""
    inputs(tmp_path)
    r = CliRunner().invoke(app, ["audit", *args(tmp_path), "--ask", "B@JSO", "--ask", "C@JSO", "--no-declared",
                                 "--out", str(tmp_path / "au")])
    assert r.exit_code == 0, r.output
    answers = {x["question"]: x for x in read_csv(tmp_path / "au" / "answers.csv")}
    b, c = answers["B@JSO"], answers["C@JSO"]
    assert b["answer"] == "no" and "go to D (rank 1 on tier2_paper2), eligible and ranked above B" in b["detail"]
    assert "and 1 to E (rank 3 on tier2_paper2), below on merit but held for the pwbd minimum" in b["detail"], b
    assert c["answer"] == "no" and "D (rank 1 on tier2_paper2), E (rank 3 on tier2_paper2), eligible and ranked " \
        "above C" in c["detail"], c


def test_a_sliding_round_keeps_the_minimum_and_the_list(tmp_path):
    """After the first allocation (A AAO, D JSO, E JSO for the PwBD minimum), D is absent and A and E fix (SSC's
    sliding round, as summarised: models/ssc-cgl.toml). JSO's freed seat goes to the best on Paper-II who wants
    it, B (2nd), E keeping the minimum's seat. `verify --stage slide` accepts the round, and names B passed over
    where C (5th on Paper-II) is put in his place."""
    inputs(tmp_path)
    r = CliRunner().invoke(app, ["solve", *args(tmp_path), "--quiet", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    write_csv(tmp_path / "resp.csv", ["candidate_id", "response"], [["D", "absent"], ["A", "fix"], ["E", "fix"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "o"), "--responses", str(tmp_path / "resp.csv"),
                                 "--out", str(tmp_path / "s")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "s" / "allocation.csv")
    assert {x["candidate_id"]: (x["post"], x["route"]) for x in rows} == \
        {"A": ("AAO", "open_merit"), "B": ("JSO", "open_merit"), "E": ("JSO", "horizontal_adjustment")}
    check = ["verify", "--stage", "slide", *args(tmp_path), "--allocation", str(tmp_path / "o" / "allocation.csv"),
             "--responses", str(tmp_path / "resp.csv"), "--slide"]
    r = CliRunner().invoke(app, [*check, str(tmp_path / "s" / "allocation.csv")])
    assert r.exit_code == 0 and "every rule of the sliding round holds" in r.output, r.output
    text = (tmp_path / "s" / "allocation.csv").read_text()
    (tmp_path / "bad.csv").write_text(text.replace("B,JSO,UR,UR,,open_merit,2", "C,JSO,UR,UR,,open_merit,3"))
    r = CliRunner().invoke(app, [*check, str(tmp_path / "bad.csv")])
    assert r.exit_code == 1 and "B (merit position 2 on list tier2_paper2) is passed over for C" in \
        r.output.replace("\n", " "), r.output


def test_a_minimum_on_a_post_s_list_makes_a_second_stable_allocation(tmp_path):
    """P (1 UR seat, on the candidates' own merit: A 100, B 90, C 80); Q (2 UR seats, at least 1 PwBD, on
    Paper-II: B, A, C). C is a PwBD. A ranks Q then P; B ranks P then Q; C ranks Q only.
    Candidates proposing (the engines): A and C to Q, B to P; Q keeps A and C (C meets the minimum): A Q, B P,
    C Q, everyone at his first choice. Pools proposing: P offers A (its best); Q's choice of A, B, C is B and C
    (B and A are its best two on Paper-II, with no PwBD: A, the lower who counts for nothing, makes way for C);
    A holds P, B holds Q. That is stable too: A wants Q, but Q's choice from its holders and A is B and C (the
    minimum guarantee, Rajesh Kumar Daria 2007); B wants P, which holds A, above him. So the audit finds two
    stable allocations, A and B contested, and A@P and B@Q are each lawful. Without the minimum Q would
    choose B and A, and the allocation would be unique."""
    cands = [["A", 100, "UR", ""], ["B", 90, "UR", ""], ["C", 80, "UR", "b"]]
    vacs = [["P", "UR", 1, 0], ["Q", "UR", 2, 1]]
    prefs = {"A": ["Q", "P"], "B": ["P", "Q"], "C": ["Q"]}
    pol, prob = inputs(tmp_path, paper2=["B", "A", "C"], cands=cands, vacs=vacs, prefs=prefs)
    pol = pol.model_copy(update={"merit": pol.merit.model_copy(update={"post_lists": {"Q": "tier2_paper2"}})})
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv", ranks=tmp_path / "r.csv")
    assert placed(solve(pol, prob, engine="greedy").result.allocation_rows()) == \
        {"A": ("Q", "open_merit"), "B": ("P", "open_merit"), "C": ("Q", "open_merit")}
    found = audit(pol, prob, [parse("A@P", prob), parse("B@Q", prob), parse("C@Q", prob)])
    assert found.unique is False
    assert {r[0]: (r[2], r[3]) for r in found.contested} == {"A": ("Q UR", "P UR"), "B": ("P UR", "Q UR")}
    assert [x["answer"] for x in found.answers] == ["yes", "yes", "yes"]
    # (as at a size past the model's budget: the same answers read off the two extremes, and "could A hold
    # nothing?" is a no from them: he holds Q or P in every stable allocation)
    with mock.patch.object(ties_module, "MODEL_BUDGET", 0):
        quick = audit(pol, prob, [parse(q, prob) for q in ("A@P", "B@Q", "C@Q", "!A")])
    assert [x["answer"] for x in quick.answers] == ["yes", "yes", "yes", "no"]
    assert "every stable allocation gives A an outcome from Q UR" in quick.answers[3]["detail"], quick.answers[3]
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "pwbd"], [["P", "UR", 1, 0], ["Q", "UR", 2, 0]])
    plain = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv", ranks=tmp_path / "r.csv")
    assert audit(pol, plain, []).unique is True


def test_overall_minimums_with_several_lists_are_refused(tmp_path):
    """Overall minimums (Anil Kumar Gupta 1995, para 18) are placed down one merit order: with a post ranked by
    a list of its own they are refused (exit 3), by the solve and by verify, not placed or judged on the wrong
    order. (With a preferences file they are refused whatever the lists: the run here has none.)"""
    inputs(tmp_path)
    base = [a for a in args(tmp_path) if "p.csv" not in a and a != "--preferences"]
    base += ["--set", "horizontal.held=[]"]   # (a held seat is refused with overall minimums on its own)
    r = CliRunner().invoke(app, ["solve", *base, "--set", "horizontal.mode=overall", "--quiet", "--out",
                                 str(tmp_path / "o")])
    assert r.exit_code == 3 and "several merit lists" in r.output, r.output
    assert not (tmp_path / "o").exists()
    write_csv(tmp_path / "a.csv", COLUMNS, [["A", "AAO", "UR", "UR", "", "open_merit"]])
    r = CliRunner().invoke(app, ["verify", *base, "--set", "horizontal.mode=overall", "--allocation",
                                 str(tmp_path / "a.csv")])
    assert r.exit_code == 3 and "overall horizontal minimums" in r.output, r.output


@st.composite
def market(draw):
    """Up to 8 candidates (UR, OBC), some PwBD, some women; up to 3 posts, each with UR and OBC vacancies and
    PwBD or women's minimums in them; some posts ranked by a second list, or, in some markets, some categories'
    seats (a compartment ranked on a list of its own); random preferences."""
    n = draw(st.integers(1, 8))
    cands = [[f"C{i}", 100 - i, draw(st.sampled_from(["UR", "UR", "OBC"])), draw(st.sampled_from(["", "", "b"])),
              draw(st.sampled_from(["M", "F"]))] for i in range(n)]
    posts = ["P", "Q", "R"][:draw(st.integers(1, 3))]
    listed = {p: draw(st.sampled_from(["", "tier2_paper2"])) for p in posts}
    per_row = draw(st.booleans())
    lists = {(p, code): draw(st.sampled_from(["", "tier2_paper2"])) if per_row else listed[p]
             for p in posts for code in ("UR", "OBC")}
    vacs = []
    for p in posts:
        obc = draw(st.integers(0, 1))
        ur = obc + draw(st.integers(0, 2))
        pwbd = draw(st.integers(0, ur))     # (ssc-cgl holds a PwBD seat: the minimums within the seats)
        vacs += [[p, "UR", ur, pwbd, draw(st.integers(0, min(1, ur - pwbd))), lists[(p, "UR")]],
                 [p, "OBC", obc, draw(st.integers(0, obc)), 0, lists[(p, "OBC")]]]
    on = list(draw(st.permutations(range(n))))
    prefs = {f"C{i}": list(draw(st.permutations(posts)))[:draw(st.integers(0, len(posts)))] for i in range(n)}
    return cands, vacs, [[f"C{i}", "tier2_paper2", k + 1] for k, i in enumerate(on)], prefs


def materialise(folder, m):
    cands, vacs, ranks, prefs = m
    write_csv(folder / "c.csv", ["id", "score", "category", "pwbd", "gender"], cands)
    write_csv(folder / "v.csv", ["post", "category", "vacancies", "pwbd", "women", "merit_list"], vacs)
    write_csv(folder / "r.csv", ["candidate_id", "list", "rank"], ranks)
    write_csv(folder / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    pol = load_policy("ssc-cgl").model_copy(update={"merit": load_policy("ssc-cgl").merit.model_copy(
        update={"post_lists": {}})})
    return pol, read_problem(pol, folder / "c.csv", folder / "v.csv", folder / "p.csv", ranks=folder / "r.csv")


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=market(), data=st.data())
def test_a_sliding_round_agrees_and_is_accepted_under_several_lists_and_minimums(tmp_path_factory, m, data):
    """Random responses to the first allocation: the round on both engines is one allocation, verify accepts
    it, and nobody who fixed is moved; one who fixed planted at another post is found."""
    folder = tmp_path_factory.mktemp("slide")
    pol, prob = materialise(folder, m)
    write_outputs(folder / "out", solve(pol, prob, "greedy").result, {})
    alloc = read_csv(folder / "out" / "allocation.csv")
    answers = {r["candidate_id"]: data.draw(st.sampled_from(["fix", "float", "absent"])) for r in alloc}
    done = slide(pol, prob, alloc, answers, "greedy")
    assert slide(pol, prob, alloc, answers, "cpsat").rows == done.rows
    write_csv(folder / "s.csv", COLUMNS + ["rank"], done.rows)
    before = read_allocation(folder / "out" / "allocation.csv", prob, pol)
    assert check_slide(pol, prob, before, answers, read_allocation(folder / "s.csv", prob, pol)) == []
    first = {r["candidate_id"]: r["post"] for r in alloc}
    assert all(row[1] == first[row[0]] for row in done.rows if answers.get(row[0]) == "fix")
    fixed = [r for r in done.rows if answers.get(r[0]) == "fix"]
    posts = sorted({v[0] for v in m[1]})
    if fixed and len(posts) > 1:
        moved = [[r[0], posts[(posts.index(r[1]) + 1) % len(posts)], *r[2:]] if r is fixed[0] else r
                 for r in done.rows]
        write_csv(folder / "m.csv", COLUMNS + ["rank"], moved)
        assert check_slide(pol, prob, before, answers, read_allocation(folder / "m.csv", prob, pol)) != []


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=market())
def test_engines_agree_and_verify_accepts_under_several_lists_and_minimums(tmp_path_factory, m):
    """Deferred acceptance with each compartment's minimum guarantee on its own list, and CP-SAT's model of the
    same rules solved on its own, give one allocation; `verify` accepts it and names a planted breach: the
    allocation's last appointee to a compartment with room to spare moved out, or a candidate who wanted a full
    compartment put in place of one of its holders."""
    folder = tmp_path_factory.mktemp("minimums")
    pol, prob = materialise(folder, m)
    greedy = solve(pol, prob, engine="greedy").result
    cpsat = solve(pol, prob, engine="cpsat", hint=False).result
    assert np.array_equal(greedy.assignment.pool, cpsat.assignment.pool)
    rows = [r[:6] for r in greedy.allocation_rows()]
    write_csv(folder / "a.csv", COLUMNS, rows)
    assert verify(pol, prob, read_allocation(folder / "a.csv", prob, pol)) == []
    # Planted: a holder dropped from the allocation. He ranked the post and may hold its seat, which is now
    # empty: a vacancy left while he wanted it (or, where the seat served a minimum, its shortfall), whatever
    # the lists.
    if rows:
        write_csv(folder / "b.csv", COLUMNS, rows[1:])
        found = verify(pol, prob, read_allocation(folder / "b.csv", prob, pol))
        assert any(v.candidate == rows[0][0] for v in found), (rows[0], found)


@st.composite
def crossing(draw):
    """Up to 8 candidates (UR, OBC; some PwBD, some women) ranking every one of 2-3 posts; every other post ranked
    by the second list, UR and OBC seats with PwBD and women's minimums: markets where several stable
    allocations are common (about one in twenty)."""
    n = draw(st.integers(2, 8))
    cands = [[f"C{i}", 100 - i, draw(st.sampled_from(["UR", "UR", "OBC"])), draw(st.sampled_from(["", "b"])),
              draw(st.sampled_from(["M", "F"]))] for i in range(n)]
    posts = ["P", "Q", "R"][:draw(st.integers(2, 3))]
    vacs = []
    for k, p in enumerate(posts):
        ur, obc, lst = draw(st.integers(1, 3)), draw(st.integers(0, 1)), "tier2_paper2" if k % 2 else ""
        pwbd = draw(st.integers(0, 1))   # (ssc-cgl holds a PwBD seat: the minimums within the seats)
        vacs += [[p, "UR", ur, pwbd, draw(st.integers(0, min(1, ur - pwbd))), lst],
                 [p, "OBC", obc, draw(st.integers(0, obc)), 0, lst]]
    on = list(draw(st.permutations(range(n))))
    prefs = {f"C{i}": list(draw(st.permutations(posts))) for i in range(n)}
    return cands, vacs, [[f"C{i}", "tier2_paper2", k + 1] for k, i in enumerate(on)], prefs


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=crossing())
def test_the_audit_s_two_extremes_find_what_the_model_of_every_lawful_allocation_finds(tmp_path_factory, m):
    """Several lists with minimums: the audit reads uniqueness and the contested set off the candidate-optimal
    allocation and the institution-optimal one (pools proposing, each choosing by the minimum guarantee on its
    own list); CP-SAT's model of every lawful allocation, asked one contested candidate at a time, finds the
    same: unique exactly when it is, and the same candidates contested."""
    from solver.audit.stable import lattice_supported
    from solver.audit.unique import uniqueness
    pol, prob = materialise(tmp_path_factory.mktemp("lattice"), m)
    res = solve(pol, prob, engine="greedy").result
    assert lattice_supported(res.pools)
    lattice = uniqueness(res, None, None, 1)
    model = uniqueness(res, None, None, 1, prove=True)
    assert lattice[0] is model[0], (lattice, model)
    assert sorted(r[0] for r in lattice[1]) == sorted(r[0] for r in model[1]), (lattice[1], model[1])


def test_a_held_pwbd_seat_on_a_post_s_own_list_stays_vacant(tmp_path):
    """ssc-cgl holds an unfilled PwBD seat (PwD Act 1995 s.36; models/ssc-cgl.toml). The module's market without
    its two PwBD candidates (C and E prefer AAO alone here): JSO's 2 UR seats, 1 for PwBD, ranked on Paper-II
    (D, B, A): no PwBD candidate wants JSO, so one seat stays vacant and the other goes to the best on Paper-II
    among those who want it, D (70 on Paper-I, behind B's 90). A takes AAO on Paper-I, and B is displaced from JSO
    by the held seat. Reverted (`horizontal.held=[]`), B takes it. Both engines; verify accepts."""
    prefs = {"A": ["AAO", "JSO"], "B": ["JSO", "AAO"], "C": ["AAO"], "D": ["JSO", "AAO"], "E": ["AAO"]}
    inputs(tmp_path, paper2=["D", "B", "A", "C", "E"], prefs=prefs)
    for held, want in (([], {"A": ("AAO", "open_merit"), "D": ("JSO", "open_merit")}),
                       (["--set", "horizontal.held=[]"], {"A": ("AAO", "open_merit"), "D": ("JSO", "open_merit"),
                                                          "B": ("JSO", "open_merit")})):
        for engine in ("greedy", "cpsat"):
            out = tmp_path / f"{engine}{len(held)}"
            r = CliRunner().invoke(app, ["solve", *args(tmp_path), *held, "--engine", engine, "--quiet", "--out",
                                         str(out)])
            assert r.exit_code == 0, r.output
            got = {x["candidate_id"]: (x["post"], x["route"]) for x in read_csv(out / "allocation.csv")}
            assert got == want, (held, engine, got)
            v = CliRunner().invoke(app, ["verify", *args(tmp_path), *held, "--allocation", str(out / "allocation.csv")])
            assert v.exit_code == 0, v.output
    unfilled = [(x["post"], x["unfilled"], x["disposition"]) for x in read_csv(tmp_path / "greedy0" / "unfilled.csv")
                if int(x["unfilled"])]
    assert unfilled == [("JSO", "1", "held_vacant")]
