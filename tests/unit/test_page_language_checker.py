"""The language test's checker (tests/support/page_language.py) on a page of its own:
it must fail on a word of the other language, a slug shown raw and a key shown in
place of its text, and pass on catalogue texts, notation and numbers."""

from __future__ import annotations

from support.page_language import Catalogue, foreign_words, leaks

GERMAN = Catalogue.of(
    {
        "play.to_act": "{name} ist am Zug.",
        "facts.strength": "Gegner: {strength}",
        "choice.strength.mittel": "Mittel",
        "choice.ruleset.standard-kurz": "Standard, kurz",
        "bk.explain.move": "{who} zieht mit {card} von {from} nach {to}.",
        "bk.cardname.stoss": "Stoß",
        "choice.school.g": "Gold",
    }
)


def test_catalogue_texts_numbers_and_notation_pass():
    assert foreign_words("Gold ist am Zug.", GERMAN) == []
    assert foreign_words("Gegner: Mittel", GERMAN) == []
    assert foreign_words("Gold zieht mit Stoß von a1 nach a2. (stoss:a1a2)", GERMAN) == []
    assert foreign_words("Standard, kurz · 3:2", GERMAN) == []
    assert foreign_words("Stoß (6S:h1)", GERMAN, ["6S:h1"]) == []


def test_a_word_of_the_other_language_fails():
    assert foreign_words("Opponent: Mittel", GERMAN) == ["Opponent"]
    assert foreign_words("Gold moves with Stoß", GERMAN) == ["moves", "with"]


def test_a_slug_or_a_key_shown_raw_fails():
    assert foreign_words("Gegner: standard-kurz", GERMAN) == ["standard-kurz"]
    assert foreign_words("bk.explain.move", GERMAN) == ["bk.explain.move"]
    assert foreign_words("td.explain.lunge", GERMAN) == ["td.explain.lunge"]


def test_allowed_strings_stand_only_as_whole_tokens():
    # a typed name is allowed where it stands alone, not inside another word
    assert foreign_words("Kim ist am Zug.", GERMAN, ["Kim"]) == []
    assert foreign_words("Kimberley ist am Zug.", GERMAN, ["Kim"]) == ["Kimberley"]


def test_leaks_name_where_the_text_stands():
    seen = [
        {"text": "Gold ist am Zug.", "where": "p in #status"},
        {"text": "distance 17", "where": "text in #board"},
    ]
    assert leaks(seen, GERMAN) == ["text in #board: 'distance 17' ['distance']"]
