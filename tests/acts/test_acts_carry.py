"""What a carried reservation does year by year, and whose law a violation cites. Each test is worked by hand
from the section it names."""
import ast
import re
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import read_csv, write_csv
from typer.testing import CliRunner
from years import simulate, verify_year, year_folder

from solver import load_policy, solve
from solver.cli import app
from solver.io.readers import read_problem
from solver.errors import InputError
from solver.register import Register, year_record
from solver.verify import read_allocation, verify


# Bihar s.4(6)(d): the reservation of a vacancy de-reserved when its years run out ------------------------------

def bihar_backlog_lapsing(tmp_path, sc_in_2026=True):
    """Post P: one SC vacancy in 2021 and one open vacancy a year; no SC or ST candidate until 2026, and in
    2024 one general candidate only (so the backlog, open to general candidates after its exchange, is still
    unfilled). 2026: two open vacancies, one SC candidate ranked last."""
    for y in range(2021, 2027):
        cands = [[f"U{y}-{k}", k + 1, "UR", "M"] for k in range(1 if y == 2024 else 5)]
        if y == 2026 and sc_in_2026:
            cands.append(["S2026", 6, "SC", "M"])
        vacs = [["P", "UR", 2 if y == 2026 else 1]] + ([["P", "SC", 1]] if y == 2021 else [])
        year_folder(tmp_path / "years", y, cands, vacs)


def test_bihar_backlog_dereserved_as_its_years_run_out_carries_its_reservation(tmp_path):
    """Bihar Act 1991 s.4(6)(a): the SC vacancy of 2021 stays reserved three recruitment years (2021-2023); it is
    exchanged with ST from the third (2023: age 3) and nobody takes it through 2024. s.4(6)(d): "the remaining
    backlog vacancies may be filled by general candidates after de-reserving them but the vacancies so
    de-reserved shall be carried forward for three recruitment years". In 2025 its years are over: a general
    candidate fills it (two appointed on one open vacancy and the old backlog) and its reservation is carried.
    So in 2026 one of the two vacancies is SC's, and S2026 (rank 6) holds it."""
    bihar_backlog_lapsing(tmp_path)
    table = simulate(tmp_path, "bihar-1991")
    sc = {y: {k: int(table[(y, "SC")][k]) for k in ("carried_in", "dereserved", "carried_out", "lapsed")}
          for y in (2024, 2025, 2026)}
    assert sc[2024] == {"carried_in": 1, "dereserved": 0, "carried_out": 1, "lapsed": 0}
    assert sc[2025] == {"carried_in": 1, "dereserved": 1, "carried_out": 1, "lapsed": 0}
    assert sc[2026] == {"carried_in": 1, "dereserved": 0, "carried_out": 0, "lapsed": 0}
    assert len(read_csv(tmp_path / "out" / "2025" / "allocation.csv")) == 2
    rows = read_csv(tmp_path / "out" / "2026" / "allocation.csv")
    assert {(r["candidate_id"], r["seat_category"], r["route"]) for r in rows} == \
        {("U2026-0", "UR", "open_merit"), ("S2026", "SC", "reserved")}
    with Register(tmp_path / "reg.sqlite") as reg:
        hist = reg.history()
    backlog = next(h for h in hist if h[4] == "vacancy")
    event_2025 = backlog[6][-1]
    assert event_2025[:2] == (2025, "dereserved") and "reservation carried" in event_2025[2]
    carried = next(h for h in hist if h[4] == "reservation")
    assert (carried[3], carried[6][-1][:2]) == (2025, (2026, "filled"))
    for y in range(2021, 2027):
        assert verify_year(tmp_path, "bihar-1991", y).exit_code == 0


def test_a_lapsed_backlog_without_dereservation_claims_no_carry(tmp_path):
    """With `unfilled.dereserve=false` ("may be filled", s.4(6)(d), read as not de-reserving) the 2021 backlog
    lapses in 2025 and nothing is carried: the event says so and claims no carried reservation; in 2026 both
    vacancies are open."""
    bihar_backlog_lapsing(tmp_path)
    table = simulate(tmp_path, "bihar-1991", "greedy", "unfilled.dereserve=false")
    assert int(table[(2025, "SC")]["lapsed"]) == 1 and int(table[(2025, "SC")]["carried_out"]) == 0
    with Register(tmp_path / "reg.sqlite") as reg:
        hist = reg.history()
    assert [h[4] for h in hist] == ["vacancy"]
    last = hist[0][6][-1]
    assert last[:2] == (2025, "lapsed") and "no reservation carried" in last[2] and "carried forward" not in last[2]
    rows = read_csv(tmp_path / "out" / "2026" / "allocation.csv")
    assert Counter(r["seat_category"] for r in rows) == {"UR": 2}


