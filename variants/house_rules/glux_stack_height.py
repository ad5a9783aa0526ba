"""glux-stack-height: stacks may be three chips high (rule 5 changed).

Load it with ``tabletop --plugins variants/house_rules/glux_stack_height.py``;
enable it with ``--variant glux-stack-height`` (three) or
``--variant glux-stack-height:height=4``.
"""

import attrs

from tabletop import Variant, hookimpl, rulehook


@attrs.frozen
class StackHeight:
    height: int = 3

    @rulehook
    def glux_stack_height(self, players):
        # Rule 5 forbids placing onto two chips; here onto `height` chips.
        return self.height


@hookimpl
def register_variants():
    return [Variant("glux-stack-height", "glux", "stacks may be three high (height)", StackHeight)]
