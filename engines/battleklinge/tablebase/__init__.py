"""Endgame tablebases of Battleklinge: exact distances for every position of one card set
with both masters and up to K students per side (docs/tablebase.md)."""

from fechtbuch.engines.battleklinge.tablebase.build import BuildReport, SplitReport, build
from fechtbuch.engines.battleklinge.tablebase.probe import (
    Outcome,
    Tablebase,
    TbResult,
    default_root,
    find_tables,
    table_folder,
)

__all__ = [
    "build",
    "BuildReport",
    "SplitReport",
    "Tablebase",
    "TbResult",
    "Outcome",
    "default_root",
    "find_tables",
    "table_folder",
]
