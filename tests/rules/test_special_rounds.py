"""A second counselling on the seats left: CSAB's special rounds after JoSAA's last round, as the model csab-2025
reads them (New Indian Express, 30 July 2024: the NIT+ System's vacant seats, candidates "willing to upgrade
their seats" and fresh candidates, who "should register afresh"; NDTV, 25 October 2022: who may take part;
collegepravesh.com on CSAB 2019 and 2021: "except IITs"; the special rounds' own rules were not read). Only the
registered take part: a holder who does not register keeps his seat, one without a seat answers `register`;
the choices are filled afresh; the IITs' programs (ranked by JEE (Advanced)) are not offered. Worked by hand.

The first round (josaa-2025): IIT-X (1 seat, ranked by the list "advanced": Q, P, U), NIT-A (1), NIT-B (2) and
NIT-C (3), each OPEN, ranked by the candidates' own merit P, Q, R, S, T, V, U. P, Q, R, S, U and V rank IIT-X,
NIT-A, NIT-B; T ranks NIT-C only. Deferred acceptance: Q takes IIT-X (first on "advanced"), P NIT-A, R and S
NIT-B, T NIT-C; U and V are left (each below the holders of the three posts they ranked), and two NIT-C seats
are left vacant."""
import json

import pytest
from conftest import read_csv, write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver import load_policy
from solver.chain.solve import solve
from solver.cli import app
from solver.errors import PolicyConflict
from solver.exam.slide import slide
from solver.io.readers import read_problem
from solver.outcome.reports import write_outputs
from solver.verify import read_allocation
from solver.verify.slide import check_slide

CANDS = [["P", 1], ["Q", 2], ["R", 3], ["S", 4], ["T", 5], ["V", 6], ["U", 7]]
VACS = [["IIT-X", "OPEN", 1, "advanced", "IIT"], ["NIT-A", "OPEN", 1, "", "NA"], ["NIT-B", "OPEN", 2, "", "NB"],
        ["NIT-C", "OPEN", 3, "", "NC"]]
JOSAA = [[c, k + 1, p] for c in "PQRSUV" for k, p in enumerate(["IIT-X", "NIT-A", "NIT-B"])] + [["T", 1, "NIT-C"]]
# The special round's choices, filled afresh: Q (an IIT holder) now lists NIT-A and NIT-C; U lists IIT-X first;
# V lists NIT-C but does not register.
FRESH = [["Q", 1, "NIT-A"], ["Q", 2, "NIT-C"], ["U", 1, "IIT-X"], ["U", 2, "NIT-C"], ["V", 1, "NIT-C"]]
SAID = [["Q", "float"], ["U", "register"]]


def inputs(tmp_path) -> list[str]:
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [[c, k, "OPEN"] for c, k in CANDS])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "merit_list", "institute"], VACS)
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], [["Q", "advanced", 1], ["P", "advanced", 2],
                                                                      ["U", "advanced", 3]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], JOSAA)
    write_csv(tmp_path / "fresh.csv", ["candidate_id", "order", "post"], FRESH)
    write_csv(tmp_path / "said.csv", ["candidate_id", "response"], SAID)
    return ["--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"), "--ranks",
            str(tmp_path / "r.csv")]


def first_round(tmp_path) -> list[str]:
    base = inputs(tmp_path)
    r = CliRunner().invoke(app, ["solve", "--policy", "josaa-2025", *base, "--preferences", str(tmp_path / "p.csv"),
                                 "--engine", "greedy", "--quiet", "--out", str(tmp_path / "r1")])
    assert r.exit_code == 0, r.output
    assert held(tmp_path / "r1") == {"Q": "IIT-X", "P": "NIT-A", "R": "NIT-B", "S": "NIT-B", "T": "NIT-C"}
    return base


def held(folder) -> dict[str, str]:
    return {x["candidate_id"]: x["post"] for x in read_csv(folder / "allocation.csv")}


def special(tmp_path, *extra: str):
    return CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r1"), "--policy", "csab-2025",
                                    "--responses", str(tmp_path / "said.csv"), "--preferences",
                                    str(tmp_path / "fresh.csv"), "--out", str(tmp_path / "s1"), *extra])


