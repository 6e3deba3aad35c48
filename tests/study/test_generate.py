"""`aarakshan generate` and the generators' merit gaps (solver.data.instances): the data are synthetic, and
the gap between categories, which drives who gains under a reform, is a parameter: "synthetic" (the
default, nearly none) or "upsc-cse-2025" (CSE 2025's final cut-off gaps below the general category's 963: EWS
926, OBC 931, SC 905, ST 902, as fractions of 963 times the mean score of 60)."""
import numpy as np
import pytest
from conftest import read_csv
from typer.testing import CliRunner

from solver import load_policy
from solver.cli import app
from solver.data.instances import GAPS, generate, merit_gaps


def test_the_cse_2025_gaps_are_the_cut_off_gaps_scaled():
    """(963 - 905) / 963 x 60 = 3.61 for SC; (963 - 931) / 963 x 60 = 1.99 for OBC; to one decimal."""
    cut = {"EWS": 926, "OBC": 931, "SC": 905, "ST": 902}
    assert GAPS["upsc-cse-2025"] == {code: round((963 - k) / 963 * 60, 1) for code, k in cut.items()}


def test_a_preset_shifts_each_category_s_scores_by_its_gap():
    pol = load_policy("upsc-cse")
    cands, _, _ = generate(pol, 40_000, 10, seed=3, gaps="upsc-cse-2025")
    score, cat = np.asarray(cands["score"]), np.asarray(cands["category"])
    for code, gap in GAPS["upsc-cse-2025"].items():
        assert score[cat == "UR"].mean() - score[cat == code].mean() == pytest.approx(gap, abs=0.5)
    assert merit_gaps(pol, None)["UR"] == 0 and merit_gaps(pol, {"SC": 1.5})["SC"] == 1.5
    with pytest.raises(KeyError, match="no merit gaps named 'bogus'"):
        merit_gaps(pol, "bogus")


def test_generate_writes_year_folders_with_total_rows(tmp_path):
    r = CliRunner().invoke(app, ["generate", "--policy", "central-dopt", "--candidates", "50", "--years", "2025-2026",
                                 "--post", "ASO=6", "--post", "Auditor=4", "--preferences", "2",
                                 "--out", str(tmp_path / "years")])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (tmp_path / "years").iterdir()) == ["2025", "2026"]
    assert (tmp_path / "years" / "2025" / "vacancies.csv").read_text() == \
        "post,category,vacancies\nASO,TOTAL,6\nAuditor,TOTAL,4\n"
    assert {row["post"] for row in read_csv(tmp_path / "years" / "2026" / "preferences.csv")} == {"ASO", "Auditor"}
    assert len(read_csv(tmp_path / "years" / "2025" / "candidates.csv")) == 50


@pytest.mark.parametrize("args", [["--years", "2029-2025", "--vacancies", "5"], ["--years", "x", "--vacancies", "5"],
                                  ["--years", "2025", "--post", "ASO"], ["--years", "2025"],
                                  ["--years", "2025", "--vacancies", "5", "--gaps", "bogus"]])
def test_generate_refuses_what_it_cannot_write(tmp_path, args):
    r = CliRunner().invoke(app, ["generate", "--policy", "central-dopt", *args, "--out", str(tmp_path / "y")])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert not (tmp_path / "y").exists()
