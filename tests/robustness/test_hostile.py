"""A hostile or careless user: the register under concurrent writers and kill -9, files that are not
registers, --out that cannot be written, stale outputs, interrupted runs. Each test reproduces a finding."""
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import read_csv, write_csv
from years import dump, year_folder
from typer.testing import CliRunner

from solver.cli import app
from solver.register import Register

AARAKSHAN = [sys.executable, "-c", "from solver.cli import main; main()"]


def cadre_years(root, years, n=400):
    """Bihar cadre X, UR 6, SC 2, ST 1 a year; open and ST candidates only (SC vacancies are carried)."""
    for y in years:
        cands = [[f"U{y}-{k}", k + 1, "UR", "M"] for k in range(n)] + \
                [[f"T{y}-{k}", n + k + 1, "ST", "M"] for k in range(6)]
        year_folder(root / "years", y, cands, [["X", "UR", 6], ["X", "SC", 2], ["X", "ST", 1]])


def solve_args(root, year, reg="reg.sqlite", engine="greedy"):
    d = root / "years" / str(year)
    return ["solve", "--policy", "bihar-1991", "--candidates", str(d / "candidates.csv"), "--vacancies",
            str(d / "vacancies.csv"), "--out", str(root / "out" / str(year)), "--register", str(root / reg),
            "--year", str(year), "--engine", engine]


def run(args, **kw):
    return subprocess.run(AARAKSHAN + args, capture_output=True, text=True, **kw)


# The register -------------------------------------------------------------------------------------------

