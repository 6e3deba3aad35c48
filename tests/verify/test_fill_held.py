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


def recruitment(tmp_path, prefs, before, sets=(), cands=CANDS, policy="upsc-cse"):
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "pwbd"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["Y", "UR", 1]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    write_csv(tmp_path / "before.csv", HEAD, before)
    pol = load_policy(policy, list(sets))
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
    assert done.unfilled == [["X", "UR", 1, 0, 1, "held_vacant"]]     # (kept for a PwBD candidate, and carried)
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
    assert [(r[0], r[1]) for r in done.rows] == [("B3", "X")] and done.unfilled == [["X", "UR", 1, 1, 0, ""]]
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
    for listed, want, x_left in (({"B2": "reserve", "B3": "reserve"}, [("B2", "Y"), ("B3", "X")], []),
                                 ({"B2": "reserve"}, [("B2", "Y")], [["X", "UR", 1, 0, 1, "unfilled"]])):
        parts = {cid: "UR" for cid in listed}
        done = fill(pol, prob, before, listed, gone, "greedy", parts=parts)
        assert sorted((r[0], r[1]) for r in done.rows) == want
        assert [r for r in done.unfilled if r[4]] == x_left     # (not held: it reverted, and is only unfilled)
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


def test_the_vacancy_a_non_pwbd_filler_takes_is_the_one_not_held(tmp_path):
    """At X, A1 (PwBD, on the minimum's seat) and B1 (not) both decline; B2 alone is on the list. He fills one
    vacancy, B1's: A1's is kept for a PwBD candidate. unfilled.csv says so (`held_vacant`), whichever of the
    two came first in merit, and filled_from_reserve.csv pairs B2 with B1's."""
    before = [["A1", "X", "UR", "UR", "pwbd_a", "open_merit", 1], ["B1", "X", "UR", "UR", "", "open_merit", 3]]
    pol, prob, rows, alloc = recruitment(tmp_path, {"A1": ["X"], "B1": ["X"], "B2": ["X", "Y"]}, before)
    listed, gone = {"B2": "reserve"}, {"A1": "declined", "B1": "declined"}
    done = fill(pol, prob, rows, listed, gone, "greedy", parts={"B2": "UR"})
    assert [(r[0], r[1]) for r in done.rows] == [("B2", "X")]
    assert done.unfilled == [["X", "UR", 2, 1, 1, "held_vacant"]]
    assert [(r[2], r[6]) for r in done.report if r[2]] == [("B2", "B1")]
    assert judged(tmp_path, pol, prob, alloc, listed, gone, done.rows, "f.csv") == []


def test_the_commands_keep_and_say_a_held_vacancy(tmp_path):
    """End to end under upsc-cse: five candidates for X (three UR vacancies, one of them PwBD's, and one OBC).
    The list recommends O1 (OBC, on general merit), B1 and, for the PwBD minimum, A1 by adjustment over B2; the
    reserve list's general part is B2 (one, as O1 is the one reserved candidate recommended on general merit).
    A1 declines: `fill` keeps his vacancy for a PwBD candidate and says so, unfilled.csv has `held_vacant`, and
    `verify --stage fill` accepts it and rejects B2 planted on it."""
    import json

    from typer.testing import CliRunner

    from conftest import read_csv
    from solver.cli import app
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "pwbd"],
              [["O1", 100, "OBC", ""], ["B1", 90, "UR", ""], ["B2", 80, "UR", ""], ["A1", 60, "UR", "a"],
               ["O2", 50, "OBC", ""]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "pwbd"], [["X", "UR", 3, 1], ["X", "OBC", 1, 0]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], [[c, 1, "X"] for c in ("O1", "B1", "B2", "A1", "O2")])
    write_csv(tmp_path / "d.csv", ["candidate_id", "reason"], [["A1", "declined"]])
    files = ["--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"),
             "--preferences", str(tmp_path / "p.csv")]
    r = CliRunner()
    res = r.invoke(app, ["solve", *files, "--out", str(tmp_path / "out"), "--reserve-list", "--quiet"])
    assert res.exit_code == 0, res.output
    assert [(x["candidate_id"], x["route"]) for x in read_csv(tmp_path / "out" / "allocation.csv")
            if x["horizontal"]] == [("A1", "horizontal_adjustment")]
    assert [x["candidate_id"] for x in read_csv(tmp_path / "out" / "reserve_list.csv")] == ["B2"]
    res = r.invoke(app, ["fill", "--result", str(tmp_path / "out"), "--declined", str(tmp_path / "d.csv"),
                         "--out", str(tmp_path / "f")])
    assert res.exit_code == 0, res.output
    assert "1 kept vacant for a held horizontal minimum" in " ".join(res.output.split())
    assert read_csv(tmp_path / "f" / "allocation.csv") == []
    summary = json.loads((tmp_path / "f" / "summary.json").read_text())
    assert (summary["vacated"], summary["filled"], summary["held_vacant"]) == (1, 0, 1)
    assert [list(x.values()) for x in read_csv(tmp_path / "f" / "unfilled.csv")] == [["X", "UR", "1", "0", "1", "held_vacant"]]
    check = ["verify", *files, "--allocation", str(tmp_path / "out" / "allocation.csv"), "--reserve-list",
             str(tmp_path / "out" / "reserve_list.csv"), "--stage", "fill", "--declined", str(tmp_path / "d.csv")]
    assert r.invoke(app, [*check, "--fill", str(tmp_path / "f" / "allocation.csv")]).exit_code == 0
    write_csv(tmp_path / "planted.csv", HEAD, [["B2", "X", "UR", "UR", "", "open_merit", 3]])
    res = r.invoke(app, [*check, "--fill", str(tmp_path / "planted.csv")])
    assert res.exit_code == 1 and "held horizontal seat filled by another" in " ".join(res.output.split())


def test_central_dopt_keeps_it_too(tmp_path):
    """central-dopt holds PwBD seats as well (no recommendation list): the same decline leaves X's vacancy kept
    for a PwBD candidate, and verify accepts that (it had rejected it, the fill with held seats being read as
    open to B2). Without `held` it reverts to B2, and leaving it is named."""
    prefs = {"A1": ["X"], "B1": ["Y"], "B2": ["X", "Y"]}
    listed, gone, parts = {"B2": "reserve"}, {"A1": "declined"}, {"B2": "UR"}
    pol, prob, before, alloc = recruitment(tmp_path, prefs, PWBD_AT_X, policy="central-dopt")
    done = fill(pol, prob, before, listed, gone, "greedy", parts=parts)
    assert done.rows == [] and done.unfilled == [["X", "UR", 1, 0, 1, "held_vacant"]]
    assert judged(tmp_path, pol, prob, alloc, listed, gone, [], "f.csv") == []
    planted = judged(tmp_path, pol, prob, alloc, listed, gone, [["B2", "X", "UR", "UR", "", "open_merit", 4]], "g.csv")
    assert len(planted) == 1 and "held horizontal seat filled by another" in planted[0]
    pol, prob, before, alloc = recruitment(tmp_path, prefs, PWBD_AT_X, ["horizontal.held=[]"], policy="central-dopt")
    done = fill(pol, prob, before, listed, gone, "greedy", parts=parts)
    assert [(r[0], r[1]) for r in done.rows] == [("B2", "X")]
    assert judged(tmp_path, pol, prob, alloc, listed, gone, [], "g.csv") == \
        ["a UR vacancy at X is left unfilled while B2 of the reserve list could take it"]
