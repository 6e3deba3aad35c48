"""One test per rule, each citing its source. Every rule runs under both engines (CP-SAT without the
greedy hint, so it cannot just echo the reference)."""
import pytest

from conftest import rows_by_id
from solver.errors import PolicyConflict

ENGINES = pytest.mark.parametrize("engine", ["greedy", "cpsat"])


def sel(sol):
    return rows_by_id(sol.result)


@ENGINES
def test_open_first_migration(run, engine):
    """Indra Sawhney 1992; Saurav Yadav 2020; central Bill 2004 s.5(2): a reserved candidate on merit takes an
    open vacancy and does not use a reserved one."""
    r = sel(run("central-2004", [["A", 90, "UR", "M", "", ""], ["B", 85, "SC", "M", "", ""],
                                 ["C", 80, "UR", "M", "", ""], ["D", 70, "SC", "M", "", ""]],
                [["X", "UR", 2, ""], ["X", "SC", 1, ""]], engine, hint=False))
    assert r["B"]["route"] == "open_merit" and r["B"]["counted_as"] == "UR"
    assert r["D"]["seat_category"] == "SC" and "C" not in r


@ENGINES
def test_relaxed_standard_blocks_open(run, engine):
    """DoPT OM 01.07.1998, 04.04.2018; Deepa E.V. v. Union of India 2017: relaxed-standard candidates may not
    take an unreserved vacancy even when their merit would reach it."""
    c = [["A", 95, "OBC", "M", "", "true"], ["B", 90, "UR", "M", "", ""], ["C", 80, "OBC", "M", "", ""]]
    r = sel(run("central-dopt", c, [["X", "UR", 1, ""], ["X", "OBC", 1, ""]], engine, hint=False))
    assert r["A"]["route"] == "reserved" and r["B"]["route"] == "open_merit" and "C" not in r
    # Jitendra Kumar Singh 2010 (UP reading): the option lets them migrate.
    r = sel(run("central-dopt", c, [["X", "UR", 1, ""], ["X", "OBC", 1, ""]], engine,
                ["migration.relaxed_may_take_open=true"], hint=False))
    assert r["A"]["route"] == "open_merit" and r["C"]["route"] == "reserved"


@ENGINES
def test_creamy_layer_competes_as_open(run, engine):
    """Central Bill 2004 s.3(1); Indra Sawhney 1992: creamy-layer OBC candidates are not eligible for OBC
    vacancies and compete as open."""
    c = [["G", 95, "UR", "M", "", ""], ["O1", 90, "OBC", "M", "true", ""], ["O2", 60, "OBC", "M", "", ""]]
    r = sel(run("central-2004", c, [["X", "UR", 1, ""], ["X", "OBC", 1, ""]], engine, hint=False))
    assert "O1" not in r and r["O2"]["seat_category"] == "OBC"


@ENGINES
def test_maharashtra_dt_nt_exchange_same_year(run, engine):
    """Maharashtra Act 2001 s.4(3): DT(A), NT(B), NT(C), NT(D) are inter-transferable in the same year; s.4(1)
    other reserved posts may not be filled by others."""
    c = [["A", 90, "NT-B", "M", "", ""], ["B", 85, "NT-B", "M", "", ""], ["C", 80, "SC", "M", "", ""],
         ["D", 75, "UR", "M", "", ""]]
    c = [["G1", 99, "UR", "M", "", ""], ["G2", 98, "UR", "M", "", ""], ["G3", 97, "UR", "M", "", ""]] + c
    v = [["X", "UR", 3, ""], ["X", "DT-A", 1, ""], ["X", "NT-B", 1, ""], ["X", "ST", 1, ""]]
    sol = run("maharashtra-2001", c, v, engine, hint=False)
    r = sel(sol)
    assert r["A"]["seat_category"] == "NT-B" and r["A"]["route"] == "reserved"
    assert r["B"]["seat_category"] == "DT-A" and r["B"]["route"] == "exchange" and r["B"]["counted_as"] == "NT-B"
    assert "C" not in r and "D" not in r  # the ST vacancy is not filled by others
    disp = {(row[1], row[5]) for row in sol.result.dispositions}
    assert ("DT-A", "exchanged") in disp and ("ST", "backlog") in disp


