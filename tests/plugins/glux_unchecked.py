"""glux-unchecked and glux-unchecked-none (for the tests): Glüx's placement
step made again without a check, from its node, events, effect, listing and
question: by keyword (``legal=``, ``asks=``), and positionally with
``check=None``. Either way the step takes a decision exactly when its listing
gives it, on every path (``TurnStep.checking``)."""

from tabletop import TurnStep, Variant, hookimpl, rulehook


class Unchecked:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):
        table = dict((yield))
        step = table["place"]
        table["place"] = TurnStep(
            step.name, step.node, step.accepts, step.apply, step.follows, legal=step.legal, asks=step.asks
        )
        return table


class UncheckedNone:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):
        table = dict((yield))
        step = table["place"]
        table["place"] = TurnStep(
            step.name, step.node, step.accepts, step.apply, step.follows, None, step.legal, step.asks
        )
        return table


@hookimpl
def register_variants():
    return [
        Variant("glux-unchecked", "glux", "the placement step without a check", Unchecked()),
        Variant("glux-unchecked-none", "glux", "the placement step with check=None", UncheckedNone()),
    ]
