"""Equal final totals, settled as the commissions state it (`merit.tie_breaks`), each case worked by hand.

- UPSC CSE, examinations notified after 28 August 2019: more marks in the compulsory papers and the personality
  test together rank higher, then the older candidate (UPSC's notice of 9 March 2026 on CSE 2025, as reported;
  `upsc-cse`: ["compulsory+interview", "birth_date", "id"]).
- SSC CGL: the marks of Section I of Paper-I of Tier-II, then date of birth (the older higher), then the
  alphabetical order of names (SSC CGL notices, as reported; `ssc-cgl`)."""
import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver import load_policy
from solver.cli import app
from solver.errors import InputError
from solver.io.readers import read_problem


def order(tmp_path, policy, header, rows):
    write_csv(tmp_path / "c.csv", header, rows)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["P", "UR", 1]])
    pol = load_policy(policy)
    return list(read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv").candidates.ids)


def test_upsc_compulsory_and_interview_together_then_the_older(tmp_path):
    """A, B, C and D total 900. B's compulsory papers and interview come to 480 + 180 = 660, A's 500 + 150 = 650:
    B above A, though A wrote more. C and D both come to 640: the older, D (born 1996), above C (1998)."""
    header = ["id", "category", "score", "score_compulsory", "score_interview", "birth_date"]
    rows = [["A", "UR", 900, 500, 150, "1995-01-01"], ["B", "UR", 900, 480, 180, "1999-01-01"],
            ["C", "UR", 900, 500, 140, "1998-05-05"], ["D", "UR", 900, 480, 160, "1996-05-05"],
            ["E", "UR", 901, 0, 0, "2000-01-01"]]
    assert order(tmp_path, "upsc-cse", header, rows) == ["E", "B", "A", "D", "C"]


def test_ssc_section_one_then_the_older_then_the_name(tmp_path):
    """All total 390. Section I of Paper-I: P 120, then Q and R 110, S 110: Q (born 1997) and R and S (1999);
    R and S are born the same day, so the alphabet: R (Ravi) before S (Sunita)... and Q's name comes first
    anyway, but his age decides him: Q above R and S. Order: P, Q, R, S."""
    header = ["id", "category", "score", "score_tier2_paper1_section1", "birth_date", "name"]
    rows = [["S", "UR", 390, 110, "1999-03-03", "Sunita"], ["R", "UR", 390, 110, "1999-03-03", "Ravi"],
            ["Q", "UR", 390, 110, "1997-03-03", "Zafar"], ["P", "UR", 390, 120, "2001-03-03", "Yash"]]
    assert order(tmp_path, "ssc-cgl", header, rows) == ["P", "Q", "R", "S"]


def test_a_tie_no_break_settles_is_refused_naming_both_lines(tmp_path):
    """SSC has no break past the name: two candidates equal in every one are bad input (the commission must
    say), where upsc-cse's last break, the id, settles it (and the audit calls them contested)."""
    header = ["id", "category", "score", "score_tier2_paper1_section1", "birth_date", "name"]
    rows = [["X", "UR", 390, 110, "1999-03-03", "Ravi"], ["Y", "UR", 390, 110, "1999-03-03", "Ravi"]]
    with pytest.raises(InputError, match="tie with line 2 that the policy's tie-breaks"):
        order(tmp_path, "ssc-cgl", header, rows)


def test_a_missing_stage_column_is_said_where_scores_tie(tmp_path):
    write_csv(tmp_path / "c.csv", ["id", "category", "score", "birth_date"],
              [["A", "UR", 900, "1995-01-01"], ["B", "UR", 900, "1990-01-01"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["P", "UR", 1]])
    said = []
    pol = load_policy("upsc-cse")
    ids = list(read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", warn=said.append).candidates.ids)
    assert ids == ["B", "A"]     # the older, the compulsory+interview break left out
    assert any("no score_compulsory, score_interview column" in s for s in said)


@pytest.mark.parametrize("bad", ["Main", "main+", "birth_date+name", "name;id"])
def test_a_tie_break_is_a_known_word_or_stages(bad):
    with pytest.raises(InputError, match="merit.tie_breaks"):
        load_policy("central-dopt", [f'merit.tie_breaks=["{bad}"]'])


def test_merit_writes_each_stage_s_marks_for_the_tie_breaks(tmp_path):
    """`merit` adds the counted stages (main + interview) and writes every stage given as score_STAGE, the
    compulsory papers' marks among them (counted only in the tie-break); then the final list settles A and B's
    equal totals by compulsory + interview: B (480 + 180) above A (500 + 150)."""
    write_csv(tmp_path / "c.csv", ["id", "category", "birth_date"], [["A", "UR", "1995-01-01"], ["B", "UR", "1999-01-01"]])
    write_csv(tmp_path / "m.csv", ["candidate_id", "score"], [["A", 750], ["B", 720]])
    write_csv(tmp_path / "i.csv", ["candidate_id", "score"], [["A", 150], ["B", 180]])
    write_csv(tmp_path / "k.csv", ["candidate_id", "score"], [["A", 500], ["B", 480]])
    r = CliRunner().invoke(app, ["merit", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"),
                                 "--stage", f"main={tmp_path / 'm.csv'}", "--stage", f"interview={tmp_path / 'i.csv'}",
                                 "--stage", f"compulsory={tmp_path / 'k.csv'}", "--out", str(tmp_path / "f.csv")])
    assert r.exit_code == 0 and "not counted" not in r.output, r.output
    rows = read_csv(tmp_path / "f.csv")
    assert [(x["id"], x["score"], x["score_compulsory"]) for x in rows] == [("A", "900", "500"), ("B", "900", "480")]
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["P", "UR", 1]])
    pol = load_policy("upsc-cse")
    assert list(read_problem(pol, tmp_path / "f.csv", tmp_path / "v.csv").candidates.ids) == ["B", "A"]
