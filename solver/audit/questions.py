"""The questions `aarakshan audit --ask` takes: `ID` (is there a lawful allocation selecting ID?), `ID@POST`
(selecting ID at POST?), `!ID` (not selecting ID?)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import OptionError
from ..data.problem import Problem


@dataclass(frozen=True)
class Question:
    text: str        # as asked
    candidate: int   # merit index
    post: int | None  # post index for ID@POST
    selected: bool   # False for !ID

    @property
    def name(self) -> str:
        """A folder name for the question's alternative allocation: the question spelt out where that is a
        plain, short file name ("not-C", "C-at-X"); "" otherwise (the audit then numbers it, "question-3")."""
        name = self.text.strip().replace("!", "not-").replace("@", "-at-")
        return name if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name) else ""


def parse(text: str, problem: Problem) -> Question:
    """`ID`, `ID@POST` or `!ID`, checked against the candidates and posts (exit 2 naming what is unknown)."""
    raw = text.strip()
    selected = not raw.startswith("!")
    body = raw[1:] if not selected else raw
    cid, _, post = body.partition("@")
    index = {c: i for i, c in enumerate(problem.candidates.ids)}
    if cid not in index:
        raise OptionError("questions", f"{text!r}: no candidate {cid!r} in "
                         f"{problem.sources.get('candidates', 'candidates.csv')}")
    if post and post not in problem.posts:
        raise OptionError("questions", f"{text!r}: no post {post!r} in "
                         f"{problem.sources.get('vacancies', 'vacancies.csv')}; posts: {', '.join(problem.posts)}")
    if post and not selected:
        raise OptionError("questions", f"{text!r}: ask '!ID' (not selected at all) or 'ID@POST', not both")
    return Question(raw, index[cid], problem.posts.index(post) if post else None, selected)
