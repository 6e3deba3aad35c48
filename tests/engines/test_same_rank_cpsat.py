"""The same-rank rule in the CP-SAT model (JoSAA Business Rules, "Multiple student - same rank rule", heading read,
text not read; as NDTV summarised it in 2021 and 2022: where fewer seats remain in a program than candidates of
the same rank seeking them, all of them are offered seats, supernumerary ones; the policy's `merit.same_rank =
"supernumerary"`). Deferred acceptance applies it as a pool chooses; the model states it: candidates of one rank
are admitted together or not at all, and where they are the last a pool admits, its capacity bounds only the
holders better than them. Each answer below is worked by hand from the rule; CP-SAT gives it certifying the
greedy's answer and on its own, and `verify` accepts it."""
from conftest import write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import load_policy, solve
from solver.io.readers import read_problem
from solver.verify import read_allocation
from solver.verify.checks import verify

COLS = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"]


def _problem(folder, cands, vacs, ranks, prefs=None):
    """cands: (id, rank, category); vacs: (post, category, vacancies, merit_list); ranks: (id, list, rank);
    prefs: id -> posts in order."""
    write_csv(folder / "c.csv", ["id", "rank", "category"], cands)
    write_csv(folder / "v.csv", ["post", "category", "vacancies", "merit_list"], vacs)
    write_csv(folder / "r.csv", ["candidate_id", "list", "rank"], ranks)
    if prefs is not None:
        write_csv(folder / "p.csv", ["candidate_id", "order", "post"],
                  [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    pol = load_policy("josaa-2025")
    return pol, read_problem(pol, folder / "c.csv", folder / "v.csv", folder / "p.csv" if prefs else None,
                             ranks=folder / "r.csv")


def _held(pol, prob, engine, hint=True):
    return {r[0]: (r[1], r[2]) for r in solve(pol, prob, engine=engine, hint=hint).result.allocation_rows()}


def _every_engine(folder, pol, prob):
    """The greedy's answer, after checking CP-SAT's (hinted and unaided) is the same and `verify` accepts it."""
    greedy = solve(pol, prob, engine="greedy").result.allocation_rows()
    want = {r[0]: (r[1], r[2]) for r in greedy}
    assert _held(pol, prob, "cpsat") == want
    assert _held(pol, prob, "cpsat", hint=False) == want
    write_csv(folder / "a.csv", COLS, [r[:6] for r in greedy])
    assert verify(pol, prob, read_allocation(folder / "a.csv", prob, pol)) == []
    return want


def test_two_seats_and_a_tie_at_the_second_admit_three(tmp_path):
    """X: 2 OPEN seats on list adv. A is 1st, B and C share rank 2, D is 4th. The second seat goes to rank 2,
    held by two: A, B and C hold X (one seat over the number), D does not."""
    cands = [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"], ["D", 4, "OPEN"]]
    ranks = [["A", "adv", 1], ["B", "adv", 2], ["C", "adv", 2], ["D", "adv", 4]]
    pol, prob = _problem(tmp_path, cands, [["X", "OPEN", 2, "adv"]], ranks)
    assert _every_engine(tmp_path, pol, prob) == {x: ("X", "OPEN") for x in "ABC"}


def test_a_tie_inside_the_capacity_adds_no_seat(tmp_path):
    """X: 2 OPEN seats. A and B share rank 1, C is 3rd: A and B fill the two seats, C is left out (no seat over
    the number: the tie is not at the last seat)."""
    cands = [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"]]
    ranks = [["A", "adv", 1], ["B", "adv", 1], ["C", "adv", 3]]
    pol, prob = _problem(tmp_path, cands, [["X", "OPEN", 2, "adv"]], ranks)
    assert _every_engine(tmp_path, pol, prob) == {"A": ("X", "OPEN"), "B": ("X", "OPEN")}


def test_one_of_the_tied_taking_a_seat_he_prefers_leaves_the_other_the_seat_alone(tmp_path):
    """X (1 OPEN seat, list adv) and Y (1 OPEN seat, list main). A and B share rank 1 on adv; A ranks Y first
    and is first on main, so he holds Y. B holds X alone (no seat over the number: only one of the tied wants
    it); C (3rd on adv) wanted X and is left out, X being full."""
    cands = [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"]]
    ranks = [["A", "adv", 1], ["B", "adv", 1], ["C", "adv", 3], ["A", "main", 1], ["B", "main", 2], ["C", "main", 3]]
    vacs = [["X", "OPEN", 1, "adv"], ["Y", "OPEN", 1, "main"]]
    pol, prob = _problem(tmp_path, cands, vacs, ranks, {"A": ["Y", "X"], "B": ["X"], "C": ["X"]})
    assert _every_engine(tmp_path, pol, prob) == {"A": ("Y", "OPEN"), "B": ("X", "OPEN")}


def test_a_tie_below_the_cutoff_is_left_out_whole(tmp_path):
    """X: 1 OPEN seat. A is 1st; B and C share rank 2. A holds the seat; neither B nor C is admitted (the rule
    gives seats to a tie at the last seat, not to one after it)."""
    cands = [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"]]
    ranks = [["A", "adv", 1], ["B", "adv", 2], ["C", "adv", 2]]
    pol, prob = _problem(tmp_path, cands, [["X", "OPEN", 1, "adv"]], ranks)
    assert _every_engine(tmp_path, pol, prob) == {"A": ("X", "OPEN")}


def test_a_tied_candidate_pushed_out_elsewhere_comes_back_to_the_tie(tmp_path):
    """X (1 seat, adv) and Y (1 seat, main). B and C share rank 2 on adv; A is 1st on adv. Ranked lists: A: X;
    B: Y, X; C: X; D: Y (D is 1st on main, B 2nd). D takes Y, so B falls back to X, where A holds the one seat:
    A is better than the tie, so X admits nobody of rank 2 (B and C out)."""
    cands = [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"], ["D", 4, "OPEN"]]
    ranks = [["A", "adv", 1], ["B", "adv", 2], ["C", "adv", 2], ["D", "main", 1], ["B", "main", 2]]
    vacs = [["X", "OPEN", 1, "adv"], ["Y", "OPEN", 1, "main"]]
    pol, prob = _problem(tmp_path, cands, vacs, ranks, {"A": ["X"], "B": ["Y", "X"], "C": ["X"], "D": ["Y"]})
    assert _every_engine(tmp_path, pol, prob) == {"A": ("X", "OPEN"), "D": ("Y", "OPEN")}


@st.composite
def _tied_market(draw):
    n = draw(st.integers(2, 9))
    ids = [f"C{i}" for i in range(n)]
    cats = [draw(st.sampled_from(["OPEN", "OBC-NCL"])) for _ in ids]
    posts = ["X", "Y", "Z"][:draw(st.integers(1, 3))]
    vacs = [[p, c, draw(st.integers(1, 2) if c == "OPEN" else st.integers(0, 1)),   # (within the 50% ceiling)
             draw(st.sampled_from(["adv", "main"]))] for p in posts for c in ("OPEN", "OBC-NCL")]
    for row in vacs:     # (a post ranks by one list)
        row[3] = next(r[3] for r in vacs if r[0] == row[0])
    ranks = [[cid, lst, draw(st.integers(1, max(2, n // 2)))] for cid in ids for lst in ("adv", "main")
             if draw(st.booleans()) or lst == "main" or cid == ids[0]]
    prefs = {cid: draw(st.permutations(posts))[:draw(st.integers(1, len(posts)))] for cid in ids}
    return [[cid, k + 1, cats[k]] for k, cid in enumerate(ids)], vacs, ranks, prefs


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=_tied_market())
def test_engines_agree_and_verify_accepts_with_ties(tmp_path_factory, m):
    """On random markets with many ties on two lists: CP-SAT (hinted and on its own) gives deferred acceptance's
    allocation, and `verify` finds nothing in it."""
    folder = tmp_path_factory.mktemp("tied")
    pol, prob = _problem(folder, *m)
    _every_engine(folder, pol, prob)


def test_seats_over_the_number_are_outside_the_ceiling(tmp_path):
    """X: 1 OPEN and 1 OBC-NCL seat (50%, at the ceiling: Indra Sawhney 1992). A (OPEN) is 1st on main; B and C
    (OBC-NCL) share rank 2. A holds the OPEN seat, B and C the OBC-NCL one (one seat over the number). Two of
    three appointments are OBC-NCL, but the seat over the number is not a notified vacancy: the ceiling holds.
    A third OBC-NCL holder of a lower rank breaks the capacity, not the tie."""
    cands = [["A", 1, "OPEN"], ["B", 2, "OBC-NCL"], ["C", 3, "OBC-NCL"], ["D", 4, "OBC-NCL"]]
    ranks = [["A", "main", 1], ["B", "main", 2], ["C", "main", 2], ["D", "main", 4]]
    vacs = [["X", "OPEN", 1, "main"], ["X", "OBC-NCL", 1, "main"]]
    pol, prob = _problem(tmp_path, cands, vacs, ranks)
    assert _every_engine(tmp_path, pol, prob) == {"A": ("X", "OPEN"), "B": ("X", "OBC-NCL"),
                                                  "C": ("X", "OBC-NCL")}
    rows = [["A", "X", "OPEN", "OPEN", "", "open_merit"]] + [[x, "X", "OBC-NCL", "OBC-NCL", "", "reserved"]
                                                             for x in "BCD"]
    write_csv(tmp_path / "planted.csv", COLS, rows)
    found = verify(pol, prob, read_allocation(tmp_path / "planted.csv", prob, pol))
    assert "over capacity" in {v.rule for v in found}


def test_a_round_after_a_tie_under_both_engines(tmp_path):
    """Round 1: X and Y (1 OPEN seat each, list adv, one institute); A and B share rank 1 and hold X (one seat over
    the number), C (3rd) holds Y, D (4th) nothing. Round 2: A withdraws, B freezes, C floats. The seat A leaves at
    X is a seat of the round (this model's reading: the round offers every seat the round before held; whether a
    seat over the number lapses once left is not in the summaries read), so C moves up to X and D takes Y. Both
    engines give it, and `verify --stage slide` finds nothing."""
    from conftest import read_csv

    from solver.exam.slide import slide
    from solver.outcome.reports import write_outputs
    from solver.verify.slide import check_slide

    cands = [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"], ["D", 4, "OPEN"]]
    ranks = [["A", "adv", 1], ["B", "adv", 1], ["C", "adv", 3], ["D", "adv", 4]]
    vacs = [["X", "OPEN", 1, "adv"], ["Y", "OPEN", 1, "adv"]]
    pol, prob = _problem(tmp_path, cands, vacs, ranks, {"A": ["X"], "B": ["X", "Y"], "C": ["X", "Y"], "D": ["X", "Y"]})
    write_outputs(tmp_path / "out", solve(pol, prob, "greedy").result, {})
    alloc = read_csv(tmp_path / "out" / "allocation.csv")
    assert [(r["candidate_id"], r["post"]) for r in alloc] == [("A", "X"), ("B", "X"), ("C", "Y")]
    said = {"A": "withdraw", "B": "freeze", "C": "float"}
    for engine in ("greedy", "cpsat"):
        done = slide(pol, prob, [dict(r) for r in alloc], said, engine)
        assert [tuple(r[:2]) for r in done.rows] == [("B", "X"), ("C", "X"), ("D", "Y")]
    write_csv(tmp_path / "s.csv", COLS, [r[:6] for r in done.rows])
    assert check_slide(pol, prob, read_allocation(tmp_path / "out" / "allocation.csv", prob, pol), said,
                       read_allocation(tmp_path / "s.csv", prob, pol)) == []
