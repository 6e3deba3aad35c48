"""Recruitment years: running rosters, the carry-forward register, exchange after N years, lapse, the ceiling
with backlog. Sources: DoPT OM 02.07.1997 and R.K. Sabharwal 1995 (rosters); Art. 16(4B) and
T. Devadasan v. Union of India 1964 (backlog and the ceiling); Bihar Act 1991 s.4(6); Manipur Act 1976 s.4-5;
OM 31.01.2019 (EWS never carried)."""
import dataclasses
import sqlite3
import subprocess
import sys

import numpy as np

import pytest
from conftest import read_csv, write_csv
from hypothesis import HealthCheck, given, settings, strategies as st
from strategies import materialise, year_sequences
from years import dump, pwbd_year, simulate, verify_year, year_folder
from typer.testing import CliRunner

from solver import load_policy, solve
from solver.cli import app
from solver.errors import InputError, PolicyConflict, Unsupported
from solver.io.readers import read_problem
from solver.data.problem import VacancyRow
from solver.register import Register, year_record
from solver.register.store import VERSION
from solver.chain.vacancy import Carried, YearState, replacement, roster, running
from solver.verify import read_allocation, verify


# Rosters ---------------------------------------------------------------------------------------------------

def test_running_roster_resumes_at_the_next_point():
    """DoPT OM 02.07.1997: a running roster resumes each year at the next unused point, so 12 vacancies one
    year and 8 the next take the same points as 20 at once (OBC 4,8,12,16,19; SC 7,15,20; ST 14)."""
    pol = load_policy("central-2004")
    assert running(pol, 1, 12) + running(pol, 13, 8) == roster(pol, 20)


def test_running_roster_starts_a_new_cycle_after_the_last_point():
    pol = load_policy("central-2004", ["roster.points=20"])
    assert running(pol, 19, 4) == roster(pol, 20)[18:] + roster(pol, 20)[:2]


def test_sabharwal_replacement():
    """R.K. Sabharwal 1995: once the roster is fully operated, points 4, 7 and 8 falling vacant are filled by
    OBC, SC and OBC, the categories of those points."""
    assert replacement(load_policy("central-dopt"), [4, 7, 8]) == ["OBC", "SC", "OBC"]
    r = CliRunner().invoke(app, ["roster", "--policy", "central-dopt", "--vacated", "4,7,8"])
    assert r.exit_code == 0 and r.stdout.splitlines() == ["point,category", "4,OBC", "7,SC", "8,OBC"]
    r = CliRunner().invoke(app, ["roster", "--policy", "central-dopt", "--vacated", "4,\u00b2"])   # (a digit to isdigit)
    assert r.exit_code == 2 and "not a comma-separated list of points" in r.output


def test_total_rows_follow_the_register_roster_position(tmp_path):
    """Two years of a 20-post central cadre through the register split exactly as one 20-point roster."""
    pol = load_policy("central-2004", ['roster.small_cadre="none"', "ceiling.share=1.0"])
    got = []
    with Register(tmp_path / "reg.sqlite") as reg:
        for year, k in ((2020, 12), (2021, 8)):
            d = year_folder(tmp_path / "years", year, [["A", 1, "UR", "M"]], [["X", "TOTAL", k]])
            prob = read_problem(pol, d / "candidates.csv", d / "vacancies.csv")
            sol = solve(pol, prob, "greedy", state=reg.state(year))
            got.append(sol.result.seats.roster_used["X"])
            reg.record(year_record(sol.result, year), pol.name, "greedy")
            if year == 2021:  # points 13-20: UR 13, 17, 18; ST 14; SC 15, 20; OBC 16, 19 (plus 2020's backlog)
                seats = sol.result.seats
                current = {c: seats.cap("X", c) - len(seats.carried.get(("X", c), ())) for c in ("UR", "SC", "ST", "OBC")}
                assert current == {"UR": 3, "SC": 2, "ST": 1, "OBC": 2}
    assert got == [(1, 12, None), (13, 8, None)]


# The ceiling with backlog -------------------------------------------------------------------------------------

