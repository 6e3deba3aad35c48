"""Progress on long runs reaches a file or a pipe as plain periodic lines, not only a terminal's live display."""
import subprocess
import sys

from solver.cli.progress import Lines


def test_lines_say_each_new_task_and_the_end_but_throttle_the_steps_between():
    said = []
    p = Lines(every=3600, write=said.append)
    t = p.add_task("scenarios", total=4)
    for _ in range(4):
        p.advance(t)
    p.update(t, description="writing")
    assert [s.split(" (")[0] for s in said] == ["progress: scenarios 0/4", "progress: scenarios 4/4",
                                              "progress: writing 4/4"]


def test_every_step_is_said_once_the_interval_has_passed():
    said = []
    p = Lines(every=0, write=said.append)
    t = p.add_task("years", total=3)
    p.advance(t)
    assert said[-1].startswith("progress: years 1/3")


def test_a_status_update_is_a_new_line():
    said = []
    p = Lines("reading inputs", write=said.append)
    p.update("solving")
    assert [s.split(" (")[0] for s in said] == ["progress: reading inputs", "progress: solving"]


def test_a_sweep_writes_its_progress_to_a_file(tmp_path):
    ex = tmp_path / "ex"
    subprocess.run([sys.executable, "-m", "solver.cli", "demo", "--policy", "central-dopt", "--inputs-only",
                    "--out", str(ex)], check=True, capture_output=True)
    with open(tmp_path / "run.log", "w") as log:
        subprocess.run([sys.executable, "-m", "solver.cli", "sweep", "--policy", "central-dopt", "--candidates",
                        str(ex / "input" / "candidates.csv"), "--vacancies", str(ex / "input" / "vacancies.csv"),
                        "--grid", "categories.OBC.share=0.19,0.27", "--engine", "greedy", "--out",
                        str(tmp_path / "sw")], check=True, stdout=subprocess.DEVNULL, stderr=log)
    lines = (tmp_path / "run.log").read_text().splitlines()
    assert any(line.startswith("progress: scenarios 2/2") for line in lines), lines
