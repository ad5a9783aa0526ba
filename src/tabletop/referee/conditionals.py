"""Conditional moves: ``if: THEIRS then: MINE``, several deep on one line
(``if: A then: B if: C then: D``: if the decision before my turn is A, I
play B; then if the next one before my turn is C, I play D).

A mail's ``if:`` lines replace the sender's conditional moves; ``clear``
withdraws them. Each is read with the game's notation against the sender's
own view, and nothing else: whether the other player could make that
decision at all (their hidden coins, chips or hand) is never looked at,
so the answer is the same whether the condition could hold or not. They are
kept in the referee's settings (``conditionals``), shown to nobody.

When a change to the game makes it the owner's turn right after another
player's decision (a mail played, the late bot's decision, another
conditional move), the conditional moves are held against that decision as
the owner sees it: the chains whose first condition it is are played at
once (the first step's move, checked against the game as any mailed move
is; the chains' next steps stay), the others are discarded (the owner is
told). A decision the owner may not see whole meets no condition.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..base.errors import TabletopError
from ..model.events import DECISION, Event, Resign, Seal, Unseal
from ..model.nodes import Decide
from ..play.engine import Match
from ..play.live import decide
from ..sight import seen

if TYPE_CHECKING:
    from .ledger import Ledger
    from .settings import Chain, Settings

#: At most this many chains a player, each at most this many steps.
CHAINS = 20
STEPS = 10
#: A change plays at most this many conditional moves (chains of several players answering each other).
PLAYED = 200

_WORDS = re.compile(r"(?i)(?:^|\s)(if|then)\s*:\s*")


def kept(settings: Settings) -> dict[str, list[Chain]]:
    """Every player's conditional moves (the settings' own record)."""
    if settings.conditionals is None:
        settings.conditionals = {}
    return settings.conditionals


def steps_of(text: str) -> list[tuple[str, str]] | None:
    """The (condition, move) pairs of one ``if:`` line's value (read after
    its ``if:``), or None when they do not alternate ``if:``/``then:``."""
    parts = _WORDS.split("if: " + text)
    words, texts = parts[1::2], [t.strip() for t in parts[2::2]]
    if not words or len(words) % 2 or len(words) > 2 * STEPS:
        return None
    if any(w.lower() != ("if" if i % 2 == 0 else "then") for i, w in enumerate(words)) or not all(texts):
        return None
    return list(zip(texts[0::2], texts[1::2]))


def read(match: Match, owner: str, lines: Sequence[tuple[int, str]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The chains of ``lines`` (line number, value of an ``if:``), read
    against ``owner``'s view alone; and what is wrong with them (one line
    each). A condition is read as a decision of each other player (the
    one it will be held against is known only then); it must read as one."""
    game = match.game
    view = seen.view(game, match.state, owner)
    others = [p for p in match.header.players if p != owner]
    chains: list[dict[str, Any]] = []
    problems: list[str] = []
    if len(lines) > CHAINS:
        return [], [f"at most {CHAINS} if: lines; this mail has {len(lines)}"]
    for number, value in lines:
        pairs = steps_of(value)
        if pairs is None:
            problems.append(
                f"line {number}: write 'if: THEIR DECISION then: YOURS', several on one line "
                f"(at most {STEPS}): if: A then: B if: C then: D"
            )
            continue
        steps = []
        for condition, move in pairs:
            meant: dict[str, str] = {}
            why = ""
            for other in others:
                try:
                    meant[other] = game.notate(game.parse(condition, other, view))
                except TabletopError as exc:
                    why = why or exc.message
            if not meant:
                problems.append(f"line {number}: {condition!r}: {why}")
                break
            try:
                mine = game.notate(game.parse(move, owner, view))
            except TabletopError as exc:
                problems.append(f"line {number}: {move!r}: {exc.message}")
                break
            steps.append({"if": meant, "said": condition, "then": mine})
        else:
            chains.append({"line": number, "steps": steps})
    for i, chain in enumerate(chains):
        for other in chains[:i]:
            clash = _clash(other["steps"], chain["steps"])
            if clash:
                problems.append(f"line {chain['line']}: {clash} than line {other['line']} does")
                break
    return chains, problems