# One year's carried out is the next recruitment year's carried in ------------------------------------------------

def test_a_reservation_dereserved_again_is_carried_out(tmp_path):
    """Bihar s.4(6)(d): the 2024 de-reservation carries two SC reservations; in 2025 nobody of SC or ST takes
    them, so they are de-reserved again and carried on (they live in the register). The 2025 row counts them
    carried out, and 2026 carried in: every year's carried_out equals the next year's carried_in."""
    for y in range(2021, 2027):
        year_folder(tmp_path / "years", y, [[f"U{y}-{k}", k + 1, "UR", "M"] for k in range(12)],
                    [["X", "UR", 6], ["X", "SC", 2]])
    table = simulate(tmp_path, "bihar-1991", "greedy")
    for y in range(2021, 2026):
        assert table[(y, "SC")]["carried_out"] == table[(y + 1, "SC")]["carried_in"], y
    with Register(tmp_path / "reg.sqlite") as reg:
        live = [h for h in reg.history() if h[4] == "reservation" and h[5] is None]
        tally = {(what, k) for _, post, code, what, k in reg.tally(2025) if code == "SC" and what == "carried_out"}
    assert tally and len(live) >= 2


# Whose law a violation cites ------------------------------------------------------------------------------------

ACTS = {"bihar-1991": "Bihar", "manipur-1976": "Manipur", "maharashtra-2001": "Maharashtra",
        "central-2004": "Bill 2004", "central-dopt": "DoPT", "upsc-cse": "DoPT"}


def test_bihar_open_merit_violation_cites_bihar_s4_3(tmp_path):
    """Bihar Act 1991 s.4(3): "A reserved category candidate who is selected on the basis of his merit shall be
    counted against 50% vacancies of open merit category". An SC candidate first on the list put on the SC
    vacancy while a general candidate below him holds the open one breaks it, and the violation cites the Bihar
    section, not the central Bill's s.5(2)."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "gender"], [["S", 1, "SC", "M"], ["U", 2, "UR", "M"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["X", "SC", 1]])
    write_csv(tmp_path / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route",
                                   "rank"], [["U", "X", "UR", "UR", "", "open_merit", 2],
                                             ["S", "X", "SC", "SC", "", "reserved", 1]])
    pol = load_policy("bihar-1991")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    found = verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))
    assert found and all("Bill" not in v.source for v in found)
    assert any("Bihar Act 1991 s.4(3)" in v.source for v in found)


@pytest.mark.parametrize("name", sorted(ACTS))
def test_a_models_authorities_name_its_own_law_only(name):
    """Each model's `[authorities]` cites its own Act (or, for the central practice, its OMs)."""
    auth = load_policy(name).authorities.model_dump()
    assert any(auth.values()), name
    others = {v for k, v in ACTS.items() if v != ACTS[name]}
    for rule, text in auth.items():
        assert not any(o in text for o in others), (name, rule, text)


def test_verify_names_no_act_of_its_own():
    """verify's rules take an Act's section from the policy in force (`Reading.cite`): no string in
    solver/verify (docstrings and comments aside) names an Act or the central Bill."""
    root = Path(__file__).resolve().parents[2] / "solver" / "verify"
    found = []
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text())
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if any(w in node.value for w in ("Act 19", "Act 20", "Bill 2004")):
                    found.append(f"{path.name}:{node.lineno}: {node.value[:60]}")
    assert not found, found


POLICIES = ["bihar-1991", "manipur-1976", "central-dopt", "maharashtra-2001"]
RESERVED = {"bihar-1991": ["SC", "ST", "EBC", "BC"], "manipur-1976": ["SC", "ST"], "central-dopt": ["SC", "ST", "OBC"],
            "maharashtra-2001": ["SC", "ST"]}


