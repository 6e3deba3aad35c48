"""Several merit lists: a post ranks its applicants by a list of its own (vacancies.csv `merit_list`, the lists in
a ranks file), as SSC CGL ranks the JSO post on Tier-II Paper-II and the others on Paper-I. Each pool chooses by
its post's list; candidate-proposing deferred acceptance gives the candidate-optimal stable allocation (Gale and
Shapley 1962; JoSAA's seat allocation, Baswana et al. 2019). Each answer is worked by hand; with one list the
allocation is today's, byte for byte."""
import pytest
from conftest import read_csv, write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver import load_policy, solve
from solver.cli import app
from solver.errors import Unsupported
from solver.io.readers import read_problem
from solver.verify import read_allocation
from solver.verify.checks import verify

# Own merit (Paper-I): A 100, B 90, C 80 (OBC), D 70. Paper-II: D, C, B, A. AAO ranks on Paper-I, JSO on Paper-II.
CANDS = [["A", 100, "UR"], ["B", 90, "UR"], ["C", 80, "OBC"], ["D", 70, "UR"]]
VACS = [["AAO", "UR", 1, ""], ["JSO", "UR", 1, "paper2"]]
PAPER2 = [["D", "paper2", 1], ["C", "paper2", 2], ["B", "paper2", 3], ["A", "paper2", 4]]
PREFS = {"A": ["JSO", "AAO"], "B": ["JSO", "AAO"], "C": ["JSO", "AAO"], "D": ["AAO", "JSO"]}


def inputs(folder, ranks=PAPER2, vacs=VACS, prefs=PREFS, cands=CANDS):
    write_csv(folder / "c.csv", ["id", "score", "category"], cands)
    write_csv(folder / "v.csv", ["post", "category", "vacancies", "merit_list"], vacs)
    write_csv(folder / "r.csv", ["candidate_id", "list", "rank"], ranks)
    write_csv(folder / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    pol = load_policy("central-dopt")
    return pol, read_problem(pol, folder / "c.csv", folder / "v.csv", folder / "p.csv", ranks=folder / "r.csv")


def held(result):
    return {row[0]: row[1] for row in result.allocation_rows()}


def test_each_post_chooses_by_its_own_list(tmp_path):
    """Round 1: A, B and C propose to JSO, which keeps C (2nd on Paper-II, the best of the three); D holds AAO.
    Round 2: A and B propose to AAO, which keeps A (Paper-I) and drops D. Round 3: D proposes to JSO, which
    keeps him (1st on Paper-II) and drops C; C proposes to AAO, which keeps A. So A holds AAO and D JSO; B
    and C hold nothing, and each post they wanted holds someone above them on its own list."""
    pol, prob = inputs(tmp_path)
    sol = solve(pol, prob, engine="greedy")
    assert held(sol.result) == {"A": "AAO", "D": "JSO"}
    rows = [r[:6] for r in sol.result.allocation_rows()]
    write_csv(tmp_path / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"], rows)
    assert verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol)) == []


def test_verify_judges_each_post_by_its_own_list(tmp_path):
    """B (3rd on Paper-II) at JSO passes over C (2nd) and D (1st), who wanted it: justified envy on Paper-II's
    order, though B is above both on Paper-I."""
    pol, prob = inputs(tmp_path)
    write_csv(tmp_path / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [["A", "AAO", "UR", "UR", "", "open_merit"], ["B", "JSO", "UR", "UR", "", "open_merit"]])
    found = verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))
    envy = {(v.candidate, v.post) for v in found if v.rule == "justified envy"}
    assert ("C", "JSO") in envy and all("list paper2" in v.detail for v in found if v.rule == "justified envy")


def test_one_absent_from_a_list_may_not_hold_its_post(tmp_path):
    """Paper-II ranks C, B, A only: D may not hold JSO. Round 1: JSO keeps C; D holds AAO. Round 2: AAO keeps A
    and drops D, whose next choice is JSO, closed to him. So A AAO, C JSO; D placed at JSO is refused."""
    pol, prob = inputs(tmp_path, ranks=[["C", "paper2", 1], ["B", "paper2", 2], ["A", "paper2", 3]])
    assert held(solve(pol, prob, engine="greedy").result) == {"A": "AAO", "C": "JSO"}
    write_csv(tmp_path / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [["A", "AAO", "UR", "UR", "", "open_merit"], ["D", "JSO", "UR", "UR", "", "open_merit"]])
    found = verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))
    assert any(v.rule == "not on the post's merit list" and v.candidate == "D" for v in found)


