"""The email referee: games played by mail, refereed by tabletop.

A game lives in a directory (:mod:`.gamedir`). Mail comes in as raw
messages (:mod:`.mailin`), is checked and played by the :mod:`.referee`,
and every player is sent their own view (:mod:`.mailout`), through an
outbox that only SMTP acceptance empties (:mod:`.delivery`).

May import: base, log, model, host, sight, play, api, testing, many, review, ai, viewer.
"""