def devadasan(pol_sets):
    """28 SC vacancies kept from earlier years join a year of 40 with 20 reserved (SC 6, ST 3, OBC 11): 48."""
    pol = load_policy("central-dopt", pol_sets)
    items = tuple(Carried(k, "X", "SC", 2015 + k % 3, "vacancy") for k in range(28))
    return pol, YearState(2018, {}, items)


def test_devadasan_backlog_outside_the_ceiling(tmp_path):
    """Art. 16(4B) (81st Amendment 2000; DoPT OM 20.07.2000): SC/ST backlog is a separate class, so 48 reserved
    vacancies (28 carried + 20 current) stand, the ceiling seeing 20 of 40."""
    pol, state = devadasan([])
    d = year_folder(tmp_path, 2018, [[f"S{k}", k + 1, "SC", "M"] for k in range(30)],
                    [["X", "UR", 16], ["X", "SC", 6], ["X", "ST", 3], ["X", "OBC", 11], ["X", "EWS", 4]])
    sol = solve(pol, read_problem(pol, d / "candidates.csv", d / "vacancies.csv"), "greedy", state=state)
    seats = sol.result.seats
    assert sum(seats.cap("X", c) for c in ("SC", "ST", "OBC")) == 48
    assert seats.ceiling_use(pol)["X"] == (20, 40)
    # Only SC candidates: the best 16 take the open vacancies, the other 14 SC ones (carried oldest first).
    assert sum(1 for r in sol.result.allocation_rows() if r[2] == "SC") == 14
    rec = year_record(sol.result, 2018)
    filled = [item for item, event, _ in rec.events if event == "filled"]
    assert len(filled) == 14 and [x.origin_year for x in filled] == sorted(x.origin_year for x in filled)


def test_devadasan_without_art_16_4b_the_48_break_the_ceiling(tmp_path):
    """T. Devadasan v. Union of India 1964: counted together, 48 of 68 reserved (71%) is more than half; the
    policy says refuse, so the year is refused, naming the ceiling and the carried vacancies."""
    pol, state = devadasan(["ceiling.backlog_counts=true"])
    d = year_folder(tmp_path, 2018, [["S0", 1, "SC", "M"]],
                    [["X", "UR", 16], ["X", "SC", 6], ["X", "ST", 3], ["X", "OBC", 11], ["X", "EWS", 4]])
    with pytest.raises(PolicyConflict, match=r"48 of 68 .*28 of them carried.*50%"):
        solve(pol, read_problem(pol, d / "candidates.csv", d / "vacancies.csv"), "greedy", state=state)


# Simulations ---------------------------------------------------------------------------------------------------

def bihar_years(tmp_path, years=range(2021, 2026)):
    """A cadre with UR 6, SC 2, ST 1 each year, open and ST candidates only: no SC candidate ever applies."""
    for y in years:
        cands = [[f"U{y}-{k}", k + 1, "UR", "M"] for k in range(8)] + \
                [[f"T{y}-{k}", k + 9, "ST", "M"] for k in range(6)]
        year_folder(tmp_path / "years", y, cands, [["X", "UR", 6], ["X", "SC", 2], ["X", "ST", 1]])


def test_bihar_sc_vacancies_pass_to_st_in_the_fourth_year(tmp_path):
    """Bihar Act 1991 s.4(6): SC vacancies stay reserved for SC three years, then are exchanged to ST. The two
    SC vacancies of 2021 wait through 2022 and 2023 and go to ST candidates in 2024; 2022's go in 2025. Both
    engines agree every year, and verify (reading the register) accepts every year."""
    bihar_years(tmp_path)
    table = simulate(tmp_path, "bihar-1991")
    exchanged = {y: int(table[(y, "SC")]["exchanged"]) for y in range(2021, 2026)}
    assert exchanged == {2021: 0, 2022: 0, 2023: 0, 2024: 2, 2025: 2}
    assert {y: int(table[(y, "SC")]["vacancies"]) for y in range(2021, 2026)} == \
        {2021: 2, 2022: 4, 2023: 6, 2024: 8, 2025: 8}
    assert all(row["engine_differences"] == "0" for row in table.values())
    for y in range(2021, 2026):
        rows = read_csv(tmp_path / "out" / str(y) / "allocation.csv")
        crossing = [r for r in rows if r["seat_category"] == "SC"]
        assert all(r["route"] == "exchange" and r["counted_as"] == "ST" for r in crossing)
        assert len(crossing) == exchanged[y]
        r = verify_year(tmp_path, "bihar-1991", y)
        assert r.exit_code == 0, r.output
    carried = read_csv(tmp_path / "out" / "2024" / "carried.csv")
    assert [(r["origin_year"], r["event"]) for r in carried if r["event"] == "exchanged"] == [("2021", "exchanged")] * 2


