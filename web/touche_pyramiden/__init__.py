"""touche_pyramiden's web play: its WebGame and its board script (static/)."""
