"""A policy model as a page of the manual (docs/acts/NAME.md): which sections it models and where each rule cites
them, the options the law leaves open with the authority on each side, the grounds of exemption, and the
tables whose sources the model gives. Made from the model file itself, so the page cannot drift from the law
the tool applies (`tests/cli/test_docs.py` checks the committed pages against it)."""
from __future__ import annotations

from .load import as_setting
from .schema import Policy

RULES = {"open_merit": "open vacancies on merit (a reserved candidate selected on merit counts as open)",
         "reserved_only": "reserved vacancies to members of the category only",
         "creamy_layer": "the creamy layer excluded", "exchange": "exchange of unfilled reserved vacancies",
         "fallback": "fallback to another category", "dereserve": "de-reservation",
         "carried": "carry-forward and backlog", "probation": "recruitment on probation",
         "fitness": "those found unfit appointed to nothing", "special": "a special recruitment for the backlog"}


def describe(policy: Policy, stem: str) -> str:
    """The manual's page for a bundled policy model (markdown).

    Example
    -------
    >>> from solver import load_policy
    >>> describe(load_policy("bihar-1991"), "bihar-1991").splitlines()[0]
    '# bihar-1991: Bihar Reservation of Vacancies in Posts and Services Act 1991'
    """
    p = policy
    out = [f"# {stem}: {p.name}", "",
           f"Source: {p.source}. Generated from `models/{stem}.toml` (`aarakshan policy show {stem}` prints every "
           f"parameter); {_text_of(stem)}, how the tool applies each rule in the other pages of this manual.", "",
           "## Categories", "", "| code | share | source | creamy layer excluded | carried forward |", "|---|---:|---|---|---|"]
    out += [f"| {p.open} (open) | | | | |"]
    out += [f"| {c.code} | {c.share:g} | {c.source or ''} | {'yes' if c.creamy_layer_excluded else 'no'} | "
            f"{'yes' if c.carry_forward else 'no'} |" for c in p.categories]
    out += ["", f"The ceiling: {p.ceiling.share:.0%} ({p.ceiling.source or 'no source given'}); excess "
            f"`{p.ceiling.excess}`. Roster of {p.roster.points} points.", "",
            "## The rules and the sections they cite", "",
            "A violation `verify` finds cites the section here; a rule without one cites its judgments only.", "",
            "| rule | what it is | section |", "|---|---|---|"]
    auth = p.authorities.model_dump()
    out += [f"| `{key}` | {RULES.get(key, key)} | {auth[key] or '(none in this model)'} |" for key in auth]
    out += ["", "## Options the law leaves open", ""]
    if not p.open_questions:
        out += ["None declared."]
    for q in p.open_questions:
        out += [f"- **`{q.key}`**: {q.question}"]
        out += [f"  - `{as_setting(s.value)}`: {s.authority}" for s in q.sides]
    out += ["", "`aarakshan audit` solves every side and lists whose outcome turns on it ([audit.md](../audit.md)).",
            "", "## Exemptions", ""]
    out += _exemptions(p) + _other_tables(p)
    return "\n".join(out) + "\n"


# The models whose Act's text ships in docs/statutes/ (the others rest on memoranda and rules named in them).
STATUTES = ("bihar-1991", "central-2004", "maharashtra-2001", "manipur-1976")


def _text_of(stem: str) -> str:
    if stem in STATUTES:
        return f"the Act's own text is in [../statutes/{stem}.txt](../statutes/{stem}.txt)"
    return "its sources are office memoranda, rules and judgments, named with each rule below ([../statutes/](../statutes/) holds the four Acts)"


