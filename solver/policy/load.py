"""Read a policy TOML file, apply `--set K=V` overrides, validate against the schema.

Errors name the file, the line and the key, so a policy author can fix them without reading code.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import InputError, OptionError
from .promotion import promotion_policy
from .schema import Policy

_PACKAGE = Path(__file__).resolve().parents[1]
# An installed wheel carries the models as solver/models (pyproject's package-dir); a checkout (or an editable
# install of one) has them at the top of the repository.
MODELS_DIR = next((d for d in (_PACKAGE / "models", _PACKAGE.parent / "models") if d.is_dir()),
                  _PACKAGE / "models")


def bundled_models() -> dict[str, str]:
    """The policy files shipped with the package: name (as ``--policy`` takes it) -> the title it declares."""
    out = {}
    for path in sorted(MODELS_DIR.glob("*.toml")):
        try:
            out[path.stem] = str(tomllib.loads(path.read_text(encoding="utf-8")).get("name", ""))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            out[path.stem] = f"(unreadable: {e})"
    return out


def resolve_policy_path(name: str | Path) -> Path:
    """A path as given, or a bare name (``bihar-1991``) looked up among the bundled models."""
    if str(name).strip() == "":
        raise OptionError("policy", "empty; give a policy file or one of: "
                         + ", ".join(bundled_models()))
    p = Path(name)
    if p.is_file():
        return p
    if p.exists():
        raise InputError(p, None, None, "is not a file (a policy is a TOML file, or a run's summary.json)")
    for cand in (MODELS_DIR / p.name, MODELS_DIR / f"{p.name}.toml"):
        if cand.is_file():
            return cand
    raise InputError(p, None, None, "policy file not found; bundled models: " + ", ".join(bundled_models()))


def _parse_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def axis(spec: str, option: str, example: str) -> tuple[str, list[str]]:
    """``KEY=V1,V2``: one option and the values it takes in turn (`--grid`, `--reading`), each value as
    `--set` takes it.

    Example
    -------
    >>> axis("ceiling.share=0.5, 0.6", "grid", "ceiling.share=0.5,0.6")
    ('ceiling.share', ['0.5', '0.6'])
    """
    key, eq, values = spec.partition("=")
    vs = [v.strip() for v in values.split(",")]
    if not eq or not key.strip() or not all(vs):
        raise OptionError(option, f"{spec!r}: expected KEY=V1,V2 (e.g. {example})")
    return key.strip(), vs


def as_setting(value: bool | str | float | int) -> str:
    """A policy value as `--set` writes it (TOML's spelling of true and false)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def current(policy, key: str) -> str | None:
    """The option's value under the policy as given, as `--set` writes it (None: not found). List entries are
    addressed as `--set` addresses them (`entry_labels`)."""
    node = policy.model_dump(by_alias=True)
    for part in key.split("."):
        if isinstance(node, list):
            node = next((x for x, label in zip(node, entry_labels(node)) if label == part), None)
        elif isinstance(node, dict):
            node = node.get(part)
        else:
            return None
        if node is None:
            return None
    if isinstance(node, list) and all(isinstance(x, str) for x in node):
        import json
        return json.dumps(node)   # (a list as the models' sides write it: ["age", "standard"])
    return as_setting(node) if isinstance(node, (bool, str, int, float)) else None


def entry_labels(entries: list) -> list[str]:
    """How `--set` and `policy show` name each entry of a list of tables: its `code`, `name`, `key`, `from` or
    categories joined by "-", else (none of them, a dot in it, or two entries alike) its place in the list, from 0.

    Example
    -------
    >>> entry_labels([{"code": "SC"}, {"categories": ["SC", "ST"]}, {"trait": "pwbd"}, {"to": "OPEN"}])
    ['SC', 'SC-ST', '2', '3']
    """
    labels = [str(x.get("code") or x.get("name") or x.get("key") or x.get("from") or "-".join(x.get("categories", [])))
              if isinstance(x, dict) else "" for x in entries]
    return [label if label and "." not in label and labels.count(label) == 1 else str(i)
            for i, label in enumerate(labels)]


def apply_override(data: dict, assignment: str) -> None:
    """``ceiling.share=0.6`` or ``categories.OBC.share=0.27`` (a list's entries addressed as `entry_labels` names
    them: ``seat_pools.conversions.1.to=OPEN``)."""
    if "=" not in assignment:
        raise OptionError("overrides", f"{assignment!r} is not of the form KEY=VALUE")
    key, _, raw = assignment.partition("=")
    parts = key.strip().split(".")
    if not all(p.strip() for p in parts):
        raise OptionError("overrides", f"{assignment!r}: the key {key.strip()!r} names no setting (an empty part)")
    node: Any = data
    for i, part in enumerate(parts[:-1]):
        if isinstance(node, list):
            match = [e for e, label in zip(node, entry_labels(node)) if label == part]
            if not match:
                raise OptionError("overrides", f"{key}: no entry {part!r} in {'.'.join(parts[:i])} (its entries: "
                                  f"{', '.join(entry_labels(node))})")
            node = match[0]
        else:
            node = node.setdefault(part, {})
        if not isinstance(node, (dict, list)):
            raise OptionError("overrides", f"{key}: {'.'.join(parts[: i + 1])} is not a table")
    if isinstance(node, list):
        raise OptionError("overrides", f"{key}: name an entry of the list by its code")
    node[parts[-1]] = _parse_value(raw.strip())


def _locate(lines: list[str], loc: tuple) -> tuple[int | None, int | None]:
    """Best-effort line and column of a schema error: follow table headers, then the key."""
    strings = [p for p in loc if isinstance(p, str)]
    if not strings:
        return None, None
    wanted_table, key = strings[:-1], strings[-1]
    index = next((p for p in loc if isinstance(p, int)), None)
    seen = -1
    table: list[str] = []
    for n, line in enumerate(lines, 1):
        s = line.strip()
        m = re.match(r"^\[\[?([^\]]+)\]\]?", s)
        if m:
            table = m.group(1).strip().split(".")
            if table == wanted_table[: len(table)] and s.startswith("[["):
                seen += 1
            continue
        if re.match(rf"^\"?{re.escape(key)}\"?\s*=", s) and table == wanted_table[: len(table)]:
            if index is None or seen == index:
                return n, line.index(key.split()[0][0]) + 1 if key else 1
    return None, None


def _resolved(path: Path, text: str) -> dict:
    """The policy a run resolved, from its summary.json (`provenance.policy`) or a bare policy in JSON: a run
    is repeated from its own outputs (`--policy out/summary.json`)."""
    import json
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise InputError(path, None, None, f"not valid JSON: {e}") from None
    if isinstance(doc, dict) and "provenance" in doc:
        doc = doc["provenance"].get("policy") if isinstance(doc["provenance"], dict) else None
    if not isinstance(doc, dict):
        raise InputError(path, None, None, "holds no policy (a summary.json's provenance.policy, or a policy)")
    return doc


def data_file(policy: Policy, name: str) -> Path:
    """A data file a policy names (its caste schedules): beside the policy file, else among the bundled models
    (a policy resolved into a summary.json names the bundled file)."""
    p = Path(policy.folder or ".") / name
    return p if p.exists() or not (MODELS_DIR / name).is_file() else MODELS_DIR / name


def load_policy(path: str | Path, overrides: list[str] | tuple[str, ...] = (), recruitment=None) -> Policy:
    """The policy file with `overrides` (``KEY=VALUE``) applied and validated.

    `recruitment` (a `solver.data.kinds.Recruitment` or its word; default: the file's, "direct" unless it says
    otherwise): for "promotion", the promotion's policy (`solver.policy.promotion`: its categories, shares,
    roster and method), as the chain's `DerivePromotion` stage derives it.

    Example
    -------
    >>> load_policy("bihar-1991", ["ceiling.share=0.6"], recruitment="promotion").roster.points
    50
    """
    policy = _load(path, overrides)
    if recruitment is not None:
        from ..data.kinds import Recruitment
        kind = Recruitment.parse(recruitment)
        if kind != policy.recruitment:
            policy = Policy.model_validate({**policy.model_dump(by_alias=True), "recruitment": kind.value})
    policy = promotion_policy(policy) if policy.recruitment == "promotion" else policy
    where = resolve_policy_path(path)
    return policy.model_copy(update={"folder": str(where.parent), "lineage": _lineage(where, list(overrides))})


def _lineage(path: Path, overrides: list[str]) -> dict:
    """The model a policy came from and every override applied to it since: a policy read back from a run's
    summary.json inherits that run's model and overrides (and its own lineage's), so `--policy out/summary.json`
    is still the reform it was, not the stock policy."""
    import json
    model = path.stem if path.parent == MODELS_DIR else str(path)
    if path.suffix != ".json":
        return {"model": model, "overrides": overrides}
    try:
        prov = json.loads(path.read_text(encoding="utf-8")).get("provenance", {})
        earlier = prov.get("lineage") or {"model": "", "overrides": list(prov.get("overrides", []))}
    except (ValueError, AttributeError, OSError):
        earlier = {"model": "", "overrides": []}
    return {"model": earlier.get("model") or model, "overrides": [*earlier.get("overrides", []), *overrides],
            "reproduced_from": str(path)}


def _load(path: str | Path, overrides: list[str] | tuple[str, ...]) -> Policy:
    path = resolve_policy_path(path)
    text = _text(path)
    try:
        data = _resolved(path, text) if path.suffix == ".json" else tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+), column (\d+)", str(e))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (None, None)
        raise InputError(path, line, col, f"not valid TOML: {e}") from None
    try:
        policy = Policy.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(policy)"
        line, col = _locate(text.splitlines(), tuple(err["loc"]))
        raise InputError(path, line, col, f"{where}: {err['msg']}") from None
    if not overrides:
        return policy
    # The file is valid on its own, so what fails now is the overrides' doing: blame them, not the file.
    for o in overrides:
        apply_override(data, o)
    try:
        return Policy.model_validate(data)
    except ValidationError as e:
        raise OptionError("overrides", _blamed(e.errors()[0], overrides)) from None


def _text(path: Path) -> str:
    """The policy file's text, UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        line = path.read_bytes()[: e.start].count(b"\n") + 1
        raise InputError(path, line, None, f"not UTF-8 text (byte {e.start}); save the policy as UTF-8") from None
    except OSError as e:
        raise InputError(path, None, None, f"cannot be read: {e.strerror}") from None


def _blamed(err: dict, overrides) -> str:
    """An error the overrides made, naming those that set the field it is about (else every one)."""
    where = ".".join(str(p) for p in err["loc"]) or "(policy)"
    named = [str(p) for p in err["loc"] if isinstance(p, str)]
    blamed = [o for o in overrides if named and
              [p for p in o.partition("=")[0].strip().split(".") if p in named] == named]
    return f"{'; '.join(blamed or overrides)}: {where}: {err['msg']}"
