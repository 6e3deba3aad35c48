"""`aarakshan audit`: worked examples whose answers are derived by hand, and a property against
brute force over every allocation of small instances."""
import csv
import itertools
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import load_policy
from solver.audit import audit, official, outcome, parse
from solver.audit.readings import open_options
from solver.errors import InputError, PolicyConflict, Unsupported
from conftest import write_csv
from strategies import instances
from solver.io.readers import read_problem
from solver.verify import Allocation, verify


def _files(tmp_path, cands, vacs, cand_header="id,score,category,gender", vac_header="post,category,vacancies"):
    c, v = tmp_path / "candidates.csv", tmp_path / "vacancies.csv"
    c.write_text(cand_header + "\n" + "".join(",".join(map(str, r)) + "\n" for r in cands))
    v.write_text(vac_header + "\n" + "".join(",".join(map(str, r)) + "\n" for r in vacs))
    return c, v


def _audit(tmp_path, cands, vacs, asks=(), readings=(), policy="central-dopt", declared=False, **headers):
    c, v = _files(tmp_path, cands, vacs, **headers)
    pol = load_policy(policy)
    prob = read_problem(pol, c, v)
    return audit(pol, prob, [parse(a, prob) for a in asks], open_options(pol, list(readings), declared, prob),
                 lambda sets: load_policy(policy, sets)), prob


def test_a_merit_tie_at_the_last_open_seat_is_contested(tmp_path):
    """B and C both score 80 with no birth date: only their ids order them (merit.tie_breaks = birth_date,
    id), and an id is not a rule of law. Two open seats: A takes one, the other goes to B or C. The official
    allocation (B, by id) is not unique; B and C are contested, nobody else; C could be selected."""
    a, _ = _audit(tmp_path, [["A", 90, "UR", "M"], ["B", 80, "UR", "M"], ["C", 80, "UR", "M"], ["D", 70, "OBC", "M"]],
                  [["X", "UR", 2], ["X", "OBC", 1]], asks=["C"])
    assert a.unique is False
    assert {r[0]: (r[1], r[2], r[3], r[4]) for r in a.contested} == {
        "B": ("tie", "X UR", "not selected", "merit tie settled only by id"),
        "C": ("tie", "not selected", "X UR", "merit tie settled only by id")}
    assert a.answers[0]["answer"] == "yes"
    assert outcome(a.alternatives["C"], 2) == "X UR" and outcome(a.alternatives["C"], 1) == "not selected"


def test_without_a_tie_the_allocation_is_proven_unique(tmp_path):
    """One strict merit list: unique by the theorem, and CP-SAT proves it when asked to (--prove-unique)."""
    cands = [["A", 90, "UR", "M"], ["B", 81, "UR", "M"], ["C", 80, "UR", "M"], ["D", 70, "OBC", "M"]]
    c, v = _files(tmp_path, cands, [["X", "UR", 2], ["X", "OBC", 1]])
    pol = load_policy("central-dopt")
    prob = read_problem(pol, c, v)
    a = audit(pol, prob, [])
    assert a.unique is True and a.contested == [] and a.status["unique"] == "theorem"
    a = audit(pol, prob, [], prove=True)
    assert a.unique is True and a.contested == [] and a.status["unique"] == "optimal"


def test_minimums_with_preferences_admit_another_stable_allocation(tmp_path):
    """P1 and P2 have one open vacancy each, P1 with a women's minimum of 1. a (man, rank 1) ranks P1 then P2;
    b (woman, rank 2) ranks P2 then P1. The official allocation is the candidate-optimal one: a at P1, b at P2,
    each at their first choice. Another is stable and lawful too: b at P1, which takes her for its minimum
    (a non-beneficiary may be passed over for a beneficiary while the compartment holds no more than its
    minimum: Rajesh Kumar Daria 2007), and a at P2, where b, ranked below him, has no claim. So a and b are
    contested, and b@P1 is a yes."""
    c, v = _files(tmp_path, [["a", 90, "UR", "M"], ["b", 80, "UR", "F"]], [["P1", "UR", 1, 1], ["P2", "UR", 1, 0]],
                  vac_header="post,category,vacancies,women")
    prefs = tmp_path / "preferences.csv"
    prefs.write_text("candidate_id,order,post\na,1,P1\na,2,P2\nb,1,P2\nb,2,P1\n")
    pol = load_policy("central-dopt")
    prob = read_problem(pol, c, v, prefs)
    a = audit(pol, prob, [parse("b@P1", prob), parse("a@P1", prob)])
    assert a.unique is False
    assert {r[0]: (r[2], r[3], r[1]) for r in a.contested} == {"a": ("P1 UR", "P2 UR", "alternative"),
                                                               "b": ("P2 UR", "P1 UR", "alternative")}
    assert all(r[4].startswith("horizontal minimums with preferences") for r in a.contested)
    assert [x["answer"] for x in a.answers] == ["yes", "yes"]


