"""The Touché duel's mining policy, frozen on 2026-11-30 (``meister-2026``).

``fechtbuch touche mine`` plays its self-play rounds with this copy, not with the
live players of :mod:`fechtbuch.engines.touche_duell.players`: a mined pack is
re-mined byte for byte from its recorded command, and an improvement of the live
``stark`` once changed which views self-play reached and broke a complete pack.
Do not edit these modules: a change here changes every mined pack
(``tests/unit/test_touche_duell_frozen_policy.py`` pins a digest of self-play rounds).  A
stronger policy for mining is a new frozen package and a new pack.

What the policy's choices depend on besides this copy: the rules
(``rules.py``, ``notation.py``), the public-state definition of a sure win
(``public.py``) and the SHA-256 stream (``engines/seeding.py``); a change there is
a change of the game or of its definitions, and re-mining is then right.
"""
