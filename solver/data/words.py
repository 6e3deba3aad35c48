"""Words the outputs share: the article before a category code, a route or a trait, as said aloud."""
from __future__ import annotations


def article(word: str) -> str:
    """"an" or "a" before `word`: a code in capitals is said letter by letter (an OBC, an SC, an HS, a UR, a BC),
    any other word as written (an open_merit, a reserved, an ex_serviceman, a pwbd).

    Example
    -------
    >>> [article(w) for w in ("OBC", "SC", "EWS", "UR", "BC", "DT-A", "open_merit", "reserved", "women")]
    ['an', 'an', 'an', 'a', 'a', 'a', 'an', 'a', 'a']
    """
    if word[:1].isupper():
        return "an" if word[:1] in "AEFHILMNORSX" else "a"      # (the letters said with a leading vowel sound)
    return "an" if word[:1].lower() in "aeiou" else "a"
