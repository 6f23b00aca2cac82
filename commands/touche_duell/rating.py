"""The Touché duel's rating-panel commands."""

from __future__ import annotations

from fechtbuch.commands.rating import ladder_command, start_command
from fechtbuch.puzzles.touche_duell.rating_panel import SPEC

rating_ladder_command = ladder_command(SPEC)


rating_start_command = start_command(SPEC)
