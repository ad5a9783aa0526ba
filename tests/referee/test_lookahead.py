"""Several decisions in one mail: each is played for good, in order, up to
the first that fails, and none is tried after one brought a chance outcome or
hidden information out. So no answer can tell the sender what their view did
not show before the mail (the rollback of old read an opponent's hand)."""

from __future__ import annotations

import json
import random

import attrs
import pytest

from tabletop.model.nodes import Decide
from tabletop.play.engine import Match
from tabletop.play.live import decide, selfplay
from tabletop.referee import referee as referee_module
from tabletop.referee.referee import plan

from ..glyph_chess.helpers import position
from .conftest import ANN, BEN, REF, Game, plain_registry_cached


def glyph_game(tmp_path, data) -> Game:
    registry = plain_registry_cached()
    (tmp_path / "position.json").write_text(json.dumps(data))
    secrets = referee_module.init(
        registry,
        tmp_path / "g",
        "glyph-chess",
        [("ann", ANN), ("ben", BEN)],
        options={"position": str(tmp_path / "position.json")},
        referee=REF,
        game_id="g",
    )
    return Game(tmp_path / "g", secrets, registry, None)


def answer_to(game: Game, address: str) -> str:
    import email
    import email.policy

    mails = [p for p in (game.path / "outbox").glob("re-*.eml")]
    texts = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in mails]
    mine = [m for m in texts if address in str(m["To"])]
    assert len(mine) == 1
    return mine[0].get_body(preferencelist=("plain",)).get_content()


def test_skip_foresee_discard_in_one_mail_reads_no_hand(tmp_path):
    """The issue's case: 'skip', 'foresee ... ben', 'discard N N' was answered
    "ben holds 1 N coin(s)" and nothing played."""
    data = position(
        {"ann": {"g3": "S"}},
        dice="F F S S S",
        fates={"ann": {"F": "killed"}},
        hands={"ann": "S S I I E", "ben": "S N U E I"},
    )
    game = glyph_game(tmp_path, data)
    assert game.legal("ann") == ["reroll", "skip"]
    report = game.receive(game.mail("ann", "move: skip", "move: foresee g3 ben / D3", "move: discard N N"))
    assert report.startswith("played 2 decision(s) of ann"), report  # skip (a full hand: no draw), foresee
    text = answer_to(game, ANN)
    assert "line 5 and after: not tried: line 4 brought a chance outcome" in text
    assert "holds" not in text and "coin(s)" not in text
    log = game.log().decode()
    assert '"kind":"reroll"' in log and '"kind":"glimpse"' in log and '"kind":"discard"' not in log


def test_foresee_then_discard_stops_after_the_glimpse(tmp_path):
    data = position({"ann": {"g3": "S"}}, dice="S S S S S", hands={"ann": "S S I I E", "ben": "S N U E I"})
    game = glyph_game(tmp_path, data)
    game.receive(game.mail("ann", "move: foresee g3 ben / D1", "move: discard N N"))
    log = game.log().decode()
    assert '"kind":"glimpse"' in log and '"kind":"discard"' not in log
    assert "line 4 and after: not tried: line 3 brought" in answer_to(game, ANN)
    # Now ann has seen ben's coins: her next mail may be told what they are.
    assert "played 1" in game.receive(game.mail("ann", "move: discard N"))


def test_reroll_then_an_action_does_not_show_the_roll(tmp_path):
    data = position({"ann": {"g3": "E"}}, dice="F F S S S", fates={"ann": {"F": "killed"}})
    game = glyph_game(tmp_path, data)
    game.receive(game.mail("ann", "move: reroll", "move: g3-g4 / D1"))
    log = game.log().decode()
    assert '"kind":"roll"' in log and '"kind":"move"' not in log
    text = answer_to(game, ANN)
    assert "line 4 and after: not tried: line 3 brought" in text


def test_decisions_the_rules_answer_with_nothing_are_all_played(tmp_path):
    # A full hand: 'skip' draws nothing, so the action after it is played too.
    data = position({"ann": {"g3": "E"}}, dice="F F S S S", fates={"ann": {"F": "killed"}}, hands={"ann": "S S I I E"})
    game = glyph_game(tmp_path, data)
    move = next(m for m in _legal_after_skip(game) if m.startswith("g3-"))
    report = game.receive(game.mail("ann", "move: skip", f"move: {move}"))
    assert report.startswith("played 2 decision(s) of ann"), report


def _legal_after_skip(game: Game) -> list[str]:
    from tabletop.play.engine import Replay

    match = Replay(game.registry, game.path / "game.jsonl").run()
    state = match.game.apply(match.state, match.game.parse("skip", "ann", match.state))
    return [match.game.notate(d) for d in match.game.legal(state, "ann")]


