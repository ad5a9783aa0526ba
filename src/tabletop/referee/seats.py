"""Seats and who plays them: missed deadlines, civil disorder, a seat
offered to substitutes, and a claim that takes it.

Each player's deadlines missed are counted (``players[NAME]["missed"]``)
and shown to every player. A player who missed ``civil_disorder`` of them
(``pbem init --civil-disorder N``) is in civil disorder: the late bot, if
the game has one, decides for them as soon as a decision of theirs is due
(no deadline, no grace); a decision they mail themselves brings them back.

The game master offers a seat with ``pbem seek DIR PLAYER --to ADDRESS ...``
(or the game's list of substitutes): each address gets a claim token of its
own, stored as a hash like a secret. The first mail with a valid ``claim:``
takes the seat for the address the token was mailed to: a new secret is
mailed there with the seat's view of the game, the old player's secret
stops working, the other offers of the seat lapse, and the log records the
change of hands (a ``handover`` event). All of that is one change
(:mod:`.change`): done whole, or not at all.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import attrs

from ..base.errors import UsageError
from ..model.events import Handover
from . import mailin, mailout, pages, passwords
from .gamedir import one_line
from .votes import in_game

if TYPE_CHECKING:
    from .change import Changes
    from .ledger import Ledger
    from .letters import Letters
    from .settings import Former, Offer, Player, Settings


def check_disorder(value: Any) -> int | None:
    """How many missed deadlines put a player in civil disorder (None: never)."""
    if value in (None, "", 0, "0"):
        return None
    text = str(value).strip()
    if not text.isdigit() or not 0 < int(text) <= 1000:
        raise UsageError(f"--civil-disorder '{one_line(text)[:40]}': write how many missed deadlines, like 3")
    return int(text)


def check_substitutes(addresses: Any) -> list[str]:
    """The game's substitutes: plain mail addresses, each once."""
    found: list[str] = []
    for address in addresses or []:
        address = str(address).strip()
        if not address:
            continue
        if not mailin.valid_address(address):
            raise UsageError(f"--substitute '{one_line(address)}': not a single mail address")
        if address.lower() not in (a.lower() for a in found):
            found.append(address)
    return found


def passed_on(settings: Settings, seat: str, now: float) -> list[Former]:
    """The former holders of seats once ``seat``'s holder is no more (the
    seat handed to another address by ``replace`` or a claim): the record
    with them added, the last :data:`~.settings.FORMER_KEPT`. A mail with a
    former holder's secret is told the seat passed on, and nothing more
    (:meth:`.inbox.Inbox.seat_passed`). A seat a bot played leaves none."""
    from .botseats import of
    from .settings import FORMER_KEPT

    former = list(settings.former or [])
    data = settings.players[seat]
    if not of(settings, seat):
        secret = copy.deepcopy(data["secret"])
        former.append({"seat": seat, "address": data["address"], "secret": secret, "time": now})
    return former[-FORMER_KEPT:]


def missed(settings: Settings, player: str) -> int:
    return int(settings.players[player].get("missed") or 0)


def in_disorder(settings: Settings, player: str) -> bool:
    return bool(settings.players.get(player, {}).get("disorder"))


def back(settings: Settings, player: str) -> dict[str, Player] | None:
    """``player`` mailed a decision of their own: out of civil disorder.
    The players' record after, or None when nothing changes."""
    if not in_disorder(settings, player):
        return None
    players = copy.deepcopy(settings.players)
    players[player]["disorder"] = False
    return players


def summary(settings: Settings) -> str:
    """Every player's missed deadlines, for all to read ("" while nobody missed one)."""
    players = settings.players
    if not any(int(d.get("missed") or 0) for d in players.values()):
        return ""
    parts = []
    offered = {o["seat"] for o in settings.offers or []}
    for name, data in players.items():
        text = f"{name} {int(data.get('missed') or 0)}"
        if data.get("disorder"):
            text += " (civil disorder)"
        if name in offered:
            text += " (the seat is offered to a substitute)"
        parts.append(text)
    return "Deadlines missed: " + ", ".join(parts) + "."


@attrs.frozen
class Refused:
    """A claim not taken: why, and whether its token was good (the answer
    may then quote the mail, as to anyone who proved who they are)."""

    why: str
    proven: bool


