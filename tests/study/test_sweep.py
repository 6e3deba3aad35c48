"""Scenario sweeps: scenarios as overrides, one tidy table, the same bytes whatever
the executor, changes against a baseline derived by hand."""
from __future__ import annotations

import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver.cli import app
from solver.study.sweep import Inputs, grid, sweep

RELAXED = "migration.relaxed_may_take_open"


def _inputs(tmp_path):
    """Central-dopt, post X: UR 1, OBC 1. R1 (OBC, rank 1, relaxed standard), U2 (UR), R3 (OBC)."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "relaxed"],
              [["R1", 1, "OBC", "true"], ["U2", 2, "UR", ""], ["R3", 3, "OBC", ""]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["X", "OBC", 1]])
    return ["--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv")]


def _row(rows, scenario, code):
    return next(r for r in rows if r["scenario"] == scenario and r["category"] == code)


def test_a_grid_gives_the_hand_derived_what_if_and_its_changes(tmp_path):
    """With relaxed candidates free to take open vacancies, R1 takes the open one and R3 the OBC one: UR's
    cutoff is rank 1 and both selected are OBC. Barring them (DoPT OM 01.07.1998), U2 takes the open vacancy
    and R1 the OBC one: UR cutoff rank 2, OBC rank 1, selections by own category UR 1, OBC 1."""
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *_inputs(tmp_path), "--grid",
                                 f"{RELAXED}=true,false", "--baseline", f"{RELAXED}=true", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "o" / "results.csv")
    free, barred = f"{RELAXED}=true", f"{RELAXED}=false"
    assert (_row(rows, free, "UR")["last_rank"], _row(rows, free, "OBC")["last_rank"]) == ("1", "3")
    assert (_row(rows, barred, "UR")["last_rank"], _row(rows, barred, "OBC")["last_rank"]) == ("2", "1")
    assert [_row(rows, s, c)["selected_own_category"] for s in (free, barred) for c in ("UR", "OBC")] == \
        ["0", "2", "1", "1"]
    changes = {(c["category"], c["column"]): (c["baseline"], c["value"], c["change"])
               for c in read_csv(tmp_path / "o" / "changes.csv")}
    assert changes[("UR", "selected_own_category")] == ("0", "1", "1")
    assert changes[("OBC", "last_rank")] == ("3", "1", "-2")
    assert [s["scenario"] for s in read_csv(tmp_path / "o" / "scenarios.csv")] == [free, barred]
    import pyarrow.parquet as pq
    assert pq.read_table(tmp_path / "o" / "results.parquet").num_rows == len(rows)


def test_the_same_bytes_whatever_the_executor(tmp_path):
    """In this process, a pool of two processes, and a Dask LocalCluster (the problem scattered once): the
    results are the same bytes."""
    args = _inputs(tmp_path)
    outs = {}
    for name, extra in (("one", []), ("pool", ["--workers", "2"]), ("dask", ["--dask", "local", "--workers", "2"])):
        r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *args, "--grid", f"{RELAXED}=true,false",
                                     "--grid", "ceiling.share=0.5,0.6", "--out", str(tmp_path / name), *extra])
        assert r.exit_code == 0, r.output
        outs[name] = [(tmp_path / name / f).read_bytes() for f in ("results.csv", "results.parquet", "scenarios.csv")]
    assert outs["one"] == outs["pool"] == outs["dask"]


def test_years_run_each_scenario_against_its_own_register(tmp_path):
    """Manipur. 2021: X UR 1, ST 1; candidates U1, U2, no ST. De-reserving at once (s.7 read alone) gives the ST
    vacancy to U2 and carries its reservation; keeping it vacant for a fresh recruitment (s.8(4)) that does not
    come carries the vacancy. 2022: X UR 1, ST 0; U4 (rank 1), T3 (ST,
    rank 2). Kept vacant, the ST vacancy comes in (carried in 1) and T3 takes it, U4 the open one. De-reserved,
    the carried reservation would make the year's one vacancy ST: 1 of 1 is above s.7's 50% ceiling (second
    proviso), so it is carried further (carried out 1, no ST vacancy) and T3 is left out."""
    for year, cands, rows in ((2021, [["U1", 1, "UR"], ["U2", 2, "UR"]], [["X", "UR", 1], ["X", "ST", 1]]),
                              (2022, [["U4", 1, "UR"], ["T3", 2, "ST"]], [["X", "UR", 1], ["X", "ST", 0]])):
        d = tmp_path / "years" / str(year)
        d.mkdir(parents=True)
        write_csv(d / "candidates.csv", ["id", "rank", "category"], cands)
        write_csv(d / "vacancies.csv", ["post", "category", "vacancies"], rows)
    inputs = [Inputs(y, tmp_path / "years" / str(y) / "candidates.csv", tmp_path / "years" / str(y) / "vacancies.csv")
              for y in (2021, 2022)]
    rows = sweep("manipur-1976", grid(["unfilled.dereserve_when=same_year,after_special_round"]), inputs).rows
    st = {(r["scenario"], r["year"]): r for r in rows if r["category"] == "ST"}
    on, off = "unfilled.dereserve_when=same_year", "unfilled.dereserve_when=after_special_round"
    assert (st[(on, 2021)]["filled"], st[(on, 2021)]["unfilled_dereserved"], st[(on, 2021)]["carried_out"]) == (0, 1, 1)
    assert (st[(off, 2021)]["unfilled_carried_forward"], st[(off, 2021)]["carried_out"]) == (1, 1)
    assert (st[(off, 2022)]["carried_in"], st[(off, 2022)]["filled"], st[(off, 2022)]["selected_own_category"]) == \
        (1, 1, 1)
    assert (st[(on, 2022)]["vacancies"], st[(on, 2022)]["carried_out"], st[(on, 2022)]["selected_own_category"]) == \
        (0, 1, 0)


@pytest.mark.parametrize("args, message", [
    (["--grid", "ceiling.share"], "expected KEY=V1,V2"),
    (["--grid", "ceiling.share=0.5", "--baseline", "nope"], "no scenario named 'nope'"),
    (["--grid", "ceiling.share=2"], "--grid: ceiling.share"),     # (a grid value is told as --grid's)
])
def test_bad_sweeps_are_input_errors_and_write_nothing(tmp_path, args, message):
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *_inputs(tmp_path), *args, "--out",
                                 str(tmp_path / "o")])
    assert r.exit_code == 2 and message in r.output and not (tmp_path / "o").exists()


def test_a_refused_scenario_is_a_row_with_its_reason_and_the_sweep_goes_on(tmp_path):
    """Central-dopt refuses a ceiling broken by the reserved rows (ceiling.excess = "refuse", exit 3): with
    the ceiling at 40%, X's 1 OBC vacancy of 2 is 50% reserved, so that scenario is refused with its reason in
    scenarios.csv and keeps a row in results.csv with that status and no figures (empty, null in Parquet, never
    zeros); the 50% one is solved. The grid's parameter is a typed column of its own."""
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *_inputs(tmp_path), "--grid",
                                 "ceiling.share=0.5,0.4", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    status = {s["scenario"]: s["status"] for s in read_csv(tmp_path / "o" / "scenarios.csv")}
    assert status["ceiling.share=0.5"] == "solved"
    assert status["ceiling.share=0.4"].startswith("refused (exit 3): post X: 1 of 2 vacancies are reserved")
    rows = read_csv(tmp_path / "o" / "results.csv")
    refused = [row for row in rows if row["scenario"] == "ceiling.share=0.4"]
    assert len(refused) == 1 and refused[0]["status"] == status["ceiling.share=0.4"]
    assert (refused[0]["post"], refused[0]["filled"], refused[0]["last_rank"]) == ("", "", "")
    assert {row["status"] for row in rows if row["scenario"] == "ceiling.share=0.5"} == {"solved"}
    import pyarrow.parquet as pq
    table = pq.read_table(tmp_path / "o" / "results.parquet")
    assert table.schema.field("ceiling.share").type == "double" and table.schema.field("filled").type == "int64"
    assert table.column("filled").null_count == 1


