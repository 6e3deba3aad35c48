"""The register in SQLite: per cadre the roster position, and every carried vacancy with its history.

One year is written in one transaction, so a run killed at any point leaves the register as it was (SQLite's
rollback journal). The schema version is SQLite's `user_version`; `MIGRATIONS[k]` takes version k to k+1, and
a register from a newer Aarakshan is refused instead of guessed at.
"""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path

from ..errors import InputError
from ..io.staging import Staged
from ..chain.vacancy.carried import Carried, YearState
from .outcome import YearRecord, closes
from .schema import MIGRATIONS, TABLES, VERSION

# A second writer waits this long for the first to finish its year before it is refused.
BUSY_SECONDS = 30.0


SPECIAL_CLOSING = "('filled', 'exchanged', 'dereserved')"


class Register:
    """The register file. `readonly` (verify) never migrates or writes; otherwise an older schema is migrated
    and a year left half-published by a killed run is published (see `record`)."""

    def __init__(self, path: str | Path, readonly: bool = False):
        self.path = Path(path)
        self.created = not self.path.exists()   # so that a run failing before its first record removes it
        from ..io.interrupt import new_register
        new_register(self.path, self.created)
        self._seen: dict[tuple[int, str], tuple] = {}   # (year, round) -> fingerprint when its state was read
        if self.path.exists() and not self.path.is_file():
            raise InputError(self.path, None, None, "is not a file (a register is an SQLite file)")
        if self.created and (readonly or not self.path.parent.is_dir()):
            raise InputError(self.path, None, None, "no such register" if readonly else
                             f"cannot create the register: no folder {self.path.parent}")
        try:
            uri = f"file:{self.path.resolve()}?mode=ro" if readonly else str(self.path)
            self.db = sqlite3.connect(uri, isolation_level=None, uri=readonly, timeout=BUSY_SECONDS)
            # Foreign keys stay off during migrations (a table rebuild would trip them) and on afterwards.
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            tables = {t for (t,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            ok = self.db.execute("PRAGMA quick_check").fetchone()[0] if not self.created else "ok"
        except sqlite3.DatabaseError as e:
            raise InputError(self.path, None, None, f"not an Aarakshan register: {e}") from None
        self._check_schema(ok, version, tables, readonly)
        if version < VERSION:
            with self._transaction():
                for k in range(version, VERSION):
                    for stmt in filter(str.strip, MIGRATIONS[k].split(";")):
                        self.db.execute(stmt)
                self.db.execute(f"PRAGMA user_version = {VERSION}")
        self.db.execute("PRAGMA foreign_keys = ON")
        if not readonly:
            self._publish_pending()

    def _check_schema(self, ok: str, version: int, tables: set, readonly: bool) -> None:
        """An intact Aarakshan register of a schema this version knows (an older one migrated, unless read only)."""
        if ok != "ok":
            raise InputError(self.path, None, None, f"the register fails SQLite's integrity check ({ok}); restore "
                             "it from a backup (nothing was written)")
        if version > VERSION:
            raise InputError(self.path, None, None, f"register schema version {version} is newer than this "
                             f"Aarakshan knows ({VERSION}); upgrade Aarakshan")
        if version == 0 and tables:
            raise InputError(self.path, None, None, "not an Aarakshan register: an SQLite database with tables "
                             f"{sorted(tables)} and no register schema; give a new file or an Aarakshan register")
        if version and not TABLES[version] <= tables:
            raise InputError(self.path, None, None, f"damaged register: schema version {version} but the tables "
                             f"{sorted(TABLES[version] - tables)} are missing")
        if version < VERSION and readonly:
            raise InputError(self.path, None, None, f"register schema version {version} is older than this "
                             f"Aarakshan's ({VERSION}); solve or simulate against it once to migrate it")

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextmanager
    def _transaction(self):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def policies(self) -> set[str]:
        return {name for (name,) in self.db.execute("SELECT DISTINCT policy FROM years")}

    def check_recruitment(self, kind: str) -> None:
        """One register holds one recruitment: direct or promotion (Bihar Act 1991 s.6(2): "separate running
        rosters for recruitment and promotion"), so a promotion never moves recruitment's roster or backlog."""
        held = {k for (k,) in self.db.execute("SELECT DISTINCT recruitment FROM years")} - {kind}
        if held:
            raise InputError(self.path, None, None, f"holds {', '.join(sorted(held))} recruitment years and this is "
                             f"{kind}: recruitment and promotion keep separate running rosters and backlogs (Bihar "
                             f"Act 1991 s.6(2)); give the {kind} its own register file")

    def policies_of(self, year: int) -> set[str]:
        return {name for (name,) in self.db.execute("SELECT policy FROM years WHERE year = ?", (year,))}

    def years(self) -> list[int]:
        return [y for (y,) in self.db.execute("SELECT year FROM years ORDER BY year")]

    def check_year(self, year: int, replace: bool = False) -> None:
        """A year is solved once, in order; `replace` re-solves the latest one."""
        years = self.years()
        if replace and year not in years:
            raise InputError(self.path, None, None, f"replace=True: year {year} is not recorded (recorded: "
                             f"{years or 'none'})")
        if year in years and not replace:
            raise InputError(self.path, None, None, f"year {year} is already recorded; replace=True solves "
                             "it again")
        later = [y for y in years if y > year]
        if later:
            raise InputError(self.path, None, None, f"years {later} are recorded after {year}: a year can only be "
                             "solved after the ones before it")

    def _fingerprint(self) -> tuple:
        """Changes whenever a year is recorded, replaced or published: years, events and items so far."""
        return (tuple(self.years()), *self.db.execute(
            "SELECT (SELECT COUNT(*) FROM events), (SELECT COALESCE(MAX(rowid), 0) FROM events), "
            "(SELECT COUNT(*) FROM items), (SELECT COALESCE(MAX(id), 0) FROM items)").fetchone())

    def state(self, year: int) -> YearState:
        """What the register knows before `year`: roster positions and the items still live then. The state
        read is remembered: `record` refuses to write a year if the register changed since (another run)."""
        self._seen[(year, "main")] = self._fingerprint()
        nxt = {post: start for post, start in self.db.execute(
            "SELECT post, MAX(start + points) FROM roster WHERE year < ? GROUP BY post", (year,))}
        cadres = {post: cadre for post, cadre in self.db.execute(
            "SELECT post, cadre FROM roster r WHERE year = (SELECT MAX(year) FROM roster q WHERE q.post = r.post "
            "AND q.year < ? AND q.cadre IS NOT NULL)", (year,))}
        items = tuple(Carried(*row) for row in self.db.execute(
            "SELECT id, post, category, origin_year, kind, trait, "
            "(SELECT COUNT(*) FROM recruitments r WHERE r.post = i.post AND r.year > i.origin_year "
            "AND r.year < ?) FROM items i "
            "WHERE origin_year < ? AND (closed_year IS NULL OR closed_year >= ?) ORDER BY origin_year, id",
            (year, year, year)))
        return YearState(year, nxt, items, cadres, self._recent(year))

    def _recent(self, year: int) -> dict[str, tuple]:
        """Per post, its recruitment years before `year`, oldest first, each with its own vacancies per category
        (the year's vacancies less those carried in and the exempt ones; None for a year not tallied)."""
        own: dict[tuple[int, str], dict[str, int]] = {}
        for y, post, code, what, k in self.db.execute(
                "SELECT year, post, category, what, count FROM tally WHERE year < ? AND round = 'main' AND what IN "
                "('vacancies', 'carried_in', 'exempt')", (year,)):
            row = own.setdefault((y, post), {})
            row[code] = row.get(code, 0) + (k if what == "vacancies" else -k)
        tallied = {y for (y,) in self.db.execute("SELECT DISTINCT year FROM tally WHERE year < ?", (year,))}
        out: dict[str, list] = {}
        for y, post in self.db.execute("SELECT year, post FROM recruitments WHERE year < ? ORDER BY year", (year,)):
            out.setdefault(post, []).append((y, {c: k for c, k in own.get((y, post), {}).items() if k}
                                             if y in tallied else None))
        return {post: tuple(v) for post, v in out.items()}

    def discard_if_new(self) -> None:
        """Remove a register this run created and never wrote a year to."""
        from ..io.interrupt import new_register
        self.close()
        if self.created:
            self.path.unlink(missing_ok=True)
        new_register(self.path, False)

    def record(self, rec: YearRecord, policy: str, engine: str, replace: bool = False, staged=None) -> None:
        """Write one solved year, all of it or nothing, and with it publish its outputs (`staged`, a folder of
        complete files). The year is checked again inside the write transaction, against the state it was
        solved from: a second run that recorded a year meanwhile makes this one refuse, never write from a
        stale state. The staged folder is named in the same transaction and published after the commit; a run
        killed in between is completed by the next one to open the register, so a recorded year always gets
        its outputs and an unrecorded one never does."""
        with self._writing(str(rec.year), staged):
            self.check_year(rec.year, replace)
            self._check_unchanged((rec.year, "main"), str(rec.year))
            if replace:
                self._forget(rec.year)
            self.db.execute("INSERT INTO years (year, policy, engine, recruitment) VALUES (?, ?, ?, ?)",
                            (rec.year, policy, engine, rec.recruitment))
            self.db.executemany("INSERT INTO roster (year, post, start, points, cadre) VALUES (?, ?, ?, ?, ?)",
                                [(rec.year, post, *used) for post, used in sorted(rec.roster_used.items())])
            self.db.executemany("INSERT INTO recruitments (year, post) VALUES (?, ?)",
                                [(rec.year, post) for post in sorted(set(rec.posts))])
            self._events(rec, "main")
            self._tally(rec, "main")
            self._new_items(rec, "main")
            self._name_pending(rec.year, staged)

    def _new_items(self, rec: YearRecord, round_: str) -> None:
        """The items the round carries on (kept vacant, a reservation carried, a claim), each with its event."""
        for post, code, kind, detail, *trait in rec.new_items:
            cur = self.db.execute("INSERT INTO items (post, category, origin_year, kind, trait) "
                                  "VALUES (?, ?, ?, ?, ?)", (post, code, rec.year, kind, "".join(trait)))
            self._event(cur.lastrowid, rec.year, "carried", ("special round: " if round_ == "special" else "")
                        + detail, round_)

    @contextmanager
    def _writing(self, what: str, staged):
        """One write transaction, its SQLite errors told as input errors, and the staged outputs published
        after the commit."""
        from ..io.interrupt import new_register, unwinding
        try:
            with unwinding(), self._transaction():
                yield
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise InputError(self.path, None, None, f"another run has held the register for over "
                                 f"{BUSY_SECONDS:.0f} s; {what} was not recorded and nothing was written; run "
                                 "again when it is done") from None
            raise InputError(self.path, None, None, f"could not record {what} (nothing was written): {e}") from None
        except sqlite3.Error as e:
            raise InputError(self.path, None, None, f"could not record {what} (nothing was written): {e}") from None
        self.created = False
        new_register(self.path, False)
        if staged is not None:
            with unwinding():
                self._publish_pending()

    def _check_unchanged(self, key: tuple, what: str) -> None:
        """Inside the write transaction: the register is as it was when `key`'s state was read."""
        if key in self._seen and self._seen[key] != self._fingerprint():
            raise InputError(self.path, None, None, f"the register changed while {what} was solved (another run "
                             "recorded meanwhile); nothing was written: run it again")

    def _events(self, rec: YearRecord, round_: str) -> None:
        """The round's events on carried items, closing those an event ends."""
        prefix = "special round: " if round_ == "special" else ""
        for item, event, detail in rec.events:
            self._event(item.id, rec.year, event, prefix + detail, round_)
            if closes(item, event):
                self.db.execute("UPDATE items SET closed_year = ? WHERE id = ?", (rec.year, item.id))

    def _tally(self, rec: YearRecord, round_: str) -> None:
        # (zero counts are left out, but a post whose every count is zero keeps its vacancies rows: a year the post
        # recruited for with no vacancy is tallied, not one written before the tally existed: `_recent`)
        busy = {post for (post, _), row in rec.by_post.items() if any(row.values())}
        self.db.executemany("INSERT INTO tally (year, round, post, category, what, count) VALUES (?, ?, ?, ?, ?, ?)",
                            [(rec.year, round_, post, code, what, k) for (post, code), row in sorted(rec.by_post.items())
                             for what, k in row.items() if k or (what == "vacancies" and post not in busy)])

    def tally(self, year: int) -> list[tuple[str, str, str, str, int]]:
        """What `year`'s rounds did, per post and category: (round, post, category, what, count)."""
        return self.db.execute("SELECT round, post, category, what, count FROM tally WHERE year = ? "
                               "ORDER BY round, rowid", (year,)).fetchall()

    def recruitment(self, year: int) -> str | None:
        row = self.db.execute("SELECT recruitment FROM years WHERE year = ?", (year,)).fetchone()
        return row[0] if row else None

    def _name_pending(self, year: int, staged) -> None:
        if staged is not None:
            self.db.execute("INSERT INTO pending (year, staging, out) VALUES (?, ?, ?)",
                            (year, str(staged.folder), str(staged.out)))

    def _event(self, item_id: int, year: int, event: str, detail: str, round_: str = "main") -> None:
        self.db.execute("INSERT INTO events (item_id, year, event, detail, round) VALUES (?, ?, ?, ?, ?)",
                        (item_id, year, event, detail, round_))

    def pending_years(self) -> list[int]:
        """Recorded years whose outputs are not yet published (their staging folder must be kept)."""
        return [y for (y,) in self.db.execute("SELECT year FROM pending ORDER BY year")]

    def _publish_pending(self) -> None:
        """Publish the outputs of recorded years whose run ended between its commit and its publication."""
        for staging, out in self.db.execute("SELECT staging, out FROM pending ORDER BY year, rowid").fetchall():
            Staged(Path(staging), Path(out)).publish()
            self.db.execute("DELETE FROM pending WHERE staging = ?", (staging,))

    def _forget(self, year: int) -> None:
        """Undo a recorded year (the latest): its events, the items it created, the items it closed."""
        self.db.execute("DELETE FROM events WHERE year = ?", (year,))
        self.db.execute("DELETE FROM events WHERE item_id IN (SELECT id FROM items WHERE origin_year = ?)", (year,))
        self.db.execute("DELETE FROM items WHERE origin_year = ?", (year,))
        self.db.execute("UPDATE items SET closed_year = NULL WHERE closed_year = ?", (year,))
        self.db.execute("DELETE FROM roster WHERE year = ?", (year,))
        self.db.execute("DELETE FROM recruitments WHERE year = ?", (year,))
        self.db.execute("DELETE FROM pending WHERE year = ?", (year,))
        self.db.execute("DELETE FROM special_rounds WHERE year = ?", (year,))
        self.db.execute("DELETE FROM tally WHERE year = ?", (year,))
        self.db.execute("DELETE FROM years WHERE year = ?", (year,))

    # The special recruitment of a year (Bihar s.4(6)(e), Manipur s.8(4)) ---------------------------------------
    # (the events of a special round that close a kept-vacant post: filled, or by s.8(5) exchanged or de-reserved)

    def check_special(self, year: int, replace: bool = False) -> None:
        """A special round follows its year's first round, before the next year; once, unless replaced."""
        years = self.years()
        if year not in years:
            raise InputError(self.path, None, None, f"round=special: year {year} has no first round in the "
                             f"register (recorded: {years or 'none'}); solve the year first")
        if years[-1] != year:
            raise InputError(self.path, None, None, f"round=special: years {[y for y in years if y > year]} are "
                             f"recorded after {year}, and were solved from what {year} left")
        done = self.has_special(year)
        if done and not replace:
            raise InputError(self.path, None, None, f"{year}'s special round is already recorded; replace=True "
                             "solves it again")
        if replace and not done:
            raise InputError(self.path, None, None, f"replace=True: {year} has no special round recorded")

    def has_special(self, year: int) -> bool:
        return self.db.execute("SELECT 1 FROM special_rounds WHERE year = ?", (year,)).fetchone() is not None

    def backlog(self, year: int, replace: bool = False) -> tuple[Carried, ...]:
        """The kept-vacant reserved posts live after `year`'s first round (its special round's vacancies), oldest
        first, each aged by its cadre's recruitment years up to `year` (0 for the year's own). With `replace`,
        as they were before the special round already recorded."""
        self._seen[(year, "special")] = self._fingerprint()
        reopened = "OR (closed_year = ? AND EXISTS (SELECT 1 FROM events e WHERE e.item_id = i.id AND e.year = ? " \
                   f"AND e.round = 'special' AND e.event IN {SPECIAL_CLOSING}))" if replace else ""
        return tuple(Carried(*row) for row in self.db.execute(
            "SELECT id, post, category, origin_year, kind, trait, "
            "(SELECT COUNT(*) FROM recruitments r WHERE r.post = i.post AND r.year > i.origin_year "
            "AND r.year <= ?) - 1 FROM items i WHERE kind = 'vacancy' AND origin_year <= ? "
            f"AND (closed_year IS NULL {reopened}) ORDER BY origin_year, id",
            (year, year, *((year, year) if replace else ()))))

    def record_special(self, rec: YearRecord, policy: str, engine: str, replace: bool = False,
                       staged=None) -> None:
        """Write a special round's events (round 'special') and publish its outputs, as `record` does a year."""
        what = f"{rec.year}'s special round"
        with self._writing(what, staged):
            self.check_special(rec.year, replace)
            self._check_unchanged((rec.year, "special"), what)
            if replace:
                self._forget_special(rec.year)
            self.db.execute("INSERT INTO special_rounds (year, policy, engine) VALUES (?, ?, ?)",
                            (rec.year, policy, engine))
            self._events(rec, "special")
            self._tally(rec, "special")
            # (Manipur s.8(5): what the round de-reserves carries its reservation, what it exchanges a claim)
            self._new_items(rec, "special")
            self._name_pending(rec.year, staged)

    def _forget_special(self, year: int) -> None:
        made = [row[0] for row in self.db.execute("SELECT item_id FROM events WHERE year = ? AND round = 'special' "
                                                  "AND event = 'carried'", (year,))]
        self.db.execute("UPDATE items SET closed_year = NULL WHERE id IN (SELECT item_id FROM events WHERE year = ? "
                        f"AND round = 'special' AND event IN {SPECIAL_CLOSING})", (year,))
        self.db.execute("DELETE FROM events WHERE year = ? AND round = 'special'", (year,))
        self.db.executemany("DELETE FROM items WHERE id = ?", [(k,) for k in made])
        self.db.execute("DELETE FROM tally WHERE year = ? AND round = 'special'", (year,))
        self.db.execute("DELETE FROM special_rounds WHERE year = ?", (year,))

    def history(self):
        """Every item with its events, for reports: (id, post, category, origin_year, kind, closed_year, events)
        (a horizontal item's kind reads "horizontal:TRAIT")."""
        events: dict[int, list] = {}
        for item_id, year, event, detail in self.db.execute(
                "SELECT item_id, year, event, detail FROM events ORDER BY year, rowid"):
            events.setdefault(item_id, []).append((year, event, detail))
        return [(*row, events.get(row[0], [])) for row in self.db.execute(
            "SELECT id, post, category, origin_year, kind || CASE WHEN trait = '' THEN '' ELSE ':' || trait END, "
            "closed_year FROM items ORDER BY id")]
