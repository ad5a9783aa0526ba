"""``python -m tabletop``: the same as the ``tabletop`` command."""

from .cli import main

main(prog_name="tabletop")