def test_reserved_compartments_choose_by_the_posts_list_too(tmp_path):
    """JSO has an open and an OBC vacancy, ranked on Paper-II: C, X (both OBC), D, B, A. Everyone wants JSO only.
    The open vacancy goes to the best on Paper-II of all, C; the OBC one to the best OBC left, X; on Paper-I
    A would have had the open one."""
    cands = CANDS + [["X", 60, "OBC"]]
    ranks = [["C", "paper2", 1], ["X", "paper2", 2], ["D", "paper2", 3], ["B", "paper2", 4], ["A", "paper2", 5]]
    pol, prob = inputs(tmp_path, ranks=ranks, vacs=[["JSO", "UR", 1, "paper2"], ["JSO", "OBC", 1, "paper2"]],
                       prefs={c[0]: ["JSO"] for c in cands}, cands=cands)
    result = solve(pol, prob, engine="greedy").result
    seats = {row[0]: (row[1], row[2]) for row in result.allocation_rows()}
    assert seats == {"C": ("JSO", "UR"), "X": ("JSO", "OBC")}


def test_the_command_line_and_what_is_not_built(tmp_path):
    inputs(tmp_path)
    base = ["--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--ranks", str(tmp_path / "r.csv")]
    r = CliRunner().invoke(app, ["solve", *base, "--engine", "greedy", "--quiet", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "o" / "allocation.csv")} == {"A": "AAO", "D": "JSO"}
    reasons = {x["candidate_id"]: x["reason"] for x in read_csv(tmp_path / "o" / "decisions.csv")}
    assert "the open cutoff at JSO (ranked 1st) (rank 1 on list paper2, where this candidate is 3rd)" in reasons["B"]
    cut = {x["post"]: (x["last_rank"], x["last_score"]) for x in read_csv(tmp_path / "o" / "cutoffs.csv")}
    assert cut == {"AAO": ("1", "100"), "JSO": ("1", "")}     # JSO's last rank on its own list
    r = CliRunner().invoke(app, ["verify", *base, "--allocation", str(tmp_path / "o" / "allocation.csv")])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["solve", *base, "--engine", "both", "--quiet", "--out", str(tmp_path / "o2")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "o2" / "allocation.csv").read_text() == (tmp_path / "o" / "allocation.csv").read_text()
    r = CliRunner().invoke(app, ["solve", *base[:-2], "--engine", "greedy", "--quiet", "--out", str(tmp_path / "o3")])
    assert r.exit_code == 2 and "merit_list" in r.output and "give the ranks file" in r.output
    write_csv(tmp_path / "r2.csv", ["candidate_id", "list", "rank"], [["D", "paper1", 1]])
    r = CliRunner().invoke(app, ["solve", *base[:-1], str(tmp_path / "r2.csv"), "--engine", "greedy", "--quiet",
                                 "--out", str(tmp_path / "o4")])
    assert r.exit_code == 2 and "'paper2' is not in" in r.output


def test_a_recommendation_list_with_several_lists_is_refused(tmp_path):
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "merit_list"], VACS)
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], PAPER2)
    pol = load_policy("upsc-cse")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", ranks=tmp_path / "r.csv")
    with pytest.raises(Unsupported, match="recommendation list"):
        solve(pol, prob, engine="greedy")


