"""The audit of a house allocation with ties at a size the model of every lawful allocation cannot take
(`solver.audit.houses`): uniqueness decided tie block by tie block, and a question answered by the model of the
candidates who can reach her seats. Worked examples derived by hand from weak stability (a candidate may be
kept out of a pool she prefers only when it is full of candidates ranked at or above her; an id is not a rule
of law: SPEC.md merit.tie_breaks), and properties against the full model on random instances."""
import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.audit.ties as ties_module
from solver import load_policy
from solver.audit import audit, official, outcome, parse
from solver.audit.audit import _ask_one
from solver.audit.houses import alternatives, houses, possible, resolutions
from solver.audit.questions import Question
from solver.errors import PolicyConflict, Unsupported
from solver.io.readers import read_problem
from strategies import instances, materialise


def _recruitment(tmp_path, cands, vacs, prefs, policy="central-dopt"):
    c, v, p = tmp_path / "candidates.csv", tmp_path / "vacancies.csv", tmp_path / "preferences.csv"
    c.write_text("id,score,category,gender,relaxed\n" + "".join(
        f"{i},{s},{k},M,{'true' if r else ''}\n" for i, s, k, *rest in cands for r in [rest[0] if rest else False]))
    v.write_text("post,category,vacancies\n" + "".join(f"{a},{b},{n}\n" for a, b, n in vacs))
    p.write_text("candidate_id,order,post\n" + "".join(f"{i},{o},{post}\n" for i, posts in prefs.items()
                                                      for o, post in enumerate(posts, 1)))
    pol = load_policy(policy)
    return pol, read_problem(pol, c, v, p)


def _past_the_budget(pol, prob, asks):
    with mock.patch.object(ties_module, "MODEL_BUDGET", 0):
        return audit(pol, prob, [parse(a, prob) for a in asks])


def test_two_tied_candidates_may_swap_the_posts_each_would_rather_leave(tmp_path):
    """A and B tie at 80 (only ids order them), X and Y one UR vacancy each; A ranks X then Y, B ranks Y then X.
    Every order of the two gives A X and B Y, but A at Y and B at X is lawful too: each is kept from the post
    she prefers by a candidate ranked level with her, not below. So the allocation is not unique, A and B are
    contested, and A could hold Y."""
    pol, prob = _recruitment(tmp_path, [("A", 80, "UR"), ("B", 80, "UR"), ("C", 70, "UR")],
                             [("X", "UR", 1), ("Y", "UR", 1)], {"A": ["X", "Y"], "B": ["Y", "X"], "C": ["X", "Y"]})
    a = _past_the_budget(pol, prob, [])
    assert a.unique is False and "tie block by tie block" in a.status["unique"]
    assert {r[0]: (r[2], r[3]) for r in a.contested} == {"A": ("X UR", "Y UR"), "B": ("Y UR", "X UR")}
    res = official(pol, prob)
    verdict, _, alt = _ask_one(parse("A@Y", prob), res, res, None, 1, reduce=True)
    assert verdict == "yes" and outcome(alt, 0) == "Y UR" and outcome(alt, 1) == "X UR" and outcome(alt, 2) == "not selected"
    # C, below the tie, is never selected: both seats go to those ranked above her in every lawful allocation
    assert _ask_one(parse("C", prob), res, res, None, 1, reduce=True)[0] == "no"


def test_a_tie_with_room_for_both_changes_nothing(tmp_path):
    """A and B tie at 80 and both rank X first, where two UR vacancies are left: each holds X whatever their
    order, and the only lawful allocation is the official one (decided without the model)."""
    pol, prob = _recruitment(tmp_path, [("A", 80, "UR"), ("B", 80, "UR"), ("C", 70, "UR")],
                             [("X", "UR", 2), ("Y", "UR", 1)], {"A": ["X", "Y"], "B": ["X"], "C": ["X", "Y"]})
    a = _past_the_budget(pol, prob, [])
    assert a.unique is True and a.contested == []
    res = official(pol, prob)
    assert _ask_one(parse("C@X", prob), res, res, None, 1, reduce=True)[0] == "no"


def test_a_tie_at_the_last_seat_moves_the_candidates_below_it(tmp_path):
    """A and B tie at 80 for X's last UR vacancy (A by id); C, at 70, ranks X then Y, Y with one vacancy.
    Officially A takes X and B, who ranked only X, is left out; C takes Y. With B at X instead, A (X then Y)
    takes Y and C is out. So A, B and C are contested: C, untied, moved by the tie above her."""
    pol, prob = _recruitment(tmp_path, [("A", 80, "UR"), ("B", 80, "UR"), ("C", 70, "UR")],
                             [("X", "UR", 1), ("Y", "UR", 1)], {"A": ["X", "Y"], "B": ["X"], "C": ["Y"]})
    a = _past_the_budget(pol, prob, [])
    rows = {r[0]: (r[2], r[3], r[4]) for r in a.contested}
    assert a.unique is False
    assert rows["A"][:2] == ("X UR", "Y UR") and rows["B"][:2] == ("not selected", "X UR")
    assert rows["C"] == ("Y UR", "not selected", "a merit tie above, settled only by id, moves the seats left to her")
    res = official(pol, prob)
    assert _ask_one(parse("!C", prob), res, res, None, 1, reduce=True)[0] == "yes"


