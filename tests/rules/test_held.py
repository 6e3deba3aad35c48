"""A horizontal seat kept vacant for its beneficiaries and carried (`horizontal.held`).

The rule, in the words of the Persons with Disabilities Act 1995, s.36 (as a government reply quotes it): "Where
in any recruitment year any vacancy under section 33, cannot be filled up due to non-availability of a suitable
person with disability or, for any other sufficient reason, such vacancy shall be carried forward in the
succeeding recruitment year and if in the succeeding recruitment year also suitable person with disability is not
available, it may first be filled by interchange among the three categories and only when there is no person with
disability available for the post in that year, the employer shall fill up the vacancy by appointment of a person,
other than a person with disability". The RPwD Act 2016 s.34(2) says the same of five sub-categories (as
summarised; its text was not read); the Andhra Pradesh High Court read s.36 as forbidding interchange in the
first recruitment year (V. Venkateshu v. CPDCL, 13 October 2015).

Every expected allocation below is worked by hand from that text and the minimum guarantee (Rajesh Kumar Daria
2007): the compartment on merit, a shortfall met by the best remaining beneficiaries, and now a held seat its
beneficiaries leave kept vacant rather than given to the next on merit.
"""
import tempfile
from pathlib import Path

import numpy as np
from conftest import read_csv, write_csv
from hypothesis import HealthCheck, given, settings
from strategies import instances, materialise
from typer.testing import CliRunner
from years import pwbd_year, simulate, verify_year

from solver import load_policy, solve
from solver.cli import app
from solver.outcome.reports import write_outputs
from solver.verify import read_allocation, verify

HELD = 'horizontal.held=["pwbd"]'
REVERT = "horizontal.held=[]"      # (the seat to the next on merit, as before central-dopt held PwBD seats)
CANDS = ["id", "score", "category", "gender", "pwbd", "ex_serviceman"]


