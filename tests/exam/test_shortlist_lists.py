"""A shortlist of several lists (`shortlist.separate`): groups of posts called apart, each on cut-offs of its own,
every other post in the list `others`. SSC CGL's Tier-I result fixes separate cut-offs for JSO, for Statistical
Investigator Grade-II and for all other posts (the 2023 Tier-I result notice, para. 2, as reproduced by
secondary pages; models/ssc-cgl.toml). Each answer is worked by hand."""
import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver.cli import app
from solver.policy.stages import ShortlistRule

# Tier-I scores. AAO: 2 UR vacancies; JSO: 1 UR, 1 OBC. SI-II is not notified this year.
CANDS = [["A", 100, "UR"], ["B", 90, "UR"], ["C", 80, "OBC"], ["D", 70, "UR"], ["E", 60, "OBC"]]
VACS = [["AAO", "UR", 2], ["JSO", "UR", 1], ["JSO", "OBC", 1]]


def called(tmp_path, policy="ssc-cgl", vacs=VACS, out="s"):
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], vacs)
    r = CliRunner().invoke(app, ["shortlist", "--policy", policy, "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--ratio", "1", "--out", str(tmp_path / out)])
    assert r.exit_code == 0, r.output
    return r, read_csv(tmp_path / out / "shortlist.csv"), read_csv(tmp_path / out / "cutoffs.csv")


def test_each_list_is_called_on_its_own_posts(tmp_path):
    """JSO's list: its one open place to the best of everyone, A (100); its one OBC place to the best OBC not
    called there, C (80). The others' list (AAO): two open places, A and B (cut-off 90), no OBC place. D and E
    are called in neither. As one list (central-dopt) the three open places would go to A, B and C (80) and the
    OBC place to E (60)."""
    r, rows, cuts = called(tmp_path)
    assert "no post of list SI (SI-II) is in" in r.output.replace("\n", " ")     # (said, not passed over silently)
    assert [(x["candidate_id"], x["counted_as"], x["list"]) for x in rows] == \
        [("A", "UR", "JSO"), ("C", "OBC", "JSO"), ("A", "UR", "others"), ("B", "UR", "others")]
    cut = {(x["list"], x["category"]): (x["places"], x["called"], x["last_score"]) for x in cuts}
    assert cut[("JSO", "UR")] == ("1", "1", "100") and cut[("JSO", "OBC")] == ("1", "1", "80")
    assert cut[("others", "UR")] == ("2", "2", "90") and cut[("others", "OBC")] == ("0", "0", "")
    assert not any(x["list"] == "SI" for x in cuts)     # (no SI-II vacancy: no list)
    _, one, _ = called(tmp_path, "central-dopt", out="one")
    assert [(x["candidate_id"], x["counted_as"]) for x in one] == [("A", "UR"), ("B", "UR"), ("C", "UR"), ("E", "OBC")]


def test_verify_checks_each_list_on_its_own_posts(tmp_path):
    called(tmp_path)
    check = ["verify", "--stage", "shortlist", "--policy", "ssc-cgl", "--candidates", str(tmp_path / "c.csv"),
             "--vacancies", str(tmp_path / "v.csv"), "--ratio", "1", "--shortlist"]
    r = CliRunner().invoke(app, [*check, str(tmp_path / "s" / "shortlist.csv")])
    assert r.exit_code == 0 and "every rule of the shortlist holds" in r.output, r.output
    # E (60) in JSO's OBC place, where C (80) belongs
    text = (tmp_path / "s" / "shortlist.csv").read_text().replace("C,OBC,reserved,JSO", "E,OBC,reserved,JSO")
    (tmp_path / "bad.csv").write_text(text)
    r = CliRunner().invoke(app, [*check, str(tmp_path / "bad.csv")])
    assert r.exit_code == 1 and "C (score 80) is left out of the OBC of JSO list" in r.output.replace("\n", " ")
    # one list where the policy calls JSO apart
    write_csv(tmp_path / "flat.csv", ["candidate_id", "counted_as", "route"],
              [["A", "UR", "open"], ["B", "UR", "open"], ["C", "OBC", "reserved"]])
    r = CliRunner().invoke(app, [*check, str(tmp_path / "flat.csv")])
    out = r.output.replace("\n", " ")
    assert r.exit_code == 1 and "list '' is not one the policy calls for these posts ('JSO', 'others')" in out and "the UR of JSO list calls nobody" in out


