"""Write the output files of SPEC.md atomically: everything goes to a temporary folder beside `--out`
and is moved in only once every file is complete."""
from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from .background import Background
from .errors import InputError
from .reasons import decision_rows
from .result import ALLOCATION_COLUMNS, CUTOFF_COLUMNS, DECISION_COLUMNS, UNFILLED_COLUMNS, Result
from .vacancy.determine import ceiling_uses

DIFF_COLUMNS = ["candidate_id", "greedy_post", "greedy_seat", "greedy_route", "cpsat_post", "cpsat_seat",
                "cpsat_route", "rule"]


def _write_csv(path: Path, header, rows) -> None:
    """A CSV file as the csv module writes it (minimal quoting, lines ended by a line feed), 65,536 rows at a
    time."""
    rows = iter(rows)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        fh.write(csv_text([header]))
        while block := list(itertools.islice(rows, 1 << 16)):
            fh.write(csv_text(block))


def csv_text(rows) -> str:
    """Rows as `csv.writer(fh, lineterminator="\\n")` writes them, byte for byte. A row of text fields none of
    which needs quoting (no comma, quote or line break) is joined by commas directly; any other row goes
    through the csv module. JoSAA's decisions.csv (172,782 rows, 34 MB): 0.26 s against 0.66 s."""
    out, spill = [], io.StringIO()
    other = csv.writer(spill, lineterminator="\n")
    for row in rows:
        try:
            line = ",".join(row)
        except TypeError:   # (numbers and None, written as the csv module writes them)
            line = ",".join(["" if x is None else float.__repr__(x) if isinstance(x, float) else str(x) for x in row])
        if line.count(",") != len(row) - 1 or '"' in line or "\n" in line or "\r" in line or not line:
            other.writerow(row)
            out.append(spill.getvalue())
            spill.seek(0)
            spill.truncate()
        else:
            out.append(line + "\n")
    return "".join(out)


def summary(result: Result, timings: dict, extra: dict | None = None) -> dict:
    sel = result.selected
    counted: dict[str, int] = {}
    routes: dict[str, int] = {}
    for row in result.allocation_rows():
        counted[row[3]] = counted.get(row[3], 0) + 1
        routes[row[5]] = routes.get(row[5], 0) + 1
    ceiling = {}
    uses = ceiling_uses(result.policy, result.seats)
    for post in result.problem.posts:
        used, total = uses[post]
        ceiling[post] = {"reserved_in_ceiling": used, "vacancies": total,
                         "share": round(used / total, 6) if total else 0.0,
                         "limit": result.policy.ceiling.share}
    stats = {k: v for k, v in result.assignment.stats.items() if not k.endswith("seconds")}
    out = {
        "engine": result.engine,
        "status": result.assignment.status,
        "policy": result.policy.name,
        "candidates": int(len(sel)),
        "selected": int(sel.sum()),
        "vacancies": int(sum(result.seats.seats.values())),
        "counted_as": dict(sorted(counted.items())),
        "routes": dict(sorted(routes.items())),
        "ceiling": ceiling,
        # each minimum, what held it and how many came in by adjustment (absent without minimums)
        **({"horizontal": rows} if (rows := result.horizontal_report()) else {}),
        # after a recommendation list: the list's own minimums (each category's, summed over the posts)
        **({"recommendation_horizontal": rows} if result.pools.selection is not None
           and (rows := result.pools.selection.stage.horizontal_report()) else {}),
        # counting for each trait: compartments where the procedure as written would have chosen otherwise
        **({"procedure_differs": result.procedure_differences}
           if result.policy.horizontal.multi_trait_counts_each else {}),
        "model": stats,
        "notes": list(result.seats.notes),
        # Timings vary run to run; they are kept apart so the rest of the file is byte-for-byte stable.
        "timings": timings,
    }
    if extra:
        out.update(extra)
    return out


def provenance(policy, overrides, engine: str, sources: dict, register: dict | None = None,
               digests: "InputDigests | None" = None) -> dict:
    """What made this output: the policy as resolved after every `--set` (and the overrides themselves), the
    SHA-256 of each input file, the package version and the engine, so that two output folders can be told
    apart and a result traced to its inputs. `digests`: the hashing started when the run began."""
    from . import __version__

    sha = digests.result() if digests is not None and digests.sources == sources else _sha256_each(sources)
    return {"aarakshan": __version__, "engine": engine, "overrides": list(overrides),
            "inputs": {role: {"path": path, "sha256": sha[role]} for role, path in sorted(sources.items())},
            **({"register": register} if register else {}),
            "policy": policy.model_dump(mode="json", by_alias=True)}


class InputDigests:
    """The SHA-256 of each input file (role -> path), worked out in a background thread from the start of a run
    (`solver.background`): JoSAA's 408 MB preferences hash (1-2 s) while the solver works on the other core."""

    def __init__(self, sources: dict[str, str]):
        self.sources = dict(sources)
        self._work = Background(_sha256_each, self.sources)

    def result(self) -> dict[str, str]:
        return self._work.result()


def _sha256_each(sources: dict[str, str]) -> dict[str, str]:
    out = {}
    for role, path in sorted(sources.items()):
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        out[role] = h.hexdigest()
    return out


def diff_rows(greedy: Result, cpsat: Result):
    ids = greedy.problem.candidates.ids
    posts = greedy.problem.posts
    a, b = greedy.assignment, cpsat.assignment

    def where(r: Result, i):
        if r.assignment.pool[i] < 0:
            return ["", "", ""]
        return [posts[r.pools.pools[r.assignment.pool[i]].post], r.seat_category[i], r.route(i)]

    for i in np.flatnonzero((a.pool != b.pool) | (a.adjusted != b.adjusted)):
        g, c = where(greedy, i), where(cpsat, i)
        rule = "horizontal" if "horizontal_adjustment" in (g[2], c[2]) else (g[2] or c[2])
        yield [ids[i], *g, *c, rule]


