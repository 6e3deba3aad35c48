"""An immutable mapping for the frozen records every stage shares (`SeatTable`, `Pool`, `YearState`): a frozen
dataclass stops its fields being rebound, not its dicts being changed, and a stage that changed a shared
dict in place would change what another stage already read."""
from __future__ import annotations

from dataclasses import fields


class FrozenDict(dict):
    """A dict that refuses every change once made (a plain dict to read, to compare and to pickle).

    Example
    -------
    >>> d = FrozenDict({"UR": 3})
    >>> d["UR"], dict(d) == {"UR": 3}
    (3, True)
    >>> d["SC"] = 1
    Traceback (most recent call last):
    ...
    TypeError: FrozenDict cannot change; make a new one (dataclasses.replace)
    """

    def _refuse(self, *args, **kwargs):
        raise TypeError("FrozenDict cannot change; make a new one (dataclasses.replace)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __reduce__(self):
        return (type(self), (dict(self),))


def freeze_dicts(record) -> None:
    """In a frozen dataclass's __post_init__: every dict field made a FrozenDict (a copy: the caller's dict
    stays theirs)."""
    for name in _field_names(type(record)):
        value = getattr(record, name)
        if isinstance(value, dict) and not isinstance(value, FrozenDict):
            # (an empty one shared: most of JoSAA's 27,000 pools have no minimums, and copies cost 0.1 s a build)
            object.__setattr__(record, name, FrozenDict(value) if value else _EMPTY)


def _field_names(kind: type) -> tuple[str, ...]:
    """The names of a dataclass's fields that may hold a dict (annotated as a dict, mapping or counter), read
    once per class (`fields` per record was 2.4 s of JoSAA's 52,000 seat rows and pools, and reading every
    field of every record 0.3 s more)."""
    names = _NAMES.get(kind)
    if names is None:
        names = _NAMES[kind] = tuple(f.name for f in fields(kind) if _may_be_dict(f.type))
    return names


def _may_be_dict(annotation) -> bool:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
    return any(word in text.lower() for word in ("dict", "mapping", "counter", "any", "object")) or \
        not isinstance(annotation, str) and isinstance(annotation, type) and issubclass(annotation, dict)


_NAMES: dict[type, tuple[str, ...]] = {}
_EMPTY = FrozenDict()