@st.composite
def market(draw):
    """Up to 9 candidates (UR, OBC, SC), up to 3 posts each with open and reserved vacancies, random
    preferences, and a second list ranking some posts, or, in some markets, some categories' seats of a post
    (a category ranked on a list of its own, apart from the post's other seats)."""
    n = draw(st.integers(1, 9))
    cats = [draw(st.sampled_from(["UR", "UR", "OBC", "SC"])) for _ in range(n)]
    posts = ["P", "Q", "R"][:draw(st.integers(1, 3))]
    listed = {p: draw(st.sampled_from(["", "second"])) for p in posts}
    per_row = draw(st.booleans())
    lists = {(p, code): draw(st.sampled_from(["", "second"])) if per_row else listed[p]
             for p in posts for code in ("UR", "OBC", "SC")}
    vacs = []
    for p in posts:    # (open at least half: within the 50% ceiling)
        obc, sc = draw(st.integers(0, 1)), draw(st.integers(0, 1))
        vacs += [[p, "UR", obc + sc + draw(st.integers(0, 1)), lists[(p, "UR")]], [p, "OBC", obc, lists[(p, "OBC")]],
                 [p, "SC", sc, lists[(p, "SC")]]]
    on = draw(st.permutations(range(n)))[:draw(st.integers(0, n))]
    prefs = {f"C{i}": list(draw(st.permutations(posts)))[:draw(st.integers(0, len(posts)))] for i in range(n)}
    return [[f"C{i}", 100 - i, cats[i]] for i in range(n)], vacs, [[f"C{i}", "second", k + 1] for k, i in
                                                                      enumerate(on)], prefs


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=market())
def test_deferred_acceptance_is_stable_by_each_list_and_verify_agrees(tmp_path_factory, m):
    """No blocking pair, read off the definition here: nobody prefers a post (or holds none) whose compartment
    he may hold is short, or holds someone below him on the post's own list; and `verify` finds nothing."""
    cands, vacs, ranks, prefs = m
    folder = tmp_path_factory.mktemp("lists")
    pol, prob = inputs(folder, ranks=ranks or [[cands[0][0], "second", 1]], vacs=vacs, prefs=prefs, cands=cands)
    result = solve(pol, prob, engine="greedy").result
    rows = result.allocation_rows()
    got = {r[0]: (r[1], r[2]) for r in rows}
    second = {r[0]: r[2] for r in (ranks or [[cands[0][0], "second", 1]])}
    own = {c[0]: k for k, c in enumerate(cands)}
    cat = {c[0]: c[2] for c in cands}

    def place(post, code, cid):
        lst = next(v[3] for v in vacs if v[0] == post and v[1] == code)
        return own[cid] if not lst else second.get(cid)

    for cid, wanted in prefs.items():
        mine = got.get(cid, (None, None))[0]
        for post in wanted:
            if post == mine:
                break
            for code in ("UR", cat[cid]) if cat[cid] != "UR" else ("UR",):
                if place(post, code, cid) is None:
                    continue          # (not on the list that ranks these seats: may not hold them)
                cap = next(v[2] for v in vacs if v[0] == post and v[1] == code)
                holders = [h for h, (p, s) in got.items() if p == post and s == code]
                assert len(holders) >= cap, (cid, post, code, got)
                assert all(place(post, code, h) < place(post, code, cid) for h in holders), (cid, post, code, got)
    write_csv(folder / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [r[:6] for r in rows])
    assert verify(pol, prob, read_allocation(folder / "a.csv", prob, pol)) == []


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=market(), with_prefs=st.booleans())
def test_one_list_is_todays_allocation_byte_for_byte(tmp_path_factory, m, with_prefs):
    """Every post ranked by a list that orders the candidates as their own merit does: the allocation (every
    column of allocation.csv) is the one the candidates' own merit gives, with or without preferences."""
    cands, vacs, _, prefs = m
    folder = tmp_path_factory.mktemp("one")
    same = [[c[0], "same", k + 1] for k, c in enumerate(cands)]
    pol, _ = inputs(folder, ranks=same, vacs=[v[:3] + ["same"] for v in vacs], prefs=prefs, cands=cands)
    write_csv(folder / "v0.csv", ["post", "category", "vacancies"], [v[:3] for v in vacs])
    base = read_problem(pol, folder / "c.csv", folder / "v0.csv", folder / "p.csv" if with_prefs else None)
    listed = read_problem(pol, folder / "c.csv", folder / "v.csv", folder / "p.csv" if with_prefs else None,
                          ranks=folder / "r.csv")
    assert all(listed.post_lists)
    assert solve(pol, listed, engine="greedy").result.allocation_rows() == \
        solve(pol, base, engine="greedy").result.allocation_rows()


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=market(), independent=st.booleans())
def test_cp_sat_states_stability_by_each_list_and_agrees(tmp_path_factory, m, independent):
    """The CP-SAT model orders each pool's admissions by its post's list: certifying deferred acceptance's answer
    (the default) or solving on its own (`hint=False`), it gives the same allocation, row for row."""
    cands, vacs, ranks, prefs = m
    folder = tmp_path_factory.mktemp("cpsat")
    pol, prob = inputs(folder, ranks=ranks or [[cands[0][0], "second", 1]], vacs=vacs, prefs=prefs, cands=cands)
    greedy = solve(pol, prob, engine="greedy").result.allocation_rows()
    assert solve(pol, prob, engine="cpsat", hint=not independent).result.allocation_rows() == greedy


