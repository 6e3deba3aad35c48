"""Caste schedules: deriving or checking a candidate's backward class from the caste they name (Bihar Act 1991
s.2(j): "Extremely Backward and Backward Classes mean and include those classes which have been specified in
Schedules I and II of the Act").

The schedules are a data file beside the policy (`castes.file`, e.g. models/bihar-1991-castes.csv), one row per
entry as the Act numbers it: schedule, number, name as written, category (EBC for Schedule I, BC for II), the
districts (and blocks) an entry is limited to (Schedule I no. 76 "For Nawada district only"; Schedule II nos.
39-43), and entries since deleted. A class the Presidential orders notify as SC or ST "shall be deemed to have
been deleted from the said Schedules" (s.2(j), explanation): such an entry carries `notified_SC` or
`notified_ST` as its status. SC and ST themselves come from the Constitution orders, not from these schedules,
so a candidate's SC or ST code is kept as given.
"""
from __future__ import annotations

import csv
import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import InputError

_QUALIFIERS = {"muslim", "hindu"}


@dataclass(frozen=True)
class Entry:
    schedule: str
    number: int
    name: str
    category: str
    districts: frozenset[str]          # empty: the whole State
    blocks: frozenset[tuple[str, str]]  # (district, block); empty: every block of those districts
    status: str                        # "", "deleted", "notified_SC", "notified_ST"
    note: str

    @property
    def label(self) -> str:
        return f"Schedule {self.schedule} no. {self.number} {self.name!r}"

    def valid_in(self, district: str, block: str) -> bool:
        if self.districts and _norm(district) not in {_norm(d) for d in self.districts}:
            return False
        if self.blocks:
            return (_norm(district), _norm(block)) in {(_norm(d), _norm(b)) for d, b in self.blocks}
        return True


def _norm(text: str) -> str:
    return " ".join(str(text).casefold().split())


def names(entry_name: str) -> set[str]:
    """The names an entry answers to: as written, and each name it lists ("Chandrabansi (Kahar, Kamkar)":
    chandrabansi, kahar, kamkar), never those it excludes ("(excluding Shekh, Syed, ...)")."""
    written = re.sub(r"\(excluding[^)]*\)", "", entry_name)
    out = {_norm(entry_name), _norm(written)}
    for part in re.split(r"[/,\[\]()&]| or ", written):
        p = _norm(part)
        if p and p not in _QUALIFIERS:
            out.add(p)
    return out


