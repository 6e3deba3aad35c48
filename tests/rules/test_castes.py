"""Caste schedules: Bihar Act 1991 s.2(j), Schedules I (Extremely Backward Classes) and II
(Backward Classes), entries limited to named districts or blocks, and the explanation: a class notified as SC
or ST is deemed deleted from the schedules. Each answer is read off the schedules' text
(models/bihar-1991-castes.csv mirrors it entry by entry)."""
from __future__ import annotations

import pytest
from conftest import write_csv

from solver import load_policy
from solver.errors import InputError
from solver.io.readers import read_candidates


def _read(tmp_path, rows, policy="bihar-1991", sets=()):
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "caste", "district", "block"], rows)
    c, _ = read_candidates(tmp_path / "c.csv", load_policy(policy, list(sets)))
    return dict(zip(c.ids, c.category))


def test_the_category_is_derived_from_the_caste_and_the_district(tmp_path):
    """Schedule I no. 30 "Chandrabansi (Kahar, Kamkar)": a Kahar is EBC; Schedule II no. 13 "Teli": BC; no. 76
    "Sang-Trash (For Nawada district only)": EBC in Nawada; "Kurmi" is II no. 35 (BC) in Patna, I no. 6 being
    for the Jharkhand Autonomous Area only; II no. 41 "Mararia (Muslim) (only for Sanhaula Block of Bhagalpur
    District ...)": BC in Sanhaula block. An SC candidate stays SC whatever caste is written."""
    got = _read(tmp_path, [["A", 1, "", "Kahar", "Patna", ""], ["B", 2, "", "Teli", "Gaya", ""],
                           ["C", 3, "", "Sang-Trash", "Nawada", ""], ["D", 4, "", "Kurmi", "Patna", ""],
                           ["E", 5, "", "Mararia (Muslim)", "Bhagalpur", "Sanhaula"], ["F", 6, "SC", "Kahar", "", ""]])
    assert got == {"A": "EBC", "B": "BC", "C": "EBC", "D": "BC", "E": "BC", "F": "SC"}


@pytest.mark.parametrize("row, column, message", [
    (["A", 1, "", "Sang-Trash", "Patna", ""], "4 (caste)", "only in Nawada"),
    (["A", 1, "", "Mararia (Muslim)", "Bhagalpur", ""], "4 (caste)", "give the candidate's block"),
    (["A", 1, "BC", "Kahar", "Patna", ""], "3 (category)", "Schedule I no. 30"),
    (["A", 1, "", "Bhat", "Patna", ""], "4 (caste)", "both schedules"),
    (["A", 1, "", "Brahmin", "Patna", ""], "4 (caste)", "in neither schedule"),
])
def test_what_the_schedules_contradict_is_an_input_error_naming_line_and_column(tmp_path, row, column, message):
    """A district-limited entry outside its district; a block-limited one without the block; a BC the schedule
    makes EBC; "Bhat", which is I no. 88 "Bhat (Muslim)" (EBC) and II no. 36 "Bhaat/Bhat/Brambhat/Rajbhat
    (Hindu)" (BC), unless written as the schedule writes it; a caste in neither schedule with no category."""
    with pytest.raises(InputError) as e:
        _read(tmp_path, [row])
    assert f"line 2, column {column}" in str(e.value) and message in str(e.value)
    if row[3] == "Bhat":
        assert _read(tmp_path, [["A", 1, "", "Bhat (Muslim)", "Patna", ""]]) == {"A": "EBC"}


def test_a_class_notified_as_sc_is_deemed_deleted_from_the_schedules(tmp_path):
    """s.2(j), explanation: a schedule entry marked notified_SC no longer makes anyone EBC."""
    write_csv(tmp_path / "s.csv", ["schedule", "number", "name", "category", "districts", "blocks", "status", "note"],
              [["I", 33, "Tanti (Tatwa)", "EBC", "", "", "notified_SC", "a Presidential order"]])
    with pytest.raises(InputError, match="deemed deleted from the schedules: notified as SC"):
        _read(tmp_path, [["A", 1, "EBC", "Tanti", "Patna", ""]], sets=[f'castes.file="{tmp_path / "s.csv"}"'])


def test_a_caste_under_a_policy_without_schedules_is_unused_or_bad_input(tmp_path):
    """The central Bill has no schedules of its own (OBC lists are notified, s.2(g)): with every category given
    the caste column is unused, and said to be; a candidate with a caste and no category is bad input (exit 2)
    naming the line and the category column."""
    warned = []
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "caste"], [["A", 1, "OBC", "Kahar"], ["B", 2, "UR", ""]])
    c, _ = read_candidates(tmp_path / "c.csv", load_policy("central-2004"), warned.append)
    assert list(c.category) == ["OBC", "UR"]
    assert any("caste column is not used" in w for w in warned)
    with pytest.raises(InputError, match="no caste schedules") as e:
        _read(tmp_path, [["A", 1, "", "Kahar", "", ""]], policy="central-2004")
    assert (e.value.line, e.value.column) == (2, "3 (category)")


@pytest.mark.parametrize("caste, district, expect", [
    ("Teli (Muslim)", "Patna", "BC"),          # II no. 13 "Teli": by the Note, Hindu and Muslim Teli alike
    ("Muslim Teli", "Gaya", "BC"),
    ("Teli (Hindu)", "Gaya", "BC"),
    ("Bhat (Hindu)", "Patna", "BC"),           # II no. 36 "Bhaat/Bhat/Brambhat/Rajbhat (Hindu)"
    ("Bhat (Muslim)", "Patna", "EBC"),         # I no. 88 "Bhat (Muslim)"
    ("Kapadia (Hindu)", "Patna", "EBC"),       # I no. 1 "Kapadia", marked with neither community
])
def test_a_community_written_with_the_name_is_read_as_the_schedules_note_says(tmp_path, caste, district, expect):
    """Bihar Act 1991, the Note to Schedules I and II: "Those castes and classes in respect of whom the word
    Muslim has not specifically been mentioned, would belong to both Hindu and Muslim communities. For example
    Teli means both Hindu and Muslim Teli." An entry marked with a community takes that community only."""
    assert _read(tmp_path, [["A", 1, "", caste, district, ""]]) == {"A": expect}


@pytest.mark.parametrize("caste, message", [
    ("Bhathiara (Hindu)", "names the Muslim community only"),   # I no. 87 "Bhathiara (Muslim)"
    ("Tely", "nearest entries: teli"),
])
def test_a_name_the_schedules_do_not_take_is_bad_input_with_the_nearest_entries(tmp_path, caste, message):
    with pytest.raises(InputError, match=message) as e:
        _read(tmp_path, [["A", 1, "", caste, "Patna", ""]])
    assert e.value.column == "4 (caste)"


def test_a_district_with_nothing_to_place_is_not_silently_dropped(tmp_path):
    """A known column is used or said to be unused. A candidate's district places a caste; without
    castes (or schedules) the reader warns that it is not used."""
    warned = []
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "district"], [["A", 1, "SC", "Patna"]])
    read_candidates(tmp_path / "c.csv", load_policy("central-2004"), warned.append)
    read_candidates(tmp_path / "c.csv", load_policy("bihar-1991"), warned.append)
    assert len(warned) == 2 and "district column" in warned[0] and "without schedules" in warned[0]
    assert "no caste column" in warned[1]
