"""Progress of the evaluation steps for a caller that runs them in its own process
(`ragpipe eval`): assets report through ``advance``, which does nothing unless a listener
is set, so runs launched by the daemon or the UI are unaffected."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

Listener = Callable[[str, int, int], None]
_listener: Listener | None = None


def advance(step: str, done: int, total: int) -> None:
    if _listener is not None:
        _listener(step, done, total)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    global _listener
    previous, _listener = _listener, listener
    try:
        yield
    finally:
        _listener = previous