def crossing(folder):
    """X ranks by the candidates' own merit (A, then B), Y by list `second` (B, then A); one open seat each. A
    wants Y then X, B wants X then Y. Each gets the first choice in deferred acceptance (A Y, B X); with the
    posts proposing each gets its list's first (X A, Y B). Both are stable: in the first nobody wants to move,
    in the second each would rather have the other post, whose holder is above them on its list. So there are
    exactly two stable allocations, and A and B are both contested."""
    return inputs(folder, cands=[["A", 100, "UR"], ["B", 90, "UR"]], ranks=[["B", "second", 1], ["A", "second", 2]],
                  vacs=[["X", "UR", 1, ""], ["Y", "UR", 1, "second"]], prefs={"A": ["Y", "X"], "B": ["X", "Y"]})


def test_two_lists_that_cross_have_two_stable_allocations_and_audit_names_both(tmp_path):
    from solver.audit import audit, parse
    pol, prob = crossing(tmp_path)
    assert held(solve(pol, prob, engine="both").result) == {"A": "Y", "B": "X"}
    out = audit(pol, prob, [parse(q, prob) for q in ("A@X", "B@Y", "!A")], [], lambda sets: load_policy("central-dopt"))
    assert out.unique is False and out.status["unique"] == "lattice"
    assert {r[0]: (r[2], r[3]) for r in out.contested} == {"A": ("Y UR", "X UR"), "B": ("X UR", "Y UR")}
    assert held(out.alternatives["institution-optimal"]) == {"A": "X", "B": "Y"}
    answers = {a["question"]: a["answer"] for a in out.answers}
    # every stable allocation places the same candidates (Roth 1986): A is never left out
    assert answers == {"A@X": "yes", "B@Y": "yes", "!A": "no"}


def test_one_stable_allocation_when_the_lists_agree_where_it_matters(tmp_path):
    """The same market but A first on both lists: X and Y both want A; deferred acceptance gives A Y and B X,
    and so does the posts' proposing (Y proposes to A, who takes Y over X's offer; X then gets B)."""
    from solver.audit import audit
    pol, prob = inputs(tmp_path, cands=[["A", 100, "UR"], ["B", 90, "UR"]],
                       ranks=[["A", "second", 1], ["B", "second", 2]], vacs=[["X", "UR", 1, ""], ["Y", "UR", 1, "second"]],
                       prefs={"A": ["Y", "X"], "B": ["X", "Y"]})
    out = audit(pol, prob, [], [], lambda sets: load_policy("central-dopt"))
    assert out.unique is True and out.contested == [] and "institution-optimal" not in out.alternatives


def test_a_merit_tie_left_to_ids_is_not_settled_by_the_lattice(tmp_path):
    """A and B score 90 each with no birth date: only their ids order them on their own merit, and an id is no
    rule of law (SPEC.md, merit.tie_breaks). P (1 seat) ranks by their own merit, Q (1 seat) by the list second
    (A, B); both rank P then Q. With A first on the tie: A P, B Q. With B first: B takes P, and A, first on
    second, Q. Both are lawful, so A and B are contested. The two extreme stable allocations, both drawn with
    A first on the tie, agree and called the allocation unique; the model, which admits either order, decides."""
    from solver.audit import audit
    pol, prob = inputs(tmp_path, cands=[["A", 90, "UR"], ["B", 90, "UR"]],
                       ranks=[["A", "second", 1], ["B", "second", 2]], vacs=[["P", "UR", 1, ""], ["Q", "UR", 1, "second"]],
                       prefs={"A": ["P", "Q"], "B": ["P", "Q"]})
    assert held(solve(pol, prob, engine="greedy").result) == {"A": "P", "B": "Q"}
    out = audit(pol, prob, [], [], lambda sets: load_policy("central-dopt"))
    assert out.unique is False and out.status["unique"] != "lattice"
    assert {r[0]: (r[1], r[2], r[3]) for r in out.contested} == {"A": ("tie", "P UR", "Q UR"),
                                                                 "B": ("tie", "Q UR", "P UR")}