class Seats:
    """Who plays each seat: deadlines missed and civil disorder, a seat
    offered to substitutes and the claim that takes it."""

    def __init__(self, ledger: Ledger, letters: Letters, changes: Changes) -> None:
        self.ledger = ledger
        self.letters = letters
        self.changes = changes

    def count_missed(self, player: str, seq: int) -> None:
        """``player`` missed a deadline: counted for all to see; at the game's
        limit, civil disorder (everyone and the game master are told)."""
        settings = self.ledger.settings
        data = settings.players[player]
        data["missed"] = missed(settings, player) + 1
        limit = settings.civil_disorder
        if not limit or data.get("disorder") or data["missed"] < limit:
            return
        data["disorder"] = True
        bot = settings.late_bot
        then = (
            f"the bot '{bot}' decides for them as soon as a decision of theirs is due"
            if bot
            else "the game waits for them as before"
        )
        body = (
            f"{player} missed {data['missed']} deadlines and is in civil disorder: {then}, "
            f"until they mail a decision again or a substitute takes the seat.\n"
        )
        self.letters.mail_all(f"{player} is in civil disorder", body, f"disorder-{seq}-{player}")
        self.letters.mail_master(
            f"{player} is in civil disorder",
            body + f"\nOffer the seat to substitutes: tabletop pbem seek DIR {player} --to ADDRESS (or by mail: "
            f"'seek: {player} ADDRESS ...').\n",
            key=f"disorder-{seq}-{player}-to-master",
        )

    def offer(self, seat: str, addresses: list[str], stamp: str, now: float) -> list[str]:
        """Mail each address a claim token for ``seat``; the addresses mailed."""
        settings = self.ledger.settings
        addresses = check_substitutes(addresses)
        if not addresses:
            raise UsageError(
                f"seek {seat}: name the addresses to offer the seat to (--to ADDRESS), or set the game's "
                "substitutes (pbem set DIR substitutes=ADDRESS,...)"
            )
        taken = {d["address"].lower(): p for p, d in settings.players.items()}
        for address in addresses:
            if address.lower() in taken:
                raise UsageError(f"seek {seat}: {address} plays {taken[address.lower()]} already")
        tokens = []
        if settings.offers is None:
            settings.offers = []
        for index, address in enumerate(addresses):
            token = passwords.new_secret()
            key = f"{stamp}-{index}"
            settings.offers.append(
                {"seat": seat, "address": address, "token": passwords.store(token), "key": key, "time": now}
            )
            tokens.append((address, token, key, settings.offers[-1]))
        # The hashes first: a crash now leaves tokens nobody got (seek again),
        # never a token mailed that does not work.
        self.ledger.save()
        game = settings.thread or settings.game_id
        count = missed(settings, seat)
        why = f", whose player missed {count} deadline{'s' if count != 1 else ''}" if count else ""
        for address, token, key, offered in tokens:
            page = pages.link(self.ledger.dir, settings, pages.OFFER + offered["token"]["salt"])
            body = (
                f"A seat is free in game '{settings.game_id}' ({game}): {seat}'s seat{why}.\n\n"
                "To take it over, reply with these two lines:\n\n"
                f"    game: {settings.game_id}\n"
                f"    claim: {token}\n\n"
                + (f"or take it on its page:\n\n    {page}\n\n" if page else "")
                + "The first claim takes the seat: you then get a secret of your own and the game as the seat\n"
                "sees it. The offer lapses once the seat is taken."
            )
            self.ledger.dir.queue(mailout.message(settings, address, f"A seat is offered: {seat}", body), key=key)
        return addresses

    def claim(self, letter: mailin.Letter, mid: str, key: str, now: float, offer: Offer | None = None) -> str | Refused:
        """A mail with ``claim: TOKEN``: the first valid one takes the seat;
        what was done, or why not (the mail in answers it). ``offer``: the
        offer a claim from the substitute's page is for (its page's token
        is its proof, as the claim token is a mail's)."""
        settings = self.ledger.settings
        number, token = letter.values("claim")[0]
        found = offer
        if found is None:
            found = next((o for o in settings.offers or [] if passwords.matches(token.strip(), o["token"])), None)
        if found is None:
            return Refused(f"line {number}: no seat of this game is offered with that claim (taken already?)", False)
        self.changes.accepted(mid)
        seat, address = found["seat"], found["address"]
        taken = {d["address"].lower(): p for p, d in settings.players.items()}
        if address.lower() in taken:
            return Refused(f"{address} plays {taken[address.lower()]} already", True)
        if settings.ended:
            return Refused("the game was ended by the game master", True)
        secret = passwords.new_secret()
        with self.changes.change() as change:
            match = change.match
            if seat not in in_game(match):
                return Refused(f"{seat} is no longer in the game: the seat is not free", True)
            handover = Handover(seat)
            match.accept(handover)
            old = self.ledger.address(seat)
            change.commit(
                [handover],
                now,
                message_id=mid,
                note=f"A substitute takes {seat}'s seat from here on.",
                mails=_seat_mails(settings, found, old, secret, key) + _claim_news(settings, letter, found, old, key),
                records=_handed_over(settings, seat, address, secret, now),
            )
        return f"{address} took {seat}'s seat (was {old})"


