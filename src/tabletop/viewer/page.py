"""Building the viewer's page: a replay folded once, a picture per step, and
the pictures stored as the lines that change from one step to the next."""

from __future__ import annotations

import base64
import difflib
import hashlib
import json
import re
from collections.abc import Callable, Sequence
from html import escape
from importlib import resources
from pathlib import Path

import attrs

from ..base.errors import TabletopError
from ..host.extensions import Legend, Renderer
from ..host.registry import Registry
from ..log import files
from ..model.events import CHANCE, DECISION, Event
from ..model.nodes import Chance, Decide
from ..play.engine import Match, Replay
from ..play.standing import check_viewer, status
from ..sight import seen
from ..sight.svg import shape


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
    #: The event's origin: "decision", "chance", "rules" ("" at step 0).
    origin: str = ""
    #: The player whose decision the event is (None for any other event).
    actor: str | None = None
    #: The players whose decision is due after the event.
    acting: tuple[str, ...] = ()
    #: The player whose turn it is in the turn order, as the game's legend says (None: no one's, or unknown).
    turn: str | None = None
    #: The player a chance outcome is due for (a draw into their hand), when it is one player's.
    due: str | None = None


def build(registry: Registry, log: Path | str, viewer: str | None = None) -> tuple[Match, list[Step]]:
    """Replay ``log`` and picture every step as ``viewer`` may see it (None: everything)."""
    replay = Replay(registry, Path(log))
    match = replay.match
    if viewer != seen.PUBLIC:  # an onlooker with no seat sees what every seat may (a turn page's observer)
        check_viewer(match, viewer)
    renderer = renderer_of(registry, match)
    key = legend_of(renderer, match)

    def picture(history: Sequence[Event]) -> str:
        if renderer is not None:
            return seen.picture(renderer, match.game, match.state, viewer, history)
        return f'<pre class="board">{escape(seen.text(match.game, match.state, viewer))}</pre>'

    def step(seq: int, event: Event | None, history: Sequence[Event]) -> Step:
        # Scored on the viewer's view: a score can never tell what the view hides.
        scores = seen.scores(match.game, match.state, viewer)
        node = match.node
        origin = "" if event is None else event.origin if event.origin in (DECISION, CHANCE) else "rules"
        return Step(
            seq,
            "" if event is None else match.describe(event, viewer),
            picture(history),
            status(match, viewer),
            tuple(scores[p] for p in match.header.players),
            origin,
            getattr(event, "player", None) if origin == DECISION else None,
            tuple(node.players) if isinstance(node, Decide) else (),
            seen.turn(key, match.game, match.state, viewer),
            _due(node),
        )

    history: list[Event] = []
    steps = [step(0, None, history)]
    for _, seq, event in replay:
        history.append(event)
        steps.append(step(seq, event, history))
    return match, steps


def renderer_of(registry: Registry, match: Match) -> Renderer | None:
    try:
        return registry.renderer(match.header.game, "svg")
    except TabletopError:
        return None  # any game: the text board stands in for a picture


def legend_of(renderer: Renderer | None, match: Match) -> Legend | None:
    """The game's key to its pictures, when its renderer gives one."""
    return None if renderer is None else renderer.key(match.game)


def _due(node: object) -> str | None:
    # A chance outcome every possibility of which is one player's (their draw).
    if not isinstance(node, Chance):
        return None
    whose = {getattr(o, "player", None) for o in node.outcomes}
    return whose.pop() if len(whose) == 1 and None not in whose else None


def key_html(legend: Legend | None, players: Sequence[str]) -> str:
    """The colour key of the seats and the legend of the board's symbols, as
    HTML (each symbol's item carries its key: the page shows those the board
    shows)."""
    if legend is None:
        return ""
    seats = "".join(
        f'<li class="seat" data-seat="{i}">{swatch(i, legend.seats[i])} {escape(p)}</li>'
        for i, p in enumerate(players)
        if i < len(legend.seats)
    )
    symbols = "".join(
        f'<li data-symbol="{escape(s.key, quote=True)}"><svg class="symbol" viewBox="0 0 24 24" width="24" '
        f'height="24" aria-hidden="true">{s.picture}</svg> {escape(s.meaning)}</li>'
        for s in legend.symbols
    )
    # Shown once, beside the board; it folds away (on a phone it starts folded).
    return (
        '<details id="legend" open aria-label="Key to the board">'
        f'<summary>Key</summary><ul id="seats" aria-label="Seats">{seats}</ul>'
        f'<ul id="symbols" aria-label="Symbols on the board">{symbols}</ul></details>'
    )


