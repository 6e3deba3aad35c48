"""The four Acts year by year: a year's vacancies on the cadre's running roster, recruitment years
counted by the register, and the Acts' own readings of carry-forward, exchange, the ceiling and the creamy layer.
Each test is worked by hand from the section it cites."""
import shutil
from collections import Counter

import pytest
from conftest import read_csv, write_csv
from years import simulate, verify_year, year_folder
from typer.testing import CliRunner

from solver import load_policy, solve
from solver.cli import app
from solver.errors import InputError, Unsupported
from solver.io.readers import read_problem
from solver.register import Register, year_record
from solver.chain.vacancy import running


def one_year(tmp_path, policy, vac_rows, header=("post", "category", "vacancies", "cadre", "roster_start"),
             cands=(("A", 1, "UR", "M"),), sets=(), state=None):
    pol = load_policy(policy, list(sets))
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "gender"], cands)
    write_csv(tmp_path / "v.csv", list(header), vac_rows)
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    return pol, solve(pol, prob, "greedy", state=state)


def split(sol, post="X"):
    seats = sol.result.seats
    return {c: v for (p, c), v in seats.seats.items() if p == post and v}


# 2. The roster belongs to the cadre ------------------------------------------------------------------------

def test_five_vacancies_of_a_large_cadre_take_the_next_five_points(tmp_path):
    """DoPT OM 02.07.1997: the roster is the cadre's (its sanctioned posts), and a year's vacancies take its next
    unused points. Five vacancies of a 200-post cadre from point 1 are points 1-5: UR 1, 2, 3, 5 and OBC 4.
    (They were refused as "a cadre of 5 posts takes the L-shaped roster".)"""
    _, sol = one_year(tmp_path, "central-2004", [["X", "TOTAL", 5, 200, ""]])
    assert split(sol) == {"UR": 4, "OBC": 1}
    _, sol = one_year(tmp_path, "central-2004", [["X", "TOTAL", 5, "", ""]])  # cadre unknown: the same points
    assert split(sol) == {"UR": 4, "OBC": 1}


def test_roster_start_resumes_the_running_roster_without_a_register(tmp_path):
    """Points 13-20 of the central roster: UR 13, 17, 18; ST 14; SC 15, 20; OBC 16, 19."""
    _, sol = one_year(tmp_path, "central-2004", [["X", "TOTAL", 8, 200, 13]], sets=["ceiling.share=1.0"])
    assert split(sol) == {"UR": 3, "SC": 2, "ST": 1, "OBC": 2}
    assert sol.result.seats.roster_used["X"] == (13, 8, 200)


def test_small_cadres_and_a_fully_operated_roster_are_refused(tmp_path):
    """A cadre of 2-13 posts takes the L-shaped roster (not encoded); past the cadre's last point the roster is
    fully operated and a vacancy goes to the category of the post vacated (R.K. Sabharwal 1995, para 6)."""
    with pytest.raises(Unsupported, match="cadre of 10 posts takes the L-shaped roster"):
        one_year(tmp_path, "central-2004", [["X", "TOTAL", 1, 10, ""]])
    with pytest.raises(Unsupported, match="fully operated.*post vacated.*Sabharwal"):
        one_year(tmp_path, "central-2004", [["X", "TOTAL", 4, 20, 18]])
    with pytest.raises(InputError, match="cadre belongs on a TOTAL row") as e:
        one_year(tmp_path, "central-2004", [["X", "UR", 4, 20, ""]])
    assert e.value.line == 2 and e.value.column == "4 (cadre)"


def test_the_register_holds_the_cadre_and_its_position(tmp_path):
    """With a register the cadre given once is remembered: 12 then 8 vacancies fill the 20-post cadre, and a
    third year's vacancy finds the roster fully operated. A roster_start that disagrees with the register is
    bad input."""
    pol = load_policy("central-2004", ["ceiling.share=1.0"])
    with Register(tmp_path / "reg.sqlite") as reg:
        for year, row in ((2020, ["X", "TOTAL", 12, 20, ""]), (2021, ["X", "TOTAL", 8, "", ""])):
            _, sol = one_year(tmp_path, "central-2004", [row], sets=["ceiling.share=1.0"], state=reg.state(year))
            reg.record(year_record(sol.result, year), pol.name, "greedy")
        assert sol.result.seats.roster_used["X"] == (13, 8, 20)
        with pytest.raises(Unsupported, match="20-point roster"):
            one_year(tmp_path, "central-2004", [["X", "TOTAL", 1, "", ""]], state=reg.state(2022))
        with pytest.raises(InputError, match="register's roster of the cadre is at point 21"):
            one_year(tmp_path, "central-2004", [["X", "TOTAL", 1, 40, 5]], state=reg.state(2022))


