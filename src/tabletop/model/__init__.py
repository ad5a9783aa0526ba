"""The model of a game: events, nodes and the state they fold into.

Events and their payloads in a log line (:mod:`.events`, :mod:`.payloads`);
what comes next, a decision, a chance outcome, a forced event or the end
(:mod:`.nodes`); the steps of a turn as data (:mod:`.steps`); the shapes a
house rule's own decision takes (:mod:`.shapes`) and what a variant
remembers (:mod:`.memo`); dice (:mod:`.dice`); a state's mutable twin
(:mod:`.twin`); the :class:`~.game.Game` base class with its defaults for
notation, facets, options and action numbers (:mod:`.game`,
:mod:`.notation`, :mod:`.facets`, :mod:`.options`, :mod:`.numbering`).

May import: base, log.
"""
