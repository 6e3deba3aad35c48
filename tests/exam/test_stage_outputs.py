"""One mechanism for every stage's outputs (`solver.io.staging`): a stage never writes into a folder or file it
reads; a file or folder is published in one step; summary.json records the SHA-256 of every file the stage
wrote and of itself, so that the next stage checks what it reads whole; a run's inputs are found again from
another folder. Each case once wrote over, or accepted, what it should not."""
import json
import os
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.io.staging import sha256_file


def invoke(*args, cwd=None):
    if cwd is None:
        return CliRunner().invoke(app, [str(a) for a in args])
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(app, [str(a) for a in args])
    finally:
        os.chdir(old)


@pytest.fixture(scope="module")
def exam(tmp_path_factory):
    """The bundled combined exam, and its final list solved with a reserve list."""
    root = tmp_path_factory.mktemp("exam")
    r = invoke("demo", "--pipeline", "--out", root / "exam")
    assert r.exit_code == 0, r.output
    e = root / "exam"
    r = invoke("solve", "--policy", "upsc-cse", "--vacancies", e / "vacancies.csv", "--candidates", e / "final.csv",
               "--preferences", e / "preferences.csv", "--reserve-list", "--out", root / "final", "--quiet")
    assert r.exit_code == 0, r.output
    return root


def digests(folder):
    return {p.name: sha256_file(p) for p in sorted(folder.iterdir()) if p.is_file()}


def copy_final(exam, tmp_path):
    shutil.copytree(exam / "final", tmp_path / "final")
    return tmp_path / "final"


def test_merit_refuses_to_write_over_its_candidates_file(exam, tmp_path):
    e = exam / "exam"
    shutil.copy(e / "final.csv", tmp_path / "final.csv")
    before = sha256_file(tmp_path / "final.csv")
    r = invoke("merit", "--policy", "upsc-cse", "--candidates", tmp_path / "final.csv", "--stage",
               f"main={e / 'main_scores.csv'}", "--stage", f"interview={e / 'interview_scores.csv'}",
               "--out", tmp_path / "final.csv")
    assert r.exit_code == 2 and "never writes over what it reads" in r.output
    assert sha256_file(tmp_path / "final.csv") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["final.csv"]     # no staging file left


def test_an_empty_candidates_row_is_the_candidates_files_fault(exam, tmp_path):
    """A row with an empty id in the candidates file is refused naming that file, its line and the id column,
    where it was blamed on the first stage file ("m.csv:  has no score")."""
    e = exam / "exam"
    lines = (e / "final.csv").read_text().splitlines()
    (tmp_path / "final.csv").write_text("\n".join([lines[0], lines[1], "," * lines[0].count(","), *lines[2:]]) + "\n")
    r = invoke("merit", "--policy", "upsc-cse", "--candidates", tmp_path / "final.csv", "--stage",
               f"main={e / 'main_scores.csv'}", "--stage", f"interview={e / 'interview_scores.csv'}",
               "--out", tmp_path / "merit.csv")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "final.csv, line 3, column 1 (id): empty id" in text, text
    assert "main_scores" not in text and not (tmp_path / "merit.csv").exists()


def test_merit_reads_parquet_as_it_reads_csv(exam, tmp_path):
    """formats.md: Parquet wherever a CSV is read (merit crashed on it)."""
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq
    e = exam / "exam"
    pq.write_table(pacsv.read_csv(e / "final.csv"), tmp_path / "final.parquet")
    outs = []
    for given in (e / "final.csv", tmp_path / "final.parquet"):
        out = tmp_path / f"{given.suffix[1:]}.csv"
        r = invoke("merit", "--policy", "upsc-cse", "--candidates", given, "--stage", f"main={e / 'main_scores.csv'}",
                   "--stage", f"interview={e / 'interview_scores.csv'}", "--out", out)
        assert r.exit_code == 0, r.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