def test_two_writers_never_record_from_a_stale_state(tmp_path):
    """Two processes writing one register at once. Whatever the interleaving, each run is recorded
    from the state it read or refused with a clear message; when both succeed the register equals the one the
    years give solved one after the other."""
    cadre_years(tmp_path, (2021, 2022, 2023), n=3000)
    assert run(solve_args(tmp_path, 2021, "seq.sqlite")).returncode == 0
    assert run(solve_args(tmp_path, 2022, "seq.sqlite")).returncode == 0
    assert run(solve_args(tmp_path, 2023, "seq.sqlite")).returncode == 0
    sequential = dump(tmp_path / "seq.sqlite")
    for k in range(4):
        shutil.copy(tmp_path / "seq.sqlite", tmp_path / "base.sqlite")
        reg = f"r{k}.sqlite"
        assert run(solve_args(tmp_path, 2021, reg)).returncode == 0
        a = subprocess.Popen(AARAKSHAN + solve_args(tmp_path, 2022, reg, "cpsat"), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        b = subprocess.Popen(AARAKSHAN + solve_args(tmp_path, 2023, reg, "cpsat"), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        (_, ea), (_, eb) = a.communicate(), b.communicate()
        assert {a.returncode, b.returncode} <= {0, 2}, (ea, eb)
        assert "Traceback" not in ea + eb
        if a.returncode == b.returncode == 0:
            got = dump(tmp_path / reg)
            assert {t: v for t, v in got.items() if t != "years"} == \
                {t: v for t, v in sequential.items() if t != "years"}
        elif b.returncode == 2:
            assert "changed while 2023 was solved" in eb or "recorded after" in eb or "another run" in eb, eb
        with Register(tmp_path / reg) as r:
            assert r.years() in ([2021, 2022, 2023], [2021, 2022], [2021, 2023])


@pytest.mark.parametrize("k", range(6))
def test_kill_9_leaves_outputs_and_register_together(tmp_path, k):
    """Outputs were written before the register recorded the year, so a kill inside the transaction
    left outputs of an unrecorded year. Killed at any moment, a run leaves either the year recorded and its
    outputs in place (at once, or when the register is next opened) or neither; later runs clean its scratch."""
    cadre_years(tmp_path, (2021,), n=20000)
    p = subprocess.Popen(AARAKSHAN + solve_args(tmp_path, 2021), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    time.sleep(0.4 + 0.45 * k)
    p.send_signal(signal.SIGKILL)
    p.wait()
    out = tmp_path / "out" / "2021"
    if (tmp_path / "reg.sqlite").exists():
        with Register(tmp_path / "reg.sqlite") as reg:   # publishes what a run killed after its commit left
            recorded = 2021 in reg.years()
    else:
        recorded = False
    if recorded:
        assert sorted(f.name for f in out.iterdir()) == ["allocation.csv", "carried.csv", "cutoffs.csv",
                                                         "decisions.csv", "summary.json", "unfilled.csv"]
    else:
        assert not (out / "allocation.csv").exists()
    # A later run (any year) removes the scratch the killed one left.
    cadre_years(tmp_path, (2030,), n=5)
    r = run(solve_args(tmp_path, 2030, "other.sqlite"))
    assert r.returncode == 0, r.stderr
    assert not list((tmp_path / "out").glob(".aarakshan-*"))


def test_a_run_the_register_refuses_writes_nothing(tmp_path):
    """A year the register refuses leaves --out as it was."""
    cadre_years(tmp_path, (2021,), n=5)
    assert CliRunner().invoke(app, solve_args(tmp_path, 2021)).exit_code == 0
    shutil.rmtree(tmp_path / "out")
    r = CliRunner().invoke(app, solve_args(tmp_path, 2021))
    assert r.exit_code == 2 and "already recorded" in r.output
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.csv"))


def test_files_that_are_not_registers_are_refused(tmp_path):
    """Another program's database, a damaged file and a version-1 file without tables."""
    cadre_years(tmp_path, (2021,), n=5)
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("CREATE TABLE customers (id INTEGER)")
    other.commit()
    other.close()
    r = CliRunner().invoke(app, solve_args(tmp_path, 2021, "other.sqlite"))
    assert r.exit_code == 2 and "not an Aarakshan register" in r.output
    assert sqlite3.connect(tmp_path / "other.sqlite").execute("PRAGMA user_version").fetchone() == (0,)
    empty = sqlite3.connect(tmp_path / "v1.sqlite")
    empty.execute("PRAGMA user_version = 1")
    empty.close()
    r = CliRunner().invoke(app, solve_args(tmp_path, 2021, "v1.sqlite"))
    assert r.exit_code == 2 and "damaged register" in r.output
    assert CliRunner().invoke(app, solve_args(tmp_path, 2021, "good.sqlite")).exit_code == 0
    data = bytearray((tmp_path / "good.sqlite").read_bytes())
    data[4096:len(data)] = b"\xff" * (len(data) - 4096)   # every page but the schema's overwritten
    (tmp_path / "bad.sqlite").write_bytes(bytes(data))
    r = CliRunner().invoke(app, solve_args(tmp_path, 2021, "bad.sqlite"))
    assert r.exit_code == 2 and ("integrity check" in r.output or "not an Aarakshan register" in r.output)
    assert "Traceback" not in r.output


def test_verify_never_writes_the_register(tmp_path):
    """verify reads the register (it is evidence): it opens it read-only and never migrates it."""
    cadre_years(tmp_path, (2021,), n=5)
    before = (tmp_path / "none.sqlite").exists()
    d = tmp_path / "years" / "2021"
    write_csv(tmp_path / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route",
                                   "rank"], [])
    r = CliRunner().invoke(app, ["verify", "--policy", "bihar-1991", "--candidates", str(d / "candidates.csv"),
                                 "--vacancies", str(d / "vacancies.csv"), "--allocation", str(tmp_path / "a.csv"),
                                 "--register", str(tmp_path / "none.sqlite"), "--year", "2021"])
    assert r.exit_code == 2 and "no such register" in r.output and not before
    assert not (tmp_path / "none.sqlite").exists()


def test_a_stopped_simulation_resumes(tmp_path):
    """A simulation that stopped after its first year resumes after the years the register holds."""
    cadre_years(tmp_path, (2021, 2022, 2023), n=8)
    args = ["simulate", "--policy", "bihar-1991", "--years", str(tmp_path / "years"), "--register",
            str(tmp_path / "reg.sqlite"), "--out", str(tmp_path / "out"), "--engine", "greedy"]
    full = tmp_path / "full"
    shutil.copytree(tmp_path / "years", full / "years")
    assert CliRunner().invoke(app, [*args[:4], str(full / "years"), "--register", str(full / "reg.sqlite"),
                                    "--out", str(full / "out"), "--engine", "greedy"]).exit_code == 0
    assert CliRunner().invoke(app, solve_args(tmp_path, 2021)).exit_code == 0   # the first year only
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "resuming: 2021" in r.output
    assert dump(tmp_path / "reg.sqlite") == dump(full / "reg.sqlite")
    shutil.rmtree(tmp_path / "years" / "2022")
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "not the first years of this folder" in r.output


# --out ------------------------------------------------------------------------------------------------

def test_stale_outputs_of_an_earlier_run_are_removed(tmp_path):
    """Diff.csv of an earlier --engine both run stayed beside the new files."""
    cadre_years(tmp_path, (2021,), n=5)
    d = tmp_path / "years" / "2021"
    base = ["solve", "--policy", "bihar-1991", "--candidates", str(d / "candidates.csv"), "--vacancies",
            str(d / "vacancies.csv"), "--out", str(tmp_path / "o")]
    assert CliRunner().invoke(app, [*base, "--engine", "both"]).exit_code == 0
    assert (tmp_path / "o" / "diff.csv").exists()
    assert CliRunner().invoke(app, [*base, "--engine", "greedy"]).exit_code == 0
    assert not (tmp_path / "o" / "diff.csv").exists()


def test_an_unwritable_out_is_bad_input(tmp_path):
    """--out an existing file, or a folder that cannot be written: exit 2 with the path."""
    cadre_years(tmp_path, (2021,), n=5)
    d = tmp_path / "years" / "2021"
    base = ["solve", "--policy", "bihar-1991", "--candidates", str(d / "candidates.csv"), "--vacancies",
            str(d / "vacancies.csv"), "--engine", "greedy", "--out"]
    (tmp_path / "afile").write_text("x")
    r = CliRunner().invoke(app, [*base, str(tmp_path / "afile")])
    assert r.exit_code == 2 and "is a file" in r.output
    r = CliRunner().invoke(app, [*base, str(tmp_path / "afile" / "sub")])
    assert r.exit_code == 2 and "cannot write the outputs" in r.output
    if os.geteuid() != 0:  # (root writes anywhere)
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        r = CliRunner().invoke(app, [*base, str(ro / "out")])
        assert r.exit_code == 2 and "cannot write the outputs" in r.output


def test_sigterm_leaves_no_scratch(tmp_path):
    """SIGTERM left .aarakshan-* scratch folders; now the run ends with 143 and cleans up."""
    cadre_years(tmp_path, (2021,), n=60000)
    d = tmp_path / "years" / "2021"
    p = subprocess.Popen(AARAKSHAN + ["solve", "--policy", "bihar-1991", "--candidates", str(d / "candidates.csv"),
                                      "--vacancies", str(d / "vacancies.csv"), "--out", str(tmp_path / "o"),
                                      "--engine", "greedy"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    deadline = time.time() + 60
    while time.time() < deadline and not list(tmp_path.glob(".aarakshan-*")) and p.poll() is None:
        time.sleep(0.02)
    p.send_signal(signal.SIGTERM)
    _, e = p.communicate()
    # (a run that finished first may meet the signal at interpreter exit: -15, its outputs complete)
    assert p.returncode in (0, 143) or (p.returncode == -15 and (tmp_path / "o" / "summary.json").exists()), e
    assert not list(tmp_path.glob(".aarakshan-*"))


# The command line -------------------------------------------------------------------------------------

def small(tmp_path, cands=None, header=("id", "rank", "category", "gender"), raw=None):
    cpath = tmp_path / "c.csv"
    if raw is not None:
        cpath.write_bytes(raw)
    else:
        write_csv(cpath, list(header), cands or [["A", 1, "UR", "M"], ["B", 2, "SC", "F"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["X", "SC", 1]])
    return ["solve", "--policy", "central-dopt", "--candidates", str(cpath), "--vacancies",
            str(tmp_path / "v.csv"), "--out", str(tmp_path / "o")]


@pytest.mark.parametrize("limit", ["-1", "nan", "0", "inf"])
def test_a_bad_time_limit_is_bad_input_not_a_legal_claim(tmp_path, limit):
    """--time-limit -1 or nan ended in "CP-SAT proved ... infeasible" (exit 3)."""
    r = CliRunner().invoke(app, [*small(tmp_path), "--time-limit", limit])
    assert r.exit_code == 2 and "--time-limit" in r.output and "infeasible" not in r.output
    assert not (tmp_path / "o").exists()


def test_an_independent_solve_out_of_time_still_writes_the_answer(tmp_path):
    """SPEC exit 4: the best answer is still written, status time_limit."""
    from solver import load_policy
    from solver.data.instances import generate, write_instance
    pol = load_policy("central-dopt")
    d = write_instance(tmp_path / "in", *generate(pol, 3000, 300, seed=3, posts=30, preferences=30))
    r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", "--candidates", str(d / "candidates.csv"),
                                 "--vacancies", str(d / "vacancies.csv"), "--preferences",
                                 str(d / "preferences.csv"), "--out", str(tmp_path / "o"), "--time-limit", "0.001",
                                 "--independent"])
    assert r.exit_code == 4, r.output
    import json
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["status"] == "time_limit"
    assert len(read_csv(tmp_path / "o" / "allocation.csv")) > 0


def test_workers_are_capped_at_the_cores(tmp_path):
    """--workers 64 took five times the memory of one; it is capped at the cores, same output."""
    r = CliRunner().invoke(app, [*small(tmp_path), "--workers", "64"])
    assert r.exit_code == 0 and "using" in r.output
    r = CliRunner().invoke(app, [*small(tmp_path), "--workers", "0"])
    assert r.exit_code == 2


def test_a_model_too_large_for_the_machine_is_refused_before_it_is_built(monkeypatch):
    """Estimate the model's size first and, past what the machine holds, stop with exit 3 naming
    --engine greedy (here the machine is told it has 1 MiB free)."""
    from solver import load_policy, solve
    from solver.chain.engines.cpsat import size
    from solver.errors import Unsupported
    from solver.data.instances import generate, write_instance
    import tempfile
    from pathlib import Path
    from solver.io.readers import read_problem
    pol = load_policy("central-dopt")
    d = write_instance(Path(tempfile.mkdtemp()), *generate(pol, 200, 20, seed=3, posts=4))
    prob = read_problem(pol, d / "candidates.csv", d / "vacancies.csv")
    monkeypatch.setattr(size, "available_memory", lambda: 2**20)
    with pytest.raises(Unsupported, match="engine=greedy") as refused:
        solve(pol, prob, "cpsat", hint=False)   # the full model (--independent)
    from solver.cli.common import flags       # (the library's words; the command line says its own)
    assert "use --engine greedy" in flags(str(refused.value)) and "--engine" not in str(refused.value)
    assert solve(pol, prob, "greedy").result.selected.sum() > 0
    # The certificate of the greedy's answer has only the pairs that could refute it: it fits.
    cert = solve(pol, prob, "cpsat").result.assignment
    assert cert.status == "optimal" and cert.stats["certificate"] == "reduced"


@pytest.mark.parametrize("raw, line, column, text", [
    # Blank lines and a quoted line break shifted the reported line (physical line 7 said 4).
    (b"id,rank,category,gender\nA,1,UR,M\n\n\n\"B\nx\",2,SC,F\nC,3,XX,M\n", 7, "3 (category)", "unknown category"),
    # Extra and missing fields, an unclosed quote: a line and a 1-based column.
    (b"id,rank,category,gender\nA,1,UR,M\nB,2,SC,F,extra\n", 3, 5, "5 fields where the header has 4"),
    (b"id,rank,category,gender\nA,1,UR,M\nB,2,SC\n", 3, 4, "3 fields where the header has 4"),
    (b"id,rank,category,gender\nA,1,UR,M\n\"B,2,SC,F\n", 3, None, "unclosed quote"),
    # Latin-1 text: the line and column of the first byte that is not UTF-8.
    (b"id,rank,category,gender\nA,1,UR,M\nB\xe9,2,SC,F\n", 3, 1, "not UTF-8"),
    # Rank 0, -1, 1e23: named on their own line (was "rank 1 is missing").
    (b"id,rank,category,gender\nA,1,UR,M\nB,0,SC,F\n", 3, "2 (rank)", "outside 1..2"),
    (b"id,rank,category,gender\nA,1e23,UR,M\nB,1,SC,F\n", 2, "2 (rank)", "outside 1..2"),
    # A duplicate header column gave a traceback.
    (b"id,rank,category,rank\nA,1,UR,1\n", 1, "4 (rank)", "appears twice"),
    # An impossible birth date was used as a tie-break.
    (b"id,rank,category,birth_date\nA,1,UR,1990-02-30\n", 2, "4 (birth_date)", "not a date"),
])
def test_malformed_candidates_name_line_and_column(tmp_path, raw, line, column, text):
    r = CliRunner().invoke(app, small(tmp_path, raw=raw))
    assert r.exit_code == 2, r.output
    assert text in r.output and (f"line {line}" in r.output)
    if column is not None:
        assert f"column {column}" in r.output
    assert not (tmp_path / "o").exists()


def test_a_fifo_as_candidates_is_refused_not_read(tmp_path):
    """A FIFO as --candidates hung."""
    args = small(tmp_path)
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    args[args.index("--candidates") + 1] = str(fifo)
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "not a regular file" in r.output


def test_parquet_nested_columns_are_bad_input(tmp_path):
    """A Parquet list column gave a traceback."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"id": ["A"], "rank": [1], "category": ["UR"], "gender": [["M"]]}),
                   tmp_path / "c.parquet")
    args = small(tmp_path)
    args[args.index("--candidates") + 1] = str(tmp_path / "c.parquet")
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "4 (gender)" in r.output and "list" in r.output


@pytest.mark.parametrize("sets, text", [
    (["ceiling.share=true"], "--set: ceiling.share=true"),           # was read as 1.0
    (['exchange=[{categories=["SC","SC"]}]'], "names a category twice"),
    (['fallback=[{from="ST",to=["ST"]}]'], "may not name its own category"),
    (["=1"], "the key '' names no setting"),                          # was "Extra inputs are not permitted"
    (["ceiling..share=0.5"], "names no setting (an empty part)"),
])
def test_overrides_are_checked_and_blamed(tmp_path, sets, text):
    args = small(tmp_path)
    for x in sets:
        args += ["--set", x]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and text in r.output and "--set" in r.output


def test_policy_files_that_cannot_be_read(tmp_path):
    """A policy that is a folder, Latin-1, or empty as a name."""
    (tmp_path / "latin.toml").write_bytes(b'name = "caf\xe9"\n')
    for policy, text in ((str(tmp_path), "is not a file"), (str(tmp_path / "latin.toml"), "not UTF-8"),
                         ("", "empty")):
        args = small(tmp_path)
        args[args.index("--policy") + 1] = policy
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 2 and text in r.output, r.output


def test_a_huge_bad_cell_is_not_echoed_whole(tmp_path):
    """A million-character bad code came back in a 1 MB message."""
    r = CliRunner().invoke(app, small(tmp_path, [["A", 1, "X" * 1_000_000, "M"]]))
    assert r.exit_code == 2 and len(r.output) < 2000


def test_vacancies_beyond_any_cadre_are_bad_input(tmp_path):
    """Vacancies of 2^63 under CP-SAT gave a traceback."""
    args = small(tmp_path)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 2**63]])
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "vacancies" in r.output


def test_ctrl_c_during_start_up_is_a_clean_exit(tmp_path):
    """Ctrl-C while the command starts gave a traceback; now "interrupted", exit 130, nothing
    written."""
    cadre_years(tmp_path, (2021,), n=60000)
    p = subprocess.Popen(AARAKSHAN + solve_args(tmp_path, 2021), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    # The command has started once it has opened the register (before reading the inputs). A signal before
    # that lands in the interpreter's imports, before `main` can catch it (on a loaded machine 1 s was not
    # always enough to get there).
    deadline = time.monotonic() + 60
    while not (tmp_path / "reg.sqlite").exists() and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    p.send_signal(signal.SIGINT)
    out, e = p.communicate()
    assert "Traceback" not in e, e
    # Interrupted before its commit, the year left nothing; after it, its outputs are published when the
    # register is next opened: the record and the outputs go together either way.
    recorded = (tmp_path / "reg.sqlite").exists() and 2021 in Register(tmp_path / "reg.sqlite").years()
    assert (tmp_path / "out" / "2021" / "allocation.csv").exists() == recorded
    if not recorded:   # (a fast machine may have finished, the signal then landing at interpreter exit)
        assert p.returncode in (1, 130), e   # (typer turns an interrupt inside a command into exit 1, "Aborted")


def test_a_pending_folder_published_by_two_runs_at_once_is_published_once(tmp_path, monkeypatch):
    """Found by CI: a run that recorded a year and a second run opening the register both publish the year's
    pending outputs. When the other run moves a file first, this one skips it instead of failing with "No such
    file or directory" (exit 2)."""
    import os

    from solver.outcome import reports
    staged = tmp_path / ".aarakshan-1-x"
    staged.mkdir()
    for name in ("allocation.csv", "summary.json"):
        (staged / name).write_text(name)
    real = os.replace
    first = []

    def other_run_first(src, dst):
        if not first:
            first.append(src)
            real(src, dst)            # the other run publishes this file just before us
        return real(src, dst)
    monkeypatch.setattr(reports.os, "replace", other_run_first)
    reports.Staged(staged, tmp_path / "out").publish()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["allocation.csv", "summary.json"]
    assert not staged.exists()
