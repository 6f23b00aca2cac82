"""Proof search: the compiled df-pn and minimax (specialised per game kernel) and the
generic pure-Python prover, verifier and solve layer for any AND/OR problem.

Everything at this level is game-free; what belongs to one game lives in its
subpackage (``solver/battleklinge/``: the compiled solve front end, the independent
minimax verifier, forced hits for the players; ``solver/touche_duell/``: the
duel's tactics and commands).
"""
