"""A shortlist of several lists (`shortlist.separate`): groups of posts called apart, each on cut-offs of its own,
every other post in the list `others`. SSC CGL's Tier-I result fixes separate cut-offs for JSO, for Statistical
Investigator Grade-II and for all other posts (the 2023 Tier-I result notice, para. 2, as reproduced by
secondary pages; models/ssc-cgl.toml). Each answer is worked by hand."""
import json

import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver.cli import app
from solver.io.choices import read_choices
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


FINAL = [["A", 300, "UR"], ["C", 290, "OBC"], ["B", 280, "UR"]]
PREFS = [["A", 1, "JSO"], ["A", 2, "AAO"], ["C", 1, "AAO"], ["C", 2, "JSO"], ["B", 1, "JSO"], ["B", 2, "AAO"]]


def final_stage(tmp_path, *extra, out="o", who=FINAL, prefs=PREFS, engine="greedy"):
    """The final stage after the shortlist of `called` (A called in JSO's list and the others', C in JSO's only,
    B in the others' only), on Tier-II totals, each candidate's posts in `prefs`."""
    write_csv(tmp_path / "f.csv", ["id", "score", "category"], who)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], prefs)
    return CliRunner().invoke(app, ["solve", "--policy", "ssc-cgl", "--vacancies", str(tmp_path / "v.csv"),
                                    "--engine", engine, "--quiet", "--shortlist", str(tmp_path / "s" / "shortlist.csv"),
                                    "--candidates", str(tmp_path / "f.csv"), "--preferences", str(tmp_path / "p.csv"),
                                    "--out", str(tmp_path / out), *extra])


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_the_next_stage_keeps_one_called_in_some_lists_to_their_posts(tmp_path, engine):
    """SSC CGL's Tier-I result calls JSO apart (2023 notice, para. 2, as reproduced); one called for JSO only sat
    Tier-II for JSO. By hand, on one merit (no ranks file: JSO ranks by the candidates' own merit, said): A (300)
    takes his first choice, JSO's open seat. C (290, OBC) wants AAO first, but was called in JSO's list only, so
    his list is JSO alone: its open seat is A's, its OBC seat his. B (280) wants JSO first, but was called in the
    others' list only: AAO. Without the lists C would hold AAO on open merit (the unrestricted answer, checked
    below), and JSO's OBC seat would stay empty."""
    called(tmp_path)
    r = final_stage(tmp_path, engine=engine)
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "o" / "allocation.csv")
    assert {x["candidate_id"]: (x["post"], x["seat_category"]) for x in rows} == \
        {"A": ("JSO", "UR"), "C": ("JSO", "OBC"), "B": ("AAO", "UR")}
    why = {x["candidate_id"]: x["reason"] for x in read_csv(tmp_path / "o" / "decisions.csv")}
    assert "called by the shortlist in the list JSO only, so may hold only its posts" in why["C"]
    assert "selected at JSO (ranked 2nd)" in why["C"]     # (his own list's order, not the cut one's)
    assert "called by the shortlist in the list others only" in why["B"] and "shortlist" not in why["A"]
    # (central-dopt calls no list apart: C takes AAO on open merit)
    write_csv(tmp_path / "v1.csv", ["post", "category", "vacancies"], VACS)
    plain = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", "--vacancies", str(tmp_path / "v1.csv"),
                                     "--engine", engine, "--quiet", "--candidates", str(tmp_path / "f.csv"),
                                     "--preferences", str(tmp_path / "p.csv"), "--out", str(tmp_path / "plain")])
    assert plain.exit_code == 0, plain.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "plain" / "allocation.csv")} == \
        {"A": "JSO", "C": "AAO", "B": "AAO"}


