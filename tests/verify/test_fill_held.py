"""Filling from the reserve list (CSE Rule 16(5); Rule 20(5) as amended 14.11.2025) where the vacancy left had
served a horizontal minimum, and where the list's candidate ranked no post with a vacancy left: the fill and
`verify --stage fill` each worked by hand.

- A PwBD vacancy left unfilled is carried forward, not filled by another that year (PwD Act 1995 s.36, as quoted;
  RPwD Act 2016 s.34(2) as summarised: upsc-cse's `horizontal.held`): a PwBD appointee who declines leaves a
  vacancy that only a PwBD candidate of the list may fill.
- Without `held` the vacancy reverts, after a recommendation list as in the service allocation itself: "after
  every other allocation to the compartment's candidates still without a service" (docs/pipeline.md, the
  reading the engines and verify's service allocation take): one the round already placed does not move to it.
- With `migration.allocate_unranked` (UPSC practice: a recommended candidate whom no ranked post can take gets a
  remaining vacancy) a candidate of the list without a post is given a vacancy left at a post he did not rank.
"""
from conftest import write_csv

from solver import load_policy
from solver.exam.fill import fill
from solver.io.readers import read_problem
from solver.verify import read_allocation
from solver.verify.fill import check_fill

HEAD = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
# A1 is PwBD (a), the others are not; all general (UR). Posts X and Y, one UR vacancy each.
CANDS = [["A1", 100, "UR", "a"], ["B0", 95, "UR", ""], ["B1", 90, "UR", ""], ["B2", 80, "UR", ""],
         ["B3", 70, "UR", ""]]


def recruitment(tmp_path, prefs, before, sets=(), cands=CANDS):
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "pwbd"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["Y", "UR", 1]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    write_csv(tmp_path / "before.csv", HEAD, before)
    pol = load_policy("upsc-cse", list(sets))
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    rows = [dict(zip(HEAD, map(str, r))) for r in before]
    return pol, prob, rows, read_allocation(tmp_path / "before.csv", prob, pol)


def judged(tmp_path, pol, prob, alloc, listed, declined, rows, name):
    write_csv(tmp_path / name, HEAD, rows)
    return check_fill(pol, prob, alloc, listed, declined, read_allocation(tmp_path / name, prob, pol),
                      {cid: "UR" for cid in listed})


# A1, PwBD, holds X's vacancy as PwBD (the minimum's seat); B1 holds Y's.
PWBD_AT_X = [["A1", "X", "UR", "UR", "pwbd_a", "open_merit", 1], ["B1", "Y", "UR", "UR", "", "open_merit", 3]]


def test_a_pwbd_vacancy_left_is_kept_for_a_pwbd_candidate_of_the_list(tmp_path):
    """A1 declines; the reserve list holds B2 alone, who is not PwBD and ranks X first. X's vacancy served the
    PwBD minimum, which upsc-cse holds: it stays vacant (carried), and B2 is not placed. verify accepts that, and
    names B2 on it as a held seat filled by another; before, it read the vacancy as open to B2 ("left unfilled
    while B2 could take it") and rejected the fill the engines give."""
    pol, prob, before, alloc = recruitment(tmp_path, {"A1": ["X"], "B1": ["Y"], "B2": ["X", "Y"]}, PWBD_AT_X)
    listed, gone = {"B2": "reserve"}, {"A1": "declined"}
    done = fill(pol, prob, before, listed, gone, "greedy", parts={"B2": "UR"})
    assert done.rows == [] and fill(pol, prob, before, listed, gone, "cpsat", parts={"B2": "UR"}).rows == []
    assert judged(tmp_path, pol, prob, alloc, listed, gone, [], "f.csv") == []
    planted = judged(tmp_path, pol, prob, alloc, listed, gone, [["B2", "X", "UR", "UR", "", "open_merit", 4]], "g.csv")
    assert len(planted) == 1 and "held horizontal seat filled by another" in planted[0] and "B2" in planted[0]


def test_a_pwbd_candidate_of_the_list_fills_the_kept_vacancy(tmp_path):
    """The same, with B3 PwBD (a) on the list below B2: the vacancy is hers, though B2 is above her and ranks it
    first; leaving it vacant while she wanted it is named."""
    cands = [*CANDS[:4], ["B3", 70, "UR", "a"]]
    pol, prob, before, alloc = recruitment(tmp_path, {"A1": ["X"], "B1": ["Y"], "B2": ["X", "Y"], "B3": ["X"]},
                                           PWBD_AT_X, cands=cands)
    listed, gone, parts = {"B2": "reserve", "B3": "reserve"}, {"A1": "declined"}, {"B2": "UR", "B3": "UR"}
    done = fill(pol, prob, before, listed, gone, "greedy", parts=parts)
    assert [(r[0], r[1]) for r in done.rows] == [("B3", "X")]
    assert judged(tmp_path, pol, prob, alloc, listed, gone, done.rows, "f.csv") == []
    left = judged(tmp_path, pol, prob, alloc, listed, gone, [], "g.csv")
    assert left == ["a UR vacancy at X is left unfilled while B3 of the reserve list could take it"]


