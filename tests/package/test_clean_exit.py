"""A script that uses the library exits cleanly. Arrow's threaded CSV reader, handed a Python-owned buffer, made a
process abort now and then as it exited ("terminate called without an active exception", exit 134: 2 in 200
runs four at a time, even for a solve refused before solving); `io.tables._read_csv` lets Arrow map the file
itself. The abort is rare, so the script runs 200 times, four at a time: before the change this failed with
about 87% likelihood (1 - (1 - 0.01)^200), after it 0 in 400 aborted."""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SCRIPT = """
import sys
import solver
from solver.errors import OptionError
engine = sys.argv[1]
try:
    solver.solve("central-dopt", engine=engine, candidates=sys.argv[2], vacancies=sys.argv[3])
except OptionError:
    pass
"""


def test_a_library_script_exits_cleanly_every_time(tmp_path):
    from solver.runs.examples import write_example
    folder = write_example("central-dopt", tmp_path / "ex")
    inputs = [str(folder / "candidates.csv"), str(folder / "vacancies.csv")]
    (tmp_path / "s.py").write_text(SCRIPT)

    def run(k: int) -> int:
        engine = "bogus" if k % 2 else "greedy"   # refused before solving, and a solve
        return subprocess.run([sys.executable, str(tmp_path / "s.py"), engine, *inputs], capture_output=True).returncode

    with ThreadPoolExecutor(4) as pool:
        codes = list(pool.map(run, range(200)))
    assert codes == [0] * 200, {c: codes.count(c) for c in set(codes)}
