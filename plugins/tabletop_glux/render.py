"""The Glüx board as text: for a terminal (colour when it supports it) and for
an email (plain ASCII layout, monospace).

Each square is five characters: the owner's mark and the face of the top
chip, ``+`` when it covers another chip, ``*`` on a start square. An empty
square shows its room letter, or ``.`` for a path. Thirteen columns make 68
characters, which fits an email line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from tabletop import Hidden

from .state import hand_of, hand_size

if TYPE_CHECKING:
    from .game import Glux
    from .state import State

MARKS = "wxyz"
#: Terminal colours readable on light and dark backgrounds alike (no yellow, no white).
_COLOURS = ("red", "blue", "green", "magenta")


def _paint(text: str, seat: int, color: bool) -> str:
    return click.style(text, fg=_COLOURS[seat], bold=True) if color else text


def board_text(game: Glux, state: State, viewer: str | None, color: bool) -> str:
    board = game.board
    rows = []
    label = len(str(board.height))
    rows.append(" " * (label + 1) + "".join(f"  {chr(ord('a') + c)}  " for c in range(board.width)).rstrip())
    for row in range(board.height - 1, -1, -1):
        cells = []
        for col in range(board.width):
            square = row * board.width + col
            stack = state.stacks[square]
            start = "*" if game.start_owner[square] >= 0 else " "
            if stack:
                seat, face = stack[-1]
                chip = _paint(f"{MARKS[seat]}{face}", seat, color)
                cells.append(f" {chip}{'+' if len(stack) > 1 else ' '}{start}")
            else:
                cells.append(f"  {board.rooms[square]}{start} ")
        rows.append(f"{row + 1:>{label}} " + "".join(cells).rstrip())
    rows.append("")
    rows.append(
        "  ".join(_paint(f"{MARKS[i]} = {p}", i, color) for i, p in enumerate(game.players))
        + "   (+ covers a chip, * start square)"
    )
    rows += _lines(game, state, viewer)
    return "\n".join(rows)


def _lines(game: Glux, state: State, viewer: str | None) -> list[str]:
    lines = []
    pips = game.room_pips(state)
    rooms = []
    for room in game.board.room_names:
        standing = ", ".join(f"{p} {n}" for p, n in sorted(pips[room].items(), key=lambda kv: -kv[1])) or "-"
        middle = " (middle)" if room == game.board.middle else ""
        rooms.append(f"  {room}{middle}: {standing}")
    lines.append("Rooms (pips on top chips):")
    lines += rooms
    outcome = game.outcome(state)
    lines.append("Victory points now: " + ", ".join(f"{p} {vp}" for p, vp in outcome.ranked()))
    for seat, player in enumerate(game.players):
        lines.append(f"{player}: {hand_and_bag(game, state, seat)}{_flags(game, state, seat)}")
    return lines


def hand_and_bag(game: Glux, state: State, seat: int) -> str:
    """A player's hand and bag in words, as the text board and the picture say them."""
    hand = state.hands[seat]
    contents = _bag(game, state, seat)
    total = sum(state.bags[seat])
    if isinstance(hand, Hidden):
        # A view for another player: bag and hand together, as the public record shows.
        held = hand_size(state, seat)
        many = f" ({held} chips)" if held > 1 else ""
        return f"hand hidden{many}; bag and hand: {total} chips ({contents})"
    return f"hand {_chips(state, seat)}; bag: {total} chips ({contents})"


def _bag(game: Glux, state: State, seat: int) -> str:
    # How many of each kind of chip in force: "1/6x8 2/5x7 3/4x8".
    return " ".join(f"{k}x{n}" for k, n in zip(game.chips.kinds, state.bags[seat]))


def _chips(state: State, seat: int) -> str:
    # Every chip held (a variant may give a hand of several), "-" for none.
    return " ".join(map(str, hand_of(state, seat))) or "-"


def _flags(game: Glux, state: State, seat: int) -> str:
    flags = []
    if state.option_used[seat]:
        flags.append("start option used")
    if state.excluded[seat]:
        flags.append("excluded")
    elif state.began and state.hands[seat] is None and not state.bag_size(seat):
        flags.append("finished")
    if state.turn == seat:
        flags.append("draws" if state.drawing else "to place")
    return f" [{', '.join(flags)}]" if flags else ""


def facets(game: Glux, state: State, viewer: str | None) -> dict[str, str]:
    """Named parts of the state, compared by ``tabletop diff``."""
    found: dict[str, str] = {}
    board = game.board
    for square, stack in enumerate(state.stacks):
        if stack:
            chips = " over ".join(f"{game.players[s]} {f}" for s, f in reversed(stack))
            found[f"square {board.name_of(square)}"] = chips
    for room, pips in game.room_pips(state).items():
        found[f"room {room}"] = ", ".join(f"{p} {n}" for p, n in sorted(pips.items())) or "-"
    for seat, player in enumerate(game.players):
        found[f"hand {player}"] = _chips(state, seat)
        found[f"bag {player}"] = _bag(game, state, seat)
        found[f"start option {player}"] = "used" if state.option_used[seat] else "unused"
        if state.excluded[seat]:
            found[f"excluded {player}"] = "yes"
    found["turn"] = game.players[state.turn] if state.turn is not None else "-"
    for name, value in state.memo.items():  # what variants remember; empty under the official rules
        found[f"memo {name}"] = str(value)
    return found
