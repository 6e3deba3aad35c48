"""Outputs written atomically: every file goes to a staging folder beside the output folder and is moved in
only once all are complete, so a failed or killed run leaves no half-written file (SPEC.md, "Outputs"). Used
by every command that writes a folder, and by the register, which publishes a recorded year's staged outputs
after its transaction commits."""
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

from ..errors import InputError
from .interrupt import publishing


def write_csv(path: Path, header, rows) -> None:
    """A CSV file as the csv module writes it (minimal quoting, lines ended by a line feed), 65,536 rows at a
    time."""
    rows = iter(rows)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        fh.write(csv_text([header]))
        while block := list(itertools.islice(rows, 1 << 16)):
            fh.write(csv_text(block))


def csv_text(rows) -> str:
    """Rows as `csv.writer(fh, lineterminator="\\n")` writes them, byte for byte. A row of text fields none of
    which needs quoting (no comma, quote or line break) is joined by commas directly, and one whose only such
    character is a comma has those fields quoted; any other row goes through the csv module. JoSAA's
    decisions.csv (172,782 rows, 34 MB): 0.26 s against 0.66 s."""
    out, spill = [], io.StringIO()
    other = csv.writer(spill, lineterminator="\n")
    for row in rows:
        try:
            line = ",".join(row)
        except TypeError:   # (numbers and None, written as the csv module writes them)
            row = ["" if x is None else float.__repr__(x) if isinstance(x, float) else str(x) for x in row]
            line = ",".join(row)
        if '"' in line or "\n" in line or "\r" in line or not line:
            other.writerow(row)
            out.append(spill.getvalue())
            spill.seek(0)
            spill.truncate()
            continue
        if line.count(",") != len(row) - 1:
            # Commas in a field, and nothing else to quote: such a field is quoted as it stands (a counselling's
            # "[OS, female]" is in a fifth of its reasons, 5 us a row through the csv module).
            line = ",".join([f'"{x}"' if "," in x else x for x in row])
        out.append(line + "\n")
    return "".join(out)


OUTPUT_FILES = ("allocation.csv", "decisions.csv", "unfilled.csv", "cutoffs.csv", "summary.json", "diff.csv",
                "carried.csv", "report.html", "reserve_list.csv", "choices.npy")
STAGING_PREFIX = ".aarakshan-"
# This process's staging folders not yet published or removed: a stop removes them (`abandon`).
_LIVE: set[Path] = set()


def abandon() -> None:
    """Remove this process's unpublished staging folders and files (a stop: nothing is written)."""
    for folder in list(_LIVE):
        if folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
        else:
            folder.unlink(missing_ok=True)
        _LIVE.discard(folder)


# Put in `out` just before it is exchanged with a staging folder: found in a staging folder, it says the folder
# holds the outputs its own were exchanged for (published already).
REPLACED = ".aarakshan-replaced"


class Staged:
    """A folder of complete output files beside `out`, not yet in it. `publish` puts them in and removes the
    output files of an earlier run that this one did not write (a stale diff.csv or carried.csv); a folder
    already published (or gone) publishes nothing.

    Where `out` holds nothing but outputs of this kind, the staging folder and `out` are exchanged in one step
    (Linux's renameat2, RENAME_EXCHANGE), or the folder renamed to `out` where there is none yet: a run killed
    at any moment leaves `out` wholly the earlier run's or wholly this one's. Elsewhere (another system, or
    other files in `out`) the files are moved in one by one, and the register's pending record covers the
    window for a recorded year."""

    def __init__(self, folder: Path, out: Path, outputs: tuple[str, ...] = OUTPUT_FILES):
        self.folder, self.out, self.outputs = Path(folder), Path(out), outputs

    def publish(self) -> None:
        mark = self.out / REPLACED
        if not self.folder.is_dir() or (self.folder / REPLACED).exists():
            # published already: renamed to `out`, or exchanged (the folder then holds the outputs it replaced)
            shutil.rmtree(self.folder, ignore_errors=True)
            mark.unlink(missing_ok=True)
            return
        with publishing(self.out):
            try:
                if not self._in_one_step():
                    self._file_by_file()
                    mark.unlink(missing_ok=True)
            except OSError as e:
                self.discard()   # (nothing of this run is left beside `out`)
                raise InputError(self.out, None, None, f"cannot write the outputs here: {e.strerror or e}") \
                    from None
            shutil.rmtree(self.folder, ignore_errors=True)
            _LIVE.discard(self.folder)

    def _in_one_step(self) -> bool:
        """Put the staged folder in place of `out` in one rename (False where that is not possible here)."""
        self.out.parent.mkdir(parents=True, exist_ok=True)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(self.folder, 0o777 & ~umask)   # (a folder made by mkdtemp is the owner's only)
        if not self.out.exists():
            try:
                os.rename(self.folder, self.out)
                return True
            except OSError as e:
                import errno
                if e.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                    raise
                # another run made `out` meanwhile: exchange with it, as with any earlier outputs
        if not self.out.is_dir() or any(e.name not in self.outputs and e.name != REPLACED
                                        for e in os.scandir(self.out)):
            return False
        (self.out / REPLACED).touch()
        if _exchange(self.folder, self.out):
            return True
        (self.out / REPLACED).unlink(missing_ok=True)
        return False

    def _file_by_file(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        names = {f.name for f in self.folder.iterdir()} - {REPLACED}
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

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        _LIVE.discard(self.folder)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (renameat2 with RENAME_EXCHANGE, Linux 3.15 and glibc 2.28 on); False where
    the system or the file system cannot."""
    import ctypes
    import errno
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EXDEV):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _clean_stale_staging(parent: Path) -> None:
    """Remove staging folders that runs killed before publishing left behind (their process is gone)."""
    with os.scandir(parent) as entries:   # (not a glob: a parent like /tmp may hold a million entries)
        found = [Path(e.path) for e in entries if e.name.startswith(STAGING_PREFIX)]
    for d in found:
        pid = d.name[len(STAGING_PREFIX):].partition("-")[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            if d.is_dir():
                shutil.rmtree(d, ignore_errors=True)
            else:
                d.unlink(missing_ok=True)


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
        raise InputError(out, None, None, "is a file, not a folder (the output folder)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        _clean_stale_staging(out.parent)
        folder = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=out.parent))
        _LIVE.add(folder)
        return folder
    except OSError as e:
        raise InputError(out, None, None, f"cannot write the outputs here: {e.strerror or e}") from None


def write_json(path: Path, doc: dict) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=2, sort_keys=False)
        fh.write("\n")


def sha256_file(path) -> str:
    """The file's SHA-256, hex. Remembered for the file as it stands (its device, inode, size and time of last
    change, to the nanosecond): a later round checks its inputs against the round before's record and then
    records them again, which read JoSAA's 400 MB of choices twice."""
    st = os.stat(path)
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if key not in _DIGESTS:
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        _DIGESTS[key] = h.hexdigest()
    return _DIGESTS[key]


