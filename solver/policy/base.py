"""What every policy table shares: strict models (no unknown key, no coercion) and the check that a table names
only the policy's categories."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    # strict: no coercion (`--set ceiling.share=true` is an error, not 1.0; a whole number is still a number)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _named(what: str, names, known: set[str]) -> None:
    """A table's category names are all known (ValueError naming the unknown ones)."""
    bad = set(names) - known
    if bad:
        raise ValueError(f"{what} names unknown categories {sorted(bad)}")