def test_a_sweep_s_rows_are_the_separate_solves_outputs(tmp_path):
    """Each scenario's rows say what a separate `solve --set ...` writes: its cutoffs.csv and unfilled.csv."""
    args = _inputs(tmp_path)
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *args, "--grid", f"{RELAXED}=true,false",
                                 "--out", str(tmp_path / "sw")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "sw" / "results.csv")
    for value in ("true", "false"):
        out = tmp_path / f"solve-{value}"
        r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", *args, "--out", str(out), "--engine",
                                     "greedy", "--quiet", "--set", f"{RELAXED}={value}"])
        assert r.exit_code == 0, r.output
        mine = {(x["post"], x["category"]): x for x in rows if x["scenario"] == f"{RELAXED}={value}"}
        for c in read_csv(out / "cutoffs.csv"):
            m = mine[(c["post"], c["category"])]
            assert (m["filled"], m["last_rank"], m["last_score"]) == (c["filled"], c["last_rank"], c["last_score"])
        for u in read_csv(out / "unfilled.csv"):
            m = mine[(u["post"], u["category"])]
            assert m["vacancies"] == u["vacancies"]
            if u["disposition"]:
                assert m[f"unfilled_{u['disposition']}"] == u["unfilled"]


def test_stacked_overrides_each_show_their_own_contribution(tmp_path):
    """--stack: stock (R1 barred from open: U2 and R1 selected), then relaxed candidates free to take open
    vacancies (R1 open, R3 OBC: UR -1, OBC +1), then the ceiling at 60% on top (nothing more: 0 each). The
    baseline is stock; its winners and losers for the first step are U2 (UR, loses the post), R3 (OBC, gains a
    post) and R1 (OBC, another seat at the post)."""
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *_inputs(tmp_path), "--stack",
                                 f"{RELAXED}=true", "--stack", "ceiling.share=0.6", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    names = [s["scenario"] for s in read_csv(tmp_path / "o" / "scenarios.csv")]
    assert names == ["stock", f"+{RELAXED}=true", "+ceiling.share=0.6"]
    got = {(c["step"], c["category"]): int(c["contribution"]) for c in read_csv(tmp_path / "o" / "contributions.csv")
           if c["measure"] == "selected"}
    assert got == {(f"+{RELAXED}=true", "UR"): -1, (f"+{RELAXED}=true", "OBC"): 1,
                   ("+ceiling.share=0.6", "UR"): 0, ("+ceiling.share=0.6", "OBC"): 0}
    wins = {(w["scenario"], w["category"], w["traits"]): (w["gains a post"], w["loses the post"],
                                                          w["another seat at the post"])
            for w in read_csv(tmp_path / "o" / "winners.csv")}
    step = f"+{RELAXED}=true"
    assert wins[(step, "UR", "none")] == ("0", "1", "0") and wins[(step, "OBC", "none")] == ("1", "0", "1")
    assert "Each override's own contribution" in r.output


