"""Several merit lists across recruitment years: a year folder's ranks.csv is read by `simulate` and `sweep --years`
(docs/formats.md, "Year folders"), and a reserved vacancy left unfilled on a post's own list is carried as backlog
and filled the next year, or by the year's special round, on that list. central-dopt: no same-year exchange or de-reservation in direct
recruitment; an unfilled reserved vacancy stays backlog (DoPT OM 20.07.2000, the model's `[unfilled]` source).
Each answer is worked by hand."""
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver.cli import app

# Own merit (Paper-I): A 100, B 90, C 80 (OBC), D 70, E 65 (SC). AAO ranks on Paper-I, JSO on Paper-II.
CANDS = [["A", 100, "UR"], ["B", 90, "UR"], ["C", 80, "OBC"], ["D", 70, "UR"], ["E", 65, "SC"]]
PREFS = {"A": ["JSO", "AAO"], "B": ["JSO", "AAO"], "C": ["JSO", "AAO"], "D": ["AAO", "JSO"], "E": ["JSO"]}
YEARS = {
    # 2025: E did not sit Paper-II, so no SC candidate is on JSO's list and its SC vacancy goes unfilled.
    2025: ([["AAO", "UR", 1, ""], ["JSO", "UR", 1, "paper2"], ["JSO", "SC", 1, "paper2"]],
           [["D", "paper2", 1], ["C", "paper2", 2], ["B", "paper2", 3], ["A", "paper2", 4]]),
    # 2026: no fresh SC vacancy; E is 2nd on Paper-II.
    2026: ([["AAO", "UR", 1, ""], ["JSO", "UR", 1, "paper2"]],
           [["D", "paper2", 1], ["E", "paper2", 2], ["C", "paper2", 3], ["B", "paper2", 4], ["A", "paper2", 5]]),
}


def years(folder):
    for year, (vacs, ranks) in YEARS.items():
        d = folder / str(year)
        d.mkdir(parents=True)
        write_csv(d / "candidates.csv", ["id", "score", "category"], CANDS)
        write_csv(d / "vacancies.csv", ["post", "category", "vacancies", "merit_list"], vacs)
        write_csv(d / "ranks.csv", ["candidate_id", "list", "rank"], ranks)
        write_csv(d / "preferences.csv", ["candidate_id", "order", "post"],
                  [[cid, k + 1, post] for cid, posts in PREFS.items() for k, post in enumerate(posts)])
    return folder


def test_simulate_reads_each_years_lists_and_carries_the_backlog_on_the_posts_list(tmp_path):
    """2025, deferred acceptance: JSO's UR seat goes to C (2nd on Paper-II) among A, B, C, then to D (1st) when
    A takes AAO from him on Paper-I; B and C find AAO held by A; E is on no Paper-II list, so JSO's SC vacancy is
    unfilled and carried as backlog. 2026: E, 2nd on Paper-II, takes the carried SC vacancy at JSO. Both engines."""
    yrs = years(tmp_path / "years")
    r = CliRunner().invoke(app, ["simulate", "--policy", "central-dopt", "--years", str(yrs), "--register",
                                 str(tmp_path / "reg.sqlite"), "--engine", "both", "--out", str(tmp_path / "sim")])
    assert r.exit_code == 0, r.output
    held = {y: {(x["candidate_id"], x["post"], x["seat_category"]) for x in read_csv(tmp_path / "sim" / y /
                                                                                    "allocation.csv")}
            for y in ("2025", "2026")}
    assert held["2025"] == {("A", "AAO", "UR"), ("D", "JSO", "UR")}
    assert held["2026"] == {("A", "AAO", "UR"), ("D", "JSO", "UR"), ("E", "JSO", "SC")}
    sc = {x["year"]: x for x in read_csv(tmp_path / "sim" / "simulation.csv") if x["category"] == "SC"}
    assert (sc["2025"]["filled"], sc["2025"]["carried_out"]) == ("0", "1")
    assert (sc["2026"]["carried_in"], sc["2026"]["filled"], sc["2026"]["engine_differences"]) == ("1", "1", "0")


