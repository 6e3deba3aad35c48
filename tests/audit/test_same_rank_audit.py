"""The audit under the same-rank rule (JoSAA Business Rules, "Multiple student - same rank rule", heading read, text
not read; as NDTV summarised it in 2021 and 2022: where fewer seats remain than candidates of the same rank seeking
them, all of them are offered seats, supernumerary ones; `merit.same_rank = "supernumerary"`). A pool chooses its
best up to capacity and everyone of the rank of the last of them: a path-independent choice, so the stable
allocations form a lattice (Chambers and Yenmez 2017) and the audit's two extremes bound every one of them; but a
pool's intake may differ between them. The example is worked by hand; the property checks the audit against every
allocation of small markets, enumerated and judged here from the rule's words."""
import itertools
from unittest import mock

from conftest import write_csv
from strategies import tied_market as _market
from strategies import tied_problem as _problem
from hypothesis import HealthCheck, given, settings

from solver import load_policy, solve
from solver.audit import audit, parse
from solver.audit import ties as ties_module
from solver.audit.stable import stable_allocation
from solver.chain.engines.cpsat.size import pairs
from solver.verify import read_allocation
from solver.verify.checks import verify

COLS = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"]


def _held(result) -> dict:
    return {row[0]: row[1] for row in result.allocation_rows()}


def _audit(pol, prob, questions=()):
    return audit(pol, prob, [parse(q, prob) for q in questions], [], lambda sets: load_policy("josaa-2025"))


def test_a_seat_over_the_number_in_one_stable_allocation_and_not_in_the_other(tmp_path):
    """X (one seat) ranks by list `one`: B 1st, A 2nd. Y (one seat) ranks by list `two`: A 1st, B and D both 2nd.
    A wants X then Y, B wants Y then X, D only Y.
    Candidates proposing (the engines): A holds X; B and D both propose to Y and are of one rank at its one seat,
    so both hold it, one over the number. Pools proposing: X offers its seat to B (1st on `one`), Y to A (1st on
    `two`, alone: no tie at the last seat); each holds the only offer made. So {A X, B Y, D Y} and {B X, A Y} are
    both stable: in the second D wants Y, whose holder A is above him; B and A each want the other's post, whose
    holder is above them there. A, B and D are contested, D between Y and nothing: Y admits two in the one and
    one in the other (with the same-rank rule a pool's intake is not fixed across stable allocations)."""
    pol, prob = _problem(tmp_path, ["A", "B", "D"], [("X", 1, "one"), ("Y", 1, "two")],
                         [["B", "one", 1], ["A", "one", 2], ["A", "two", 1], ["B", "two", 2], ["D", "two", 2]],
                         {"A": ["X", "Y"], "B": ["Y", "X"], "D": ["Y"]})
    for engine in ("greedy", "cpsat"):
        assert _held(solve(pol, prob, engine=engine).result) == {"A": "X", "B": "Y", "D": "Y"}
    out = _audit(pol, prob, ["!D", "D@Y", "A@Y", "B@X", "!A"])
    assert out.unique is False and out.status["unique"] == "lattice"
    assert {r[0]: (r[2], r[3]) for r in out.contested} == {"A": ("X OPEN", "Y OPEN"), "B": ("Y OPEN", "X OPEN"),
                                                           "D": ("Y OPEN", "not selected")}
    other = out.alternatives["institution-optimal"]
    assert _held(other) == {"A": "Y", "B": "X"}
    write_csv(tmp_path / "a.csv", COLS, [r[:6] for r in other.allocation_rows()])
    assert verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol)) == []
    answers = {a["question"]: a["answer"] for a in out.answers}
    assert answers == {"!D": "yes", "D@Y": "yes", "A@Y": "yes", "B@X": "yes", "!A": "no"}
    proved = audit(pol, prob, [], [], lambda sets: load_policy("josaa-2025"), prove=True)
    assert proved.unique is False and {r[0] for r in proved.contested} == {"A", "B", "D"}