def test_verify_rejects_an_exchange_before_the_third_year(tmp_path):
    """The same 2023 allocation with an ST candidate on a 2021 SC vacancy a year early breaks s.4(6)."""
    bihar_years(tmp_path, range(2021, 2024))
    simulate(tmp_path, "bihar-1991", "greedy")
    path = tmp_path / "out" / "2023" / "allocation.csv"
    rows = read_csv(path)
    rows.append({"candidate_id": "T2023-1", "post": "X", "seat_category": "SC", "counted_as": "ST",
                 "horizontal": "", "route": "exchange", "rank": "10"})
    write_csv(path, list(rows[0]), [list(r.values()) for r in rows])
    r = verify_year(tmp_path, "bihar-1991", 2023)
    assert r.exit_code == 1 and "exchange not allowed" in r.stdout


def test_manipur_dereserved_reservations_lapse_after_three_years(tmp_path):
    """Manipur Act 1976 s.7 read alone (`unfilled.dereserve_when = "same_year"`, no fresh recruitment first):
    reserved vacancies without SC or ST candidates are filled by general candidates after de-reservation and
    the reservation is carried three recruitment years, then lapses; s.7, second proviso: current and carried
    reserved vacancies at most half the year's, the excess carried further."""
    for y in range(2021, 2026):
        year_folder(tmp_path / "years", y, [[f"U{y}-{k}", k + 1, "UR", "M"] for k in range(12)],
                    [["X", "UR", 7], ["X", "SC", 1], ["X", "ST", 2]])
    table = simulate(tmp_path, "manipur-1976", "both", "unfilled.dereserve_when=same_year")
    # 2022: 3 current + 2 carried = 5 of 10 (the third carried reservation waits: ceiling).
    assert int(table[(2022, "SC")]["vacancies"]) + int(table[(2022, "ST")]["vacancies"]) == 5
    assert all(row["engine_differences"] == "0" for row in table.values())
    lapsed = {y: int(table[(y, "SC")]["lapsed"]) + int(table[(y, "ST")]["lapsed"]) for y in range(2021, 2026)}
    assert lapsed == {2021: 0, 2022: 0, 2023: 0, 2024: 0, 2025: 3}
    with Register(tmp_path / "reg.sqlite") as reg:
        first = [h for h in reg.history() if h[3] == 2021]
    assert len(first) == 3
    for _id, _post, _code, _origin, kind, closed, events in first:
        assert kind == "reservation" and closed == 2025
        assert events[0][1] == "carried" and events[-1][:2] == (2025, "lapsed")
    for y in range(2021, 2026):
        assert verify_year(tmp_path, "manipur-1976", y, "unfilled.dereserve_when=same_year").exit_code == 0
    # Every de-reserved vacancy went to the open list in merit order.
    rows = read_csv(tmp_path / "out" / "2021" / "allocation.csv")
    assert sorted(r["route"] for r in rows) == ["dereserved"] * 3 + ["open_merit"] * 7


