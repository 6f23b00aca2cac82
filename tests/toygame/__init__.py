"""Abzählen: a toy fourth game, one folder, registered by one line (``plugin.py``)."""
