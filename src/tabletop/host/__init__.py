"""The rules host: plugins found and checked, rule hooks compiled for a header.

Finding plugins (:mod:`.plugins`, :mod:`.installed`) through the core's
hookspecs (:mod:`.hookspecs`); what a plugin registers, checked as it
registers it (:mod:`.registering`); variants, bots and renderers
(:mod:`.extensions`); the games, variants and bots of one run
(:mod:`.registry`); rule hooks in force for a header compiled once into
plain functions (:mod:`.rules`), what a hook may answer (:mod:`.answers`)
and the reference made from the specs' docstrings (:mod:`.hookdocs`).

May import: base, log, model.
"""