def test_only_the_registered_take_part(tmp_path):
    """P, R, S and T give no response: they did not register, so each keeps his seat (in a JoSAA round they would
    be dropped as absent). Q registered to upgrade: NIT-A is P's, so he takes a vacant NIT-C seat, the first his
    fresh list offers; his IIT-X seat is left vacant, not offered (the IITs' programs are not in the special
    rounds), though U, third on "advanced", lists it first. U registered and takes the last NIT-C seat. V ranks
    above U and lists NIT-C, but did not register: nothing."""
    first_round(tmp_path)
    r = special(tmp_path)
    assert r.exit_code == 0, r.output
    assert "1 registered anew" in r.output and "keep their seats" in r.output
    assert held(tmp_path / "s1") == {"P": "NIT-A", "R": "NIT-B", "S": "NIT-B", "T": "NIT-C", "Q": "NIT-C",
                                     "U": "NIT-C"}
    moves = {m["candidate_id"]: (m["response"], m["outcome"]) for m in read_csv(tmp_path / "s1" / "slide.csv")}
    assert moves == {"P": ("fix", "kept"), "Q": ("float", "moved up"), "R": ("fix", "kept"), "S": ("fix", "kept"),
                     "T": ("fix", "kept"), "U": ("register", "new")}
    # the round's seats: the two NIT-C seats the first round left (IIT-X, freed by Q, is not the round's)
    assert [(x["post"], x["vacancies"], x["filled"]) for x in read_csv(tmp_path / "s1" / "unfilled.csv")] == \
        [("NIT-C", "2", "2")]
    doc = json.loads((tmp_path / "s1" / "summary.json").read_text())
    assert doc["registered"] == 1 and doc["provenance"]["lineage"]["model"] == "csab-2025"
    assert doc["provenance"]["inputs"]["preferences"]["path"] == str(tmp_path / "fresh.csv")


def test_the_same_answers_in_a_josaa_round(tmp_path):
    """Against the same round under josaa-2025 (no registration, every post offered): P, R, S and T, without a
    response, are absent and dropped; one without a seat may not answer, and `register` is not an answer it takes
    (exit 2, naming line and column)."""
    first_round(tmp_path)

    def josaa_round():
        return CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r1"), "--responses",
                                        str(tmp_path / "said.csv"), "--preferences", str(tmp_path / "fresh.csv"),
                                        "--out", str(tmp_path / "j2")])
    r = josaa_round()
    assert r.exit_code == 2 and "line 3, column 1" in r.output and "U was not placed" in r.output, r.output
    write_csv(tmp_path / "said.csv", ["candidate_id", "response"], [["P", "register"]])
    r = josaa_round()
    assert r.exit_code == 2 and "line 2, column 2" in r.output and "no registration" in r.output, r.output
    assert not (tmp_path / "j2").exists()
    pol = load_policy("josaa-2025")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "fresh.csv", ranks=tmp_path / "r.csv")
    done = slide(pol, prob, read_csv(tmp_path / "r1" / "allocation.csv"), {"Q": "float"})
    # Q floats to NIT-A, freed by P's absence; V, a newcomer of better merit than U, takes NIT-C; U takes IIT-X
    assert {r[0]: r[1] for r in done.rows} == {"Q": "NIT-A", "V": "NIT-C", "U": "IIT-X"}


def test_the_next_special_round_reads_this_ones_choices(tmp_path):
    """The second special round chains by --result: it reads the policy and the fresh choices from the first's
    summary.json. With nobody registering, everyone keeps his seat."""
    first_round(tmp_path)
    assert special(tmp_path).exit_code == 0
    write_csv(tmp_path / "none.csv", ["candidate_id", "response"], [])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "s1"), "--responses", str(tmp_path / "none.csv"),
                                 "--out", str(tmp_path / "s2")])
    assert r.exit_code == 0, r.output
    assert held(tmp_path / "s2") == held(tmp_path / "s1")
    doc = json.loads((tmp_path / "s2" / "summary.json").read_text())
    assert doc["provenance"]["inputs"]["preferences"]["path"] == str(tmp_path / "fresh.csv")


