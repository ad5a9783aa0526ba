"""The AI adapters: tabletop's games as OpenSpiel games and PettingZoo
environments.

The action space a header fixes (:mod:`.actions`), payoffs
(:mod:`.returns`), and the adapters themselves (:mod:`.openspiel`,
:mod:`.pettingzoo`), which observe through a seat's view and planes.

May import: base, log, model, host, sight, play, api, testing, many, review.
"""
