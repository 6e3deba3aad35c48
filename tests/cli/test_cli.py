"""The command line end to end: outputs, --engine both, determinism across workers, the demo."""
import importlib
import json
import re
import subprocess
import sys

import numpy as np
import pytest

from typer.testing import CliRunner

from conftest import read_csv
from solver import load_policy
from solver.cli import app
from solver.data.instances import generate, write_instance

FILES = ["allocation.csv", "decisions.csv", "unfilled.csv", "cutoffs.csv"]


def instance(tmp_path, policy="bihar-1991", n=600, vac=80, seed=7, women=0.3):
    return write_instance(tmp_path / "in", *generate(load_policy(policy), n, vac, seed=seed, women_share=women)[:2])


def solve_args(inp, out, *extra, policy="bihar-1991"):
    return ["solve", "--policy", policy, "--candidates", str(inp / "candidates.csv"),
            "--vacancies", str(inp / "vacancies.csv"), "--out", str(out), *extra]


def test_solve_both_writes_every_file_and_an_empty_diff(tmp_path):
    inp = instance(tmp_path)
    r = CliRunner().invoke(app, solve_args(inp, tmp_path / "o", "--engine", "both"))
    assert r.exit_code == 0, r.output
    for f in FILES + ["diff.csv", "summary.json"]:
        assert (tmp_path / "o" / f).exists()
    assert (tmp_path / "o" / "diff.csv").read_text().count("\n") == 1
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert s["differences"] == 0 and s["status"] == "optimal" and s["selected"] == 80
    decisions = read_csv(tmp_path / "o" / "decisions.csv")
    assert len(decisions) == 600 and all(d["reason"] for d in decisions)
    assert sum(d["selected"] == "true" for d in decisions) == 80


def test_independent_cpsat_agrees_with_the_certified_answer(tmp_path):
    """--independent: CP-SAT solves without the greedy's answer, so --engine both compares two solves, and the
    allocation is the one the default run (CP-SAT certifying the greedy's answer) writes."""
    inp = instance(tmp_path)
    r = CliRunner().invoke(app, solve_args(inp, tmp_path / "i", "--engine", "both", "--independent"))
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "i" / "summary.json").read_text())
    assert s["model"]["hinted"] is False and s["differences"] == 0
    assert CliRunner().invoke(app, solve_args(inp, tmp_path / "d")).exit_code == 0
    assert json.loads((tmp_path / "d" / "summary.json").read_text())["model"]["hinted"] is True
    assert (tmp_path / "i" / "allocation.csv").read_bytes() == (tmp_path / "d" / "allocation.csv").read_bytes()


def test_same_output_for_any_number_of_workers(tmp_path):
    """SPEC.md: same input, same output byte for byte whatever --workers is (summary.json's timings and command line aside)."""
    inp = instance(tmp_path, n=1500, vac=200)
    outs = []
    for w in ("1", "2"):
        out = tmp_path / f"o{w}"
        assert CliRunner().invoke(app, solve_args(inp, out, "--workers", w)).exit_code == 0
        outs.append(out)
    for f in FILES:
        assert (outs[0] / f).read_bytes() == (outs[1] / f).read_bytes(), f
    a, b = (json.loads((o / "summary.json").read_text()) for o in outs)
    a.pop("timings"), b.pop("timings"), a.pop("invocation", None), b.pop("invocation", None)
    assert a == b


def test_same_output_for_any_number_of_workers_with_a_recommendation_list_and_pwbd_seats(tmp_path):
    """The same after a recommendation list whose services hold PwBD seats (OM 15.01.2018; solver.chain.selection):
    CP-SAT solves the service allocation whole, its shared bounds tying the phases together."""
    inp = write_instance(tmp_path / "in", *generate(load_policy("upsc-cse"), 500, 80, seed=11, posts=4,
                                                     preferences=4, disabled=0.1))
    extra = ["--preferences", str(inp / "preferences.csv"), "--set", 'horizontal.traits=[{name="pwbd", share=0.1}]']
    outs = []
    for w in ("1", "2"):
        out = tmp_path / f"o{w}"
        r = CliRunner().invoke(app, solve_args(inp, out, "--workers", w, *extra, policy="upsc-cse"))
        assert r.exit_code == 0, r.output
        outs.append(out)
    assert "pwbd" in (outs[0] / "allocation.csv").read_text()
    for f in FILES:
        assert (outs[0] / f).read_bytes() == (outs[1] / f).read_bytes(), f
    a, b = (json.loads((o / "summary.json").read_text()) for o in outs)
    a.pop("timings"), b.pop("timings"), a.pop("invocation", None), b.pop("invocation", None)
    assert a == b and a["horizontal"] and a["recommendation_horizontal"]


