"""``unvote: draw`` withdraws the player's vote to draw; ``unvote`` alone,
every vote of theirs (see :mod:`..votes`)."""

from __future__ import annotations

from .. import votes
from . import EITHER, Mail, PlayerCommand


class Unvote(PlayerCommand):
    name = "unvote"
    usage = "unvote: KIND"
    does = "withdraw your vote (unvote alone: every vote of yours)"
    order = 60
    written = EITHER  # unvote alone withdraws every vote

    def run(self, ref, mail: Mail) -> str:
        player = mail.player
        said = []
        for number, value in mail.letter.values("unvote"):
            kind = value.strip().lower().rstrip(".!")
            kinds = [k for k in votes.KINDS if k != "resume"] if not kind else [kind]
            if any(k not in votes.KINDS for k in kinds):
                said.append(f"line {number}: a vote is one of {', '.join(votes.KINDS)}")
                continue
            for k in kinds:
                cast = votes.standing(ref.settings).get(k) or {}
                if cast.pop(player, None) is not None:
                    said.append(f"your vote to {votes.MEANING[k]} is withdrawn")
                elif kind:
                    said.append(f"line {number}: you had no vote to {votes.MEANING[k]}")
        if not said:
            said.append("you had no vote to withdraw")
        ref.mail_to(player, "Your vote", "\n".join(said) + "\n", mail.key + "-unvote", mail.letter)
        return f"{player}: " + "; ".join(said)