def test_ews_is_never_carried(tmp_path):
    """OM 31.01.2019: unfilled EWS vacancies are not carried forward (central practice keeps SC/ST/OBC ones as
    backlog)."""
    year_folder(tmp_path / "years", 2021, [["U", 1, "UR", "M"]],
                [["X", "UR", 1], ["X", "SC", 1], ["X", "EWS", 1]])
    table = simulate(tmp_path, "central-dopt", "greedy")
    assert table[(2021, "EWS")]["carried_out"] == "0" and table[(2021, "EWS")]["lapsed"] == "1"
    assert table[(2021, "SC")]["carried_out"] == "1"


# The register file -----------------------------------------------------------------------------------------------

def solve_year(tmp_path, year, *extra, policy="bihar-1991"):
    d = tmp_path / "years" / str(year)
    return CliRunner().invoke(app, ["solve", "--policy", policy, "--candidates", str(d / "candidates.csv"),
                                    "--vacancies", str(d / "vacancies.csv"), "--out", str(tmp_path / "out" / str(year)),
                                    "--register", str(tmp_path / "reg.sqlite"), "--year", str(year), *extra])


def test_a_recorded_year_is_refused_unless_replaced(tmp_path):
    bihar_years(tmp_path, range(2021, 2024))
    for y in (2021, 2022, 2023):
        assert solve_year(tmp_path, y).exit_code == 0
    before = dump(tmp_path / "reg.sqlite")
    r = solve_year(tmp_path, 2023)
    assert r.exit_code == 2 and "already recorded" in r.stderr and "--replace" in r.stderr
    r = solve_year(tmp_path, 2022, "--replace")
    assert r.exit_code == 2 and "recorded after 2022" in r.stderr
    assert dump(tmp_path / "reg.sqlite") == before
    assert solve_year(tmp_path, 2023, "--replace").exit_code == 0
    assert dump(tmp_path / "reg.sqlite") == before


KILLER = """
import os, signal, sys
from solver.register import store
calls = [0]
original = store.Register._event
def dying(self, *args):
    calls[0] += 1
    if calls[0] == {k}:
        os.kill(os.getpid(), signal.SIGKILL)
    return original(self, *args)
store.Register._event = dying
from solver.cli import app
sys.argv = ["aarakshan"] + {args!r}
app()
"""


@pytest.mark.parametrize("k", [1, 3])
def test_a_run_killed_mid_write_leaves_the_register_as_it_was(tmp_path, k):
    """The year is written in one SQLite transaction: SIGKILL between two of its writes changes nothing, and
    the year can then be solved normally."""
    bihar_years(tmp_path, range(2021, 2024))
    for y in (2021, 2022):
        assert solve_year(tmp_path, y).exit_code == 0
    before = dump(tmp_path / "reg.sqlite")
    d = tmp_path / "years" / "2023"
    args = ["solve", "--policy", "bihar-1991", "--candidates", str(d / "candidates.csv"), "--vacancies",
            str(d / "vacancies.csv"), "--out", str(tmp_path / "out" / "2023"), "--register",
            str(tmp_path / "reg.sqlite"), "--year", "2023"]
    proc = subprocess.run([sys.executable, "-c", KILLER.format(k=k, args=args)], capture_output=True)
    assert proc.returncode == -9, proc.stderr.decode()
    assert dump(tmp_path / "reg.sqlite") == before
    assert solve_year(tmp_path, 2023).exit_code == 0
    assert dump(tmp_path / "reg.sqlite") != before


def test_schema_is_versioned_and_a_newer_register_is_refused(tmp_path):
    with Register(tmp_path / "new.sqlite") as reg:
        assert reg.years() == []
    assert dump(tmp_path / "new.sqlite")["version"] == (VERSION,)
    db = sqlite3.connect(tmp_path / "future.sqlite")
    db.execute(f"PRAGMA user_version = {VERSION + 1}")
    db.close()
    with pytest.raises(InputError, match="newer than this Aarakshan"):
        Register(tmp_path / "future.sqlite")
    (tmp_path / "junk.sqlite").write_text("not a database, just text " * 100)
    with pytest.raises(InputError, match="not an Aarakshan register"):
        Register(tmp_path / "junk.sqlite")


