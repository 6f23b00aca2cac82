"""The view of `fechtbuch serve` in the system Chromium (Playwright): the drawings
follow the system's dark colour scheme, the page has its own favicon, and the
fencing hall's sound and the five pieces of music start and stop as the player picks
them (made in the page with the Web Audio API).

Without Chromium these tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import urllib.request
from contextlib import contextmanager

import pytest
from support.webserver import chromium, running_server


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("web") / "web.sqlite3") as (url, store):
        yield url, store


@contextmanager
def page_in(url: str, scheme: str = "light", args: tuple[str, ...] = ()):
    """The page at ``url`` with its menu built, in a browser whose system colour scheme
    is ``scheme``; a script error on the page fails the test."""
    with chromium(*args) as browser:
        context = browser.new_context(color_scheme=scheme, viewport={"width": 900, "height": 1100})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(url)
        page.wait_for_selector("#games .game-card button")
        yield page
        assert errors == []
        context.close()


# the lightness (0 black .. 1 white) of what is seen behind an element: its own
# background colour, or the colours of its background image (a gradient), or else
# the nearest ancestor's
SHADE = """el => {
  const lightness = (text) => {
    const [r, g, b] = text.match(/[\\d.]+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  };
  for (let node = el; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    const colours = style.backgroundImage.match(/rgba?\\([^)]*\\)/g);
    if (colours) return colours.map(lightness).reduce((a, b) => a + b) / colours.length;
    const colour = style.backgroundColor;
    const alpha = colour.startsWith("rgba") ? Number(colour.match(/[\\d.]+/g)[3]) : 1;
    if (alpha > 0.5) return lightness(colour);
  }
  return 1;
}"""


def shades(page, selectors: list[str]) -> dict[str, float]:
    out = {}
    for selector in selectors:
        page.wait_for_selector(selector)
        # found and measured in one step: the board may be drawn anew in between
        out[selector] = page.evaluate(f"sel => ({SHADE})(document.querySelector(sel))", selector)
    return out


def start(page, game: str, mode: str = "computer") -> None:
    page.click(f"#start-{game}-{mode}")
    page.wait_for_function(f"App.msg && App.msg.type === 'table' && App.msg.game === '{game}'")


DRAWINGS = {
    "touche-duell": [
        ".td-piste",
        ".td-piste .td-sq",
        ".td-hand .td-own",
        ".td-backs .td-card",
        ".td-pile .td-card",
    ],
    "touche-pyramiden": [".tp-board", ".tp-cell", ".tp-hand .tp-card"],
    "battleklinge": [".bk-board .bk-sq:not(.bk-last)", ".bk-hand .bk-card"],
}


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_every_drawing_follows_the_systems_colour_scheme(served, scheme):
    url, _ = served
    with page_in(url, scheme) as page:
        assert page.is_checked("#dark") is (scheme == "dark")
        for game, selectors in DRAWINGS.items():
            page.click("#menu-button")
            start(page, game)
            seen = shades(page, ["body", "#music", *selectors])
            if scheme == "dark":
                assert all(shade < 0.4 for shade in seen.values()), (game, seen)
            else:
                assert seen["body"] > 0.8, seen  # the light page stays light
        # the box turned by hand wins over the system and is remembered
        page.click("#dark")
        page.reload()
        page.wait_for_selector("#games .game-card button")
        assert page.is_checked("#dark") is (scheme != "dark")
        assert page.evaluate("document.body.dataset.theme") == (
            "light" if scheme == "dark" else "dark"
        )


def test_the_favicon_is_linked_and_served(served):
    url, _ = served
    with page_in(url) as page:
        href = page.eval_on_selector("link[rel=icon]", "el => el.href")
        assert href == url + "static/favicon.svg"
        # the Wartesaal's page links the same icon
        with urllib.request.urlopen(url + "static/wartesaal.html") as response:
            assert '<link rel="icon" href="/static/favicon.svg"' in response.read().decode()
        with urllib.request.urlopen(href) as response:
            assert response.headers["content-type"].startswith("image/svg+xml")
            body = response.read().decode()
    assert body.lstrip().startswith("<svg") and "Fechtbuch" in body
    # the page shows it: the browser draws it as an image of its own size
    with page_in(url) as page:
        page.goto(href)
        size = page.evaluate(
            """async () => { const img = new Image(); img.src = location.href; await img.decode();
            return [img.naturalWidth, img.naturalHeight]; }"""
        )
        assert size[0] > 0 and size[1] > 0


PIECES = ["saltarello", "pavane", "galliarde", "nachtwache", "turnier"]
# the test's Chromium may make sound without a tap first (Playwright's clicks are
# gestures, but a choice of a <select> through it is not)
AUTOPLAY = ("--autoplay-policy=no-user-gesture-required",)


def sound(page) -> dict:
    return page.evaluate("soundState()")


def test_the_hall_and_five_pieces_play_and_stop_and_the_choice_is_remembered(served):
    url, _ = served
    with page_in(url, args=AUTOPLAY) as page:
        assert page.evaluate(
            "[...document.querySelectorAll('#music option')].map(o => o.value)"
        ) == [
            "off",
            *PIECES,
        ]
        labels = page.eval_on_selector_all("#music option", "els => els.map(e => e.textContent)")
        assert labels == [
            "aus",
            "Saltarello",
            "Pavane",
            "Galliarde",
            "Nachtwache",
            "Turnierfanfare",
        ]
        assert page.inner_text("label:has(#hall)").strip() == "Fechtsaal"
        # off until picked: no context at all
        assert sound(page) == {"hall": False, "music": None, "live": 0, "context": None}
        page.check("#hall")
        page.wait_for_function("soundState().context === 'running' && soundState().live > 0")
        assert sound(page)["hall"] is True
        for piece in PIECES:
            page.select_option("#music", piece)
            # the piece's notes are scheduled ahead on the running context
            page.wait_for_function(
                "name => soundState().music === name && soundState().live > 1", arg=piece
            )
        page.select_option("#music", "off")
        assert sound(page)["music"] is None and sound(page)["hall"] is True
        page.select_option("#music", "pavane")
        page.uncheck("#hall")
        state = sound(page)
        assert state["hall"] is False and state["music"] == "pavane"
        # the page is opened again: the choice is remembered, and "aus" stops everything
        page.reload()
        page.wait_for_selector("#games .game-card button")
        assert page.input_value("#music") == "pavane" and not page.is_checked("#hall")
        page.wait_for_function("soundState().music === 'pavane' && soundState().live > 0")
        page.select_option("#music", "off")
        state = sound(page)
        assert state == {"hall": False, "music": None, "live": 0, "context": state["context"]}
        page.wait_for_function("soundState().context === 'suspended'")
        # the English page names them from its catalogue
        page.select_option("#lang", "en")
        page.wait_for_function("I18n.lang === 'en'")
        labels = page.eval_on_selector_all("#music option", "els => els.map(e => e.textContent)")
        assert labels == [
            "off",
            "Saltarello",
            "Pavane",
            "Galliard",
            "Night watch",
            "Tournament fanfare",
        ]