def test_audit_says_who_holds_the_seat_above_her_on_the_posts_own_list(tmp_path):
    """JSO ranks on Paper-II (D, C, B, A): A, first on Paper-I, asks for JSO's one seat, which D holds. D is below
    her on Paper-I, above her on the list that ranks JSO, so the "no" names D and his Paper-II rank (JoSAA Business
    Rules, "Rank lists": each program ranks by its own list), not "candidates the rules place there"."""
    from solver.audit import audit, parse
    pol, prob = inputs(tmp_path, vacs=[["JSO", "UR", 1, "paper2"]], prefs={c: ["JSO"] for c in "ABCD"})
    assert held(solve(pol, prob).result) == {"D": "JSO"}
    out = audit(pol, prob, [parse("A@JSO", prob)], [], lambda sets: load_policy("central-dopt"))
    (ans,) = out.answers
    assert (ans["answer"], ans["blocking"]) == ("no", "capacity[UR@JSO]")
    assert "D (rank 1 on paper2), eligible and ranked above A on paper2" in ans["detail"]


def test_audit_on_the_command_line_writes_the_institution_optimal_allocation(tmp_path):
    crossing(tmp_path)
    r = CliRunner().invoke(app, ["audit", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"),
                                 "--ranks", str(tmp_path / "r.csv"), "--ask", "A@X", "--out", str(tmp_path / "au")])
    assert r.exit_code == 0, r.output
    alt = read_csv(tmp_path / "au" / "alternatives" / "institution-optimal" / "allocation.csv")
    assert {x["candidate_id"]: x["post"] for x in alt} == {"A": "X", "B": "Y"}
    assert {x["candidate_id"] for x in read_csv(tmp_path / "au" / "contested.csv")} == {"A", "B"}


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=market())
def test_the_lattice_answer_is_the_models(tmp_path_factory, m):
    """The contested set the two extreme stable allocations give is the one CP-SAT's model of every lawful
    allocation finds, one contested candidate at a time (`prove`); the institution-optimal allocation passes
    verify."""
    from solver.audit import audit
    cands, vacs, ranks, prefs = m
    folder = tmp_path_factory.mktemp("lattice")
    pol, prob = inputs(folder, ranks=ranks or [[cands[0][0], "second", 1]], vacs=vacs, prefs=prefs, cands=cands)
    fast = audit(pol, prob, [], [], lambda sets: load_policy("central-dopt"))
    proved = audit(pol, prob, [], [], lambda sets: load_policy("central-dopt"), prove=True)
    assert fast.unique == proved.unique
    assert {r[0] for r in fast.contested} == {r[0] for r in proved.contested}
    if "institution-optimal" in fast.alternatives:
        rows = fast.alternatives["institution-optimal"].allocation_rows()
        write_csv(folder / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
                  [r[:6] for r in rows])
        assert verify(pol, prob, read_allocation(folder / "a.csv", prob, pol)) == []


