"""Players' secrets: handed out once, stored only as salted scrypt hashes,
with a short tag that turns almost every wrong guess away cheaply.

The tag is the first 16 bits of a plain hash of the secret and its salt. A
guess whose tag differs is wrong for sure and costs the referee a few
microseconds; only the right secret, and one wrong guess in 65,536, costs
the slow hash. So checking needs no limit, and no one can lock a player out
by guessing in their name. The tag tells a thief of ``referee.json`` 16 of
the secret's 79 bits: the other 63 still take about 2^62 slow hashes
(billions of years of one core) to find."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import TYPE_CHECKING

from . import faults
from .settings import DAY, GUESSES_A_DAY, GUESSES_AN_HOUR, HOUR

if TYPE_CHECKING:
    from .ledger import Ledger
    from .letters import Letters

# scrypt parameters: about 50 ms and 16 MiB a check, cheap for a referee
# that checks one mail at a time, costly for anyone guessing from a stolen file.
_N, _R, _P = 2**14, 8, 1
#: Hex digits of the short tag (16 bits).
TAG = 4


def new_secret() -> str:
    """A secret a person can copy into a mail: 4 groups of 4 characters
    from 31 (16 characters: 31^16, about 2^79)."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i
    raw = "".join(secrets.choice(alphabet) for _ in range(16))
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def _plain(secret: str) -> bytes:
    return secret.strip().lower().encode()


def digest(secret: str, salt: str) -> str:
    return hashlib.scrypt(_plain(secret), salt=bytes.fromhex(salt), n=_N, r=_R, p=_P).hex()


def tag_of(secret: str, salt: str) -> str:
    """The short tag: cheap, and too short to name the secret."""
    return hashlib.sha256(b"tabletop secret tag\0" + bytes.fromhex(salt) + _plain(secret)).hexdigest()[:TAG]


def store(secret: str) -> dict[str, str]:
    salt = secrets.token_hex(16)
    return {"salt": salt, "scrypt": digest(secret, salt), "tag": tag_of(secret, salt)}


def matches(secret: str, stored: dict[str, str]) -> bool:
    """Whether ``secret`` is the one ``stored`` was made from (the slow hash
    compared in constant time, and only when the short tag matches). A
    secret stored without a tag (a game begun before tags) gets it from
    its first match."""
    tag = stored.get("tag")
    if tag is not None and not hmac.compare_digest(tag_of(secret, stored["salt"]), tag):
        return False
    if not hmac.compare_digest(digest(secret, stored["salt"]), stored["scrypt"]):
        return False
    if tag is None:
        stored["tag"] = tag_of(secret, stored["salt"])
    return True


def tagged(stored: dict[str, str]) -> bool:
    """Whether a wrong guess against ``stored`` is turned away without the slow hash."""
    return "tag" in stored


class Secrets:
    """The seats' secrets at the referee: wrong ones counted (by sender, an
    hour; for a player, a day), a new one handed out (``reissue``,
    ``replace``) and mailed. A new secret's hash and the secret still to
    mail are saved together before any mail: a crash then leaves a mail for
    the next run to queue (:meth:`mail_pending`, under its own key, so
    once), never a secret that works for nobody, nor one mailed that does
    not work."""

    def __init__(self, ledger: Ledger, letters: Letters) -> None:
        self.ledger = ledger
        self.letters = letters

    def guessed_enough(self, sender: str, stored: dict, now: float) -> bool:
        """Whether ``sender`` used up this hour's wrong secrets, for a secret
        stored without its short tag (a game begun before tags: each check
        of it costs the slow hash). A tagged secret is always checked: a
        wrong guess costs next to nothing, and the right one is never
        refused, whoever guessed before."""
        if tagged(stored):
            return False
        by_sender = self.ledger.settings.guesses.get("from:" + sender)
        return bool(by_sender and by_sender[0] == int(now // HOUR) and by_sender[1] >= GUESSES_AN_HOUR)

    def wrong_guess(self, sender: str, player: str, now: float) -> None:
        """Count a wrong secret, by its sender (the hour's) and for the player
        (the day's). The game master hears once a day when a player's wrong
        secrets reach :data:`GUESSES_A_DAY`: someone may be guessing. Nobody
        is refused for it."""
        guesses = self.ledger.settings.guesses
        for key, window in (("from:" + sender, int(now // HOUR)), ("for:" + player, int(now // DAY))):
            entry = guesses.get(key)
            guesses[key] = [window, entry[1] + 1 if entry and entry[0] == window else 1]
        if len(guesses) > 5000:  # forget the windows gone by
            guesses.clear()
        if guesses.get("for:" + player, [0, 0])[1] == GUESSES_A_DAY:
            self.letters.mail_master(
                f"Wrong secrets for {player}",
                f"{GUESSES_A_DAY} mails today gave a wrong secret for {player} (the last from {sender}). "
                "Someone may be guessing; it does not lock anyone out: the right secret is still taken, "
                f"and guessing one takes about 10^23 tries. If {player}'s secret may have leaked, "
                "'reissue: PLAYER' mails them a new one.\n",
                key=f"guesses-{player}-{int(now // DAY)}",
            )

    def forget_guesses(self, player: str) -> None:
        """A new secret for ``player``: the wrong secrets counted for them,
        and from their address, and the answers their address had today,
        start again."""
        settings = self.ledger.settings
        address = self.ledger.address(player).lower()
        for key in ("for:" + player, "from:" + address):
            settings.guesses.pop(key, None)
        settings.answered.pop(address, None)

    def reissue(self, player: str, stamp: str, replaced: str) -> None:
        """A new secret for ``player``, mailed under ``stamp`` (``replaced``:
        the new address the seat was handed to, told to the others)."""
        settings = self.ledger.settings
        secret = new_secret()
        settings.players[player]["secret"] = store(secret)
        self.forget_guesses(player)
        if settings.pending_secrets is None:
            settings.pending_secrets = []
        settings.pending_secrets.append({"player": player, "secret": secret, "key": stamp, "replaced": replaced})
        self.ledger.save()
        faults.point("master-secret-saved")
        self.mail_pending()

    def mail_pending(self) -> None:
        """Queue the mails of new secrets the settings say are still to go (each
        queued under its own key, so a mail queued before a crash is not queued
        again), then forget the secrets."""
        settings = self.ledger.settings
        pending = settings.pending_secrets or []
        if not pending:
            return
        match = self.ledger.replay()
        for item in pending:
            player = item["player"]
            self.letters.queue_view(match, player, welcome=item["secret"], resend=True, key=item["key"])
            faults.point("master-secret-mailed")
            if item["replaced"]:
                self.letters.mail_others(
                    player,
                    f"{player} is now played from another address",
                    f"The game master handed {player} to a new player ({item['replaced']}).\n",
                    item["key"] + "-",
                )
        settings.pending_secrets = []
        self.ledger.save()
        faults.point("master-secrets-forgotten")
