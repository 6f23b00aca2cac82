"""Battleklinge's part of the solver layer: what the generic proof search does not
cover for this game (its compiled solve front end, forced-hit answers for the
players)."""
