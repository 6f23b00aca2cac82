"""Battleklinge's part of the puzzle pipeline: motif tags, the difficulty rating,
the candidate sources of mining, and the daily duel's derivation.

The game-independent pipeline (packs, selection, the mining loop, the viewer) is
in ``fechtbuch.puzzles``; what only makes sense for Battleklinge lives here.
"""
