"""What a round of counselling reports: the closing rank of every seat pool (cutoffs.csv after `slide`), the seats
it leaves to the next round (unfilled.csv's `next_round`), and a reason for every candidate (decisions.csv).

Closing ranks: per seat pool and category, how many hold its seats when the round ends and the last of them on
the pool's own merit list. JoSAA and CSAB publish the opening and closing ranks of every round ("ORCR_AllRounds",
as a JoSAA FAQ of 2015 points to them; the Business Rules' own text on them was not read): the reading taken here
counts every holder after the round, those who froze in an earlier round included.

Seats left: every round allocates the seat matrix to those still in (RULES.md, "Counselling": "a candidate
freezes, floats, slides (within the institute) or withdraws after each round"; `slide.unfilled_offered`), and
what JoSAA's last round leaves goes to CSAB's special rounds ("seats that remain vacant", NDTV, 19 October 2022):
a seat a round leaves has not lapsed.

Reasons: as `solve` gives them, after what each answered (RULES.md, "Counselling": freeze, float, slide within the
institute, withdraw), ranks in the whole merit list, and for a slider where he ranked a post in his own list.

Worked by hand from the deferred acceptance each round runs (Gale and Shapley 1962; JoSAA's rounds as Baswana et
al. 2019 describe them); `compare` and `sweep` read them."""
import json

import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver.cli import app

# I1-CSE ranks by JEE (Advanced) ("adv": D, C, B, A), I1-EE and I2-ME by the candidates' own rank (JEE Main:
# A, B, C, D). One OPEN seat each, and an SC seat at I2-ME no candidate (all OPEN) may hold. Everyone ranks
# I2-ME, I1-CSE, I1-EE.
CANDS = [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"], ["D", 4, "OPEN"]]
VACS = [["I1-CSE", "OPEN", 1, "I1", "adv"], ["I1-EE", "OPEN", 1, "I1", ""], ["I2-ME", "OPEN", 1, "I2", ""],
        ["I2-ME", "SC", 1, "I2", ""]]
PREFS = [[c, k + 1, p] for c in "ABCD" for k, p in enumerate(["I2-ME", "I1-CSE", "I1-EE"])]
ADV = [["D", "adv", 1], ["C", "adv", 2], ["B", "adv", 3], ["A", "adv", 4]]


@pytest.fixture(scope="module")
def rounds(tmp_path_factory):
    """Round 1 by `solve` into r1/, round 2 by `slide` into r2/ after A withdraws, D freezes and B floats."""
    tmp_path = tmp_path_factory.mktemp("rounds")
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "institute", "merit_list"], VACS)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], PREFS)
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], ADV)
    write_csv(tmp_path / "a2.csv", ["candidate_id", "response"], [["A", "withdraw"], ["D", "freeze"], ["B", "float"]])
    run = CliRunner().invoke
    r = run(app, ["solve", "--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
                  str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--ranks", str(tmp_path / "r.csv"),
                  "--engine", "both", "--quiet", "--out", str(tmp_path / "r1")])
    assert r.exit_code == 0, r.output
    r = run(app, ["slide", "--result", str(tmp_path / "r1"), "--responses", str(tmp_path / "a2.csv"),
                  "--engine", "both", "--out", str(tmp_path / "r2")])
    assert r.exit_code == 0, r.output
    return tmp_path


def cutoffs(folder):
    return [(c["post"], c["category"], c["filled"], c["last_rank"], c["last_score"])
            for c in read_csv(folder / "cutoffs.csv")]


def test_the_first_round_closes_each_pool_on_its_own_list(rounds):
    """Round 1: A takes I2-ME (first on JEE Main); I1-CSE holds B, then C, then D (first on Advanced), each
    displacing the one before; B, displaced, takes I1-EE before C (2nd against 3rd on Main); C is left. I1-CSE
    closes at 1 on its own list (D), I1-EE at 2 and I2-ME at 1 on Main; the SC seat nobody holds is a row with
    no rank. Ranks, not scores: no last_score."""
    assert {x["candidate_id"]: x["post"] for x in read_csv(rounds / "r1" / "allocation.csv")} == \
        {"A": "I2-ME", "B": "I1-EE", "D": "I1-CSE"}
    assert cutoffs(rounds / "r1") == [("I1-CSE", "OPEN", "1", "1", ""), ("I1-EE", "OPEN", "1", "2", ""),
                                        ("I2-ME", "OPEN", "1", "1", ""), ("I2-ME", "SC", "0", "", "")]


