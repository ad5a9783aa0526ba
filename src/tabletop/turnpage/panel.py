"""What a reader may do, beside the board of their turn page: a seat's
decisions (from the list, or by clicking the board), votes, press,
conditional moves and resigning; the game master's commands; nothing for
an observer. Each form posts a mail's line (its key and value) and nothing
else: the referee runs it as the reader's mail would be run.

Everything here is made from the reader's own knowledge: their legal
decisions (as their mail lists them), the votes as their mail tells them,
the press every player gets, their own conditional moves. Every word that
comes from a player (names, press, notation) is escaped."""

from __future__ import annotations

import json
import re
from html import escape
from importlib import resources
from typing import TYPE_CHECKING

from ..model.nodes import Decide, Over
from ..referee import commands, conditionals, notices, pages, votes
from ..referee.letters import waiting_for
from ..sight import seen

if TYPE_CHECKING:
    from ..play.engine import Match
    from ..referee.referee import Referee

#: The most legal decisions a page lists (the mail lists 40; ``legal`` by mail lists them all).
LISTED = 2000
#: The press shown, the latest first.
PRESS_SHOWN = 50
#: Where the answer to the reader's last post goes (put in after the page is stamped).
ANSWER = "<!--turnpage-answer-->"
#: What a seat's page may post: a mail's keys (the game master's are the master commands'),
#: and a substitute's page, offered a seat.
SEAT_KEYS = ("move", "vote", "unvote", "press", "if", "clear", "resign")
OFFER_KEYS = ("claim",)


def master_keys() -> tuple[str, ...]:
    return tuple(c.name for c in commands.master_commands() if c.name != "help")


def section(ref: Referee, match: Match, reader: str, csrf: str) -> str:
    """The panel of ``reader`` (a seat, ``observer:ADDRESS``, :data:`pages.MASTER`)."""
    if reader.startswith(pages.OBSERVER):
        body = [_asked(ref, match, seen.PUBLIC), _notices(ref, match, None)]
        title = "You are watching"
    elif reader.startswith(pages.OFFER):
        offer = pages.offer_of(ref.settings, reader)
        seat = offer["seat"] if offer else ""
        inner = (
            f"<p>{escape(seat)}'s seat in this game is offered to you: the first claim takes it. You then get a "
            "secret of your own by mail, and this game as the seat sees it.</p>"
            '<button type="submit" id="claim">Take the seat</button>'
        )
        body = [_form(csrf, "claim", inner), _asked(ref, match, seen.PUBLIC)]
        title = "A seat is offered to you"
    elif reader == pages.MASTER:
        body = [_asked(ref, match, seen.PUBLIC), _notices(ref, match, None), _master(ref, csrf)]
        title = "Game master"
    else:
        body = [
            _asked(ref, match, reader),
            _decisions(match, reader, csrf),
            _votes(ref, match, reader, csrf),
            _conditionals(ref, reader, csrf),
            _press(ref, reader, csrf),
            _resign(match, reader, csrf),
        ]
        title = f"Your seat: {reader}"
    style = resources.files(__package__).joinpath("panel.css").read_text(encoding="utf-8")
    script = resources.files(__package__).joinpath("panel.js").read_text(encoding="utf-8")
    return (
        f'<section id="turn" aria-label="{escape(title, quote=True)}"><style>{style}</style>'
        f"<h2>{escape(title)}</h2>{ANSWER}" + "".join(body) + f"<script>{script}</script></section>"
    )


#: A mail's answer names the line at fault: a page's post has one line, and the number says nothing there.
_LINE = re.compile(r"\bline \d+: ")


def answer_html(answers: list[tuple[str, str]], report: str) -> str:
    """The answer to a post, as the mail would have read (its first line, then its text)."""
    answers = [(first, _LINE.sub("", text)) for first, text in answers]
    if not answers:
        return f'<div id="answer" role="status"><p>Done: {escape(report)}</p></div>'
    parts = "".join(
        f"<p><strong>{escape(first)}</strong></p><pre>{escape(text.split(chr(10), 1)[1].strip() if chr(10) in text else '')}</pre>"
        for first, text in answers
    )
    return f'<div id="answer" role="status">{parts}</div>'


def _form(csrf: str, key: str, inner: str, *, ident: str = "", confirm: str = "") -> str:
    attributes = f' id="{ident}"' if ident else ""
    if confirm:
        attributes += f' data-confirm="{escape(confirm, quote=True)}"'
    return (
        f'<form method="post" action="post"{attributes}><input type="hidden" name="csrf" value="{escape(csrf, quote=True)}">'
        f'<input type="hidden" name="post" value=""><input type="hidden" name="key" value="{escape(key, quote=True)}">'
        f"{inner}</form>"
    )


def _asked(ref: Referee, match: Match, reader: str) -> str:
    node = match.node
    if isinstance(node, Over):
        return '<p id="asked">The game is over.</p>'
    if ref.settings.ended:
        return '<p id="asked">The game was ended by the game master.</p>'
    if reader != seen.PUBLIC and isinstance(node, Decide) and reader in node.players:
        text = f"It is your turn: {seen.asks(match.game, match.state, reader)}."
        deadline = ref.clock.deadline_of(reader)
        when = f'<p id="deadline">Deadline: {escape(ref.clock.when(deadline, reader))}</p>' if deadline else ""
        secret = (
            "<p>This decision is secret: it is sealed until every player has made theirs.</p>" if node.sealed else ""
        )
        return f'<p id="asked" class="yours"><strong>{escape(text)}</strong></p>{secret}{when}'
    paused = "<p>The game is paused.</p>" if ref.settings.paused else ""
    return f'<p id="asked">Waiting for {escape(waiting_for(match))}.</p>{paused}'