CARRIED_COLUMNS = ["item", "post", "category", "origin_year", "kind", "event", "detail"]


def carried_rows(record):
    """The year's register events (carried.csv): what became of each carried vacancy, and the new ones."""
    for item, event, detail in sorted(record.events, key=lambda e: (e[0].origin_year, e[0].id)):
        yield [item.id, item.post, item.category, item.origin_year, ":".join(filter(None, [item.kind, item.trait])),
               event, detail]
    for post, code, kind, detail, *trait in record.new_items:
        yield ["", post, code, record.year, ":".join([kind, *trait]), "carried", detail]


def write_simulation(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    _write_csv(tmp, list(rows[0]) if rows else [], (list(r.values()) for r in rows))
    os.replace(tmp, path)


OUTPUT_FILES = ("allocation.csv", "decisions.csv", "unfilled.csv", "cutoffs.csv", "summary.json", "diff.csv",
                "carried.csv", "report.html")
STAGING_PREFIX = ".aarakshan-"


class Staged:
    """A folder of complete output files beside `out`, not yet in it. `publish` moves them in and removes the
    output files of an earlier run that this one did not write (a stale diff.csv or carried.csv); a folder
    already published (or gone) publishes nothing."""

    def __init__(self, folder: Path, out: Path, outputs: tuple[str, ...] = OUTPUT_FILES):
        self.folder, self.out, self.outputs = Path(folder), Path(out), outputs

    def publish(self) -> None:
        if not self.folder.is_dir():
            return
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            names = {f.name for f in self.folder.iterdir()}
            for name in self.outputs:
                if name not in names and (self.out / name).is_file():
                    (self.out / name).unlink(missing_ok=True)
                elif name not in names and (self.out / name).is_dir():
                    shutil.rmtree(self.out / name, ignore_errors=True)
            for f in sorted(names):
                src = self.folder / f
                try:
                    if src.is_dir() and (self.out / f).is_dir():
                        shutil.rmtree(self.out / f)   # (a folder of outputs is replaced whole)
                    os.replace(src, self.out / f)
                except FileNotFoundError:
                    # Another run opening the register publishes the same pending folder (a year recorded by
                    # this run): whichever moves a file first has published it.
                    if src.exists():
                        raise
        except OSError as e:
            raise InputError(self.out, None, None, f"cannot write the outputs here: {e.strerror or e}") from None
        shutil.rmtree(self.folder, ignore_errors=True)

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def _clean_stale_staging(parent: Path) -> None:
    """Remove staging folders that runs killed before publishing left behind (their process is gone)."""
    with os.scandir(parent) as entries:   # (not a glob: a parent like /tmp may hold a million entries)
        found = [Path(e.path) for e in entries if e.name.startswith(STAGING_PREFIX)]
    for d in found:
        pid = d.name[len(STAGING_PREFIX):].partition("-")[0]
        if d.is_dir() and pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(d, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def staging_folder(out: Path) -> Path:
    """A fresh folder beside `out` to write outputs into before they are published (and the scratch of runs
    killed before publishing removed)."""
    if out.exists() and not out.is_dir():
        raise InputError(out, None, None, "--out is a file, not a folder")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        _clean_stale_staging(out.parent)
        return Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=out.parent))
    except OSError as e:
        raise InputError(out, None, None, f"cannot write the outputs here: {e.strerror or e}") from None


def stage_outputs(out: str | Path, result: Result, timings: dict, diff: list | None = None,
                  extra: dict | None = None, record=None) -> Staged:
    """Write every output file into a staging folder beside `out` (so that moving them in is a rename)."""
    def write(tmp: Path) -> None:
        _write_csv(tmp / "allocation.csv", ALLOCATION_COLUMNS, result.allocation_rows())
        _write_csv(tmp / "decisions.csv", DECISION_COLUMNS, decision_rows(result))
        _write_csv(tmp / "unfilled.csv", UNFILLED_COLUMNS, result.dispositions)
        _write_csv(tmp / "cutoffs.csv", CUTOFF_COLUMNS, result.cutoffs())
        if diff is not None:
            _write_csv(tmp / "diff.csv", DIFF_COLUMNS, diff)
        if record is not None:
            _write_csv(tmp / "carried.csv", CARRIED_COLUMNS, carried_rows(record))
        write_json(tmp / "summary.json", summary(result, timings, extra))
    return stage(out, write)


def write_json(path: Path, doc: dict) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=2, sort_keys=False)
        fh.write("\n")


def stage(out: str | Path, write, outputs: tuple[str, ...] = OUTPUT_FILES) -> Staged:
    """`write(folder)` into a staging folder beside `out`; on any failure the folder is removed and nothing is
    written (an OSError is told as an input error naming `out`, exit 2). `outputs`: the names a run of this
    kind writes, so that publishing removes those an earlier run left and this one did not write."""
    out = Path(out)
    tmp = staging_folder(out)
    try:
        write(tmp)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise InputError(out, None, None, f"cannot write the outputs: {e.strerror or e} (nothing was written)") \
            from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Staged(tmp, out, outputs)


def write_outputs(out: str | Path, result: Result, timings: dict, diff: list | None = None,
                  extra: dict | None = None, record=None) -> Path:
    """Stage every output file, then move them into `out` (a failed run leaves no half-written file)."""
    staged = stage_outputs(out, result, timings, diff, extra, record)
    try:
        staged.publish()
    finally:
        staged.discard()
    return Path(out)