def test_a_later_round_closes_on_its_whole_allotment(rounds):
    """Round 2: A's withdrawal frees I2-ME; B floats up to it (2nd on Main, above C); C, the newcomer, takes
    I1-EE, which B left. D froze at I1-CSE and still closes it (rank 1 on Advanced): the round's allotment as a
    whole, not only what the round itself allotted. I1-EE now closes at 3 (C), I2-ME at 2 (B); the SC seat,
    offered again, is still nobody's."""
    assert {x["candidate_id"]: x["post"] for x in read_csv(rounds / "r2" / "allocation.csv")} == \
        {"B": "I2-ME", "C": "I1-EE", "D": "I1-CSE"}
    assert cutoffs(rounds / "r2") == [("I1-CSE", "OPEN", "1", "1", ""), ("I1-EE", "OPEN", "1", "3", ""),
                                        ("I2-ME", "OPEN", "1", "2", ""), ("I2-ME", "SC", "0", "", "")]


def test_compare_reads_two_rounds(rounds, tmp_path):
    """`compare` of round 1 and round 2 (it read cutoffs.csv, which a round did not write, and stopped): A leaves,
    B moves up to the post he ranked first, C gains a post. Per post, the seats after round 2 are everyone then
    holding one and the seats it left: I1-CSE, frozen by D and so not offered in round 2, is unchanged (read off
    round 2's unfilled.csv alone it would have lost its seat); I1-EE and I2-ME close lower."""
    r = CliRunner().invoke(app, ["compare", str(rounds / "r1"), str(rounds / "r2"), "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    changes = {x["candidate_id"]: (x["a_post"], x["b_post"], x["change"]) for x in read_csv(tmp_path / "c" / "changes.csv")}
    assert changes == {"A": ("I2-ME", "", "loses the post"), "B": ("I1-EE", "I2-ME", "moves up"),
                       "C": ("", "I1-EE", "gains a post")}
    posts = {(p["post"], p["category"]): (p["vacancies"], p["filled"], p["last_rank"])
             for p in json.loads((tmp_path / "c" / "compare.json").read_text())["posts"]}
    assert posts == {("I1-EE", "OPEN"): ([1, 1], [1, 1], ["2", "3"]), ("I2-ME", "OPEN"): ([1, 1], [1, 1], ["1", "2"])}


def unfilled(folder):
    return {(u["post"], u["category"]): (u["vacancies"], u["filled"], u["unfilled"], u["disposition"])
            for u in read_csv(folder / "unfilled.csv")}


def test_the_seats_a_round_leaves_go_to_the_next(rounds):
    """The SC seat at I2-ME, which no candidate may hold, is left by round 1 and offered again by round 2, which
    leaves it too: `next_round` both times, not `lapsed` (josaa-2025 carries nothing forward between years, which
    is what `lapsed` would say)."""
    assert unfilled(rounds / "r1")[("I2-ME", "SC")] == ("1", "0", "1", "next_round")
    assert unfilled(rounds / "r2")[("I2-ME", "SC")] == ("1", "0", "1", "next_round")


def test_without_a_next_round_the_seat_lapses(rounds, tmp_path):
    """The same round 1 under `slide.unfilled_offered = false` (no round after it offers what it leaves): the SC
    seat lapses (josaa-2025's SC `carry_forward = false`); a sweep of the two readings counts it apart."""
    base = ["--policy", "josaa-2025", "--candidates", str(rounds / "c.csv"), "--vacancies", str(rounds / "v.csv"),
            "--preferences", str(rounds / "p.csv"), "--ranks", str(rounds / "r.csv")]
    r = CliRunner().invoke(app, ["solve", *base, "--set", "slide.unfilled_offered=false", "--quiet",
                                 "--out", str(tmp_path / "one")])
    assert r.exit_code == 0, r.output
    assert unfilled(tmp_path / "one")[("I2-ME", "SC")] == ("1", "0", "1", "lapsed")
    r = CliRunner().invoke(app, ["sweep", *base, "--grid", "slide.unfilled_offered=true,false",
                                 "--out", str(tmp_path / "sweep")])
    assert r.exit_code == 0, r.output
    rows = {(x["slide.unfilled_offered"], x["post"], x["category"]): x for x in read_csv(tmp_path / "sweep" / "results.csv")}
    assert [(rows[k, "I2-ME", "SC"]["unfilled_next_round"], rows[k, "I2-ME", "SC"]["unfilled_lapsed"])
            for k in ("true", "false")] == [("1", "0"), ("0", "1")]


def test_every_candidate_has_a_reason_after_a_round(rounds):
    """Round 2, worked by hand: A withdrew; B floated from I1-EE and took I2-ME, his first choice; C, the newcomer,
    is below B (2nd on Main) at I2-ME and takes I1-EE; I1-CSE, his second choice, is D's, frozen: the round offers
    it to nobody, and C is told so; D froze. Ranks are in the whole list (C is 3rd, though 2nd of the round's
    two)."""
    assert [list(d.values()) for d in read_csv(rounds / "r2" / "decisions.csv")] == [
        ["A", "false", "", "withdrew, giving up I2-ME (OPEN)"],
        ["B", "true", "I2-ME", "floated from I1-EE (OPEN): rank 2: selected at I2-ME (ranked 1st) on open merit"],
        ["C", "true", "I1-EE", "rank 3: selected at I1-EE (ranked 3rd) on open merit; below the open cutoff at I2-ME "
                               "(ranked 1st) (rank 2); not offered in this round (held by those who froze or kept "
                               "theirs): the open seats at I1-CSE (ranked 2nd)"],
        ["D", "true", "I1-CSE", "froze I1-CSE (OPEN): kept, and considered for nothing else"]]


def test_a_slider_s_reason_names_where_he_ranked_the_post(rounds, tmp_path):
    """From round 1 (A at I2-ME, B at I1-EE, D at I1-CSE; C without a seat): D withdraws, freeing I1-CSE, and B
    slides. B's round list is I1-CSE and I1-EE (his institute's, up to his own); I1-CSE ranks on Advanced, where C
    (2nd) is above B (3rd), so C, the newcomer, takes I1-CSE and B stays at I1-EE. Each is told where he ranked
    I1-CSE in his own list (2nd), not in the round's cut list (B's 1st); C, that I2-ME, his first, is A's, frozen."""
    write_csv(tmp_path / "a.csv", ["candidate_id", "response"], [["A", "freeze"], ["B", "slide"], ["D", "withdraw"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(rounds / "r1"), "--responses", str(tmp_path / "a.csv"),
                                 "--out", str(tmp_path / "r2")])
    assert r.exit_code == 0, r.output
    why = {d["candidate_id"]: d["reason"] for d in read_csv(tmp_path / "r2" / "decisions.csv")}
    assert why == {
        "A": "froze I2-ME (OPEN): kept, and considered for nothing else",
        "B": "slid (within his institute) from I1-EE (OPEN): rank 2: selected at I1-EE (ranked 3rd) on open merit; "
             "below the open cutoff at I1-CSE (ranked 2nd) (rank 2 on list adv, where this candidate is 3rd)",
        "C": "rank 3: selected at I1-CSE (ranked 2nd) on open merit; not offered in this round (held by those who froze "
             "or kept theirs): the open seats at I2-ME (ranked 1st)",
        "D": "withdrew, giving up I1-CSE (OPEN)"}


def test_compare_reads_a_move_between_seat_pools_as_up(tmp_path):
    """Seat pools: N1-CSE and N1-ME have an OS seat each (and an HS seat no candidate, all from MH, may hold);
    everyone ranks N1-CSE, then N1-ME. Round 1: A takes N1-CSE [OS], B N1-ME [OS]; C none. Round 2: A withdraws,
    B floats to N1-CSE [OS] and C takes N1-ME [OS]. `compare` reads B's move by the programs he ranked: he moves
    up (the posts are seat pools of the programs, which the preferences name; it said "moves to another post")."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "home_state"],
              [["A", 1, "OPEN", "MH"], ["B", 2, "OPEN", "MH"], ["C", 3, "OPEN", "MH"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "quota", "state", "institute"],
              [[p, "OPEN", 1, q, "KA", "N1"] for p in ("N1-CSE", "N1-ME") for q in ("HS", "OS")])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [[c, k + 1, p] for c in "ABC" for k, p in enumerate(["N1-CSE", "N1-ME"])])
    write_csv(tmp_path / "a.csv", ["candidate_id", "response"], [["A", "withdraw"], ["B", "float"]])
    run = CliRunner().invoke
    r = run(app, ["solve", "--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
                  str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--quiet", "--out",
                  str(tmp_path / "r1")])
    assert r.exit_code == 0, r.output
    r = run(app, ["slide", "--result", str(tmp_path / "r1"), "--responses", str(tmp_path / "a.csv"), "--out",
                  str(tmp_path / "r2")])
    assert r.exit_code == 0, r.output
    r = run(app, ["compare", str(tmp_path / "r1"), str(tmp_path / "r2"), "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    changes = {x["candidate_id"]: (x["a_post"], x["b_post"], x["change"]) for x in read_csv(tmp_path / "c" / "changes.csv")}
    assert changes == {"A": ("N1-CSE [OS]", "", "loses the post"), "B": ("N1-ME [OS]", "N1-CSE [OS]", "moves up"),
                       "C": ("", "N1-ME [OS]", "gains a post")}


def test_a_newcomer_whose_posts_are_all_frozen_is_told_so(rounds, tmp_path):
    """From round 1 (A at I2-ME, B at I1-EE, D at I1-CSE; C without a seat) everyone placed freezes: the round offers
    only the SC seat at I2-ME, which C (OPEN) may not hold. C is told that the posts he ranked have no vacancy he
    may hold in this round, and why (it said "every vacancy ... was filled by better merit or left none")."""
    write_csv(tmp_path / "a.csv", ["candidate_id", "response"], [["A", "freeze"], ["B", "freeze"], ["D", "freeze"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(rounds / "r1"), "--responses", str(tmp_path / "a.csv"),
                                 "--out", str(tmp_path / "r2")])
    assert r.exit_code == 0, r.output
    why = {d["candidate_id"]: (d["selected"], d["reason"]) for d in read_csv(tmp_path / "r2" / "decisions.csv")}
    assert why["C"] == ("false", "rank 3: the posts this candidate ranked have no vacancy he may hold in this round: "
                                 "it offers no seat held by one who froze or kept his own")


def test_a_floater_the_round_would_move_down_keeps_his_seat_and_is_told_why(tmp_path):
    """CSAB's special round after JoSAA (csab-2025: only the registered take part, one who withdrew from JoSAA may
    register; New Indian Express, 30 July 2024, as docs/counselling.md cites it). JoSAA round 1: A takes N1-CSE, B
    N1-ME, C none; round 2: A withdraws, B floats up to N1-CSE, C takes N1-ME. Special round: A (1st) registers and
    ranks N1-CSE; B registers to move up (float). A would take N1-CSE from B, who ranks nothing above it: nobody
    moves down (a float is upgrade-only: RULES.md, "Counselling"), so B keeps it and A, with no seat left at
    the one program he ranked, is told so; C, who did not register, keeps N1-ME."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "institute", "merit_list"],
              [["N1-CSE", "OPEN", 1, "N1", ""], ["N1-ME", "OPEN", 1, "N1", ""], ["I1-CSE", "OPEN", 1, "I1", "advanced"]])
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], [["C", "advanced", 1]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [["A", 1, "N1-CSE"], ["B", 1, "N1-CSE"], ["B", 2, "N1-ME"], ["C", 1, "N1-ME"]])
    write_csv(tmp_path / "a2.csv", ["candidate_id", "response"], [["A", "withdraw"], ["B", "float"]])
    write_csv(tmp_path / "s.csv", ["candidate_id", "response"], [["A", "register"], ["B", "float"]])
    run = CliRunner().invoke
    for args in (["solve", "--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
                  str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--ranks", str(tmp_path / "r.csv"),
                  "--quiet", "--out", str(tmp_path / "r1")],
                 ["slide", "--result", str(tmp_path / "r1"), "--responses", str(tmp_path / "a2.csv"), "--out",
                  str(tmp_path / "r2")],
                 ["slide", "--result", str(tmp_path / "r2"), "--policy", "csab-2025", "--responses",
                  str(tmp_path / "s.csv"), "--preferences", str(tmp_path / "p.csv"), "--out", str(tmp_path / "s1")]):
        r = run(app, args)
        assert r.exit_code == 0, r.output
    assert [list(d.values()) for d in read_csv(tmp_path / "s1" / "decisions.csv")] == [
        ["A", "false", "", "rank 1: the posts this candidate ranked have no vacancy he may hold in this round: it "
                           "offers no seat held by one who froze or kept his own"],
        ["B", "true", "N1-CSE", "floated from N1-CSE (OPEN): keeps it; the round gave him no seat he ranks above it "
                                "and would have given his own to another (nobody moves down)"],
        ["C", "true", "N1-ME", "did not register for this round: keeps N1-ME (OPEN)"]]


def test_a_register_is_refused_where_the_next_round_takes_the_seats_left(tmp_path):
    """josaa-2025 on plain posts (no seat-pool columns) with a register: refused, exit 3, nothing written. Its
    unfilled.csv says the seats a round leaves go to the next round, and the register would call them lapsed
    (josaa-2025 carries no category forward): two files disagreeing. Without `slide.unfilled_offered` the register
    runs and lapses them."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["A", 1, "OPEN"], ["B", 2, "OBC-NCL"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["P", "OPEN", 2], ["P", "OBC-NCL", 1],
                                                                      ["P", "SC", 1]])
    base = ["solve", "--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / "v.csv"), "--register", str(tmp_path / "reg.sqlite"), "--year", "2025", "--quiet"]
    r = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "o")])
    assert r.exit_code == 3 and "slide.unfilled_offered" in r.output, r.output
    assert not (tmp_path / "o").exists() and not (tmp_path / "reg.sqlite").exists()
    r = CliRunner().invoke(app, [*base, "--set", "slide.unfilled_offered=false", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    assert unfilled(tmp_path / "o")[("P", "SC")] == ("1", "0", "1", "lapsed")
