"""A whole game by mail and what it mails: every mail the referee queues
for a two-player Glüx game (each player's decision the greedy bot's, from
their view), with the board as PNG, counted and summed; once as the
referee mails it without turn pages, once with each reader's page linked
(``page_url``). Prints one line per run, and the parts of the largest mail.

    python bench/mail_volume.py [FOLDER]
"""

from __future__ import annotations

import email
import email.policy
import random
import sys
import tempfile
from pathlib import Path

from tabletop import Registry, get_plugin_manager
from tabletop.api import bot_named
from tabletop.model.nodes import Decide
from tabletop.play import chance
from tabletop.referee import referee
from tabletop.sight import seen

PLAYERS = (("ann", "ann@example.org"), ("ben", "ben@example.org"))


def play(folder: Path, page_url: str | None) -> list[bytes]:
    """The game played by mail in ``folder``; every mail queued, oldest first."""
    registry = Registry(get_plugin_manager([], environment=False))
    chance.new_seed = lambda: "mail-volume"  # the same game in both runs
    secrets = referee.init(registry, folder, "glux", PLAYERS, referee="ref@example.org", game_id="g", page_url=page_url)
    ref = referee.Referee.open(registry, folder)
    bot = bot_named(registry, "greedy", "glux")
    addresses = dict(PLAYERS)
    for step in range(10_000):
        match = ref.replay()
        if not isinstance(match.node, Decide):
            break
        who = match.node.players[0]
        legal = list(match.game.legal(match.state, who))
        move = match.game.notate(seen.choice(bot, match.game, match.state, who, legal, random.Random(step)))
        mail = (
            f"From: {addresses[who]}\nTo: ref@example.org\nSubject: move\nMessage-ID: <m{step}@example.org>\n\n"
            f"game: g\nsecret: {secrets[who]}\nmove: {move}\n"
        )
        assert "played" in ref.receive(mail.encode())
    return [path.read_bytes() for path in ref.dir.waiting()]


def parts(raw: bytes) -> list[tuple[str, int]]:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    return [
        (f"{p.get_content_type()} {p.get_filename() or ''}".strip(), len(p.as_bytes()))
        for p in message.walk()
        if not p.is_multipart()
    ]


def main(where: str | None = None) -> None:
    base = Path(where or tempfile.mkdtemp(prefix="mail-volume-"))
    for name, url in (("without pages", None), ("with pages", "https://games.example.org")):
        mails = play(base / name.replace(" ", "-"), url)
        total = sum(map(len, mails))
        largest = max(mails, key=len)
        print(
            f"{name}: {len(mails)} mails, {total / 1e6:.2f} MB, largest {len(largest) / 1e3:.0f} KB, median {sorted(map(len, mails))[len(mails) // 2] / 1e3:.0f} KB"
        )
        print("  largest: " + ", ".join(f"{kind} {size / 1e3:.1f} KB" for kind, size in parts(largest)))


if __name__ == "__main__":
    main(*sys.argv[1:2])
