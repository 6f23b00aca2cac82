"""The ``fechtbuch pack`` command group; its commands live next to the code they drive."""

from __future__ import annotations

import click


@click.group()
def pack() -> None:
    """Tools for puzzle packs."""