def test_a_blocks_resolutions_are_the_weakly_stable_ones():
    """Two members, two pools of one seat each, both listing X then Y: one holds X, the other Y, in either
    order; neither may be left out while Y has room, and both may not hold X."""
    from solver.audit.houses import Houses
    h = Houses([[0, 1], [0, 1]], np.array([1, 1]), [range(0, 2)])
    assert sorted(resolutions(h, range(0, 2), h.cap)) == [(0, 1), (1, 0)]
    # with Y gone (no room), one of them is left out
    assert sorted(resolutions(h, range(0, 2), np.array([1, 0]))) == [(-1, 0), (0, -1)]


def _pairs(prob, res):
    ci, pi = res.pools.preference_lists()
    lists = [[] for _ in range(prob.n)]
    for c, p in zip(ci.tolist(), pi.tolist()):
        lists[c].append(p)
    return lists


def _weakly_stable(prob, res, pool) -> bool:
    """From the definition: a candidate kept from a pool she prefers finds it full of candidates ranked at or
    above her (tied ones included); no pool over its vacancies."""
    ties = prob.candidates.tie_blocks()
    cap = [p.base for p in res.pools.pools]
    holders = [np.flatnonzero(pool == k) for k in range(len(cap))]
    if any(len(h) > c for h, c in zip(holders, cap)):
        return False
    for m, mine in enumerate(_pairs(prob, res)):
        for q in mine:
            if q == pool[m]:
                break
            level = [h for h in holders[q] if h < m or (ties[m] >= 0 and ties[h] == ties[m])]
            if len(level) < cap[q]:
                return False
    return True


@st.composite
def tied_recruitments(draw):
    """Up to 9 candidates scoring 60 to 62 (so most tie, left to ids), of four categories, some availing a
    relaxed standard; 2 or 3 posts with a reserved vacancy or none per category and at least as many open; each candidate ranking some posts."""
    n = draw(st.integers(2, 9))
    posts = [f"P{j}" for j in range(draw(st.integers(2, 3)))]
    cats = ["UR", "OBC", "SC", "ST"]
    cands = [(f"C{k}", draw(st.integers(60, 62)), draw(st.sampled_from(cats)), draw(st.booleans()))
             for k in range(n)]
    vacs = []
    for p in posts:   # (reserved ones within the 50% ceiling: Indra Sawhney 1992)
        reserved = [(p, c, draw(st.integers(0, 1))) for c in cats[1:]]
        vacs += [(p, "UR", sum(r[2] for r in reserved) + draw(st.integers(0, 1))), *reserved]
    prefs = {c[0]: draw(st.permutations(posts))[:draw(st.integers(1, len(posts)))] for c in cands}
    return cands, vacs, prefs, draw(st.sampled_from(["central-dopt", "central-2004"]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.one_of(instances(max_n=12, max_posts=3, ranked=True, allow_horizontal=False), tied_recruitments()))
def test_decided_block_by_block_and_by_the_reduced_model_as_the_full_model_decides(tmp_path, inst):
    """On random ranked instances with ties (every policy; those that are not a house allocation are left to
    the full model): uniqueness decided tie block by tie block is the full model's verdict, and every candidate
    it names contested the full model names; each question (selected, at each post, left out) gets the same
    verdict from the model reduced to the candidates at or above her (`houses.truncated`) as from the full
    model, a yes with an allocation lawful by the definition; `possible` keeps every pool a lawful allocation
    gives."""
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    pol, prob = materialise(folder, inst) if len(inst) == 5 else _recruitment(folder, *inst)
    try:
        res = official(pol, prob)
    except (Unsupported, PolicyConflict):
        return
    ties = prob.candidates.tie_blocks()
    h = houses(res.pools, ties)
    if h is None or ties.max(initial=-1) < 0:
        return
    full = audit(pol, prob, [], prove=True)
    found, undecided = alternatives(h, res.assignment.pool)
    assert not undecided
    assert (not found) == full.unique
    fast = _past_the_budget(pol, prob, [])
    assert fast.unique == full.unique and {r[0] for r in fast.contested} <= {r[0] for r in full.contested}
    sets = possible(h, prob.n - 1)
    for i in range(prob.n):
        for post in [None, *range(len(prob.posts))]:
            for selected in (True, False) if post is None else (True,):
                q = Question(prob.candidates.ids[i], i, post, selected)
                small, _, alt = _ask_one(q, res, res, None, 1, reduce=True)
                assert small == _ask_one(q, res, res, None, 1, model=True)[0], q
                if alt is not None:
                    assert _weakly_stable(prob, res, alt.assignment.pool)
                    for m, got in enumerate(alt.assignment.pool.tolist()):
                        assert got in sets[m], (m, got, sets[m])
