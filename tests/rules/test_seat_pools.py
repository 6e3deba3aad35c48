"""Seat pools along several dimensions (vacancies.csv `quota`, `gender_pool`, `trait`; candidates.csv
`home_state`; the policy's `[seat_pools]`): each combination is a post of its own, a choice of the program stands
for the pools its candidate may hold in the policy's order, and within a pool open seats come before the
category's. The order read from RULES.md's summary of the JoSAA Business Rules ("Sequence in which seat
categories are considered": OPEN before the category, PwD seats after those; a female candidate tried for
gender-neutral seats before female-only ones) and from the Business Rules' HS/OS quotas at NITs (summarised;
the sections' text was not read). Each answer is worked by hand."""
import json

import numpy as np
import pytest
from conftest import read_csv, write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver import load_policy, solve
from solver.cli import app
from solver.errors import InputError, PolicyConflict
from solver.io.readers import read_problem
from solver.verify import read_allocation
from solver.verify.checks import verify

COLS = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"]


def inputs(folder, cands, vacs, prefs=None):
    """cands: (id, rank, category, gender, pwbd, home_state); vacs: (post, category, vacancies, quota, gender_pool,
    trait, state)."""
    write_csv(folder / "c.csv", ["id", "rank", "category", "gender", "pwbd", "home_state"], cands)
    write_csv(folder / "v.csv", ["post", "category", "vacancies", "quota", "gender_pool", "trait", "state"], vacs)
    if prefs is not None:
        write_csv(folder / "p.csv", ["candidate_id", "order", "post"],
                  [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    pol = load_policy("josaa-2025")
    return pol, read_problem(pol, folder / "c.csv", folder / "v.csv", folder / "p.csv" if prefs else None)


def held(result):
    return {row[0]: (row[1], row[2]) for row in result.allocation_rows()}


def judged(pol, prob, folder, rows):
    write_csv(folder / "a.csv", COLS, rows)
    return verify(pol, prob, read_allocation(folder / "a.csv", prob, pol))


def test_a_woman_is_tried_for_gender_neutral_seats_before_female_only_ones(tmp_path):
    """P has one gender-neutral OPEN seat and one female-only OPEN seat. A (woman, rank 1) takes the
    gender-neutral seat; B (man, rank 2) may not hold the female-only one and has nothing; C (woman, rank 3)
    takes the female-only seat. Were the female-only seat tried first, A would take it and B the other."""
    cands = [["A", 1, "OPEN", "F", "", ""], ["B", 2, "OPEN", "M", "", ""], ["C", 3, "OPEN", "F", "", ""]]
    vacs = [["P", "OPEN", 1, "AI", "neutral", "", ""], ["P", "OPEN", 1, "AI", "female", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs)
    for engine in ("greedy", "cpsat"):
        assert held(solve(pol, prob, engine=engine).result) == {"A": ("P", "OPEN"), "C": ("P [female]", "OPEN")}
    found = judged(pol, prob, tmp_path, [["A", "P [female]", "OPEN", "OPEN", "", "open_merit"],
                                         ["B", "P", "OPEN", "OPEN", "", "open_merit"]])
    # A, tried for the neutral seat first, is passed over there by B, below her
    assert {(v.rule, v.candidate, v.post) for v in found} == {("justified envy", "A", "P")}
    found = judged(pol, prob, tmp_path, [["A", "P", "OPEN", "OPEN", "", "open_merit"],
                                         ["B", "P [female]", "OPEN", "OPEN", "", "open_merit"]])
    assert any(v.rule == "not eligible for the seat pool" and v.candidate == "B" and "not a woman" in v.detail
               for v in found)


def test_a_pwd_candidate_is_tried_for_open_then_her_category_then_the_pwd_seats(tmp_path):
    """P: one seat each of OPEN, OBC-NCL, OPEN for PwD and OBC-NCL for PwD. X (OPEN, rank 1) takes OPEN. Y (OBC-NCL
    PwD, rank 2) is tried for OPEN (held by X, above her), then OBC-NCL: she takes it, not a PwD seat. Z (OBC-NCL
    PwD, 3) finds both full and takes the PwD pool's OPEN seat (open before her category's there too); W (OBC-NCL
    PwD, 4) the PwD pool's OBC-NCL seat. V (OPEN, not PwD, 5) may hold no PwD seat."""
    cands = [["X", 1, "OPEN", "M", "", ""], ["Y", 2, "OBC-NCL", "F", "a", ""], ["Z", 3, "OBC-NCL", "M", "b", ""],
             ["W", 4, "OBC-NCL", "M", "c", ""], ["V", 5, "OPEN", "M", "", ""]]
    vacs = [["P", "OPEN", 1, "AI", "neutral", "", ""], ["P", "OBC-NCL", 1, "AI", "neutral", "", ""],
            ["P", "OPEN", 1, "AI", "neutral", "pwbd", ""], ["P", "OBC-NCL", 1, "AI", "neutral", "pwbd", ""]]
    pol, prob = inputs(tmp_path, cands, vacs)
    want = {"X": ("P", "OPEN"), "Y": ("P", "OBC-NCL"), "Z": ("P [pwbd]", "OPEN"), "W": ("P [pwbd]", "OBC-NCL")}
    for engine in ("greedy", "cpsat"):
        assert held(solve(pol, prob, engine=engine).result) == want
    found = judged(pol, prob, tmp_path, [["X", "P", "OPEN", "OPEN", "", "open_merit"],
                                         ["V", "P [pwbd]", "OPEN", "OPEN", "", "open_merit"]])
    assert any(v.rule == "not eligible for the seat pool" and v.candidate == "V" for v in found)


def test_home_state_and_other_state_quotas(tmp_path):
    """NIT program Q in Karnataka: one HS seat, one OS seat. M1 (Maharashtra, rank 1) may hold only the OS seat and
    takes it; K1 (Karnataka, 2) the HS seat; K2 (Karnataka, 3) may not hold the OS seat and has nothing; M2
    (Maharashtra, 4) finds OS full. One who gave no home state is of another state."""
    cands = [["M1", 1, "OPEN", "M", "", "MH"], ["K1", 2, "OPEN", "M", "", "KA"], ["K2", 3, "OPEN", "M", "", "KA"],
             ["M2", 4, "OPEN", "M", "", "MH"], ["N", 5, "OPEN", "M", "", ""]]
    vacs = [["Q", "OPEN", 1, "HS", "neutral", "", "KA"], ["Q", "OPEN", 1, "OS", "neutral", "", "KA"]]
    pol, prob = inputs(tmp_path, cands, vacs)
    for engine in ("greedy", "cpsat"):
        assert held(solve(pol, prob, engine=engine).result) == {"M1": ("Q [OS]", "OPEN"), "K1": ("Q [HS]", "OPEN")}
    found = judged(pol, prob, tmp_path, [["M1", "Q [HS]", "OPEN", "OPEN", "", "open_merit"],
                                         ["K1", "Q [OS]", "OPEN", "OPEN", "", "open_merit"]])
    bad = {v.candidate for v in found if v.rule == "not eligible for the seat pool"}
    assert bad == {"M1", "K1"}


def test_an_all_india_seat_before_a_home_state_seat_at_one_program(tmp_path):
    """Program Q in Karnataka with one AI seat and one HS seat; josaa-2025 tries quotas in the order it lists
    them (AI, HS, OS). K1 (Karnataka, 1) takes the AI seat, K2 (Karnataka, 2) the HS seat; M1 (Maharashtra, 3)
    may hold only the AI seat, which K1 holds. With HS listed first K1 would take the HS seat and K2 the AI one."""
    cands = [["K1", 1, "OPEN", "M", "", "KA"], ["K2", 2, "OPEN", "M", "", "KA"], ["M1", 3, "OPEN", "M", "", "MH"]]
    vacs = [["Q", "OPEN", 1, "AI", "neutral", "", "KA"], ["Q", "OPEN", 1, "HS", "neutral", "", "KA"]]
    pol, prob = inputs(tmp_path, cands, vacs)
    for engine in ("greedy", "cpsat"):
        assert held(solve(pol, prob, engine=engine).result) == {"K1": ("Q", "OPEN"), "K2": ("Q [HS]", "OPEN")}
    assert [[prob.posts[j] for j in p] for p in prob.preferences] == [["Q", "Q [HS]"], ["Q", "Q [HS]"], ["Q"]]
    hs_first = load_policy("josaa-2025", ['seat_pools.quotas={HS={holders="home"}, AI={holders="all"}, '
                                          'OS={holders="other"}}'])
    prob2 = read_problem(hs_first, tmp_path / "c.csv", tmp_path / "v.csv")
    assert held(solve(hs_first, prob2, engine="greedy").result) == {"K1": ("Q [HS]", "OPEN"), "K2": ("Q", "OPEN")}


def test_a_program_ranked_stands_for_its_pools_in_order(tmp_path):
    """A woman ranks R then P: her list reads R, R [female], P, P [female]; a man's R, P. She takes P's neutral
    seat only when R's two pools are full."""
    cands = [["A", 1, "OPEN", "M", "", ""], ["B", 2, "OPEN", "F", "", ""], ["C", 3, "OPEN", "F", "", ""]]
    vacs = [["P", "OPEN", 1, "AI", "neutral", "", ""], ["P", "OPEN", 1, "AI", "female", "", ""],
            ["R", "OPEN", 1, "AI", "neutral", "", ""], ["R", "OPEN", 1, "AI", "female", "", ""]]
    prefs = {"A": ["R", "P"], "B": ["R", "P"], "C": ["R", "P"]}
    pol, prob = inputs(tmp_path, cands, vacs, prefs)
    names = [[prob.posts[j] for j in p] for p in prob.preferences]
    assert names == [["R", "P"], ["R", "R [female]", "P", "P [female]"], ["R", "R [female]", "P", "P [female]"]]
    assert held(solve(pol, prob, engine="greedy").result) == {"A": ("R", "OPEN"), "B": ("R [female]", "OPEN"),
                                                               "C": ("P", "OPEN")}


def test_reasons_say_where_the_candidate_ranked_the_program_not_the_pool(tmp_path):
    """The reasons' "(ranked 1st)" is the place a candidate gave a program in her list (preferences.csv ranks
    programs: the JoSAA Business Rules' choices are of "academic programs"), not the place of one of its seat pools
    in the list the pools make: B, C and D rank R then P, which read for them R, R [female], P, P [female]. B holds
    R's female-only seat, her first choice; C holds P's gender-neutral seat, her second, below both of R's pools;
    D P's female-only seat, her second too.
    Worked by hand (`test_a_program_ranked_stands_for_its_pools_in_order` gives the allocation)."""
    cands = [["A", 1, "OPEN", "M", "", ""], ["B", 2, "OPEN", "F", "", ""], ["C", 3, "OPEN", "F", "", ""],
             ["D", 4, "OPEN", "F", "", ""]]
    vacs = [["P", "OPEN", 1, "AI", "neutral", "", ""], ["P", "OPEN", 1, "AI", "female", "", ""],
            ["R", "OPEN", 1, "AI", "neutral", "", ""], ["R", "OPEN", 1, "AI", "female", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs, {c: ["R", "P"] for c in "ABCD"})
    from solver.outcome.reasons import decision_rows
    reasons = {row[0]: row[3] for row in decision_rows(solve(pol, prob, engine="greedy").result)}
    assert reasons["B"] == "rank 2: selected at R [female] (ranked 1st) on open merit; below the open cutoff at R " \
                           "(ranked 1st) (rank 1)"
    assert reasons["C"] == "rank 3: selected at P (ranked 2nd) on open merit; below the open cutoff at R (ranked 1st) " \
                           "(rank 1); below the open cutoff at R [female] (ranked 1st) (rank 2)"
    assert reasons["D"] == "rank 4: selected at P [female] (ranked 2nd) on open merit; below the open cutoff at R " \
                           "(ranked 1st) (rank 1); below the open cutoff at R [female] (ranked 1st) (rank 2); below " \
                           "the open cutoff at P (ranked 2nd) (rank 3)"


def test_a_program_with_no_pool_a_candidate_may_hold_drops_out_of_his_list(tmp_path):
    """Q has only a Karnataka HS seat; R a neutral and a female-only seat. Z (first on merit) ranks nothing; M
    (Maharashtra) ranks Q then R: Q stands for no pool he may hold, so his list is R alone; W (a woman of
    Karnataka) ranks R then Q: R, R [female], Q [HS]. The lists before and after an empty one keep their own."""
    cands = [["Z", 1, "OPEN", "M", "", "KA"], ["M", 2, "OPEN", "M", "", "MH"], ["W", 3, "OPEN", "F", "", "KA"]]
    vacs = [["Q", "OPEN", 1, "HS", "neutral", "", "KA"], ["R", "OPEN", 1, "AI", "neutral", "", ""],
            ["R", "OPEN", 1, "AI", "female", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs, {"M": ["Q", "R"], "W": ["R", "Q"]})
    assert [[prob.posts[j] for j in p] for p in prob.preferences] == [[], ["R"], ["R", "R [female]", "Q [HS]"]]
    assert held(solve(pol, prob, engine="greedy").result) == {"M": ("R", "OPEN"), "W": ("R [female]", "OPEN")}


def test_a_program_left_out_of_a_list_still_counts_in_the_places_the_reasons_say(tmp_path, monkeypatch):
    """The reasons' "(ranked 2nd)" is the place the candidate gave the program in preferences.csv, the programs
    left out of his list counted: M (Maharashtra) ranks Q (a Karnataka HS seat only, which he may not hold), then
    R, then S; he holds R, his 2nd choice, not his 1st. W (a woman of Karnataka) ranks R, Q, S and holds R's
    female-only seat, her 1st; X (Maharashtra) ranks Q, S and holds S, his 2nd. Each is told which programs
    he ranked above his outcome have no seat open to him (Q for M and X; W ranked it below). The same in a sliding round,
    which reads the choices the first run kept (choices.npy) instead of the preferences file and takes its
    candidates afresh (W withdraws: X is the second of the round's): M and X, floating, keep their seats, told
    each is their 2nd choice.
    Worked by hand (the allocation: `test_a_program_with_no_pool_a_candidate_may_hold_drops_out_of_his_list`)."""
    cands = [["M", 1, "OPEN", "M", "", "MH"], ["W", 2, "OPEN", "F", "", "KA"], ["X", 3, "OPEN", "M", "", "MH"]]
    vacs = [["Q", "OPEN", 1, "HS", "neutral", "", "KA"], ["R", "OPEN", 1, "AI", "neutral", "", ""],
            ["R", "OPEN", 1, "AI", "female", "", ""], ["S", "OPEN", 1, "AI", "neutral", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs, {"M": ["Q", "R", "S"], "W": ["R", "Q", "S"], "X": ["Q", "S"]})
    from solver.outcome.reasons import decision_rows
    reasons = {row[0]: row[3] for row in decision_rows(solve(pol, prob, engine="greedy").result)}
    q = " (his 1st choice Q has no seat open to him: Q's seats are HS (for candidates from KA))"
    assert reasons["M"] == "rank 1: selected at R (ranked 2nd) on open merit" + q
    assert reasons["W"] == "rank 2: selected at R [female] (ranked 1st) on open merit; below the open cutoff at R " \
                           "(ranked 1st) (rank 1)"         # (Q, her 2nd, is below what she holds: not named)
    assert reasons["X"] == "rank 3: selected at S (ranked 2nd) on open merit" + q
    r = CliRunner().invoke(app, ["solve", "--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"),
                                 "--out", str(tmp_path / "r1")])
    assert r.exit_code == 0, r.output
    assert {d["candidate_id"]: d["reason"] for d in read_csv(tmp_path / "r1" / "decisions.csv")} == reasons
    write_csv(tmp_path / "a2.csv", ["candidate_id", "response"], [["M", "float"], ["W", "withdraw"], ["X", "float"]])
    from solver.io import readers
    monkeypatch.setattr(readers, "_in_pools", lambda *a: pytest.fail("the preferences were expanded again"))
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r1"), "--responses", str(tmp_path / "a2.csv"),
                                 "--out", str(tmp_path / "r2")])
    assert r.exit_code == 0, r.output
    said = {d["candidate_id"]: d["reason"] for d in read_csv(tmp_path / "r2" / "decisions.csv")}
    assert said["M"] == "floated from R (OPEN): rank 1: selected at R (ranked 2nd) on open merit" + q
    assert said["X"] == "floated from S (OPEN): rank 3: selected at S (ranked 2nd) on open merit" + q




def test_programs_with_no_seat_open_are_named_the_first_three_and_how_many_more(tmp_path):
    """Q1-Q4 have Karnataka HS seats only, S an AI seat. K (Karnataka, 1) takes S, his last choice; M (Maharashtra,
    2) ranks Q1-Q4 then S and gets nothing: his reason names the first three left out by their places and counts
    the fourth. Worked by hand."""
    cands = [["K", 1, "OPEN", "M", "", "KA"], ["M", 2, "OPEN", "M", "", "MH"]]
    vacs = [[f"Q{k}", "OPEN", 0, "HS", "neutral", "", "KA"] for k in range(1, 5)] + \
        [["S", "OPEN", 1, "AI", "neutral", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs, {"K": ["S"], "M": ["Q1", "Q2", "Q3", "Q4", "S"]})
    from solver.outcome.reasons import decision_rows
    reasons = {row[0]: row[3] for row in decision_rows(solve(pol, prob, engine="greedy").result)}
    assert reasons["M"] == "rank 2 is below the open cutoff at S (ranked 5th) (rank 1) (his 1st choice Q1, 2nd " \
                           "choice Q2, 3rd choice Q3 and 1 more have no seat open to him: Q1's seats are HS (for " \
                           "candidates from KA); Q2's seats are HS (for candidates from KA); Q3's seats are HS (for " \
                           "candidates from KA))"
    assert reasons["K"] == "rank 1: selected at S (ranked 1st) on open merit"

def test_a_program_with_no_seat_open_is_told_by_what_bars_each_of_its_pools(tmp_path):
    """Why not Q? Each program a candidate ranked above his outcome with no seat open to him is told by what bars
    him from each kind of its seat pools (the first of quota, gender pool and trait he fails, read as
    `[seat_pools]` reads them), the kinds in the policy's order (quota AI, HS, OS; then gender pool; then trait).
    Q has a Karnataka HS seat only, F a female-only seat, P a PwD seat, H a Karnataka HS seat and an AI
    female-only one, S one AI seat. M (Maharashtra, a man without a disability, 1st) ranks Q, F, P, H, S and takes
    S, his 5th; N (Maharashtra, a man, 2nd) ranks H, S and is below S's cutoff. W (a woman of Karnataka with a
    disability, 3rd) ranks Q, F, P, H: each has a seat open to her and nothing is said of them. Worked by hand."""
    cands = [["M", 1, "OPEN", "M", "", "MH"], ["N", 2, "OPEN", "M", "", "MH"], ["W", 3, "OPEN", "F", "b", "KA"]]
    vacs = [["Q", "OPEN", 1, "HS", "neutral", "", "KA"], ["F", "OPEN", 1, "AI", "female", "", ""],
            ["P", "OPEN", 1, "AI", "neutral", "pwbd", ""], ["H", "OPEN", 1, "HS", "neutral", "", "KA"],
            ["H", "OPEN", 1, "AI", "female", "", "KA"], ["S", "OPEN", 1, "AI", "neutral", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs, {"M": ["Q", "F", "P", "H", "S"], "N": ["H", "S"],
                                               "W": ["Q", "F", "P", "H"]})
    from solver.outcome.reasons import decision_rows
    result = solve(pol, prob, engine="greedy").result
    assert held(result) == {"M": ("S", "OPEN"), "W": ("Q [HS]", "OPEN")}
    reasons = {row[0]: row[3] for row in decision_rows(result)}
    assert reasons["M"] == "rank 1: selected at S (ranked 5th) on open merit (his 1st choice Q, 2nd choice F, 3rd " \
                           "choice P and 1 more have no seat open to him: Q's seats are HS (for candidates from KA); " \
                           "F's seats are female-only; P's seats are held for pwbd)"
    assert reasons["N"] == "rank 2 is below the open cutoff at S (ranked 2nd) (rank 1) (his 1st choice H has no " \
                           "seat open to him: H's seats are female-only or HS (for candidates from KA))"
    assert "no seat open" not in reasons["W"]


def test_without_a_preferences_file_the_reasons_name_no_place_in_a_list(tmp_path):
    """With no preferences file every candidate's list is every program in the file's order: he ranked nothing,
    so his reasons say no "(ranked 1st)" (as without seat pools). Q has a Karnataka HS seat, R an AI seat: M1
    (Maharashtra, 1) may hold only R and takes it; K1 (Karnataka, 2) takes Q's HS seat; K2 (3) is below both.
    Worked by hand."""
    cands = [["M1", 1, "OPEN", "M", "", "MH"], ["K1", 2, "OPEN", "M", "", "KA"], ["K2", 3, "OPEN", "M", "", "KA"]]
    vacs = [["Q", "OPEN", 1, "HS", "neutral", "", "KA"], ["R", "OPEN", 1, "AI", "neutral", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs)
    from solver.outcome.reasons import decision_rows
    reasons = {row[0]: row[3] for row in decision_rows(solve(pol, prob, engine="greedy").result)}
    assert reasons == {"M1": "rank 1: selected at R on open merit", "K1": "rank 2: selected at Q [HS] on open merit",
                       "K2": "rank 3 is below the open cutoff at Q [HS] (rank 2); the open cutoff at R (rank 1)"}

def test_bad_seat_pool_cells_name_the_file_line_and_column(tmp_path):
    cands = [["A", 1, "OPEN", "M", "", "KA"]]
    for vacs, column, words in (
            ([["Q", "OPEN", 1, "XX", "neutral", "", "KA"]], "quota", "unknown quota 'XX'"),
            ([["Q", "OPEN", 1, "AI", "women", "", ""]], "gender_pool", "unknown gender pool 'women'"),
            ([["Q", "OPEN", 1, "HS", "neutral", "", ""]], "state", "give the program's state"),
            ([["Q", "OPEN", 1, "HS", "neutral", "", "KA"], ["Q", "OPEN", 1, "OS", "neutral", "", "MH"]], "state",
             "a program is in one state")):
        with pytest.raises(InputError) as e:
            inputs(tmp_path, cands, vacs)
        assert f"({column})" in str(e.value.column) and words in str(e.value) and "v.csv" in str(e.value)


def test_the_command_line(tmp_path):
    cands = [["A", 1, "OPEN", "F", "", ""], ["B", 2, "OPEN", "M", "", ""], ["C", 3, "OPEN", "F", "", ""]]
    vacs = [["P", "OPEN", 1, "AI", "neutral", "", ""], ["P", "OPEN", 1, "AI", "female", "", ""]]
    inputs(tmp_path, cands, vacs)
    base = ["--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv")]
    r = CliRunner().invoke(app, ["solve", *base, "--engine", "both", "--quiet", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "o" / "allocation.csv")} == \
        {"A": "P", "C": "P [female]"}
    cut = {x["post"]: x["last_rank"] for x in read_csv(tmp_path / "o" / "cutoffs.csv")}
    assert cut == {"P": "1", "P [female]": "3"}
    assert "supernumerary" not in json.loads((tmp_path / "o" / "summary.json").read_text())
    # The female-only seat marked over the notified number: counted apart in the summary, allocated alike
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "quota", "gender_pool", "trait", "state",
                                   "supernumerary"], [[*vacs[0], "false"], [*vacs[1], "true"]])
    r = CliRunner().invoke(app, ["solve", *base, "--quiet", "--out", str(tmp_path / "s")])
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "s" / "summary.json").read_text())["supernumerary"] == {"seats": 1, "filled": 1}
    r = CliRunner().invoke(app, ["verify", *base, "--allocation", str(tmp_path / "o" / "allocation.csv")])
    assert r.exit_code == 0, r.output

    # A register carries recruitment vacancies forward (backlog); seat pools are admissions: refused, and no
    # register is left behind (SPEC.md's exit 3)
    reg = tmp_path / "reg.sqlite"
    r = CliRunner().invoke(app, ["solve", *base, "--register", str(reg), "--year", "2025", "--quiet",
                                 "--out", str(tmp_path / "r")])
    assert r.exit_code == 3, r.output
    assert "seat pools of counselling" in r.output and "without a register" in r.output
    assert not reg.exists() and not (tmp_path / "r").exists()


@st.composite
def market(draw):
    """Up to 8 candidates (category, gender, PwD, home state), up to 3 programs, each split into pools by quota
    (AI, HS and OS of a state, or HS alone: a program some candidates may hold no seat of), gender pool and PwD,
    with open and reserved seats; random preferences."""
    n = draw(st.integers(1, 8))
    cands = [[f"C{i}", i + 1, draw(st.sampled_from(["OPEN", "OPEN", "OBC-NCL", "SC"])), draw(st.sampled_from("MF")),
              draw(st.sampled_from(["", "", "a"])), draw(st.sampled_from(["KA", "MH", ""]))] for i in range(n)]
    programs = ["P", "Q", "R"][:draw(st.integers(1, 3))]
    vacs = []
    for p in programs:
        quotas = draw(st.sampled_from([[("AI", "")], [("HS", "KA"), ("OS", "KA")], [("HS", "KA")]]))
        for quota, state in quotas:
            for gender in ("neutral", "female")[:draw(st.integers(1, 2))]:
                for trait in ("", "pwbd")[:draw(st.integers(1, 2))]:
                    obc = draw(st.integers(0, 1))
                    vacs += [[p, "OPEN", obc + draw(st.integers(0, 1)), quota, gender, trait, state],
                             [p, "OBC-NCL", obc, quota, gender, trait, state]]
    prefs = {c[0]: list(draw(st.permutations(programs)))[:draw(st.integers(0, len(programs)))] for c in cands}
    return cands, vacs, prefs


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=market())
def test_engines_agree_and_verify_accepts_on_random_seat_pools(tmp_path_factory, m):
    """Deferred acceptance and the CP-SAT model give the same allocation; every holder may hold her pool by its
    quota, gender pool and trait (read off the definition here); `verify` finds nothing."""
    cands, vacs, prefs = m
    folder = tmp_path_factory.mktemp("pools")
    pol, prob = inputs(folder, cands, vacs, prefs)
    greedy = solve(pol, prob, engine="greedy").result.allocation_rows()
    assert solve(pol, prob, engine="cpsat").result.allocation_rows() == greedy
    assert solve(pol, prob, engine="cpsat", hint=False).result.allocation_rows() == greedy   # (on its own)
    who = {c[0]: c for c in cands}
    for row in greedy:
        _, _, _, gender, pwbd, home = who[row[0]]
        parts = row[1].partition(" [")[2].rstrip("]").split(", ")
        assert ("female" not in parts or gender == "F") and ("pwbd" not in parts or pwbd)
        assert ("HS" not in parts or home == "KA") and ("OS" not in parts or home != "KA")
    write_csv(folder / "a.csv", COLS, [r[:6] for r in greedy])
    assert verify(pol, prob, read_allocation(folder / "a.csv", prob, pol)) == []


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=market())
def test_a_pool_stands_at_the_place_its_candidate_gave_its_program(tmp_path_factory, m):
    """`Problem.places` (the reasons' "ranked 2nd"): each seat pool in a candidate's list stands at the place he
    gave its program in preferences.csv, counting every program he ranked, those that stand for no pool he may hold
    too (they drop out of his list: `test_a_program_with_no_pool_a_candidate_may_hold_drops_out_of_his_list`); so
    in a problem whose candidates come in another order (`Problem.reordered`, as a later round takes them)."""
    cands, vacs, prefs = m
    pol, prob = inputs(tmp_path_factory.mktemp("places"), cands, vacs, prefs)
    for problem in (prob, prob.reordered(np.arange(prob.n)[::-1][::2])):
        ids = list(problem.candidates.ids)
        for i, listed in enumerate(problem.preferences):
            programs = [problem.posts[j].partition(" [")[0] for j in listed.tolist()]
            ranked = (prefs or {}).get(ids[i], sorted({v[0] for v in vacs}, key=[v[0] for v in vacs].index))
            assert problem.places(np.full(len(listed), i), listed).tolist() == [ranked.index(p) for p in programs]