@lru_cache(maxsize=8)
def load(path: str) -> tuple[Entry, ...]:
    """The schedules file; an InputError names its line and column for a malformed row."""
    p = Path(path)
    try:
        with open(p, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    except OSError as e:
        raise InputError(p, None, None, f"the caste schedules cannot be read: {e.strerror or e}") from None
    out = []
    for k, r in enumerate(rows, 2):
        try:
            blocks = frozenset(tuple(x.split(":", 1)) for x in filter(None, r["blocks"].split(";")))
            out.append(Entry(r["schedule"], int(r["number"]), r["name"], r["category"],
                             frozenset(filter(None, r["districts"].split(";"))), blocks, r["status"], r["note"]))
        except (KeyError, ValueError, TypeError) as e:
            raise InputError(p, k, None, f"not a schedule entry ({e})") from None
    return tuple(out)


# The Note to each Schedule: "Those castes and classes in respect of whom the word Muslim has not specifically
# been mentioned, would belong to both Hindu and Muslim communities. For example Teli means both Hindu and
# Muslim Teli."
NOTE = "the Schedules' Note: an entry not marked Muslim belongs to both Hindu and Muslim communities"


def community(text: str) -> tuple[str, str | None]:
    """(the name without its community, the community written with it: "hindu", "muslim" or None), for "Teli
    (Muslim)", "Muslim Teli" and "Teli Muslim" alike."""
    t = _norm(text)
    for q in _QUALIFIERS:
        for pattern in (rf"^(.*?)\s*\({q}\)$", rf"^{q}\s+(.*)$", rf"^(.*?)\s+{q}$"):
            m = re.match(pattern, t)
            if m and m.group(1):
                return m.group(1), q
    return t, None


def _entry_community(e: Entry) -> str | None:
    m = re.search(r"\((muslim|hindu)\)", _norm(e.name))
    return m.group(1) if m else None


def _fits(e: Entry, said: str | None) -> bool:
    """Whether an entry takes a candidate of community `said` (None: not said); by the Note, an entry marked
    with neither community takes both."""
    own = _entry_community(e)
    return said is None or own is None or own == said


def resolve(entries: tuple[Entry, ...], caste: str, district: str, block: str) -> tuple[str | None, str]:
    """(the category the schedules give `caste` in `district` (and `block`), None if none; why), the full
    written name preferred to a listed one; a community written with the name ("Teli (Muslim)", "Bhat
    (Hindu)") matched as the Schedules' Note reads it."""
    base, said = community(caste)
    named = [e for e in entries if e.name]
    listed = _listed(named, _norm(caste), base, said)
    if not listed:
        return None, _unlisted(named, caste, base, said)
    live = [e for e in listed if not e.status]
    here = [e for e in live if e.valid_in(district, block)]
    if not here:
        return None, _not_here(caste, district, block, [e for e in listed if e.status.startswith("notified_")], live)
    if len({e.category for e in here}) > 1:
        return None, (f"caste {caste!r} names entries of both schedules there: "
                      + "; ".join(f"{e.label} ({e.category})" for e in here) + "; write it as the schedule does, "
                      "with its community where an entry names one (e.g. \"Bhat (Muslim)\")")
    e = here[0]
    by_note = said is not None and _entry_community(e) is None
    return e.category, f"{e.label} ({e.category}{'; ' + NOTE if by_note else ''})"


def _listed(named: list[Entry], key: str, base: str, said: str | None) -> list[Entry]:
    """The entries a name matches: written in full, else listed within an entry, else (a community written
    with it) its base name in an entry that takes that community."""
    written = [e for e in named if _norm(e.name) == key]
    if written:
        return written
    within = [e for e in named if key in names(e.name)]
    if within or not said:
        return within
    return [e for e in named if base in names(e.name) and _fits(e, said)]


def _unlisted(named: list[Entry], caste: str, base: str, said: str | None) -> str:
    """Why no entry takes `caste`: its base name is another community's only, or it is in neither schedule
    (with the nearest names)."""
    other = [e for e in named if said and base in names(e.name)]
    if other:
        return f"caste {caste!r}: " + "; ".join(f"{e.label} names the {_entry_community(e).title()} community only"
                                                for e in other) + f" ({NOTE})"
    near = difflib.get_close_matches(base, sorted({n for e in named if not e.status for n in names(e.name)}),
                                     n=3, cutoff=0.75)
    return f"caste {caste!r} is in neither schedule" + (f"; nearest entries: {', '.join(near)}" if near else "")


def _not_here(caste: str, district: str, block: str, gone: list[Entry], live: list[Entry]) -> str:
    """Why the entries that take `caste` do not take it in `district`: deemed deleted, or scheduled elsewhere."""
    if gone:
        e = gone[0]
        return (f"{e.label} is deemed deleted from the schedules: notified as {e.status[9:]} (s.2(j), "
                f"explanation{'; ' + e.note if e.note else ''})")
    scopes = "; ".join(f"{e.label} only in {', '.join(sorted(e.districts))}" + _blocks(e) for e in live)
    if any(e.blocks for e in live) and district and not block:
        scopes += "; give the candidate's block"
    return f"caste {caste!r} is not scheduled in {district or 'an unnamed district'}: {scopes}"


def _blocks(e: Entry) -> str:
    return f" (blocks {', '.join(f'{b} of {d}' for d, b in sorted(e.blocks))})" if e.blocks else ""
