"""What a seat is shown: a player's view and everything drawn from it.

A seat's view, text, facets, pictures and what it is asked (:mod:`.seen`),
the typed view and its features (:mod:`.views`, :mod:`.viewdata`),
observation planes for learning programs (:mod:`.planes`) and pictures
(:mod:`.svg`, :mod:`.pictures`). Everything here is handed a view, never
the state.

May import: base, log, model, host.
"""