def test_reasons_name_cutoffs(tmp_path):
    inp = instance(tmp_path, n=300, vac=30)
    CliRunner().invoke(app, solve_args(inp, tmp_path / "o", "--engine", "greedy"))
    rejected = [d for d in read_csv(tmp_path / "o" / "decisions.csv") if d["selected"] == "false"]
    assert any(re.search(r"^rank \d+ is below the open cutoff at P01 \(rank \d+\)", d["reason"]) for d in rejected)


def test_demo_runs(tmp_path):
    r = CliRunner().invoke(app, ["demo", "--out", str(tmp_path / "demo")])
    assert r.exit_code == 0, r.output
    assert "engines differ on 0" in r.stdout.replace("\n", " ")
    rv = CliRunner().invoke(app, ["verify", "--policy", "bihar-1991",
                                  "--candidates", str(tmp_path / "demo" / "input" / "candidates.csv"),
                                  "--vacancies", str(tmp_path / "demo" / "input" / "vacancies.csv"),
                                  "--allocation", str(tmp_path / "demo" / "allocation.csv")])
    assert rv.exit_code == 0, rv.output


def test_time_limit_writes_best_answer_and_exits_4(tmp_path, monkeypatch):
    """SPEC.md exit 4: time limit reached without a proven answer; the best answer is still written."""
    from ortools.sat.python import cp_model
    real = cp_model.CpSolver.solve

    def no_time(self, model, *a):
        self.parameters.max_time_in_seconds = 0.0  # no time at all: CP-SAT cannot prove anything
        return real(self, model, *a)

    monkeypatch.setattr(cp_model.CpSolver, "solve", no_time)
    inp = instance(tmp_path, n=200, vac=20)
    r = CliRunner().invoke(app, solve_args(inp, tmp_path / "o", "--time-limit", "0.01"))
    assert r.exit_code == 4
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["status"] == "time_limit"
    assert len(read_csv(tmp_path / "o" / "allocation.csv")) == 20


def test_engines_disagreeing_are_listed_in_diff(tmp_path, monkeypatch):
    """--engine both: every candidate the engines place differently is a row of diff.csv, and the count is in
    summary.json (here the greedy is made to drop its best appointee)."""
    chain = importlib.import_module("solver.chain.solve")  # the module, not the function it exports
    real = chain.solve_greedy

    def drop_first(pools, n):
        a = real(pools, n)
        pool = a.pool.copy()
        pool[int(np.flatnonzero(pool >= 0)[0])] = -1
        return type(a)(pool, a.adjusted, a.status, a.stats)

    monkeypatch.setattr(chain, "solve_greedy", drop_first)
    inp = instance(tmp_path, n=200, vac=20)
    r = CliRunner().invoke(app, solve_args(inp, tmp_path / "o", "--engine", "both"))
    assert r.exit_code == 0, r.output
    diff = read_csv(tmp_path / "o" / "diff.csv")
    assert len(diff) == 1 and diff[0]["greedy_post"] == "" and diff[0]["cpsat_route"] == "open_merit"
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["differences"] == 1


def test_failed_write_leaves_nothing_behind(tmp_path, monkeypatch):
    """SPEC.md: outputs are written atomically; a run that fails while writing leaves no file in --out."""
    import solver.outcome.reports as reports

    def boom(result):
        yield ["x", "true", "P01", "half a file"]
        raise RuntimeError("disk full")

    monkeypatch.setattr(reports, "decision_rows", boom)
    inp = instance(tmp_path, n=100, vac=10)
    out = tmp_path / "o"
    r = CliRunner().invoke(app, solve_args(inp, out, "--engine", "greedy"))
    assert r.exit_code != 0 and isinstance(r.exception, RuntimeError)
    assert not out.exists() or not any(out.iterdir())
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".aarakshan-")]