@ENGINES
def test_manipur_exchange_then_dereserve(run, engine):
    """Manipur Act 1976 s.6: SC and ST exchange when one side has no candidates; s.7 read alone
    (`unfilled.dereserve_when = "same_year"`): still unfilled, de-reserved to general candidates at once and
    carried forward."""
    c = [["G1", 90, "UR", "M", "", ""], ["G2", 85, "UR", "M", "", ""], ["T1", 80, "ST", "M", "", ""],
         ["T2", 70, "ST", "M", "", ""], ["G3", 60, "UR", "M", "", ""]]
    v = [["X", "UR", 2, ""], ["X", "SC", 2, ""], ["X", "ST", 1, ""]]
    sol = run("manipur-1976", c, v, engine, ["ceiling.share=0.6", "unfilled.dereserve_when=same_year"], hint=False)
    r = sel(sol)
    assert r["T1"]["route"] == "reserved" and r["T2"]["route"] == "exchange" and r["T2"]["seat_category"] == "SC"
    assert r["G3"]["route"] == "dereserved" and r["G3"]["counted_as"] == "UR"
    assert ["X", "SC", 2, 0, 1, "dereserved"] in sol.result.dispositions


@ENGINES
def test_bihar_wbc_fallback_chain(run, engine):
    """Bihar Act 1991 s.4(6): unfilled WBC vacancies go to SC, then ST, then EBC, then BC; the appointee counts
    against their own category."""
    c = [["G", 99, "UR", "M", "", ""], ["S1", 90, "SC", "M", "", ""], ["S2", 85, "SC", "M", "", ""],
         ["E1", 95, "EBC", "M", "", ""], ["S3", 50, "SC", "M", "", ""]]
    v = [["X", "UR", 1, ""], ["X", "SC", 1, ""], ["X", "EBC", 0, ""], ["X", "WBC", 2, ""]]
    r = sel(run("bihar-1991", c, v, engine, ["ceiling.share=1.0"], hint=False))
    assert r["G"]["route"] == "open_merit"
    assert "E1" not in r  # EBC comes after SC in the chain, whatever its merit
    assert r["S1"]["route"] == "reserved"
    assert r["S2"]["route"] == "fallback" and r["S2"]["seat_category"] == "WBC" and r["S2"]["counted_as"] == "SC"
    assert r["S3"]["route"] == "fallback"


@ENGINES
def test_bihar_wbc_women_of_backward_classes(run, engine):
    """Bihar Act 1991 s.4(2): WBC vacancies are for women of SC, ST, EBC, BC, after their own category."""
    c = [["G", 99, "UR", "M", "", ""], ["B1", 90, "BC", "F", "", ""], ["B2", 80, "BC", "F", "", ""],
         ["B3", 70, "BC", "M", "", ""], ["U", 75, "UR", "F", "", ""]]
    v = [["X", "UR", 1, ""], ["X", "BC", 1, ""], ["X", "WBC", 1, ""]]
    r = sel(run("bihar-1991", c, v, engine, ["ceiling.share=1.0"], hint=False))
    assert r["B1"]["seat_category"] == "BC" and r["B2"]["seat_category"] == "WBC" and "U" not in r


@ENGINES
def test_centre_keeps_backlog_and_ews_lapses(run, engine):
    """DoPT OM 20.07.2000: no de-reservation, unfilled reserved vacancies stay backlog; OM 31.01.2019: EWS is
    never carried forward."""
    c = [["G1", 90, "UR", "M", "", ""], ["G2", 80, "UR", "M", "", ""]]
    v = [["X", "UR", 1, ""], ["X", "SC", 1, ""], ["X", "EWS", 1, ""]]
    sol = run("central-dopt", c, v, engine, ["ceiling.share=1.0"], hint=False)
    assert sorted(sel(sol)) == ["G1"]
    assert ["X", "SC", 1, 0, 1, "backlog"] in sol.result.dispositions
    assert ["X", "EWS", 1, 0, 1, "lapsed"] in sol.result.dispositions


def test_ceiling_refused(run):
    """Central Bill 2004 s.10; Art. 16(4B): reserved vacancies of a year may not exceed 50%."""
    with pytest.raises(PolicyConflict, match="50%"):
        run("central-2004", [["A", 1, "UR", "M", "", ""]], [["X", "UR", 4, ""], ["X", "SC", 3, ""], ["X", "OBC", 3, ""]])


