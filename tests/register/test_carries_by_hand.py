"""What a year carries, derived by hand from the rules' words, under a recommendation list (upsc-cse) and one
cadre (central-dopt); and `verify --register` refusing a register that carries a filled vacancy.

The rule: only a vacancy "which remains unfilled" is carried forward (DoPT OM 20.07.2000: unfilled reserved
vacancies are backlog, "a separate and distinct group"); a filled one never is, by whatever route it was filled.
After a recommendation list (CSE Rule 16(2); Union of India v. Ramesh Ram 2010) the reserved-selected are
placed after every open-selected candidate, and an open-selected reserved candidate may take a vacancy of his
own category at a service he prefers (an upgrade, counted as reserved under upsc-cse)."""
import sqlite3

import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner
from years import simulate, verify_year, year_folder

from solver.cli import app

SERVICES = ["IAS", "IPS", "IRS"]


def prefs(folder, ids, services=SERVICES):
    write_csv(folder / "preferences.csv", ["candidate_id", "order", "post"],
              [(i, k, s) for i in ids for k, s in enumerate(services, 1)])


def carried_after(tmp_path, year):
    """What carried.csv says the year carries out: its own vacancies left ("carried") and older ones left again
    ("unfilled")."""
    return sorted((r["post"], r["category"], r["origin_year"]) for r in
                  read_csv(tmp_path / "out" / str(year) / "carried.csv") if r["event"] in ("carried", "unfilled"))


def upsc_years(tmp_path):
    """2021: IAS, IPS and IRS each 1 UR and 1 SC. A (UR) 1st, B (SC) 2nd, C (UR) 3rd, G (SC) 4th, all preferring
    IAS, IPS, IRS. The list: UR places A, B (on merit), C; SC places G alone. Services: A takes IAS UR; B, open-
    selected, finds IAS UR taken and upgrades to IAS SC (Rule 16(2)); C takes IPS UR; G, reserved-selected, comes
    after them all: IAS SC is B's, so IPS SC. IRS UR (open: lapses) and IRS SC are left: one SC vacancy carried,
    at IRS. 2022: IRS 1 UR and the carried SC vacancy; F (UR) 1st takes IRS UR, E (SC) 2nd the carried SC."""
    d = year_folder(tmp_path / "years", 2021, [("A", 1, "UR", "M"), ("B", 2, "SC", "M"), ("C", 3, "UR", "F"),
                                                ("G", 4, "SC", "F")],
                    [(s, code, 1) for s in SERVICES for code in ("UR", "SC")])
    prefs(d, "ABCG")
    d = year_folder(tmp_path / "years", 2022, [("F", 1, "UR", "M"), ("E", 2, "SC", "F")], [("IRS", "UR", 1)])
    prefs(d, "FE", ["IRS"])


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_a_recommendation_list_carries_only_what_it_left_empty(tmp_path, engine):
    upsc_years(tmp_path)
    table = simulate(tmp_path, "upsc-cse", engine)
    alloc = {r["candidate_id"]: (r["post"], r["seat_category"], r["route"])
             for r in read_csv(tmp_path / "out" / "2021" / "allocation.csv")}
    assert alloc == {"A": ("IAS", "UR", "open_merit"), "B": ("IAS", "SC", "upgrade"),
                     "C": ("IPS", "UR", "open_merit"), "G": ("IPS", "SC", "reserved")}
    assert carried_after(tmp_path, 2021) == [("IRS", "SC", "2021")]
    assert (table[(2021, "SC")]["filled"], table[(2021, "SC")]["carried_out"]) == ("2", "1")
    alloc = {r["candidate_id"]: (r["post"], r["seat_category"])
             for r in read_csv(tmp_path / "out" / "2022" / "allocation.csv")}
    assert alloc == {"F": ("IRS", "UR"), "E": ("IRS", "SC")}
    assert table[(2022, "SC")]["carried_in"] == "1" and table[(2022, "SC")]["carried_out"] == "0"
    assert carried_after(tmp_path, 2022) == []
    for year in (2021, 2022):
        r = verify_year(tmp_path, "upsc-cse", year)
        assert r.exit_code == 0, r.output


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_one_cadre_carries_a_backlog_until_its_own_member_fills_it(tmp_path, engine):
    """central-dopt, one post P. 2021: 2 UR, 1 SC, 1 OBC; A (UR) 1st, B (SC) 2nd, C (UR) 3rd, D (OBC) 4th. Open
    first: A and B take the UR vacancies, C none, D the OBC one; the SC vacancy has no SC candidate left and is
    carried (no de-reservation: DoPT OM 20.07.2000). 2022: 1 UR and the backlog; E (SC) 1st takes the open vacancy
    on merit and no other SC candidate applies: the backlog is carried on, still of 2021. 2023: 1 UR and the
    backlog; G (UR) 1st, H (SC) 2nd: H fills it."""
    year_folder(tmp_path / "years", 2021, [("A", 1, "UR", "M"), ("B", 2, "SC", "M"), ("C", 3, "UR", "F"),
                                           ("D", 4, "OBC", "F")], [("P", "UR", 2), ("P", "SC", 1), ("P", "OBC", 1)])
    year_folder(tmp_path / "years", 2022, [("E", 1, "SC", "M"), ("X", 2, "UR", "M")], [("P", "UR", 1)])
    year_folder(tmp_path / "years", 2023, [("G", 1, "UR", "M"), ("H", 2, "SC", "F")], [("P", "UR", 1)])
    table = simulate(tmp_path, "central-dopt", engine)
    assert carried_after(tmp_path, 2021) == [("P", "SC", "2021")]
    held = {r["candidate_id"]: r["seat_category"] for r in read_csv(tmp_path / "out" / "2022" / "allocation.csv")}
    assert held == {"E": "UR"}
    assert carried_after(tmp_path, 2022) == [("P", "SC", "2021")]
    held = {r["candidate_id"]: r["seat_category"] for r in read_csv(tmp_path / "out" / "2023" / "allocation.csv")}
    assert held == {"G": "UR", "H": "SC"}
    assert carried_after(tmp_path, 2023) == []
    assert [table[(y, "SC")]["carried_out"] for y in (2021, 2022, 2023)] == ["1", "1", "0"]
    assert [table[(y, "SC")]["carried_in"] for y in (2021, 2022, 2023)] == ["0", "1", "1"]
    for year in (2021, 2022, 2023):
        r = verify_year(tmp_path, "central-dopt", year)
        assert r.exit_code == 0, r.output


