"""``if: THEIRS then: MINE`` lines: the sender's conditional moves, kept
for when the decision before their turn is THEIRS (see
:mod:`..conditionals`). A mail's ``if:`` lines replace those kept before."""

from __future__ import annotations

from .. import conditionals
from . import Mail, PlayerCommand


class Conditional(PlayerCommand):
    name = "if"
    usage = "if: A then: B"
    does = (
        "a conditional move: B at once if the decision before your turn is A\n"
        "(several: if: A then: B if: C then: D); new if: lines replace the old"
    )
    order = 80

    def run(self, ref, mail: Mail) -> str:
        player, letter = mail.player, mail.letter
        match = ref.ledger.replay()
        if match.over:
            return ref.inbox.reply(letter, "the game is over", key=mail.key + "-if", echo=True)
        chains, problems = conditionals.read(match, player, letter.values("if"))
        if problems:
            # Read against the sender's view alone: nothing here depends on what they cannot see.
            body = "None of your if: lines was kept (those kept before stand):\n\n" + "\n".join(
                f"  {p}" for p in problems
            )
            ref.mail_to(player, "Conditional moves not kept", body + "\n", mail.key + "-if", letter)
            return f"{player}'s conditional moves not kept: {problems[0]}"
        conditionals.kept(ref.settings)[player] = chains
        lines = "\n".join(f"  line {c['line']}: {conditionals.shown(c)}" for c in chains)
        body = (
            "Your conditional moves are kept, and shown to nobody. Each is played at once when the\n"
            "decision before your turn is its condition, and discarded when it is another;\n"
            "'clear' withdraws them, and new if: lines replace them.\n\n" + lines + "\n"
        )
        ref.mail_to(player, "Conditional moves kept", body, mail.key + "-if", letter)
        return f"{player} left {len(chains)} conditional move(s)"