SAURAV = [["U1", 90, "UR", "M"], ["U2", 85, "UR", "M"], ["R3", 80, "OBC", "F"], ["U4", 70, "UR", "F"],
          ["R5", 60, "OBC", "M"]]
SAURAV_V = [["X", "UR", 2, 1], ["X", "OBC", 1, 0]]


def test_saurav_yadav_under_both_readings_of_open_compartment_for_all(tmp_path):
    """Open 2 (women 1), OBC 1. On merit the open compartment takes U1, U2 and holds no woman: the lowest
    non-beneficiary U2 makes way for the best remaining beneficiary. Where the open compartment's women's
    seat is for all women (Saurav Yadav 2020; central-dopt as given), that is R3, an OBC woman, and the OBC
    seat goes to R5. Where it is for general women only, it is U4, and R3 takes the OBC seat. R3, U4 and R5
    fare otherwise between the readings; U1 (selected) and U2 (out) do not."""
    a, _ = _audit(tmp_path, SAURAV, SAURAV_V, readings=[("horizontal.open_compartment_for_all", ["false"])],
                  vac_header="post,category,vacancies,women")
    assert a.unique is True
    got = {r[0]: (r[2], r[3]) for r in a.contested}
    assert got == {"R3": ("X UR", "X OBC"), "U4": ("not selected", "X UR"), "R5": ("X OBC", "not selected")}
    assert {r[4] for r in a.contested} == {"horizontal.open_compartment_for_all"}


def test_an_ask_that_is_yes_only_under_one_reading(tmp_path):
    """U4 is not selected as given (R3 holds the open women's seat) but is under the other reading."""
    a, _ = _audit(tmp_path, SAURAV, SAURAV_V, asks=["U4", "U2"],
                  readings=[("horizontal.open_compartment_for_all", ["false"])],
                  vac_header="post,category,vacancies,women")
    u4, u2 = a.answers
    assert (u4["answer"], u4["reading"]) == ("yes", "horizontal.open_compartment_for_all=false")
    assert u2["answer"] == "no"


def test_the_model_files_open_questions_are_solved_with_their_authorities(tmp_path):
    """central-dopt declares two open questions: open_compartment_for_all (Saurav Yadav 2020 against the
    reading it rejected) and horizontal.mode (Anil Kumar Gupta 1995 on both sides). Overall, the post's one
    women's seat is met by R3 in the OBC compartment on merit (open: U1, U2; OBC: R3), so nobody is adjusted:
    U2 gains the open seat, R3 moves to OBC, R5 loses. The three readings other than the policy as given are
    solved, and each row names the authority on both sides."""
    a, _ = _audit(tmp_path, SAURAV, SAURAV_V, asks=["U2"], declared=True, vac_header="post,category,vacancies,women")
    assert [r.name for r in a.readings] == [
        "as given", "horizontal.open_compartment_for_all=true; horizontal.mode=overall",
        "horizontal.open_compartment_for_all=false; horizontal.mode=compartmentalised",
        "horizontal.open_compartment_for_all=false; horizontal.mode=overall"]
    overall = {r[0]: (r[2], r[3]) for r in a.contested if r[1] == a.readings[1].name}
    assert overall == {"U2": ("not selected", "X UR"), "R3": ("X UR", "X OBC"), "R5": ("X OBC", "not selected")}
    row = next(r for r in a.contested if r[1] == a.readings[2].name)
    assert row[4] == "horizontal.open_compartment_for_all"
    assert "=false: the reading Saurav Yadav 2020 rejected" in row[5] and "as given (true): Saurav Yadav" in row[5]
    assert (a.answers[0]["answer"], a.answers[0]["reading"]) == ("yes", a.readings[1].name)
    # --reading narrows a declared question: only the overall reading is left
    a, _ = _audit(tmp_path, SAURAV, SAURAV_V, declared=True, vac_header="post,category,vacancies,women",
                  readings=[("horizontal.open_compartment_for_all", ["true"]), ("horizontal.mode", ["overall"])])
    assert [r.name for r in a.readings] == ["as given", "horizontal.open_compartment_for_all=true; horizontal.mode=overall"]


