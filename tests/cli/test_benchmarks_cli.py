"""The benchmark runner as a newcomer meets it: an unknown instance is a clear refusal listing the instances,
and a run leaves the tracked result files alone unless asked to record (AARAKSHAN_RECORD=1)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_instance_is_refused_with_the_names():
    r = subprocess.run([sys.executable, "-m", "benchmarks", "generate", "foo"], cwd=ROOT, capture_output=True,
                       text=True, env={**os.environ, "COLUMNS": "200"})
    assert r.returncode == 2 and "no instance 'foo'" in r.stderr and "single-10k" in r.stderr
    assert "Traceback" not in r.stderr


def test_figures_are_recorded_only_when_asked(tmp_path, monkeypatch, capsys):
    import benchmarks
    monkeypatch.setattr(benchmarks, "__file__", str(tmp_path / "benchmarks" / "__init__.py"))
    monkeypatch.delenv("AARAKSHAN_RECORD", raising=False)
    benchmarks.record("probe", [{"seconds": 1.0}])
    assert not (tmp_path / "benchmarks" / "results" / "probe.jsonl").exists()
    assert "not recorded" in capsys.readouterr().out
    monkeypatch.setenv("AARAKSHAN_RECORD", "1")
    benchmarks.record("probe", [{"seconds": 1.0}], size=3)
    line = (tmp_path / "benchmarks" / "results" / "probe.jsonl").read_text()
    assert '"seconds": 1.0' in line and '"size": 3' in line and '"commit"' in line


def test_the_counselling_benchmark_runs_its_rounds_on_a_small_instance(tmp_path):
    """benchmarks/counselling.py end to end on 2,000 candidates: the first round, its verification, two slide
    rounds each verified (verify --stage slide finding nothing, or the run fails) and the rounds' total against the
    first (the figures themselves are not judged here)."""
    env = {k: v for k, v in os.environ.items() if k != "AARAKSHAN_RECORD"}
    r = subprocess.run([sys.executable, "-m", "benchmarks.counselling", "--candidates", "2000", "--choices", "30000",
                        "--rounds", "3", "--folder", str(tmp_path / "i")], cwd=ROOT, capture_output=True, text=True,
                       env={**env, "COLUMNS": "200"})
    assert r.returncode == 0, r.stderr[-2000:]
    assert "slide (round 3)" in r.stdout and "3 rounds (solve and 2 slides)" in r.stdout and "not recorded" in r.stdout
    assert "verify (slide round 3)" in r.stdout and "x_round" in r.stdout
