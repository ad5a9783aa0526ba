"""The hex board as text, readable in a terminal and in an email.

Rows run from ``m`` (top) to ``a`` (gold's edge, bottom), shifted by half a
spot each so that the hexagon shows. A piece is two letters: its owner's
colour (``g`` gold, ``s`` silver, ``b`` bronze) and its own letter; an empty
spot is ``.``, the empty centre ``+``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from tabletop import Hidden

from .pieces import COLOURS, GLYPHS, ILLUSIONIST, MINION, MINIONS, NAMES
from .state import ALIVE, State, coins_list

if TYPE_CHECKING:
    from .game import GlyphChess

#: Terminal colours as (text, background): dark letters on a gold, silver or
#: bronze ground read on light and dark terminals alike.
_COLOURS = (("black", "yellow"), ("black", "white"), ("white", "red"))


def board_text(game: GlyphChess, state: State, color: bool) -> str:
    geo = game.geo
    rows: dict[int, list[str]] = {}
    for spot, (_, r) in enumerate(geo.coords):
        piece = state.board[spot]
        if piece is None:
            token = " +" if spot == geo.center else " ."
        else:
            token = f"{COLOURS[piece[0]][0]}{piece[1]}"
            if color:
                fg, bg = _COLOURS[piece[0]]
                token = click.style(token, fg=fg, bg=bg)
        rows.setdefault(r, []).append(token)
    width = 2 * geo.radius + 1
    lines = []
    for r in sorted(rows, reverse=True):
        cells = rows[r]
        label = chr(ord("a") + r + geo.radius)
        lines.append(
            f"{label} " + "  " * (width - len(cells)) + "  ".join(cells).rstrip() + f"   {label}1-{len(cells)}"
        )
    lines.append("")
    lines.append("dice: " + "  ".join(f"D{i + 1} {f or '-'}" for i, f in enumerate(state.dice)))
    for seat, player in enumerate(game.players):
        lines.append(player_line(game, state, seat, player))
    return "\n".join(lines)


def labelled(geo) -> str:
    """The empty board with every spot's name: the picture in the docs."""
    rows: dict[int, list[str]] = {}
    for spot, (_, r) in enumerate(geo.coords):
        rows.setdefault(r, []).append(f"{geo.names[spot]:>3}")
    width = 2 * geo.radius + 1
    lines = []
    for r in sorted(rows, reverse=True):
        cells = rows[r]
        lines.append("   " * (width - len(cells)) + "   ".join(cells))
    return "\n".join(lines)


def player_line(game: GlyphChess, state: State, seat: int, player: str) -> str:
    colour = COLOURS[seat]
    if state.eliminated[seat]:
        return f"{colour} {player}: eliminated"
    hand = state.hands[seat]
    if isinstance(hand, Hidden):  # another player's view: a count only
        coins = f"{hand.count} coin{'s' if hand.count != 1 else ''} in hand"
        bag = f"bag and hand {sum(state.bags[seat])}"
    else:
        held = coins_list(hand)
        coins = f"coins {' '.join(held) or 'none'}"
        bag = f"bag {sum(state.bags[seat])}"
    used = " ".join(coins_list(state.used[seat])) or "none"
    wild = sorted(state.wild(seat))
    parts = [coins, bag, f"used {used}"]
    if wild:
        parts.append(f"wild {' '.join(wild)}")
    spare = _spare(state, seat)
    if spare:
        parts.append(f"spare {spare}")
    turn = " <" if state.turn == seat and state.phase not in ("over", "setup") else ""
    return f"{colour} {player}: " + "; ".join(parts) + turn


def _spare(state: State, seat: int) -> str:
    on_board = [p[1] for p in state.board if p is not None and p[0] == seat]
    items = []
    for glyph, fate in zip(GLYPHS, state.fates[seat]):
        if fate != ALIVE:
            items.append(f"{glyph}({fate})")
    illusionists = on_board.count(ILLUSIONIST)
    if illusionists == 1:
        items.append("I(replica)")
    minions = MINIONS - on_board.count(MINION)
    if minions:
        items.append(f"M x{minions}")
    return " ".join(items)


def facets(game: GlyphChess, state: State) -> dict[str, str]:
    """Named parts of the state, compared by ``tabletop diff``."""
    found: dict[str, str] = {}
    for spot, piece in enumerate(state.board):
        if piece is not None:
            found[f"spot {game.geo.names[spot]}"] = f"{game.players[piece[0]]} {NAMES[piece[1]]}"
    found["dice"] = " ".join(f or "-" for f in state.dice)
    for seat, player in enumerate(game.players):
        hand = state.hands[seat]
        found[f"coins {player}"] = str(hand) if isinstance(hand, Hidden) else " ".join(coins_list(hand)) or "none"
        found[f"used {player}"] = " ".join(coins_list(state.used[seat])) or "none"
        found[f"fates {player}"] = (
            " ".join(f"{g}:{f}" for g, f in zip(GLYPHS, state.fates[seat]) if f != ALIVE) or "all alive"
        )
        if state.eliminated[seat]:
            found[f"eliminated {player}"] = "yes"
    found["turn"] = game.players[state.turn]
    found["step"] = state.phase
    for name, value in state.memo.items():  # what variants remember (none under the official rules)
        found[f"memo {name}"] = repr(value)
    return found