def test_roster_cli_takes_a_cadre(tmp_path):
    r = CliRunner().invoke(app, ["roster", "--policy", "central-2004", "--cadre", "30", "--points", "10",
                                 "--start", "18"])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[1:] == [f"{18 + k},{c}" for k, c in
                                         enumerate(running(load_policy("central-2004"), 18, 10))]
    r = CliRunner().invoke(app, ["roster", "--policy", "central-2004", "--cadre", "20", "--points", "5",
                                 "--start", "18"])
    assert r.exit_code == 3 and "fully operated" in r.output
    r = CliRunner().invoke(app, ["roster", "--policy", "central-2004", "--cadre", "9", "--points", "1"])
    assert r.exit_code == 3 and "L-shaped" in r.output


# 3. Recruitment years ------------------------------------------------------------------------------------

def test_a_year_without_recruitment_does_not_age_the_backlog(tmp_path):
    """Bihar Act 1991 s.2(e): the recruitment year is the calendar year in which a recruitment is actually
    made; s.4(6)(a): SC vacancies stay reserved three recruitment years, then are exchanged with ST. Cadre X
    recruits in 2021, 2022, 2024 and 2025 (2023 only Y): 2021's two SC vacancies reach their third recruitment
    year in 2025, not 2024."""
    for y in (2021, 2022, 2023, 2024, 2025):
        cands = [[f"U{y}-{k}", k + 1, "UR", "M"] for k in range(8)] + \
                [[f"T{y}-{k}", k + 9, "ST", "M"] for k in range(6)]
        vacs = [["Y", "UR", 1]] if y == 2023 else [["X", "UR", 6], ["X", "SC", 2], ["X", "ST", 1]]
        year_folder(tmp_path / "years", y, cands, vacs)
    table = simulate(tmp_path, "bihar-1991")
    assert {y: int(table[(y, "SC")]["exchanged"]) for y in (2021, 2022, 2024, 2025)} == \
        {2021: 0, 2022: 0, 2024: 0, 2025: 2}
    rows = read_csv(tmp_path / "out" / "2025" / "carried.csv")
    assert sorted(r["origin_year"] for r in rows if r["event"] == "exchanged") == ["2021", "2021"]
    for y in (2021, 2022, 2024, 2025):
        assert verify_year(tmp_path, "bihar-1991", y).exit_code == 0


# 6. The central ceiling excludes only the SC/ST backlog --------------------------------------------------------

def test_central_2004_counts_obc_backlog_against_the_ceiling(tmp_path):
    """Bill 2004 s.10 proviso: "the backlog of the reserved vacancies for the Scheduled Castes and Scheduled
    Tribes shall not be counted". A year of 40 (SC 6, ST 3, OBC 11: 20 reserved, exactly half) with two SC
    vacancies carried stands (the ceiling sees 20 of 40); with two OBC vacancies carried it is 22 of 42 and
    refused. Under central-dopt (Art. 16(4B), DoPT OM 20.07.2000: all backlog a separate class) both stand."""
    from solver.errors import PolicyConflict
    from solver.chain.vacancy import Carried, YearState
    rows = [["X", "UR", 20, "", ""], ["X", "SC", 6, "", ""], ["X", "ST", 3, "", ""], ["X", "OBC", 11, "", ""]]
    sc = YearState(2021, {}, tuple(Carried(k, "X", "SC", 2020, "vacancy") for k in range(2)))
    obc = YearState(2021, {}, tuple(Carried(k, "X", "OBC", 2020, "vacancy") for k in range(2)))
    pol, sol = one_year(tmp_path, "central-2004", rows, state=sc)
    assert sol.result.seats.ceiling_use(pol)["X"] == (20, 40)
    with pytest.raises(PolicyConflict, match=r"22 of 42 .*2 of them carried"):
        one_year(tmp_path, "central-2004", rows, state=obc)
    pol, sol = one_year(tmp_path, "central-dopt", rows, state=obc)
    assert sol.result.seats.ceiling_use(pol)["X"] == (20, 40)


