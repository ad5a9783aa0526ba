"""What a spell is: who casts it, what it costs, how it is checked, what it
does, the options it offers, how it is written, and what a bot should know."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from tabletop.base.declared import declare, declared

if TYPE_CHECKING:
    from ..context import Context
    from ..game import GlyphChess

#: ``check(game, state, seat, source, spots, target) -> (problem or None, X)``
Check = Callable[[Any, Any, int, int, Sequence[int], str], tuple[str | None, int]]
#: ``effect(game, work, seat, source, spots, target) -> None``: changes the Work.
Effect = Callable[[Any, Any, int, int, Sequence[int], str], None]
#: ``options(ctx) -> [(spots, target, X), ...]``: ``ctx`` is the listing's
#: :class:`~tabletop_glyph_chess.context.Context`, turned to the caster
#: (``ctx.source``, ``ctx.budget``).
Options = Callable[["Context"], Iterable[tuple[tuple[int, ...], str, int]]]
#: ``most(ctx) -> [(how many options at most, their X), ...]``: a bound on
#: what ``options(ctx)`` gives (see :func:`bounded`).
Most = Callable[["Context"], Iterable[tuple[int, int]]]
#: ``victims(game, state, seat, source, spots, target) -> spots attacked``
Victims = Callable[[Any, Any, int, int, Sequence[int], str], Iterable[int]]


def _no_victims(game, state, seat, source, spots, target) -> Iterable[int]:
    return ()


def listing(options: Callable) -> Options:
    """``options`` as ``options(ctx)``. An options function written the
    older way, ``options(game, state, seat, source, budget)``, is called
    with the context's fields."""
    try:
        params = inspect.signature(options).parameters.values()
    except (TypeError, ValueError):  # a builtin or a callable without a signature
        return options
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < 5:
        return options

    def by_context(ctx, _older=options):
        return _older(ctx.game, ctx.state, ctx.seat, ctx.source, ctx.budget)

    return by_context


def bounded(most: Most) -> Callable[[Options], Options]:
    """Declare of a spell's ``options(ctx)`` a bound on what it gives:
    ``most(ctx)`` (the context turned to the caster, as ``options`` is
    given it) yields ``(count, X)`` pairs, and ``options(ctx)`` gives at
    most ``count`` options with that X, none with an X not named. The
    random bot's draw (:meth:`~tabletop_glyph_chess.actions.Actions.sample`)
    then gives the spell as many slots as the bound allows, each X's ways
    to pay counted, and runs ``options`` only when it draws one of them.

    The declaration holds for the function it decorates alone: a variant's
    own options, or a wrapper around these (even one made with
    ``functools.wraps``), declares nothing, and its options are counted
    exactly in every listing."""

    def declaring(options: Options) -> Options:
        return declare(options, "glyph_most", most)

    return declaring


def most_of(options: Options) -> Most | None:
    """What ``options`` declares with :func:`bounded`, or None."""
    return declared(options, "glyph_most")  # type: ignore[no-any-return]


@attrs.frozen
class Spell:
    """One spell of a piece.

    ``cost`` is a cost kind (see :mod:`~tabletop_glyph_chess.payment`); X is
    what ``check`` and ``options`` give with each target. ``options(ctx)``
    is the one listing of the spell, on every path (see
    :class:`~tabletop_glyph_chess.context.Context`); a spell that moves or
    removes pieces asks ``ctx.may_land``/``ctx.may_pass`` (and its ``check``
    the same hooks), and strikes with :func:`~tabletop_glyph_chess.kills.strike`. ``argument`` is the
    word written after the caster's spot, if any: ``"player"``, ``"piece"``
    (a letter) or ``"direction"``; the spots follow. ``notation`` is an
    example as a player writes it. ``victims`` tells a bot which spots the
    spell attacks (enemy pieces there are taken). A spell with more targets
    than are listed (blaze's long paths) gives ``unlisted(game, state, seat,
    source, limit)``, how many legal casts ``options`` leaves out (counted up
    to ``limit``), and ``sample(game, state, seat, source, rng)``, some of
    their spots for a bot to weigh.
    """

    name: str
    caster: str
    cost: str
    check: Check
    effect: Effect
    options: Options = attrs.field(converter=listing)
    notation: str
    argument: str = ""
    victims: Victims = _no_victims
    unlisted: Callable[..., int] | None = None
    sample: Callable[..., list[tuple[int, ...]]] | None = None


def adjacent_empty(game: GlyphChess, state: Any, source: int, spot: int) -> str | None:
    """Why ``spot`` is not an empty spot next to ``source``, or None."""
    if spot not in game.geo.neighbours[source]:
        return f"{game.geo.names[spot]} is not next to {game.geo.names[source]}"
    if state.board[spot] is not None:
        return f"{game.geo.names[spot]} is not empty"
    return None


def empty_next(game: GlyphChess, state: Any, source: int) -> list[int]:
    """The empty spots next to ``source``."""
    board = state.board
    return [s for s in game.geo.neighbours[source] if board[s] is None]


def pieces_of(state: Any, seat: int, kind: str) -> list[int]:
    """The spots of ``seat``'s pieces of ``kind``."""
    piece = (seat, kind)
    board = state.board
    if piece not in board:
        return []
    return [i for i, p in enumerate(board) if p == piece]
