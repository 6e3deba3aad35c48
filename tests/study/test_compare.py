"""`aarakshan compare A/ B/`, on a what-if whose outcome is derived by hand."""
import csv
import json
import subprocess
import sys

CLI = [sys.executable, "-c", "from solver.cli import main; main()"]


def _solve(tmp_path, out, *sets):
    c, v = tmp_path / "candidates.csv", tmp_path / "vacancies.csv"
    c.write_text("id,score,category,gender,relaxed\nR1,90,OBC,M,true\nU2,80,UR,M,\nR3,70,OBC,F,\n")
    v.write_text("post,category,vacancies\nX,UR,1\nX,OBC,1\n")
    args = [f"--set={s}" for s in sets]
    r = subprocess.run([*CLI, "solve", "--policy", "central-dopt", "--candidates", str(c), "--vacancies", str(v),
                        "--out", str(tmp_path / out), "--engine", "greedy", *args], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return tmp_path / out


def _compare(tmp_path, a, b, out="cmp"):
    r = subprocess.run([*CLI, "compare", str(a), str(b), "--out", str(tmp_path / out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(open(tmp_path / out / "changes.csv")))
    return rows, json.loads((tmp_path / out / "compare.json").read_text())


def test_a_folder_compared_with_itself_has_no_changes(tmp_path):
    a = _solve(tmp_path, "a")
    rows, doc = _compare(tmp_path, a, a)
    assert rows == [] and doc["candidates_changed"] == 0 and doc["posts"] == []
    assert doc["selected_by_own_category"] == {"OBC": {"a": 1, "b": 1, "change": 0}, "UR": {"a": 1, "b": 1, "change": 0}}


def test_letting_relaxed_candidates_take_open_seats(tmp_path):
    """X has one open and one OBC vacancy; merit R1 (OBC, relaxed standard) > U2 (UR) > R3 (OBC). Barred from
    open (DoPT OM 01.07.1998, central-dopt as given), R1 takes the OBC vacancy and U2 the open one. With
    migration.relaxed_may_take_open = true, R1 takes the open vacancy on merit and the OBC one goes to R3: U2
    loses his post, R3 gains one, R1 holds another seat at X; OBC selections go from 1 to 2, UR from 1 to 0."""
    a = _solve(tmp_path, "a")
    b = _solve(tmp_path, "b", "migration.relaxed_may_take_open=true")
    rows, doc = _compare(tmp_path, a, b)
    assert {r["candidate_id"]: (r["category"], r["a_seat"], r["b_seat"], r["change"]) for r in rows} == {
        "R1": ("OBC", "OBC", "UR", "another seat at the post"),
        "U2": ("UR", "UR", "", "loses the post"),
        "R3": ("OBC", "", "OBC", "gains a post")}
    assert doc["selected_by_own_category"] == {"OBC": {"a": 1, "b": 2, "change": 1}, "UR": {"a": 1, "b": 0, "change": -1}}
    assert {(p["category"], tuple(p["last_rank"])) for p in doc["posts"]} == {("UR", ("2", "1")), ("OBC", ("1", "3"))}
    assert doc["b"]["overrides"] == ["migration.relaxed_may_take_open=true"]


def test_compare_refuses_a_folder_that_is_not_a_solve_output(tmp_path):
    a = _solve(tmp_path, "a")
    (tmp_path / "empty").mkdir()
    r = subprocess.run([*CLI, "compare", str(a), str(tmp_path / "empty"), "--out", str(tmp_path / "cmp")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "not a `solve` output folder" in r.stderr
    assert not (tmp_path / "cmp").exists()


def test_winners_and_losers_by_own_category_and_trait(tmp_path):
    """The what-if above by group: allowed to take open vacancies, R1 (OBC, a man) moves to X's open seat,
    R3 (OBC, a woman) gains the OBC vacancy he leaves, U2 (UR) loses his. By own category x trait: OBC none,
    another seat at the post; OBC women, gains a post (net +1); UR none, loses the post (net -1). In the
    policy's order: UR first."""
    a = _solve(tmp_path, "a")
    b = _solve(tmp_path, "b", "migration.relaxed_may_take_open=true")
    _, doc = _compare(tmp_path, a, b)
    got = {(r["category"], r["traits"]): (r["gains a post"], r["loses the post"], r["another seat at the post"],
                                          r["net"]) for r in doc["winners_losers"]}
    assert got == {("UR", "none"): (0, 1, 0, -1), ("OBC", "none"): (0, 0, 1, 0), ("OBC", "women"): (1, 0, 0, 1)}
    assert doc["winners_losers"][0]["category"] == "UR"


def test_a_move_between_posts_is_up_or_down_the_candidate_s_own_list():
    from solver.study.winners import change_kind
    assert change_kind(("X", "UR"), ("Y", "UR"), ["X", "Y"]) == "moves down"
    assert change_kind(("Y", "UR"), ("X", "OBC"), ["X", "Y"]) == "moves up"
    assert change_kind(("X", "UR"), ("Y", "UR")) == "moves to another post"
    assert change_kind(("X", "UR"), None) == "loses the post" and change_kind(("X", "UR"), ("X", "UR")) is None


def test_compare_refuses_a_run_whose_allocation_changed_since_it_was_written(tmp_path):
    """compare reads each run's allocation.csv, cutoffs.csv and unfilled.csv as the run wrote them (their
    SHA-256 in its summary.json): an allocation.csv edited afterwards (a candidate's post changed by hand) is
    refused, exit 2, naming the file, and nothing is written."""
    a = _solve(tmp_path, "a")
    b = _solve(tmp_path, "b")
    text = (b / "allocation.csv").read_text()
    (b / "allocation.csv").write_text(text.replace("R3", "U2", 1) if "R3" in text else text.replace("U2", "R3", 1))
    r = subprocess.run([*CLI, "compare", str(a), str(b), "--out", str(tmp_path / "cmp")], capture_output=True, text=True)
    assert r.returncode == 2 and f"{b / 'allocation.csv'}: changed since the run wrote it" in r.stderr, r.stderr
    assert not (tmp_path / "cmp").exists()
