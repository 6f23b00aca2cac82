"""The pyramid game's part of the puzzle pipeline: "Touché in N" for two players
(solve from the command line, mine exercises as plain data, draw the board as SVG).

Exercises are plain JSON-able dicts (``mining.MinedPuzzle.to_json``); wiring them into
the shared pack format is done where the pack format lives.
"""
