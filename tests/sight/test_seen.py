"""Views by construction (trust finding 4): every path that shows a game to a
seat, or acts for it, is handed the seat's view, made by the core.

Pile, the test game, draws every card in its ``render`` and ``describe``, as
a game author who forgot to hide them would: only the core's views keep ben's
card from ann."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

import tabletop.api
from tabletop import Bot, Hidden
from tabletop.sight import seen

from ..conftest import PILE, ROOT

HEADER = {
    "tabletop": 1,
    "game": "pile",
    "players": ["ann", "ben"],
    "variants": [],
    "options": {},
    "randomness": {"seed": "s"},
}


def twin_logs(tmp_path: Path) -> tuple[Path, Path]:
    """Two logs that differ only in ben's card, which ann may not see."""
    paths = []
    for card in (2, 3):
        path = tmp_path / f"ben-{card}" / "g.jsonl"
        path.parent.mkdir()
        lines = [
            HEADER,
            {"seq": 1, "kind": "deal", "player": "ann", "payload": {"card": 1}},
            {"seq": 2, "kind": "deal", "player": "ben", "payload": {"card": card}},
        ]
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        paths.append(path)
    return paths[0], paths[1]


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "g.jsonl", "--as", "ann"],
        ["replay", "g.jsonl", "--as", "ann", "--step"],
        ["replay", "g.jsonl", "--as", "ann", "--step", "--json"],
        ["render", "g.jsonl", "--as", "ann"],
        ["moves", "g.jsonl", "--player", "ann"],
        ["view", "g.jsonl", "--as", "ann", "-o", "page.html"],
    ],
    ids=" ".join,
)
def test_a_game_that_forgets_to_hide_shows_a_seat_only_its_view(tmp_path, command):
    """Trust finding 4: Pile's render shows every card; ann is shown hers alone."""
    from ..conftest import Cli

    outputs = []
    for log in twin_logs(tmp_path):
        result = Cli(log.parent)(*command)
        assert result.exit_code == 0, result.output
        page = log.parent / "page.html"
        outputs.append(result.output + (page.read_text() if page.exists() else ""))
    assert outputs[0] == outputs[1]
    assert outputs[0].strip()


def test_the_whole_state_is_shown_only_when_asked_for_by_name(tmp_path):
    from ..conftest import Cli

    outputs = [Cli(log.parent)("replay", "g.jsonl").output for log in twin_logs(tmp_path)]
    assert outputs[0] != outputs[1]  # replay without --as: everything
    assert "ben: 2" in outputs[0] and "ben: 3" in outputs[1]


def test_a_bot_is_handed_its_seats_view_never_the_state():
    """Trust finding 4: a bot cannot read what its seat may not know."""
    registry = tabletop.api.registry([PILE])
    handed = []

    def spy(game, view, player, legal, rng):
        handed.append(view)
        return legal[0]

    for seed in ("a", "b", "c"):
        table = tabletop.api.start("pile", ["ann", "ben"], seed=seed, registry=registry)
        table.ask(Bot("spy", "records what it is handed", spy), "ann")
    for view in handed:
        assert view.cards[0] in (1, 2, 3) and isinstance(view.cards[1], Hidden)


def test_a_bot_that_reads_no_state_is_handed_none():
    registry = tabletop.api.registry([PILE])
    handed = []

    def spy(game, view, player, legal, rng):
        handed.append(view)
        return legal[0]

    table = tabletop.api.start("pile", ["ann", "ben"], seed="s", registry=registry)
    table.ask(Bot("blind", "chooses from the legal decisions alone", spy, reads_state=False), "ann")
    assert handed == [None]


def test_a_pictures_history_hides_what_the_viewer_may_not_see():
    registry = tabletop.api.registry([PILE])
    table = tabletop.api.start("pile", ["ann", "ben"], seed="s", registry=registry)
    events = list(table.events)
    game = table.game
    assert seen.history(game, events, None) == events
    mine, theirs = seen.history(game, events, "ann")
    assert mine == events[0] and theirs == Hidden("deal")


SHOWING = {"render", "describe", "asks", "draw", "choose"}


def _leaks(path: Path, root: Path = ROOT) -> list[str]:
    """Calls that hand a game's whole state (``something.state``) to what
    shows a game or acts for a seat."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        call = node.func if isinstance(node, ast.Call) else None
        if isinstance(call, ast.Attribute) and call.attr in SHOWING and ast.unparse(call.value) != "seen":
            for arg in node.args[:2]:
                if isinstance(arg, ast.Attribute) and arg.attr == "state":
                    found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)[:100]}")
    return found


def test_no_path_hands_the_state_to_what_shows_a_game():
    """Everything goes through tabletop.sight.seen, which makes the seat's view."""
    sources = [p for folder in ("src", "plugins", "variants") for p in (ROOT / folder).rglob("*.py")]
    leaks = [leak for path in sources if path.name != "seen.py" for leak in _leaks(path)]
    assert leaks == []


def test_the_scan_finds_a_state_handed_to_a_renderer(tmp_path):
    source = tmp_path / "leaky.py"
    source.write_text(
        "def f(game, match, bot):\n    game.render(match.state, 'ann')\n    bot.choose(game, match.state)\n"
    )
    assert len(_leaks(source, tmp_path)) == 2


def test_twins_made_from_a_view_show_a_seat_the_same():
    """The conformance kit's twin check, on a position where ben holds a card."""
    from tabletop import testing

    registry = tabletop.api.registry([PILE])
    table = tabletop.api.start("pile", ["ann", "ben"], seed="s", registry=registry)
    state = table.match.state
    for twin in testing.twins(table.game, state, "ann", random.Random(1), count=5):
        testing.same_for(registry, table.game, state, twin, "ann")
