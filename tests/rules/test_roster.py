"""Rosters: DoPT OM 02.07.1997 (post-based rosters), R.K. Sabharwal v. State of Punjab 1995."""
import math
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from solver import load_policy
from solver.chain.vacancy import roster


def points_of(r, code):
    return [k + 1 for k, c in enumerate(r) if c == code]


def test_twenty_post_cadre_anchor():
    """RULES.md: with SC 15, ST 7.5, OBC 27 a 20-post cadre reserves OBC 4,8,12,16,19; SC 7,15,20; ST 14."""
    r = roster(load_policy("central-2004"), 20)
    assert points_of(r, "OBC") == [4, 8, 12, 16, 19]
    assert points_of(r, "SC") == [7, 15, 20]
    assert points_of(r, "ST") == [14]


def test_fifteen_post_cadre_reaches_its_shares():
    """A 15-point roster ends with floor(15 x share) each: SC 2, ST 1, OBC 4 (R.K. Sabharwal 1995). The plain
    due-point rule gave OBC's fourth point, due at 15 with SC's second, to nobody; now the points owed at the
    end are given from point 13 on, the soonest due first."""
    r = roster(load_policy("central-2004"), 15)
    assert (r.count("SC"), r.count("ST"), r.count("OBC")) == (2, 1, 4)
    assert [k + 1 for k, c in enumerate(r) if c != "UR"] == [4, 7, 8, 12, 13, 14, 15]


@pytest.mark.parametrize("policy, points, expected", [
    # Bihar Act 1991 s.4(2): SC 16, ST 1, EBC 18, BC 12, WBC 3 of every 100 (was SC 15, EBC 17, BC 11, WBC 2).
    ("bihar-1991", 100, {"SC": 16, "ST": 1, "EBC": 18, "BC": 12, "WBC": 3, "UR": 50}),
    # DoPT OM 02.07.1997 with EWS (OM 31.01.2019): the 200-point roster's 30, 15, 54, 20.
    ("central-dopt", 200, {"SC": 30, "ST": 15, "OBC": 54, "EWS": 20, "UR": 81}),
    # Maharashtra Act 2001 s.4(2): 52% of 200 is 104; NT-B's 2.5 and NT-C's 3.5 of each 100 catch up in the
    # second cycle.
    ("maharashtra-2001", 200, {"SC": 26, "ST": 14, "DT-A": 6, "NT-B": 5, "NT-C": 7, "NT-D": 4, "SBC": 4,
                               "OBC": 38, "UR": 96}),
])
def test_published_rosters_reach_their_shares(policy, points, expected):
    from solver.chain.vacancy import running
    pol = load_policy(policy)
    assert dict(Counter(running(pol, 1, points))) == expected


def test_twenty_post_anchors_hold_in_the_200_point_roster():
    """DoPT OM 02.07.1997: the 200-point roster begins with the 20-point anchors."""
    r = roster(load_policy("central-2004"), 200)[:20]
    assert points_of(r, "OBC") == [4, 8, 12, 16, 19] and points_of(r, "SC") == [7, 15, 20]
    assert points_of(r, "ST") == [14]


def _policy(shares, tie):
    from solver.policy import Policy
    return Policy.model_validate({"name": "t", "source": "t", "roster": {"tie": tie},
                                  "categories": [{"code": f"R{k}", "share": x} for k, x in enumerate(shares)]})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 400), min_size=1, max_size=6).filter(lambda xs: sum(xs) <= 1000),
       st.integers(1, 250), st.integers(1, 3), st.sampled_from(["relative_deficit", "policy_order",
                                                                 "largest_deficit"]))
def test_every_cycle_ends_at_its_shares(permille, cycle, cycles, tie):
    """Property (R.K. Sabharwal 1995; DoPT OM 02.07.1997): at the end of every cycle of a running roster each
    category holds exactly floor(points so far x share); no point is ever past that; and a point goes to the
    open category only while the reserved points still owed leave room for it. Exactness needs each cycle to
    have at least as many unreserved points as categories (a cycle's dues can exceed its share by one point
    per category: 4 categories of 11.2% owe 4 points in the third 3-point cycle); every model's roster does
    (Bihar: 50 unreserved points for 5 categories)."""
    from solver.chain.vacancy import running
    shares = [x / 1000 for x in permille]
    pol = _policy(shares, tie)
    seq = running(pol.model_copy(update={"roster": pol.roster.model_copy(update={"points": cycle})}), 1,
                  cycle * cycles)
    held = dict.fromkeys(pol.reserved_codes, 0)
    for n, code in enumerate(seq, 1):
        end = -(-n // cycle) * cycle
        quota = {f"R{k}": math.floor(end * x + 1e-9) for k, x in enumerate(shares)}
        owed = sum(quota[c] - held[c] for c in held)
        if code == "UR":
            assert owed < end - n + 1, (n, held)
        else:
            held[code] += 1
            assert held[code] <= quota[code], (n, code)
        if n == end and cycle * (1000 - sum(permille)) >= 1000 * len(shares):
            assert held == quota, n


def test_policy_order_tie_differs_from_dopt():
    """The tie option is real: policy order would give point 14 to SC, not ST."""
    r = roster(load_policy("central-2004", ["roster.tie=\"policy_order\""]), 20)
    assert 14 in points_of(r, "SC")


def test_roster_cli_points_count_on_through_cycles():
    from typer.testing import CliRunner
    from solver.cli import app
    from solver.chain.vacancy import running
    out = CliRunner().invoke(app, ["roster", "--policy", "central-2004", "--points", "3", "--start", "199"])
    assert out.exit_code == 0 and out.stdout.splitlines()[1:] == [
        ",".join((str(p), c)) for p, c in zip((199, 200, 201), running(load_policy("central-2004"), 1, 201)[198:])]
    huge = CliRunner().invoke(app, ["roster", "--policy", "central-2004", "--points", "100000000"])
    assert huge.exit_code == 2 and "--points" in huge.output


def test_roster_cli(capsys):
    from typer.testing import CliRunner
    from solver.cli import app
    out = CliRunner().invoke(app, ["roster", "--policy", "central-2004", "--points", "20"])
    assert out.exit_code == 0
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "point,category" and lines[14] == "14,ST" and len(lines) == 21


def test_seat_table_inverse_round_trips(tmp_path):
    """Vacancy determination's inverse: per-category rows read back determine the same seats."""
    from conftest import write_csv
    from solver.io.readers import read_problem
    from solver.chain.vacancy import determine_seats
    pol = load_policy("central-2004")
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], [["A", 1, "UR"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 40], ["Y", "TOTAL", 20]])
    seats = determine_seats(pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv"))
    write_csv(tmp_path / "v2.csv", ["post", "category", "vacancies"], seats.rows())
    again = determine_seats(pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v2.csv"))
    assert again.seats == seats.seats and sum(seats.seats.values()) == 60
