"""Recruitment years written as folders and run from the command line against one register: the helpers the
register's, the Acts' and the robustness tests share."""
import sqlite3

from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver.cli import app


def dump(path):
    """Every row of every table, to compare registers."""
    db = sqlite3.connect(path)
    out = {t: db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
           for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    out["version"] = db.execute("PRAGMA user_version").fetchone()
    db.close()
    return out


def year_folder(root, year, cands, vacs):
    d = root / str(year)
    d.mkdir(parents=True)
    write_csv(d / "candidates.csv", ["id", "rank", "category", "gender"], cands)
    write_csv(d / "vacancies.csv", ["post", "category", "vacancies"], vacs)
    return d


def simulate(tmp_path, policy, engine="both", *sets):
    args = ["simulate", "--policy", policy, "--years", str(tmp_path / "years"), "--register",
            str(tmp_path / "reg.sqlite"), "--out", str(tmp_path / "out"), "--engine", engine]
    for s in sets:
        args += ["--set", s]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    return {(int(row["year"]), row["category"]): row for row in read_csv(tmp_path / "out" / "simulation.csv")}


def verify_year(tmp_path, policy, year, *sets):
    folder = tmp_path / "years" / str(year)
    prefs = ["--preferences", str(folder / "preferences.csv")] if (folder / "preferences.csv").exists() else []
    r = CliRunner().invoke(app, ["verify", "--policy", policy, *[x for s in sets for x in ("--set", s)], "--candidates",
                                 str(folder / "candidates.csv"), "--vacancies", str(folder / "vacancies.csv"), *prefs,
                                 "--allocation", str(tmp_path / "out" / str(year) / "allocation.csv"), "--register",
                                 str(tmp_path / "reg.sqlite"), "--year", str(year)])
    return r


def pwbd_year(root, year, disabilities):
    """Two open vacancies, one of them for PwBD sub-category (a) (share 0.5 here so that a two-post year has
    one); candidates M1, M2 without disability, then one per listed sub-category."""
    d = root / "years" / str(year)
    d.mkdir(parents=True)
    cands = [[f"M1-{year}", 1, "UR", "M", ""], [f"M2-{year}", 2, "UR", "M", ""]]
    cands += [[f"P{s}-{year}", 3 + k, "UR", "M", s] for k, s in enumerate(disabilities)]
    write_csv(d / "candidates.csv", ["id", "rank", "category", "gender", "pwbd"], cands)
    write_csv(d / "vacancies.csv", ["post", "category", "vacancies"], [["X", "UR", 2]])
