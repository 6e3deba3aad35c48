"""choices.npy: a run's choices as read (each candidate's ranked seat pools), which the round after it takes in
place of reading and expanding the preferences file again (`solver.io.choices`). A round is the same, byte for
byte, with the file or without it; the file is taken only where the chain of custody holds (its SHA-256 the one
summary.json records, the run made by this version), and one that does not fit is not taken, with a word."""
import json
import shutil

import numpy as np
import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

import solver
from solver import load_policy
from solver.cli import app
from solver.io import readers
from solver.io.choices import CHOICES, read_choices, write_choices
from solver.data.seat_pools import Unheld
from solver.io.readers import read_problem
from solver.runs.counselling import responses, write_counselling

ROUND_FILES = ("allocation.csv", "unfilled.csv", "slide.csv", "withdrawn.csv", CHOICES)


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    """The bundled JoSAA-shaped counselling (two lists, every kind of seat pool), its first round solved by the
    command, and the second round's responses."""
    folder = tmp_path_factory.mktemp("choices")
    made = write_counselling(folder / "in", candidates=600)
    f = made.folder
    r = CliRunner().invoke(app, ["solve", "--policy", "josaa-2025", "--candidates", str(f / "candidates.csv"),
                                 "--vacancies", str(f / "vacancies.csv"), "--preferences", str(f / "preferences.csv"),
                                 "--ranks", str(f / "ranks.csv"), "--engine", "greedy", "--quiet",
                                 "--out", str(folder / "r1")])
    assert r.exit_code == 0, r.output
    write_csv(folder / "a2.csv", ["candidate_id", "response"],
              responses(read_csv(folder / "r1" / "allocation.csv"), 2))
    return folder


