"""Shipped data of fechtbuch: packs, daily schedules, schemas, perft suites, bench sets.

A package only so that installed copies (wheels, zip imports) can read it through
``importlib.resources``; see :mod:`fechtbuch.engines.paths`.
"""
