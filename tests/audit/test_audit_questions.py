"""`audit --ask`: what a "no" names. A program asked about is any of its seat pools; a seat pool whose quota,
gender pool or trait bars the candidate is named as such, not as a post he did not rank (JoSAA Business Rules,
"Division of seats into program-sections", the HS/OS quotas and female-only seats as summarised in RULES.md;
josaa-2025's `[seat_pools]`); and under one strict merit list the rules named are those that keep the candidate
out: the capacities that candidates above him fill and, where he holds a seat he ranks higher, its
non-wastefulness (Saurav Yadav 2020), not a pool with room or one filled by candidates below him. Every answer
is worked by hand."""
import pytest

from conftest import write_csv
from solver import load_policy
from solver.audit import audit, parse
from solver.errors import OptionError
from solver.io.readers import read_problem


def _pools(tmp_path, cands, vacs, prefs):
    """cands: (id, rank, category, gender, pwbd, home_state); vacs: (post, category, vacancies, quota,
    gender_pool, trait, state); prefs: id -> programs in order. Under josaa-2025."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "gender", "pwbd", "home_state"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "quota", "gender_pool", "trait", "state"], vacs)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    pol = load_policy("josaa-2025")
    return pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")


def _answers(pol, prob, asks):
    found = audit(pol, prob, [parse(a, prob) for a in asks], [], lambda sets: load_policy("josaa-2025", sets))
    return {a["question"]: a for a in found.answers}


SOURCE = " (vacancies.csv quota, gender_pool and trait; the policy's seat_pools)"


@pytest.fixture
def market(tmp_path):
    """R has a gender-neutral and a female-only seat, Q a Karnataka HS seat, S one AI seat. A (a man of Karnataka,
    1st) ranks R, S; B (a woman of Maharashtra, 2nd) ranks R; C (a man of Maharashtra, 3rd) ranks Q, R, S; D (a man
    of Maharashtra, 4th) ranks R, S. In merit order: A takes R's neutral seat; B, tried for it first, takes R's
    female-only seat; C may not hold Q, finds R's neutral seat full and its female-only seat not his, and takes S;
    D finds R and S full. The allocation is the only stable one (one list)."""
    cands = [["A", 1, "OPEN", "M", "", "KA"], ["B", 2, "OPEN", "F", "", "MH"], ["C", 3, "OPEN", "M", "", "MH"],
             ["D", 4, "OPEN", "M", "", "MH"]]
    vacs = [["R", "OPEN", 1, "AI", "neutral", "", ""], ["R", "OPEN", 1, "AI", "female", "", ""],
            ["Q", "OPEN", 1, "HS", "neutral", "", "KA"], ["S", "OPEN", 1, "AI", "neutral", "", ""]]
    return _pools(tmp_path, cands, vacs, {"A": ["R", "S"], "B": ["R"], "C": ["Q", "R", "S"], "D": ["R", "S"]})


def test_a_program_asked_about_is_any_of_its_seat_pools(market):
    """B@R: yes, at R's female-only seat (the program, not its neutral pool alone). C@R: no, R's neutral seat
    goes to A above him and its female-only seat is not his. Asked by the pool's own name, R [female] alone."""
    pol, prob = market
    got = _answers(pol, prob, ["B@R", "C@R", "B@R [female]"])
    assert got["B@R"]["answer"] == "yes" and "B R [female] OPEN" in got["B@R"]["detail"]
    assert got["B@R [female]"]["answer"] == "yes"
    c = got["C@R"]
    assert c["answer"] == "no"
    assert c["blocking"] == "capacity[OPEN@R]; seat pool not open to him"
    assert c["detail"] == ("no: the 1 vacancies of OPEN@R (vacancies.csv) go to A (rank 1), eligible and ranked "
                           "above C (no justified envy: merit within the category; Indra Sawhney 1992); R [female]'s "
                           "seats are female-only" + SOURCE)


def test_a_seat_pool_barred_by_its_quota_is_named_so_not_as_unranked(market):
    """C ranked Q first, but Q's one seat is Karnataka's HS seat and C is of Maharashtra: the no says so (it
    said he did not rank it), asked by the program or by the pool."""
    pol, prob = market
    got = _answers(pol, prob, ["C@Q", "C@Q [HS]"])
    for q in ("C@Q", "C@Q [HS]"):
        assert got[q]["answer"] == "no" and got[q]["blocking"] == "seat pool not open to him"
        assert got[q]["detail"] == "no: Q [HS]'s seats are HS (for candidates from KA)" + SOURCE