def test_questions_read_off_the_two_extremes_where_the_model_is_too_large(tmp_path):
    """The market above with the model of every lawful allocation past the budget (as at JoSAA size): a question
    is answered from the two extreme stable allocations, every stable allocation lying between them in each
    candidate's order. D may be left out (the institution-optimal allocation), may hold Y (the official one); A
    may hold Y (the institution-optimal one) but is never left out: her seat runs from X to Y, both seats."""
    pol, prob = _problem(tmp_path, ["A", "B", "D"], [("X", 1, "one"), ("Y", 1, "two")],
                         [["B", "one", 1], ["A", "one", 2], ["A", "two", 1], ["B", "two", 2], ["D", "two", 2]],
                         {"A": ["X", "Y"], "B": ["Y", "X"], "D": ["Y"]})
    with mock.patch.object(ties_module, "MODEL_BUDGET", 0):
        out = _audit(pol, prob, ["!D", "D@Y", "A@Y", "!A", "B"])
    said = {a["question"]: a for a in out.answers}
    assert {q: a["answer"] for q, a in said.items()} == {"!D": "yes", "D@Y": "yes", "A@Y": "yes", "!A": "no",
                                                         "B": "yes"}
    assert said["!A"]["blocking"] == "stability"
    assert "from X OPEN (the official, candidate-optimal allocation) down to Y OPEN" in said["!A"]["detail"]
    assert _held(out.alternatives["not-D"]) == {"A": "Y", "B": "X"}     # (the institution-optimal one)


def test_a_post_between_the_two_extremes_goes_to_the_model_of_the_contested(tmp_path):
    """Three posts of one seat, each ranking by a list of its own; A wants X, Y, Z; B wants Y, Z, X; C wants Z, X,
    Y; X ranks B, C, A; Y ranks C, A, B; Z ranks A, B, C. Three stable allocations: each candidate's first choice
    (the official one), each post's first (the institution-optimal one), and each one's second (A Y, B Z, C X:
    each wants the post above, whose holder is above him there). A at Y is in the third alone: the two extremes do
    not settle it, so past the model's budget it goes to the model of the contested candidates alone (here A, B
    and C): "yes", with the third allocation, as the whole model says. D (first on Q's list, wanting only Q) holds Q
    in every stable allocation; A ranks Q between X and Z, so A at Q goes to that model too, and is "no"."""
    ranks = [[c, lst, k + 1] for lst, order in (("lx", "BCA"), ("ly", "CAB"), ("lz", "ABC"), ("lq", "DA"))
             for k, c in enumerate(order)]
    pol, prob = _problem(tmp_path, ["A", "B", "C", "D"], [("X", 1, "lx"), ("Y", 1, "ly"), ("Z", 1, "lz"),
                                                          ("Q", 1, "lq")], ranks,
                         {"A": ["X", "Q", "Y", "Z"], "B": ["Y", "Z", "X"], "C": ["Z", "X", "Y"], "D": ["Q"]})
    assert {a["question"]: a["answer"] for a in _audit(pol, prob, ["A@Y"]).answers} == {"A@Y": "yes"}
    with mock.patch.object(ties_module, "MODEL_BUDGET", 0):
        out = _audit(pol, prob, ["A@Y", "A@Q", "A@Z", "!A"])
    said = {a["question"]: a for a in out.answers}
    assert {q: a["answer"] for q, a in said.items()} == {"A@Y": "yes", "A@Q": "no", "A@Z": "yes", "!A": "no"}
    assert _held(out.alternatives["A-at-Y"]) == {"A": "Y", "B": "Z", "C": "X", "D": "Q"}
    assert said["A@Q"]["blocking"]      # (D holds Q in every stable allocation: a rule or the fixed seats named)


def test_a_tie_everyone_agrees_on_leaves_one_stable_allocation(tmp_path):
    """X (one seat) by list `one`: A and B both 1st, C 3rd; everyone wants X. Both A and B hold X in every stable
    allocation (neither may be left out while the other holds it: they are of one rank), C in none."""
    pol, prob = _problem(tmp_path, ["A", "B", "C"], [("X", 1, "one")],
                         [["A", "one", 1], ["B", "one", 1], ["C", "one", 3]], {"A": ["X"], "B": ["X"], "C": ["X"]})
    out = _audit(pol, prob, ["!A", "C@X"])
    assert out.unique is True and out.contested == []
    assert {a["question"]: a["answer"] for a in out.answers} == {"!A": "no", "C@X": "no"}


