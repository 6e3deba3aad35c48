"""Work that lets go of the interpreter (file reads, hashing, Arrow's parsing) done in a thread while the main
thread goes on: on two cores, JoSAA's input hashing and the preferences' decoding overlap the rest of a run."""
from __future__ import annotations

import threading


class Background:
    """`fn(*args)` started in a daemon thread (a run that fails meanwhile does not wait for it); `result()` waits
    and returns its value or raises its exception, in the caller's thread.

    Example
    -------
    >>> Background(sum, [1, 2, 3]).result()
    6
    >>> Background(int, "x").result()
    Traceback (most recent call last):
    ...
    ValueError: invalid literal for int() with base 10: 'x'
    """

    def __init__(self, fn, *args, **kwargs):
        self._value, self._error = None, None

        def work():
            try:
                self._value = fn(*args, **kwargs)
            except BaseException as e:   # (handed to the caller of result())
                self._error = e

        self._thread = threading.Thread(target=work, daemon=True, name=f"aarakshan-{getattr(fn, '__name__', 'work')}")
        self._thread.start()

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value
