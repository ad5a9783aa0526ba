"""What is installed: games, variants and bots, and the codec for their events.

A :class:`Registry` is built once all plugins are registered; it owns the one
cattrs converter of the process and makes the :class:`~tabletop.model.game.Game`
instance for a header, with that game's own rule manager.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from typing import Any

import attrs
import pluggy

from ..base.caches import FORGET_OLDEST, KEEP_FIRST, Bound
from ..base.errors import LogFormatError, PluginError, UsageError, describe, quote
from ..base.naming import code_of
from ..log import jsonline
from ..log.header import Header
from ..model import payloads
from ..model.events import CORE_EVENTS, Event
from ..model.game import Game
from . import registering
from . import rules as rulebook
from .extensions import Bot, Renderer, Variant
from .rules import Parameter, Rules, rulehook, rulespec

__all__ = ["Codec", "Registry", "rulehook", "rulespec"]


class Registry:
    """Every installed game, variant and bot, by name."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm
        #: Where each name came from (the hook that registered it), for a clash.
        self._sources: dict[tuple[str, Any], Any] = {}
        self.games: dict[str, type[Game]] = {}
        for cls, source in registering.offered(pm, "register_games", "game classes", registering.game):
            self._add(self.games, cls.name, cls, f"a game named '{cls.name}'", source)
        self.variants: dict[str, Variant] = {}
        for variant, source in registering.offered(
            pm, "register_variants", "tabletop.Variant objects", registering.variant
        ):
            self._add(self.variants, variant.name, variant, f"a variant named '{variant.name}'", source)
        self.renderers: dict[tuple[str, str], Renderer] = {}
        for renderer, source in registering.offered(
            pm, "register_renderers", "tabletop.Renderer objects", registering.renderer
        ):
            key = (renderer.game, renderer.format)
            self._add(
                self.renderers, key, renderer, f"{registering.article(renderer.format)} renderer for {key[0]}", source
            )
        # A variant's rules are checked now, when its plugin loads, rather than
        # when a game first enables it: an authoring error is found by any command.
        self.parameters: dict[str, tuple[Parameter, ...]] = {}
        for variant in self.variants.values():
            cls = self.games.get(variant.game)
            if cls is not None:
                rulebook.check_rules(variant.name, cls.name, variant.rules, cls.rule_specs)
            self.parameters[variant.name] = rulebook.parameters(variant.rules, variant.name)
        self.codec = Codec(self.games.values(), self.variants.values())
        #: Games made, by header less its seed (see :meth:`game`).
        self._games: dict[tuple[Any, ...], Game] = {}

    @functools.cached_property
    def bots(self) -> dict[str, list[Bot]]:
        """Every bot, by name (several games may each have one of a name).
        Gathered when first asked for: a command that plays no bot does not
        import the bots (a search bot's module, say)."""
        found: dict[str, list[Bot]] = {}
        for bot, source in registering.offered(self.pm, "register_bots", "tabletop.Bot objects", registering.bot):
            mine = found.setdefault(bot.name, [])
            for other in mine:
                # Two bots of one name for one game: which one a command plays would depend on the load order.
                if None in (other.game, bot.game) or other.game == bot.game:
                    games = "every game" if None in (other.game, bot.game) else bot.game
                    self._clash(f"a bot named '{bot.name}' for {games}", ("bot", bot.name, other.game), source)
            self._sources.setdefault(("bot", bot.name, bot.game), source)
            mine.append(bot)
        return found

    def _add(self, table: dict[Any, Any], key: Any, thing: Any, what: str, source: Any) -> None:
        if key in table and table[key] is not thing:
            self._clash(what, (what, key), source)
        table[key] = thing
        self._sources.setdefault((what, key), source)

    def _clash(self, what: str, key: tuple[str, Any], source: Any) -> None:
        # Named where the first of the two was found: a plugin file given by
        # path is asked before the installed plugins.
        first = self._sources.get(key)
        raise PluginError(f"two plugins register {what} (the other at {code_of(source)})", where=code_of(first))

    # -- look-ups, each with one clear error -----------------------------
    def game_class(self, name: str) -> type[Game]:
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none installed"
            raise UsageError(f"unknown game '{name}' (games: {known})") from None

    def variant(self, name: str, game: str) -> Variant:
        variant = self.variants.get(name)
        if variant is None:
            known = ", ".join(sorted(v.name for v in self.variants.values() if v.game == game)) or "none"
            raise UsageError(
                f"unknown variant '{name}' (variants of {game}: {known}; "
                "a house rule file is loaded with --plugins FILE or TABLETOP_PLUGINS)"
            )
        if variant.game != game:
            raise UsageError(f"variant '{name}' is for {variant.game}, not {game}")
        return variant

    def bot(self, name: str, game: str) -> Bot:
        for bot in self.bots.get(name, ()):
            if bot.game in (None, game):
                return bot
        known = ", ".join(sorted(n for n, bots in self.bots.items() if any(b.game in (None, game) for b in bots)))
        raise UsageError(f"unknown bot '{name}' for {game} (bots: {known})")

    def renderer(self, game: str, format: str) -> Renderer:
        try:
            return self.renderers[(game, format)]
        except KeyError:
            known = ", ".join(sorted(f for g, f in self.renderers if g == game)) or "none"
            raise UsageError(f"no {format} picture for {game} (formats: text, {known})") from None

    def variants_of(self, game: str) -> list[Variant]:
        return sorted((v for v in self.variants.values() if v.game == game), key=lambda v: v.name)

    def foreign_events(self, header: Header) -> dict[type[Event], str]:
        """Event classes of the game's variants that ``header`` does not enable,
        with the variant each belongs to: such an event is illegal in that log."""
        return self._foreign(header.game, header.variants)

    @functools.lru_cache(maxsize=64)
    def _foreign(self, game: str, variants: tuple[str, ...]) -> dict[type[Event], str]:
        enabled = {rulebook.split_entry(entry)[0] for entry in variants}
        return {
            cls: variant.name
            for variant in self.variants.values()
            if variant.game == game and variant.name not in enabled
            for cls in variant.events
        }

    def variant_entry(self, entry: str, game: str) -> str:
        """A variant as a header names it (``NAME`` or ``NAME:key=value,...``),
        checked, in its canonical form: the parameters given, in declared order."""
        name, raw = rulebook.split_entry(entry)
        variant = self.variant(name, game)
        declared = self.parameters[variant.name]
        values = rulebook.read_values(name, declared, raw)
        return rulebook.entry(name, values, declared)

    # -- making games ------------------------------------------------------
    def game(self, header: Header) -> Game:
        """The game a header describes, with its variants' rules in force.

        A game is its rules, fixed by the header (never by a match's
        events): the game made for a header serves every match of the same
        game, players, variants and options, so that reading many short logs
        does not make the game, its tables and its rules again for each."""
        try:
            # With each value's type: JSON's 1, 1.0 and true are equal in Python.
            options = frozenset((name, type(value), value) for name, value in header.options.items())
            key = (header.game, header.players, header.variants, options)
            made = self._games.get(key)
        except TypeError:  # an option's value that is not hashable: made afresh
            return self._make_game(header)
        if made is None:
            made = self._make_game(header)
            MADE_GAMES.keep(self._games, key, made)
        return made

    def _make_game(self, header: Header) -> Game:
        cls = self.game_class(header.game)
        if not cls.min_players <= len(header.players) <= cls.max_players:
            raise UsageError(
                f"{cls.name} is for {cls.min_players} to {cls.max_players} players, not {len(header.players)}"
            )
        options = cls.check_options(header.options, header.players)
        relay = self._rules(cls.name, header.variants)
        made = cls(header.players, options, relay)
        if made.turn is None:
            # A game answers the engine with a turn (made in __init__) or with methods of its own.
            missing = [name for name in TURN_METHODS if getattr(cls, name) is getattr(Game, name)]
            if missing:
                raise PluginError(
                    f"game '{cls.name}' has no turn (tabletop.Turn, made in __init__) and no "
                    f"{', '.join(f'{name}()' for name in missing)} of its own",
                    where=code_of(cls),
                )
        return made

    @functools.lru_cache(maxsize=64)
    def _rules(self, game: str, variants: tuple[str, ...]) -> Rules:
        """The rule hooks of ``game`` with ``variants`` enabled, found by a
        manager of their own (so a variant never changes another game) and
        resolved once into plain functions."""
        cls = self.games[game]
        pm = pluggy.PluginManager("tabletop.rules")
        official = cls.official_rules
        officials = official if isinstance(official, (tuple, list)) else () if official is None else (official,)
        names = []
        try:
            if cls.rule_specs is not None:
                pm.add_hookspecs(cls.rule_specs)
            for i, rules in enumerate(officials):
                names.append(f"official-{i}")
                pm.register(rules, name=names[-1])
                pm.check_pending()
        except (ValueError, pluggy.PluginValidationError) as exc:
            problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise PluginError(
                f"game '{game}': its rule_specs and official_rules do not go together: {problem}",
                where=code_of(cls),
            ) from None
        if cls.rule_specs is not None:
            rulebook.check_official(game, pm.hook, names, officials)
        seen = set()
        for entry in variants:
            name, raw = rulebook.split_entry(entry)
            if name in seen:
                raise UsageError(f"the variant '{name}' is enabled twice")
            seen.add(name)
            variant = self.variant(name, game)
            rules = variant.rules
            if isinstance(rules, type):
                declared = self.parameters[name]
                try:
                    rules = rules(**rulebook.read_values(name, declared, raw))
                except UsageError as exc:  # a parameter's validator refused its value (tabletop.model.options.between)
                    raise UsageError(
                        exc.message if exc.message.startswith("variant") else f"variant '{name}': {exc.message}"
                    ) from None
            elif raw:
                raise UsageError(f"variant '{name}' takes no parameters")
            try:
                pm.register(rules, name=name)
                pm.check_pending()
            except pluggy.PluginValidationError as exc:
                raise PluginError(f"variant '{name}': {exc}") from None
        return rulebook.resolve(pm.hook, names)


