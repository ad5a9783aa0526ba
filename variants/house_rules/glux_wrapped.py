"""glux-wrapped-cover and glux-wrapped-rules: house rules that change nothing.

Each wraps official rules with a pass-through (``return (yield)``): the
wrapped rules are then asked instead of read in their table forms, on both
paths. The games are the official ones; ``bench/glux_wrapped.py`` measures
what the asking costs and ``tests/glux/test_fast.py`` that nothing changes.
"""

from tabletop import Variant, hookimpl, rulehook


class WrappedCover:
    @rulehook(wrapper=True)
    def glux_may_cover(self):
        return (yield)


class WrappedCoverByFace:
    """The same pass-through, taking every argument (the face too): rule 4 is
    then asked once for each face, not once per square."""

    @rulehook(wrapper=True)
    def glux_may_cover(self, game, state, seat, square, face, chip):
        return (yield)


class WrappedRules(WrappedCover):
    """Every per-move rule that declares a table form, wrapped."""

    glux_counts_from = glux_may_pass = glux_start_option = WrappedCover.glux_may_cover
    glux_still_placing = glux_draw_after_placing = glux_game_over = WrappedCover.glux_may_cover


@hookimpl
def register_variants():
    return [
        Variant("glux-wrapped-cover", "glux", "rule 4 wrapped, nothing changed", WrappedCover()),
        Variant(
            "glux-wrapped-cover-by-face",
            "glux",
            "rule 4 wrapped, taking the face, nothing changed",
            WrappedCoverByFace(),
        ),
        Variant("glux-wrapped-rules", "glux", "every per-move rule wrapped, nothing changed", WrappedRules()),
    ]