def test_every_bundled_models_open_questions_load_on_each_side():
    """Each declared side is a value the policy takes, the policy as given is one of the sides, and each
    side has its authority (the audit must not solve a reading no model can hold)."""
    from solver.audit.readings import current
    from solver.policy.load import bundled_models
    declared = 0
    for name in bundled_models():
        pol = load_policy(name)
        for o in open_options(pol):
            declared += 1
            assert current(pol, o.key) in o.values, (name, o.key)
            for v in o.values:
                assert current(load_policy(name, [f"{o.key}={v}"]), o.key) == v
                assert o.source(v) and "RULES.md" not in o.source(v)
    assert declared >= 6


def test_a_model_file_may_not_declare_an_open_question_twice(tmp_path):
    text = (load_policy.__globals__["resolve_policy_path"]("bihar-1991")).read_text()
    bad = tmp_path / "p.toml"
    first = text.index("[[open_questions]]")
    bad.write_text(text + "\n" + text[first:text.index("\n\n", text.index("sides = [", first))] + "\n")
    with pytest.raises(InputError, match="open_questions names an option twice"):
        load_policy(bad)


def test_an_audit_of_a_register_year_sees_its_backlog(tmp_path):
    """2025: X has 1 open and 1 SC vacancy and no SC candidate; central-dopt does not de-reserve (DoPT OM
    20.07.2000), so the SC vacancy is carried as backlog. 2026: 1 open and 1 SC vacancy again, with U1, S1,
    S2 in merit order. With the register the SC compartment has 2 vacancies (1 + 1 carried): S2 is selected.
    Without it she is not: S1 holds the one SC vacancy and U1 the open one, and both capacities stand in the
    way (a second open vacancy would go to S1 on merit, freeing the SC one for her)."""
    y1 = tmp_path / "2025"
    y1.mkdir()
    c1, v1 = _files(y1, [["U1", 90, "UR", "M"], ["U2", 80, "UR", "M"]], [["X", "UR", 1], ["X", "SC", 1]])
    run = [sys.executable, "-c", "from solver.cli import main; main()"]
    r = subprocess.run([*run, "solve", "--policy", "central-dopt", "--candidates", str(c1), "--vacancies", str(v1),
                        "--out", str(tmp_path / "o1"), "--register", str(tmp_path / "reg.sqlite"), "--year", "2025"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    c2, v2 = _files(tmp_path, [["U1", 90, "UR", "M"], ["S1", 85, "SC", "M"], ["S2", 80, "SC", "F"]],
                    [["X", "UR", 1], ["X", "SC", 1]])
    cmd = [*run, "audit", "--policy", "central-dopt", "--candidates", str(c2), "--vacancies", str(v2), "--ask", "S2"]
    r = subprocess.run([*cmd, "--out", str(tmp_path / "a1"), "--register", str(tmp_path / "reg.sqlite"),
                        "--year", "2026"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert next(csv.DictReader(open(tmp_path / "a1" / "answers.csv")))["answer"] == "yes"
    r = subprocess.run([*cmd, "--out", str(tmp_path / "a2")], capture_output=True, text=True)
    row = next(csv.DictReader(open(tmp_path / "a2" / "answers.csv")))
    assert (row["answer"], row["blocking"]) == ("no", "capacity[UR@X]; capacity[SC@X]")
    assert "S1 (rank 2)" in row["detail"] and "U1 (rank 1)" in row["detail"]
    bad = subprocess.run([*cmd, "--out", str(tmp_path / "a3"), "--register", str(tmp_path / "reg.sqlite")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--register and --year go together" in bad.stderr


def test_an_ask_that_is_no_because_of_a_relaxed_standard(tmp_path):
    """R2 (OBC, relaxed) and C7 (OBC, relaxed) may not hold the open vacancy (DoPT OM 01.07.1998; Deepa E.V.
    2017), so it goes to U3, below both; the OBC vacancy goes to R2, above C7. C7 is out, and exactly two rules
    stand in the way: her relaxed standard (without it she would take the open vacancy ahead of U3) and the
    OBC vacancy's capacity, held by R2 (a second OBC vacancy would be hers)."""
    a, _ = _audit(tmp_path, [["R2", 90, "OBC", "M", "true"], ["C7", 85, "OBC", "F", "true"], ["U3", 80, "UR", "M", ""]],
                  [["X", "UR", 1], ["X", "OBC", 1]], asks=["C7"], cand_header="id,score,category,gender,relaxed")
    ans = a.answers[0]
    assert ans["answer"] == "no" and ans["minimal"] is True
    assert ans["blocking"].split("; ") == ["capacity[OBC@X]", "eligibility[UR@X]"]
    assert "availed a relaxed standard and may not hold an open vacancy (DoPT OM 01.07.1998" in ans["detail"]
    assert "go to R2 (rank 1), eligible and ranked above C7" in ans["detail"]


def test_an_ask_that_is_no_because_better_ranked_candidates_fill_the_vacancy(tmp_path):
    """Two open vacancies, A and B above C: C could be selected only with a third vacancy; A and B are named."""
    a, _ = _audit(tmp_path, [["A", 90, "UR", "M"], ["B", 85, "UR", "F"], ["C", 80, "UR", "M"]], [["X", "UR", 2]],
                  asks=["C", "!A"])
    c, not_a = a.answers
    assert c["answer"] == "no" and c["blocking"] == "capacity[UR@X]"
    assert "go to A (rank 1), B (rank 2), eligible and ranked above C" in c["detail"]
    # Leaving A out would leave a vacancy she wants unfilled (non-wastefulness), nothing else.
    assert not_a["answer"] == "no" and not_a["blocking"] == "non_wastefulness[UR@X]"


def test_an_ask_that_is_no_because_a_minimum_holds_a_seat_names_who_holds_it(tmp_path):
    """Two open vacancies at X, at least one for PwBD (Rajesh Kumar Daria 2007): filled on merit A and B, no PwBD,
    so B, the lowest who counts for nothing, makes way for E (rank 4), the best PwBD. Asked whether B could hold
    X: no, and both seats are accounted for, A above him and E on the minimum's seat (the answer named A alone,
    as if one seat were enough)."""
    a, _ = _audit(tmp_path, [["A", 100, "UR", ""], ["B", 90, "UR", ""], ["C", 80, "UR", ""], ["E", 60, "UR", "c"]],
                  [["X", "UR", 2, 1]], asks=["B@X"], cand_header="id,score,category,pwbd",
                  vac_header="post,category,vacancies,pwbd")
    b = a.answers[0]
    assert b["answer"] == "no" and b["blocking"] == "capacity[UR@X]"
    assert "go to A (rank 1), eligible and ranked above B" in b["detail"]
    assert "and 1 to E (rank 4), below on merit but held for the pwbd minimum" in b["detail"], b["detail"]


def test_audit_command_writes_its_files_and_refuses_bad_asks(tmp_path):
    c, v = _files(tmp_path, [["A", 90, "UR", "M"], ["B", 80, "UR", "M"], ["C", 80, "UR", "M"]], [["X", "UR", 2]])
    cmd = [sys.executable, "-c", "from solver.cli import main; main()", "audit", "--policy", "central-dopt",
           "--candidates", str(c), "--vacancies", str(v), "--out", str(tmp_path / "out")]
    r = subprocess.run([*cmd, "--ask", "C", "--ask", "B@X"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # (how uniqueness was decided is said: here by CP-SAT's model, the tie between B and C being left to ids)
    assert "unique: False (optimal); contested: 2 candidates" in r.stdout.replace("\n", " "), r.stdout
    doc = json.loads((tmp_path / "out" / "audit.json").read_text())
    assert doc["unique"] is False and doc["contested"] == 2
    answers = list(csv.DictReader(open(tmp_path / "out" / "answers.csv")))
    assert [(x["question"], x["answer"]) for x in answers] == [("C", "yes"), ("B@X", "yes")]
    assert (tmp_path / "out" / "alternatives" / "C" / "allocation.csv").exists()
    # central-dopt's two declared open questions: three readings besides the policy as given
    assert [q["key"] for q in doc["open_questions"]] == ["horizontal.open_compartment_for_all", "horizontal.mode"]
    assert len(doc["readings"]) == 4 and "Saurav Yadav" in doc["open_questions"][0]["authority"]["true"]
    r = subprocess.run([*cmd[:-1], str(tmp_path / "nd"), "--no-declared"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "nd" / "audit.json").read_text())["readings"] == [
        {"reading": "as given", "sets": [], "changes": "", "authority": ""}]
    bad = subprocess.run([*cmd, "--ask", "Z"], capture_output=True, text=True)
    assert bad.returncode == 2 and "no candidate 'Z'" in bad.stderr
    bad = subprocess.run([*cmd, "--reading", "nonsense"], capture_output=True, text=True)
    assert bad.returncode == 2 and "KEY=V1,V2" in bad.stderr


# Property: brute force over every allocation of small instances (central-dopt, one post, UR / OBC / SC).
small = st.lists(st.tuples(st.sampled_from(["UR", "OBC", "SC"]), st.booleans(), st.integers(60, 64)),
                 min_size=2, max_size=4)
# (reserved vacancies at most the open ones: the 50% ceiling)
seats = st.tuples(st.integers(1, 2), st.integers(0, 1), st.integers(0, 1)).filter(lambda v: v[1] + v[2] <= v[0])


def _lawful(pol, prob, res) -> list[np.ndarray]:
    """Every assignment of the candidates to the pools (or none) that verify accepts."""
    pools = res.pools.pools
    out = []
    for choice in itertools.product(range(-1, len(pools)), repeat=prob.n):
        a = np.array(choice)
        if any(k >= 0 and not pools[k].eligible[i] for i, k in enumerate(choice)):
            continue
        if any((a == k).sum() > p.base for k, p in enumerate(pools)):
            continue
        from solver.chain.engines.assignment import Assignment
        from solver.outcome.result import Result
        r = Result(pol, prob, res.seats, res.pools, Assignment(a, np.zeros(prob.n, bool), "brute"), "brute")
        rows = list(r.allocation_rows())
        alloc = Allocation(np.array([prob.candidates.ids.tolist().index(x[0]) for x in rows], dtype=np.int64),
                           np.array([prob.posts.index(x[1]) for x in rows], dtype=np.int64),
                           [x[2] for x in rows], [x[3] for x in rows], [x[4] for x in rows], [x[5] for x in rows],
                           [x[0] for x in rows])
        if not verify(pol, prob, alloc):
            out.append(a)
    return out


@settings(max_examples=60, deadline=None)
@given(small, seats)
def test_every_answer_matches_brute_force(tmp_path_factory, people, vac):
    """Every yes comes with an allocation verify accepts, and every no is confirmed by brute force
    over all allocations of the instance (verify as the judge of what is lawful; scores 60-64 make ties, where
    either order is lawful)."""
    tmp = tmp_path_factory.mktemp("audit")
    cands = [[f"C{k}", score, cat, "M", "true" if relaxed else ""] for k, (cat, relaxed, score) in enumerate(people)]
    vacs = [["X", code, k] for code, k in zip(("UR", "OBC", "SC"), vac)]
    c, v = _files(tmp, cands, vacs, cand_header="id,score,category,gender,relaxed")
    pol = load_policy("central-dopt")
    prob = read_problem(pol, c, v)
    ties = prob.candidates.tie_blocks()
    # verify judges merit by index; with ties any order of a tie block is lawful, so judge every permutation
    lawful = []
    orders = [list(range(prob.n))]
    for block in set(ties.tolist()) - {-1}:
        members = np.flatnonzero(ties == block).tolist()
        orders = [o[:members[0]] + list(p) + o[members[-1] + 1:] for o in orders for p in itertools.permutations(members)]
    for order in orders:
        sub = _permuted(prob, order)
        rsub = official(pol, sub)
        for a in _lawful(pol, sub, rsub):
            back = np.full(prob.n, -1)
            back[np.array(order)] = a   # candidate order[k] of the original holds a[k]
            lawful.append(back)
    questions = [f"C{k}" for k in range(prob.n)] + [f"!C{k}" for k in range(prob.n)]
    out = audit(pol, prob, [parse(q, prob) for q in questions], prove=True)
    ids = prob.candidates.ids.tolist()
    for ans in out.answers:
        i = ids.index(ans["question"].lstrip("!"))
        want_selected = not ans["question"].startswith("!")
        exists = any((a[i] >= 0) == want_selected for a in lawful)
        assert (ans["answer"] == "yes") == exists, (ans, cands, vac)
        if ans["answer"] == "yes" and ties.max() < 0:
            alt = out.alternatives[parse(ans["question"], prob).name]
            assert any(np.array_equal(alt.assignment.pool, a) for a in lawful)
    assert out.unique == (len({tuple(a) for a in lawful}) == 1)


def _permuted(prob, order):
    """The problem with its candidates in another merit order (a tie block's members swapped)."""
    from dataclasses import replace
    c = prob.candidates
    idx = np.array(order)
    fields = {f: getattr(c, f)[idx] for f in ("ids", "category", "female", "creamy", "relaxed", "pwbd",
                                              "ex_serviceman", "line")}
    cand = replace(c, **fields, score=None if c.score is None else c.score[idx], tied=None)
    return replace(prob, candidates=cand)


def test_an_infeasible_model_names_the_rules_in_conflict(tmp_path):
    """No input the readers accept makes the model infeasible (any input has a stable completion), so the
    conflict is planted: X's open compartment of 2 vacancies given a women's minimum of 3, with three women
    eligible. No two holders meet a minimum of 3, and the model's chains reach only as deep as the capacities
    allow, so the minimum alone cannot hold: `solve` names it, its pool and its source.
    Capacity and non-wastefulness are not in the core: without the minimum the pool is satisfiable."""
    from dataclasses import replace

    from solver.chain.reductions import DIRECT, StageData
    from solver.chain.engines.cpsat.solve import solve_cpsat
    from solver.errors import PolicyConflict

    c, v = _files(tmp_path, [["A", 90, "UR", "F"], ["B", 80, "UR", "F"], ["C", 70, "UR", "F"], ["D", 60, "UR", "M"]],
                  [["X", "UR", 2, 1]], vac_header="post,category,vacancies,women")
    pol = load_policy("central-dopt")
    prob = read_problem(pol, c, v)
    pools = DIRECT(StageData(pol, prob))[0].pools
    solve_cpsat(pools, prob.n, posts=prob.posts)   # as read: feasible
    planted = replace(pools, pools=tuple(replace(p, minimums={"women": 3}) if p.minimums else p for p in pools))
    with pytest.raises(PolicyConflict) as e:
        solve_cpsat(planted, prob.n, posts=prob.posts)
    text = str(e.value)
    assert "the rule that cannot hold (a minimal core): minimum[UR@X]" in text
    assert "capacity" not in text and "non_wastefulness" not in text
    assert "Rajesh Kumar Daria 2007" in text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(max_n=14, max_posts=3))
def test_answers_read_off_the_structure_are_the_full_models(inst):
    """Where one strict merit list settles the lawful allocation (no tie, no minimums meeting preferences),
    the audit answers from the official allocation without a model (what lets it answer at SSC and JoSAA
    size). On random instances of every policy, with and without preferences and minimums, each question
    (selected at all, at each post, left out) gets the same verdict from the structure as from the model of
    every lawful allocation."""
    import tempfile
    from pathlib import Path

    from solver.audit.audit import _ask_one, official, settled_by_structure
    from solver.audit.questions import Question
    from strategies import materialise
    pol, prob = materialise(Path(tempfile.mkdtemp()), inst)
    try:
        res = official(pol, prob)
    except (Unsupported, PolicyConflict):
        return
    if not settled_by_structure(res):
        return
    for i in range(prob.n):
        for post in [None, *range(len(prob.posts))]:
            for selected in (True, False) if post is None else (True,):
                q = Question(prob.candidates.ids[i], i, post, selected)
                fast = _ask_one(q, res, res, None, 1)[0]
                full = _ask_one(q, res, res, None, 1, model=True)[0]
                assert fast == full, (q, fast, full)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["UR", "OBC", "SC"]), st.booleans(), st.integers(60, 63)),
                min_size=2, max_size=7), seats)
def test_tie_orders_tried_where_the_model_is_too_large_are_sound(tmp_path_factory, people, vac):
    """Where ties are left to ids and the model of every lawful allocation is past the audit's budget, the
    audit tries orders of the tie blocks with the procedure instead (`audit.ties`): every yes it gives is a
    yes of the full model (its allocation lawful under an order the ties allow), a contested candidate it finds
    is one the model finds, and what it cannot settle it says is unknown, never no (budget 0 here: every model
    with a pair is "too large")."""
    from unittest import mock

    import solver.audit.ties as ties_module
    tmp = tmp_path_factory.mktemp("ties")
    cands = [[f"C{k}", score, cat, "M", "true" if relaxed else ""] for k, (cat, relaxed, score) in enumerate(people)]
    vacs = [["X", code, k] for code, k in zip(("UR", "OBC", "SC"), vac)]
    c, v = _files(tmp, cands, vacs, cand_header="id,score,category,gender,relaxed")
    pol = load_policy("central-dopt")
    prob = read_problem(pol, c, v)
    questions = [parse(q, prob) for k in range(prob.n) for q in (f"C{k}", f"!C{k}")]
    full = audit(pol, prob, questions, prove=True)
    with mock.patch.object(ties_module, "MODEL_BUDGET", 0):
        fast = audit(pol, prob, questions)
    if prob.candidates.tie_blocks().max(initial=-1) < 0:
        assert [a["answer"] for a in fast.answers] == [a["answer"] for a in full.answers]
        return
    for f, g in zip(fast.answers, full.answers):
        assert f["answer"] == "unknown" or f["answer"] == g["answer"], (f, g)   # (a no only from a model small enough)
    assert {r[0] for r in fast.contested} <= {r[0] for r in full.contested}
    assert fast.unique is None or fast.unique == full.unique


def test_a_reading_the_solve_refuses_is_said_not_dropped(tmp_path):
    """ssc-cgl's JSO with a PwBD minimum and a preferences file: `--reading horizontal.mode=compartmentalised,overall`
    asks for the overall readings, which the solve refuses with preferences (their choice is not substitutable:
    docs/limits.md). They are counted and each is warned with its reason, as audit.json's status records them;
    they were left out of the count and the output without a word."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "pwbd"],
              [["A", 100, "UR", ""], ["B", 90, "UR", ""], ["C", 80, "UR", "b"], ["D", 70, "UR", ""]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "pwbd"], [["AAO", "UR", 1, 0], ["JSO", "UR", 2, 1]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [["A", 1, "AAO"], ["B", 1, "JSO"], ["C", 1, "JSO"], ["D", 1, "JSO"], ["D", 2, "AAO"]])
    cmd = [sys.executable, "-c", "from solver.cli import main; main()", "audit", "--policy", "ssc-cgl",
           "--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"), "--preferences",
           str(tmp_path / "p.csv"), "--reading", "horizontal.mode=compartmentalised,overall", "--out", str(tmp_path / "o")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    doc = json.loads((tmp_path / "o" / "audit.json").read_text())
    refused = [k for k, v in doc["status"].items() if k.startswith("reading ") and v.startswith("refused")]
    assert len(refused) == 2 and all("horizontal.mode=overall" in k for k in refused)
    assert f"{len(doc['readings'])} readings (2 more refused)" in r.stdout.replace("\n", " "), r.stdout
    said = [line for line in r.stderr.splitlines() if line.startswith("warning: reading ")]
    assert len(said) == 2 and all("horizontal.mode=overall not solved: " in x for x in said), r.stderr