def test_the_same_rank_rule_admits_everyone_tied_at_the_last_seat(tmp_path):
    """JoSAA Business Rules, "Multiple student - same rank rule" (as NDTV summarised it, 2021 and 2022: fewer seats
    than candidates of the same rank seeking them, supernumerary seats for all of them). IIT program X has one
    OPEN seat, ranked on JEE (Advanced); A and B are both of rank 1 on it, C of rank 3. Both A and B are admitted
    (one seat over the number), C is not; CP-SAT's model gives the same. verify accepts it, refuses one of the
    tied two left out, and refuses a third holder who is not of that rank."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "merit_list"], [["X", "OPEN", 1, "adv"]])
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], [["B", "adv", 1], ["A", "adv", 1], ["C", "adv", 3]])
    pol = load_policy("josaa-2025")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", ranks=tmp_path / "r.csv")
    result = solve(pol, prob, engine="greedy").result
    assert held(result) == {"A": ("X", "OPEN"), "B": ("X", "OPEN")}
    assert judged(pol, prob, tmp_path, [r[:6] for r in result.allocation_rows()]) == []
    found = judged(pol, prob, tmp_path, [["A", "X", "OPEN", "OPEN", "", "open_merit"]])
    assert [(v.rule, v.candidate) for v in found] == [("same rank left out", "B")]
    found = judged(pol, prob, tmp_path, [["A", "X", "OPEN", "OPEN", "", "open_merit"],
                                         ["B", "X", "OPEN", "OPEN", "", "open_merit"],
                                         ["C", "X", "OPEN", "OPEN", "", "open_merit"]])
    assert [v.rule for v in found] == ["over capacity"]
    for hint in (True, False):   # (CP-SAT states the rule too: certifying the greedy's answer, and on its own)
        assert held(solve(pol, prob, engine="cpsat", hint=hint).result) == held(result)
    with pytest.raises(InputError, match="rank 1 is given twice"):
        read_problem(load_policy("josaa-2025", ["merit.same_rank=refuse"]), tmp_path / "c.csv", tmp_path / "v.csv",
                     ranks=tmp_path / "r.csv")


def test_the_ceiling_is_a_share_of_the_program_not_of_each_pool(tmp_path):
    """A program's PwD pool of one OBC-NCL seat is all reserved, yet the program (three OPEN seats, one OBC-NCL
    seat for PwD) is a quarter reserved: within the 50% ceiling (Indra Sawhney 1992), solved and verified. Two
    more OBC-NCL seats and one SC seat make it 4 of 6 reserved: refused, naming the program."""
    cands = [["A", 1, "OBC-NCL", "M", "b", ""], ["B", 2, "OPEN", "M", "", ""]]
    vacs = [["P", "OPEN", 3, "AI", "neutral", "", ""], ["P", "OBC-NCL", 1, "AI", "neutral", "pwbd", ""]]
    pol, prob = inputs(tmp_path, cands, vacs)
    result = solve(pol, prob, engine="greedy").result
    assert held(result) == {"A": ("P", "OPEN"), "B": ("P", "OPEN")}
    assert judged(pol, prob, tmp_path, [r[:6] for r in result.allocation_rows()]) == []
    vacs += [["P", "OBC-NCL", 2, "AI", "neutral", "", ""], ["P", "SC", 1, "AI", "female", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs)
    with pytest.raises(PolicyConflict, match="program P: 4 of its 7 seats"):
        solve(pol, prob, engine="greedy")


def test_the_order_of_pools_as_a_what_if_in_a_sweep(tmp_path):
    """P: one gender-neutral seat, one gender-neutral seat for PwD, one female-only seat, all OPEN. A (man, 1), W
    (woman with a disability, 2), V (woman, 3), X (man with a disability, 4). As josaa-2025 orders pools (quota,
    gender pool, trait): A P; W is tried for P's PwD seat before the female-only one and takes it; V the
    female-only seat; X nothing. With the trait outermost (trait, gender pool, quota): W takes the female-only
    seat first, V has nothing, X the PwD seat. A sweep of the two orders says so: a PwD man gains, a woman
    loses."""
    cands = [["A", 1, "OPEN", "M", "", ""], ["W", 2, "OPEN", "F", "b", ""], ["V", 3, "OPEN", "F", "", ""],
             ["X", 4, "OPEN", "M", "c", ""]]
    vacs = [["P", "OPEN", 1, "AI", "neutral", "", ""], ["P", "OPEN", 1, "AI", "neutral", "pwbd", ""],
            ["P", "OPEN", 1, "AI", "female", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs)
    assert {k: v[0] for k, v in held(solve(pol, prob, engine="greedy").result).items()} == \
        {"A": "P", "W": "P [pwbd]", "V": "P [female]"}
    other = load_policy("josaa-2025", ['seat_pools.order=["trait", "gender_pool", "quota"]'])
    prob2 = read_problem(other, tmp_path / "c.csv", tmp_path / "v.csv")
    assert {k: v[0] for k, v in held(solve(other, prob2, engine="greedy").result).items()} == \
        {"A": "P", "W": "P [female]", "X": "P [pwbd]"}
    (tmp_path / "s.toml").write_text('[scenarios.gender_first]\nset = []\n[scenarios.trait_first]\n'
                                     'set = [\'seat_pools.order=["trait", "gender_pool", "quota"]\']\n')
    r = CliRunner().invoke(app, ["sweep", "--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--scenarios", str(tmp_path / "s.toml"),
                                 "--baseline", "gender_first", "--out", str(tmp_path / "sw")])
    assert r.exit_code == 0, r.output
    moved = {(w["traits"], w["gains a post"], w["loses the post"]) for w in read_csv(tmp_path / "sw" / "winners.csv")}
    assert ("pwbd", "1", "0") in moved and ("women", "0", "1") in moved


def test_seats_by_home_state_need_the_candidates_home_state(tmp_path):
    """HS and OS seats (JoSAA Business Rules' quotas at NITs, as summarised; josaa-2025's `holders`) are read
    against each candidate's state: a candidates file with no home_state column would leave every HS seat to
    nobody, so it is refused (exit 2, naming the file, the column and the vacancies' line), and nothing is
    written. A candidate who gives none is said, and counts as from outside every state: Z takes Q's OS seat, not
    its HS seat."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "gender"], [["A", 1, "OPEN", "M"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "quota", "state"],
              [["Q", "OPEN", 1, "HS", "KA"], ["Q", "OPEN", 1, "OS", "KA"]])
    pol = load_policy("josaa-2025")
    with pytest.raises(InputError) as e:
        read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    assert (e.value.line, e.value.column) == (1, "home_state") and e.value.path.endswith("c.csv")
    assert "v.csv line 2 has HS seats, held by home state" in e.value.problem
    r = CliRunner().invoke(app, ["solve", "--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and not (tmp_path / "out").exists()
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "gender", "home_state"],
              [["Z", 1, "OPEN", "M", ""], ["K", 2, "OPEN", "M", "KA"]])
    said = []
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", warn=said.append)
    assert said == [f"{tmp_path / 'c.csv'}: 1 candidates give no home_state (line 2): they may hold no seat of a "
                    "quota by home state (HS), and count as from outside every program's state (OS)"]
    assert held(solve(pol, prob, engine="greedy").result) == {"Z": ("Q [OS]", "OPEN"), "K": ("Q [HS]", "OPEN")}


