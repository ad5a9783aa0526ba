"""Many games: simulation on a pool or Dask, results, statistics, tuning and
tournaments.

Runs of many games seeded one by one (:mod:`.simulation`, :mod:`.runs`),
results files and folders (:mod:`.results`, :mod:`.parts`, :mod:`.rows`),
totals and statistics with intervals (:mod:`.totals`, :mod:`.stats`,
:mod:`.intervals`), paired comparisons, targets and tuning
(:mod:`.paired`, :mod:`.targets`, :mod:`.tuning`, :mod:`.balance`),
tournaments with ratings (:mod:`.tournament`), plots (:mod:`.plotting`)
and the record of what code made a run (:mod:`.origin`).

May import: base, log, model, host, sight, play, api, testing.
"""