@st.composite
def carried_runs(draw):
    """Four to six recruitment years of two posts under one policy: few reserved candidates, so vacancies are
    carried, exchanged, de-reserved and lapse; a post sometimes has no recruitment in a year (it does not age)."""
    name = draw(st.sampled_from(POLICIES))
    codes = RESERVED[name]
    years = []
    for _ in range(draw(st.integers(4, 6))):
        rows = []
        for post in ("P", "Q"):
            if draw(st.integers(0, 4)) == 0:
                continue
            reserved = {c: draw(st.integers(0, 1)) for c in codes}
            rows.append([post, "UR", max(sum(reserved.values()), draw(st.integers(1, 3)))])
            rows += [[post, c, k] for c, k in reserved.items() if k]
        if not rows:
            rows = [["P", "UR", 1]]
        cats = draw(st.lists(st.sampled_from(["UR", "UR", "UR", *codes]), min_size=1, max_size=8))
        years.append((rows, cats))
    return name, years


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(carried_runs())
def test_carried_out_is_the_next_years_carried_in(run):
    """Per post and category, what a recruitment year carries out (kept vacant, a reservation carried again, a
    claim kept, an item waiting) is what the next year carries in (offered, lapsed or waiting again): the
    annual report never loses or invents an item (Bill 2004 s.14; Manipur s.13; Bihar s.15(2)(c))."""
    name, years = run
    pol = load_policy(name)
    d = Path(tempfile.mkdtemp())
    tallies = []
    with Register(d / "reg.sqlite") as reg:
        for k, (rows, cats) in enumerate(years):
            year = 2021 + k
            write_csv(d / "c.csv", ["id", "rank", "category", "gender"],
                      [[f"C{year}-{i}", i + 1, c, "F" if i % 2 else "M"] for i, c in enumerate(cats)])
            write_csv(d / "v.csv", ["post", "category", "vacancies"], rows)
            prob = read_problem(pol, d / "c.csv", d / "v.csv")
            sol = solve(pol, prob, "greedy", state=reg.state(year))
            reg.record(year_record(sol.result, year), pol.name, "greedy")
            counts = Counter()
            for _, post, code, what, n in reg.tally(year):
                if what in ("carried_in", "carried_out"):
                    counts[(post, code, what)] += n
            tallies.append(counts)
    for year, (before, after) in enumerate(zip(tallies, tallies[1:]), start=2021):
        keys = {(p, c) for p, c, _ in before} | {(p, c) for p, c, _ in after}
        for p, c in sorted(keys):
            assert before[(p, c, "carried_out")] == after[(p, c, "carried_in")], (name, year, p, c, years)


# The Acts' grounds of exemption ---------------------------------------------------------------------------------