def test_counting_each_trait_end_to_end(tmp_path):
    """`--set horizontal.multi_trait_counts_each=true` with women's and PwBD minimums: both engines agree
    (CP-SAT solving unaided), the seat of a woman with a disability is labelled with both traits, and
    `aarakshan verify` accepts the allocation written; with counting for one it names violations."""
    inp = write_instance(tmp_path / "in", *generate(load_policy("bihar-1991"), 800, 100, seed=3, disabled=0.2,
                                                    female=0.3)[:2])
    sets = ["--set", "horizontal.multi_trait_counts_each=true", "--set",
            'horizontal.traits=[{name="women", share=0.35}, {name="pwbd", share=0.2}]']
    r = CliRunner().invoke(app, solve_args(inp, tmp_path / "o", "--engine", "both", "--independent", *sets))
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert s["differences"] == 0
    assert any(h["by_adjustment"] for h in s["horizontal"])
    labels = {row["horizontal"] for row in read_csv(tmp_path / "o" / "allocation.csv")}
    assert "women;pwbd" in labels
    verify = ["verify", "--policy", "bihar-1991", "--candidates", str(inp / "candidates.csv"), "--vacancies",
              str(inp / "vacancies.csv"), "--allocation", str(tmp_path / "o" / "allocation.csv")]
    assert CliRunner().invoke(app, verify + sets).exit_code == 0
    # read as counting for one, a seat serving both minimums leaves one of them short
    assert CliRunner().invoke(app, verify + sets[2:]).exit_code == 1


def test_solve_reports_progress_per_group(tmp_path):
    """Long runs say where they are: the greedy, then each model CP-SAT solves in turn (the status line; small
    groups in turn are solved together, `engines.cpsat.solve.BATCH_PAIRS`)."""
    from solver import solve
    from solver.io.readers import read_problem
    inp = instance(tmp_path, n=300, vac=40)
    pol = load_policy("bihar-1991")
    seen = []
    sol = solve(pol, read_problem(pol, inp / "candidates.csv", inp / "vacancies.csv"), "cpsat", progress=seen.append)
    models = sol.result.assignment.stats["models"]
    assert sol.result.assignment.stats["groups"] >= models
    assert seen[:2] == ["greedy", "CP-SAT"]
    assert seen[2:] == [s for s in seen[2:] if s.startswith("CP-SAT, model ")] and len(seen) == 2 + models
    assert seen[-1].startswith(f"CP-SAT, model {models} of {models} (from phase ")


def test_summary_records_its_provenance(tmp_path):
    """`summary.json` says what made it: the resolved policy after --set, the overrides, the
    SHA-256 of each input, the version and the engine; two folders solved under different overrides differ."""
    import hashlib
    import solver
    inp = instance(tmp_path)
    r = CliRunner().invoke(app, solve_args(inp, tmp_path / "a", "--engine", "greedy",
                                           "--set", "categories.BC.share=0.1"))
    assert r.exit_code == 0, r.output
    p = json.loads((tmp_path / "a" / "summary.json").read_text())["provenance"]
    assert p["aarakshan"] == solver.__version__ and p["engine"] == "greedy"
    assert p["overrides"] == ["categories.BC.share=0.1"]
    assert next(c for c in p["policy"]["categories"] if c["code"] == "BC")["share"] == 0.1
    assert p["policy"]["fallback"][0]["from"] == "WBC"
    for role in ("candidates", "vacancies"):   # (hashed in a background thread while the run solves)
        assert p["inputs"][role]["sha256"] == hashlib.sha256((inp / f"{role}.csv").read_bytes()).hexdigest()
    r = CliRunner().invoke(app, ["--version"])
    assert r.exit_code == 0 and r.stdout.strip() == f"aarakshan {solver.__version__}"


