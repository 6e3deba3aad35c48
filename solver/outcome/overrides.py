"""What an override did: a what-if must say when it could change nothing (a no-op, e.g. a category's share where
no vacancy row is split by shares) and when it could have but did not this time (a ceiling that does not bind:
a finding about this recruitment, not a no-op)."""
from __future__ import annotations

import re

SHARE = re.compile(r"categories\.[^.=\s]+\.share")


def override_notes(overrides, result, detail: bool = True) -> list[str]:
    """One sentence per override (`--set KEY=VALUE`) that left this outcome as the stock policy would have.

    Parameters
    ----------
    overrides : the `KEY=VALUE` strings applied to the policy.
    result : the solved `Result` under the overridden policy.
    detail : give this recruitment's figure (the most reserved at a post); without it the sentence is the same
        every year, for a sweep to tell once with the years it holds in.

    Example
    -------
    >>> import tempfile, pathlib
    >>> from solver.policy import load_policy
    >>> from solver.chain.solve import solve
    >>> from solver.io.readers import read_problem
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "c.csv").write_text("id,score,category\\nA,90,OBC\\nB,80,UR\\n")
    >>> _ = (d / "v.csv").write_text("post,category,vacancies\\nX,UR,1\\nX,OBC,1\\n")
    >>> pol = load_policy("central-dopt", ["categories.OBC.share=0.19"])
    >>> override_notes(["categories.OBC.share=0.19"], solve(pol, read_problem(pol, d / "c.csv", d / "v.csv"),
    ...                                                       "greedy").result)[0][:61]
    'categories.OBC.share=0.19 is a no-op: no row of vacancies.csv'
    """
    notes = []
    split = any(row.category == "TOTAL" and not row.exempt for row in result.problem.vacancy_rows)
    for given in overrides:
        key = given.split("=", 1)[0].strip()
        if SHARE.fullmatch(key) and not split:
            notes.append(f"{given} is a no-op: no row of vacancies.csv is split by shares (each row gives its "
                         "category's count; a TOTAL row is split by the roster)")
        elif key == "ceiling.share":
            uses = [used / total for used, total in result.seats.ceiling_use(result.policy).values() if total]
            worst = max(uses, default=0.0)
            if worst < result.policy.ceiling.share:
                figure = f" (at most {worst:.1%} of a post's vacancies are reserved)" if detail else ""
                notes.append(f"{given}: the ceiling does not bind in this recruitment{figure}; it may bind with "
                             "other vacancies")
    return notes
