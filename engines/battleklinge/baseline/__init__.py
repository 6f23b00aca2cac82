"""Frozen copy of the engine as of 2026-11-30 (strength ``meister-2026``).

Later changes to the live search, kernel and evaluation are measured against
this copy; do not edit these modules (they are the yardstick).  Only the
imports differ from the originals (search.py, negamax.py, evaluate.py at
commit 00177f9).
"""