def test_against_the_baseline_by_category_levels_differences_and_percentages(tmp_path):
    """The grid's two scenarios against the barred one: freeing relaxed candidates takes UR's selections from 1
    to 0 (-1, -100%) and OBC's from 1 to 2 (+1, +100%)."""
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *_inputs(tmp_path), "--grid",
                                 f"{RELAXED}=false,true", "--baseline", f"{RELAXED}=false", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    rows = {(a["category"], a["measure"]): (a["baseline"], a["value"], a["difference"], a["percent"])
            for a in read_csv(tmp_path / "o" / "against_baseline.csv")}
    assert rows[("UR", "selected")] == ("1", "0", "-1", "-100")
    assert rows[("OBC", "selected")] == ("1", "2", "1", "100")


def test_a_stack_key_given_twice_is_refused(tmp_path):
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *_inputs(tmp_path), "--stack",
                                 "ceiling.share=0.6", "--stack", "ceiling.share=0.5", "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "ceiling.share is given twice" in r.output and not (tmp_path / "o").exists()


def test_charts_add_up_only_the_years_every_scenario_ran_and_mark_the_refused():
    """Scenario A ran 2025 and 2026, B was refused in 2026: the selections chart sums 2025 alone (A 5, B 7), says
    so in its title, and names B as refused, where summing every year would set A's two years (5 + 9) against
    B's one."""
    from solver.study.charts import sweep_charts
    from solver.study.sweep import Scenario, Sweep
    from solver.study.sweep_tables import refused_rows

    def row(name, year, selected):
        return {"scenario": name, "year": year, "post": "X", "category": "OBC", "status": "solved",
                "vacancies": 10, "filled": 10, **{f"unfilled_{d}": 0 for d in
                                                  ["exchanged", "dereserved", "carried_forward", "backlog", "lapsed"]},
                "carried_in": 0, "carried_out": 0, "last_rank": 20, "last_score": None,
                "selected_own_category": selected}
    refusal = "refused in 2026 (exit 3): post X: over the ceiling"
    out = Sweep((row("A", 2025, 5), row("A", 2026, 9), row("B", 2025, 7), *refused_rows("B", [2026], refusal)),
                (Scenario("A"), Scenario("B")), {"A": "solved", "B": refusal})
    title, fig = next(c for c in sweep_charts(out) if c[0].startswith("Selections by the candidates"))
    assert "(2025: the years every scenario ran)" in title
    bars = {bar.name: list(bar.y) for bar in fig.data}
    assert bars == {"A": [5], "B [refused in 2026 (exit 3)]": [7]}


