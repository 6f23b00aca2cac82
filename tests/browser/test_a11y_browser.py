"""Accessibility of `fechtbuch serve` and the Wartesaal in the system Chromium
(Playwright): axe-core run inside every page reports no serious or critical
violation; at phone size (390 x 844) every game's board and the own hand are on the
screen without scrolling and no visible text is under 12 px; a Battleklinge game and
a Touché duel round are played to their end with the keyboard alone.

Without Chromium these tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import pytest
from support.axe import assert_accessible
from support.phone import PHONE, assert_on_screen, smallest_text
from support.wartesaal_page import Person, room_server
from support.webserver import chromium, menu_page, running_server
from test_touche_duell_browser import state_of, wait_for_person
from test_wartesaal_browser import as_guest, open_table


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("web") / "web.sqlite3") as (url, store):
        yield url, store


def start(page, game: str, mode: str, **options) -> dict:
    for name, value in options.items():
        page.select_option(f"#{game}-{name}", value)
    page.click(f"#start-{game}-{mode}")
    page.wait_for_function(
        "([game, mode]) => App.msg && App.msg.game === game"
        " && (mode === 'exercise') === (App.msg.type === 'exercise')",
        arg=[game, mode],
    )
    return wait_for_person(page, -1)


def to_menu(page) -> None:
    page.click("#menu-button")
    page.wait_for_selector("#menu:not([hidden])")


# ---- axe-core on every page ------------------------------------------------------------

GAMES = ["battleklinge", "touche-duell", "touche-pyramiden"]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page(served, theme):
    """The menu; each game's table at its start and after the person's first move; each
    game's first exercise; each game's end screen; the Kartenwahl; in German, and the
    menu and one table in English; by daylight and by candlelight."""
    url, _ = served
    with menu_page(url) as page:
        if theme == "dark":
            page.check("#dark")
        assert_accessible(page, "the menu")
        for game in GAMES:
            to_menu(page)
            assert not start(page, game, "computer")["finished"]
            assert_accessible(page, f"{game}: the table")
            page.click("#hint")  # the hint drawn on the board, said in the console
            page.wait_for_function("App.hint !== null")
            page.wait_for_timeout(200)
            assert_accessible(page, f"{game}: a hint")
            page.click("#resign")
            page.wait_for_selector("#end:not([hidden])")
            assert state_of(page)["finished"]
            assert_accessible(page, f"{game}: the end screen")
            to_menu(page)
            start(page, game, "exercise")
            assert_accessible(page, f"{game}: an exercise")
        to_menu(page)
        start(page, "battleklinge", "computer", cards="kartenwahl")
        page.wait_for_selector(".bk-draft")
        assert_accessible(page, "the Kartenwahl")
        to_menu(page)
        page.select_option("#lang", "en")
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert_accessible(page, "the menu in English")
        start(page, "touche-duell", "hotseat")
        assert page.is_visible("#reveal")
        assert_accessible(page, "the duel at one device, hand covered, in English")


def test_axe_finds_nothing_serious_in_the_wartesaal(tmp_path):
    """The Wartesaal's login, its room, and a running table of each game as its
    players see it."""
    with room_server(tmp_path) as (url, _), chromium() as browser:
        login = Person(browser, url)
        assert_accessible(login.page, "the Wartesaal's login")
        login.close()
        for game, variant, count in WARTESAAL_TABLES:
            people = [Person(browser, url) for _ in range(count)]
            try:
                for person in people:
                    as_guest(person)
                assert_accessible(people[0].page, "the Wartesaal's room")
                seats = open_table(people[0], people[1:], game, variant)
                for seat, person in seats.items():
                    assert_accessible(person.page, f"the Wartesaal: {game}, seat {seat}")
                assert [person.errors for person in people] == [[]] * count
            finally:
                for person in people:
                    person.close()


WARTESAAL_TABLES = [
    ("battleklinge", "einsteiger", 2),
    ("touche-duell", "kinder-kurz", 2),
    ("touche-pyramiden", "3", 3),
]


# ---- the phone ---------------------------------------------------------------------------

PARTS = {
    "battleklinge": (".bk-hand-other", ".bk-hand-side", ".bk-board", ".bk-hand-own"),
    "touche-duell": (".td-head", ".td-piste", ".td-middle", ".td-hand"),
    "touche-pyramiden": (".tp-board", ".tp-hand"),
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("mode", ["computer", "exercise"])
@pytest.mark.parametrize("game", GAMES)
def test_phone_board_and_hand_on_the_screen_no_text_under_12px(served, game, mode, lang):
    url, _ = served
    with menu_page(url, viewport=PHONE) as page:
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        start(page, game, mode)
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate("window.scrollY") == 0
        assert_on_screen(page, PARTS[game])
        assert smallest_text(page) >= 12
        if mode == "computer":  # a piece, card or field chosen: the lit board still fits
            page.click(
                {
                    "battleklinge": ".bk-hand-own .bk-card",
                    "touche-duell": ".td-own",
                    "touche-pyramiden": ".tp-hand .tp-card",
                }[game]
            )
            page.evaluate("window.scrollTo(0, 0)")
            assert_on_screen(page, PARTS[game])
            assert smallest_text(page) >= 12
