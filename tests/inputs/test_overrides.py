"""A what-if says what it did: an override that cannot change the outcome is called a no-op (a category's share
where no vacancy row is split by shares: the roster splits only TOTAL rows, DoPT OM 02.07.1997), a ceiling that
does not bind is said to be a finding about this recruitment, and sweep scenarios with identical outcomes are
flagged. Each told on the console, in summary.json's notes and in scenarios.csv."""
import json

from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver.cli import app

CANDS = [[f"C{k}", 100 - k, cat] for k, cat in enumerate(["UR", "OBC", "SC", "UR", "OBC", "ST", "UR", "EWS"] * 5)]


def _solve(tmp_path, rows, sets, name):
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], CANDS)
    write_csv(tmp_path / f"{name}.csv", ["post", "category", "vacancies"], rows)
    args = ["solve", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / f"{name}.csv"), "--engine", "greedy", "--quiet", "--out", str(tmp_path / name)]
    for s in sets:
        args += ["--set", s]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    return r.output, json.loads((tmp_path / name / "summary.json").read_text())["notes"]


def test_a_share_where_no_row_is_split_by_shares_is_a_no_op(tmp_path):
    """Per-category rows (UR 3, OBC 1 at X) give each category its count: OBC at 19% reserves no more and no
    less. A TOTAL row of 20 is split by the roster, where the share changes OBC's points (27%: 5 of 20, 19%:
    fewer), so there it is not called a no-op."""
    out, notes = _solve(tmp_path, [["X", "UR", 3], ["X", "OBC", 1]], ["categories.OBC.share=0.19"], "rows")
    assert "categories.OBC.share=0.19 is a no-op" in out and any("is a no-op" in n for n in notes)
    out, notes = _solve(tmp_path, [["X", "TOTAL", 20]], ["categories.OBC.share=0.19"], "total")
    assert "no-op" not in out and not any("no-op" in n for n in notes)
    _, base = _solve(tmp_path, [["X", "TOTAL", 20]], [], "stock")
    obc = [r for r in read_csv(tmp_path / "total" / "allocation.csv") if r["seat_category"] == "OBC"]
    stock = [r for r in read_csv(tmp_path / "stock" / "allocation.csv") if r["seat_category"] == "OBC"]
    assert len(obc) < len(stock)


def test_a_ceiling_that_does_not_bind_is_said_to_be_a_finding(tmp_path):
    """UR 3, OBC 1 at X: 25% of X's vacancies are reserved, below a ceiling raised to 60% (and below 50%): the
    raise changes nothing here, but it is not a no-op (other vacancies could reach it)."""
    out, notes = _solve(tmp_path, [["X", "UR", 3], ["X", "OBC", 1]], ["ceiling.share=0.6"], "ceiling")
    assert "the ceiling does not bind in this recruitment (at most 25.0%" in out
    assert any("does not bind" in n for n in notes) and "no-op" not in out


def test_a_sweep_flags_no_ops_and_identical_outcomes(tmp_path):
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 3], ["X", "OBC", 1]])
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--grid", "categories.OBC.share=0.19,0.27",
                                 "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    notes = {s["scenario"]: s["notes"] for s in read_csv(tmp_path / "o" / "scenarios.csv")}
    assert "is a no-op" in notes["categories.OBC.share=0.19"]
    assert "same outcome as categories.OBC.share=0.19" in notes["categories.OBC.share=0.27"]
    assert "same outcome as" in r.output


def test_a_reform_reproduced_from_its_summary_keeps_its_identity(tmp_path):
    """`--policy out/summary.json` solves the same reform again: its provenance still names the model it came
    from and the overrides made since (the lineage), the resolved policy's SHA-256 is the reform's, not the stock
    policy's, and the OR-Tools version and the command line are recorded (the command beside the timings, outside
    what stays byte-identical)."""
    import subprocess
    import sys
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 20]])
    cli = [sys.executable, "-c", "from solver.cli import main; main()", "solve", "--candidates",
           str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"), "--engine", "greedy", "--quiet"]
    runs = {"stock": ["--policy", "central-dopt"],
            "reform": ["--policy", "central-dopt", "--set", "categories.OBC.share=0.19"],
            "again": ["--policy", str(tmp_path / "reform" / "summary.json")]}
    docs = {}
    for name, args in runs.items():
        r = subprocess.run([*cli, *args, "--out", str(tmp_path / name)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        docs[name] = json.loads((tmp_path / name / "summary.json").read_text())
    again = docs["again"]["provenance"]
    assert again["lineage"]["model"] == "central-dopt"
    assert again["lineage"]["overrides"] == ["categories.OBC.share=0.19"] and again["overrides"] == []
    assert again["policy_sha256"] == docs["reform"]["provenance"]["policy_sha256"] != \
        docs["stock"]["provenance"]["policy_sha256"]
    assert again["ortools"] and docs["again"]["invocation"]["command"][:4] == ["aarakshan", "solve", "--candidates",
                                                                               str(tmp_path / "c.csv")]
    assert (tmp_path / "again" / "allocation.csv").read_bytes() == (tmp_path / "reform" / "allocation.csv").read_bytes()
