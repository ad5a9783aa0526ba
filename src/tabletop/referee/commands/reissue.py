"""``reissue: PLAYER``: the player gets a new secret by mail; the old one
stops working. Also how ``replace`` hands out its secret.

The new hash and the secret still to mail are saved together, before any
mail: a crash then leaves a mail for the next run to queue (:func:`mail_pending`,
under the command's own key, so once), never a secret that works for nobody,
nor one mailed that does not work."""

from __future__ import annotations

from typing import Any

from .. import faults, passwords
from . import MasterCommand


class Reissue(MasterCommand):
    name = "reissue"
    usage = "reissue: PLAYER"
    does = "mail a player a new secret (the old one stops working)"
    order = 50
    about_a_player = True

    def arguments(self, value: str) -> dict[str, Any]:
        return {"player": value.strip()}

    def run(self, ref, now: float, stamp: str, *, player: str, **kwargs: Any) -> str:
        new_secret(ref, player, stamp, replaced="")
        return f"a new secret was mailed to {player}; the old one no longer works"


def new_secret(ref, player: str, stamp: str, replaced: str) -> None:
    secret = passwords.new_secret()
    ref.players[player]["secret"] = passwords.store(secret)
    ref.forget_guesses(player)
    ref.settings.setdefault("pending_secrets", []).append(
        {"player": player, "secret": secret, "key": stamp, "replaced": replaced}
    )
    ref.dir.save(ref.settings)
    faults.point("master-secret-saved")
    mail_pending(ref)


def mail_pending(ref) -> None:
    """Queue the mails of new secrets the settings say are still to go (each
    queued under its own key, so a mail queued before a crash is not queued
    again), then forget the secrets."""
    pending = ref.settings.get("pending_secrets") or []
    if not pending:
        return
    match = ref.replay()
    for item in pending:
        player = item["player"]
        ref.queue_view(match, player, welcome=item["secret"], resend=True, key=item["key"])
        faults.point("master-secret-mailed")
        if item["replaced"]:
            ref.mail_others(
                player,
                f"{player} is now played from another address",
                f"The game master handed {player} to a new player ({item['replaced']}).\n",
                item["key"] + "-",
            )
    ref.settings["pending_secrets"] = []
    ref.dir.save(ref.settings)
    faults.point("master-secrets-forgotten")