def _clash(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> str | None:
    """Where two chains answer the same decisions with different moves."""
    for a, b in zip(first, second):
        if a["if"] != b["if"]:
            return None
        if a["then"] != b["then"]:
            return f"answers {b['said']!r} with another move"
    return None


def shown(chain: dict[str, Any]) -> str:
    """A chain as its owner wrote it (for the owner's eyes only)."""
    return "; then ".join(f"if {s['said']}, then {s['then']}" for s in chain["steps"])


def answer(
    ledger: Ledger, match: Match, events: list[Event], secrets: dict, seed: str | None, key: str
) -> tuple[list[Event], list[dict[str, str]], dict[str, Any] | None, list[str]]:
    """After ``events`` were played on ``match`` in this change: the
    conditional moves they meet, played on ``match`` in turn. The events
    they add, the answers to their owners (mails of the change), the
    conditional moves left (None: unchanged) and whose conditional moves
    were played, in turn (:func:`answered_note` says so to each)."""
    chains = copy.deepcopy(kept(ledger.settings))
    if not any(chains.values()):
        return [], [], None, []
    made: list[Event] = []
    mails: list[dict[str, str]] = []
    done: list[str] = []
    changed = False
    seen_events = list(events)
    for _ in range(PLAYED):
        node = match.node
        if not isinstance(node, Decide) or node.sealed:
            break
        fired = False
        for owner in node.players:
            mine = chains.get(owner)
            last = _last_decision(seen_events)
            if not mine or last is None or getattr(last, "player", owner) == owner:
                continue
            changed = True
            met = _met(match, last, owner, mine)
            if not met:
                del chains[owner]
                mails.append(
                    _note(ledger, owner, key, "Your conditional moves were discarded", _missed(match, last, owner))
                )
                continue
            move = met[0]["steps"][0]["then"]
            before = json.loads(json.dumps(secrets))
            try:
                new = decide(match, match.game.parse(move, owner, match.state), seed, secrets)
            except TabletopError as exc:
                secrets.clear()
                secrets.update(before)
                del chains[owner]
                mails.append(
                    _note(
                        ledger,
                        owner,
                        key,
                        "Your conditional move was not played",
                        f"Your conditional move {move!r} could not be played: {exc.message}\n"
                        "Your conditional moves are discarded.",
                    )
                )
                continue
            made += new
            seen_events += new
            rest = [{"line": c["line"], "steps": c["steps"][1:]} for c in met if len(c["steps"]) > 1]
            if rest:
                chains[owner] = rest
            else:
                del chains[owner]
            done.append(owner)
            fired = True
            break
        if not fired:
            break
    return made, mails, (chains if changed else None), done


def conditional_played(owner: str, reader: str | None = None) -> str:
    """That ``owner``'s conditional move was played, as ``reader`` reads it
    (its owner as their own)."""
    return "Your conditional move was played" if reader == owner else f"{owner}'s conditional move was played"


def answered_note(said: dict[str, str], owners: Sequence[str]) -> dict[str, str]:
    """A change's note (``{"": for all, PLAYER: theirs}``) followed by the
    conditional moves the change played, in turn: each owner reads theirs
    as their own ("Your conditional move was played."), everyone else as
    ``ann's``."""
    readers = {**said, **{owner: said.get(owner, said[""]) for owner in owners}}
    return {
        reader: " ".join([text, *(conditional_played(owner, reader or None) + "." for owner in owners)])
        for reader, text in readers.items()
    }


def _last_decision(events: list[Event]) -> Event | None:
    for event in reversed(events):
        if event.origin == DECISION:
            return event
    return None


def _met(match: Match, decision: Event, owner: str, chains: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chains whose first condition is ``decision``, as ``owner`` sees it."""
    if isinstance(decision, (Seal, Unseal, Resign)) or not match.game.sees(decision, owner):
        return []
    played = match.game.notate(decision)
    player = decision.player  # type: ignore[attr-defined]
    return [c for c in chains if c["steps"][0]["if"].get(player) == played]


def _missed(match: Match, decision: Event, owner: str) -> str:
    if isinstance(decision, (Seal, Unseal, Resign)) or not match.game.sees(decision, owner):
        what = "a decision you do not see whole, which meets no condition"
    else:
        what = repr(match.game.notate(decision))
    player = getattr(decision, "player", "another player")
    return f"{player} decided {what}; none of your conditional moves answers it, so they are discarded."


def _note(ledger: Ledger, owner: str, key: str, subject: str, text: str) -> dict[str, str]:
    return {"key": f"{key}-if-{owner}", "to": ledger.address(owner), "subject": subject, "body": text + "\n"}