def test_ceiling_excess_carried_forward(run):
    """Manipur Act 1976 s.5: the excess over 50% is carried further and this year's posts are filled as open."""
    sol = run("manipur-1976", [["A", 1, "UR", "M", "", ""]], [["X", "UR", 2, ""], ["X", "ST", 6, ""]])
    assert sol.result.seats.cap("X", "ST") == 4 and sol.result.seats.cap("X", "UR") == 4
    assert ["X", "ST", 2, 0, 2, "carried_forward"] in sol.result.dispositions


def test_ews_outside_the_ceiling(run):
    """Constitution (103rd Amendment); OM 31.01.2019: EWS is outside the 50%."""
    sol = run("central-dopt", [["A", 1, "UR", "M", "", ""]],
              [["X", "UR", 40, ""], ["X", "SC", 15, ""], ["X", "ST", 8, ""], ["X", "OBC", 27, ""], ["X", "EWS", 10, ""]])
    assert sol.result.seats.cap("X", "EWS") == 10


def test_total_row_split_by_roster(run):
    """DoPT OM 02.07.1997: a TOTAL row is split by the post-based roster."""
    sol = run("central-2004", [["A", 1, "UR", "M", "", ""]], [["X", "TOTAL", 20, ""]])
    s = sol.result.seats
    assert (s.cap("X", "OBC"), s.cap("X", "SC"), s.cap("X", "ST"), s.cap("X", "UR")) == (5, 3, 1, 11)


@ENGINES
def test_horizontal_open_compartment_for_all(run, engine):
    """Saurav Yadav 2020: open-compartment horizontal seats go to the best beneficiaries of any caste."""
    c = [["G1", 99, "UR", "M", "", ""], ["G2", 98, "UR", "M", "", ""], ["S1", 90, "SC", "F", "", ""],
         ["G3", 80, "UR", "F", "", ""], ["S2", 70, "SC", "M", "", ""]]
    v = [["X", "UR", 2, 1], ["X", "SC", 1, ""]]
    r = sel(run("central-2004", c, v, engine, hint=False))
    assert r["S1"]["seat_category"] == "UR" and r["S1"]["route"] == "horizontal_adjustment"
    assert r["S2"]["seat_category"] == "SC" and "G3" not in r and "G2" not in r
    # The general-only reading (policy option) gives the open seat to the general woman instead.
    r = sel(run("central-2004", c, v, engine, ["horizontal.open_compartment_for_all=false"], hint=False))
    assert r["G3"]["route"] == "horizontal_adjustment" and r["S1"]["seat_category"] == "SC"


UPGRADE_CANDS = [["G1", 100, "UR", "M", "", ""], ["O1", 98, "OBC", "M", "", ""], ["G2", 95, "UR", "M", "", ""],
                 ["G3", 90, "UR", "M", "", ""], ["O2", 85, "OBC", "M", "", ""]]
UPGRADE_VACS = [["X", "UR", 1, ""], ["X", "OBC", 1, ""], ["Y", "UR", 2, ""]]
UPGRADE_PREFS = [[c[0], o, p] for c in UPGRADE_CANDS for o, p in ((1, "X"), (2, "Y"))]


@ENGINES
def test_rule_16_2_upgrade(run, engine):
    """CSE Rule 16(2); Union of India v. Ramesh Ram 2010: the recommendation list is drawn first (G1, O1, G2 on
    open merit, O2 as OBC); O1 then takes the OBC vacancy of the service they prefer, and the open vacancy so
    freed goes to the OBC-selected O2. G3 is not recommended."""
    r = sel(run("upsc-cse", UPGRADE_CANDS, UPGRADE_VACS, engine, prefs=UPGRADE_PREFS, hint=False))
    assert sorted(r) == ["G1", "G2", "O1", "O2"]
    assert (r["O1"]["post"], r["O1"]["seat_category"], r["O1"]["route"], r["O1"]["counted_as"]) == ("X", "OBC", "upgrade", "OBC")
    assert (r["O2"]["post"], r["O2"]["seat_category"], r["O2"]["counted_as"]) == ("Y", "UR", "UR")


@ENGINES
def test_upgraded_counted_as_open(run, engine):
    """RULES.md option: whether an upgraded candidate counts as open or reserved (Ramesh Ram 2010 counted them as
    reserved; the option keeps the other reading available)."""
    r = sel(run("upsc-cse", UPGRADE_CANDS, UPGRADE_VACS, engine, ['migration.upgraded_counts_as="open"'],
                prefs=UPGRADE_PREFS, hint=False))
    assert r["O1"]["counted_as"] == "UR" and r["O2"]["counted_as"] == "OBC"


