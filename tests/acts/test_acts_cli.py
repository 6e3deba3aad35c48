"""The Acts' systems end to end from the command line: solve with both engines, then verify the written
allocation independently (exit 0), on the worked examples of test_castes, test_acts_years and test_manipur."""
from __future__ import annotations

from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver.cli import app


def _solve_and_verify(tmp_path, policy, sets=()):
    sets = sum((["--set", s] for s in sets), [])
    files = ["--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv")]
    r = CliRunner().invoke(app, ["solve", "--policy", policy, *files, "--out", str(tmp_path / "out"), "--engine",
                                 "both", "--quiet", *sets])
    assert r.exit_code == 0, r.output
    assert read_csv(tmp_path / "out" / "diff.csv") == []
    r = CliRunner().invoke(app, ["verify", "--policy", policy, *files, "--allocation",
                                 str(tmp_path / "out" / "allocation.csv"), *sets])
    assert r.exit_code == 0, r.output
    return {row["candidate_id"]: (row["seat_category"], row["route"])
            for row in read_csv(tmp_path / "out" / "allocation.csv")}


def test_castes_and_a_district_post_from_the_command_line(tmp_path):
    """Bihar, Clerk-Nawada, 5 vacancies split by Nawada's SC 25% and EBC 20% (s.4(2) first proviso): SC at point
    4, EBC at 5, UR 3. The candidates give castes, not categories: K1 is a Kahar (EBC, Schedule I no. 30), S2 is
    SC as given, T3 a Teli (BC, Schedule II no. 13), G4 Sang-Trash (EBC in Nawada only, Schedule I no. 76).
    Open first: K1, S2 and T3 take the open vacancies on merit; G4 the EBC vacancy, which only an EBC may hold;
    the SC vacancy has no SC candidate left and is kept."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "caste", "district"],
              [["K1", 1, "", "Kahar", "Nawada"], ["S2", 2, "SC", "", "Nawada"], ["T3", 3, "", "Teli", "Gaya"],
               ["G4", 4, "", "Sang-Trash", "Nawada"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "district"], [["Clerk-Nawada", "TOTAL", 5, "Nawada"]])
    got = _solve_and_verify(tmp_path, "bihar-1991",
                            ['districts.Nawada={shares={SC=0.25, EBC=0.2}, source="s.4(2) first proviso"}'])
    assert got == {"K1": ("UR", "open_merit"), "S2": ("UR", "open_merit"), "T3": ("UR", "open_merit"),
                   "G4": ("EBC", "reserved")}


def test_probation_from_the_command_line(tmp_path):
    """Manipur, a Class IV post (test_manipur's example): T3 is recruited on probation."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "failed_test"],
              [["U1", 1, "UR", ""], ["U5", 2, "UR", ""], ["S2", 3, "SC", ""], ["T3", 4, "ST", "true"],
               ["U6", 5, "UR", ""]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "post_class"],
              [["X", "UR", 2, "IV"], ["X", "SC", 1, "IV"], ["X", "ST", 1, "IV"]])
    assert _solve_and_verify(tmp_path, "manipur-1976")["T3"] == ("ST", "probation")