_DIGESTS: dict[tuple, str] = {}


# The parts of a summary.json that differ between runs of the same inputs (SPEC.md: same input, same output,
# these aside): outside its digest, so that two such runs have one digest.
VARYING = ("digest", "timings", "invocation")


def summary_digest(doc: dict) -> str:
    """The SHA-256 of a summary.json's own parts (every key but `VARYING`), as canonical JSON: a policy or a
    provenance edited after the run, the file's digests kept, no longer matches."""
    body = {k: v for k, v in doc.items() if k not in VARYING}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                          .encode("utf-8")).hexdigest()


def seal(folder: Path) -> None:
    """summary.json of a staged folder gains `outputs` (the SHA-256 of every other file the run wrote) and
    `digest` (its own, `summary_digest`): one record against which a later stage checks the folder whole."""
    path = folder / "summary.json"
    if not path.is_file():
        return
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return   # (not a run's summary: nothing to seal)
    if not isinstance(doc, dict):
        return
    doc["outputs"] = {p.name: sha256_file(p) for p in sorted(folder.iterdir()) if p.is_file() and p != path}
    doc["digest"] = summary_digest(doc)
    write_json(path, doc)


def not_over_inputs(out: Path, reads, outputs: tuple[str, ...] = ()) -> None:
    """Refuse an output that would overwrite what the run reads: a stage never writes into a folder or file it
    reads (a fill into its own result folder replaced the first round's files). `reads`: the paths read;
    `outputs`: the names written into the folder `out` (a read file of one of those names in it would be
    replaced), or () where `out` is itself the file written."""
    target = Path(out).resolve()
    for given in reads:
        if given is None:
            continue
        path = Path(given).resolve()
        if path.is_dir() and (path == target or path in target.parents):
            where = "is" if path == target else "is inside"
            raise InputError(out, None, None, f"{where} {given}, a folder the run reads: a stage never writes "
                             "into what it reads; write to another place")
        if path == target or (path.parent == target and path.name in outputs):
            what = "is one of the run's own inputs" if path == target else f"holds {given}, which the run reads"
            raise InputError(out, None, None, f"{what}: a stage never writes over what it reads; write to "
                             "another place")


def write_file(out: str | Path, write, reads=()) -> Path:
    """One output file written whole or not at all: `write(path)` into a staging file beside `out` (named as
    the staging folders are, so a stop or a later run removes it), then renamed over `out` in one step. Two
    runs writing one `out` leave one's file whole, never a mix; `reads` as `stage`'s."""
    out = Path(out)
    not_over_inputs(out, reads)
    if out.is_dir():
        raise InputError(out, None, None, "is a folder: give the file to write")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        _clean_stale_staging(out.parent)
        fd, name = tempfile.mkstemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", suffix=out.suffix, dir=out.parent)
        os.close(fd)
    except OSError as e:
        raise InputError(out, None, None, f"cannot be written: {e.strerror or e} (nothing was written)") from None
    tmp = Path(name)
    _LIVE.add(tmp)
    try:
        write(tmp)
        with publishing(out):
            os.replace(tmp, out)
            _LIVE.discard(tmp)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise InputError(out, None, None, f"cannot be written: {e.strerror or e} (nothing was written)") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        _LIVE.discard(tmp)
    return out


def stage(out: str | Path, write, outputs: tuple[str, ...] = OUTPUT_FILES, reads=()) -> Staged:
    """`write(folder)` into a staging folder beside `out`; on any failure the folder is removed and nothing is
    written (an OSError is told as an input error naming `out`, exit 2). `outputs`: the names a run of this
    kind writes, so that publishing removes those an earlier run left and this one did not write; `reads`:
    the files and folders the run read, which `out` may neither be nor hold (`not_over_inputs`). A
    summary.json written is sealed (`seal`)."""
    out = Path(out)
    not_over_inputs(out, reads, (*outputs, "summary.json"))
    tmp = staging_folder(out)
    try:
        write(tmp)
        seal(tmp)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise InputError(out, None, None, f"cannot write the outputs: {e.strerror or e} (nothing was written)") \
            from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Staged(tmp, out, outputs)