def test_ssc_cgl_ranks_jso_on_paper_two_by_its_model(tmp_path):
    """ssc-cgl names the list that ranks JSO (merit.post_lists: Tier-II Paper-II, the SSC CGL notices as
    summarised): a vacancies file without merit_list, and a ranks file with list tier2_paper2, rank JSO on it.
    The answer is the hand-worked one of `test_each_post_chooses_by_its_own_list` (A AAO, D JSO). Without the
    ranks file the run says the posts rank by the candidates' own merit instead."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], CANDS)
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], [[c, "tier2_paper2", k] for c, _, k in PAPER2])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in PREFS.items() for k, post in enumerate(posts)])
    write_csv(tmp_path / "v0.csv", ["post", "category", "vacancies"], [v[:3] for v in VACS])
    base = ["solve", "--policy", "ssc-cgl", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / "v0.csv"), "--preferences", str(tmp_path / "p.csv"), "--engine", "greedy", "--quiet"]
    r = CliRunner().invoke(app, [*base, "--ranks", str(tmp_path / "r.csv"), "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "o" / "allocation.csv")} == {"A": "AAO", "D": "JSO"}
    r = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "o2")])
    assert r.exit_code == 0 and "JSO rank by their own merit lists" in r.output.replace("\n", " ")
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "o2" / "allocation.csv")} == {"A": "JSO", "B": "AAO"}


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=market(), data=st.data())
def test_the_same_rank_rule_on_random_ties(tmp_path_factory, m, data):
    """Ranks on the second list drawn with repeats, the same-rank rule on (merit.same_rank = "supernumerary"):
    read off the definition here, nobody wants a seat (of a compartment he may hold) that is short or held by one
    of a rank at or below his on the post's list, and past a compartment's capacity only those of the last
    rank within it hold seats; `verify` finds nothing."""
    cands, vacs, ranks, prefs = m
    ranks = [[c, "second", data.draw(st.integers(1, 3))] for c, _, _ in (ranks or [[cands[0][0], "second", 1]])]
    folder = tmp_path_factory.mktemp("same")
    write_csv(folder / "c.csv", ["id", "score", "category"], cands)
    write_csv(folder / "v.csv", ["post", "category", "vacancies", "merit_list"], vacs)
    write_csv(folder / "r.csv", ["candidate_id", "list", "rank"], ranks)
    write_csv(folder / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    pol = load_policy("central-dopt", ["merit.same_rank=supernumerary"])
    prob = read_problem(pol, folder / "c.csv", folder / "v.csv", folder / "p.csv", ranks=folder / "r.csv")
    rows = solve(pol, prob, engine="greedy").result.allocation_rows()
    got = {r[0]: (r[1], r[2]) for r in rows}
    second = {r[0]: r[2] for r in ranks}
    own = {c[0]: k for k, c in enumerate(cands)}
    cat = {c[0]: c[2] for c in cands}

    def level(post, code, cid):
        # (each row ranks its seats by its own list: the market may name one per category; absent from it: None)
        return own[cid] if not next(v[3] for v in vacs if v[:2] == [post, code]) else second.get(cid)

    for post, code, cap, _ in vacs:
        holders = sorted(level(post, code, h) for h, (p, s) in got.items() if p == post and s == code)
        assert len(holders) <= cap or all(x == holders[cap - 1] for x in holders[cap - 1:]), (post, code, got)
    for cid, wanted in prefs.items():
        mine = got.get(cid, (None, None))[0]
        for post in wanted:
            if post == mine:
                break
            for code in ("UR", cat[cid]) if cat[cid] != "UR" else ("UR",):
                if level(post, code, cid) is None:
                    continue
                cap = next(v[2] for v in vacs if v[0] == post and v[1] == code)
                holders = [h for h, (p, s) in got.items() if p == post and s == code]
                assert len(holders) >= cap, (cid, post, code, got)
                assert all(level(post, code, h) < level(post, code, cid) for h in holders), (cid, post, code, got)
    write_csv(folder / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [r[:6] for r in rows])
    assert verify(pol, prob, read_allocation(folder / "a.csv", prob, pol)) == []


def test_a_sweep_reads_the_lists(tmp_path):
    """`sweep --ranks`: each scenario ranks JSO on Paper-II, as `solve --ranks` does (A AAO and D JSO, the
    hand-worked answer above, in both scenarios of a grid that changes nothing they turn on)."""
    inputs(tmp_path)
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"),
                                 "--ranks", str(tmp_path / "r.csv"), "--grid", "ceiling.share=0.5,0.6",
                                 "--out", str(tmp_path / "sw")])
    assert r.exit_code == 0, r.output
    rows = {(x["scenario"], x["post"]): x["last_rank"] for x in read_csv(tmp_path / "sw" / "results.csv")
            if x["category"] == "UR"}
    assert rows == {(s, p): "1" for s in ("ceiling.share=0.5", "ceiling.share=0.6") for p in ("AAO", "JSO")}


def test_a_category_ranked_by_a_list_of_its_own(tmp_path):
    """JoSAA's category rank lists (Business Rules, "Rank lists", as RULES.md summarises them: category ranks
    within each list unless they are given): program X has an OPEN seat ranked on list adv (A 1, B 2) and an
    OBC seat ranked on adv-obc (P 1, B 2), where P, on the category's list only, may hold the OBC seat and not
    the OPEN one. Everyone wants X. The OPEN seat goes to A (1st on adv; P is not on it); the OBC seat to P, 1st
    on adv-obc, though B is above him on adv. Were the OBC seat ranked on adv, P could not hold it and B would.
    verify judges each seat by its own row's list: B on the OBC seat with P out is justified envy on adv-obc."""
    cands = [["A", 100, "UR"], ["B", 90, "OBC"], ["P", 80, "OBC"]]
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "merit_list"],
              [["X", "UR", 1, "adv"], ["X", "OBC", 1, "adv-obc"]])
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"],
              [["A", "adv", 1], ["B", "adv", 2], ["P", "adv-obc", 1], ["B", "adv-obc", 2]])
    pol = load_policy("central-dopt")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", ranks=tmp_path / "r.csv")
    for engine in ("greedy", "cpsat"):
        rows = solve(pol, prob, engine=engine).result.allocation_rows()
        assert {r[0]: (r[1], r[2]) for r in rows} == {"A": ("X", "UR"), "P": ("X", "OBC")}
    write_csv(tmp_path / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [r[:6] for r in rows])
    assert verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol)) == []
    write_csv(tmp_path / "b.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [["A", "X", "UR", "UR", "", "open_merit"], ["B", "X", "OBC", "OBC", "", "reserved"]])
    found = verify(pol, prob, read_allocation(tmp_path / "b.csv", prob, pol))
    assert [(v.rule, v.candidate) for v in found] == [("justified envy", "P")] and "adv-obc" in found[0].detail
    write_csv(tmp_path / "v2.csv", ["post", "category", "vacancies", "merit_list"],
              [["X", "UR", 1, "adv"], ["X", "OBC", 1, "adv"]])
    prob2 = read_problem(pol, tmp_path / "c.csv", tmp_path / "v2.csv", ranks=tmp_path / "r.csv")
    assert {r[0]: r[2] for r in solve(pol, prob2, engine="greedy").result.allocation_rows()} == {"A": "UR", "B": "OBC"}
    write_outputs_dir = tmp_path / "o"
    r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--ranks", str(tmp_path / "r.csv"),
                                 "--engine", "greedy", "--quiet", "--out", str(write_outputs_dir)])
    assert r.exit_code == 0, r.output
    cut = {(x["post"], x["category"]): x["last_rank"] for x in read_csv(write_outputs_dir / "cutoffs.csv")}
    assert cut[("X", "UR")] == "1" and cut[("X", "OBC")] == "1"     # (each on its own list)


