"""Playing Battleklinge in a terminal: ``fechtbuch play`` and its pieces."""
