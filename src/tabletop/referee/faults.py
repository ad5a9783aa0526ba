"""Named steps of a change, where tests inject a crash.

Production code calls :func:`point` at every step boundary of a change (the
journal written, the secrets written, the log appended, each mail queued, the
settings saved, the journal removed). Tests set :data:`hook` to a function
that raises at one of them, then check that the next run completes the
change exactly once. ``pbem watch`` names the moments a test waits for
instead of a time: its signals taken (``watch-signals``), and each wait for
mail once a poll is done (``watch-waiting``).
"""

from __future__ import annotations

from collections.abc import Callable

hook: Callable[[str], None] | None = None


def point(name: str) -> None:
    """A step boundary named ``name`` (nothing happens unless a test set a hook)."""
    if hook is not None:
        hook(name)