@pytest.mark.parametrize("rows, words", [
    ([["P", "register"]], "holds a seat"),
    ([["U", "float"]], "holds no seat"),
    ([["Z", "register"]], "is not among the candidates"),
])
def test_registration_answers_are_checked(tmp_path, rows, words):
    """A holder registers by float or slide, one without a seat by register, and only a candidate answers: each
    else refused with exit 2, file, line and column, and nothing written."""
    first_round(tmp_path)
    write_csv(tmp_path / "said.csv", ["candidate_id", "response"], rows)
    r = special(tmp_path)
    assert r.exit_code == 2 and "said.csv, line 2" in r.output and words in r.output, r.output
    assert not (tmp_path / "s1").exists()


def test_a_closed_list_the_ranks_do_not_give_is_a_conflict(tmp_path):
    """slide.closed_lists naming a list no ranks file gives would offer every post without a word: exit 3."""
    first_round(tmp_path)
    r = special(tmp_path, "--set", 'slide.closed_lists=["mains"]')
    assert r.exit_code == 3 and "mains" in r.output, r.output
    pol = load_policy("csab-2025", ['slide.closed_lists=["mains"]'])
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "fresh.csv", ranks=tmp_path / "r.csv")
    before = read_allocation(tmp_path / "r1" / "allocation.csv", prob, pol)
    with pytest.raises(PolicyConflict, match="mains"):
        check_slide(pol, prob, before, {}, before)


