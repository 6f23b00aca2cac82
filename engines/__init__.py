"""Rules and playable engines, one package per game."""
