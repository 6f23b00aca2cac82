"""touche_duell's web play: its WebGame and its board script (static/)."""
