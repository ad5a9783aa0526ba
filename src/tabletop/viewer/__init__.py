"""The step-through viewer: one self-contained HTML page for a recorded game.

The page holds the board after every event, the events in notation, and
whose turn it is and the scores at each step, and steps through them with
buttons, the arrow keys and a slider. It needs no network and no server: it
opens from disk or as a mail attachment.

A page made for one player holds only what that player may see: events are
written with the game's ``format`` for that player and pictures are drawn
from the game's ``view`` for them; nothing else of the log goes in.

    from tabletop.viewer import write_html
    write_html(registry, "game.jsonl", "game-ann.html", viewer="ann")

May import: base, log, model, host, sight, play, api, testing, many, review, ai.
"""

from __future__ import annotations

from .page import Step, build, page, write_html

__all__ = ["Step", "build", "page", "write_html"]