def test_a_scheduler_and_workers_started_as_separate_processes_give_the_same_bytes(tmp_path):
    """What a user with a cluster does: `dask scheduler` and `dask worker tcp://...` in processes of their own,
    then `sweep --dask tcp://HOST:PORT`. The outputs are the bytes the in-process sweep writes."""
    import os
    import shutil
    import socket
    import subprocess
    import sys
    import time
    from pathlib import Path

    dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
    if dask is None:
        pytest.skip("the dask command is not installed (pip install 'aarakshan[dask]')")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)]
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the scheduler did not start"
                time.sleep(0.2)
        procs.append(subprocess.Popen([dask, "worker", address, "--nworkers", "2", "--nthreads", "1",
                                       "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      env=env))
        args = ["sweep", "--policy", "central-dopt", *_inputs(tmp_path), "--grid", f"{RELAXED}=true,false",
                "--grid", "ceiling.share=0.5,0.6", "--baseline", f"{RELAXED}=true;ceiling.share=0.5"]
        r = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "one")])
        assert r.exit_code == 0, r.output
        r = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "cluster"), "--dask", address])
        assert r.exit_code == 0, r.output
        for f in ("results.csv", "results.parquet", "scenarios.csv", "changes.csv", "winners.csv"):
            assert (tmp_path / "one" / f).read_bytes() == (tmp_path / "cluster" / f).read_bytes(), f
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_a_numeric_grid_parameter_gets_a_line_chart_along_it(tmp_path):
    """One numeric parameter varied (the ceiling at 0.5 and 0.6): a line per category along it, its points the
    selections `results.csv` holds for each scenario."""
    from pathlib import Path

    from solver.study.charts import sweep_charts
    args = _inputs(tmp_path)
    out = sweep("central-dopt", grid(["ceiling.share=0.5,0.6"]), [Inputs(None, Path(args[1]), Path(args[3]))],
                baseline="ceiling.share=0.5")
    title, fig = next(c for c in sweep_charts(out, "ceiling.share=0.5") if c[0].startswith("Selections by own "
                                                                                           "category along"))
    assert title.endswith("along ceiling.share")
    lines = {t.name: (list(t.x), list(t.y)) for t in fig.data}
    assert lines["UR"] == ([0.5, 0.6], [1, 1]) and lines["OBC"] == ([0.5, 0.6], [1, 1])


def test_inputs_one_scenario_s_policy_refuses_refuse_that_scenario_and_the_sweep_goes_on(tmp_path):
    """JoSAA Business Rules, "Multiple student - same rank rule" (as the press summarised it): A and B share rank 1
    on the list that ranks X's one OPEN seat. Under josaa-2025 (same_rank = "supernumerary") both hold X; with
    `merit.same_rank=refuse` the tie is an input error under that scenario's policy alone, so that scenario is
    refused (exit 2, the file and the tie named) and the other is solved, the same in this process and in a pool
    of two. A sweep whose every scenario refuses its inputs fails whole, exit 2, writing nothing."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["A", 1, "OPEN"], ["B", 2, "OPEN"], ["C", 3, "OPEN"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "merit_list"], [["X", "OPEN", 1, "adv"]])
    write_csv(tmp_path / "r.csv", ["candidate_id", "list", "rank"], [["B", "adv", 1], ["A", "adv", 1], ["C", "adv", 3]])
    args = ["sweep", "--policy", "josaa-2025", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / "v.csv"), "--ranks", str(tmp_path / "r.csv")]
    outs = []
    for name, extra in (("one", []), ("pool", ["--workers", "2"])):
        r = CliRunner().invoke(app, [*args, "--grid", "merit.same_rank=supernumerary,refuse", "--out",
                                     str(tmp_path / name), *extra])
        assert r.exit_code == 0, r.output
        assert "each scenario's figures are of its first round" in r.output   # (a counselling: said, not silent)
        status = {s["scenario"]: s["status"] for s in read_csv(tmp_path / name / "scenarios.csv")}
        assert status["merit.same_rank=supernumerary"] == "solved"
        refused = status["merit.same_rank=refuse"]
        assert refused.startswith("refused (exit 2): ") and "r.csv" in refused and "rank 1 is given twice" in refused
        rows = read_csv(tmp_path / name / "results.csv")
        assert [row["filled"] for row in rows if row["scenario"] == "merit.same_rank=refuse"] == [""]
        assert {row["filled"] for row in rows if row["scenario"] == "merit.same_rank=supernumerary"} == {"2"}
        outs.append((tmp_path / name / "results.csv").read_bytes())
    assert outs[0] == outs[1]
    r = CliRunner().invoke(app, [*args, "--grid", "merit.same_rank=refuse", "--out", str(tmp_path / "none")])
    assert r.exit_code == 2 and "rank 1 is given twice" in r.output and not (tmp_path / "none").exists()