def test_backlog_excluded_is_checked_against_the_policy():
    with pytest.raises(InputError, match="backlog_excluded names unknown categories"):
        load_policy("central-2004", ['ceiling.backlog_excluded=["SC", "XX"]'])
    with pytest.raises(InputError, match="backlog_counts = true counts every backlog"):
        load_policy("central-2004", ["ceiling.backlog_counts=true"])


# 7. The creamy layer is a test of backward classes only ------------------------------------------------------

@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_creamy_layer_never_removes_an_sc_or_st_woman_from_wbc(tmp_path, engine):
    """Bihar Act 1991 s.2(k): WBC are the women of SC, ST, EBC and BC; the creamy layer is a test of the
    backward classes only (Indra Sawhney 1992; Maharashtra Act 2001 s.4(2), second proviso). One UR and one WBC
    vacancy; U1 takes the open one. SC woman S1 (flagged creamy) outranks EBC woman E1 (creamy too): S1 holds WBC,
    E1, creamy, competes as open only. With S1 absent E1 is not eligible and WBC goes down its fallback chain."""
    pol = load_policy("bihar-1991")
    head = ["id", "rank", "category", "gender", "creamy_layer"]
    cands = [["U1", 1, "UR", "M", ""], ["S1", 2, "SC", "F", "true"], ["E1", 3, "EBC", "F", "true"],
             ["S2", 4, "SC", "M", ""]]
    write_csv(tmp_path / "c.csv", head, cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["X", "WBC", 1]])
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    sol = solve(pol, prob, engine, hint=False)
    got = {r[0]: (r[2], r[5]) for r in sol.result.allocation_rows()}
    assert got == {"U1": ("UR", "open_merit"), "S1": ("WBC", "reserved")}
    from solver.verify import verify
    # verify's own reading: an SC woman flagged creamy is no breach on WBC; an EBC one is.
    write_csv(tmp_path / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route",
                                   "rank"], [["U1", "X", "UR", "UR", "", "open_merit", 1],
                                             ["E1", "X", "WBC", "WBC", "", "reserved", 3]])
    from solver.verify import read_allocation
    bad = verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))
    assert any(v.rule in ("wrong category", "creamy layer on a reserved vacancy") and v.candidate == "E1"
               for v in bad)
    assert not [v for v in verify(pol, prob, read_allocation(_alloc(tmp_path, sol), prob, pol))]
    reasons = {r[0]: r[3] for r in __import__("solver.outcome.reasons", fromlist=["x"]).decision_rows(sol.result)}
    assert "creamy layer" in reasons["E1"] and "creamy layer" not in reasons["S1"]


def _alloc(tmp_path, sol):
    from solver.outcome.reports import write_outputs
    write_outputs(tmp_path / "out", sol.result, {})
    return tmp_path / "out" / "allocation.csv"


# 4. Bihar s.4(6)(d): de-reservation after the exchange, the reservation carried ----------------------------

def bihar_no_sc_st(tmp_path, years=range(2021, 2026)):
    """Cadre X, UR 6 and SC 2 a year; only open candidates apply (no SC, no ST to exchange with)."""
    for y in years:
        year_folder(tmp_path / "years", y, [[f"U{y}-{k}", k + 1, "UR", "M"] for k in range(12)],
                    [["X", "UR", 6], ["X", "SC", 2]])


