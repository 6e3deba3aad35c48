"""Whose shortlisting turns on a reading the law leaves open: the shortlist (`solver.exam.shortlist`) drawn under
the policy as given and under every combination of its open questions that decide a shortlist
(`decides = "shortlist"`, e.g. whether PwBD candidates get a list with a cut-off of their own, or are called only
within their categories at those categories' cut-offs: Rekha Sharma v. Rajasthan High Court, 2024 INSC 615), and
each candidate called under one reading and not under another named, with the authority on each side. Where
the policy calls groups of posts apart (`shortlist.separate`), each list is compared with itself under every
reading, and contested.csv names the list (`post_list`)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..data.problem import Problem
from ..errors import Unsupported
from ..exam.shortlist import Shortlist, shortlists
from ..policy import Policy
from .readings import OpenOption, combinations, sources

CONTESTED_COLUMNS = ["candidate_id", "reading", "outcome", "alternative", "list", "alternative_list", "rule",
                     "source"]
POST_LIST = "post_list"     # (contested.csv's last column where posts are called apart: the list's name)


@dataclass
class ShortlistAudit:
    options: list[OpenOption]
    # (name, sets, rule, source, each list's shortlist: {"": the one} where no posts are called apart)
    readings: list[tuple[str, tuple[str, ...], str, str, dict[str, Shortlist]]]
    ids: tuple[str, ...]                                               # the candidates, in merit order
    contested: list[list[str]] = field(default_factory=list)           # CONTESTED_COLUMNS rows

    def called(self, reading: str = "as given") -> list[str]:
        """The ids called (in any list) under one reading (the policy as given by default), in merit order."""
        calls = next(s for name, _, _, _, s in self.readings if name == reading)
        called = np.logical_or.reduce([s.called for s in calls.values()])
        return [self.ids[i] for i in called.nonzero()[0].tolist()]

    @property
    def lists(self) -> tuple[str, ...]:
        """The lists of posts called apart, in the policy's order; () where the shortlist is one list."""
        return tuple(name for name in self.readings[0][4] if name)


def audit_shortlist(policy: Policy, problem: Problem, ratio: float, options: list[OpenOption], load) \
        -> ShortlistAudit:
    """The shortlist under the policy as given and under each combination of `options` (`load(sets)` gives the
    policy with those overrides), and every candidate whose call differs between the policy as given and a
    reading.

    Parameters
    ----------
    policy, problem, ratio : as `solver.exam.shortlist.shortlist` takes them.
    options : the open questions to vary (`solver.audit.readings.open_options(..., decides="shortlist")`).
    load : sets -> Policy.

    Returns
    -------
    ShortlistAudit: the readings (each with its shortlist) and the contested rows, in merit order.

    Example
    -------
    >>> import tempfile, pathlib
    >>> from solver import load_policy
    >>> from solver.io.readers import read_problem
    >>> from solver.audit.readings import open_options
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "c.csv").write_text("id,score,category,pwbd\\nU1,100,UR,\\nO1,90,OBC,\\nB1,80,UR,a\\n")
    >>> _ = (d / "v.csv").write_text("post,category,vacancies,pwbd\\nX,UR,1,1\\nX,OBC,1,\\n")
    >>> pol = load_policy("upsc-cse")
    >>> prob = read_problem(pol, d / "c.csv", d / "v.csv")
    >>> a = audit_shortlist(pol, prob, 1, open_options(pol, problem=prob, decides="shortlist"),
    ...                     lambda sets: load_policy("upsc-cse", list(sets)))
    >>> [(row[0], row[2], row[3]) for row in a.contested]
    [('B1', 'called', 'not called')]
    """
    ids = tuple(str(x) for x in problem.candidates.ids)
    base = shortlists(policy, problem, ratio)
    readings = [("as given", (), "", "", base)]
    found = []
    for sets in combinations(policy, options):
        rule, source = sources(policy, options, sets)
        other = shortlists(load(sets), problem, ratio)
        if other.keys() != base.keys():
            raise Unsupported(f"the reading {'; '.join(sets)} calls other lists of posts apart than the policy as "
                              "given: comparing shortlists of different lists is not built")
        name = "; ".join(sets)
        readings.append((name, sets, rule, source, other))
        for k, (lst, s) in enumerate(base.items()):
            o = other[lst]
            found += [((i, name, k), [ids[i], name, _outcome(s, i), _outcome(o, i), s.counted_as[i], o.counted_as[i],
                                      rule, source] + ([lst] if lst else []))
                      for i in (s.called != o.called).nonzero()[0].tolist()]
    found.sort(key=lambda x: x[0])     # merit order, then the reading, then the list
    return ShortlistAudit(options, readings, ids, [row for _, row in found])


def _outcome(s: Shortlist, i: int) -> str:
    return "called" if s.called[i] else "not called"