def plant(tmp_path, post, code, year):
    """A vacancy the register carries out of `year` though the year filled it."""
    db = sqlite3.connect(tmp_path / "reg.sqlite")
    with db:
        k = db.execute("INSERT INTO items (post, category, origin_year, kind) VALUES (?, ?, ?, 'vacancy')",
                       (post, code, year)).lastrowid
        db.execute("INSERT INTO events (item_id, year, event, detail) VALUES (?, ?, 'carried', 'planted')", (k, year))
    db.close()


def test_verify_register_refuses_a_filled_vacancy_carried(tmp_path):
    """G holds IPS's SC vacancy in 2021: a register that also carries it (what the register wrote for every
    reserved-selected appointee of a recommendation list, when it counted only phase 0's pools) is refused,
    naming the post and the counts."""
    upsc_years(tmp_path)
    simulate(tmp_path, "upsc-cse", "greedy")
    plant(tmp_path, "IPS", "SC", 2021)
    r = verify_year(tmp_path, "upsc-cse", 2021)
    assert r.exit_code == 1
    assert "carried forward,,IPS,the register carries 1 SC vacancies out of 2021 where the allocation left 0" in r.output


def test_verify_register_refuses_a_backlog_dropped(tmp_path):
    """The SC vacancy left empty in 2021 must be carried (DoPT OM 20.07.2000): a register that closed it as
    filled is refused."""
    upsc_years(tmp_path)
    simulate(tmp_path, "upsc-cse", "greedy")
    db = sqlite3.connect(tmp_path / "reg.sqlite")
    with db:
        db.execute("UPDATE items SET closed_year = 2021 WHERE post = 'IRS' AND category = 'SC'")
        db.execute("INSERT INTO events (item_id, year, event) SELECT id, 2021, 'filled' FROM items WHERE "
                   "post = 'IRS' AND category = 'SC'")
    db.close()
    r = verify_year(tmp_path, "upsc-cse", 2021)
    assert r.exit_code == 1
    assert "the register carries 0 SC vacancies out of 2021 where 1 were due" in r.output


def test_verify_register_says_when_the_year_is_not_recorded(tmp_path):
    upsc_years(tmp_path)
    simulate(tmp_path, "upsc-cse", "greedy")
    out = tmp_path / "out" / "2021"
    r = CliRunner().invoke(app, ["verify", "--policy", "upsc-cse", "--candidates",
                                 str(tmp_path / "years" / "2021" / "candidates.csv"), "--vacancies",
                                 str(tmp_path / "years" / "2021" / "vacancies.csv"), "--preferences",
                                 str(tmp_path / "years" / "2021" / "preferences.csv"), "--allocation",
                                 str(out / "allocation.csv"), "--register", str(tmp_path / "reg.sqlite"),
                                 "--year", "2030"])
    assert "does not record 2030" in r.output
