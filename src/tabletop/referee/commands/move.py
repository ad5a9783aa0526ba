"""``move: DECISION`` lines: the player's decisions, played in order, each
for good, until one cannot be played or the rules answer one with news
(see :func:`plan`)."""

from __future__ import annotations

import json

from ...base.errors import TabletopError
from ...model.events import Event
from ...model.nodes import Decide, Over
from ...play.engine import Match
from ...play.live import decide
from .. import conditionals, mailout, seats
from ..letters import played_note, waiting_for
from . import DECISION, Mail, PlayerCommand


class Move(PlayerCommand):
    name = "move"
    usage = "move: DECISION"
    does = "play a decision (several lines: in order)"
    order = 20
    runs = DECISION

    def run(self, ref, mail: Mail) -> str:
        """Play the mail's decisions in order. Each is committed; the first that
        fails stops the rest, and so does a chance outcome or anything hidden
        coming out after one (the decisions after it are not tried: whatever
        they would answer could tell what the sender has not yet seen)."""
        letter, player, key = mail.letter, mail.player, mail.key
        if ref.settings.paused:
            by = "the players' vote" if ref.settings.paused_by == "vote" else "the game master"
            return ref.inbox.reply(letter, f"the game is paused by {by}; nothing was played", key=key, echo=True)
        with ref.changes.change() as change:
            events, played, problem = plan(change.match, player, letter.values("move"), change.secrets, change.seed)
            mails = []
            if problem:
                body = (
                    "Your mail was played up to the line before.\n\n" if played else "Nothing was played.\n\n"
                ) + f"  {problem}\n"
                mails.append(
                    {
                        "key": key,
                        "to": letter.sender,
                        "subject": "Not played" if not played else "Partly played",
                        "body": body + "\n" + mailout.syntax(ref.settings.game_id, "..."),
                        "reply_to": letter.message_id,
                    }
                )
            if not events:
                # Nothing to commit: the answer, with the legal decisions when it is the sender's turn.
                ref.inbox.reply(
                    letter, problem or "nothing to play", match=change.match, player=player, key=key, echo=True
                )
                return f"answered {letter.sender}: {problem}"
            records: dict = {}
            players = seats.back(ref.settings, player)  # a decision of their own: out of civil disorder
            if players is not None:
                records["players"] = players
            more, answers, chains, answered = conditionals.answer(
                ref.ledger, change.match, events, change.secrets, change.seed, key
            )
            if chains is not None:
                records["conditionals"] = chains
            note = played_note(change.match.game, player, events, answered)  # the mover reads what was played
            change.commit(
                events + more, mail.now, message_id=mail.mid, note=note, mails=mails + answers, records=records
            )
        report = f"played {played} decision(s) of {player}: {len(events) + len(more)} events appended"
        return (
            report
            + "".join(f"; {conditionals.conditional_played(a)}" for a in answered)
            + (f"; {problem}" if problem else "")
        )


def plan(match: Match, player: str, moves, secrets: dict, seed: str | None) -> tuple[list[Event], int, str | None]:
    """Play ``moves`` (line number, text) on ``match`` in order: the events to
    commit, how many decisions were played, and why the rest was not.

    Stops at the first decision that fails, and after a decision the rules
    answered with events of their own (a draw, a roll, a forced event such as
    a look at a hand, a sealed decision revealed): what the next decisions
    would answer could then tell the sender what they have not seen. A run
    of decisions the rules answer with nothing is played whole."""
    events: list[Event] = []
    for index, (number, text) in enumerate(moves):
        node = match.node
        if isinstance(node, Over):
            return events, index, f"line {number}: {text!r}: the game is over"
        if not isinstance(node, Decide) or player not in node.players:
            return events, index, f"line {number}: {text!r}: not your turn: {waiting_for(match)}"
        kept = json.loads(json.dumps(secrets))
        try:
            decision = match.game.parse(text, player, match.state)
            new = decide(match, decision, seed, secrets)
        except TabletopError as exc:
            secrets.clear()
            secrets.update(kept)
            return events, index, f"line {number}: {text!r}: {exc.message}"
        events += new
        if index + 1 < len(moves) and _brings_out(match, new):
            rest = moves[index + 1][0]
            return (
                events,
                index + 1,
                f"line {rest} and after: not tried: line {number} brought a chance outcome or other "
                "news from the rules; send them again once you have seen it",
            )
    return events, len(moves), None


def _brings_out(match: Match, events: list[Event]) -> bool:
    """Whether the rules produced anything after the decision: a draw or a
    roll, a forced event (which may carry what a player could not see, like
    a look at an opponent's hand), a sealed decision revealed."""
    return len(events) > 1