def _chooses(seats: int, level: dict, holders) -> set:
    """The same-rank rule's choice, from its words: the best `seats` of `holders` by the pool's list and every
    one of the rank of the last of them."""
    if len(holders) <= seats:
        return set(holders)
    last = sorted(level[h] for h in holders)[seats - 1]
    return {h for h in holders if level[h] <= last}


def _stable(assign: dict, prefs: dict, seats: dict, levels: dict) -> bool:
    """Every pool holds what it would choose of its holders, and nobody wants a pool that would choose him from
    its holders and him."""
    at = {p: {c for c, q in assign.items() if q == p} for p in seats}
    if any(_chooses(seats[p], levels[p], at[p]) != at[p] for p in seats):
        return False
    for c, mine in prefs.items():
        better = mine if assign[c] is None else mine[:mine.index(assign[c])]
        if any(c in _chooses(seats[p], levels[p], at[p] | {c}) for p in better):
            return False
    return True


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=_market())
def test_the_audit_bounds_every_stable_allocation_with_ties(tmp_path_factory, m):
    """Every allocation of a small market with ties, judged stable or not by the rule's words (`_stable`): the
    engines' (and the audit's candidate-proposing one) is stable and every candidate's best among them, the
    audit's institution-optimal one every candidate's worst; the audit calls the allocation unique exactly when
    there is one; and "could C hold P" is yes exactly when some stable allocation gives C the post P."""
    ids, vacs, ranks, prefs = m
    pol, prob = _problem(tmp_path_factory.mktemp("tied"), ids, vacs, ranks, prefs)
    on = {(c, lst): r for c, lst, r in ranks}
    seats = {p: k for p, k, _ in vacs}
    levels = {p: {c: on[(c, lst)] for c in ids if (c, lst) in on} for p, _, lst in vacs}
    wants = {c: [p for p in prefs[c] if c in levels[p]] for c in ids}    # (one off a post's list may not hold it)
    stable = [dict(zip(ids, pick)) for pick in itertools.product(*[[None, *wants[c]] for c in ids])
              if _stable(dict(zip(ids, pick)), wants, seats, levels)]

    def place(c, p):
        return len(wants[c]) if p is None else wants[c].index(p)

    best = {c: min(place(c, s[c]) for s in stable) for c in ids}
    worst = {c: max(place(c, s[c]) for s in stable) for c in ids}
    result = solve(pol, prob, engine="greedy").result
    mine = _held(result)
    assert {c: place(c, mine.get(c)) for c in ids} == best
    # (the audit's own candidate-proposing deferred acceptance, heap for heap, gives the engine's)
    assert stable_allocation(result.pools, prob.n).tolist() == result.assignment.pool.tolist()
    assert pairs(result.pools) == sum(int(p.eligible.sum()) for p in result.pools.pools)   # (the size estimate's)
    asked = [f"{c}@{p}" for c in ids for p in wants[c]]
    out = _audit(pol, prob, asked)
    other = _held(out.alternatives["institution-optimal"]) if "institution-optimal" in out.alternatives else mine
    assert {c: place(c, other.get(c)) for c in ids} == worst
    assert out.unique is (len({tuple(s.values()) for s in stable}) == 1)
    possible = {f"{c}@{s[c]}" for s in stable for c in ids if s[c] is not None}
    assert {a["question"] for a in out.answers if a["answer"] == "yes"} == possible & set(asked)
    # (the model past the budget: the two extremes, and the model of the contested alone between them)
    out_of_range = [f"!{c}" for c in ids]
    with mock.patch.object(ties_module, "MODEL_BUDGET", 0):
        quick = _audit(pol, prob, asked + out_of_range)
    left_out = {f"!{c}" for s in stable for c in ids if s[c] is None}
    assert {a["question"] for a in quick.answers if a["answer"] == "yes"} == (possible | left_out) & \
        set(asked + out_of_range)
    assert {a["answer"] for a in quick.answers} <= {"yes", "no"}