def test_bihar_dereserves_backlog_only_after_the_exchange(tmp_path):
    """Bihar Act 1991 s.4(6)(a): SC vacancies without SC candidates stay reserved three recruitment years, then
    are exchanged with ST; s.4(6)(d): still unfilled "even after exchange formula", they "may be filled by
    general candidates after de-reserving them but the vacancies so de-reserved shall be carried forward for
    three recruitment years". 2021's two SC vacancies are kept through 2022 and 2023; in 2024 no SC and no ST
    candidate takes them, so two general candidates do (route dereserved, counted as open), and two SC
    reservations are carried from 2024. The year's own SC vacancies are never de-reserved at once. In 2025 the
    two reservations turn two of the six open vacancies into SC; they have been through their exchange, so with
    no SC or ST candidate again they go to general candidates (the reservation still carried), and 2022's
    backlog goes the way 2021's went: four de-reserved."""
    bihar_no_sc_st(tmp_path)
    table = simulate(tmp_path, "bihar-1991")
    got = {y: (int(table[(y, "SC")]["vacancies"]), int(table[(y, "SC")]["dereserved"])) for y in range(2021, 2026)}
    assert got == {2021: (2, 0), 2022: (4, 0), 2023: (6, 0), 2024: (8, 2), 2025: (10, 4)}
    rows = read_csv(tmp_path / "out" / "2024" / "allocation.csv")
    assert Counter((r["seat_category"], r["counted_as"], r["route"]) for r in rows) == \
        {("UR", "UR", "open_merit"): 6, ("SC", "UR", "dereserved"): 2}
    assert [r["candidate_id"] for r in rows if r["route"] == "dereserved"] == ["U2024-6", "U2024-7"]
    with Register(tmp_path / "reg.sqlite") as reg:
        hist = reg.history()
    reservations = [h for h in hist if h[4] == "reservation"]
    assert sorted(h[3] for h in reservations) == [2024, 2024, 2025, 2025]
    first = [h for h in hist if h[3] == 2021]
    assert [(h[4], h[5], h[6][-1][1]) for h in first] == [("vacancy", 2024, "dereserved")] * 2
    open_2025 = read_csv(tmp_path / "out" / "2025" / "allocation.csv")
    assert Counter(r["route"] for r in open_2025) == {"open_merit": 4, "dereserved": 4}
    for y in range(2021, 2026):
        r = verify_year(tmp_path, "bihar-1991", y)
        assert r.exit_code == 0, (y, r.output)


def test_bihar_dereservation_is_a_policy_option(tmp_path):
    """"May be filled" (s.4(6)(d)): with unfilled.dereserve=false the backlog stays vacant until it lapses."""
    bihar_no_sc_st(tmp_path, range(2021, 2025))
    table = simulate(tmp_path, "bihar-1991", "greedy", "unfilled.dereserve=false")
    assert all(int(table[(y, "SC")]["dereserved"]) == 0 for y in range(2021, 2025))


def test_verify_rejects_a_current_vacancy_dereserved_under_bihar(tmp_path):
    """s.4(6)(d) de-reserves only backlog left after the exchange: a general candidate on one of 2021's own SC
    vacancies breaks it."""
    bihar_no_sc_st(tmp_path, [2021])
    simulate(tmp_path, "bihar-1991", "greedy")
    path = tmp_path / "out" / "2021" / "allocation.csv"
    rows = read_csv(path)
    rows.append({"candidate_id": "U2021-6", "post": "X", "seat_category": "SC", "counted_as": "UR",
                 "horizontal": "", "route": "dereserved", "rank": "7"})
    write_csv(path, list(rows[0]), [list(r.values()) for r in rows])
    r = verify_year(tmp_path, "bihar-1991", 2021)
    assert r.exit_code == 1 and "de-reservation beyond the backlog left after exchange" in r.stdout


# 5. Manipur s.6: the exchanged community keeps its claim two recruitment years -------------------------------

def manipur_years(tmp_path, sc_in):
    """Cadre X, UR 4, SC 1, ST 1 a year; ST candidates every year, one SC candidate in the years `sc_in`."""
    for y in range(2021, 2025):
        cands = [[f"U{y}-{k}", k + 1, "UR", "M"] for k in range(6)] + \
                [[f"T{y}-{k}", k + 7, "ST", "M"] for k in range(4)] + \
                ([[f"S{y}", 11, "SC", "M"]] if y in sc_in else [])
        year_folder(tmp_path / "years", y, cands, [["X", "UR", 4], ["X", "SC", 1], ["X", "ST", 1]])


