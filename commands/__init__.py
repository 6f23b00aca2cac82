"""The command line: every click command of every layer, the shared options, and each
game's group; above engines, solver and puzzles, beside web and wartesaal.
"""