def _run(tmp_path, cands, vacs, sets, prefs=None, engine="greedy"):
    """Solve from files with both engines where asked; returns (allocation rows, unfilled rows, decisions)."""
    d = Path(tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    write_csv(d / "candidates.csv", CANDS, cands)
    write_csv(d / "vacancies.csv", list(vacs[0]), vacs[1:])
    args = ["--policy", "central-dopt", "--candidates", str(d / "candidates.csv"), "--vacancies",
            str(d / "vacancies.csv"), *[x for s in sets for x in ("--set", s)]]
    if prefs:
        write_csv(d / "preferences.csv", ["candidate_id", "order", "post"], prefs)
        args += ["--preferences", str(d / "preferences.csv")]
    out = {}
    for e in (["greedy", "cpsat"] if engine == "both" else [engine]):
        r = CliRunner().invoke(app, ["solve", *args, "--engine", e, "--out", str(d / e), "--quiet"])
        assert r.exit_code == 0, r.output
        v = CliRunner().invoke(app, ["verify", *args, "--allocation", str(d / e / "allocation.csv")])
        assert v.exit_code == 0, v.output
        out[e] = ({x["candidate_id"]: (x["post"], x["seat_category"], x["route"])
                   for x in read_csv(d / e / "allocation.csv")},
                  [(x["post"], x["category"], int(x["unfilled"]), x["disposition"])
                   for x in read_csv(d / e / "unfilled.csv") if int(x["unfilled"])],
                  {x["candidate_id"]: x["reason"] for x in read_csv(d / e / "decisions.csv")})
    if engine == "both":
        assert out["greedy"][:2] == out["cpsat"][:2]
    return out["greedy" if engine != "cpsat" else "cpsat"], args


# A post X: open 3 with a PwBD seat, SC 2 with a PwBD seat. Four open candidates, two SC, and one SC candidate of
# PwBD sub-category (c) far down the list.
SEVEN = [["A", 99, "UR", "M", "", ""], ["B", 98, "UR", "M", "", ""], ["C", 97, "UR", "M", "", ""],
         ["D", 96, "UR", "M", "", ""], ["S", 90, "SC", "M", "", ""], ["T", 89, "SC", "M", "", ""],
         ["P", 50, "SC", "M", "c", ""]]
X = [["post", "category", "vacancies", "pwbd"], ["X", "UR", 3, 1], ["X", "SC", 2, 1]]


def test_a_pwbd_seat_no_beneficiary_can_fill_stays_vacant(tmp_path):
    """Open first: A, B on merit, and P (the only PwBD candidate) by adjustment for the open compartment's PwBD
    seat, C displaced. The SC compartment's PwBD seat then has no PwBD candidate left: held, it stays vacant and
    T (next on SC merit) is not selected; reverted, T takes it. Both engines, verify accepting each."""
    (alloc, unfilled, reasons), _ = _run(tmp_path / "held", SEVEN, X, [HELD], engine="both")
    assert alloc == {"A": ("X", "UR", "open_merit"), "B": ("X", "UR", "open_merit"),
                     "P": ("X", "UR", "horizontal_adjustment"), "S": ("X", "SC", "reserved")}
    assert unfilled == [("X", "SC", 1, "held_vacant")]
    assert "was displaced from SC at X by a seat held vacant for pwbd" in reasons["T"]
    assert "carried forward (PwD Act 1995 s.36" in reasons["T"]
    (alloc, unfilled, _), _ = _run(tmp_path / "revert", SEVEN, X, [REVERT], engine="both")
    assert set(alloc) == {"A", "B", "P", "S", "T"} and unfilled == []


def test_a_beneficiary_who_is_there_fills_the_held_seat_as_before(tmp_path):
    """With a PwBD candidate for each compartment the held rule changes nothing: the shortfall is met by
    adjustment (Rajesh Kumar Daria 2007) whether the policy holds the seat or not."""
    cands = SEVEN + [["Q", 40, "SC", "F", "a", ""]]
    held = _run(tmp_path / "held", cands, X, [HELD], engine="both")[0]
    revert = _run(tmp_path / "revert", cands, X, [REVERT], engine="both")[0]
    assert held[0] == revert[0] == {"A": ("X", "UR", "open_merit"), "B": ("X", "UR", "open_merit"),
                                    "P": ("X", "UR", "horizontal_adjustment"), "S": ("X", "SC", "reserved"),
                                    "Q": ("X", "SC", "horizontal_adjustment")}
    assert held[1] == revert[1] == []


def test_an_ex_servicemans_seat_reverts_beside_a_held_pwbd_seat(tmp_path):
    """Open 4 with one ex-serviceman's seat and one PwBD seat; five candidates without either trait (U1-U5), an
    ex-serviceman E down the list, no PwBD candidate. Held PwBD, reverting ESM: the PwBD seat stays vacant, so 3
    seats: U1, U2 and U3 on merit, then U3 replaced by E for the ESM minimum: U1, U2, E. Both reverting: U1-U4 on
    merit, U4 replaced by E: U1, U2, U3, E."""
    cands = [[f"U{k}", 100 - k, "UR", "M", "", ""] for k in range(1, 6)] + [["E", 50, "UR", "M", "", "true"]]
    vacs = [["post", "category", "vacancies", "pwbd", "ex_serviceman"], ["X", "UR", 4, 1, 1]]
    (alloc, unfilled, _), _ = _run(tmp_path / "held", cands, vacs, [HELD], engine="both")
    assert sorted(alloc) == ["E", "U1", "U2"] and alloc["E"][2] == "horizontal_adjustment"
    assert unfilled == [("X", "UR", 1, "held_vacant")]
    (alloc, unfilled, _), _ = _run(tmp_path / "revert", cands, vacs, [REVERT], engine="both")
    assert sorted(alloc) == ["E", "U1", "U2", "U3"] and unfilled == []


def test_a_beneficiary_who_prefers_another_post_leaves_the_held_seat_vacant(tmp_path):
    """Merit-cum-preference: P, PwBD and first on merit, ranks Y above X and takes Y on open merit. X's PwBD seat
    (open 2, PwBD 1) has no other PwBD candidate: held, it stays vacant and only A takes X; reverted, A and B."""
    cands = [["P", 99, "UR", "M", "b", ""], ["A", 90, "UR", "M", "", ""], ["B", 80, "UR", "M", "", ""]]
    vacs = [["post", "category", "vacancies", "pwbd"], ["X", "UR", 2, 1], ["Y", "UR", 1, ""]]
    prefs = [["P", 1, "Y"], ["P", 2, "X"], ["A", 1, "X"], ["B", 1, "X"]]
    (alloc, unfilled, _), _ = _run(tmp_path / "held", cands, vacs, [HELD], prefs, engine="both")
    assert alloc == {"P": ("Y", "UR", "open_merit"), "A": ("X", "UR", "open_merit")}
    assert unfilled == [("X", "UR", 1, "held_vacant")]
    (alloc, _, _), _ = _run(tmp_path / "revert", cands, vacs, [REVERT], prefs, engine="both")
    assert set(alloc) == {"P", "A", "B"}


def test_verify_rejects_a_held_seat_given_to_another_and_one_a_beneficiary_wanted(tmp_path):
    """verify reads the held rule itself: T in the SC compartment's held seat is "held horizontal seat filled by
    another"; leaving P out (C in the open compartment instead) is a shortfall P could have met."""
    (alloc, _, _), args = _run(tmp_path, SEVEN, X, [HELD])
    rows = [["A", "X", "UR", "UR", "", "open_merit", 1], ["B", "X", "UR", "UR", "", "open_merit", 2],
            ["P", "X", "UR", "UR", "pwbd", "horizontal_adjustment", 7], ["S", "X", "SC", "SC", "", "reserved", 5]]
    columns = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
    for name, planted, rule in (
            ("t", rows + [["T", "X", "SC", "SC", "", "reserved", 6]], "held horizontal seat filled by another"),
            ("c", rows[:2] + [["C", "X", "UR", "UR", "", "open_merit", 3]] + rows[3:],
             "horizontal shortfall that could have been met")):
        write_csv(tmp_path / f"{name}.csv", columns, planted)
        r = CliRunner().invoke(app, ["verify", *args, "--allocation", str(tmp_path / f"{name}.csv")])
        assert r.exit_code == 1 and rule in r.output, r.output
    write_csv(tmp_path / "right.csv", columns, rows)
    assert CliRunner().invoke(app, ["verify", *args, "--allocation", str(tmp_path / "right.csv")]).exit_code == 0


def test_no_later_phase_fills_a_held_seat(tmp_path):
    """De-reservation in the same year (`unfilled.dereserve=true`): X has one open seat and one SC seat held for
    PwBD; candidates U1, U2 (open) and S (SC, no disability). Held, the SC seat stays vacant: S may not take it
    and neither may U2 by de-reservation (the vacancy "shall be carried forward", s.36). Reverted, S takes it.
    verify names U2 planted there by de-reservation."""
    cands = [["U1", 99, "UR", "M", "", ""], ["U2", 98, "UR", "M", "", ""], ["S", 90, "SC", "M", "", ""]]
    vacs = [["post", "category", "vacancies", "pwbd"], ["X", "UR", 1, ""], ["X", "SC", 1, 1]]
    (alloc, unfilled, _), args = _run(tmp_path / "held", cands, vacs, [HELD, "unfilled.dereserve=true"], engine="both")
    assert alloc == {"U1": ("X", "UR", "open_merit")} and unfilled == [("X", "SC", 1, "held_vacant")]
    (alloc, _, _), _ = _run(tmp_path / "revert", cands, vacs, [REVERT, "unfilled.dereserve=true"], engine="both")
    assert alloc == {"U1": ("X", "UR", "open_merit"), "S": ("X", "SC", "reserved")}
    write_csv(tmp_path / "planted.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route",
                                         "rank"], [["U1", "X", "UR", "UR", "", "open_merit", 1],
                                                   ["U2", "X", "SC", "UR", "", "dereserved", 2]])
    r = CliRunner().invoke(app, ["verify", *args, "--allocation", str(tmp_path / "planted.csv")])
    assert r.exit_code == 1 and "held horizontal seat filled by another,U2,X" in r.output, r.output