@ENGINES
def test_without_upgrade_open_merit_stays_open(run, engine):
    """Without Rule 16(2) a candidate recommended on open merit keeps an open vacancy, here at the less preferred Y."""
    r = sel(run("upsc-cse", UPGRADE_CANDS, UPGRADE_VACS, engine, ["migration.upgrade=false"], prefs=UPGRADE_PREFS,
                hint=False))
    assert (r["O1"]["post"], r["O1"]["seat_category"], r["O1"]["route"]) == ("Y", "UR", "open_merit")
    assert (r["O2"]["post"], r["O2"]["seat_category"]) == ("X", "OBC")


@ENGINES
def test_merit_cum_preference_without_a_list(run, engine):
    """Merit-cum-preference (combined exams): down the merit list, each candidate gets the most preferred post
    with a vacancy they may fill, open before own category; without a separate list O1 reaches X on the OBC
    vacancy and G3 takes the last open vacancy at Y."""
    r = sel(run("central-dopt", UPGRADE_CANDS, UPGRADE_VACS, engine, ["ceiling.share=1.0"], prefs=UPGRADE_PREFS,
                hint=False))
    assert (r["O1"]["post"], r["O1"]["seat_category"], r["O1"]["route"]) == ("X", "OBC", "reserved")
    assert sorted(r) == ["G1", "G2", "G3", "O1"]


@ENGINES
def test_remaining_vacancies_after_everyone_else(run, engine):
    """UPSC practice (policy option migration.allocate_unranked): a recommended candidate whom the posts they
    ranked cannot place gets a remaining vacancy, after everyone who ranked it."""
    c = [["G1", 100, "UR", "M", "", ""], ["G2", 95, "UR", "M", "", ""]]
    v = [["X", "UR", 1, ""], ["Y", "UR", 1, ""]]
    prefs = [["G1", 1, "X"], ["G2", 1, "X"]]
    r = sel(run("upsc-cse", c, v, engine, prefs=prefs, hint=False))
    assert r["G1"]["post"] == "X" and r["G2"]["post"] == "Y"
    r = sel(run("upsc-cse", c, v, engine, ["migration.allocate_unranked=false"], prefs=prefs, hint=False))
    assert sorted(r) == ["G1"]


@ENGINES
def test_women_minimum_from_policy_share(run, engine):
    """Anil Kumar Gupta 1995: a 30% women's minimum from the policy, in every compartment, met by adjustment
    only on a shortfall (here 30% of 3 SC vacancies rounds to 1)."""
    c = [["G1", 99, "UR", "M", "", ""], ["G2", 98, "UR", "M", "", ""], ["G3", 97, "UR", "F", "", ""],
         ["S1", 90, "SC", "M", "", ""], ["S2", 88, "SC", "M", "", ""], ["S3", 86, "SC", "M", "", ""],
         ["S4", 70, "SC", "F", "", ""]]
    v = [["X", "UR", 3, ""], ["X", "SC", 3, ""]]
    share = 'horizontal.traits=[{name="women", share=0.3}]'
    sol = run("central-2004", c, v, engine, ["ceiling.share=1.0", share], hint=False)
    r = sel(sol)
    assert r["S4"]["route"] == "horizontal_adjustment" and "S3" not in r
    assert r["G3"]["route"] == "open_merit"  # the open compartment already has its woman: nobody moves
    assert sol.result.seats.minimums == {("X", "UR", "women"): 1, ("X", "SC", "women"): 1}
    from solver.outcome.reports import summary
    assert summary(sol.result, {})["horizontal"] == [
        {"post": "X", "category": "UR", "trait": "women", "minimum": 1, "held": 1, "by_adjustment": 0, "short": 0},
        {"post": "X", "category": "SC", "trait": "women", "minimum": 1, "held": 1, "by_adjustment": 1, "short": 0}]
    floor = sel(run("central-2004", c, v, engine, ["ceiling.share=1.0", share, 'horizontal.rounding="floor"'],
                    hint=False))
    assert "S4" not in floor and "S3" in floor  # floor(0.9) = 0: no minimum


