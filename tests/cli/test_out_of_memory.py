"""Running out of memory is the machine's limit, not a defect: the command says so, writes nothing and exits 3,
the code of a model too large for the machine (SPEC.md "Exit codes"; `solver.chain.engines.cpsat.size`), not a
traceback with the code of a crash."""
import subprocess
import sys

SCRIPT = """
import sys
import solver.chain.solve as chain

def exhausted(*args, **kwargs):
    raise MemoryError("std::bad_alloc")

chain.solve_greedy = exhausted
from solver.cli import main
sys.argv = ["aarakshan", *sys.argv[1:]]
main()
"""


def test_memory_running_out_is_said_and_nothing_is_written(tmp_path):
    from solver.runs.examples import write_example
    folder = write_example("central-dopt", tmp_path / "ex")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-c", SCRIPT, "solve", "--policy", "central-dopt", "--candidates",
                          str(folder / "candidates.csv"), "--vacancies", str(folder / "vacancies.csv"),
                          "--out", str(out), "--quiet"], capture_output=True, text=True)
    assert run.returncode == 3, run.stderr
    assert "ran out of memory" in run.stderr and "Traceback" not in run.stderr
    assert not out.exists() and not any(p.name.startswith(".") for p in tmp_path.iterdir())
