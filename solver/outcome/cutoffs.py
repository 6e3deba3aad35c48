"""cutoffs.csv: per post and seat category, how many hold its seats and the last (worst) merit among them, on the
list that ranks the post (JoSAA's closing rank of a seat pool, published after every round). One table for the
allocation, the fill's appointments and a round of counselling, each handing in its holders."""
from __future__ import annotations

from typing import Iterable

from ..data.problem import Problem

CUTOFF_COLUMNS = ["post", "category", "filled", "last_rank", "last_score"]


def cutoff_rows(problem: Problem, codes: Iterable[str], held: Iterable[tuple[int, int, str]],
                offered: frozenset | set = frozenset()) -> list[list]:
    """The rows of cutoffs.csv, post by post in the problem's order and within a post in `codes`' order.

    Parameters
    ----------
    problem : the recruitment (its candidates' scores and merit lists, and `list_of` for the list ranking a post).
    codes : the seat categories in the order they are written (the open one, then the reserved ones).
    held : (merit position, post index, seat category) of every holder.
    offered : (post index, seat category) pairs written even where nobody holds a seat (the seats there were).

    Returns
    -------
    `[post, category, filled, last_rank, last_score]` per pair held or offered: `last_rank` the worst holder's
    place (1 the best) on the post's own list (`Problem.list_of`), or in the candidates' merit; `last_score` his
    score where the post ranks by the candidates' own merit and there are scores; empty where nobody holds one.

    Example
    -------
    >>> import numpy as np
    >>> from solver.data.problem import Candidates, Problem, VacancyRow
    >>> c = Candidates(np.array(["A", "B", "C"], dtype=object), np.array(["UR", "SC", "UR"], dtype=object),
    ...                *[np.zeros(3, bool)] * 3, np.array([""] * 3, dtype=object), np.zeros(3, bool),
    ...                np.array([90.0, 80.5, 70.0]), np.array([2, 3, 4]))
    >>> p = Problem(c, ("P",), (VacancyRow("P", "UR", 2), VacancyRow("P", "SC", 1), VacancyRow("P", "ST", 1)))
    >>> cutoff_rows(p, ["UR", "SC", "ST"], [(0, 0, "UR"), (2, 0, "UR"), (1, 0, "SC")], {(0, "ST")})
    [['P', 'UR', 2, 3, '70'], ['P', 'SC', 1, 2, '80.5'], ['P', 'ST', 0, '', '']]
    """
    lists = problem.lists
    count: dict[tuple[int, str], int] = {}
    worst: dict[tuple[int, str], tuple[int, int]] = {}       # (place on the post's list, merit position)
    for i, j, code in held:
        key = (j, code)
        k = problem.list_of(j, code) if lists is not None else 0
        place = (int(lists.position[k, i]) if k else i, i)
        count[key] = count.get(key, 0) + 1
        if place > worst.get(key, (-1, -1)):
            worst[key] = place
    score = problem.candidates.score
    out = []
    for j, post in enumerate(problem.posts):
        for code in codes:
            key = (j, code)
            if key not in count and key not in offered:
                continue
            if key not in worst:
                out.append([post, code, 0, "", ""])
                continue
            place, i = worst[key]
            listed = lists is not None and problem.list_of(j, code)
            out.append([post, code, count[key], place + 1,
                        "" if score is None or listed else number_text(score[i])])
    return out


def allocation_cutoffs(problem: Problem, codes: Iterable[str], rows: Iterable[list],
                       offered: Iterable[tuple[str, str]] = ()) -> list[list]:
    """`cutoff_rows` of allocation.csv's rows (post second, seat category third, rank last: the fill's appointments,
    a round's holders), and `offered` (post, seat category) pairs by name."""
    index = problem.post_index
    return cutoff_rows(problem, codes, ((int(r[-1]) - 1, index[r[1]], r[2]) for r in rows),
                       {(index[post], code) for post, code in offered})


def number_text(v: float) -> str:
    """A score as every output file writes it: a whole number without its point, else Python's shortest repr.

    >>> number_text(90.0), number_text(80.5)
    ('90', '80.5')
    """
    return str(int(v)) if float(v).is_integer() else repr(float(v))