def test_unimplemented_options_are_refused_not_ignored(run):
    """Options whose rules arrive later are refused with the issue named, never silently ignored."""
    from solver.errors import Unsupported
    vh = ["post", "category", "vacancies", "women", "cadre"]
    with pytest.raises(Unsupported, match="L-shaped.*not encoded"):
        run("central-2004", [["A", 1, "UR", "M", "", ""]], [["X", "TOTAL", 8, "", 8]], vac_header=vh)
    sol = run("central-2004", [["A", 1, "UR", "M", "", ""]], [["X", "TOTAL", 8, "", 8]], vac_header=vh,
              sets=['roster.small_cadre="none"'])
    assert sol.result.seats.cap("X", "OBC") == 2


@ENGINES
def test_horizontal_minimum_with_preferences(run, engine):
    """Rajesh Kumar Daria 2007 inside merit-cum-preference: X's open compartment must hold one woman; it is
    filled on merit first, then the lowest man gives way to the best woman who wants X, and goes on to Y."""
    c = [["M1", 99, "UR", "M", "", ""], ["M2", 98, "UR", "M", "", ""], ["W1", 90, "UR", "F", "", ""],
         ["M3", 80, "UR", "M", "", ""]]
    v = [["X", "UR", 2, 1], ["Y", "UR", 1, ""]]
    prefs = [[cid, o, p] for cid, *_ in c for o, p in ((1, "X"), (2, "Y"))]
    r = sel(run("central-2004", c, v, engine, prefs=prefs, hint=False))
    assert (r["W1"]["post"], r["W1"]["route"]) == ("X", "horizontal_adjustment")
    assert r["M1"]["post"] == "X" and r["M2"]["post"] == "Y" and "M3" not in r


def test_freed_open_vacancy_goes_to_who_ranked_the_post_first(run, tmp_path):
    """CSE Rule 16(2) with UPSC's remaining-vacancy practice: A1's upgrade into OBC frees one open vacancy for
    the OBC-selected. C, who ranked P0, takes it among the ranked choices; B, of better merit but who did not
    rank P0, comes only after everyone who ranked a post, and finds it spent. The open vacancy A2's upgrade
    into SC freed stays empty: no SC-selected candidate is left for it, and B may not take it. verify once
    called that vacancy one B wanted (found by a soak run of the property tests)."""
    from conftest import write_csv
    from solver import load_policy
    from solver.io.readers import read_problem
    from solver.outcome.reports import write_outputs
    from solver.verify import read_allocation, verify
    c = [["A1", 100, "OBC", "M", "", ""], ["A2", 99, "SC", "M", "", ""], ["D", 98, "UR", "M", "", ""],
         ["B", 97, "OBC", "M", "", ""], ["C", 96, "OBC", "M", "", ""]]
    v = [["P0", "UR", 3, ""], ["P1", "OBC", 1, ""], ["P2", "SC", 1, ""], ["P3", "OBC", 1, ""]]
    prefs = [["A1", 1, "P1"], ["A2", 1, "P2"], ["D", 1, "P0"], ["B", 1, "P1"], ["C", 1, "P0"]]
    for engine in ("greedy", "cpsat"):
        sol = run("upsc-cse", c, v, engine, ["ceiling.share=1.0"], prefs=prefs, hint=False)
        r = sel(sol)
        assert (r["C"]["post"], r["C"]["seat_category"]) == ("P0", "UR")
        assert (r["B"]["post"], r["B"]["seat_category"]) == ("P3", "OBC")
        assert [row[4] for row in sol.result.dispositions if row[:2] == ["P0", "UR"]] == [1]
    write_outputs(tmp_path / "out", sol.result, {})
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "gender", "creamy_layer", "relaxed"], c)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "women"], v)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], prefs)
    pol = load_policy("upsc-cse", ["ceiling.share=1.0"])
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    assert verify(pol, prob, read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)) == []


