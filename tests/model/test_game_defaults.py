"""What the core works out for a game that writes only its rules (Stones,
tests/plugins/stones.py): notation and log lines from its event classes,
facets and a board from its state, options' checks, action numbers, turns."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import attrs
import pytest

import tabletop
from tabletop import CHANCE, Event, NotationError, PluginError, UsageError, testing
from tabletop.ai.actions import actions_for
from tabletop.api import registry as make_registry
from tabletop.model.notation import notate, parse, sentence

from ..conftest import run_tabletop

STONES = Path(__file__).resolve().parents[1] / "plugins" / "stones.py"


@pytest.fixture(scope="module")
def reg():
    return make_registry([STONES])


def start(reg, players=("ann", "ben"), **options):
    return tabletop.start("stones", list(players), options=options, seed="s", registry=reg)


def test_a_game_that_writes_only_its_rules_passes_the_conformance_kit(reg):
    assert testing.conform(reg, "stones", ["ann", "ben"], games=4, seed="defaults") > 20
    assert testing.conform(reg, "stones", ["ann", "ben", "cy"], options={"most": "3"}, games=3, seed="more") > 15


# -- notation and log lines -----------------------------------------------------------
@attrs.frozen
class Bid(Event):
    kind: ClassVar[str] = "bid"
    written: ClassVar[str] = "{count}x{face}"
    sentence: ClassVar[str] = "{player} bids {written}"
    player: str
    count: int
    face: int


@attrs.frozen
class Pay(Event):
    kind: ClassVar[str] = "pay"
    player: str
    coins: tuple[str, ...]
    square: str
    now: bool = True


@attrs.frozen
class Roll(Event):
    kind: ClassVar[str] = "roll"
    origin: ClassVar[str] = CHANCE
    written: ClassVar[str] = "roll {face}"
    unseen: ClassVar[str] = "{player} rolls a die"
    player: str
    face: int


def test_a_decision_is_written_by_its_template_or_its_kind_and_fields_and_reads_back():
    classes = (Bid, Pay)
    for decision, written in (
        (Bid("ann", 3, 5), "3x5"),
        (Pay("ann", ("gold", "iron"), "c4"), "pay gold,iron c4 yes"),
        (Pay("ann", (), "c4", False), "pay - c4 no"),
    ):
        assert notate(decision) == written
        assert parse(classes, written, "ann") == decision
    assert parse(classes, "  3 X 5 ", "ben") == Bid("ben", 3, 5)
    assert parse(classes, "PAY gold c4 Yes", "ann") == Pay("ann", ("gold",), "c4")


def test_what_no_template_reads_is_one_line_saying_what_to_write():
    with pytest.raises(NotationError) as refused:
        parse((Bid, Pay), "three fives", "ann")
    assert str(refused.value) == "cannot read 'three fives': write COUNTxFACE or pay COINS SQUARE NOW"
    with pytest.raises(NotationError, match="at most 200"):
        parse((Bid, Pay), "1" * 10_000, "ann")


def test_a_template_that_names_no_field_or_leaves_one_out_is_refused():
    @attrs.frozen
    class Odd(Event):
        kind: ClassVar[str] = "odd"
        written: ClassVar[str] = "{colour}"
        player: str
        count: int

    with pytest.raises(PluginError, match="colour"):
        notate(Odd("ann", 1))

    @attrs.frozen
    class Told(Event):
        kind: ClassVar[str] = "told"
        unseen: ClassVar[str] = "{player} is told {secret}"
        player: str
        secret: int

    with pytest.raises(PluginError, match="Told.unseen: .* it may name player"):
        sentence(Told("ann", 3), False)


def test_log_lines_come_from_the_sentence_and_hide_what_the_viewer_may_not_see():
    assert sentence(Bid("ann", 3, 5), True) == "ann bids 3x5"
    assert sentence(Pay("ann", ("gold",), "c4"), True) == "ann pay gold c4 yes"
    assert sentence(Roll("ben", 4), True) == "ben roll 4"
    assert sentence(Roll("ben", 4), False) == "ben rolls a die"
    assert sentence(Pay("ann", ("gold",), "c4"), False) == "ann pay (hidden)"


def test_the_game_formats_with_its_own_sees_and_writes_outcomes_by_template(reg):
    table = start(reg)
    game = table.game
    deal = reg.codec.kinds["stones"]["deal"]
    assert game.format(deal("ann", 2), "ann") == "ann deal 2"
    assert game.format(deal("ann", 2), "ben") == "ann is dealt a card"
    assert game.notate_outcome(deal("ann", 2)) is None  # no template of its own: the log line stands
    take = reg.codec.kinds["stones"]["take"]
    assert game.parse("take 2 no", "ann", table.match.state) == take("ann", 2)


# -- facets and the board -----------------------------------------------------------------
def test_facets_and_the_board_are_the_states_fields_as_the_viewer_sees_them(reg):
    table = start(reg)
    game, state = table.game, table.match.state
    mine = state.cards[0]
    facets = game.describe(game.view(state, "ann"), "ann")
    assert list(facets) == ["pile", "cards", "used", "taken", "turn", "last"]
    assert facets["cards"] == f"{mine} ?" and facets["used"] == "no no" and facets["last"] == "-"
    assert game.render(game.view(state, "ann"), "ann").splitlines() == [
        "Stones",
        "pile: 12",
        f"cards: {mine} ?",
        "used: no no",
        "taken: 0 0",
        "turn: 0",
        "last: -",
    ]


# -- options ------------------------------------------------------------------------------
def test_number_options_are_read_checked_and_defaulted(reg, tmp_path):
    assert start(reg, stones="7").match.state.pile == 7
    assert start(reg).game.option("most") == 2
    for given, said in (("99", "99 is not a number from 5 to 30"), ("x", "'x' is not a number")):
        with pytest.raises(UsageError, match=f"option 'stones': {said}"):
            start(reg, stones=given)
    # A header read from a log is held to the same bounds, and a number written as text is no number.
    for options, said in (('{"most":"2"}', "'2' is not"), ('{"most":7}', "7 is not")):
        log = tmp_path / "g.jsonl"
        log.write_text(
            f'{{"tabletop":1,"game":"stones","players":["a","b"],"variants":[],"options":{options},"randomness":{{}}}}\n'
        )
        with pytest.raises(UsageError, match=f"option 'most': {said} a number from 1 to 4"):
            tabletop.open(log, registry=reg).outcome()


def test_a_bad_option_on_the_command_line_is_one_line_and_no_file(tmp_path):
    done = run_tabletop(
        "--plugins",
        str(STONES),
        "new",
        "stones",
        "--players",
        "a,b",
        "--option",
        "most=9",
        "-o",
        "g.jsonl",
        cwd=tmp_path,
    )
    assert done.returncode == 2 and not list(tmp_path.iterdir())
    assert done.stderr.strip() == "tabletop: option 'most': 9 is not a number from 1 to 4"


def test_tabletop_games_shows_an_options_help_with_its_bounds(tmp_path):
    done = run_tabletop("--plugins", str(STONES), "games", "--json", cwd=tmp_path)
    assert '"most": "the most stones a player takes without the card (from 1 to 4; default 2)"' in done.stdout


# -- action numbers -------------------------------------------------------------------------
def test_the_default_numbering_writes_every_decision_the_values_make(reg):
    table = start(reg)
    actions = actions_for(reg, table.header, table.game)
    assert actions.words == (".", "take 1 no", "take 1 yes", "take 2 no", "take 2 yes", "take 3 no", "take 3 yes")
    assert actions.numbering.most_outcomes(table.game) == 3  # a card: 1 to 3
    assert [actions.of(d) for d in table.legal()] == [
        (1,),
        (3,),
        (actions.number[f"take {table.match.state.cards[0]} yes"],),
    ]


def test_the_default_numbering_refuses_more_events_than_it_may_list():
    class Wide(tabletop.Game):
        name = "wide"

        def values(self, event, field):
            return range(2_000)

    with pytest.raises(PluginError, match="wide: its 'bid' events' values make more than 1,000,000"):
        Wide(("ann", "ben"), {}, None).every(Bid)


def test_openspiel_plays_a_game_numbered_by_default():
    pyspiel = pytest.importorskip("pyspiel")
    import tabletop.ai.openspiel

    tabletop.ai.openspiel.register([STONES])
    game = pyspiel.load_game("tabletop_stones", {"players": 2, "plugins": str(STONES)})
    assert game.num_distinct_actions() == 7 and game.max_chance_outcomes() == 3
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
