"""The readings an audit solves: the options the law leaves open under the policy's Act, as its model file
declares them (`open_questions`, with the authority on each side), narrowed or added to by `--reading`."""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..errors import OptionError
from ..policy import Policy
from ..policy.load import as_setting, axis, current  # noqa: F401 (current: the audit's API)

GIVEN = "given as a reading (RULES.md, options the law leaves open)"


@dataclass(frozen=True)
class OpenOption:
    """One option the audit varies: its values as `--set` takes them, and the authority for each."""

    key: str
    values: tuple[str, ...]
    sides: tuple[tuple[str, str], ...] = ()    # every declared side: (value, authority)
    question: str = ""

    def source(self, value: str | None) -> str:
        return dict(self.sides).get(value, GIVEN)


def parse_readings(specs: list[str]) -> list[tuple[str, list[str]]]:
    """`--reading KEY=V1,V2`, each checked for its form (exit 2)."""
    out = [axis(s, "readings", "horizontal.open_compartment_for_all=true,false") for s in specs]
    keys = [k for k, _ in out]
    if len(set(keys)) != len(keys):
        raise OptionError("readings", f"an option is given twice: {keys}")
    return out


# Declared questions that can decide only some recruitments: the test of whether this one is among them. The
# roster's window (`ceiling.roster_window`) matters only where a TOTAL row is split by the running roster.
APPLIES = {"ceiling.roster_window": lambda problem: any(r.category == "TOTAL" and not r.exempt
                                                        for r in problem.vacancy_rows),
           # which relaxations bar the open list matters only where someone availed the one in question
           "migration.bars_open.final": lambda problem: problem.candidates.relaxations is not None and any(
               "qualifying" in k for k in problem.candidates.relaxations.tolist()),
           # a PwBD list of its own at shortlisting matters only where some candidate is a person with a
           # benchmark disability
           "shortlist.traits": lambda problem: bool(problem.candidates.trait("pwbd").any())}


def open_options(policy: Policy, given: list[tuple[str, list[str]]] = (), declared: bool = True,
                 problem=None, decides: str = "allocation") -> list[OpenOption]:
    """The model file's open questions that decide `decides` (an allocation, or who is called at a shortlist)
    unless `declared` is false, each narrowed to the values `--reading` gives for it, then the options
    `--reading` adds. With `problem`, a declared question that cannot decide it (`APPLIES`) is left out unless
    `--reading` names it.

    Example
    -------
    >>> from solver.policy import load_policy
    >>> [(o.key, o.values) for o in open_options(load_policy("central-dopt"), [("horizontal.mode", ["overall"])])]
    [('migration.bars_open.final', ('["age", "attempts", "qualifying", "standard"]', '["age", "attempts", "standard"]')), ('ceiling.roster_window', ('counted', 'roster_governs')), ('horizontal.open_compartment_for_all', ('true', 'false')), ('horizontal.mode', ('overall',))]
    """
    narrowed = dict(given)
    out = []
    for q in policy.open_questions if declared else ():
        if q.decides != decides or (problem is not None and q.key not in narrowed and q.key in APPLIES
                                         and not APPLIES[q.key](problem)):
            continue   # (cannot change an allocation, or this one; the command line says so)
        sides = tuple((as_setting(s.value), s.authority) for s in q.sides)
        values = narrowed.pop(q.key, [v for v, _ in sides])
        out.append(OpenOption(q.key, tuple(values), sides, q.question))
    for key, values in given:
        if key in narrowed:
            out.append(OpenOption(key, tuple(values)))
    return out


def combinations(policy: Policy, options: list[OpenOption]) -> list[tuple[str, ...]]:
    """Every combination of the options' values as `--set` overrides, but the policy as given itself."""
    given = tuple(f"{o.key}={current(policy, o.key)}" for o in options)
    return [sets for sets in itertools.product(*[[f"{o.key}={v}" for v in o.values] for o in options])
            if sets != given]


def sources(policy: Policy, options: list[OpenOption], sets: tuple[str, ...]) -> tuple[str, str]:
    """What a reading changes from the policy as given (its rule) and the authority on each side."""
    keys, texts = [], []
    for o, s in zip(options, sets):
        value = s.partition("=")[2]
        was = current(policy, o.key)
        if value == was:
            continue
        keys.append(o.key)
        texts.append(f"{o.key}={value}: {o.source(value)}; as given ({was}): {o.source(was)}")
    return "; ".join(keys), " | ".join(texts)
