"""Play: the engine that folds a log, the turn it runs, and bots and search.

The turn's one dispatch (:mod:`.turn`), the fold and self-play's loop
(:mod:`.engine`), live games with chance drawn from the seed and sealed
decisions (:mod:`.live`, :mod:`.chance`, :mod:`.sampling`), a table of
seats (:mod:`.table`), a match's standing as a seat may know it
(:mod:`.standing`), rollouts (:mod:`.rollouts`), tree search
(:mod:`.mcts`), a fold kept beside a long log (:mod:`.snapshot`) and the
core's own bots (:mod:`.builtin`).

May import: base, log, model, host, sight.
"""
