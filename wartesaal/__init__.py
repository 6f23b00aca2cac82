"""The Wartesaal: people play people over the network, for every registered game.

A front end above ``puzzles`` (docs/wartesaal.md): accounts and sessions
(``accounts.py``, ``sessions.py``), the rules of the room (``roomrules.py``), one
game table (``table.py``), what a seat or a spectator may see (``views.py``), the
room that ties challenges, tables and storage together (``room.py``), storage through
SQLAlchemy Core (``store.py``), room events across processes (``events.py``), the
JSON protocol (``protocol.py``) and the Starlette sub-application (``app.py``).
"""