def test_verify_names_the_bar_not_a_post_unranked_where_the_program_was_ranked(tmp_path):
    """`verify` on planted seats: M (a man of Maharashtra) ranked R and Q and is put in R's female-only seat, N (a
    man of Maharashtra) ranked Q and S and is put in Q's Karnataka HS seat: each breach is the pool's bar (JoSAA
    Business Rules, "Division of seats into program-sections", as josaa-2025 reads it), not a post he did not
    rank (the pool is off his list for the bar; it was told as both). W (a woman) ranked only R and is put at S:
    a post she did not rank. Worked by hand."""
    cands = [["M", 1, "OPEN", "M", "", "MH"], ["N", 2, "OPEN", "M", "", "MH"], ["W", 3, "OPEN", "F", "", "MH"]]
    vacs = [["R", "OPEN", 1, "AI", "neutral", "", ""], ["R", "OPEN", 1, "AI", "female", "", ""],
            ["Q", "OPEN", 1, "HS", "neutral", "", "KA"], ["S", "OPEN", 1, "AI", "neutral", "", ""]]
    pol, prob = inputs(tmp_path, cands, vacs, {"M": ["R", "Q"], "N": ["Q", "S"], "W": ["R"]})
    found = judged(pol, prob, tmp_path, [["M", "R [female]", "OPEN", "OPEN", "", "open_merit"],
                                         ["N", "Q [HS]", "OPEN", "OPEN", "", "open_merit"],
                                         ["W", "S", "OPEN", "OPEN", "", "open_merit"]])
    eligibility = {"not eligible for the seat pool", "post not applied for"}   # (R's neutral seat left empty aside)
    assert {(v.rule, v.candidate, v.post, v.detail) for v in found if v.rule in eligibility} == {
        ("not eligible for the seat pool", "M", "R [female]", "a female-only seat held by a candidate who is not a "
         "woman"),
        ("not eligible for the seat pool", "N", "Q [HS]", "an HS seat of KA held by a candidate whose home state is "
         "MH"),
        ("post not applied for", "W", "S", "the candidate did not rank this post")}
    # (W, 3rd, put at S, which N, 2nd, ranked and wanted: an OPEN seat, said as it is read aloud)
    assert ("justified envy", "N", "S", "rank 2 passed over for rank 3 (W) on an OPEN vacancy") in \
        {(v.rule, v.candidate, v.post, v.detail) for v in found}