# -- the property: twins that differ only where the sender cannot see -----------------
def twin(game, state, sender: str, rng: random.Random):
    """A state the sender's view cannot tell from ``state``: each opponent's
    hidden coins or chip swapped with others from their bag."""
    seat = game.seats[sender]
    hands, bags = list(state.hands), list(state.bags)
    # The hand the sender's seeress is looking at they have seen (the glimpse event).
    seen = getattr(state, "target", None)
    for other in range(len(hands)):
        if other in (seat, seen) or hands[other] is None:
            continue
        if isinstance(hands[other], str):  # Glüx: one chip in hand, the bag's counts
            from tabletop_glux.chips import KINDS

            pool = [k for k, n in zip(KINDS, bags[other]) if n] + [hands[other]]
            new = rng.choice(pool)
            bag = list(bags[other])
            bag[KINDS.index(hands[other])] += 1
            bag[KINDS.index(new)] -= 1
            hands[other], bags[other] = new, tuple(bag)
        else:  # Glyph Chess: counts of each coin type in hand and bag
            total = [h + b for h, b in zip(hands[other], bags[other])]
            pool = [i for i, n in enumerate(total) for _ in range(n)]
            rng.shuffle(pool)
            size = sum(hands[other])
            hand = [0] * len(total)
            for i in pool[:size]:
                hand[i] += 1
            hands[other] = tuple(hand)
            bags[other] = tuple(t - h for t, h in zip(total, hand))
    return attrs.evolve(state, hands=tuple(hands), bags=tuple(bags))


EXTRA = {
    "glyph-chess": ["discard N N", "discard S", "discard", "reroll", "skip", "stay", "escape N", "escape S"],
    "glux": ["1@a1", "6@c3", "2@start"],
}


def clone(match: Match, state=None) -> Match:
    copy = Match(match.registry, match.header)
    copy._state = match.state if state is None else state  # noqa: SLF001 - a copy at this point of the game
    copy.seq, copy.seals, copy.revealed = match.seq, dict(match.seals), match.revealed
    return copy


def mail_for(match: Match, player: str, seed: str, rng: random.Random, game_name: str) -> list[str]:
    """Decisions as a player who guessed ahead would write them: each one legal
    in the game as it really goes on (draws and hidden hands included), now
    and then one from nowhere."""
    ahead = clone(match)
    texts: list[str] = []
    for _ in range(1 + rng.randrange(3)):
        node = ahead.node
        if not isinstance(node, Decide) or player not in node.players or node.sealed:
            break
        legal = list(ahead.game.legal(ahead.state, player))
        if rng.random() < 0.15 or not legal:
            texts.append(rng.choice(EXTRA[game_name]))
            break
        choice = rng.choice(legal)
        texts.append(ahead.game.notate(choice))
        decide(ahead, choice, seed, {})
    return texts


@pytest.mark.parametrize(("game_name", "games", "share"), [("glyph-chess", 3, 0.06), ("glux", 8, 0.3)])
def test_no_answer_depends_on_what_the_sender_cannot_see(game_name, games, share):
    """For many positions and mails: a twin game that differs only in what
    the sender cannot see (opponents' hidden coins or chips, and the seed of
    every draw and roll to come) gets the very same answer."""
    registry = plain_registry_cached()
    rng = random.Random(11)
    bot = registry.bot("random", game_name)
    checked = differing = 0
    for seed in range(games):
        header, _, events = selfplay(registry, game_name, ("ann", "ben", "cat"), [bot] * 3, f"s{seed}")
        seed_text = header.randomness.seed
        match = Match(registry, header)
        for event in events:
            match.apply(event)
            node = match.node
            if not isinstance(node, Decide) or node.sealed or rng.random() > share:
                continue
            sender = node.players[0]
            texts = mail_for(match, sender, seed_text, rng, game_name)
            if len(texts) < 2:
                texts.append(rng.choice(EXTRA[game_name]))
            moves = [(i + 3, t) for i, t in enumerate(texts)]
            other = clone(match, twin(match.game, match.state, sender, rng))
            assert match.game.view(other.state, sender) == match.game.view(match.state, sender)
            got = plan(clone(match), sender, moves, {}, seed_text)
            # The seed is as hidden as the hands: the twin's draws and rolls differ too.
            got_twin = plan(other, sender, moves, {}, seed_text + "-twin")
            assert got[2] == got_twin[2], (texts, got[2], got_twin[2])
            assert got[1] == got_twin[1]
            differing += other.state != match.state
            checked += 1
    print(f"{game_name}: {checked} mails checked against a twin, {differing} twins differing")
    assert checked > 60 and differing > 30, (checked, differing)
