"""The recorded games under replays/: each replays legally and matches its snapshot."""

from __future__ import annotations

import pytest
from syrupy.extensions.json import JSONSnapshotExtension

from tabletop.cli.common import summary
from tabletop.play.engine import Match, Replay
from tabletop.sight import seen

from ..conftest import REPLAYS, run_tabletop

LOGS = sorted(REPLAYS.rglob("*.jsonl"))


@pytest.fixture
def snapshot_json(snapshot):
    return snapshot.use_extension(JSONSnapshotExtension)


def final(registry, log) -> Match:
    return Replay(registry, log).run()


@pytest.mark.parametrize("log", LOGS, ids=lambda p: str(p.relative_to(REPLAYS)))
def test_recorded_game_replays_and_matches_its_snapshot(registry, log, snapshot_json):
    match = final(registry, log)
    assert match.over
    game = match.game
    record = {
        "summary": {**summary(match, str(log.relative_to(REPLAYS))), "as": None},
        "final state": game.describe(match.state),
        "board": game.render(match.state).splitlines(),
        "views": {p: seen.text(game, match.state, p).splitlines() for p in match.header.players},
    }
    assert record == snapshot_json


def test_the_readme_command_replays_a_recorded_game(tmp_path):
    result = run_tabletop("replay", REPLAYS / "glux" / "four-players.jsonl", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Game over." in result.stdout


def test_replaying_the_whole_folder(tmp_path):
    result = run_tabletop("replay", REPLAYS, cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1].endswith("0 illegal, 0 unreadable.")


@pytest.fixture(scope="module")
def matches(registry):
    return {log.stem: (log, final(registry, log)) for log in sorted((REPLAYS / "glux").glob("*.jsonl"))}


class TestGluxRecordings:
    """The set of Glüx recordings covers what the rules must get right."""

    def test_at_least_eight_complete_games(self, matches):
        assert len(matches) >= 8 and all(m.over for _, m in matches.values())

    def test_two_three_and_four_players(self, matches):
        assert {len(m.header.players) for _, m in matches.values()} == {2, 3, 4}

    def test_one_with_the_second_place_variant(self, matches):
        assert any(m.header.variants == ("glux-second-place-2p",) for _, m in matches.values())

    def test_one_where_the_start_square_option_is_forced(self, registry, matches):
        log, _ = matches["forced-start-option"]
        replay = Replay(registry, log)
        forced = []

        def before(match, seq, event):
            if event.kind == "place" and event.start:
                forced.append(not match.game.targets(match.state, match.game.seats[event.player]))

        replay.before = before
        replay.run()
        assert any(forced)

    def test_one_where_a_player_is_excluded(self, matches):
        _, match = matches["excluded-player"]
        assert any(match.state.excluded)

    def test_one_tie_broken_by_the_middle_room(self, matches):
        _, match = matches["middle-room-tiebreak"]
        outcome = match.game.outcome(match.state)
        assert outcome.note == "tie on VP, decided by the middle room" and len(outcome.winners) == 1

    def test_one_shared_victory(self, matches):
        _, match = matches["shared-victory"]
        assert len(match.game.outcome(match.state).winners) > 1


@pytest.fixture(scope="module")
def glyph_matches(registry):
    return {log.stem: (log, final(registry, log)) for log in sorted((REPLAYS / "glyph_chess").glob("*.jsonl"))}


class TestGlyphChessRecordings:
    """The set of Glyph Chess recordings covers what the rules must get right."""

    def test_at_least_eight_complete_games_of_two_and_three_players(self, glyph_matches):
        assert len(glyph_matches) >= 8 and all(m.over for _, m in glyph_matches.values())
        assert {len(m.header.players) for _, m in glyph_matches.values()} == {2, 3}

    def test_one_with_the_advanced_setup(self, glyph_matches):
        assert any(m.header.variants == ("glyph-advanced-setup",) for _, m in glyph_matches.values())

    def test_one_won_by_reaching_the_centre_and_one_by_elimination(self, glyph_matches):
        notes = {m.game.outcome(m.state).note for _, m in glyph_matches.values()}
        assert {"scepter on the centre", "last player standing"} <= notes

    def test_one_three_player_game_goes_on_after_an_elimination(self, glyph_matches):
        _, match = glyph_matches["three-players-elimination-mid-game"]
        assert len(match.header.players) == 3 and any(match.state.eliminated)
        assert match.game.outcome(match.state).winners

    def test_every_spell_is_cast_at_least_once(self, registry, glyph_matches):
        cast = set()
        for log, _ in glyph_matches.values():
            for _, _, event in Replay(registry, log):
                if event.kind == "cast":
                    cast.add(event.spell)
        assert cast == {"swap", "replica", "foresee", "blaze", "blast", "revive", "march", "summon"}
