"""The ground floor: what every wing uses and that knows no game, no log and
no rule.

The root exception and its family (:mod:`.errors`), how a message names a
thing (:mod:`.naming`: where a plugin's code is, a word's article, a value
by its kind), bounded caches with why each size (:mod:`.caches`), the
bounds on what one game may hold (:mod:`.limits`), progress on long work
(:mod:`.progress`), names imported on first use (:mod:`.lazy`) and the
module paths from before the wings (:mod:`.moved`).

May import: nothing of tabletop.
"""