def swatch(seat: int, colour: str) -> str:
    """A seat's mark in its colour, as a small inline picture."""
    return (
        '<svg class="swatch" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">'
        f"{shape(seat, 8, 8, 6, colour, '#333', 1)}</svg>"
    )


def turns(steps: Sequence[Step], legend: Legend | None = None) -> list[int]:
    """The turn of each step: 0 in setup, then a new turn whenever a
    decision is another player's than the turn's.

    Setup is not counted: it lasts until someone's turn it is in the turn
    order, as the game's legend reads it (``Legend.turn``: None through
    setup), so turn 1 is the first turn after it. A game whose legend does
    not say whose turn it is counts from its first decision."""
    ordered = legend is not None and legend.turn is not None
    found, turn, player, begun = [], 0, None, not ordered
    for before, s in zip([None, *steps], steps):
        # The event happens in the turn the step before it is in.
        begun = begun or (before is not None and before.turn is not None)
        if begun and s.origin == DECISION and s.actor != player:
            turn, player = turn + 1, s.actor
        found.append(turn)
    return found


def has_points(legend: Legend | None) -> bool:
    """Whether the game keeps points worth a row of the score table (a game
    won another way says so in its legend: its scores only mark the winner)."""
    return legend is None or legend.points


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


def data_json(data: object) -> str:
    # Safe inside <script>: no "</script>" or "<!--" can close or open anything.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _view(steps: Sequence[Step], name: str, label: str) -> dict[str, object]:
    """What differs from one perspective to another: the texts, pictures, status and scores."""
    return {
        "name": name,
        "label": label,
        "texts": [s.text for s in steps],
        "status": [s.status for s in steps],
        "scores": [list(s.scores) for s in steps],
        "acting": [list(s.acting) for s in steps],
        "turn": [s.turn for s in steps],
        "due": [s.due for s in steps],
        "pictures": encode_pictures([s.picture for s in steps]),
    }


def page(
    registry: Registry,
    log: Path | str,
    viewer: str | None = None,
    also: Sequence[str] = (),
    addition: str = "",
    connect: bool = False,
) -> str:
    """The viewer's HTML page for ``log`` as ``viewer`` may see it. ``also``:
    more players whose views the page holds too, to switch between (only
    these players' views: nothing else goes in). Without ``viewer`` the page
    shows everything, and for a finished game holds every player's view as
    well, and the log to download. ``addition``: HTML put in the page beside
    the board and events (a study: :mod:`tabletop.viewer.studied`);
    ``connect``: the page may ask its own server (the analysis board)."""
    return _page(registry, log, viewer, also, live=False, addition=addition, connect=connect).html


@attrs.frozen
class Watched:
    """A page as ``tabletop watch`` serves it."""

    html: str
    #: A digest of the page: it changes when, and only when, what the page shows does.
    stamp: str
    #: Whether the game is over (its log, every hidden draw in it, may then be served).
    over: bool


def watched(registry: Registry, log: Path | str, viewer: str | None = None, addition: str = "") -> Watched:
    """The page that ``tabletop watch`` serves: it opens at the latest event,
    follows the game, and asks the server when to reload. Its stamp is drawn
    from the page alone, never from the file (whose size and time would tell
    a seat how long a hidden draw is written, or when it was made).
    ``addition``: HTML beside the board (a turn page's seat: what it may do)."""
    return _page(registry, log, viewer, (), live=True, addition=addition)


def stamped(fill: Callable[[str | None], str]) -> tuple[str, str]:
    """A page that holds its own stamp: ``fill(stamp)`` is the page; its
    stamp is the digest of the page filled with an empty one."""
    stamp = hashlib.sha256(fill("").encode("utf-8")).hexdigest()[:32]
    return fill(stamp), stamp