def _seat_mails(settings: Settings, offer: dict[str, Any], old: str, secret: str, key: str) -> list[dict[str, Any]]:
    """The seat's new secret to the address it was offered to, and word to its old player."""
    seat, thread = offer["seat"], settings.thread or settings.game_id
    return [
        {
            "key": f"{key}-seat",
            "to": offer["address"],
            "subject": f"Welcome: you now play {seat}",
            "body": (
                f"You take over {seat}'s seat in game '{settings.game_id}' ({thread}).\n\n"
                f"Your secret: {secret}\n"
                "Put it in every mail you send; keep it to yourself. It is stored only as a hash.\n\n"
                + mailout.syntax(settings.game_id, "...")
                + "\n\nThe game as your seat sees it comes in the next mail."
            ),
        },
        {
            "key": f"{key}-seat-was",
            "to": old,
            "subject": f"A substitute plays {seat} now",
            "body": (
                f"A substitute took {seat}'s seat in game '{settings.game_id}' ({thread}); "
                "your secret no longer works. Thank you for playing.\n"
            ),
        },
    ]


def _claim_news(
    settings: Settings, letter: mailin.Letter, offer: dict[str, Any], old: str, key: str
) -> list[dict[str, Any]]:
    """Word that the seat is taken: to the other substitutes it was offered
    to, to the claim's sender when another address got the secret, and to
    the game master."""
    seat, address = offer["seat"], offer["address"]
    others = (o for o in settings.offers or [] if o["seat"] == seat and o is not offer)
    mails = [
        {
            "key": f"{key}-lapsed-{index}",
            "to": other["address"],
            "subject": f"The seat of {seat} is taken",
            "body": f"{seat}'s seat in game '{settings.game_id}' was taken by another substitute.\n",
        }
        for index, other in enumerate(others)
    ]
    if letter.sender != address.lower():
        mails.append(
            {
                "key": f"{key}-claimed",
                "to": letter.sender,
                "subject": f"{seat}'s seat is claimed",
                "body": f"Your claim took {seat}'s seat; its secret went to the address the seat was offered to.\n",
                "reply_to": letter.message_id,
            }
        )
    if settings.master:
        mails.append(
            {
                "key": f"{key}-seat-to-master",
                "to": settings.master,
                "subject": f"{seat}'s seat is taken",
                "body": f"{address} took {seat}'s seat (was {old}); a new secret was mailed there.\n",
            }
        )
    return mails


def _handed_over(settings: Settings, seat: str, address: str, secret: str, now: float) -> dict[str, Any]:
    """The records once ``seat`` is ``address``'s with ``secret``: the player's
    count and state start anew, the seat's offers lapse, and its votes,
    conditional moves and wrong secrets counted go with the old player, who
    is remembered as the seat's former holder."""
    former = passed_on(settings, seat, now)
    players = copy.deepcopy(settings.players)
    players[seat].update(address=address, secret=passwords.store(secret), mailed=0, missed=0, disorder=False, tz=None)
    return {
        "players": players,
        "offers": [o for o in settings.offers or [] if o["seat"] != seat],
        "votes": {k: {p: s for p, s in v.items() if p != seat} for k, v in (settings.votes or {}).items()},
        "conditionals": {p: c for p, c in (settings.conditionals or {}).items() if p != seat},
        "guesses": {k: v for k, v in (settings.guesses or {}).items() if k != "for:" + seat},
        "former": former,
    }
