"""Twin games that differ only in what ben may not see (the chip ann drew,
hidden in her hand), played on through the same later decisions: ben's
turn page and the observer's are the same page in both, but for the
tokens each game draws; ann's, who sees her chip, differs (the check can
fail)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabletop.play import chance
from tabletop.referee import pages
from tabletop.referee import referee as referee_module
from tabletop.referee.gamedir import GameDir

from ..referee.conftest import ANN, BEN, MASTER, REF, plain_registry_cached, raw_mail
from ..referee.test_observers import _twin_seeds

pytest.importorskip("starlette", reason="the serve extra is not installed")

from tabletop.turnpage.app import Game  # noqa: E402

CAROL = "carol@example.org"
READERS = ("ann", "ben", pages.OBSERVER + CAROL, pages.MASTER)


def _pages(folder: Path, seed: str, moves: int, monkeypatch) -> tuple[dict[str, str], bytes]:
    """A game by mail on ``seed`` (ben deciding first, each decision the first
    legal one, ``moves`` of them): each reader's page, with what differs
    between any two games drawn afresh taken out (the tokens, the page's
    form token, its stamp)."""
    registry = plain_registry_cached()
    monkeypatch.setattr(chance, "new_seed", lambda: seed)
    secrets = referee_module.init(
        registry, folder / "g", "glux", [("ann", ANN), ("ben", BEN)], referee=REF, game_id="g", master=MASTER,
        pictures="svg", observers=[CAROL], page_url="https://games.example.org",
    )  # fmt: skip
    monkeypatch.undo()
    ref = referee_module.Referee.open(registry, folder / "g")
    for step in range(moves):
        match = ref.replay()
        who = match.node.players[-1]
        move = match.game.notate(match.game.legal(match.state, who)[0])
        address = {"ann": ANN, "ben": BEN}[who]
        raw = raw_mail(address, ["game: g", f"secret: {secrets[who]}", f"move: {move}"], message_id=f"<m{step}@x>")
        assert "played 1 decision" in ref.receive(raw)
    directory = GameDir(folder / "g")
    tokens = {reader: token for token, reader in pages.readers(directory, directory.load()).items()}
    game = Game(folder / "g", registry)
    shown = {}
    for reader in READERS:
        html = game.page(tokens[reader], reader).html
        html = re.sub(r'name="csrf" value="[0-9a-f]+"', 'name="csrf" value=""', html)
        shown[reader] = re.sub(r'"live":"[0-9a-f]+"', '"live":""', html)
    return shown, (folder / "g" / "game.jsonl").read_bytes()


def test_twin_games_show_ben_and_the_observer_the_same_pages(tmp_path, monkeypatch):
    first, second, moves = _twin_seeds()
    shown_a, log_a = _pages(tmp_path / "a", first, moves, monkeypatch)
    shown_b, log_b = _pages(tmp_path / "b", second, moves, monkeypatch)
    assert log_a != log_b  # the twins differ, in what ben and any onlooker may not see
    assert "ann draws a chip" in shown_a["ben"]
    for reader in ("ben", pages.OBSERVER + CAROL, pages.MASTER):
        assert shown_a[reader] == shown_b[reader], reader
    assert shown_a["ann"] != shown_b["ann"]  # ann sees her own chip: her pages tell the twins apart
