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
    # a one-letter notation passes beside the words, not standing alone
    assert foreign_words("Gold ist am Zug. (p)", GERMAN, ["p"]) == []
    assert foreign_words("p", GERMAN, ["p"]) == ["p"]


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


def test_a_bare_seat_or_school_id_fails():
    # Battleklinge's schools shown as their ids, not as Gold and Blau
    assert foreign_words("g ist am Zug.", GERMAN) == ["g"]
    assert foreign_words("b", GERMAN) == ["b"]
    # a seat's number where a text puts a name, and a seat's key shown raw
    assert foreign_words("0 ist am Zug.", GERMAN) == ["0"]
    assert foreign_words("tp.seat.0", GERMAN) == ["tp.seat.0"]
    # a letter the catalogue writes so is a name; a coordinate label is notation;
    # a number standing alone is a number
    fencers = Catalogue.of({"td.fencer": "Fechter {seat}", "choice.seat.A": "A (links)"})
    assert foreign_words("A", fencers) == [] and foreign_words("a", fencers) == ["a"]
    assert foreign_words("b", GERMAN, coordinate=True) == []
    assert foreign_words("3", GERMAN) == [] and foreign_words("Gold ist am Zug.", GERMAN) == []
