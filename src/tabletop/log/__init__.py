"""The log and its chain: a game as a file of JSON lines, read and written
strictly.

The header (:mod:`.header`), a line read as JSON (:mod:`.jsonline`),
lines read in batches from a file or a folder (:mod:`.logfile`,
:mod:`.folders`), whole-line appends that leave a file as it was when they
fail (:mod:`.appending`, :mod:`.files`), sealed secrets (:mod:`.secretfile`)
and the hash chain that anchors a line (:mod:`.chain`). Nothing here knows
what an event means: that is the model's.

May import: base.
"""