def test_verify_judges_a_special_round(tmp_path):
    """verify --stage slide under csab-2025 accepts the round and refuses, each naming the rule: V placed though
    he did not register; U given IIT-X, a post the round does not offer; P dropped, though without a response he
    keeps his seat."""
    base = first_round(tmp_path)
    assert special(tmp_path).exit_code == 0
    check = ["verify", "--stage", "slide", "--policy", "csab-2025", *base, "--preferences", str(tmp_path / "fresh.csv"),
             "--allocation", str(tmp_path / "r1" / "allocation.csv"), "--responses", str(tmp_path / "said.csv")]
    r = CliRunner().invoke(app, [*check, "--slide", str(tmp_path / "s1" / "allocation.csv")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "s1" / "allocation.csv")
    head = list(rows[0])

    def planted(change: dict, drop: str = "") -> str:
        out = [[change.get(x["candidate_id"], x["post"]) if k == "post" else x[k] for k in head]
               for x in rows if x["candidate_id"] != drop]
        out = [[("V" if x[0] == "U" and change.get("swap") else x[0]), *x[1:]] for x in out]
        write_csv(tmp_path / "bad.csv", head, out)
        r = CliRunner().invoke(app, [*check, "--slide", str(tmp_path / "bad.csv")])
        assert r.exit_code == 1, r.output
        return r.output

    assert "V holds NIT-C but did not register" in planted({"swap": True})
    assert "U holds IIT-X, a post the round does not offer" in planted({"U": "IIT-X"})
    assert "P fixed his OPEN seat at NIT-A" in planted({}, drop="P")


def test_csab_is_josaa_but_for_its_rounds():
    """csab-2025 is josaa-2025's rules (categories, pools, same-rank rule, conversions) with the special rounds'
    own: a model changed without the other fails here."""
    josaa, csab = load_policy("josaa-2025").model_dump(), load_policy("csab-2025").model_dump()
    assert {k for k in josaa if josaa[k] != csab[k]} == {"name", "source", "slide"}
    assert csab["slide"]["registration"] and csab["slide"]["closed_lists"] == ["advanced"]


@st.composite
def special_rounds(draw):
    """Up to 7 candidates, an IIT-like program ranked by the list "advanced" and up to three others at two
    institutes, a first round's choices, the special round's fresh choices, and each one's answer: a holder
    none, float or withdraw; one without a seat none or register."""
    n = draw(st.integers(1, 7))
    cands = [[f"C{i}", i + 1, draw(st.sampled_from(["OPEN", "OPEN", "OBC-NCL"]))] for i in range(n)]
    programs = [("IIT", "advanced", "I0"), ("N1-A", "", "I1"), ("N1-B", "", "I1"), ("N2-A", "", "I2")]
    programs = programs[:draw(st.integers(2, 4))]
    vacs = []
    for name, merit, inst in programs:
        obc = draw(st.integers(0, 1))         # (open at least half: within the 50% ceiling)
        vacs += [[name, "OPEN", obc + draw(st.integers(0, 1)), merit, inst], [name, "OBC-NCL", obc, merit, inst]]
    on = draw(st.permutations([c[0] for c in cands]))[:draw(st.integers(1, n))]
    names = [p for p, _, _ in programs]
    pick = lambda: list(draw(st.permutations(names)))[:draw(st.integers(0, len(names)))]   # noqa: E731
    first = {c[0]: pick() for c in cands}
    fresh = {c[0]: pick() for c in cands}
    said = {c[0]: draw(st.sampled_from(["", "float", "withdraw", "register"])) for c in cands}
    return cands, vacs, on, first, fresh, said


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=special_rounds())
def test_a_special_round_takes_only_the_registered_and_verify_agrees(tmp_path_factory, m):
    """Random special rounds after a first round: a holder without a response keeps his seat, one who withdrew
    holds nothing, one without a seat who did not register holds nothing, nobody takes the IIT-like program who
    did not hold it, a floater is not moved down or out (by his fresh choices), both engines agree, and verify
    --stage slide finds nothing."""
    cands, vacs, on, first, fresh, answers = m
    folder = tmp_path_factory.mktemp("special")
    write_csv(folder / "c.csv", ["id", "rank", "category"], cands)
    write_csv(folder / "v.csv", ["post", "category", "vacancies", "merit_list", "institute"], vacs)
    write_csv(folder / "r.csv", ["candidate_id", "list", "rank"], [[c, "advanced", k + 1] for k, c in enumerate(on)])
    for name, prefs in (("p.csv", first), ("fresh.csv", fresh)):
        write_csv(folder / name, ["candidate_id", "order", "post"],
                  [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    josaa, csab = load_policy("josaa-2025"), load_policy("csab-2025")
    prob = read_problem(josaa, folder / "c.csv", folder / "v.csv", folder / "p.csv", ranks=folder / "r.csv")
    write_outputs(folder / "out", solve(josaa, prob, "greedy").result, {})
    alloc = read_csv(folder / "out" / "allocation.csv")
    was = {r["candidate_id"]: (r["post"], r["seat_category"]) for r in alloc}
    said = {cid: a for cid, a in answers.items() if a and (a == "register") != (cid in was)}
    again = read_problem(csab, folder / "c.csv", folder / "v.csv", folder / "fresh.csv", ranks=folder / "r.csv")
    done = slide(csab, again, [dict(r) for r in alloc], said)
    assert [r[:3] for r in slide(csab, again, [dict(r) for r in alloc], said, "cpsat").rows] == \
        [r[:3] for r in done.rows]
    now = {r[0]: (r[1], r[2]) for r in done.rows}
    for cid in answers:
        a = said.get(cid, "")
        if cid in was and a == "":
            assert now[cid] == was[cid]
        elif a == "withdraw" or (cid not in was and a != "register"):
            assert cid not in now
        elif a == "float":
            # (not moved down or out: the same program, or one he prefers; at the same program he may now hold a
            # seat tried before his own, an OPEN seat a withdrawal freed, which leaves his category's to the next)
            mine = fresh[cid]
            assert cid in now and (now[cid][0] == was[cid][0] or was[cid][0] not in mine or
                                   mine.index(now[cid][0]) < mine.index(was[cid][0]))
        if cid in now and now[cid][0] == "IIT":
            assert was.get(cid, ("",))[0] == "IIT"
    write_csv(folder / "after.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [r[:6] for r in done.rows])
    before = read_allocation(folder / "out" / "allocation.csv", again, csab)
    assert check_slide(csab, again, before, said, read_allocation(folder / "after.csv", again, csab)) == []


def test_a_josaa_freeze_does_not_bind_the_special_rounds(tmp_path):
    """A freeze is final within a counselling (JoSAA's, as summarised), but CSAB's special rounds are a second one
    that a JoSAA seat holder may join to upgrade (NDTV, 25 October 2022: those holding a seat who secured
    admission may take part). JoSAA round 2: everyone freezes. The special round: P's float is taken, though he
    froze in JoSAA (his fresh choices name nothing, so he keeps NIT-A), Q floats to NIT-C as before. verify does
    not read round 2's slide.csv beside its allocation (another policy's round) and accepts."""
    base = first_round(tmp_path)
    write_csv(tmp_path / "all.csv", ["candidate_id", "response"], [[c, "freeze"] for c in "PQRST"])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r1"), "--responses", str(tmp_path / "all.csv"),
                                 "--out", str(tmp_path / "r2")])
    assert r.exit_code == 0, r.output
    write_csv(tmp_path / "said.csv", ["candidate_id", "response"], [["P", "float"], *SAID])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r2"), "--policy", "csab-2025", "--responses",
                                 str(tmp_path / "said.csv"), "--preferences", str(tmp_path / "fresh.csv"), "--out",
                                 str(tmp_path / "s1")])
    assert r.exit_code == 0, r.output
    assert held(tmp_path / "s1") == {"P": "NIT-A", "R": "NIT-B", "S": "NIT-B", "T": "NIT-C", "Q": "NIT-C",
                                     "U": "NIT-C"}
    r = CliRunner().invoke(app, ["verify", "--stage", "slide", "--policy", "csab-2025", *base, "--preferences",
                                 str(tmp_path / "fresh.csv"), "--allocation", str(tmp_path / "r2" / "allocation.csv"),
                                 "--responses", str(tmp_path / "said.csv"), "--slide",
                                 str(tmp_path / "s1" / "allocation.csv")])
    assert r.exit_code == 0 and "is not read: that round ran under another policy" in r.output, r.output


