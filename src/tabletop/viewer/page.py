"""Building the viewer's page: a replay folded once, a picture per step, and
the pictures stored as the lines that change from one step to the next."""

from __future__ import annotations

import base64
import difflib
import json
import re
from collections.abc import Sequence
from html import escape
from importlib import resources
from pathlib import Path

import attrs

from .. import files
from ..engine import Match, Replay
from ..errors import TabletopError
from ..events import Event
from ..registry import Registry
from ..standing import check_viewer, status


@attrs.frozen
class Step:
    """The game after one event (step 0: before the first)."""

    seq: int
    #: The event in notation, as the viewer may see it ("" at step 0).
    text: str
    #: The board: an SVG picture, or the text board in ``<pre>`` when the game draws none.
    picture: str
    #: Whose turn it is, or the result.
    status: str
    scores: tuple[int, ...]


def build(registry: Registry, log: Path | str, viewer: str | None = None) -> tuple[Match, list[Step]]:
    """Replay ``log`` and picture every step as ``viewer`` may see it (None: everything)."""
    replay = Replay(registry, Path(log))
    match = replay.match
    check_viewer(match, viewer)
    try:
        renderer = registry.renderer(match.header.game, "svg")
    except TabletopError:
        renderer = None  # any game: the text board stands in for a picture

    def picture(history: Sequence[Event]) -> str:
        if renderer is not None:
            return renderer.draw(match.game, match.state, viewer, history)
        return f'<pre class="board">{escape(match.game.render(match.state, viewer))}</pre>'

    def step(seq: int, text: str, history: Sequence[Event]) -> Step:
        # Scored on the viewer's view: a score can never tell what the view hides.
        scores = match.game.outcome(match.game.view(match.state, viewer)).scores
        return Step(seq, text, picture(history), status(match, viewer), tuple(scores[p] for p in match.header.players))

    history: list[Event] = []
    steps = [step(0, "", history)]
    for _, seq, event in replay:
        history.append(event)
        steps.append(step(seq, match.describe(event, viewer), history))
    return match, steps


def encode_pictures(pictures: Sequence[str]) -> dict[str, object]:
    """The pictures as a table of distinct lines, the first picture as line
    numbers and each later one as the edits from the one before: a long game's
    pictures differ in a few lines a step, and the page stays small (and every
    word in it stays plain text)."""
    table: dict[str, int] = {}
    frames: list[list[int]] = []
    for text in pictures:
        frames.append([table.setdefault(line, len(table)) for line in text.split("\n")])
    edits: list[list[object]] = []
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    for before, after in zip(frames, frames[1:]):
        matcher.set_seqs(before, after)
        edits.append([[i1, i2, after[j1:j2]] for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"])
    return {"lines": list(table), "first": frames[0] if frames else [], "edits": edits}


def _json(data: object) -> str:
    # Safe inside <script>: no "</script>" or "<!--" can close or open anything.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def page(registry: Registry, log: Path | str, viewer: str | None = None, live: str | None = None) -> str:
    """The viewer's HTML page for ``log`` as ``viewer`` may see it. ``live``:
    the page is served by ``tabletop watch`` and this is the log's stamp;
    the page reloads when the log changes."""
    match, steps = build(registry, log, viewer)
    header = match.header
    game_title = match.game.title or header.game
    heading = f"{game_title}: {', '.join(header.players)}"
    seen = f"as {viewer} sees it" if viewer else "everything shown"
    data = {
        "players": list(header.players),
        "texts": [s.text for s in steps],
        "status": [s.status for s in steps],
        "scores": [list(s.scores) for s in steps],
        "pictures": encode_pictures([s.picture for s in steps]),
        "live": live,
    }
    items = "\n".join(
        f'<li id="e{s.seq}" data-step="{s.seq}"><span class="seq">{s.seq}.</span> {escape(s.text)}</li>'
        for s in steps[1:]
    )
    folder = resources.files(__package__)
    template = (folder / "page.html").read_text(encoding="utf-8")
    replacements = {
        "title": escape(f"{heading} ({seen})"),
        "heading": escape(heading),
        "seen": escape(seen),
        "variants": escape(", ".join(header.variants) or "official rules"),
        "last": str(len(steps) - 1),
        "events": items,
        "style": (folder / "viewer.css").read_text(encoding="utf-8"),
        "script": (folder / "viewer.js").read_text(encoding="utf-8"),
        "data": _json(data),
        "connect": " connect-src 'self';" if live is not None else "",
        "download": _download(Path(log), viewer, live),
    }
    # One pass, so that nothing put in (a player's name, say) is read as a placeholder.
    return re.sub(r"\{\{(\w+)\}\}", lambda m: replacements[m.group(1)], template)


def _download(log: Path, viewer: str | None, live: str | None) -> str:
    """A link to the log, on the page that shows everything (a player's page
    holds nothing of the log that the player may not see, so none)."""
    if viewer is not None:
        return ""
    name = escape(log.name, quote=True)
    if live is not None:
        href = "log.jsonl"
    else:
        href = "data:application/x-ndjson;base64," + base64.b64encode(log.read_bytes()).decode("ascii")
    return f' · <a id="download" href="{href}" download="{name}">download the log</a>'


def write_html(registry: Registry, log: Path | str, output: Path | str, viewer: str | None = None) -> Path:
    """Write the viewer's page for ``log`` (as ``viewer`` may see it) to
    ``output``, whole or not at all; returns ``output``."""
    text = page(registry, log, viewer)
    output = Path(output)
    files.replace(output, text.encode("utf-8"))
    return output