def test_manipur_claim_takes_the_next_partner_vacancy_back(tmp_path):
    """Manipur Act 1976 s.6: vacancies are exchanged between SC and ST "but the vacancies reserved for a
    particular community shall continue to be reserved for that community only for two recruitment years".
    2021: no SC candidate, an ST candidate takes the SC vacancy by exchange, and SC keeps its claim. 2022: the
    claim takes ST's vacancy back (SC 2, ST 0); the SC candidate fills it (the claim is settled) and 2022's own SC
    vacancy goes to ST by exchange, a new claim, which takes ST's vacancy back in 2023 and 2024 (no SC
    candidate then, so ST fills it by exchange again)."""
    manipur_years(tmp_path, {2022})
    table = simulate(tmp_path, "manipur-1976")
    assert (int(table[(2022, "SC")]["vacancies"]), int(table[(2022, "ST")]["vacancies"])) == (2, 0)
    rows = read_csv(tmp_path / "out" / "2022" / "allocation.csv")
    assert sorted((r["candidate_id"], r["seat_category"], r["route"]) for r in rows if r["seat_category"] != "UR") \
        == [("S2022", "SC", "reserved"), ("T2022-0", "SC", "exchange")]
    with Register(tmp_path / "reg.sqlite") as reg:
        claims = [h for h in reg.history() if h[4] == "claim"]
    assert [(h[3], h[5], [e[1] for e in h[6]]) for h in claims[:2]] == \
        [(2021, 2022, ["carried", "filled"]), (2022, None, ["carried", "exchanged", "exchanged"])]
    for y in range(2021, 2025):
        assert verify_year(tmp_path, "manipur-1976", y).exit_code == 0


def test_manipur_claim_is_settled_in_the_third_year(tmp_path):
    """s.6: "if candidates are not available ... in the third year, the vacancy so filled by exchange shall be
    treated as reserved for the candidates of that particular community who are actually appointed". With no SC
    candidate ever, 2021's claim takes ST's vacancy back in 2022 and 2023 (each time an ST candidate fills it by
    exchange again) and lapses in 2024, its third recruitment year after the exchange."""
    manipur_years(tmp_path, set())
    simulate(tmp_path, "manipur-1976")
    with Register(tmp_path / "reg.sqlite") as reg:
        first = next(h for h in reg.history() if h[4] == "claim" and h[3] == 2021)
    assert [(y, e) for y, e, _ in first[6]] == [(2021, "carried"), (2022, "exchanged"), (2023, "exchanged"),
                                                (2024, "lapsed")]
    assert first[5] == 2024


# 8. A special recruitment for the reserved categories in the same year ----------------------------------------

def special_case(tmp_path):
    """Bihar 2021, cadre X: UR 4, SC 2, ST 1; the first round has open and ST candidates only, so both SC
    vacancies are kept (s.4(6)(a)). The special round advertises them for SC candidates (s.4(6)(e))."""
    year_folder(tmp_path / "years", 2021, [[f"U{k}", k + 1, "UR", "M"] for k in range(6)] +
                [["T1", 7, "ST", "M"], ["T2", 8, "ST", "M"]], [["X", "UR", 4], ["X", "SC", 2], ["X", "ST", 1]])
    sp = tmp_path / "special"
    sp.mkdir()
    write_csv(sp / "candidates.csv", ["id", "rank", "category", "gender"], [["S1", 1, "SC", "F"], ["T3", 2, "ST", "M"]])
    write_csv(sp / "vacancies.csv", ["post", "category", "vacancies"], [["X", "SC", 2]])
    d = tmp_path / "years" / "2021"
    base = ["--policy", "bihar-1991", "--register", str(tmp_path / "reg.sqlite"), "--year", "2021"]
    r = CliRunner().invoke(app, ["solve", *base, "--candidates", str(d / "candidates.csv"), "--vacancies",
                                 str(d / "vacancies.csv"), "--out", str(tmp_path / "out" / "2021")])
    assert r.exit_code == 0, r.output
    return base, sp