def questions(models: dict[str, Policy]) -> str:
    """The manual's page of the law's open questions (docs/questions.md): each option some bundled model declares,
    the authority on each side, and the side each model takes unless told otherwise (`--set`), from the models
    themselves.

    Example
    -------
    >>> from solver import load_policy
    >>> page = questions({"central-dopt": load_policy("central-dopt")})
    >>> "`horizontal.mode`" in page and "| central-dopt | `compartmentalised` |" in page
    True
    """
    from .load import current
    asked: dict[tuple[str, str], list[tuple[str, Policy, object]]] = {}
    for stem, p in models.items():
        for q in p.open_questions:
            asked.setdefault((q.key, q.question), []).append((stem, p, q))
    out = ["# The law's open questions", "",
           "Where the Acts, the rules and the judgments leave a point open, the policy has an option for it and each",
           "model declares the question with the authority on each side. A model answers it one way unless told",
           "otherwise (`--set KEY=VALUE`); `aarakshan audit` solves every side and lists whose outcome turns on it",
           "([audit.md](audit.md)). Generated from the models (`python -m solver.policy.describe docs/acts`).", ""]
    for (key, question), where in sorted(asked.items()):
        sides = {as_setting(s.value): s.authority for _, _, q in where for s in q.sides}
        out += [f"## {question}", "", f"The option: `{key}`.", ""]
        out += [f"- `{value}`: {authority}" for value, authority in sides.items()]
        out += ["", "| model | its answer |", "|---|---|"]
        out += [f"| {stem} | `{current(p, key)}` |" for stem, p, _ in where] + [""]
    return "\n".join(out)


def write_pages(folder) -> list:
    """docs/acts/NAME.md for every bundled model, and docs/questions.md beside the folder
    (`python -m solver.policy.describe docs/acts`)."""
    from pathlib import Path

    from .load import bundled_models, load_policy
    out, models = [], {stem: load_policy(stem) for stem in bundled_models()}
    for stem, p in models.items():
        path = Path(folder) / f"{stem}.md"
        path.write_text(describe(p, stem), encoding="utf-8")
        out.append(path)
    page = Path(folder).parent / "questions.md"
    page.write_text(questions(models), encoding="utf-8")
    return out + [page]


def _exemptions(p: Policy) -> list[str]:
    ex = p.exemptions
    if ex is None or not ex.grounds:
        return ["No exemption section of this model was read: a vacancy's `exempt` ground is taken as given."]
    return [f"{ex.source}.", "", "| key | ground | section |", "|---|---|---|"] + \
        [f"| `{g.key}` | {g.text} | {g.source} |" for g in ex.grounds]


def _other_tables(p: Policy) -> list[str]:
    """The stage tables, only where the model sets them: their defaults' sources are no part of this Act."""
    tables = (("promotion", p.promotion), ("surrender", p.surrender), ("reserve list", p.reserve_list),
              ("slide", p.slide), ("final merit", p.merit), ("cadre allocation", p.cadre))
    staged = {"reserve list", "slide", "final merit", "cadre allocation"}
    extra = [(name, getattr(t, "source", "") or getattr(t, "stages_source", "")) for name, t in tables
             if t is not None and (name not in staged or t != type(t)())]
    extra = [(name, source) for name, source in extra if source]
    return (["", "## Other tables", ""] + [f"- {name}: {source}" for name, source in extra] if extra else []) + \
        _seat_pools(p)


def _seat_pools(p: Policy) -> list[str]:
    """The seat pools' order, quotas and conversions, where the model sets them (`solver.policy.counselling`)."""
    sp = p.seat_pools
    if sp == type(sp)():
        return []
    out = ["", "## Seat pools", "", f"{sp.source}.", "",
           f"A choice's pools are tried by {', then '.join(x.replace('_', ' ') for x in sp.order)}; within a "
           "pool, open seats before the candidate's own category's.", "", "| quota | held by | source |",
           "|---|---|---|"] + [f"| {code} | {q.holders} | {q.source} |" for code, q in sp.quotas.items()]
    if sp.conversions:
        out += ["", "Between rounds, in this order:", ""] + \
            [f"- {c.describe()}: {c.source}" for c in sp.conversions]
    return out


if __name__ == "__main__":
    import sys
    for written in write_pages(sys.argv[1] if len(sys.argv) > 1 else "docs/acts"):
        print(written)
