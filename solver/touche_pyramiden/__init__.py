"""Touché with pyramids' part of the solver layer: what the generic proof search does
not cover for this game (the analysis after a game)."""
