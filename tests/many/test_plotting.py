"""Pictures of many games: the data behind each panel, and real PNG files."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tabletop.many.intervals import wilson
from tabletop.many.plotting import Bar, histograms, rate_bars, title_of, zoomed
from tabletop.many.stats import GameRow, Summary

PNG = b"\x89PNG\r\n\x1a\n"


def row(winner: int, order=("a", "b", "c", "d"), scores=(4, 6, 8, 10), bots=("greedy", "random") * 2) -> GameRow:
    players = ("a", "b", "c", "d")
    return GameRow(
        game="glux",
        variants=(),
        players=players,
        bots=bots,
        scores=scores,
        winners=(players[winner],),
        events=100,
        finished=True,
        order=order,
        turns=40,
    )


def test_rate_bars_follow_by():
    rows = [row(0), row(1), row(0, order=("b", "c", "d", "a")), row(2)]
    (seat,) = Summary("seat").extend(rows).sorted_groups()
    assert [(b.label, b.wins, b.games) for b in rate_bars(seat)] == [
        ("seat 1", 2, 4),
        ("seat 2", 1, 4),
        ("seat 3", 1, 4),
        ("seat 4", 0, 4),
    ]
    (bot,) = Summary("bot").extend(rows).sorted_groups()
    assert [(b.label, b.wins, b.games) for b in rate_bars(bot)] == [("greedy", 3, 8), ("random", 1, 8)]
    (order,) = Summary("turn-order").extend(rows).sorted_groups()
    # Game 3 started with b: a played 4th and won.
    assert [(b.label, b.wins) for b in rate_bars(order)] == [("1st", 1), ("2nd", 1), ("3rd", 1), ("4th", 1)]
    (start,) = Summary("start").extend(rows).sorted_groups()
    assert [(b.label, b.wins, b.games) for b in rate_bars(start)] == [("not start", 3, 12), ("start player", 1, 4)]
    bar = rate_bars(seat)[0]
    assert (bar.low, bar.high) == wilson(2, 4)


def test_win_rate_axis_is_zoomed_around_the_fair_share():
    bars = [Bar("seat 1", 0, 0, 0.26, 0.255, 0.265), Bar("seat 2", 0, 0, 0.24, 0.235, 0.245)]
    low, high = zoomed(bars, 0.25)
    # Every interval and the fair share fit; a 1-point effect fills a visible share of the axis.
    assert low <= 0.235 and high >= 0.265 and low < 0.25 < high
    assert high - low <= 0.1
    wide = zoomed([Bar("x", 0, 0, 0.6, 0.5, 0.7)], 0.25)
    assert wide[1] >= 0.7 and wide[0] >= 0.0


def test_histograms_share_integer_bins():
    official = Counter({4: 1, 8: 2, 12: 1})
    variant = Counter({10: 2, 14: 2})
    bins, (a, b) = histograms([official, variant])
    assert bins == [4, 6, 8, 10, 12, 14]  # every score either series can show: all are even
    assert all(isinstance(x, int) for x in bins)
    assert a == [0.25, 0, 0.5, 0, 0.25, 0] and b == [0, 0, 0, 0.5, 0, 0.5]
    odd, _ = histograms([Counter({3: 1, 4: 1, 7: 1})])
    assert odd == [3, 4, 5, 6, 7]


def test_title_names_game_players_bots_variants_and_games():
    groups = Summary().extend([row(0), row(1)]).sorted_groups()
    assert title_of(groups) == "glux, 4 players, bots greedy, random, greedy, random, official rules, 2 games"


def test_simulate_and_stats_draw_pngs(cli, tmp_path):
    pytest.importorskip("matplotlib")
    args = ("simulate", "glux", "--seats", "2", "--bot", "greedy", "--games", "20", "--workers", "1")
    compare = cli(*args, "--compare", "glux-second-place-2p", "--plot", "compare.png", "-o", "logs", "--json")
    assert compare.exit_code == 0, compare.stderr
    assert (tmp_path / "compare.png").read_bytes().startswith(PNG)
    data = json.loads(compare.stdout)
    assert data["compare"]["seats"][0]["ci95"][0] <= data["compare"]["seats"][0]["difference"]
    for by in ("bot", "turn-order", "seat,start"):
        name = f"stats-{by.replace(',', '-')}.png"
        result = cli("stats", "logs", "--by", by, "--plot", name)
        assert result.exit_code == 0, result.stderr
        assert (tmp_path / name).read_bytes().startswith(PNG)


def test_sweep_draws_a_curve(cli, tmp_path):
    pytest.importorskip("matplotlib")
    from ..conftest import ROOT

    rules = ROOT / "variants" / "house_rules" / "glux_room_points.py"
    result = cli(
        "--plugins",
        rules,
        "simulate",
        "glux",
        "--players",
        "2",
        "--bot",
        "greedy",
        "--games",
        "6",
        "--workers",
        "1",
        "--sweep",
        "glux-room-points:first=4,6",
        "--plot",
        "sweep.svg",
    )
    assert result.exit_code == 0, result.stderr
    svg = (tmp_path / "sweep.svg").read_text()
    assert "sweep glux-room-points:first=4,6" in svg or "glux-room-points" in svg