@pytest.mark.parametrize("where", ["same", "inside"])
def test_fill_refuses_to_write_into_the_result_it_reads(exam, tmp_path, where):
    final = copy_final(exam, tmp_path)
    before = digests(final)
    out = final if where == "same" else final / "filled"
    r = invoke("fill", "--result", final, "--declined", exam / "exam" / "declined.csv", "--out", out)
    assert r.exit_code == 2, r.output
    assert digests(final) == before and not (final / "filled").exists()


def test_slide_refuses_to_write_into_the_result_it_reads(exam, tmp_path):
    final = copy_final(exam, tmp_path)
    before = digests(final)
    r = invoke("slide", "--result", final, "--responses", exam / "exam" / "responses.csv", "--out", final)
    assert r.exit_code == 2 and digests(final) == before


def test_shortlist_refuses_to_replace_the_list_it_reads(exam, tmp_path):
    e = exam / "exam"
    v = ["--policy", "upsc-cse", "--vacancies", e / "vacancies.csv"]
    r = invoke("shortlist", *v, "--candidates", e / "prelims.csv", "--ratio", 12, "--stage", "main",
               "--out", tmp_path / "mains")
    assert r.exit_code == 0, r.output
    before = digests(tmp_path / "mains")
    r = invoke("shortlist", *v, "--candidates", e / "mains.csv", "--ratio", 2, "--stage", "interview",
               "--shortlist", tmp_path / "mains" / "shortlist.csv", "--out", tmp_path / "mains")
    assert r.exit_code == 2 and "never writes" in r.output
    assert digests(tmp_path / "mains") == before


def test_an_edited_shortlist_is_told_from_its_own_folder(exam, tmp_path):
    e = exam / "exam"
    v = ["--policy", "upsc-cse", "--vacancies", e / "vacancies.csv"]
    invoke("shortlist", *v, "--candidates", e / "prelims.csv", "--ratio", 12, "--out", tmp_path / "mains")
    doc = json.loads((tmp_path / "mains" / "summary.json").read_text())
    assert set(doc["outputs"]) == {"shortlist.csv", "cutoffs.csv"} and len(doc["digest"]) == 64
    lines = (tmp_path / "mains" / "shortlist.csv").read_text().splitlines(keepends=True)
    (tmp_path / "mains" / "shortlist.csv").write_text("".join(lines[:2] + lines[3:]))
    r = invoke("shortlist", *v, "--candidates", e / "mains.csv", "--ratio", 2, "--shortlist",
               tmp_path / "mains" / "shortlist.csv", "--out", tmp_path / "interview")
    assert r.exit_code == 2 and "changed since the shortlist stage wrote it" in r.output
    assert not (tmp_path / "interview").exists()


def test_fill_refuses_a_result_whose_summary_was_edited(exam, tmp_path):
    """Letting the Extended List fill any vacancy in the result's policy, its files' digests kept: refused by the
    summary's own digest."""
    final = copy_final(exam, tmp_path)
    doc = json.loads((final / "summary.json").read_text())
    doc["provenance"]["policy"]["reserve_list"]["extended_reasons"].append("declined")
    (final / "summary.json").write_text(json.dumps(doc, indent=2))
    r = invoke("fill", "--result", final, "--declined", exam / "exam" / "declined.csv", "--out", tmp_path / "f")
    assert r.exit_code == 2 and "summary.json: changed since the run wrote it" in r.output
    assert not (tmp_path / "f").exists()


def test_fill_and_its_summary_from_another_folder(exam, tmp_path):
    """The result's inputs were given as relative paths from the folder solve ran in: fill run from elsewhere
    finds them by the path resolved when they were read. Its own summary.json records its outputs."""
    e = exam / "exam"
    r = invoke("solve", "--policy", "upsc-cse", "--vacancies", "exam/vacancies.csv", "--candidates",
               "exam/final.csv", "--preferences", "exam/preferences.csv", "--reserve-list", "--out",
               tmp_path / "final", "--quiet", cwd=exam)
    assert r.exit_code == 0, r.output
    (tmp_path / "elsewhere").mkdir()
    r = invoke("fill", "--result", tmp_path / "final", "--declined", e / "declined.csv", "--out", "filled",
               cwd=tmp_path / "elsewhere")
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "elsewhere" / "filled" / "summary.json").read_text())
    assert set(doc["outputs"]) == {"allocation.csv", "decisions.csv", "unfilled.csv", "cutoffs.csv",
                                   "filled_from_reserve.csv"}
    assert doc["outputs"]["allocation.csv"] == sha256_file(tmp_path / "elsewhere" / "filled" / "allocation.csv")