@settings(max_examples=int(__import__("os").environ.get("AARAKSHAN_YEAR_EXAMPLES", "400")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seq=year_sequences(), specials=st.lists(st.booleans(), min_size=4, max_size=4))
def test_years_engines_agree_and_verify_accepts(tmp_path_factory, seq, specials):
    """Across random multi-year recruitments under every policy that carries vacancies, some years with a
    special round for their backlog (Bihar s.4(6)(e), Manipur s.8(4)): each round both engines give the same
    allocation from the same register state, verify (with that state) accepts it, and the register's
    invariants hold (an item closes at most once, and never before it was offered)."""
    from solver.register.special import special_round
    from solver.outcome.result import ALLOCATION_COLUMNS
    root = tmp_path_factory.mktemp("years")

    def one_round(pol, prob, state, year, name):
        try:
            sols = {e: solve(pol, prob, e, state=state) for e in ("greedy", "cpsat")}
        except Unsupported as e:
            # (a held trait's minimums over a compartment whose seats the ceiling or a carry cut: refused, saying
            # why, `solver.chain.engines.support`; the rows themselves keep them within their seats)
            assert "horizontal.held with minimums" in str(e) and "add up to more than" in str(e), e
            return None
        a, b = sols["greedy"].result.assignment, sols["cpsat"].result.assignment
        assert (a.pool == b.pool).all() and (a.adjusted == b.adjusted).all()
        res = sols["cpsat"].result
        alloc_path = root / str(year) / f"{name}.csv"
        write_csv(alloc_path, ALLOCATION_COLUMNS, res.allocation_rows())
        assert verify(pol, prob, read_allocation(alloc_path, prob, pol), res.seats) == []
        rec = year_record(res, year)
        assert len({item.id for item, e, _ in rec.events}) == len([1 for _, e, _ in rec.events])
        return rec

    with Register(root / "reg.sqlite") as reg:
        for k, inst in enumerate(seq):
            year = 2020 + k
            pol, prob = materialise(root / str(year), inst)
            rec = one_round(pol, prob, reg.state(year), year, "allocation")
            if rec is None:
                return
            reg.record(rec, pol.name, "cpsat")
            backlog = reg.backlog(year)
            if specials[k] and backlog:
                # The special round: this year's reserved candidates, every backlog vacancy advertised.
                keep = np.flatnonzero(prob.candidates.category != pol.open)
                if not len(keep):
                    continue
                cands = dataclasses.replace(prob.candidates, **{f.name: getattr(prob.candidates, f.name)[keep]
                                                               for f in dataclasses.fields(prob.candidates)
                                                               if getattr(prob.candidates, f.name) is not None})
                counts = {}
                for x in backlog:
                    counts[(x.post, x.category)] = counts.get((x.post, x.category), 0) + 1
                rows = tuple(VacancyRow(p, c, v) for (p, c), v in counts.items())
                sprob = dataclasses.replace(prob, candidates=cands, posts=tuple(sorted({p for p, _ in counts})),
                                            vacancy_rows=rows, preferences=None)
                spol, sprob, sstate = special_round(pol, sprob, year, backlog)
                srec = one_round(spol, sprob, sstate, year, "special")
                if srec is None:
                    return
                reg.record_special(srec, pol.name, "cpsat")
        from solver.register.outcome import closes
        for _id, _p, _c, origin, kind, closed, events in reg.history():
            item = Carried(_id, _p, _c, origin, kind.partition(":")[0])
            closing = [e for e in events if closes(item, e[1])]
            assert len(closing) <= 1 and all(y >= origin for y, *_ in events)
            # (a special round fills the year's own backlog within the year)
            assert closed is None or closed > origin or any(d.startswith("special round") for *_, d in events)


# Carried horizontal seats -----------------------------------------------------------------------------------------

# (the seat reverting that year and one more carried: central-dopt's own reading holds it, tests/rules/test_held.py)
PWBD = ['horizontal.traits=[{name="pwbd_a", share=0.5}]', 'horizontal.unfilled="carry_forward"', "horizontal.held=[]"]


def test_pwbd_seat_is_carried_interchanged_then_lapses(tmp_path):
    """OM 15.01.2018 (RPwD Act 2016 s.34): a PwBD sub-category seat nobody of that sub-category could fill is
    carried to the next recruitment year, where any sub-category may fill it (interchange); unfilled again,
    it lapses and the vacancy is filled by others.
    2021: no (a) candidate: the seat is carried. 2022: an (a) and a (c) candidate: (a) takes the year's own
    seat, (c) the carried one. 2023: nobody with a disability: carried again. 2024: still nobody: it waits
    (one year of carry). 2025: it lapses."""
    for year, dis in ((2021, ["c"]), (2022, ["a", "c"]), (2023, []), (2024, []), (2025, [])):
        pwbd_year(tmp_path, year, dis)
    sets = [*PWBD]
    table = simulate(tmp_path, "central-dopt", "both", *sets)
    assert all(r["engine_differences"] == "0" for r in table.values())
    chosen = {y: sorted(r["candidate_id"] for r in read_csv(tmp_path / "out" / str(y) / "allocation.csv"))
              for y in range(2021, 2026)}
    assert chosen[2021] == ["M1-2021", "M2-2021"]          # (c) does not count for an (a) seat this year
    assert chosen[2022] == ["Pa-2022", "Pc-2022"]          # both seats served, by adjustment
    rows = {r["candidate_id"]: r for r in read_csv(tmp_path / "out" / "2022" / "allocation.csv")}
    assert rows["Pa-2022"]["horizontal"] == "pwbd_a" and rows["Pc-2022"]["horizontal"] == "pwbd"
    assert all(r["route"] == "horizontal_adjustment" for r in rows.values())
    with Register(tmp_path / "reg.sqlite") as reg:
        history = {h[3]: h for h in reg.history()}
    assert history[2021][4] == "horizontal:pwbd_a" and history[2021][5] == 2022
    assert [e[1] for e in history[2021][6]] == ["carried", "filled"]
    assert [(y, e) for y, e, _ in history[2023][6]] == [(2023, "carried"), (2024, "unfilled"), (2025, "lapsed")]
    for y in range(2021, 2026):
        r = CliRunner().invoke(app, ["verify", "--policy", "central-dopt", "--candidates",
                                     str(tmp_path / "years" / str(y) / "candidates.csv"), "--vacancies",
                                     str(tmp_path / "years" / str(y) / "vacancies.csv"), "--allocation",
                                     str(tmp_path / "out" / str(y) / "allocation.csv"), "--register",
                                     str(tmp_path / "reg.sqlite"), "--year", str(y), *sum((["--set", s] for s in sets), [])])
        assert r.exit_code == 0, (y, r.output)


def test_a_version_1_register_migrates_with_its_rows(tmp_path):
    """Schema migrations are versioned: a register written by schema 1 (before carried horizontal seats)
    opens under schema 2 with its years, roster and items intact."""
    from solver.register.schema import MIGRATIONS
    db = sqlite3.connect(tmp_path / "v1.sqlite")
    db.executescript(MIGRATIONS[0])
    db.execute("INSERT INTO years VALUES (2020, 'p', 'greedy')")
    db.execute("INSERT INTO roster VALUES (2020, 'X', 1, 12)")
    db.execute("INSERT INTO items (post, category, origin_year, kind) VALUES ('X', 'SC', 2020, 'vacancy')")
    db.execute("INSERT INTO events VALUES (1, 2020, 'carried', 'kept')")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Register(tmp_path / "v1.sqlite") as reg:
        assert reg.years() == [2020]
        state = reg.state(2021)
    assert state.roster_next == {"X": 13}
    assert state.items == (Carried(1, "X", "SC", 2020, "vacancy", "", 0),)
    assert dump(tmp_path / "v1.sqlite")["version"] == (VERSION,) and VERSION == 4
    with Register(tmp_path / "v1.sqlite") as reg:
        reg.check_recruitment("direct")   # (every year before schema 4 was direct recruitment)
        with pytest.raises(InputError, match="s.6"):
            reg.check_recruitment("promotion")


def test_a_minimum_larger_than_the_shrunk_compartment_is_cut(tmp_path):
    """A carried reservation turns one of two open vacancies into SC (Manipur s.4); vacancies.csv asked for two
    women among the open ones, so the minimum is cut to the one open vacancy left, and both engines agree
    (found by the multi-year property test: a minimum above capacity made CP-SAT infeasible)."""
    pol = load_policy("manipur-1976")
    d = tmp_path / "y"
    d.mkdir()
    write_csv(d / "candidates.csv", ["id", "rank", "category", "gender"],
              [["M", 1, "UR", "M"], ["F1", 2, "UR", "F"], ["F2", 3, "UR", "F"], ["S", 4, "SC", "M"]])
    write_csv(d / "vacancies.csv", ["post", "category", "vacancies", "women"], [["X", "UR", 2, 2]])
    prob = read_problem(pol, d / "candidates.csv", d / "vacancies.csv")
    state = YearState(2022, {}, (Carried(1, "X", "SC", 2021, "reservation"),))
    sols = [solve(pol, prob, e, state=state) for e in ("greedy", "cpsat")]
    seats = sols[0].result.seats
    assert seats.cap("X", "UR") == 1 and seats.minimums[("X", "UR", "women")] == 1
    assert any("cut from 2 to" in n for n in seats.notes)
    rows = [sorted(r[0] for r in s.result.allocation_rows()) for s in sols]
    assert rows[0] == rows[1] == ["F1", "S"]


def test_a_failed_first_run_leaves_no_register_behind(tmp_path):
    """Bad input (exit 2) on the first year: no register file is left half-made."""
    d = year_folder(tmp_path / "years", 2021, [["A", 1, "XX", "M"]], [["X", "UR", 1]])
    r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", "--candidates", str(d / "candidates.csv"),
                                 "--vacancies", str(d / "vacancies.csv"), "--out", str(tmp_path / "o"),
                                 "--register", str(tmp_path / "reg.sqlite"), "--year", "2021"])
    assert r.exit_code == 2 and "category" in r.stderr
    assert not (tmp_path / "reg.sqlite").exists() and not (tmp_path / "o").exists()