def _slide(result, folder, out):
    r = CliRunner().invoke(app, ["slide", "--result", str(result), "--responses", str(folder / "a2.csv"),
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    return r.output


def _files(out) -> dict:
    return {name: (out / name).read_bytes() for name in ROUND_FILES}


def test_the_round_is_the_same_with_the_runs_choices_or_without(first, tmp_path, monkeypatch):
    """The run's choices.npy holds every candidate's ranked seat pools as the first run read them; the second
    round, taking it, reads no preferences file and expands no program into its pools, and writes what the round
    that reads the file again writes, byte for byte, its own choices.npy the same."""
    prob = read_problem(load_policy("josaa-2025"), first / "in" / "candidates.csv", first / "in" / "vacancies.csv",
                        first / "in" / "preferences.csv", ranks=first / "in" / "ranks.csv")
    kept, unheld = read_choices(first / "r1" / CHOICES, prob.n, len(prob.posts))
    assert [x.tolist() for x in kept] == [x.tolist() for x in prob.preferences] and unheld == prob.unheld
    shutil.copytree(first / "r1", tmp_path / "r1")
    (tmp_path / "r1" / CHOICES).unlink()
    _slide(tmp_path / "r1", first, tmp_path / "read")
    with monkeypatch.context() as m:
        m.setattr(readers, "_in_pools", lambda *a: pytest.fail("the preferences were expanded again"))
        m.setattr(readers, "preferences_table", lambda *a: pytest.fail("the preferences file was read again"))
        _slide(first / "r1", first, tmp_path / "kept")
    assert _files(tmp_path / "kept") == _files(tmp_path / "read")
    assert (tmp_path / "kept" / CHOICES).read_bytes() == (first / "r1" / CHOICES).read_bytes()
    outputs = json.loads((tmp_path / "kept" / "summary.json").read_text())["outputs"]
    assert CHOICES in outputs


def test_a_changed_choices_file_is_not_taken_and_the_round_says_so(first, tmp_path):
    """choices.npy rewritten after the run (every list reversed: a file of the right shape, a different
    SHA-256): the round reads the preferences file instead, says so, and places everyone as the true choices do."""
    shutil.copytree(first / "r1", tmp_path / "r1")
    _slide(tmp_path / "r1", first, tmp_path / "good")
    prob = read_problem(load_policy("josaa-2025"), first / "in" / "candidates.csv", first / "in" / "vacancies.csv",
                        first / "in" / "preferences.csv", ranks=first / "in" / "ranks.csv")
    write_choices(tmp_path / "r1" / CHOICES, tuple(x[::-1] for x in prob.preferences))
    said = _slide(tmp_path / "r1", first, tmp_path / "bad")
    assert "changed since the run wrote it" in said and CHOICES in said
    assert _files(tmp_path / "bad") == _files(tmp_path / "good")


def test_a_run_of_another_version_is_read_from_its_preferences_file(first, tmp_path, monkeypatch):
    """The file holds the reading of the version that wrote it: under another version the round reads the
    preferences file again (without a word: it is not a fault)."""
    shutil.copytree(first / "r1", tmp_path / "r1")
    monkeypatch.setattr(solver, "__version__", "0.0.0-other")
    monkeypatch.setattr(readers, "read_choices", lambda *a: pytest.fail("choices.npy was taken"))
    said = _slide(tmp_path / "r1", first, tmp_path / "r2")
    assert CHOICES not in said


@pytest.mark.parametrize("made", [
    lambda f: write_choices(f, (np.array([0]),) * 4),                 # another number of candidates
    lambda f: write_choices(f, (np.array([0]), np.array([7]), np.array([1]))),   # a post out of range
    lambda f: np.save(f, np.array([9, 3, 3, 1, 1, 1, 0, 1, 2, 0], dtype=np.int32)),    # another format
    lambda f: np.save(f, np.array([1, 3, 3, 1, 1, 1, 0, 1, 2], dtype=np.int32)),    # an earlier version's format
    lambda f: np.save(f, np.array([3, 3, 4, 1, 1, 1, 0, 1, 2, 0], dtype=np.int32)),    # counts that do not add up
    lambda f: np.save(f, np.array([3, 3, 3, 1, 1, 1, 0, 1, 2], dtype=np.int32)),    # no part for the programs left out
    lambda f: np.save(f, np.array([3, 3, 3, 1, 1, 1, 0, 1, 2, 1, 5, 0, 0], dtype=np.int32)),   # one left out by nobody
    lambda f: np.save(f, np.array([3, 3, 3, 1, 1, 1, 0, 1, 2, 1, 0, 2, 0], dtype=np.int32)),   # past his list
    lambda f: np.save(f, np.array([3, 3, 3, 1, 1, 1, 0, 1, 2, 1, 0, 0, 3], dtype=np.int32)),   # a post out of range
    lambda f: np.save(f, np.array([3, 3, 3, 1, 1, 1, 0, 1, 2, 1, 0, 0], dtype=np.int32)),   # a part cut short
    lambda f: np.save(f, np.array([3, 3, 3, 1, 1, 1, 0, 1, 2, 2, 1, 0, 0, 0, 0, 0], dtype=np.int32)),  # out of order
    lambda f: np.save(f, np.array([1.0, 3.0])),                      # not int32
    lambda f: f.write_bytes(b"not a numpy file"),
])
def test_choices_that_do_not_fit_are_not_taken(tmp_path, made):
    """`read_choices` takes only its own format, for the problem's number of candidates and posts; read_problem,
    told of such a file, reads the preferences file after all and says why."""
    made(tmp_path / CHOICES)
    assert read_choices(tmp_path / CHOICES, 3, 3) is None
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["A", 1, "UR"], ["B", 2, "UR"], ["C", 3, "UR"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["Y", "UR", 1], ["Z", "UR", 1]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], [["A", 1, "Y"], ["B", 1, "X"], ["C", 1, "Z"]])
    said = []
    prob = read_problem(load_policy("central-dopt"), tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv",
                        warn=said.append, choices=tmp_path / CHOICES)
    assert [x.tolist() for x in prob.preferences] == [[1], [0], [2]]
    assert any(CHOICES in s and "read again" in s for s in said), said


@pytest.mark.parametrize("lists", [
    [[2, 0], [], [1]],                      # uint16, two to a cell, an odd count padded
    [[2, 0, 5], [4]],                       # uint16, an even count
    [[70_000, 3], [65_535], []],            # an index past uint16: int32
    [[], []],
])
def test_choices_read_back_as_written(tmp_path, lists):
    """Whatever the width of the indices, the lists come back as written, int32, one view each."""
    unheld = Unheld(np.array([0, 0, 1]), np.array([0, 2, 1]), np.array([3, 1, 0])) \
        if len(lists[0]) >= 2 and len(lists[1]) else None
    write_choices(tmp_path / CHOICES, tuple(np.array(x, dtype=np.int32) for x in lists), unheld)
    got, back = read_choices(tmp_path / CHOICES, len(lists), 70_001)
    assert [x.tolist() for x in got] == lists and all(x.dtype == np.int32 for x in got)
    assert (back is None) == (unheld is None)
    if unheld is not None:
        assert (back.who.tolist(), back.kept.tolist(), back.post.tolist()) == ([0, 0, 1], [0, 2, 1], [3, 1, 0])
    if top := max((v for x in lists for v in x), default=None):     # (a post index past the posts: refused)
        assert read_choices(tmp_path / CHOICES, len(lists), top) is None


def test_fill_reads_the_runs_choices_and_fills_the_same(tmp_path, monkeypatch):
    """`fill` reads the run before it through the same door as a round of counselling: with the run's
    choices.npy it reads no preferences file, and its files are those it writes without the file, byte for
    byte (the worked fill of tests/exam/test_reserve.py: O2 declines; upsc-cse, preferences, a reserve list)."""
    from test_reserve import FILL_CANDS, FILL_VACS, prefs
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "relaxed", "pwbd"], FILL_CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], FILL_VACS)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], prefs())
    write_csv(tmp_path / "d.csv", ["candidate_id", "reason"], [["O2", "declined"]])
    r = CliRunner().invoke(app, ["solve", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"),
                                 "--engine", "greedy", "--quiet", "--out", str(tmp_path / "out"), "--reserve-list"])
    assert r.exit_code == 0, r.output
    shutil.copytree(tmp_path / "out", tmp_path / "bare")
    (tmp_path / "bare" / CHOICES).unlink()

    def fill(result, out):
        done = CliRunner().invoke(app, ["fill", "--declined", str(tmp_path / "d.csv"), "--result", str(result),
                                        "--out", str(out)])
        assert done.exit_code == 0, done.output
        return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.name != "summary.json"}

    read = fill(tmp_path / "bare", tmp_path / "f-read")
    with monkeypatch.context() as m:
        m.setattr(readers, "preferences_table", lambda *a: pytest.fail("the preferences file was read again"))
        kept = fill(tmp_path / "out", tmp_path / "f-kept")
    assert kept == read and "filled_from_reserve.csv" in kept