def test_two_merits_into_one_file_leave_one_of_them_whole(exam, tmp_path):
    """Two runs at once, each with its own stages: the file left is one run's, byte for byte, and no staging
    file is left beside it."""
    e = exam / "exam"
    half = tmp_path / "half.csv"
    rows = (e / "interview_scores.csv").read_text().splitlines()
    half.write_text("\n".join([rows[0]] + [f"{r.split(',')[0]},{float(r.split(',')[1]) / 2}" for r in rows[1:]]) + "\n")
    cmds = [[sys.executable, "-m", "solver.cli", "merit", "--policy", "upsc-cse", "--candidates", str(e / "final.csv"),
             "--stage", f"main={e / 'main_scores.csv'}", "--stage", f"interview={i}", "--out", str(tmp_path / "m.csv")]
            for i in (e / "interview_scores.csv", half)]
    singles = []
    for k, cmd in enumerate(cmds):
        alone = [*cmd[:-1], str(tmp_path / f"alone{k}.csv")]
        assert subprocess.run(alone, capture_output=True).returncode == 0
        singles.append((tmp_path / f"alone{k}.csv").read_bytes())
    procs = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for cmd in cmds]
    assert [p.wait() for p in procs] == [0, 0]
    assert (tmp_path / "m.csv").read_bytes() in singles
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_names_with_brackets_are_plain_text(exam, tmp_path):
    """A stage named `[/]` and an output folder `run [old]` were read as rich markup and crashed the console."""
    e = exam / "exam"
    r = invoke("shortlist", "--policy", "upsc-cse", "--vacancies", e / "vacancies.csv", "--candidates",
               e / "prelims.csv", "--ratio", 12, "--stage", "[/]", "--out", tmp_path / "run [old]")
    assert r.exit_code == 0, r.output
    assert "called to the [/]" in r.output and "run [old]" in " ".join(r.output.split())
    r = invoke("solve", "--policy", "upsc-cse", "--vacancies", e / "vacancies.csv", "--candidates", e / "final.csv",
               "--engine", "greedy", "--out", tmp_path / "o [x]")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("edit", ["reordered", "damaged"])
def test_an_input_changed_since_the_run_is_named_whatever_it_now_holds(exam, tmp_path, edit):
    """The final list's candidates file edited after the run (two rows swapped: still a good file; or damaged: a
    missing column, which reading it would report): `fill` says the file changed since the run read it, exit 2,
    and writes nothing; a damaged file is told as changed, not as what reading it finds."""
    e = exam / "exam"
    for name in ("vacancies.csv", "final.csv", "preferences.csv"):
        shutil.copy(e / name, tmp_path / name)
    r = invoke("solve", "--policy", "upsc-cse", "--vacancies", tmp_path / "vacancies.csv", "--candidates",
               tmp_path / "final.csv", "--preferences", tmp_path / "preferences.csv", "--reserve-list", "--out",
               tmp_path / "final", "--quiet")
    assert r.exit_code == 0, r.output
    lines = (tmp_path / "final.csv").read_text().splitlines()
    if edit == "reordered":
        lines[1], lines[2] = lines[2], lines[1]
    else:
        lines = ["x,y"] + lines[1:]
    (tmp_path / "final.csv").write_text("\n".join(lines) + "\n")
    r = invoke("fill", "--result", tmp_path / "final", "--declined", e / "declined.csv", "--out", tmp_path / "f")
    assert r.exit_code == 2 and "final.csv: changed since the run in" in r.output, r.output
    assert "missing required column" not in r.output and not (tmp_path / "f").exists()
