"""A game by mail played the same way every time (the clock, the seed and
every secret fixed), with each ``referee.json`` it writes kept: the files
``settings_files/`` holds were written so by the referee before its
settings were a typed record, and the record must write the very same
bytes (see test_settings_record.py)."""

from __future__ import annotations

import email
import email.policy
import itertools
import json
import re
import shutil
import time
from pathlib import Path

from tabletop.play import chance
from tabletop.play.engine import Replay
from tabletop.referee import passwords
from tabletop.referee import referee as referee_module
from tabletop.referee.gamedir import GameDir
from tabletop.referee.referee import Referee

from .conftest import ANN, BEN, MASTER, REF, raw_mail

#: Where the files written before are kept, one a step.
FILES = Path(__file__).with_name("settings_files")
T0 = 1_800_000_000
SUB, CAROL, DAVE, EVE = "sub@example.org", "carol@example.org", "dave@example.org", "eve@example.net"


class Fixed:
    """The clock, the seed and the secrets, the same at every run."""

    def __init__(self, monkeypatch) -> None:
        self.now = float(T0)
        counter = itertools.count(1)
        monkeypatch.setattr(time, "time", lambda: self.now)
        monkeypatch.setattr(time, "time_ns", lambda: int(self.now * 1_000_000_000))
        monkeypatch.setattr(chance, "new_seed", lambda: "0f" * 16)
        monkeypatch.setattr(passwords, "new_secret", lambda: f"sec{next(counter):04d}-fixd-fixd-fixd")

        class Salts:
            token_hex = staticmethod(lambda n: f"{next(counter):02x}".rjust(2 * n, "5"))

        monkeypatch.setattr(passwords, "secrets", Salts)


class Scenario:
    def __init__(self, folder: Path, registry, fixed: Fixed) -> None:
        self.folder = folder
        self.registry = registry
        self.fixed = fixed
        self.kept: list[tuple[str, str]] = []
        self.secrets: dict[str, str] = {}
        self.mails = itertools.count(1)

    def keep(self, name: str) -> None:
        self.kept.append((name, (self.folder / "referee.json").read_text()))

    def at(self, seconds: float) -> float:
        self.fixed.now = T0 + seconds
        return self.fixed.now

    def referee(self, folder: Path | None = None) -> Referee:
        return Referee.open(self.registry, folder or self.folder)

    def mail(self, address: str, *lines: str, folder: Path | None = None) -> str:
        raw = raw_mail(address, ["game: g", *lines], message_id=f"<m{next(self.mails)}@example.org>")
        return self.referee(folder).receive(raw, self.fixed.now)

    def play(self, who: str, *more: str, folder: Path | None = None) -> str:
        """A mail from ``who``'s address now (a substitute's once the seat changed hands), with their secret."""
        players = json.loads(((folder or self.folder) / "referee.json").read_text())["players"]
        return self.mail(players[who]["address"], f"secret: {self.secrets[who]}", *more, folder=folder)

    def match(self, folder: Path | None = None):
        return Replay(self.registry, (folder or self.folder) / "game.jsonl").run()

    def legal(self, who: str, folder: Path | None = None) -> list[str]:
        match = self.match(folder)
        return [match.game.notate(d) for d in match.game.legal(match.state, who)]

    def outbox_text(self, to: str, pattern: str) -> str:
        """What ``pattern`` finds in the last mail queued to ``to`` that has it."""
        for path in reversed(GameDir(self.folder).waiting()):
            mail = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            found = re.search(pattern, mail.get_body(("plain",)).get_content())
            if found and to in str(mail["To"]):
                return found.group(1)
        raise AssertionError(pattern)