def test_what_if_sweep_reuses_one_problem(tmp_path):
    """The analyst's sweep (docs/whatif.md): one validated problem, several policies; a larger OBC share reserves more
    of a TOTAL row for OBC and the OBC cutoff moves down the merit list."""
    from conftest import write_csv
    from solver import load_policy, solve
    from solver.data.instances import generate, write_instance
    base = load_policy("central-2004")
    cands, _, _ = generate(base, 3000, 300, seed=5)
    inp = write_instance(tmp_path, cands, [])
    write_csv(inp / "vacancies.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 300]])
    from solver.io.readers import read_problem
    problem = read_problem(base, inp / "candidates.csv", inp / "vacancies.csv")
    seen = {}
    for obc in (0.19, 0.27):
        res = solve(load_policy("central-2004", [f"categories.OBC.share={obc}"]), problem, "greedy").result
        seen[obc] = {row[1]: row for row in res.cutoffs()}["OBC"]
    assert seen[0.27][2] > seen[0.19][2]          # more OBC appointments
    assert seen[0.27][3] > seen[0.19][3]          # and a later last rank


SEVERAL = dict(cand_header=["id", "score", "category", "gender", "pwbd"],
               vac_header=["post", "category", "vacancies", "women", "pwbd"])


@ENGINES
def test_several_traits_take_the_merit_best_set_meeting_both(run, engine):
    """Women and PwBD minimums in one compartment, each appointee counting for one (RPwD Act 2016 s.34 with a
    state women's quota; Rajesh Kumar Daria 2007: fill on merit, adjust only for a shortfall). Two open
    seats, one for a woman and one for a person with a disability: B (a woman with a disability) can fill
    only one of them, so the best set meeting both is B and C (B for PwBD, C for women), not A, and not D."""
    cands = [["A", 90, "UR", "M", ""], ["B", 80, "UR", "F", "b"], ["C", 70, "UR", "F", ""],
             ["D", 60, "UR", "M", "a"], ["E", 50, "UR", "M", ""]]
    sol = run("central-dopt", cands, [["X", "UR", 2, 1, 1]], engine=engine, **SEVERAL)
    rows = rows_by_id(sol.result)
    assert sorted(rows) == ["B", "C"]
    assert {rows["B"]["horizontal"], rows["C"]["horizontal"]} == {"women", "pwbd"}
    assert rows["C"]["route"] == "horizontal_adjustment"


@ENGINES
def test_several_traits_no_removal_for_excess(run, engine):
    """Anil Kumar Gupta 1995: beneficiaries selected on merit already meet both minimums; nobody is moved."""
    cands = [["A", 90, "UR", "F", ""], ["B", 80, "UR", "M", "c"], ["C", 70, "UR", "M", ""],
             ["D", 60, "UR", "F", "a"]]
    sol = run("central-dopt", cands, [["X", "UR", 3, 1, 1]], engine=engine, **SEVERAL)
    rows = rows_by_id(sol.result)
    assert sorted(rows) == ["A", "B", "C"] and all(r["route"] == "open_merit" for r in rows.values())


def test_verify_names_a_shortfall_of_one_trait_among_several(tmp_path):
    """Replace the PwBD appointee by the next man: the women's seat is still served, the PwBD one is not
    though D was available."""
    from conftest import write_csv
    from solver import load_policy
    from solver.io.readers import read_problem
    from solver.verify import read_allocation, verify
    write_csv(tmp_path / "c.csv", SEVERAL["cand_header"],
              [["A", 90, "UR", "M", ""], ["B", 80, "UR", "F", ""], ["C", 70, "UR", "M", ""], ["D", 60, "UR", "M", "a"]])
    write_csv(tmp_path / "v.csv", SEVERAL["vac_header"], [["X", "UR", 2, 1, 1]])
    pol = load_policy("central-dopt")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    header = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
    write_csv(tmp_path / "a.csv", header, [["B", "X", "UR", "UR", "women", "horizontal_adjustment", 2],
                                           ["A", "X", "UR", "UR", "", "open_merit", 1]])
    rules = {v.rule for v in verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))}
    assert "horizontal shortfall that could have been met" in rules
    write_csv(tmp_path / "ok.csv", header, [["B", "X", "UR", "UR", "women", "open_merit", 2],
                                            ["D", "X", "UR", "UR", "pwbd", "horizontal_adjustment", 4]])
    assert verify(pol, prob, read_allocation(tmp_path / "ok.csv", prob, pol)) == []
    # C (a man, no disability) in place of B leaves both seats to the minimum's chance: B was better and needed.
    write_csv(tmp_path / "envy.csv", header, [["C", "X", "UR", "UR", "", "open_merit", 3],
                                              ["D", "X", "UR", "UR", "pwbd", "horizontal_adjustment", 4]])
    rules = {v.rule for v in verify(pol, prob, read_allocation(tmp_path / "envy.csv", prob, pol))}
    assert rules & {"justified envy", "horizontal shortfall that could have been met"}