def _exempt_year(tmp_path, policy, rows):
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "gender"], [[f"U{k}", k + 1, "UR", "M"] for k in range(9)])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "exempt"], rows)
    pol = load_policy(policy)
    return pol, solve(pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv"), "greedy")


@pytest.mark.parametrize("policy, ground, section", [
    ("central-2004", "tenure post", "Bill 2004 s.4"),            # tenure is Manipur's ground (s.3(c)), not the Bill's
    ("bihar-1991", "work-charged", "Bihar Act 1991 s.3(1)"),     # Bihar s.3(1) lists no work-charged posts
    ("manipur-1976", "a very good reason", "Manipur Act 1976 s.3"),
])
def test_a_ground_the_act_does_not_list_is_bad_input_naming_the_section(tmp_path, policy, ground, section):
    """Bill 2004 s.4 (under 45 days, work-charged, research posts), Manipur Act 1976 s.3 (a)-(j), Bihar Act 1991
    s.3(1) (a)-(e): the Act applies except on the grounds it lists; another ground is bad input (exit 2) naming
    the section, the file's line and column, and the grounds."""
    with pytest.raises(InputError, match=re.escape(section)) as e:
        _exempt_year(tmp_path, policy, [["X", "UR", 3, ""], ["X", "UR", 1, ground]])
    assert (e.value.line, e.value.column) == (3, "4 (exempt)") and "the grounds are" in str(e.value)


@pytest.mark.parametrize("policy, ground", [("manipur-1976", "Tenure post"), ("manipur-1976", "ex-cadre"),
                                            ("bihar-1991", "compassionate appointment (s.3(1)(d))"),
                                            ("central-2004", "Under 45 days")])
def test_a_ground_the_act_lists_is_taken_in_any_case_or_spelling(tmp_path, policy, ground):
    _, sol = _exempt_year(tmp_path, policy, [["X", "UR", 3, ""], ["X", "UR", 1, ground]])
    assert sol.result.seats.exempt == {"X": 1}


def test_a_total_row_with_an_exemption_is_that_many_open_vacancies(tmp_path):
    """SPEC allows `exempt` on any row: a TOTAL of three exempt (Manipur s.3(c), tenure) vacancies beside a
    TOTAL of four by the roster is three open vacancies outside the roster and the ceiling."""
    pol, sol = _exempt_year(tmp_path, "manipur-1976", [["X", "TOTAL", 4, ""], ["X", "TOTAL", 3, "tenure"]])
    assert sol.result.seats.exempt == {"X": 3}
    assert sum(v for (p, c), v in sol.result.seats.seats.items() if p == "X") == 7
    assert sol.result.seats.seats[("X", "UR")] >= 3


# Manipur s.8(4)-(5): a fresh recruitment from SC and ST first, general candidates after ----------------------

def manipur_fresh_recruitment(tmp_path, sets=()):
    """Manipur 2021, post X: UR 4, SC 1, ST 1; the first round has general candidates only (U0-U5). The
    year's special round advertises the SC and ST vacancies: one SC candidate (S1) and two general ones (G1,
    G2, below him)."""
    year_folder(tmp_path / "years", 2021, [[f"U{k}", k + 1, "UR", "M"] for k in range(6)],
                [["X", "UR", 4], ["X", "SC", 1], ["X", "ST", 1]])
    sp = tmp_path / "special"
    sp.mkdir()
    write_csv(sp / "candidates.csv", ["id", "rank", "category", "gender"],
              [["S1", 1, "SC", "M"], ["G1", 2, "UR", "M"], ["G2", 3, "UR", "M"]])
    write_csv(sp / "vacancies.csv", ["post", "category", "vacancies"], [["X", "SC", 1], ["X", "ST", 1]])
    d = tmp_path / "years" / "2021"
    base = ["--policy", "manipur-1976", "--register", str(tmp_path / "reg.sqlite"), "--year", "2021"]
    for s in sets:
        base += ["--set", s]
    r = CliRunner().invoke(app, ["solve", *base, "--engine", "both", "--candidates", str(d / "candidates.csv"),
                                 "--vacancies", str(d / "vacancies.csv"), "--out", str(tmp_path / "main")])
    assert r.exit_code == 0, r.output
    special = ["solve", *base, "--engine", "both", "--round", "special", "--candidates", str(sp / "candidates.csv"),
               "--vacancies", str(sp / "vacancies.csv"), "--out", str(tmp_path / "special-out")]
    return base, CliRunner().invoke(app, special)


def test_manipur_keeps_the_reserved_vacancies_for_a_fresh_recruitment_then_general(tmp_path):
    """Manipur Act 1976 s.8(4): "a fresh recruitment may be made only from candidates belonging to the Scheduled
    Castes or the Scheduled Tribes ... for filling up the remaining reserved vacancies"; s.8(5): what "remain
    unfilled shall be filled by general candidates in accordance with the procedure laid down in sections 6 and
    7". The first round fills the four open vacancies (U0-U3) and keeps SC and ST vacant, though U4 and U5
    wait. In the special round S1 takes the SC vacancy; the ST vacancy passes by exchange (s.6) to no one (no
    second SC candidate), so it is de-reserved (s.7) to G1, the better general candidate, and the ST
    reservation is carried three recruitment years."""
    base, r = manipur_fresh_recruitment(tmp_path)
    assert r.exit_code == 0, r.output
    first = read_csv(tmp_path / "main" / "allocation.csv")
    assert sorted(x["candidate_id"] for x in first) == ["U0", "U1", "U2", "U3"]
    got = {(x["candidate_id"], x["seat_category"], x["route"]) for x in
           read_csv(tmp_path / "special-out" / "allocation.csv")}
    assert got == {("S1", "SC", "reserved"), ("G1", "ST", "dereserved")}
    with Register(tmp_path / "reg.sqlite") as reg:
        live = [(x.category, x.kind, x.origin_year) for x in reg.state(2022).items]
    assert live == [("ST", "reservation", 2021)]
    d = tmp_path / "years" / "2021"
    v = CliRunner().invoke(app, ["verify", *base, "--candidates", str(d / "candidates.csv"), "--vacancies",
                                 str(d / "vacancies.csv"), "--allocation", str(tmp_path / "main" / "allocation.csv")])
    assert v.exit_code == 0, v.output
    # U4 on the SC vacancy in the first round breaks s.8(4): de-reserved before the fresh recruitment
    bad = first + [{"candidate_id": "U4", "post": "X", "seat_category": "SC", "counted_as": "UR", "horizontal": "",
                    "route": "dereserved", "rank": "5"}]
    write_csv(tmp_path / "bad.csv", list(first[0]), [list(x.values()) for x in bad])
    v = CliRunner().invoke(app, ["verify", *base, "--candidates", str(d / "candidates.csv"), "--vacancies",
                                 str(d / "vacancies.csv"), "--allocation", str(tmp_path / "bad.csv")])
    assert v.exit_code == 1 and "before the fresh recruitment" in v.stdout


def test_manipur_s7_read_alone_dereserves_in_the_first_round(tmp_path):
    """The other side (`unfilled.dereserve_when = "same_year"`, s.7 read alone: "in any recruitment year ... may
    be filled up by general candidates after dereserving"): the first round gives the SC and ST vacancies to U4
    and U5 at once, both reservations carried, and a special round then finds no backlog to advertise."""
    _, r = manipur_fresh_recruitment(tmp_path, ["unfilled.dereserve_when=same_year"])
    first = read_csv(tmp_path / "main" / "allocation.csv")
    assert {(x["candidate_id"], x["route"]) for x in first if x["route"] != "open_merit"} == \
        {("U4", "dereserved"), ("U5", "dereserved")}
    assert r.exit_code == 2 and "open to the reserved categories only (Manipur Act 1976 s.8(4)-(5))" in r.output
    write_csv(tmp_path / "special" / "candidates.csv", ["id", "rank", "category", "gender"], [["S1", 1, "SC", "M"]])
    base = ["--policy", "manipur-1976", "--register", str(tmp_path / "reg.sqlite"), "--year", "2021", "--set",
            "unfilled.dereserve_when=same_year"]
    r = CliRunner().invoke(app, ["solve", *base, "--round", "special", "--candidates",
                                 str(tmp_path / "special" / "candidates.csv"), "--vacancies",
                                 str(tmp_path / "special" / "vacancies.csv"), "--out", str(tmp_path / "s2")])
    assert r.exit_code == 2 and "register holds 0 unfilled" in r.output


# Manipur s.6: what the exchanged community's claim takes --------------------------------------------------------

def test_manipur_claim_read_as_a_reserved_vacancy_takes_an_open_one(tmp_path):
    """Manipur Act 1976 s.6, the other reading (`claims.take = "reserved_vacancy"`): the claim is a reserved
    vacancy carried forward, out of the year's open vacancies, within s.7's 50%. Cadre X, UR 4, SC 1, ST 1 a
    year, ST candidates every year, one SC candidate (S2022, rank 11) in 2022 only. 2021: T2021-1 takes the SC
    vacancy by exchange; SC keeps a claim. 2022: the claim turns an open vacancy into SC's: UR 3, SC 2, ST 1 (3
    of 6 reserved: at the ceiling, not above). S2022 fills the claim (settled); 2022's own SC vacancy goes by
    exchange to the second ST candidate (a new claim), ST's own to the first. Under the model's reading
    (`partner_vacancy`) the claim takes ST's vacancy instead: UR 4, SC 2, ST 0."""
    from test_acts_years import manipur_years
    manipur_years(tmp_path, {2022})
    table = simulate(tmp_path, "manipur-1976", "both", "claims.take=reserved_vacancy")
    assert [int(table[(2022, c)]["vacancies"]) for c in ("SC", "ST")] == [2, 1]
    rows = read_csv(tmp_path / "out" / "2022" / "allocation.csv")
    assert sorted((r["candidate_id"], r["seat_category"], r["route"]) for r in rows if r["seat_category"] != "UR") \
        == [("S2022", "SC", "reserved"), ("T2022-0", "ST", "reserved"), ("T2022-1", "SC", "exchange")]
    assert sum(r["seat_category"] == "UR" for r in rows) == 3
    with Register(tmp_path / "reg.sqlite") as reg:
        first = next(h for h in reg.history() if h[4] == "claim" and h[3] == 2021)
    assert [(y, e) for y, e, _ in first[6]] == [(2021, "carried"), (2022, "filled")]
    for y in range(2021, 2025):
        assert verify_year(tmp_path, "manipur-1976", y, "claims.take=reserved_vacancy").exit_code == 0


def test_manipur_claim_read_as_the_partners_vacancy_keeps_the_reserved_total(tmp_path):
    """The model's reading (`claims.take = "partner_vacancy"`), the same years: 2022 has UR 4, SC 2, ST 0."""
    from test_acts_years import manipur_years
    manipur_years(tmp_path, {2022})
    table = simulate(tmp_path, "manipur-1976", "greedy")
    assert [int(table[(2022, c)]["vacancies"]) for c in ("SC", "ST")] == [2, 0]
    rows = read_csv(tmp_path / "out" / "2022" / "allocation.csv")
    assert sum(r["seat_category"] == "UR" for r in rows) == 4