def test_console_totals_a_screenful_quiet_and_json(tmp_path):
    """Totals by category, at most a screenful of post rows (the rest in the files),
    --quiet prints nothing on stdout, --json prints summary.json."""
    import json
    import subprocess
    import sys

    from solver import load_policy
    from solver.data.instances import generate, write_instance
    d = write_instance(tmp_path / "in", *generate(load_policy("central-dopt"), 600, 120, seed=4, posts=12))
    base = [sys.executable, "-c", "from solver.cli import main; main()", "solve", "--policy", "central-dopt",
            "--candidates", str(d / "candidates.csv"), "--vacancies", str(d / "vacancies.csv"), "--engine", "greedy"]
    r = subprocess.run([*base, "--out", str(tmp_path / "a")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())   # (rich wraps a title to its table's width)
    rows = sum(1 for _ in open(tmp_path / "a" / "cutoffs.csv")) - 1
    assert rows > 20 and "totals by category" in text and f"the first 20 of {rows} rows" in text
    assert sum(1 for line in r.stdout.splitlines() if line.startswith("│ P")) == 20
    q = subprocess.run([*base, "--out", str(tmp_path / "b"), "--quiet"], capture_output=True, text=True)
    assert q.returncode == 0 and q.stdout == ""
    j = subprocess.run([*base, "--out", str(tmp_path / "c"), "--json"], capture_output=True, text=True)
    assert j.returncode == 0 and json.loads(j.stdout)["selected"] == 120


def test_a_run_is_repeated_from_its_own_summary(tmp_path):
    """Provenance round-trips. `--policy out/summary.json` solves under the policy the run resolved
    (after its --set and --recruitment), and gives the same allocation; Bihar's caste schedules are found
    though the summary is not beside them."""
    inp = instance(tmp_path)
    r = CliRunner().invoke(app, solve_args(inp, tmp_path / "a", "--engine", "greedy",
                                           "--set", "categories.BC.share=0.1", "--set", "ceiling.share=0.6"))
    assert r.exit_code == 0, r.output
    again = [a if a != "bihar-1991" else str(tmp_path / "a" / "summary.json") for a in solve_args(inp, tmp_path / "b")]
    r = CliRunner().invoke(app, [*again, "--engine", "greedy"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "a" / "allocation.csv").read_bytes() == (tmp_path / "b" / "allocation.csv").read_bytes()
    from solver import load_policy
    pol = load_policy(tmp_path / "a" / "summary.json")
    assert pol.category("BC").share == 0.1 and pol.ceiling.share == 0.6 and pol.castes is not None
    from solver.policy.load import data_file
    assert data_file(pol, pol.castes.file).is_file()


def test_help_starts_without_ortools_pandas_or_the_policy_schema():
    """`aarakshan --help` (and a bad option) import only what the command line needs (start-up)."""
    # (`app`, not `main`: the installed command's `main` ends the process itself, leaving nothing to print after)
    code = ("import sys\nfrom solver.cli import app\nsys.argv = ['aarakshan', '--help']\ntry:\n    app()\n"
            "except SystemExit:\n    pass\nprint(sorted(m for m in ('ortools', 'pandas', 'pyarrow', 'pydantic', "
            "'solver.chain.solve') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("args, allowed", [
    (["solve", "--candidates", "c.csv", "--vacancies", "v.csv"], "cpsat, greedy or both"),
    (["surrender", "--employees", "e.csv", "--abolish", "1"], "cpsat or greedy"),
    (["sweep"], "greedy or cpsat")])
def test_an_engine_a_command_does_not_run_is_bad_input(tmp_path, args, allowed):
    """SPEC exit 2: `--engine` names the engines the command runs (one check, `cli._engine_among`), before any
    file is read."""
    r = CliRunner().invoke(app, [*args, "--policy", "central-dopt", "--out", str(tmp_path / "o"), "--engine", "x"])
    assert r.exit_code == 2 and f"--engine: must be {allowed}, not 'x'" in r.output


def test_policy_show_prints_the_resolved_policy_with_its_sources():
    """`aarakshan policy show P --set K=V`: every parameter as `--set` names it, after the overrides, the
    tables' sources beside their keys; a bad override is exit 2."""
    from typer.testing import CliRunner as Runner

    from solver.cli import app as cli
    r = Runner().invoke(cli, ["policy", "show", "central-dopt", "--set", "ceiling.share=0.6"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "# --set ceiling.share=0.6" in lines and "ceiling.share = 0.6" in lines
    assert "categories.OBC.share = 0.27" in lines and any(x.startswith("ceiling.source = ") for x in lines)
    assert Runner().invoke(cli, ["policy", "show", "central-dopt", "--set", "ceiling.share=2"]).exit_code == 2


def test_policy_show_names_list_entries_as_set_addresses_them():
    """A list of tables' entries are shown under the name `--set` takes: the code or the categories joined, or,
    for entries with none (josaa-2025's conversions), their place in the list; `--set` reaches each by it."""
    from typer.testing import CliRunner as Runner

    from solver.cli import app as cli
    r = Runner().invoke(cli, ["policy", "show", "josaa-2025", "--set", "seat_pools.conversions.2.to=OBC-NCL"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert 'seat_pools.conversions.1.category = "OBC-NCL"' in lines
    assert 'seat_pools.conversions.2.to = "OBC-NCL"' in lines and not any("?" in x.split(" = ")[0] for x in lines)
    r = Runner().invoke(cli, ["policy", "show", "bihar-1991", "--set", "exchange.SC-ST.after_years=2"])
    assert r.exit_code == 0 and "exchange.SC-ST.after_years = 2" in r.output.splitlines(), r.output
    r = Runner().invoke(cli, ["policy", "show", "josaa-2025", "--set", "seat_pools.conversions.3.to=OPEN"])
    assert r.exit_code == 2 and "no entry '3' in seat_pools.conversions (its entries: 0, 1, 2)" in r.output
