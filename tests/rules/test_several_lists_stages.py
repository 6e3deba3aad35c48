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


def _year_folders(tmp_path):
    """Two year folders, each the recruitment of test_several_lists (JSO ranked on Paper-II) with its ranks.csv."""
    import shutil
    inputs(tmp_path)
    for year in (2025, 2026):
        d = tmp_path / "years" / str(year)
        d.mkdir(parents=True)
        for src, name in (("c", "candidates"), ("v", "vacancies"), ("p", "preferences"), ("r", "ranks")):
            shutil.copy(tmp_path / f"{src}.csv", d / f"{name}.csv")
    return tmp_path / "years"


def test_a_run_of_years_and_a_sweep_read_each_year_s_ranks_file(tmp_path):
    """Each year's ranks.csv is read as `solve --ranks` reads it (it was passed over, and JSO ranked on the
    candidates' own merit with only a warning): by hand (test_several_lists), A holds AAO and D JSO on Paper-II's
    order, where on one merit A would hold JSO and B AAO. Both years alike, against the register, and in a sweep
    over the folder."""
    years = _year_folders(tmp_path)
    r = CliRunner().invoke(app, ["simulate", "--policy", "central-dopt", "--years", str(years), "--register",
                                 str(tmp_path / "reg.db"), "--out", str(tmp_path / "o"), "--engine", "greedy"])
    assert r.exit_code == 0 and "rank by the candidates' own merit" not in r.output, r.output
    for year in (2025, 2026):
        rows = read_csv(tmp_path / "o" / str(year) / "allocation.csv")
        assert {x["candidate_id"]: x["post"] for x in rows} == {"A": "AAO", "D": "JSO"}, year
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", "--years", str(years), "--grid",
                                 "ceiling.share=0.5,0.6", "--out", str(tmp_path / "sw")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "sw" / "results.csv")
    # (JSO's seat held by D, 1st on Paper-II, a list of its own, so no score; AAO's by A, 100. On one merit JSO's
    # last would be A (100) and AAO's B (90).)
    cut = {(x["scenario"], x["year"], x["post"]): (x["last_rank"], x["last_score"]) for x in rows if x["category"] == "UR"}
    assert len(cut) == 8 and all(v == (("1", "") if post == "JSO" else ("1", "100")) for (_, _, post), v in cut.items())