def test_a_program_he_did_not_rank_is_still_told_so(market):
    """B ranked R only: S is not on her list, and nothing bars her from it but that."""
    pol, prob = market
    assert _answers(pol, prob, ["B@S"])["B@S"]["detail"] == "no: B did not rank S (SPEC.md preferences.csv)"


def test_asked_about_any_seat_a_no_names_the_programs_with_no_seat_open(tmp_path):
    """H has a Karnataka HS seat and an AI female-only seat, S one AI seat. M (Maharashtra, 1st) ranks S; N
    (a man of Maharashtra, 2nd) ranks H, S: S goes to M above him, and H has no seat open to him at all."""
    cands = [["M", 1, "OPEN", "M", "", "MH"], ["N", 2, "OPEN", "M", "", "MH"]]
    vacs = [["H", "OPEN", 1, "HS", "neutral", "", "KA"], ["H", "OPEN", 1, "AI", "female", "", "KA"],
            ["S", "OPEN", 1, "AI", "neutral", "", ""]]
    pol, prob = _pools(tmp_path, cands, vacs, {"M": ["S"], "N": ["H", "S"]})
    n = _answers(pol, prob, ["N"])["N"]
    assert n["answer"] == "no" and n["blocking"] == "capacity[OPEN@S]"
    assert n["detail"] == ("no: the 1 vacancies of OPEN@S (vacancies.csv) go to M (rank 1), eligible and ranked "
                           "above N (no justified envy: merit within the category; Indra Sawhney 1992); his 1st "
                           "choice H has no seat open to him: H's seats are female-only or HS (for candidates from KA)")


def test_an_unknown_program_is_refused_naming_programs_and_pools(market):
    pol, prob = market
    with pytest.raises(OptionError, match=r"no post 'X' in .*programs: R, Q, S; seat pools: R, R \[female\], Q \[HS\]"):
        parse("C@X", prob)


def _one_list(tmp_path, cands, vacs, prefs):
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], vacs)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    pol = load_policy("central-dopt")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    found = audit(pol, prob, [parse(a, prob) for a in ("A@Y", "B@X", "C@X")], [],
                  lambda sets: load_policy("central-dopt", sets))
    return {a["question"]: a for a in found.answers}


def test_one_list_names_only_the_rules_that_keep_the_candidate_out(tmp_path):
    """X and Y have one UR vacancy each and Z two. A (90) ranks X, Y; B (80) ranks X, Y, Z; C (70) ranks X, Z.
    Down the merit list: A takes X, B takes Y, C (X full) takes Z.
    - A@Y: A holds X, which he ranks above Y: moving him down would leave X, which he wants, to someone below
      him: X's non-wastefulness. Y's capacity does not keep him out (B, below him, holds it).
    - B@X: X is full with A above him: X's capacity. B holds Y, which he ranks below X: Y's non-wastefulness is
      not what keeps him out.
    - C@X: X's capacity (A above him); C holds Z, ranked below X."""
    got = _one_list(tmp_path, [["A", 90, "UR"], ["B", 80, "UR"], ["C", 70, "UR"]],
                    [["X", "UR", 1], ["Y", "UR", 1], ["Z", "UR", 2]],
                    {"A": ["X", "Y"], "B": ["X", "Y", "Z"], "C": ["X", "Z"]})
    assert {q: (a["answer"], a["blocking"]) for q, a in got.items()} == {
        "A@Y": ("no", "non_wastefulness[UR@X]"), "B@X": ("no", "capacity[UR@X]"), "C@X": ("no", "capacity[UR@X]")}
    assert got["A@Y"]["detail"] == ("no: UR@X may leave an eligible candidate who wants it out only when full, and A "
                                    "ranks within its cutoff (non-wastefulness; Saurav Yadav 2020)")
    assert got["B@X"]["detail"] == ("no: the 1 vacancies of UR@X (vacancies.csv) go to A (rank 1), eligible and "
                                    "ranked above B (no justified envy: merit within the category; Indra Sawhney "
                                    "1992)")