def test_without_held_the_vacancy_reverts_to_the_list(tmp_path):
    """`horizontal.held = []`: X's PwBD vacancy reverts. No PwBD candidate on the list, so it goes to B2, who has
    no post: the fill places him, and verify names the vacancy left unfilled where the fill leaves it."""
    pol, prob, before, alloc = recruitment(tmp_path, {"A1": ["X"], "B1": ["Y"], "B2": ["X", "Y"]}, PWBD_AT_X,
                                           ["horizontal.held=[]"])
    listed, gone = {"B2": "reserve"}, {"A1": "declined"}
    done = fill(pol, prob, before, listed, gone, "greedy", parts={"B2": "UR"})
    assert [(r[0], r[1]) for r in done.rows] == [("B2", "X")]
    assert judged(tmp_path, pol, prob, alloc, listed, gone, done.rows, "f.csv") == []
    assert judged(tmp_path, pol, prob, alloc, listed, gone, [], "g.csv") == \
        ["a UR vacancy at X is left unfilled while B2 of the reserve list could take it"]


def test_a_reverted_vacancy_goes_to_those_the_round_left_without_a_post(tmp_path):
    """`horizontal.held = []`; A1 (X, PwBD) and B1 (Y) decline. B2 ranks X then Y, B3 ranks X only. X's seat is
    held for PwBD candidates while the round's other vacancies are filled, so B2 takes Y; it then reverts to
    the list's candidates still without a post: B3 takes X. B2 is not passed over for B3, under that reading
    (docs/pipeline.md); without B3 on the list, X stays vacant while B2 holds Y, and verify accepts that too.
    (A fresh property draw found verify reading the reverted vacancy as open to B2 where the engines did not.)"""
    prefs = {"A1": ["X"], "B1": ["Y"], "B2": ["X", "Y"], "B3": ["X"]}
    pol, prob, before, alloc = recruitment(tmp_path, prefs, PWBD_AT_X, ["horizontal.held=[]"])
    gone = {"A1": "declined", "B1": "declined"}
    for listed, want in (({"B2": "reserve", "B3": "reserve"}, [("B2", "Y"), ("B3", "X")]),
                         ({"B2": "reserve"}, [("B2", "Y")])):
        parts = {cid: "UR" for cid in listed}
        done = fill(pol, prob, before, listed, gone, "greedy", parts=parts)
        assert sorted((r[0], r[1]) for r in done.rows) == want
        assert fill(pol, prob, before, listed, gone, "cpsat", parts=parts).rows == done.rows
        assert judged(tmp_path, pol, prob, alloc, listed, gone, done.rows, "f.csv") == []
    # B2 left without a post: each vacancy is one he could take (X's reverted, as he has none)
    assert judged(tmp_path, pol, prob, alloc, {"B2": "reserve"}, gone, [], "g.csv") == \
        [f"a UR vacancy at {p} is left unfilled while B2 of the reserve list could take it" for p in "XY"]


def test_allocate_unranked_gives_a_vacancy_left_to_one_of_the_list_without_a_post(tmp_path):
    """upsc-cse allocates the unranked (`migration.allocate_unranked = true`): B0 declines X; B2, on the list,
    ranks only Y, which B1 keeps. The fill gives B2 X, and verify names X left unfilled if he is not placed
    (before, it accepted that, as he had not ranked X). With allocate_unranked = false, X stays vacant and verify
    accepts that."""
    before = [["B0", "X", "UR", "UR", "", "open_merit", 2], ["B1", "Y", "UR", "UR", "", "open_merit", 3]]
    prefs = {"B0": ["X"], "B1": ["Y"], "B2": ["Y"]}
    listed, gone, parts = {"B2": "reserve"}, {"B0": "declined"}, {"B2": "UR"}
    pol, prob, rows, alloc = recruitment(tmp_path, prefs, before)
    done = fill(pol, prob, rows, listed, gone, "greedy", parts=parts)
    assert [(r[0], r[1]) for r in done.rows] == [("B2", "X")]
    assert judged(tmp_path, pol, prob, alloc, listed, gone, done.rows, "f.csv") == []
    assert judged(tmp_path, pol, prob, alloc, listed, gone, [], "g.csv") == \
        ["a UR vacancy at X is left unfilled while B2 of the reserve list could take it"]
    pol, prob, rows, alloc = recruitment(tmp_path, prefs, before, ["migration.allocate_unranked=false"])
    assert fill(pol, prob, rows, listed, gone, "greedy", parts=parts).rows == []
    assert judged(tmp_path, pol, prob, alloc, listed, gone, [], "g.csv") == []