#: What the engine asks a game that has no turn (:class:`tabletop.Turn`) to answer itself.
TURN_METHODS = ("next", "check", "apply", "legal")


def _strict(kind: type) -> Any:
    def structure(value: Any, _: Any) -> Any:
        # bool is an int in Python; a log that says true where 1 is meant is wrong.
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
        return value

    return structure


def _strict_tuple(kind: type) -> Any:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not list or any(type(item) is not kind for item in value):
            raise TypeError(f"expected a list of {kind.__name__}")
        return tuple(value)

    return structure


def make_converter() -> Any:
    """The project's converter (a ``cattrs.Converter``): strict about types and extra keys."""
    import cattrs

    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for kind in (int, str, bool):
        converter.register_structure_hook(kind, _strict(kind))
        # Lists of plain values are common in events; checked in one go.
        converter.register_structure_hook_func(lambda t, k=kind: t == tuple[k, ...], _strict_tuple(kind))
    return converter


#: How many games (one per header, less its seed) a registry keeps made: a
#: folder of logs holds a few kinds of header (its seatings and variants,
#: those of a tournament's rounds), and a game made costs its tables.
GAMES_KEPT = 16
#: The headers read last are the likeliest to come back: the oldest goes.
MADE_GAMES = Bound(GAMES_KEPT, FORGET_OLDEST)