def test_without_a_group_s_post_the_shortlist_is_one_list_as_before(tmp_path):
    """Only AAO notified: no post of JSO's or SI's group, so one list and no list column, as the same call under
    central-dopt (which calls no group apart): A and B for the two open places."""
    _, rows, _ = called(tmp_path, vacs=[["AAO", "UR", 2]])
    _, flat, _ = called(tmp_path, "central-dopt", vacs=[["AAO", "UR", 2]], out="flat")
    assert (tmp_path / "s" / "shortlist.csv").read_bytes() == (tmp_path / "flat" / "shortlist.csv").read_bytes()
    assert [x["candidate_id"] for x in rows] == ["A", "B"] and "list" not in rows[0]


def test_the_next_stage_keeps_one_called_in_some_lists_to_their_posts_only_through_the_merit_lists(tmp_path):
    """C was called in JSO's list only, B in the others' only, A in both. At the final stage ssc-cgl ranks JSO on
    Tier-II Paper-II (merit.post_lists), which only JSO's callees sat: with that ranks file (A and C on it) B is
    on no list that ranks JSO, so he may hold only AAO and is taken; C could still hold AAO, ranked by the
    candidates' own merit, and keeping him to JSO is not built: refused (exit 3), nothing written. Without the
    ranks file B is refused too; A alone is always taken."""
    called(tmp_path)
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], [["A", "tier2_paper2", 1]])
    write_csv(tmp_path / "rc.csv", ["candidate_id", "list", "rank"], [["C", "tier2_paper2", 1], ["A", "tier2_paper2", 2]])
    base = ["solve", "--policy", "ssc-cgl", "--vacancies", str(tmp_path / "v.csv"), "--engine", "greedy", "--quiet",
            "--shortlist", str(tmp_path / "s" / "shortlist.csv")]

    def final(who, *extra, out="o"):
        write_csv(tmp_path / "f.csv", ["id", "score", "category"], who)
        return CliRunner().invoke(app, [*base, "--candidates", str(tmp_path / "f.csv"), "--out", str(tmp_path / out),
                                        *extra])

    assert final([["A", 300, "UR"]]).exit_code == 0
    # (B wants JSO first: not on Paper-II's list, he holds AAO, and JSO's UR seat is left to nobody)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [["A", 1, "AAO"], ["A", 2, "JSO"], ["B", 1, "JSO"], ["B", 2, "AAO"]])
    r = final([["A", 300, "UR"], ["B", 280, "UR"]], "--ranks", str(tmp_path / "r.csv"), "--preferences",
              str(tmp_path / "p.csv"), out="o1")
    assert r.exit_code == 0, r.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "o1" / "allocation.csv")} == {"A": "AAO", "B": "AAO"}
    for who, only, extra in ((["B", 280, "UR"], "others only", ()),
                             (["C", 290, "OBC"], "JSO only", ("--ranks", str(tmp_path / "rc.csv")))):
        r = final([["A", 300, "UR"], who], *extra, out="o2")
        out = r.output.replace("\n", " ")
        assert r.exit_code == 3 and f"{who[0]} was called" in out and only in out, r.output
        assert not (tmp_path / "o2").exists()


def test_the_audit_of_a_shortlist_of_several_lists_is_refused(tmp_path):
    called(tmp_path)
    r = CliRunner().invoke(app, ["audit", "--stage", "shortlist", "--policy", "ssc-cgl", "--candidates",
                                 str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"), "--ratio", "1",
                                 "--out", str(tmp_path / "a")])
    assert r.exit_code == 3 and "not built" in r.output, r.output


def test_a_post_in_two_groups_is_refused():
    with pytest.raises(ValueError, match="post 'JSO' is in groups 'A' and 'B'"):
        ShortlistRule(separate={"A": ["JSO"], "B": ["JSO", "SI-II"]})
    with pytest.raises(ValueError, match="a name other than 'others'"):
        ShortlistRule(separate={"others": ["JSO"]})


def test_a_candidate_twice_in_one_list_is_refused_once_in_each_list_is_not(tmp_path):
    """A is in both lists (rows 2 and 4): fine. A second row of C in JSO's list is bad input, named at its line
    with the first's."""
    called(tmp_path)
    text = (tmp_path / "s" / "shortlist.csv").read_text() + "C,OBC,reserved,JSO\n"
    (tmp_path / "twice.csv").write_text(text)
    r = CliRunner().invoke(app, ["verify", "--stage", "shortlist", "--policy", "ssc-cgl", "--candidates",
                                 str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"), "--ratio", "1",
                                 "--shortlist", str(tmp_path / "twice.csv")])
    out = r.output.replace("\n", " ")
    assert r.exit_code == 2 and "line 6" in out and "duplicate candidate_id 'C' (first on line 3) in list 'JSO'" in out