def test_without_a_preferences_file_the_file_order_is_cut_and_no_rank_named(tmp_path):
    """No preferences file: every candidate ranks every post in the file's order (formats.md), AAO then JSO. A
    takes AAO's first open seat; C, called for JSO only, has JSO alone: its open seat, on merit; B, the others'
    list only, AAO's second seat. The reasons name no rank (nobody ranked anything), as without a shortlist."""
    called(tmp_path)
    write_csv(tmp_path / "f.csv", ["id", "score", "category"], FINAL)
    r = CliRunner().invoke(app, ["solve", "--policy", "ssc-cgl", "--vacancies", str(tmp_path / "v.csv"), "--quiet",
                                 "--engine", "greedy", "--shortlist", str(tmp_path / "s" / "shortlist.csv"),
                                 "--candidates", str(tmp_path / "f.csv"), "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "o" / "allocation.csv")
    assert {x["candidate_id"]: (x["post"], x["route"]) for x in rows} == \
        {"A": ("AAO", "open_merit"), "C": ("JSO", "open_merit"), "B": ("AAO", "open_merit")}
    why = {x["candidate_id"]: x["reason"] for x in read_csv(tmp_path / "o" / "decisions.csv")}
    assert why["C"].startswith("rank 2: selected at JSO on open merit (called by the shortlist in the list JSO")
    assert not any("ranked" in text for text in why.values())


def test_verify_reads_the_shortlist_s_lists_itself(tmp_path):
    """verify with --shortlist accepts the allocation above; without it, C's wish for AAO (a seat left empty)
    is justified; the unrestricted answer (C at AAO) breaks the lists, named with the notice's source."""
    called(tmp_path)
    assert final_stage(tmp_path).exit_code == 0
    check = ["verify", "--policy", "ssc-cgl", "--candidates", str(tmp_path / "f.csv"), "--vacancies",
             str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv")]
    shortlist = ["--shortlist", str(tmp_path / "s" / "shortlist.csv")]
    r = CliRunner().invoke(app, [*check, *shortlist, "--allocation", str(tmp_path / "o" / "allocation.csv")])
    assert r.exit_code == 0 and "every rule holds" in r.output, r.output
    r = CliRunner().invoke(app, [*check, "--allocation", str(tmp_path / "o" / "allocation.csv")])
    assert r.exit_code == 1 and ",C,AAO," in r.output, r.output
    assert "read the shortlist" in r.output and "without --shortlist" in r.output    # (said, as the run read one)
    text = (tmp_path / "o" / "allocation.csv").read_text()
    rows = [line for line in text.splitlines() if line.startswith("C,")]
    assert len(rows) == 1
    (tmp_path / "bad.csv").write_text(text.replace(rows[0], rows[0].replace("JSO,OBC,OBC", "AAO,UR,OBC")
                                                  .replace(",reserved,", ",open_merit,")))
    r = CliRunner().invoke(app, [*check, *shortlist, "--allocation", str(tmp_path / "bad.csv")])
    out = r.output.replace("\n", " ")
    assert r.exit_code == 1 and "not called for this post,C,AAO,he was called for JSO only" in out, out
    assert "2023 Tier-I" in out or "separate" in out
    # a list the policy does not call for these posts: bad input, its file and column named
    (tmp_path / "odd.csv").write_text((tmp_path / "s" / "shortlist.csv").read_text().replace(",JSO\n", ",JSX\n"))
    r = CliRunner().invoke(app, [*check, "--shortlist", str(tmp_path / "odd.csv"), "--allocation",
                                 str(tmp_path / "o" / "allocation.csv")])
    out = r.output.replace("\n", " ")
    assert r.exit_code == 2 and "odd.csv, column list: list 'JSX' is not one the policy calls" in out, out


def test_a_sliding_round_read_back_from_the_run_keeps_the_lists(tmp_path):
    """The round after the final list reads the shortlist back from the run's summary.json. A withdraws, C
    freezes at JSO's OBC seat, B floats: JSO's open seat is free and B ranks it first, but B was called in the
    others' list only, so he stays at AAO (without the lists he would move to JSO). verify --stage slide with the
    shortlist agrees; without it, it says B could take JSO's empty seat."""
    called(tmp_path)
    assert final_stage(tmp_path).exit_code == 0
    # (the run keeps the choices as given, C's AAO among them, for the round to cut again)
    kept, _ = read_choices(tmp_path / "o" / "choices.npy", 3, 2)
    assert [x.tolist() for x in kept] == [[1, 0], [0, 1], [1, 0]]     # (posts AAO 0, JSO 1; A, C, B)
    write_csv(tmp_path / "r.csv", ["candidate_id", "response"], [["A", "withdraw"], ["C", "freeze"], ["B", "float"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "o"), "--responses", str(tmp_path / "r.csv"),
                                 "--out", str(tmp_path / "o2")])
    assert r.exit_code == 0, r.output
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "o2" / "allocation.csv")} == {"C": "JSO", "B": "AAO"}
    check = ["verify", "--stage", "slide", "--policy", "ssc-cgl", "--candidates", str(tmp_path / "f.csv"),
             "--vacancies", str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--allocation",
             str(tmp_path / "o" / "allocation.csv"), "--responses", str(tmp_path / "r.csv"), "--slide",
             str(tmp_path / "o2" / "allocation.csv")]
    r = CliRunner().invoke(app, [*check, "--shortlist", str(tmp_path / "s" / "shortlist.csv")])
    assert r.exit_code == 0 and "every rule of the sliding round holds" in r.output, r.output
    r = CliRunner().invoke(app, check)
    out = r.output.replace("\n", " ")
    assert r.exit_code == 1 and "a UR seat at JSO is left empty while B could take it" in out and "without --shortlist" in out


def test_the_audit_reads_the_shortlist_s_lists(tmp_path):
    """Could C hold AAO in some lawful allocation? Not with the shortlist: he was called for JSO only (the reason
    says so, not that he did not rank AAO, which he ranked first). Without it, the audit would find him there."""
    called(tmp_path)
    assert final_stage(tmp_path).exit_code == 0
    ask = ["audit", "--policy", "ssc-cgl", "--candidates", str(tmp_path / "f.csv"), "--vacancies",
           str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--ask", "C@AAO", "--no-declared"]
    r = CliRunner().invoke(app, [*ask, "--shortlist", str(tmp_path / "s" / "shortlist.csv"), "--out", str(tmp_path / "a")])
    assert r.exit_code == 0, r.output
    (row,) = read_csv(tmp_path / "a" / "answers.csv")
    assert (row["answer"], row["blocking"]) == ("no", "not called for this post")
    assert "called by the shortlist in the list JSO only, and AAO is not one of its posts" in row["detail"]
    r = CliRunner().invoke(app, [*ask, "--out", str(tmp_path / "a2")])
    assert r.exit_code == 0 and read_csv(tmp_path / "a2" / "answers.csv")[0]["answer"] == "yes", r.output


def test_the_lists_kept_through_the_merit_lists_and_refused_where_not_built(tmp_path):
    """With Tier-II Paper-II's ranks file JSO ranks on a list only A and C are on: B is kept out of JSO by it as
    well. A reserve list across lists called apart is not built: refused (exit 3), nothing written; and a second
    shortlist whose lists take only their own callees likewise."""
    called(tmp_path)
    write_csv(tmp_path / "rc.csv", ["candidate_id", "list", "rank"], [["C", "tier2_paper2", 1], ["A", "tier2_paper2", 2]])
    r = final_stage(tmp_path, "--ranks", str(tmp_path / "rc.csv"))
    assert r.exit_code == 0, r.output
    # (on Paper-II C is first: JSO's open seat is his, A takes AAO after JSO; B the other AAO seat)
    assert {x["candidate_id"]: x["post"] for x in read_csv(tmp_path / "o" / "allocation.csv")} == \
        {"A": "AAO", "C": "JSO", "B": "AAO"}
    r = final_stage(tmp_path, "--reserve-list", out="o2")
    assert r.exit_code == 3 and "not built" in r.output and not (tmp_path / "o2").exists(), r.output
    write_csv(tmp_path / "t2.csv", ["id", "score", "category"], FINAL)
    r = CliRunner().invoke(app, ["shortlist", "--policy", "ssc-cgl", "--candidates", str(tmp_path / "t2.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--ratio", "1", "--shortlist",
                                 str(tmp_path / "s" / "shortlist.csv"), "--out", str(tmp_path / "s2")])
    assert r.exit_code == 3 and "some of its lists only" in r.output.replace("\n", " ") and not (tmp_path / "s2").exists()


def test_the_audit_compares_each_list_with_itself(tmp_path):
    """AAO's two open places (the others' list) go to A (100) and B (90); D ties B at 90 (birth dates break the
    tie for the merit order, not for the call). With ties called (shortlist.include_ties, given as a reading) D
    is called in the others' list too; without, not. JSO's one open place is A's either way. So D alone is
    contested, in the others' list, and audit.json gives each list's count and cut-offs under each reading."""
    write_csv(tmp_path / "t.csv", ["id", "score", "category", "birth_date", "name"],
              [["A", 100, "UR", "2000-01-01", "A"], ["B", 90, "UR", "2000-01-01", "B"],
               ["D", 90, "UR", "2001-01-01", "D"], ["C", 80, "OBC", "2000-01-01", "C"]])
    write_csv(tmp_path / "tv.csv", ["post", "category", "vacancies"], [["AAO", "UR", 2], ["JSO", "UR", 1]])
    r = CliRunner().invoke(app, ["audit", "--stage", "shortlist", "--policy", "ssc-cgl", "--candidates",
                                 str(tmp_path / "t.csv"), "--vacancies", str(tmp_path / "tv.csv"), "--ratio", "1",
                                 "--reading", "shortlist.include_ties=true,false", "--out", str(tmp_path / "a")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "a" / "contested.csv")
    assert [(x["candidate_id"], x["reading"], x["outcome"], x["alternative"], x["post_list"]) for x in rows] == \
        [("D", "shortlist.include_ties=false", "called", "not called", "others")]
    doc = json.loads((tmp_path / "a" / "audit.json").read_text())
    each = {x["reading"]: {k: (v["called"], v["cutoffs"]["UR"]) for k, v in x["lists"].items()} for x in doc["readings"]}
    assert each == {"as given": {"JSO": (1, 100.0), "others": (3, 90.0)},
                    "shortlist.include_ties=false": {"JSO": (1, 100.0), "others": (2, 90.0)}}
    assert [x["called"] for x in doc["readings"]] == [3, 2]     # (A, B, D in any list; then A, B)


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


def test_a_final_stage_without_a_list_s_posts_is_bad_input(tmp_path):
    """The shortlist called JSO's list for JSO's vacancies; a final stage whose vacancies have no JSO post cannot
    hold its callees to them: bad input (exit 2), the shortlist's list column and the missing posts named."""
    called(tmp_path)
    write_csv(tmp_path / "v2.csv", ["post", "category", "vacancies"], [["AAO", "UR", 2], ["ASO", "UR", 1]])
    write_csv(tmp_path / "f.csv", ["id", "score", "category"], FINAL)
    r = CliRunner().invoke(app, ["solve", "--policy", "ssc-cgl", "--vacancies", str(tmp_path / "v2.csv"), "--quiet",
                                 "--shortlist", str(tmp_path / "s" / "shortlist.csv"), "--candidates",
                                 str(tmp_path / "f.csv"), "--out", str(tmp_path / "o")])
    out = r.output.replace("\n", " ")
    assert r.exit_code == 2 and "shortlist.csv, column list: list 'JSO'" in out and "none of its posts (JSO)" in out
    assert not (tmp_path / "o").exists()


def test_the_final_stage_does_not_write_over_the_shortlist_s_summary(tmp_path):
    """The shortlist's summary.json records the list's SHA-256, which the next stage checks: solving (or sliding)
    into the shortlist's own folder would replace it (and the check with it). Refused (exit 2), the folder
    untouched."""
    called(tmp_path)
    before = {p.name: p.read_bytes() for p in (tmp_path / "s").iterdir()}
    write_csv(tmp_path / "f.csv", ["id", "score", "category"], FINAL)
    r = CliRunner().invoke(app, ["solve", "--policy", "ssc-cgl", "--vacancies", str(tmp_path / "v.csv"), "--quiet",
                                 "--shortlist", str(tmp_path / "s" / "shortlist.csv"), "--candidates",
                                 str(tmp_path / "f.csv"), "--out", str(tmp_path / "s")])
    assert r.exit_code == 2 and "never writes over what it reads" in r.output.replace("\n", " "), r.output
    assert {p.name: p.read_bytes() for p in (tmp_path / "s").iterdir()} == before
    # nor a sliding round, which reads the shortlist back from the run
    assert final_stage(tmp_path).exit_code == 0
    write_csv(tmp_path / "r.csv", ["candidate_id", "response"], [["A", "float"], ["C", "freeze"], ["B", "float"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "o"), "--responses", str(tmp_path / "r.csv"),
                                 "--out", str(tmp_path / "s")])
    assert r.exit_code == 2 and "never writes over what it reads" in r.output.replace("\n", " "), r.output
    assert {p.name: p.read_bytes() for p in (tmp_path / "s").iterdir()} == before