def _page(
    registry: Registry,
    log: Path | str,
    viewer: str | None,
    also: Sequence[str],
    live: bool,
    addition: str = "",
    connect: bool = False,
) -> Watched:
    match, steps = build(registry, log, viewer)
    header = match.header
    legend = legend_of(renderer_of(registry, match), match)
    viewers = [viewer, *(p for p in also if p != viewer)]
    if viewer is None and match.over:
        viewers += [p for p in header.players if p not in viewers]
    views = [_view(steps, viewer or "", viewer or "everything")]
    for other in viewers[1:]:
        views.append(_view(build(registry, log, other)[1], other, other))
    names = [v for v in viewers if v is not None]
    game_title = match.game.title or header.game
    heading = f"{game_title}: {', '.join(header.players)}"
    if viewer is None:
        seen = "everything shown"
    elif viewer == "":  # the public view (no seat's name): what every seat may see
        seen = "as any onlooker sees it"
    elif len(names) == 1:
        seen = f"as {viewer} sees it"
    else:
        seen = f"as {', '.join(names[:-1])} and {names[-1]} see it"
    turn = turns(steps, legend)
    data = {
        "players": list(header.players),
        "origins": [s.origin for s in steps],
        "actors": [s.actor for s in steps],
        "turns": turn,
        "views": views,
        "live": None,
        "seats": [swatch(i, c) for i, c in enumerate(legend.seats)] if legend is not None else [],
        "chance": legend.chance if legend is not None else "chance outcome",
        "points": has_points(legend),
    }
    items = []
    if len(steps) > 1 and turn[1] == 0:
        items.append('<li class="turn" aria-hidden="true">Setup</li>')
    for s in steps[1:]:
        if turn[s.seq] != turn[s.seq - 1]:
            items.append(f'<li class="turn" aria-hidden="true">Turn {turn[s.seq]} · {escape(s.actor or "")}</li>')
        items.append(
            f'<li id="e{s.seq}" data-step="{s.seq}" class="{s.origin}" role="option" aria-selected="false">'
            f'<span class="seq">{s.seq}.</span> {escape(s.text)}</li>'
        )
    folder = resources.files(__package__)
    template = (folder / "page.html").read_text(encoding="utf-8")
    choose = "".join(f'<option value="{escape(p, quote=True)}">{escape(p)}</option>' for p in header.players)
    perspectives = "".join(
        f'<option value="{i}">{escape(v["label"])}</option>'
        for i, v in enumerate(views)  # type: ignore[index]
    )
    replacements = {
        "title": escape(f"{heading} ({seen})"),
        "heading": escape(heading),
        "seen": escape(seen),
        "variants": escape(", ".join(header.variants) or "official rules"),
        "last": str(len(steps) - 1),
        "events": "\n".join(items),
        "players": choose,
        "perspectives": perspectives,
        "perspective_hidden": "" if len(views) > 1 else " hidden",
        "style": (folder / "viewer.css").read_text(encoding="utf-8"),
        "script": (folder / "viewer.js").read_text(encoding="utf-8"),
        "frames": (folder / "frames.js").read_text(encoding="utf-8"),
        "data": data_json(data),
        "connect": " connect-src 'self';" if live or connect else "",
        "download": _download(Path(log), viewer, live, match.over),
        "legend": key_html(legend, header.players),
        "study": addition,
    }

    def fill(stamp: str | None) -> str:
        replacements["data"] = data_json({**data, "live": stamp})
        # One pass, so that nothing put in (a player's name, say) is read as a placeholder.
        return re.sub(r"\{\{(\w+)\}\}", lambda m: replacements[m.group(1)], template)

    if not live:
        return Watched(fill(None), "", match.over)
    return Watched(*stamped(fill), match.over)


def _download(log: Path, viewer: str | None, live: bool, over: bool) -> str:
    """A link to the log, on the page that shows everything of a finished
    game. A player's page holds nothing of the log that the player may not
    see; and the log of a game in progress holds every hidden draw, and its
    open seed, if any, foretells every draw to come."""
    if viewer is not None or not over:
        return ""
    name = escape(log.name, quote=True)
    if live:
        href = "log.jsonl"
    else:
        href = "data:application/x-ndjson;base64," + base64.b64encode(log.read_bytes()).decode("ascii")
    return f' · <a id="download" href="{href}" download="{name}">download the log</a>'


def write_html(
    registry: Registry,
    log: Path | str,
    output: Path | str,
    viewer: str | None = None,
    also: Sequence[str] = (),
    addition: str = "",
) -> Path:
    """Write the viewer's page for ``log`` (as ``viewer`` may see it, and
    ``also`` these players; with ``addition``, see :func:`page`) to
    ``output``, whole or not at all; returns ``output``."""
    text = page(registry, log, viewer, also, addition)
    output = Path(output)
    files.replace(output, text.encode("utf-8"))
    return output
