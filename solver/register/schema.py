"""The register's schema: `MIGRATIONS[k]` takes a file at schema version k to k+1 (SQLite's `user_version`),
and `TABLES` the tables each version has, so that a file at that version without them is known damaged."""
from __future__ import annotations

MIGRATIONS = [
    """
    CREATE TABLE years (year INTEGER PRIMARY KEY, policy TEXT NOT NULL, engine TEXT NOT NULL);
    CREATE TABLE roster (year INTEGER NOT NULL REFERENCES years(year), post TEXT NOT NULL,
                         start INTEGER NOT NULL, points INTEGER NOT NULL, PRIMARY KEY (year, post));
    CREATE TABLE items (id INTEGER PRIMARY KEY, post TEXT NOT NULL, category TEXT NOT NULL,
                        origin_year INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('vacancy', 'reservation')),
                        closed_year INTEGER);
    CREATE TABLE events (item_id INTEGER NOT NULL REFERENCES items(id), year INTEGER NOT NULL,
                         event TEXT NOT NULL CHECK (event IN ('carried', 'filled', 'exchanged', 'dereserved',
                                                              'lapsed', 'unfilled', 'deferred')),
                         detail TEXT NOT NULL DEFAULT '');
    CREATE INDEX events_by_item ON events (item_id, year);
    CREATE INDEX live_items ON items (closed_year);
    """,
    # 2: carried horizontal seats (kind 'horizontal', with the trait). SQLite cannot alter a CHECK, so the
    # table is rebuilt with its rows.
    """
    CREATE TABLE items_v2 (id INTEGER PRIMARY KEY, post TEXT NOT NULL, category TEXT NOT NULL,
                           origin_year INTEGER NOT NULL,
                           kind TEXT NOT NULL CHECK (kind IN ('vacancy', 'reservation', 'horizontal')),
                           closed_year INTEGER, trait TEXT NOT NULL DEFAULT '');
    INSERT INTO items_v2 (id, post, category, origin_year, kind, closed_year)
        SELECT id, post, category, origin_year, kind, closed_year FROM items;
    DROP INDEX live_items;
    DROP TABLE items;
    ALTER TABLE items_v2 RENAME TO items;
    CREATE INDEX live_items ON items (closed_year);
    """,
    # 3: exchange claims (kind 'claim', Manipur s.6; the table rebuilt for its CHECK); the cadre's sanctioned
    # strength beside its roster position; the posts each year recruited for (an item ages by its cadre's
    # recruitment years: Bihar s.2(e), Manipur s.2(b); registers written before this recorded no such list, so
    # every recorded year is taken to have recruited every post they know); the outputs a recorded year still
    # has to publish (`pending`: a run killed after its commit is completed by the next one); and a year's
    # special recruitment for reserved categories (`special_rounds`; its events have round 'special').
    """
    ALTER TABLE roster ADD COLUMN cadre INTEGER;
    CREATE TABLE items_v3 (id INTEGER PRIMARY KEY, post TEXT NOT NULL, category TEXT NOT NULL,
                           origin_year INTEGER NOT NULL,
                           kind TEXT NOT NULL CHECK (kind IN ('vacancy', 'reservation', 'horizontal', 'claim')),
                           closed_year INTEGER, trait TEXT NOT NULL DEFAULT '');
    INSERT INTO items_v3 SELECT id, post, category, origin_year, kind, closed_year, trait FROM items;
    DROP INDEX live_items;
    DROP TABLE items;
    ALTER TABLE items_v3 RENAME TO items;
    CREATE INDEX live_items ON items (closed_year);
    CREATE TABLE recruitments (year INTEGER NOT NULL REFERENCES years(year), post TEXT NOT NULL,
                               PRIMARY KEY (year, post));
    INSERT INTO recruitments (year, post)
        SELECT y.year, p.post FROM years y, (SELECT post FROM items UNION SELECT post FROM roster) p;
    CREATE TABLE pending (staging TEXT PRIMARY KEY, year INTEGER NOT NULL REFERENCES years(year),
                          out TEXT NOT NULL);
    ALTER TABLE events ADD COLUMN round TEXT NOT NULL DEFAULT 'main';
    CREATE TABLE special_rounds (year INTEGER PRIMARY KEY REFERENCES years(year), policy TEXT NOT NULL,
                                 engine TEXT NOT NULL);
    """,
    # 4: the recruitment a year was (direct or promotion: Bihar Act 1991 s.6(2) keeps separate running rosters,
    # so one register holds one of them; registers before this held direct recruitment only); and per post and
    # category what each round did (vacancies, appointments by route, carried, exchanged, de-reserved,
    # lapsed), for the annual report on appointments (Bill 2004 s.14; Manipur Act 1976 s.13; Bihar s.15(2)(c)).
    """
    ALTER TABLE years ADD COLUMN recruitment TEXT NOT NULL DEFAULT 'direct';
    CREATE TABLE tally (year INTEGER NOT NULL REFERENCES years(year), round TEXT NOT NULL, post TEXT NOT NULL,
                        category TEXT NOT NULL, what TEXT NOT NULL, count INTEGER NOT NULL,
                        PRIMARY KEY (year, round, post, category, what));
    """,
]
VERSION = len(MIGRATIONS)


# The tables each schema version has; a file at that version without them is damaged, not a register.
TABLES = {1: {"years", "roster", "items", "events"}, 2: {"years", "roster", "items", "events"},
          3: {"years", "roster", "items", "events", "recruitments", "pending", "special_rounds"},
          4: {"years", "roster", "items", "events", "recruitments", "pending", "special_rounds", "tally"}}