def table_game(tmp_path: Path, registry, monkeypatch) -> list[tuple[str, str]]:
    """Glüx by mail with a game master, an observer, deadlines, the late
    bot, civil disorder and substitutes: wrong secrets, the setup, votes,
    a conditional move, a pause, reminders and late notices, the late bot,
    a seat offered and claimed, a new secret, an observer added, settings
    changed, a draw agreed, the game ended."""
    fixed = Fixed(monkeypatch)
    run = Scenario(tmp_path / "g", registry, fixed)
    run.secrets = referee_module.init(
        registry, run.folder, "glux", [("ann", ANN), ("ben", BEN)], referee=REF, game_id="g", master=MASTER,
        pictures="svg", deadline=3600, remind=1800, late_bot="random", grace=600, civil_disorder=2,
        substitutes=[SUB], observers=[CAROL], zones={"ann": "Europe/Paris"},
    )  # fmt: skip
    run.keep("init")
    run.at(10)
    run.mail(EVE, "player: ann", "secret: wrong-wrong")
    run.keep("a stranger's wrong secret")
    run.mail(BEN, "secret: mistyped")
    run.keep("ben's mistyped secret")
    for step in range(8):
        match = run.match()
        if match.state.began:
            break
        who = match.node.players[0]
        run.at(20 + step)
        assert "played" in run.play(who, f"move: {run.legal(who)[0]}")
        run.keep(f"setup {step + 1}")
    run.at(100)
    mover = run.match().node.players[0]
    other = "ben" if mover == "ann" else "ann"
    assert "voted" in run.play(other, "vote: draw")
    run.keep("a vote to draw")
    # A conditional move of the other's, met by the mover's next decision.
    shadow = tmp_path / "shadow"
    shutil.copytree(run.folder, shadow / "g")
    mine = run.legal(mover)[0]
    assert "played" in run.play(mover, f"move: {mine}", folder=shadow / "g")
    theirs = run.legal(other, shadow / "g")[-1]
    assert "played" in run.play(other, f"move: {theirs}", folder=shadow / "g")
    answer = run.legal(mover, shadow / "g")[-1]
    run.at(110.5)
    assert "played" in run.play(mover, f"move: {mine}", f"if: {theirs} then: {answer}", "press: hello")
    run.keep("a move, a conditional move, press")
    run.at(120)
    assert "played" in run.play(other, f"move: {theirs}")
    run.keep("the conditional move met")
    run.at(130)
    run.play("ann", "vote: pause")
    run.play("ben", "vote: pause")
    run.keep("a pause voted")
    run.at(200)
    run.play("ann", "vote: resume")
    run.keep("the pause lifted")
    late = run.match().node.players[0]
    for name, seconds in (("a reminder", 2000), ("a late notice", 3800), ("the late bot", 4500)):
        run.at(seconds)
        run.referee().tick(fixed.now)
        run.keep(name)
    run.at(5000)
    run.referee().locked_master("seek", player=late, addresses=[SUB, "other@example.org"])
    run.keep("a seat offered")
    token = run.outbox_text(SUB, r"claim: (\S+)")
    run.at(5100)
    assert "took" in run.mail(SUB, f"claim: {token}")
    run.secrets[late] = run.outbox_text(SUB, r"Your secret: (\S+)")
    run.keep("the seat claimed")
    run.at(5200)
    run.referee().locked_master("reissue", player="ben")
    run.secrets["ben"] = run.outbox_text(BEN, r"Your secret: (\S+)")
    run.keep("a new secret")
    run.referee().locked_master("observe", address=DAVE)
    run.keep("an observer added")
    run.at(5300)
    run.referee().set({"deadline": 7200, "tz": ("ben", "Asia/Tokyo"), "substitutes": [SUB, "more@example.org"]})
    run.keep("settings changed")
    run.referee().locked_master("pause")
    run.keep("the master's pause")
    run.at(5400)
    run.referee().locked_master("extend", player=run.match().node.players[0], seconds=3600)
    run.keep("a deadline extended")
    run.referee().locked_master("resume")
    run.keep("the master's resume")
    run.at(5500.25)  # a moment with a fraction: kept as a float, and the whole ones as integers
    assert "withdrawn" in run.play("ann", "vote: abandon", "unvote: abandon", "vote: draw")
    run.keep("votes cast and withdrawn")
    assert "carried" in run.play("ben", "vote: draw")
    run.keep("a draw agreed")
    run.referee().locked_master("end")
    run.keep("the game ended")
    return run.kept


def bot_game(tmp_path: Path, registry, monkeypatch) -> list[tuple[str, str]]:
    """Glüx by mail against a bot in ben's seat: its decisions, and ann's, to the end or 12 of hers."""
    fixed = Fixed(monkeypatch)
    run = Scenario(tmp_path / "b", registry, fixed)
    run.secrets = referee_module.init(
        registry, run.folder, "glux", [("ann", ANN), ("ben", "bot:random")], referee=REF, game_id="g", pictures="svg"
    )
    run.keep("init")
    for step in range(12):
        match = run.match()
        if match.over:
            break
        run.at(60 * (step + 1))
        assert "played" in run.play("ann", f"move: {run.legal('ann')[0]}")
        run.keep(f"ann's move {step + 1}")
    return run.kept


SCENARIOS = {"table": table_game, "bot": bot_game}


def write(tmp_path: Path, registry, monkeypatch) -> None:
    """Keep each file the scenarios write in ``settings_files/`` (run once, on the referee before the record)."""
    FILES.mkdir(exist_ok=True)
    for name, scenario in SCENARIOS.items():
        for number, (_, text) in enumerate(scenario(tmp_path / name, registry, monkeypatch)):
            (FILES / f"{name}-{number:02d}.json").write_text(text)
