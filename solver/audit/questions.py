"""The questions `aarakshan audit --ask` takes: `ID` (is there a lawful allocation selecting ID?), `ID@POST`
(selecting ID at POST?), `!ID` (not selecting ID?). With seat pools, POST may be a program: any of its seat pools
(`IIT1-CSE` asks about each of `IIT1-CSE`, `IIT1-CSE [female]`, ...; a pool's own name asks about it alone)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import OptionError
from ..data.problem import Problem


@dataclass(frozen=True)
class Question:
    text: str        # as asked
    candidate: int   # merit index
    post: int | tuple[int, ...] | None   # the post(s) of ID@POST: one, or a program's seat pools; None: any
    selected: bool   # False for !ID

    @property
    def posts(self) -> tuple[int, ...] | None:
        """The posts asked about (None: any)."""
        return (self.post,) if isinstance(self.post, int) else self.post

    def named(self, posts) -> str | None:
        """The post asked about by its name in `posts`, or "a seat of PROGRAM" for a program's seat pools; None
        where any seat is asked about."""
        if self.post is None:
            return None
        return posts[self.post] if isinstance(self.post, int) else f"a seat of {self.text.partition('@')[2]}"

    def asks(self, post: int) -> bool:
        """Whether a seat at `post` is what the question asks about."""
        return self.post is None or post in self.posts

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
    posts = _posts(text, post, problem) if post else None
    if post and not selected:
        raise OptionError("questions", f"{text!r}: ask '!ID' (not selected at all) or 'ID@POST', not both")
    return Question(raw, index[cid], posts, selected)


def _posts(text: str, post: str, problem: Problem) -> int | tuple[int, ...]:
    """The post named `post`, or every seat pool of the program so named."""
    pools = tuple(j for j, p in enumerate(problem.post_pools) if p is not None and p.program == post)
    if pools:
        return pools
    if post not in problem.posts:
        programs = list(dict.fromkeys(p.program for p in problem.post_pools if p is not None))
        raise OptionError("questions", f"{text!r}: no post {post!r} in "
                         f"{problem.sources.get('vacancies', 'vacancies.csv')}; "
                         + (f"programs: {_some(programs)}; seat pools" if programs else "posts")
                         + f": {_some(problem.posts)}")
    return problem.posts.index(post)


def _some(names, most: int = 12) -> str:
    """The first `most` of `names`, and how many more (JoSAA's 27,000 seat pools in a message)."""
    names = list(names)
    return ", ".join(names[:most]) + (f" and {len(names) - most:,} more" if len(names) > most else "")