def test_the_audit_says_a_seat_was_kept_vacant(tmp_path):
    """Could T have been selected? No: the open seats go to A, B and P, and of the SC seats one to S and one
    kept vacant for PwBD, carried forward; the allocation is the only lawful one."""
    _, args = _run(tmp_path, SEVEN, X, [HELD])
    r = CliRunner().invoke(app, ["audit", *args, "--ask", "T", "--out", str(tmp_path / "audit")])
    assert r.exit_code == 0, r.output
    answer = {x["question"]: x for x in read_csv(tmp_path / "audit" / "answers.csv")}["T"]
    assert answer["answer"] == "no" and "capacity[SC@X]" in answer["blocking"]
    assert "the 2 vacancies of SC@X (vacancies.csv) go to S (rank 5)" in answer["detail"]
    assert "and 1 kept vacant for pwbd: no pwbd candidate could fill it, and it is carried forward" in answer["detail"]


def test_a_sweep_and_a_comparison_count_the_held_seat(tmp_path):
    """The two readings as scenarios of one sweep: results.csv counts the kept seat as `unfilled_held_vacant`
    (SC: 2 vacancies, 1 filled, 1 held), the comparison against the reverting baseline says SC fills one fewer and
    carries one more; `compare` of the two solves names T as losing the post."""
    _, args = _run(tmp_path, SEVEN, X, [HELD])
    (tmp_path / "sc.toml").write_text('[scenarios.held]\nset = [\'horizontal.held=["pwbd"]\']\n'
                                      "[scenarios.revert]\nset = ['horizontal.held=[]']\n")
    files = [x for x in args if x != HELD and x != "--set"]
    r = CliRunner().invoke(app, ["sweep", *files, "--scenarios", str(tmp_path / "sc.toml"), "--baseline", "revert",
                                 "--out", str(tmp_path / "sweep")])
    assert r.exit_code == 0, r.output
    rows = {(x["scenario"], x["category"]): x for x in read_csv(tmp_path / "sweep" / "results.csv")}
    assert [rows["held", "SC"][k] for k in ("vacancies", "filled", "unfilled_held_vacant", "carried_out")] == \
        ["2", "1", "1", "1"]
    assert rows["revert", "SC"]["filled"] == "2" and rows["revert", "SC"]["unfilled_held_vacant"] == "0"
    diff = {(x["category"], x["measure"]): x["difference"]
            for x in read_csv(tmp_path / "sweep" / "against_baseline.csv")}
    assert diff["SC", "filled"] == "-1" and diff["SC", "carried out"] == "1"
    for name, sets in (("hd", [HELD]), ("rv", [REVERT])):
        assert CliRunner().invoke(app, ["solve", *files, *[x for s in sets for x in ("--set", s)], "--quiet",
                                        "--out", str(tmp_path / name)]).exit_code == 0
    r = CliRunner().invoke(app, ["compare", str(tmp_path / "rv"), str(tmp_path / "hd"), "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    changes = [(x["candidate_id"], x["change"]) for x in read_csv(tmp_path / "c" / "changes.csv")]
    assert changes == [("T", "loses the post")]


def test_verify_rejects_a_held_seat_left_vacant_while_a_beneficiary_wanted_it(tmp_path):
    """X: one open seat held for PwBD; P (PwBD) and A rank it. Held, P takes it by adjustment. Planted: nobody
    holds it. The seat may stay vacant only where no beneficiary who wanted it was left out: P was."""
    cands = [["A", 99, "UR", "M", "", ""], ["P", 50, "UR", "M", "a", ""]]
    vacs = [["post", "category", "vacancies", "pwbd"], ["X", "UR", 1, 1]]
    (alloc, _, _), args = _run(tmp_path, cands, vacs, [HELD])
    assert alloc == {"P": ("X", "UR", "horizontal_adjustment")}
    write_csv(tmp_path / "empty.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [])
    r = CliRunner().invoke(app, ["verify", *args, "--allocation", str(tmp_path / "empty.csv")])
    assert r.exit_code == 1 and "vacancy left while an eligible candidate wanted it,P,X" in r.output, r.output


def test_a_sliding_round_keeps_a_freed_pwbd_seat_vacant(tmp_path):
    """A sliding round (`slide`, the SSC's as summarised) after the first allocation of SEVEN: P, placed in the
    open compartment's PwBD seat, does not report (absent), and so do A and B; S fixes. Their three open seats
    are offered again, P's still held for PwBD: no PwBD candidate is left, so C and D take two and the third
    stays vacant; verify --stage slide accepts that, and names T (SC) planted into the third."""
    (alloc, _, _), args = _run(tmp_path / "r1", SEVEN, X, [HELD])
    write_csv(tmp_path / "resp.csv", ["candidate_id", "response"], [["S", "fix"]])
    r = CliRunner().invoke(app, ["slide", "--result", str(tmp_path / "r1" / "greedy"), "--responses",
                                 str(tmp_path / "resp.csv"), "--out", str(tmp_path / "r2")])
    assert r.exit_code == 0, r.output
    got = {x["candidate_id"]: (x["post"], x["seat_category"]) for x in read_csv(tmp_path / "r2" / "allocation.csv")}
    assert got == {"C": ("X", "UR"), "D": ("X", "UR"), "S": ("X", "SC")}
    assert [list(x.values()) for x in read_csv(tmp_path / "r2" / "unfilled.csv") if x["unfilled"] != "0"] == \
        [["X", "UR", "3", "2", "1", "held_vacant"]]       # (P's seat: kept for a PwBD candidate, and carried)
    check = ["verify", *args, "--stage", "slide", "--allocation", str(tmp_path / "r1" / "greedy" / "allocation.csv"),
             "--responses", str(tmp_path / "resp.csv")]
    r = CliRunner().invoke(app, [*check, "--slide", str(tmp_path / "r2" / "allocation.csv")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "r2" / "allocation.csv")
    rows.append({**rows[0], "candidate_id": "T", "rank": "6"})     # (an SC candidate on the held open seat)
    write_csv(tmp_path / "planted.csv", list(rows[0]), [list(x.values()) for x in rows])
    r = CliRunner().invoke(app, [*check, "--slide", str(tmp_path / "planted.csv")])
    assert r.exit_code == 1 and "held horizontal seat filled by another" in r.output, r.output


def test_held_seats_are_refused_where_not_built(tmp_path):
    """Overall minimums, counting each trait, minimums adding up to more than a compartment's seats, and two held
    traits one candidate may have are refused with exit 3 and the reason, not solved some other way (a
    recommendation list holds them: tests/rules/test_held_recommendation.py)."""
    write_csv(tmp_path / "candidates.csv", CANDS, SEVEN)
    both = [["X", "UR", 3, 1, 1], ["X", "SC", 2, 1, 1]]
    for k, (policy, extra, rows, said) in enumerate((
            ("central-dopt", ['horizontal.mode="overall"'], both,
             'with horizontal.mode = "overall" is not implemented'),
            ("central-dopt", ["horizontal.multi_trait_counts_each=true"], both, "multi_trait_counts_each"),
            ("central-dopt", [], [["X", "UR", 3, 1, 1], ["X", "SC", 2, 1, 2]],
             "add up to more than the compartment's 2 seats"),
            # (a PwBD woman would free two held seats by taking one)
            ("central-dopt", ['horizontal.held=["pwbd", "women"]'], both, "that one candidate may count for both"))):
        write_csv(tmp_path / f"vacancies{k}.csv", ["post", "category", "vacancies", "pwbd", "women"], rows)
        r = CliRunner().invoke(app, ["solve", "--policy", policy, "--candidates", str(tmp_path / "candidates.csv"),
                                     "--vacancies", str(tmp_path / f"vacancies{k}.csv"), "--set", HELD,
                                     *[x for s in extra for x in ("--set", s)], "--out", str(tmp_path / "o")])
        assert r.exit_code == 3 and "horizontal.held" in r.output and said in " ".join(r.output.split()), r.output
        assert not (tmp_path / "o").exists()


def test_a_held_seat_is_carried_then_interchanged_then_given_to_others(tmp_path):
    """s.36 year by year. 2021: no (a) candidate (one of (c), who may not take an (a) seat in the first year):
    the (a) seat stays vacant, M1 alone is appointed and the seat is carried. 2022: an (a) and a (c) candidate:
    (a) takes the year's own seat, (c) the carried one by interchange. 2023: nobody with a disability: the year's
    seat stays vacant and is carried; 2024: nobody again: the carried seat goes to a person without disability
    (M1), the year's own seat stays vacant."""
    for year, dis in ((2021, ["c"]), (2022, ["a", "c"]), (2023, []), (2024, [])):
        pwbd_year(tmp_path, year, dis)
    sets = ['horizontal.traits=[{name="pwbd_a", share=0.5}]', 'horizontal.held=["pwbd_a"]']
    table = simulate(tmp_path, "central-dopt", "both", *sets)
    assert all(r["engine_differences"] == "0" for r in table.values())
    chosen = {y: sorted(r["candidate_id"] for r in read_csv(tmp_path / "out" / str(y) / "allocation.csv"))
              for y in range(2021, 2025)}
    assert chosen == {2021: ["M1-2021"], 2022: ["Pa-2022", "Pc-2022"], 2023: ["M1-2023"], 2024: ["M1-2024"]}
    for y in (2021, 2023, 2024):
        left = [(x["category"], x["unfilled"], x["disposition"])
                for x in read_csv(tmp_path / "out" / str(y) / "unfilled.csv") if int(x["unfilled"])]
        assert left == [("UR", "1", "held_vacant")]
    from solver.register import Register
    with Register(tmp_path / "reg.sqlite") as reg:
        history = {h[3]: h for h in reg.history()}
    assert history[2021][4] == "horizontal:pwbd_a" and history[2021][5] == 2022
    assert [e[1] for e in history[2021][6]] == ["carried", "filled"]
    assert [(y, e) for y, e, _ in history[2023][6]] == [(2023, "carried"), (2024, "unfilled")]
    for y in range(2021, 2025):
        r = verify_year(tmp_path, "central-dopt", y, *sets)
        assert r.exit_code == 0, (y, r.output)


PROFILE = settings(max_examples=int(__import__("os").environ.get("AARAKSHAN_EXAMPLES", "400")), deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])
POLICIES = ["maharashtra-2001", "central-2004", "manipur-1976", "bihar-1991", "central-dopt"]


def _solved(pol, prob, engine):
    """The solution, or None where a compartment's minimums, one of them held, add up to more than its seats:
    refused, with that reason (`solver.chain.engines.support`)."""
    from solver.errors import Unsupported
    try:
        return solve(pol, prob, engine)
    except Unsupported as e:
        assert "horizontal.held with" in str(e) and ("add up to more than" in str(e) or "count for both" in str(e))
        return None


@PROFILE
@given(instances(held=True, policies=POLICIES, max_n=30))
def test_held_seats_engines_agree_and_verify_accepts(inst):
    """Random recruitments under every policy with a compartment's rule for horizontal seats (a recommendation
    list's is refused), some traits held: both engines give the same allocation, no pool holds more than its
    seats less those kept vacant, and verify, reading `horizontal.held` on its own, accepts."""
    from solver.chain.compartment import held_vacancies
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    g = _solved(pol, prob, "greedy")
    if g is None:
        return
    c = solve(pol, prob, "cpsat", hint=False)
    assert np.array_equal(g.result.assignment.pool, c.result.assignment.pool)
    assert np.array_equal(g.result.assignment.adjusted, c.result.assignment.adjusted)
    res = g.result
    filled = res.assignment.filled(len(res.pools)) + held_vacancies(res.pools, res.assignment.pool)
    for p in res.pools:
        assert filled[p.index] <= p.base - sum(filled[q] for q in p.minus)
    write_outputs(d / "out", res, {})
    assert verify(pol, prob, read_allocation(d / "out" / "allocation.csv", prob, pol)) == []


@PROFILE
@given(instances(held=True, policies=POLICIES, max_n=30))
def test_verify_rejects_a_held_seat_given_to_one_who_does_not_count(inst):
    """Plant in a seat kept vacant the best unplaced candidate who may hold the compartment and counts for none of
    its held traits: verify names the held seat filled by another (or, where the newcomer outranks a holder, at
    least some rule)."""
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    sol = _solved(pol, prob, "greedy")
    if sol is None:
        return
    res = sol.result
    from solver.chain.compartment import held_vacancies
    vacant = held_vacancies(res.pools, res.assignment.pool)
    a = res.assignment.pool
    for p in res.pools:
        if not vacant[p.index]:
            continue
        out = np.flatnonzero(p.eligible & (a < 0) & ~np.any([p.beneficiary[t] for t in p.held], axis=0))
        if not len(out):
            continue
        i = int(out[0])
        write_outputs(d / "out", res, {})
        rows = read_csv(d / "out" / "allocation.csv")
        rows.append({"candidate_id": prob.candidates.ids[i], "post": prob.posts[p.post], "seat_category": p.category,
                     "counted_as": p.category, "horizontal": "", "route": "open_merit" if p.category == pol.open
                     else "reserved", "rank": str(i + 1)})
        write_csv(d / "planted.csv", list(rows[0]), [list(r.values()) for r in rows])
        found = verify(pol, prob, read_allocation(d / "planted.csv", prob, pol))
        assert any(v.rule == "held horizontal seat filled by another" for v in found), found
        return


def test_the_policy_reads_held_traits():
    """`horizontal.held` names traits of the schema's list, once each, and needs a year to carry to. central-dopt,
    ssc-cgl and upsc-cse hold the PwBD seats (s.36); the other models' traits revert."""
    import pytest
    assert load_policy("central-dopt", [HELD]).horizontal.held == ["pwbd"]
    for name in ("central-dopt", "ssc-cgl", "upsc-cse"):
        assert load_policy(name).horizontal.held == ["pwbd", "pwbd_a", "pwbd_b", "pwbd_c", "pwbd_de"]
    for name in ("central-2004", "bihar-1991", "maharashtra-2001", "manipur-1976"):
        assert load_policy(name).horizontal.held == []
    for bad in ('horizontal.held=["pwbd", "pwbd"]', 'horizontal.held=["blind"]'):
        with pytest.raises(Exception, match="held"):
            load_policy("central-dopt", [bad])
    with pytest.raises(Exception, match="carry_years"):
        load_policy("central-dopt", [HELD, "horizontal.carry_years=0"])
