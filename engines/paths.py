"""Where the shipped data lives (``data/`` at the project root)."""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
