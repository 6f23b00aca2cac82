"""Rules and playable engines, one package per game."""

__version__ = "0.1.0"
