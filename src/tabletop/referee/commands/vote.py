"""``vote: pause``, ``vote: resume``, ``vote: draw``, ``vote: abandon``:
a player's vote; carried when enough players still in the game are for it
(see :mod:`..votes`)."""

from __future__ import annotations

from ...model.events import Agreement
from ...play.live import settle
from .. import votes
from . import Mail, PlayerCommand
from .resume import lift


class Vote(PlayerCommand):
    name = "vote"
    usage = "vote: KIND"
    does = "pause, resume, draw or abandon"
    order = 50

    def run(self, ref, mail: Mail) -> str:
        player, letter = mail.player, mail.letter
        match = ref.ledger.replay()
        players = votes.voters(ref.settings, match)
        if match.over:
            return ref.inbox.reply(
                letter, "the game is over: there is nothing to vote on", key=mail.key + "-vote", echo=True
            )
        if player not in players:
            return ref.inbox.reply(
                letter, f"{player} is out of the game: only players still in it vote", key=mail.key + "-vote", echo=True
            )
        said, opened = [], []
        for number, value in letter.values("vote"):
            kind = value.strip().lower().rstrip(".!")
            if kind not in votes.KINDS:
                said.append(f"line {number}: a vote is one of {', '.join(votes.KINDS)}; nothing was counted for it")
                continue
            if kind == "resume":
                said.append(_resume(ref, player, mail))
                continue
            if kind == "pause" and ref.settings.paused:
                said.append(f"line {number}: the game is paused already")
                continue
            cast = votes.standing(ref.settings).setdefault(kind, {})
            if player in cast:
                said.append(f"line {number}: your vote to {votes.MEANING[kind]} was in already")
                continue
            cast[player] = match.seq
            if votes.carried(ref.settings, kind, players):
                return "; ".join([*said, _carry(ref, kind, players, mail)])
            have = len(votes.counted(ref.settings, kind, players))
            said.append(
                f"line {number}: your vote to {votes.MEANING[kind]} is counted: "
                f"{have} of {votes.needed(ref.settings, players)} needed"
            )
            opened.append(kind)
        if opened:
            for other in players:
                if other != player:
                    # Who voted stays secret until the turn ends: the others hear of the count.
                    text = "A player voted.\n\n" + votes.open_summary(ref.settings, other, match)
                    ref.mail_to(other, "A vote is open", text + "\n", f"{mail.key}-vote-{other}")
        ref.mail_to(player, "Your vote", "\n".join(said) + "\n", mail.key + "-vote", letter)
        return f"{player} voted: " + "; ".join(said)


def _resume(ref, player: str, mail: Mail) -> str:
    """A pause the players voted is lifted by any one of them; the game master's only by the master."""
    if not ref.settings.paused:
        return "the game is not paused"
    if ref.settings.paused_by != "vote":
        return "the game master paused the game: only the game master resumes it"
    lift(ref, mail.now)
    ref.letters.mail_all(
        "The game resumes", f"{player} voted to resume the game; deadlines run again.", f"{mail.key}-resumed"
    )
    return "the game resumes"


def _carry(ref, kind: str, players: list[str], mail: Mail) -> str:
    """The vote for ``kind`` is carried: the pause begins, or the game ends."""
    voters = votes.counted(ref.settings, kind, players)
    votes.standing(ref.settings)[kind] = {}
    names = ", ".join(voters)
    if kind == "pause":
        ref.settings.paused = mail.now
        ref.settings.paused_by = "vote"
        ref.letters.mail_all(
            "The game is paused",
            f"The players voted to pause the game ({names}): no decision is played and no deadline runs "
            "until a player writes 'vote: resume' (or the game master resumes it).",
            f"{mail.key}-paused",
        )
        return f"the vote to pause is carried ({names})"
    with ref.changes.change() as change:
        match = change.match
        agreement = Agreement(kind, tuple(votes.in_game(match)))
        match.accept(agreement)
        change.secrets.clear()  # a sealed decision not yet revealed goes with the game
        events = [agreement, *settle(match, change.seed, change.secrets)]
        what = "a draw" if kind == "draw" else "abandon the game"
        change.commit(
            events,
            mail.now,
            message_id=mail.mid,
            note=f"The players agreed to {what} ({names}).",
            records={"votes": {}},
        )
    return f"the vote to {votes.MEANING[kind]} is carried ({names})"
