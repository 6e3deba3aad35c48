"""Rosters: DoPT OM 02.07.1997 (post-based rosters), R.K. Sabharwal v. State of Punjab 1995."""
from solver import load_policy
from solver.vacancy import roster


def points_of(r, code):
    return [k + 1 for k, c in enumerate(r) if c == code]


def test_twenty_post_cadre_anchor():
    """RULES.md: with SC 15, ST 7.5, OBC 27 a 20-post cadre reserves OBC 4,8,12,16,19; SC 7,15,20; ST 14."""
    r = roster(load_policy("central-2004"), 20)
    assert points_of(r, "OBC") == [4, 8, 12, 16, 19]
    assert points_of(r, "SC") == [7, 15, 20]
    assert points_of(r, "ST") == [14]


def test_fifteen_post_cadre_reserved_points():
    r = roster(load_policy("central-2004"), 15)
    assert [k + 1 for k, c in enumerate(r) if c != "UR"] == [4, 7, 8, 12, 14, 15]


def test_policy_order_tie_differs_from_dopt():
    """The tie option is real: policy order would give point 14 to SC, not ST."""
    r = roster(load_policy("central-2004", ["roster.tie=\"policy_order\""]), 20)
    assert 14 in points_of(r, "SC")


def test_shares_respected_over_a_long_roster():
    pol = load_policy("bihar-1991")
    r = roster(pol, 100)
    for c in pol.categories:
        assert abs(r.count(c.code) - c.share * 100) <= 1


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
    from solver.vacancy import determine_seats
    pol = load_policy("central-2004")
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], [["A", 1, "UR"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 40], ["Y", "TOTAL", 20]])
    seats = determine_seats(pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv"))
    write_csv(tmp_path / "v2.csv", ["post", "category", "vacancies"], seats.rows())
    again = determine_seats(pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v2.csv"))
    assert again.seats == seats.seats and sum(seats.seats.values()) == 60
