"""The exam pipeline's later stages as runs: a stage reads the output folder of the one before it (its policy and
inputs from its summary.json, checked by SHA-256), and names those files by SHA-256 in its own summary.json: a
chain of custody from the first list to the last vacancy filled."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..io.readers import read_problem
from ..io.tables import read_table
from ..data.kinds import Engine
from ..policy import Policy, load_policy
from ..policy.stages import REASONS
from ..exam.shortlist import files_read
from ..data.problem import Problem
from ..io.staging import summary_digest
from ..outcome.reports import changed_outputs, sha256_file as sha256

FILL_FILES = ("allocation.csv", "decisions.csv", "unfilled.csv", "cutoffs.csv", "filled_from_reserve.csv",
              "summary.json")


@dataclass(frozen=True)
class Previous:
    """An earlier stage's output folder: its policy, its inputs read again, its files' digests."""

    folder: Path
    policy: Policy
    problem: Problem
    inputs: dict[str, str]        # role -> path, as its summary.json names them
    files: dict[str, str]         # its output file -> SHA-256

    def read_with(self, given) -> list:
        """What a stage after this one reads: its folder, `given` (the stage's own file), its inputs, and the
        shortlist with the summary.json beside it (`solver.exam.shortlist.files_read`): none it may write over."""
        return [self.folder, given, *self.inputs.values(), *files_read(self.inputs.get("shortlist"))]


def previous(folder: str | Path, needs: tuple[str, ...] = ("allocation.csv",), warn=lambda _: None,
             policy: Policy | None = None, preferences: str | Path | None = None) -> Previous:
    """The run in `folder` (a `solve` output): its summary.json's resolved policy and inputs, each input checked
    against the SHA-256 recorded (changed since: exit 2, naming the file), and `needs` present. `policy` and
    `preferences`: the next round's own, where it has them (a second counselling: CSAB's special rounds, with
    fresh choices), in place of the run's; the inputs are read under them."""
    folder = Path(folder)
    summary = folder / "summary.json"
    if not summary.is_file():
        raise InputError(folder, None, None, "holds no summary.json: give the output folder of `aarakshan solve`")
    try:
        doc = json.loads(summary.read_text(encoding="utf-8"))
        inputs = doc["provenance"]["inputs"]
        paths = {role: _found(v) for role, v in inputs.items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InputError(summary, None, None, "is not a run's summary.json (no provenance.inputs)") from None
    if "digest" in doc and doc["digest"] != summary_digest(doc):
        raise InputError(summary, None, None, "changed since the run wrote it (its own SHA-256 differs from the "
                         "digest it records): give the run's own folder, or solve again")
    for name in needs:
        if not (folder / name).is_file():
            hint = " (solve with reserve_list=True)" if name == "reserve_list.csv" else ""
            raise InputError(folder, None, None, f"holds no {name}{hint}")
    for name in changed_outputs(folder, doc, needs):
        raise InputError(folder / name, None, None, "changed since the run wrote it (its SHA-256 differs from "
                         "summary.json's outputs): give the run's own files, or solve again")
    for role, path in paths.items():
        if not Path(path).is_file():
            raise InputError(path, None, None, f"the {role} file of the run in {folder} is not there any more "
                             f"(recorded as {inputs[role]['path']}, resolved {inputs[role].get('resolved', path)}): "
                             "moved or deleted since the run")
        if sha256(Path(path)) != inputs[role].get("sha256"):
            raise InputError(path, None, None, f"changed since the run in {folder} read it (its SHA-256 differs "
                             "from summary.json's)")
    pol = policy or load_policy(summary)
    if preferences is not None:
        paths["preferences"] = str(preferences)
    problem = read_problem(pol, paths["candidates"], paths["vacancies"], paths.get("preferences"), warn=warn,
                           ranks=paths.get("ranks"), choices=_choices(folder, doc, warn, policy is None and
                                                                      preferences is None and "preferences" in paths))
    if "shortlist" in paths:     # (who was called in which of its lists: the posts still open to each)
        from ..exam.shortlist import only_called
        problem = only_called(paths["candidates"], paths["shortlist"], pol, problem)
    files = {p.name: sha256(p) for p in sorted(folder.iterdir()) if p.is_file()}
    return Previous(folder, pol, problem, paths, files)


def _choices(folder: Path, doc: dict, warn, same_reading: bool) -> Path | None:
    """The run's choices.npy where the round may take it for its preferences file (`solver.io.choices`): the
    round reads the run's own preferences under its own policy, the run was made by this version of the package,
    and the file is the one summary.json records (the inputs were checked against it before). One changed since
    is not taken, and the round says so (the preferences file, checked, is read instead)."""
    from .. import __version__
    from ..io.choices import CHOICES
    path = folder / CHOICES
    recorded = doc.get("outputs") if isinstance(doc.get("outputs"), dict) else {}
    if not same_reading or doc.get("provenance", {}).get("aarakshan") != __version__ or not path.is_file():
        return None
    if recorded.get(CHOICES) != sha256(path):
        warn(f"{path} changed since the run wrote it (its SHA-256 differs from summary.json's outputs): the "
             "preferences file is read again instead")
        return None
    return path


def _found(recorded: dict) -> str:
    """An input's path as a run's summary.json records it: as given, where it is there from here, else as it
    was resolved when the run read it (a later stage run from another folder)."""
    given = str(recorded["path"])
    resolved = recorded.get("resolved")
    return given if Path(given).is_file() or not resolved else str(resolved)


def read_rows(path: Path, required: list[str], optional: list[str] = ()) -> list[dict]:
    """A table's rows as dicts of strings (with `line`: the file line)."""
    t = read_table(path, required, list(optional))
    cols = [c for c in [*required, *optional] if t.has(c)]
    # (column by column: a cell at a time read a JoSAA round's slide.csv in 0.2 s)
    return [{**dict(zip(cols, row)), "line": line}
            for *row, line in zip(*(t[c].astype(str).tolist() for c in cols), t.line.tolist())]


def _answers(path: Path, column: str, allocation: list[dict], allowed, not_held: str, read=str,
             refuse=lambda cid, answer: None, others=frozenset()) -> dict[str, str]:
    """A file of one answer per candidate of `allocation` (candidate_id and `column`): each once, the answer
    (as `read` spells it) one of `allowed`; anyone else is `not_held`, told with his line, but a candidate of
    `others` (who may answer too); `refuse(cid, answer)` says why a candidate may not give that answer (None: he
    may)."""
    t = read_table(path, ["candidate_id", column], [])
    held = {r["candidate_id"] for r in allocation}
    out: dict[str, str] = {}
    for k in range(len(t)):
        cid, answer = str(t["candidate_id"][k]), read(str(t[column][k]))
        if cid not in held and cid not in others:
            raise t.error(k, "candidate_id", f"{cid} {not_held}")
        if cid in out:
            raise t.error(k, "candidate_id", f"{cid} is listed twice")
        if answer not in allowed:
            raise t.error(k, column, f"unknown {column} {str(t[column][k])!r}; expected one of {list(allowed)}")
        if (why := refuse(cid, answer)) is not None:
            raise t.error(k, column, why)
        out[cid] = answer
    return out


def read_declined(path: Path, allocation: list[dict]) -> dict[str, str]:
    """declined.csv (candidate_id, reason): each a recommended candidate, once, with a reason of `REASONS`."""
    return _answers(path, "reason", allocation, REASONS, "holds no vacancy in the allocation")


def run_fill(result: str | Path, declined: str | Path, out: str | Path | None, engine: Engine | str = Engine.GREEDY,
             time_limit: float | None = None, workers: int = 1, warn=lambda _: None):
    """`aarakshan fill`: the vacancies `declined` leaves in the run `result`, filled from its reserve list
    (`solver.exam.fill`), written to `out` (allocation.csv of the new appointments, decisions.csv for everyone on the
    two lists, unfilled.csv, cutoffs.csv, filled_from_reserve.csv, summary.json) atomically. Returns (Previous, Filled)."""
    from ..exam.fill import FILLED_COLUMNS, cutoff_rows, decision_rows, fill
    from ..io.staging import stage, write_csv, write_json
    from ..outcome.reports import provenance
    from ..outcome.result import ALLOCATION_COLUMNS, CUTOFF_COLUMNS, DECISION_COLUMNS, UNFILLED_COLUMNS

    engine = Engine.parse(engine)
    prev = previous(result, ("allocation.csv", "reserve_list.csv"), warn)
    from ..exam.reserve import on_one_merit
    on_one_merit(prev.problem, prev.folder)
    allocation = read_rows(prev.folder / "allocation.csv", ["candidate_id", "post", "seat_category"], ["horizontal"])
    listed = read_rows(prev.folder / "reserve_list.csv", ["candidate_id", "category", "list"])
    reserve = {r["candidate_id"]: r["list"] for r in listed}
    gone = read_declined(Path(declined), allocation)
    done = fill(prev.policy, prev.problem, allocation, reserve, gone, engine, time_limit, workers,
                parts={r["candidate_id"]: r["category"] for r in listed})
    if out is not None:
        sources = {**prev.inputs, "declined": str(declined)}
        doc = {"stage": "fill", "engine": str(engine), "vacated": len(gone),
               "filled": done.filled, "held_vacant": done.held_vacant, "rounds": done.rounds,
               "previous": {"folder": str(prev.folder), "files": prev.files},
               "provenance": provenance(prev.policy, [], str(engine), sources)}

        def write(tmp: Path) -> None:
            write_csv(tmp / "allocation.csv", ALLOCATION_COLUMNS, done.rows)
            write_csv(tmp / "decisions.csv", DECISION_COLUMNS, decision_rows(prev.problem, reserve, done))
            write_csv(tmp / "unfilled.csv", UNFILLED_COLUMNS, done.unfilled)
            write_csv(tmp / "cutoffs.csv", CUTOFF_COLUMNS, cutoff_rows(prev.policy, prev.problem, done))
            write_csv(tmp / "filled_from_reserve.csv", FILLED_COLUMNS, done.report)
            write_json(tmp / "summary.json", doc)
        stage(out, write, FILL_FILES, reads=prev.read_with(declined)).publish()
    return prev, done


SLIDE_FILES = ("allocation.csv", "decisions.csv", "unfilled.csv", "cutoffs.csv", "slide.csv", "withdrawn.csv",
               "choices.npy", "summary.json")


def read_responses(path: Path, allocation: list[dict], warn=lambda _: None, frozen=frozenset(),
                   registering=None) -> dict[str, str]:
    """responses.csv (candidate_id, response): each a candidate the first round placed, once, answering fix,
    float or absent. A placed candidate without a response did not report: absent, and said. `frozen`: who froze
    his seat in an earlier round, which is final (he takes no part in later rounds): he keeps it, with or
    without a response, and any other response is refused. `registering`: in a round of its own registration
    (`slide.registration`), the ids of every candidate: one without a seat answers `register` to take part, and
    a holder without a response keeps his seat; None: a round without registration."""
    from ..exam.slide import RESPONSES, SAME_AS
    placed = {r["candidate_id"] for r in allocation}

    def refuse(cid: str, answer: str) -> str | None:
        if cid in frozen and SAME_AS.get(answer, answer) != "fix":
            return (f"{cid} froze his seat in an earlier round, which is final: he takes no part in later rounds "
                    f"(JoSAA's freeze, as summarised; IIT Bombay's UCEED 2020 rules: such candidates \"will NOT be "
                    f"considered in subsequent rounds\"), yet answers {answer}")
        if answer == "register" and registering is None:
            return "register: the policy's rounds take no registration (slide.registration is false)"
        if answer == "register" and cid in placed:
            return f"{cid} holds a seat: he registers to move up by answering float or slide"
        if answer != "register" and cid not in placed:
            return f"{cid} holds no seat: he takes part by answering register, or not at all"
        return None
    out = _answers(path, "response", allocation, RESPONSES, "was not placed in the first round" if registering is None
                   else "is not among the candidates",
                   read=lambda x: x.strip().lower(), refuse=refuse, others=registering or frozenset())
    out.update({cid: "freeze" for cid in sorted(placed & frozen) if cid not in out})
    if len(missing := placed - set(out)):
        kept = "they keep their seats (did not register)" if registering is not None else \
            "taken as absent (did not report)"
        warn(f"{path}: {len(missing)} candidates placed in the first round have no response: {kept}")
    return out


def read_frozen(path: Path) -> frozenset:
    """Who froze his seat in the round a slide.csv records (freeze, or SSC's fix): final for every later round
    (none where the file is not there: the round after a first allocation)."""
    from ..exam.slide import SAME_AS
    if not path.is_file():
        return frozenset()
    return frozenset(r["candidate_id"] for r in read_rows(path, ["candidate_id", "response"])
                     if SAME_AS.get(r["response"], r["response"]) == "fix")


def read_withdrawn(path: Path) -> frozenset:
    """Who left the counselling in an earlier round (a round's withdrawn.csv; none where the file is not there:
    the round after a first allocation)."""
    return frozenset(r["candidate_id"] for r in read_rows(path, ["candidate_id"])) if path.is_file() else frozenset()


def run_slide(result: str | Path, responses: str | Path, out: str | Path | None,
              engine: Engine | str = Engine.GREEDY, time_limit: float | None = None, workers: int = 1,
              warn=lambda _: None, policy: Policy | None = None, preferences: str | Path | None = None):
    """`aarakshan slide`: the sliding round after the first tentative allocation in `result` (`solver.exam.slide`),
    written to `out` (allocation.csv after the round, decisions.csv, unfilled.csv, cutoffs.csv, slide.csv,
    summary.json) atomically.
    `policy` and `preferences`: the round's own, where they are not the round before's (a second counselling on
    the seats left, as CSAB's special rounds after JoSAA: its policy, and the choices filled afresh); the next
    round reads them from this one's summary.json. Returns (Previous, Slid)."""
    from ..io.choices import keep_choices
    from ..io.staging import stage, write_csv, write_json
    from ..outcome.reports import provenance
    from ..outcome.cutoffs import CUTOFF_COLUMNS
    from ..outcome.result import ALLOCATION_COLUMNS, DECISION_COLUMNS, UNFILLED_COLUMNS
    from ..exam.slide import SLIDE_COLUMNS, round_cutoffs, slide

    engine = Engine.parse(engine)
    prev = previous(result, ("allocation.csv",), warn, policy, preferences)
    allocation = read_rows(prev.folder / "allocation.csv", ["candidate_id", "post", "seat_category"],
                           ["counted_as", "horizontal", "route"])
    # A freeze is final within a counselling; a round under another policy than the round before's is a second
    # counselling (CSAB's special rounds after JoSAA), in which a JoSAA seat holder may register to upgrade.
    second = policy is not None and policy.model_dump() != load_policy(prev.folder / "summary.json").model_dump()
    answers = read_responses(Path(responses), allocation, warn,
                             frozenset() if second else read_frozen(prev.folder / "slide.csv"),
                             frozenset(prev.problem.candidates.ids.tolist()) if prev.policy.slide.registration
                             else None)
    done = slide(prev.policy, prev.problem, allocation, answers, engine, time_limit, workers,
                 read_withdrawn(prev.folder / "withdrawn.csv"))
    if out is not None:
        sources = {**prev.inputs, "responses": str(responses)}   # (the round's preferences, where fresh)
        doc = {"stage": "slide", "engine": str(engine), **done.rounds,
               "previous": {"folder": str(prev.folder), "files": prev.files},
               "provenance": provenance(prev.policy, [], str(engine), sources)}

        def write(tmp: Path) -> None:
            write_csv(tmp / "allocation.csv", ALLOCATION_COLUMNS, done.rows)
            write_csv(tmp / "decisions.csv", DECISION_COLUMNS, done.decisions)
            write_csv(tmp / "unfilled.csv", UNFILLED_COLUMNS, done.unfilled)
            write_csv(tmp / "cutoffs.csv", CUTOFF_COLUMNS, round_cutoffs(prev.policy, prev.problem, done))
            write_csv(tmp / "slide.csv", SLIDE_COLUMNS, done.moves)
            write_csv(tmp / "withdrawn.csv", ["candidate_id"], [[x] for x in done.gone])
            keep_choices(tmp, prev.problem)
            write_json(tmp / "summary.json", doc)
        stage(out, write, SLIDE_FILES, reads=prev.read_with(responses)).publish()
    return prev, done
