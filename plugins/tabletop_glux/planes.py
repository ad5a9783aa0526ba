"""Glüx's observation as named planes, for networks (see ``tabletop.sight.planes``).

Board planes are the board's rows by its columns: ``[0, 0]`` is ``a1``,
``[row, column]`` the square of that rank and file. Planes per seat count
seats from the player observing (0), in seat order, so that one network
plays every seat. Everything is read from the player's view: another
player's hand is a hidden chip there, and their bag is shown with it (the
chips they have not placed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop import Hidden
from tabletop.sight.planes import Plane, Planes, seat_order

from .chips import MOST_PIPS

if TYPE_CHECKING:
    from .game import Glux

#: A face shows 1 to 6 pips (``chips.MOST_PIPS``).
FACES = MOST_PIPS


def planes(game: Glux) -> Planes:
    board = game.board
    n, h, w = len(game.players), board.height, board.width
    chips = n * sum(game.bag)
    most_of_a_kind = max(game.bag)
    kinds = game.chips.kinds
    declared = (
        Plane("chips", (FACES, n, h, w), 1, "1 where the chip on top of a square shows face f+1 and is seat k's"),
        Plane("covered", (h, w), chips, "how many chips lie under the top chip of a square"),
        Plane("start", (n, h, w), 1, "seat k's start square"),
        Plane("room", (h, w), 1, "1 on a room's squares (0 on the path)"),
        Plane("middle", (h, w), 1, "1 on the squares of the middle room, which breaks ties"),
        Plane(
            "bag",
            (n, len(kinds)),
            most_of_a_kind,
            f"chips of each kind ({', '.join(kinds)}) in seat k's bag; for another seat, in bag and hand together",
        ),
        Plane("hand", (len(kinds),), game.hand_size, "the chips of each kind in the observing player's hand"),
        Plane("held", (n,), game.hand_size, "how many chips seat k holds in hand"),
        Plane("started", (n,), 1, "seat k has placed its start chip"),
        Plane("option used", (n,), 1, "seat k has used the start-square option"),
        Plane("excluded", (n,), 1, "seat k is excluded until the final scoring"),
        Plane("turn", (n,), 1, "1 for the seat whose turn it is (all 0 during setup and once the game is over)"),
        Plane("drawing", (1,), 1, "the player whose turn it is has placed and draws next"),
        Plane("began", (1,), 1, "setup is over"),
    )
    # What the header fixes is drawn once and copied in at every fill.
    fixed = np.zeros((3, h, w), np.float32)
    for square, room in enumerate(board.rooms):
        row, column = divmod(square, w)
        fixed[0, row, column] = room != "."
        fixed[1, row, column] = room == board.middle
    starts = [divmod(square, w) for square in game.start_squares]
    where = [divmod(square, w) for square in range(len(board.rooms))]
    seats = {p: seat_order(game.players, p) for p in game.players}
    kind_index = game.chips.index

    def fill(view: Any, viewer: str, out: Any) -> None:
        order = seats[viewer]
        top = out["chips"]
        covered = out["covered"]
        for square, stack in enumerate(view.stacks):
            if stack:
                owner, face = stack[-1]
                row, column = where[square]
                top[face - 1, order[owner], row, column] = 1
                if len(stack) > 1:
                    covered[row, column] = len(stack) - 1
        for seat, (row, column) in enumerate(starts):
            out["start"][order[seat], row, column] = 1
        out["room"][...] = fixed[0]
        out["middle"][...] = fixed[1]
        bag, held = out["bag"], out["held"]
        for seat in range(n):
            k = order[seat]
            bag[k] = view.bags[seat]
            hand = view.hands[seat]
            held[k] = (hand is not None) + (len(view.held[seat]) if view.held else 0)
        me = game.seats[viewer]
        mine = view.hands[me]
        if mine is not None and not isinstance(mine, Hidden):
            for kind in (mine, *(view.held[me] if view.held else ())):
                out["hand"][kind_index[kind]] += 1
        for name, flags in (("started", view.started), ("option used", view.option_used), ("excluded", view.excluded)):
            plane = out[name]
            for seat, flag in enumerate(flags):
                plane[order[seat]] = flag
        if view.turn is not None:
            out["turn"][order[view.turn]] = 1
        out["drawing"][0] = view.drawing
        out["began"][0] = view.began

    # Every Glüx decision, a variant's too, is one word (``numbering.py``).
    return Planes(declared, fill, one_word=True)
