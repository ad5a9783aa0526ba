"""Review: studying a game after (or while) it is played.

Studies with notes and variations beside a log (:mod:`.study`, whose parts
are the study file, :mod:`.studyfile`; the records it holds, :mod:`.records`;
their anchors, :mod:`.anchors`; the tree of variations, :mod:`.variations`;
the notes, :mod:`.notes`; and the analysis kept, :mod:`.judgements`), every
decision weighed by a bot (:mod:`.analysis`), transcripts to read and mail
(:mod:`.transcript`), one player's copy of a log that still verifies
(:mod:`.redaction`) and the difference of two games (:mod:`.diffing`).

May import: base, log, model, host, sight, play, api, testing, many.
"""
