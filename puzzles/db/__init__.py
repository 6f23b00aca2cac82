"""The puzzle database (``fechtbuch db``): verified exercises of every game in one
SQLite file, mined in seeded rounds on the local processes or on a Ray cluster.

:mod:`.schema` (the file, its migrations), :mod:`.store` (rows in and out, ratings
and attempts), :mod:`.mine` (rounds in order, resumable), :mod:`.backends` (where
rounds run), :mod:`.commands` (the command group), :mod:`.bench` (throughput).
"""