def test_sweep_over_years_reads_each_years_lists(tmp_path):
    """The same years swept: JSO's SC row is backlog in 2025 and filled from the carried vacancy in 2026, its
    last rank E's place on Paper-II (2), not on the candidates' own merit (5)."""
    yrs = years(tmp_path / "years")
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", "--years", str(yrs), "--grid",
                                 "ceiling.share=0.5", "--out", str(tmp_path / "sw")])
    assert r.exit_code == 0, r.output
    jso_sc = {x["year"]: x for x in read_csv(tmp_path / "sw" / "results.csv")
              if (x["post"], x["category"]) == ("JSO", "SC")}
    assert (jso_sc["2025"]["filled"], jso_sc["2025"]["unfilled_backlog"]) == ("0", "1")
    assert (jso_sc["2026"]["carried_in"], jso_sc["2026"]["filled"], jso_sc["2026"]["last_rank"]) == ("1", "1", "2")


def test_a_special_round_ranks_the_backlog_by_the_posts_list(tmp_path):
    """After 2025's first round (JSO's SC vacancy unfilled: no SC candidate on Paper-II), a special round for
    the SC backlog (central-dopt's special recruitment, DoPT practice as the model cites it: reserved candidates
    for the backlog only) of E (65) and F (60),
    both SC, both wanting JSO; on Paper-II F is 1st and E 2nd. JSO ranks on Paper-II, so F takes the vacancy.
    The round rebuilt the advertised rows without their list, and E took it on the candidates' own merit, which
    verify (reading the round the same way) accepted; verify now finds E there to be envy by F."""
    d = years(tmp_path / "years") / "2025"
    reg = str(tmp_path / "reg.sqlite")
    first = ["--policy", "central-dopt", "--candidates", str(d / "candidates.csv"), "--vacancies",
             str(d / "vacancies.csv"), "--preferences", str(d / "preferences.csv"), "--ranks", str(d / "ranks.csv")]
    r = CliRunner().invoke(app, ["solve", *first, "--register", reg, "--year", "2025", "--quiet", "--out",
                                 str(tmp_path / "m")])
    assert r.exit_code == 0, r.output
    write_csv(tmp_path / "sc.csv", ["id", "score", "category"], [["E", 65, "SC"], ["F", 60, "SC"]])
    write_csv(tmp_path / "sv.csv", ["post", "category", "vacancies", "merit_list"], [["JSO", "SC", 1, "paper2"]])
    write_csv(tmp_path / "sr.csv", ["candidate_id", "list", "rank"], [["F", "paper2", 1], ["E", "paper2", 2]])
    write_csv(tmp_path / "sp.csv", ["candidate_id", "order", "post"], [["E", 1, "JSO"], ["F", 1, "JSO"]])
    special = ["--policy", "central-dopt", "--candidates", str(tmp_path / "sc.csv"), "--vacancies",
               str(tmp_path / "sv.csv"), "--preferences", str(tmp_path / "sp.csv"), "--ranks", str(tmp_path / "sr.csv"),
               "--register", reg, "--year", "2025", "--round", "special"]
    r = CliRunner().invoke(app, ["solve", *special, "--engine", "both", "--quiet", "--out", str(tmp_path / "s")])
    assert r.exit_code == 0, r.output
    assert [(x["candidate_id"], x["post"], x["seat_category"]) for x in read_csv(tmp_path / "s" / "allocation.csv")] \
        == [("F", "JSO", "SC")]
    r = CliRunner().invoke(app, ["verify", *special, "--allocation", str(tmp_path / "s" / "allocation.csv")])
    assert r.exit_code == 0, r.output
    write_csv(tmp_path / "e.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [["E", "JSO", "SC", "SC", "", "reserved"]])
    r = CliRunner().invoke(app, ["verify", *special, "--allocation", str(tmp_path / "e.csv")])
    assert r.exit_code == 1 and "justified envy,F,JSO" in r.output and "list paper2" in r.output, r.output