def _notices(ref: Referee, match: Match, reader: str | None) -> str:
    said = notices.for_view(ref.settings, match, reader)
    return "".join(f'<pre class="notice">{escape(text)}</pre>' for text in said)


def _decisions(match: Match, player: str, csrf: str) -> str:
    node = match.node
    if not isinstance(node, Decide) or player not in node.players:
        return ""
    game = match.game
    options = []
    for decision in game.legal(match.state, player)[:LISTED]:
        notation = game.notate(decision)
        text = game.format(decision, player)
        # The game's words for it when they say more than the notation (not only who plays it).
        shown = notation if text.endswith(notation) else f"{notation}: {text}"
        options.append(
            f'<option value="{escape(notation, quote=True)}" data-spots="{escape(json.dumps(_spots(notation)), quote=True)}">'
            f"{escape(shown)}</option>"
        )
    inner = (
        '<label for="decision">Your decision (choose, or click the board)</label>'
        f'<select id="decision" name="value" size="8" required>{"".join(options)}</select>'
        '<p id="clicked" aria-live="polite"></p>'
        '<button type="submit" id="play">Play</button>'
    )
    written = (
        '<label for="written">or write it in the game\'s notation</label>'
        '<input id="written" name="value" maxlength="200" autocomplete="off" required>'
        '<button type="submit" id="play-written">Play this</button>'
    )
    return _form(csrf, "move", inner, ident="play-form") + _form(csrf, "move", written, ident="write-form")


def _spots(notation: str) -> list[str]:
    """The words of a decision's notation that may name a spot of the board."""
    words = notation.replace("@", " ").replace("-", " ").replace("/", " ").replace(",", " ").split()
    return sorted(set(words))


def _votes(ref: Referee, match: Match, player: str, csrf: str) -> str:
    if match.over or player not in votes.voters(ref.settings, match):
        return ""
    buttons = "".join(
        f'<button type="submit" name="value" value="{kind}" title="{escape(votes.MEANING[kind], quote=True)}">{kind}</button>'
        for kind in votes.KINDS
    )
    mine = [kind for kind in votes.KINDS if player in (votes.standing(ref.settings).get(kind) or {})]
    withdraw = ""
    if mine:
        withdraw = _form(
            csrf,
            "unvote",
            "".join(f'<button type="submit" name="value" value="{k}">withdraw my vote to {k}</button>' for k in mine),
        )
    said = votes.open_summary(ref.settings, player, match)
    summary = f'<pre class="notice">{escape(said)}</pre>' if said else ""
    return (
        f'<details id="votes"><summary>Votes</summary>{summary}'
        f"{_form(csrf, 'vote', '<p>Vote to:</p>' + buttons)}{withdraw}</details>"
    )


def _conditionals(ref: Referee, player: str, csrf: str) -> str:
    chains = (ref.settings.conditionals or {}).get(player) or []
    kept = "".join(f"<li>{escape(conditionals.shown(c))}</li>" for c in chains)
    listed = f'<ul id="conditional-moves">{kept}</ul>' if kept else "<p>None kept.</p>"
    inner = (
        '<label for="if-text">if: A then: B (several deep: if: A then: B if: C then: D)</label>'
        '<input id="if-text" name="value" maxlength="2000" autocomplete="off" required>'
        '<button type="submit">Keep</button>'
    )
    clear = _form(csrf, "clear", '<button type="submit">Withdraw them</button>') if chains else ""
    return (
        f'<details id="conditionals"><summary>Conditional moves</summary>{listed}'
        f"{_form(csrf, 'if', inner, ident='if-form')}{clear}</details>"
    )


def _press(ref: Referee, player: str, csrf: str) -> str:
    records = _press_records(ref)[-PRESS_SHOWN:]
    items = "".join(f"<li><strong>{escape(r['from'])}</strong>: {escape(r['text'])}</li>" for r in reversed(records))
    inner = (
        '<label for="press-text">To the other players</label>'
        '<textarea id="press-text" name="value" maxlength="4000" rows="2" required></textarea>'
        '<button type="submit">Send</button>'
    )
    return (
        f'<details id="press" open><summary>Press</summary>{_form(csrf, "press", inner)}'
        f'<ul id="press-list">{items}</ul></details>'
    )


def _press_records(ref: Referee) -> list[dict[str, str]]:
    path = ref.dir.press
    try:
        lines = path.read_text(encoding="utf-8").splitlines()[-1000:]
    except OSError:
        return []
    found = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("from"), str) and isinstance(record.get("text"), str):
            found.append(record)
    return found


def _resign(match: Match, player: str, csrf: str) -> str:
    if match.over:
        return ""
    inner = (
        '<label><input type="checkbox" name="sure" value="yes" required> I give up this game</label>'
        '<button type="submit">Resign</button>'
    )
    return f'<details id="resign"><summary>Resign</summary>{_form(csrf, "resign", inner)}</details>'


def _master(ref: Referee, csrf: str) -> str:
    forms = []
    for command in commands.master_commands():
        if command.name == "help":
            continue
        takes = ":" in command.usage
        field = (
            f'<input name="value" aria-label="{escape(command.usage, quote=True)}" placeholder="{escape(command.usage.partition(":")[2].strip(), quote=True)}" maxlength="2000" required>'
            if takes
            else ""
        )
        inner = f'<p>{escape(command.does)}</p>{field}<button type="submit">{escape(command.name)}</button>'
        forms.append(f"<li>{_form(csrf, command.name, inner)}</li>")
    return f'<ul id="master-commands">{"".join(forms)}</ul>'