#: The distinct event lines (less their numbers) a codec remembers, for each
#: game: a game's commonest lines (its draws and rolls) come in its first
#: logs, and 8,192 lines of a hundred bytes or so, with their events, are a
#: few megabytes.
KNOWN_LINES = Bound(8_192, KEEP_FIRST)
#: The event numbers a codec remembers by their text: the first few
#: thousand, the length of most games.
KNOWN_NUMBERS = Bound(4_096, KEEP_FIRST)


class Codec:
    """Reads and writes event lines for every installed game."""

    def __init__(self, games: Iterable[type[Game]], variants: Iterable[Variant] = ()) -> None:
        self._converter: Any = None
        self._readers: dict[type[Event], payloads.Reader | None] = {}
        self._writers: dict[type[Event], payloads.Writer | None] = {}
        self.kinds: dict[str, dict[str, type[Event]]] = {}
        core = {cls.kind: cls for cls in CORE_EVENTS}
        for game in games:
            table = dict(core)
            for cls in game.events:
                if cls.kind in table:
                    raise PluginError(f"game {game.name}: event kind '{cls.kind}' is defined twice")
                table[cls.kind] = cls
            self.kinds[game.name] = table
        # A variant's own kinds of event are read in every log of its game; the
        # game's rules refuse them where the variant is not enabled.
        for variant in variants:
            table = self.kinds.get(variant.game)
            for cls in variant.events:
                if table is None:
                    break
                if table.get(cls.kind, cls) is not cls:
                    raise PluginError(f"variant {variant.name}: event kind '{cls.kind}' is defined twice")
                table[cls.kind] = cls
        self._has_player: dict[type[Event], bool] = {}
        #: Events already read, by game and by the rest of their line after the number.
        self._known: dict[str, dict[bytes, Event]] = {}
        #: Event numbers already read, by the text before the line's first comma (``_number``).
        self._numbers: dict[bytes, int] = {}

    @property
    def converter(self) -> Any:
        """The cattrs converter, made when first needed: most lines are read
        and written by functions made per event class (:mod:`tabletop.model.payloads`)."""
        if self._converter is None:
            self._converter = make_converter()
        return self._converter

    def _structure(self, payload: dict, cls: type[Event]) -> Event | None:
        """The event, or None when the payload is not exactly right (the
        converter then says why)."""
        try:
            read = self._readers[cls]
        except KeyError:
            read = self._readers[cls] = payloads.compile_reader(cls)
        if read is not None:
            return read(payload)
        import cattrs

        try:
            return self.converter.structure(payload, cls)
        except cattrs.BaseValidationError:
            return None

    def unstructure(self, event: Event) -> dict[str, Any]:
        """An event's fields as a payload (its player included)."""
        cls = type(event)
        try:
            write = self._writers[cls]
        except KeyError:
            write = self._writers[cls] = payloads.compile_writer(cls)
        return write(event) if write is not None else self.converter.unstructure(event)

    def has_player(self, cls: type[Event]) -> bool:
        known = self._has_player.get(cls)
        if known is None:
            known = self._has_player[cls] = "player" in attrs.fields_dict(cls)
        return known

    def encode(self, seq: int, event: Event) -> str:
        payload = self.unstructure(event)
        line: dict[str, Any] = {"seq": seq, "kind": event.kind}
        if "player" in payload:
            line["player"] = payload.pop("player")
        line["payload"] = payload
        return json.dumps(line, ensure_ascii=False, separators=(",", ":"))

    def log(self, header: Header, events: Iterable[Event]) -> list[str]:
        """A whole log's lines: the header, then ``events`` numbered from 1."""
        return [header.line()] + [self.encode(seq, event) for seq, event in enumerate(events, start=1)]

    def decode(self, game: str, data: Any) -> tuple[int, Event]:
        """An event from a parsed JSON line; errors name the field at fault."""
        # The common case, a well-formed line, takes as few steps as possible:
        # replay speed is this function's speed. Anything odd goes the long way,
        # which finds the words for what is wrong.
        if type(data) is dict and type(data.get("seq")) is int and type(data.get("kind")) is str:
            cls = self.kinds[game].get(data["kind"])
            payload = data.get("payload")
            # A 'player' inside the payload is refused the long way (it would
            # otherwise be taken for, or overwrite, the event's player).
            if cls is not None and type(payload) is dict and "player" not in payload:
                size = len(data)
                if size == 4 and "player" in data and self.has_player(cls):
                    payload = {**payload, "player": data["player"]}
                elif size != 3:
                    return self._decode(game, data)
                event = self._structure(payload, cls)
                if event is not None:
                    return data["seq"], event
        return self._decode(game, data)

    def _decode(self, game: str, data: Any) -> tuple[int, Event]:
        if not isinstance(data, dict):
            raise LogFormatError("an event must be a JSON object")
        seq = data.get("seq")
        if type(seq) is not int:
            raise LogFormatError("event has no integer 'seq'")
        kind = data.get("kind")
        if not isinstance(kind, str):
            if "kind" in data:
                raise LogFormatError(f"event {seq}: 'kind' must be a string, not {describe(kind)}")
            raise LogFormatError(f"event {seq} has no 'kind'")
        cls = self.kinds[game].get(kind)
        if cls is None:
            raise LogFormatError(f"event {seq}: unknown event kind {quote(kind)} for {game}")
        extra = set(data) - {"seq", "kind", "player", "payload"}
        if extra:
            raise LogFormatError(f"event {seq} ({kind}): unknown field '{sorted(extra)[0]}'")
        payload = data.get("payload", {})
        if not isinstance(payload, dict):
            raise LogFormatError(f"event {seq} ({kind}): 'payload' must be an object")
        if "player" in payload:
            raise LogFormatError(f"event {seq} ({kind}): 'player' belongs beside 'payload', not inside it")
        if "player" in data:
            if not self.has_player(cls):
                raise LogFormatError(f"event {seq} ({kind}): this kind of event has no player")
            payload = {**payload, "player": data["player"]}
        import cattrs

        try:
            return seq, self.converter.structure(payload, cls)
        except cattrs.BaseValidationError as exc:
            problem = "; ".join(cattrs.transform_error(exc, path="payload"))
            problem = problem.replace("payload.player", "player")
            raise LogFormatError(f"event {seq} ({kind}): {problem}") from None

    def decode_line(self, game: str, line: bytes | str) -> tuple[int, Event]:
        # Many lines differ from an earlier one only in their number (the same
        # draw, the same roll): events are immutable, so the event read from
        # the rest of such a line is kept and shared. Only lines as tabletop
        # writes them ({"seq":N,...} with N plain digits) take this path.
        if type(line) is bytes:
            head, comma, rest = line.partition(b",")
            seq = self._number(head) if comma else None
            if seq is not None:
                known = self._known.setdefault(game, {})
                event = known.get(rest)
                if event is None:
                    seq, event = self._decode_json(game, line)
                    KNOWN_LINES.keep(known, rest, event)
                return seq, event
        return self._decode_json(game, line)

    def decode_lines(self, game: str, lines: Iterable[bytes], into: list[tuple[int, Event]]) -> None:
        """:meth:`decode_line` of each line, appended to ``into`` (a replay
        reads a block of lines at a time). On an error, ``into`` holds the
        events of the lines before the one at fault."""
        seen, number = self._known.setdefault(game, {}).get, self._numbers.get
        add, one = into.append, self.decode_line
        for line in lines:
            # The common line, seen before but for its number, in two look-ups.
            head, _, rest = line.partition(b",")
            event = seen(rest)
            if event is not None:
                seq = number(head)
                if seq is not None:
                    add((seq, event))
                    continue
            add(one(game, line))

    def _number(self, head: bytes) -> int | None:
        """The number of a line whose text before its first comma is ``head``,
        when that is ``{"seq":N`` with N written as tabletop writes it (plain
        digits, no leading zero, at most 18: always within 64 bits); else
        None. Remembered for the next line with that number."""
        seq = self._numbers.get(head)
        if seq is not None:
            return seq
        digits = head[7:]
        if (
            head[:7] != b'{"seq":'
            or not 0 < len(digits) <= 18
            or not digits.isdigit()
            or (len(digits) > 1 and digits[0] == 48)  # 48: b"0"
        ):
            return None
        return KNOWN_NUMBERS.keep(self._numbers, head, int(digits))

    def _decode_json(self, game: str, line: bytes | str) -> tuple[int, Event]:
        return self.decode(game, jsonline.loads(line))