def test_a_floater_at_the_same_program_takes_the_open_seat_a_withdrawal_freed(tmp_path):
    """NIT-B has one OPEN and one OBC-NCL seat. In JoSAA's round C1 (OPEN, 2nd) takes the OPEN seat, C3 (OBC-NCL,
    4th, who ranks NIT-B after two programs with no seat) the OBC-NCL one. In CSAB's special round C1 withdraws and
    C3 floats: tried for the OPEN seat before her category's (JoSAA Business Rules, "Sequence in which seat
    categories are considered"), she now holds NIT-B's OPEN seat, which is not a move down; her OBC-NCL seat is
    left to the next OBC-NCL candidate (none here). verify --stage slide accepts it. (A fresh property draw found
    the property test reading this as a move; it compared seats where it meant programs.)"""
    cands = [["C0", 1, "OPEN"], ["C1", 2, "OPEN"], ["C3", 3, "OBC-NCL"]]
    vacs = [["IIT", "OPEN", 0, "advanced", "I0"], ["N1-A", "OPEN", 0, "", "I1"], ["N1-B", "OPEN", 1, "", "I1"],
            ["N1-B", "OBC-NCL", 1, "", "I1"]]
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "merit_list", "institute"], vacs)
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], [["C0", "advanced", 1]])
    prefs = [["C1", 1, "N1-B"], ["C3", 1, "IIT"], ["C3", 2, "N1-A"], ["C3", 3, "N1-B"]]
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], prefs)
    josaa, csab = load_policy("josaa-2025"), load_policy("csab-2025")
    prob = read_problem(josaa, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv", ranks=tmp_path / "r.csv")
    write_outputs(tmp_path / "out", solve(josaa, prob, "greedy").result, {})
    alloc = read_csv(tmp_path / "out" / "allocation.csv")
    assert {r["candidate_id"]: (r["post"], r["seat_category"]) for r in alloc} == \
        {"C1": ("N1-B", "OPEN"), "C3": ("N1-B", "OBC-NCL")}
    said = {"C1": "withdraw", "C3": "float"}
    again = read_problem(csab, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv", ranks=tmp_path / "r.csv")
    for engine in ("greedy", "cpsat"):
        done = slide(csab, again, [dict(r) for r in alloc], said, engine)
        assert [r[:3] for r in done.rows] == [["C3", "N1-B", "OPEN"]]
    write_csv(tmp_path / "after.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [r[:6] for r in done.rows])
    before = read_allocation(tmp_path / "out" / "allocation.csv", again, csab)
    assert check_slide(csab, again, before, said, read_allocation(tmp_path / "after.csv", again, csab)) == []
