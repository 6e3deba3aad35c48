"""Several merit lists at the stages around the final allocation. A shortlist is called on the stage's own score
before the final stage's lists exist (SSC CGL: Tier-II's Paper-II ranks JSO, yet the call to Tier-II is on Tier-I
marks), so the lists a vacancies file names are not read there. The reserve list is drawn on one merit (CSE Rule
16(4): "in order of merit"); under several lists it, a fill from it, and its checks are refused (exit 3), not
drawn on the candidates' own merit while the posts rank by others. Each answer is worked by hand."""
import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver import load_policy, solve
from solver.cli import app
from solver.errors import Unsupported
from solver.exam.reserve import reserve_list
from solver.io.readers import read_problem
from test_several_lists import CANDS, PAPER2, PREFS, VACS, inputs


def shortlist(tmp_path, vacancies, *extra):
    out = tmp_path / f"s-{vacancies.stem}"
    r = CliRunner().invoke(app, ["shortlist", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(vacancies), "--ratio", "1", "--out", str(out), *extra])
    return r, out


def test_a_shortlist_is_called_on_the_stage_score_whatever_list_ranks_a_post_later(tmp_path):
    """Two UR vacancies (AAO, and JSO ranked later on Paper-II) at ratio 1: the open list's two places go to the
    two best scores, A (100) and B (90); no OBC vacancy, so C is not called. The same with or without JSO's
    merit_list, and no ranks file is asked for (it was refused as "give the ranks file", which the command
    cannot take)."""
    inputs(tmp_path)
    write_csv(tmp_path / "v0.csv", ["post", "category", "vacancies"], [v[:3] for v in VACS])
    r, out = shortlist(tmp_path, tmp_path / "v.csv")
    assert r.exit_code == 0, r.output
    called = [(x["candidate_id"], x["counted_as"]) for x in read_csv(out / "shortlist.csv")]
    assert called == [("A", "UR"), ("B", "UR")]
    r0, out0 = shortlist(tmp_path, tmp_path / "v0.csv")
    assert r0.exit_code == 0 and (out0 / "shortlist.csv").read_bytes() == (out / "shortlist.csv").read_bytes()
    check = ["verify", "--stage", "shortlist", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
             "--vacancies", str(tmp_path / "v.csv"), "--shortlist", str(out / "shortlist.csv"), "--ratio", "1"]
    r = CliRunner().invoke(app, check)
    assert r.exit_code == 0 and "every rule of the shortlist holds" in r.output, r.output
    r = CliRunner().invoke(app, [*check, "--ranks", str(tmp_path / "r.csv")])
    assert r.exit_code == 0 and "not read by --stage shortlist" in r.output.replace("\n", " "), r.output


def test_ssc_cgl_s_post_lists_are_not_the_shortlist_s_business(tmp_path):
    """ssc-cgl ranks JSO on Paper-II at the final stage (merit.post_lists); its shortlist says nothing of it, where
    the final stage without a ranks file says JSO ranks by the candidates' own merit."""
    inputs(tmp_path)
    write_csv(tmp_path / "v0.csv", ["post", "category", "vacancies"], [v[:3] for v in VACS])
    r = CliRunner().invoke(app, ["shortlist", "--policy", "ssc-cgl", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v0.csv"), "--ratio", "1", "--out",
                                 str(tmp_path / "s")])
    assert r.exit_code == 0, r.output
    assert "rank by their own merit lists" not in r.output.replace("\n", " ")


def test_a_reserve_list_under_several_lists_is_refused_before_the_solve(tmp_path):
    """The final list (A at AAO on Paper-I, D at JSO on Paper-II) would leave B and C for the reserve list, in an
    order of merit the two posts do not share: refused with exit 3, nothing written, by the command and the
    library alike; `verify --stage reserve` with the ranks file refuses too (it ignored --ranks, and then either
    asked for the ranks file it had been given or judged JSO on the candidates' own merit)."""
    pol, prob = inputs(tmp_path)
    base = ["--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--ranks", str(tmp_path / "r.csv")]
    r = CliRunner().invoke(app, ["solve", *base, "--quiet", "--reserve-list", "--out", str(tmp_path / "o")])
    assert r.exit_code == 3 and "several merit lists" in r.output, r.output
    assert not (tmp_path / "o").exists()
    with pytest.raises(Unsupported, match="several merit lists"):
        reserve_list(pol, solve(pol, prob, "greedy").result)
    r = CliRunner().invoke(app, ["solve", *base, "--quiet", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    write_csv(tmp_path / "reserve.csv", ["candidate_id", "category", "list"], [["B", "UR", "reserve"]])
    r = CliRunner().invoke(app, ["verify", "--stage", "reserve", *base, "--allocation",
                                 str(tmp_path / "o" / "allocation.csv"), "--reserve-list", str(tmp_path / "reserve.csv")])
    assert r.exit_code == 3 and "several merit lists" in r.output, r.output


def test_one_list_keeps_its_reserve_list(tmp_path):
    """The refusal is for several lists only: the same candidates and posts, every post on the candidates' own
    merit, A (100) and B (90) hold the two UR vacancies and C (80, OBC) and D (70) are below them."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [v[:3] for v in VACS])
    pol = load_policy("central-dopt")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    res = solve(pol, prob, "greedy").result
    assert sorted(r[0] for r in res.allocation_rows()) == ["A", "B"]
    reserve_list(pol, res)      # (drawn: no refusal)
    assert len(PAPER2) == 4 and set(PREFS) == {"A", "B", "C", "D"}


def test_a_ranks_file_no_post_ranks_by_keeps_the_reserve_list(tmp_path):
    """A ranks file given where no post names a list (vacancies.csv without merit_list; central-dopt has no
    merit.post_lists) is read and changes nothing: every post ranks on the candidates' own merit, so the reserve
    list is drawn, the same as without the file (it was refused as "several merit lists"). By hand (CSE Rule
    16(4)-(5), as docs/pipeline.md reads it): A (100, UR) and B (90, OBC) hold the two UR vacancies, B on general
    merit, so the OBC part is one and the general part one: C (80) next on general merit, D (70) next of the OBC."""
    cands = [["A", 100, "UR"], ["B", 90, "OBC"], ["C", 80, "UR"], ["D", 70, "OBC"]]
    inputs(tmp_path, vacs=[v[:3] + [""] for v in VACS], cands=cands)
    base = ["solve", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / "v.csv"), "--quiet", "--reserve-list"]
    with_ranks = CliRunner().invoke(app, [*base, "--ranks", str(tmp_path / "r.csv"), "--out", str(tmp_path / "a")])
    assert with_ranks.exit_code == 0, with_ranks.output
    assert "no post ranks by its lists" in with_ranks.output.replace("\n", " "), with_ranks.output
    without = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "b")])
    assert without.exit_code == 0, without.output
    assert sorted(r["candidate_id"] for r in read_csv(tmp_path / "a" / "allocation.csv")) == ["A", "B"]
    listed = [(r["candidate_id"], r["category"], r["list"]) for r in read_csv(tmp_path / "a" / "reserve_list.csv")]
    assert listed == [("C", "UR", "reserve"), ("D", "OBC", "reserve")]
    assert (tmp_path / "a" / "reserve_list.csv").read_bytes() == (tmp_path / "b" / "reserve_list.csv").read_bytes()