def test_a_special_round_fills_the_backlog_from_the_reserved_categories_only(tmp_path):
    """Bihar Act 1991 s.4(6)(e): "fresh advertisement may be made only for the candidates belonging to [SC, ST,
    EBC, BC, WBC] ... to fill the backlog vacancies only". S1 (SC) takes one of the two SC vacancies; T3 (ST) may
    not take the other ("as the case may be": no exchange in the special round), so it stays kept and is
    carried into 2022. verify, reading the register, accepts the special round and rejects T3 on an SC vacancy."""
    base, sp = special_case(tmp_path)
    args = ["solve", *base, "--round", "special", "--candidates", str(sp / "candidates.csv"), "--vacancies",
            str(sp / "vacancies.csv"), "--out", str(tmp_path / "out" / "2021-special")]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "out" / "2021-special" / "allocation.csv")
    assert [(x["candidate_id"], x["seat_category"], x["route"]) for x in rows] == [("S1", "SC", "reserved")]
    with Register(tmp_path / "reg.sqlite") as reg:
        assert [(x.category, x.origin_year) for x in reg.state(2022).items] == [("SC", 2021)]
        events = [e for h in reg.history() for e in h[6]]
    assert sorted(e[1] for e in events if e[2].startswith("special round")) == ["filled", "unfilled"]
    check = ["verify", *base, "--round", "special", "--candidates", str(sp / "candidates.csv"), "--vacancies",
             str(sp / "vacancies.csv"), "--allocation"]
    assert CliRunner().invoke(app, [*check, str(tmp_path / "out" / "2021-special" / "allocation.csv")]).exit_code == 0
    write_csv(tmp_path / "bad.csv", list(rows[0]), [list(rows[0].values()),
                                                    ["T3", "X", "SC", "ST", "", "exchange", "2"]])
    r = CliRunner().invoke(app, [*check, str(tmp_path / "bad.csv")])
    assert r.exit_code == 1 and "exchange not allowed" in r.stdout
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 2 and "special round is already recorded" in again.output
    replaced = CliRunner().invoke(app, [*args, "--replace"])
    assert replaced.exit_code == 0, replaced.output


def test_a_special_round_refuses_what_the_act_does_not_allow(tmp_path):
    """Only reserved categories apply; only the backlog the register holds is advertised; only after the
    year's first round and before the next year."""
    base, sp = special_case(tmp_path)
    args = ["solve", *base, "--round", "special", "--candidates", str(sp / "candidates.csv"), "--vacancies",
            str(sp / "vacancies.csv"), "--out", str(tmp_path / "o")]
    write_csv(sp / "candidates.csv", ["id", "rank", "category", "gender"], [["S1", 1, "SC", "F"], ["U9", 2, "UR", "M"]])
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "open to the reserved categories only" in r.output and "line 3" in r.output
    write_csv(sp / "candidates.csv", ["id", "rank", "category", "gender"], [["S1", 1, "SC", "F"]])
    write_csv(sp / "vacancies.csv", ["post", "category", "vacancies"], [["X", "SC", 3]])
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "register holds 2 unfilled" in r.output
    r = CliRunner().invoke(app, [*args[:args.index("--year") + 1], "2020", *args[args.index("--year") + 2:]])
    assert r.exit_code == 2 and "no first round" in r.output
    assert not (tmp_path / "o").exists()


def test_simulate_runs_a_years_special_round(tmp_path):
    """simulate: a year folder's `special/` holds its special round, solved after the first."""
    base, sp = special_case(tmp_path)
    shutil.copytree(sp, tmp_path / "years" / "2021" / "special")
    year_folder(tmp_path / "years", 2022, [[f"V{k}", k + 1, "UR", "M"] for k in range(6)],
                [["X", "UR", 4], ["X", "SC", 2], ["X", "ST", 1]])
    (tmp_path / "reg.sqlite").unlink()
    simulate(tmp_path, "bihar-1991")
    rows = {(r["year"], r["round"], r["category"]): r for r in read_csv(tmp_path / "out" / "simulation.csv")}
    assert rows[("2021", "main", "SC")]["filled"] == "0" and rows[("2021", "main", "SC")]["carried_out"] == "2"
    assert rows[("2021", "special", "SC")]["filled"] == "1"     # S1
    assert rows[("2022", "main", "SC")]["carried_in"] == "1"
    assert (tmp_path / "out" / "2021" / "special" / "allocation.csv").exists()


# Known columns are used or refused with the section that would need them -------------------------

