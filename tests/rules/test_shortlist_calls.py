"""The stage after a shortlist of lists called apart (`shortlist.separate`; SSC CGL's Tier-I result calls JSO and
Statistical Investigator Grade-II apart from the other posts: the 2023 Tier-I result notice, para. 2, as
reproduced by secondary pages; models/ssc-cgl.toml): one called in some lists only may hold only their posts.
Properties over random calls and preferences: every appointee holds a post of a list he was called in, both
engines give one allocation, verify (reading the lists itself) accepts it and rejects an appointee moved to a
free seat of a list he was not called in. The hand-derived examples are in tests/exam/test_shortlist_lists.py."""
import tempfile
from pathlib import Path

import numpy as np
from conftest import write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import load_policy, solve
from solver.exam.called import with_calls, post_groups
from solver.io.readers import read_problem
from solver.outcome.reports import write_outputs
from solver.verify import read_allocation, verify
from solver.verify.called import RULE

POSTS = ["AAO", "JSO", "SI-II", "ASO"]
LISTS = {"JSO": "JSO", "SI-II": "SI", "AAO": "others", "ASO": "others"}


@st.composite
def instances(draw):
    n = draw(st.integers(3, 9))
    cats = draw(st.lists(st.sampled_from(["UR", "OBC", "SC"]), min_size=n, max_size=n))
    calls = draw(st.lists(st.sets(st.sampled_from(["JSO", "SI", "others"]), min_size=1), min_size=n, max_size=n))
    prefs = [draw(st.permutations(POSTS).map(lambda p: p[:draw(st.integers(1, 4))])) for _ in range(n)]
    vacs = []
    for p in POSTS:     # (reserved within half of each post's: the ceiling, Art. 16(4B))
        ur, obc, sc = draw(st.integers(1, 2)), draw(st.integers(0, 1)), draw(st.integers(0, 1))
        vacs += [[p, "UR", ur + obc + sc], [p, "OBC", obc], [p, "SC", sc]]
    return cats, calls, prefs, vacs


def _solve(policy, cats, calls, prefs, vacs, d: Path):
    ids = [f"C{i}" for i in range(len(cats))]
    write_csv(d / "c.csv", ["id", "score", "category"], [[x, 100 - i, c] for i, (x, c) in enumerate(zip(ids, cats))])
    write_csv(d / "v.csv", ["post", "category", "vacancies"], vacs)
    write_csv(d / "p.csv", ["candidate_id", "order", "post"],
              [[x, k + 1, p] for x, mine in zip(ids, prefs) for k, p in enumerate(mine)])
    prob = read_problem(policy, d / "c.csv", d / "v.csv", d / "p.csv")
    lists = {name: {x: "UR" for x, mine in zip(ids, calls) if name in mine} for name in post_groups(policy, prob)}
    return with_calls(policy, prob, lists, "shortlist.csv"), lists


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_kept_to_the_lists_engines_agree_and_verify_judges_alike(inst):
    cats, calls, prefs, vacs = inst
    pol = load_policy("ssc-cgl")
    d = Path(tempfile.mkdtemp())
    prob, lists = _solve(pol, cats, calls, prefs, vacs, d)
    groups = post_groups(pol, prob)
    greedy, cpsat = solve(pol, prob, "greedy"), solve(pol, prob, "cpsat")
    assert list(greedy.result.allocation_rows()) == list(cpsat.result.allocation_rows())
    held = {}
    for row in greedy.result.allocation_rows():
        cid, post = row[0], row[1]
        mine = {name for name, called in lists.items() if cid in called}
        assert any(post in groups[name] for name in mine), (cid, post, mine)
        held[cid] = post
    write_outputs(d / "out", greedy.result, {})
    alloc = read_allocation(d / "out" / "allocation.csv", prob, pol)
    assert verify(pol, prob, alloc, calls=lists) == []
    # Planted: an appointee moved to a post of a list he was not called in (its row rewritten): named.
    for cid, post in held.items():
        others = [p for p in prob.posts if not any(p in groups[name] for name, c in lists.items() if cid in c)]
        if others:
            text = (d / "out" / "allocation.csv").read_text().splitlines()
            k = next(k for k, line in enumerate(text) if line.startswith(f"{cid},"))
            cells = text[k].split(",")
            cells[1] = others[0]
            text[k] = ",".join(cells)
            (d / "bad.csv").write_text("\n".join(text) + "\n")
            found = verify(pol, prob, read_allocation(d / "bad.csv", prob, pol), calls=lists)
            assert any(v.rule == RULE and v.candidate == cid and v.post == others[0] for v in found), found
            break


def test_everyone_called_in_every_list_is_the_plain_allocation(tmp_path):
    """Called in every list, nobody is kept from a post: the allocation is the one without the shortlist."""
    pol = load_policy("ssc-cgl")
    cats, prefs = ["UR", "OBC", "UR", "SC"], [POSTS, POSTS[::-1], POSTS[1:], POSTS[:2]]
    vacs = [["AAO", "UR", 1], ["JSO", "UR", 1], ["SI-II", "UR", 1], ["SI-II", "OBC", 1], ["ASO", "UR", 1],
            ["ASO", "SC", 1]]
    prob, _ = _solve(pol, cats, [{"JSO", "SI", "others"}] * 4, prefs, vacs, tmp_path)
    assert all(x == () for x in prob.candidates.called_in)
    plain = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    assert list(solve(pol, prob, "greedy").result.allocation_rows()) == \
        list(solve(pol, plain, "greedy").result.allocation_rows())
    assert np.array_equal(prob.candidates.ids, plain.candidates.ids)