def test_a_later_round_ranks_each_category_by_its_own_rows_list(tmp_path):
    """X's UR seat is ranked on the candidates' own merit (A 100, U2 95, S1 90, S2 80), its SC seat on the SC list
    scl (S2 1st, S1 2nd; no UR candidate on it). Round 1: A the UR seat, S2 the SC seat. In the sliding round A is
    absent and S2 fixes: the UR seat left goes to U2, the best left on own merit. The round rebuilt X's rows with
    the post's last row's list, scl, for both, so U2 (not on scl) could not hold the UR seat and S1 took it;
    verify, reading the rows itself, named U2 passed over."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category"],
              [["A", 100, "UR"], ["U2", 95, "UR"], ["S1", 90, "SC"], ["S2", 80, "SC"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "merit_list"], [["X", "UR", 1, ""], ["X", "SC", 1, "scl"]])
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], [["S2", "scl", 1], ["S1", "scl", 2]])
    write_csv(tmp_path / "resp.csv", ["candidate_id", "response"], [["A", "absent"], ["S2", "fix"]])
    given = ["--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"),
             "--ranks", str(tmp_path / "r.csv")]
    r = CliRunner().invoke(app, ["solve", *given, "--engine", "greedy", "--quiet", "--out", str(tmp_path / "r1")])
    assert r.exit_code == 0, r.output
    assert {x["candidate_id"]: x["seat_category"] for x in read_csv(tmp_path / "r1" / "allocation.csv")} == \
        {"A": "UR", "S2": "SC"}
    for engine in ("greedy", "cpsat"):
        out = tmp_path / f"r2-{engine}"
        r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r1"), "--responses", str(tmp_path / "resp.csv"),
                                     "--engine", engine, "--out", str(out)])
        assert r.exit_code == 0, r.output
        assert {x["candidate_id"]: x["seat_category"] for x in read_csv(out / "allocation.csv")} == \
            {"U2": "UR", "S2": "SC"}
        r = CliRunner().invoke(app, ["verify", "--stage", "slide", *given, "--allocation", str(tmp_path / "r1" /
                                     "allocation.csv"), "--responses", str(tmp_path / "resp.csv"), "--slide",
                                     str(out / "allocation.csv")])
        assert r.exit_code == 0, r.output


def test_a_category_without_a_row_is_ranked_by_its_posts_list(tmp_path):
    """vacancies.csv `merit_list` is "the list that ranks a post's applicants" (SPEC.md). A later round of
    counselling offers only the seats left, so at JSO (every row ranked on paper2) the OBC compartment may have no
    row: it is still JSO's, ranked on paper2, and who is not on paper2 may not hold it. Where a post's rows name
    different lists (AAO: UR on the candidates' own merit, OBC on paper2), a category without a row takes neither:
    the candidates' own merit."""
    pol, prob = inputs(tmp_path, vacs=[["AAO", "UR", 1, ""], ["AAO", "SC", 1, "paper2"], ["JSO", "UR", 1, "paper2"]])
    paper2 = prob.lists.index("paper2")
    jso, aao = prob.posts.index("JSO"), prob.posts.index("AAO")
    assert paper2 > 0
    assert [prob.list_of(jso, c) for c in ("UR", "OBC")] == [paper2, paper2]
    assert [prob.list_of(aao, c) for c in ("UR", "SC", "OBC")] == [0, paper2, 0]
    pools = solve(pol, prob, engine="greedy").result.pools
    obc_at_jso = [p for p in pools if p.post == jso and p.category == "OBC"]
    assert obc_at_jso and all(p.merit_list == paper2 for p in obc_at_jso)


def test_the_digests_begun_with_the_run_name_the_ranks_file_too(tmp_path, monkeypatch):
    """The SHA-256 of the inputs, worked out beside the solve from the start of a run, are those of every file
    the problem names, the ranks file among them: provenance then takes them as they are, with no file hashed a
    second time at the end (a ranks file left out had every input hashed again)."""
    from solver.io.readers import input_sources
    from solver.outcome import reports
    from solver.runs.year import Round, RunOptions, run_year
    pol, prob = inputs(tmp_path)
    assert input_sources(tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv", tmp_path / "r.csv") == \
        prob.sources
    called = []
    monkeypatch.setattr(reports, "_sha256_each", lambda sources: called.append(sorted(sources)) or
                        {role: reports.sha256_file(path) for role, path in sources.items()})
    run_year(RunOptions(pol, "greedy"), Round(tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv",
                                              out=tmp_path / "out", ranks=tmp_path / "r.csv"))
    assert called == [["candidates", "preferences", "ranks", "vacancies"]]     # (once: in the background)


def test_the_library_s_solve_reads_ranks_as_the_command_does(tmp_path):
    """`solve(..., ranks=)` with tables, as `--ranks` with files: the allocation worked by hand above (A AAO, D
    JSO on Paper-II's order); the tables are named as tables in the problem's sources, and ranks= beside a
    problem already read is refused (its lists are read with it)."""
    import pandas as pd
    cands = pd.DataFrame(CANDS, columns=["id", "score", "category"])
    vacs = pd.DataFrame(VACS, columns=["post", "category", "vacancies", "merit_list"])
    ranks = pd.DataFrame(PAPER2, columns=["candidate_id", "list", "rank"])
    prefs = pd.DataFrame([[cid, k + 1, post] for cid, posts in PREFS.items() for k, post in enumerate(posts)],
                         columns=["candidate_id", "order", "post"])
    sol = solve("central-dopt", candidates=cands, vacancies=vacs, preferences=prefs, ranks=ranks, engine="greedy")
    assert held(sol.result) == {"A": "AAO", "D": "JSO"}
    assert sol.result.problem.sources["ranks"] == "<DataFrame>"
    with pytest.raises(TypeError, match="ranks="):
        solve("central-dopt", sol.result.problem, ranks=ranks)


def test_a_ranks_file_no_post_ranks_by_is_said(tmp_path):
    """Neither post names a list (no merit_list, and central-dopt has no merit.post_lists): the ranks file is
    read, changes nothing, and the run says so rather than passing it over in silence."""
    said = []
    inputs(tmp_path, vacs=[["AAO", "UR", 1, ""], ["JSO", "UR", 1, ""]])
    pol = load_policy("central-dopt")
    read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv", ranks=tmp_path / "r.csv",
                 warn=said.append)
    assert any("no post ranks by its lists" in text and "r.csv" in text for text in said), said