def test_simulate_checks_every_year_before_solving_any(tmp_path):
    bihar_years(tmp_path, range(2021, 2024))
    (tmp_path / "years" / "2023" / "vacancies.csv").write_text("post,category,vacancies\nX,UR,-1\n")
    r = CliRunner().invoke(app, ["simulate", "--policy", "bihar-1991", "--years", str(tmp_path / "years"),
                                 "--register", str(tmp_path / "reg.sqlite"), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "2023" in r.stderr and "line 2" in r.stderr
    assert not (tmp_path / "out").exists()
    with Register(tmp_path / "reg.sqlite") as reg:
        assert reg.years() == []


def test_simulate_reports_overall_minimums_per_post(tmp_path):
    """Overall minimums (Anil Kumar Gupta 1995) are the post's: simulation.csv has one row per year for "all
    women" (the minimum, how many served it, how many seats nobody could fill), not rows per compartment."""
    for y, women in ((2021, 1), (2022, 0)):
        cands = [[f"U{y}-{k}", k + 1, "UR", "M"] for k in range(4)] + \
                [[f"W{y}-{k}", k + 5, "SC", "F"] for k in range(women)] + [[f"S{y}", 5 + women, "SC", "M"]]
        year_folder(tmp_path / "years", y, cands, [["X", "UR", 2], ["X", "SC", 1]])
    table = simulate(tmp_path, "central-dopt", "both", 'horizontal.mode="overall"',
                     'horizontal.traits=[{name="women", share=0.34}]', "ceiling.share=1.0")
    assert {k[1] for k in table} >= {"all women"} and not any(" women" in k[1] and k[1] != "all women" for k in table)
    row = {y: table[(y, "all women")] for y in (2021, 2022)}
    assert [(r["vacancies"], r["filled"], r["lapsed"]) for r in row.values()] == [("1", "1", "0"), ("1", "0", "1")]