def test_exempt_vacancies_are_open_take_no_roster_point_and_stay_outside_the_ceiling(tmp_path):
    """Bill 2004 s.4, Manipur Act 1976 s.3 (tenure, contract, ex-cadre, work-charged posts ...), Bihar Act 1991
    s.3: the Act does not apply to exempt posts. Post X has 4 vacancies by the roster (points 1-4: UR 3, OBC 1)
    and 2 exempt work-charged posts (s.4(ii)): 5 open, 1 OBC, the roster used 4 points, and the ceiling sees 1
    of 4."""
    pol, sol = one_year(tmp_path, "central-2004", [["X", "TOTAL", 4, ""], ["X", "UR", 2, "work-charged (s.4(ii))"]],
                        header=("post", "category", "vacancies", "exempt"))
    assert split(sol) == {"UR": 5, "OBC": 1}
    assert sol.result.seats.roster_used["X"] == (1, 4, None)
    assert sol.result.seats.ceiling_use(pol)["X"] == (1, 4)
    assert any("exempt from reservation (work-charged (s.4(ii)); Bill 2004 s.4: no reservation where appointments are "
               "made, s.4(ii) and its Explanation)" in n for n in sol.result.seats.notes)
    with pytest.raises(InputError, match="an exempt vacancy is not reserved"):
        one_year(tmp_path, "central-2004", [["X", "SC", 2, "research"]], header=("post", "category", "vacancies",
                                                                                "exempt"))


NAWADA = 'districts.Nawada={shares={SC=0.25}, source="s.4(2) first proviso: a notified district percentage"}'


def test_a_district_level_post_is_split_by_the_district_s_percentages(tmp_path):
    """Bihar s.4(2), first proviso: "different percentage for different districts". With SC at 25% in Nawada,
    four vacancies of a Nawada post take points 1-4 of its roster: SC falls due at point 4 (floor(4 x 0.25) = 1),
    UR 3. The same row at the State's 16% gives no SC point before 7: UR 4. Each district's cadre is a post of
    its own (its own roster and register, s.6(1)): one post name in two districts is an input error."""
    rows = [["Clerk-Nawada", "TOTAL", 4, "Nawada"]]
    header = ("post", "category", "vacancies", "district")
    _, sol = one_year(tmp_path, "bihar-1991", rows, header=header, sets=[NAWADA])
    assert split(sol, "Clerk-Nawada") == {"UR": 3, "SC": 1}
    assert any("district-level post of Nawada, split by the district's percentages" in n for n in sol.result.seats.notes)
    _, sol = one_year(tmp_path, "bihar-1991", rows, header=header)
    assert split(sol, "Clerk-Nawada") == {"UR": 4}
    assert any("the State's percentages" in n for n in sol.result.seats.notes)
    with pytest.raises(InputError, match="column 4 \\(district\\).*name each district's cadre apart"):
        one_year(tmp_path, "bihar-1991", [["Clerk", "UR", 1, "Nawada"], ["Clerk", "SC", 1, "Gaya"]], header=header)


def test_a_misspelt_district_is_refused_with_the_nearest_names(tmp_path):
    """Where the policy gives district percentages (Bihar s.4(2), first proviso), a district it does not know is
    refused with the nearest it does: "Nawda" once took the State's 16% with only a note."""
    with pytest.raises(InputError, match="column 4 \\(district\\): 'Nawda' is not a district the policy gives "
                                         "shares for; did you mean Nawada\\?"):
        one_year(tmp_path, "bihar-1991", [["Clerk-Nawada", "TOTAL", 4, "Nawda"]],
                 header=("post", "category", "vacancies", "district"), sets=[NAWADA])


def test_district_percentages_may_be_limited_to_classes_of_posts(tmp_path):
    """Maharashtra s.4(2), third proviso: the additional ST reservation of the named districts is for Groups C and
    D. With ST at 20% in Thane for classes C and D, a Group C post of 5 vacancies gets ST at point 5
    (floor(5 x 0.2) = 1); a Group B post of Thane keeps the State's 7%, no ST point in 5."""
    thane = 'districts.Thane={shares={ST=0.2}, post_classes=["C", "D"], source="s.4(2), third proviso"}'
    header = ("post", "category", "vacancies", "district", "post_class")
    _, sol = one_year(tmp_path, "maharashtra-2001", [["Clerk-Thane", "TOTAL", 5, "Thane", "C"],
                                                     ["Officer-Thane", "TOTAL", 5, "Thane", "B"]],
                      header=header, sets=[thane, 'roster.small_cadre="none"', "ceiling.share=1.0"])
    assert split(sol, "Clerk-Thane").get("ST") == 1
    assert "ST" not in split(sol, "Officer-Thane")


