"""The screenshots of docs/web.md: each game of `fechtbuch serve` (Battleklinge, the
Touché duel, the pyramids) played against the computer on the page in the system
Chromium, by clicking its pieces, cards, squares and fields as a person does; its
start, its middle (a card or piece picked, what it reaches lit) and its end screen,
each at desktop size (1280 × 900) and at phone size (390 × 844), in German and in
English.

Run from tests/ (the package installed, Chromium on the PATH)::

    python -m support.screenshots ../docs/img                 # all three games
    python -m support.screenshots ../docs/img touche-duell    # one game

The files are ``play-<game>-<start|middle|end>-<desktop|phone>-<de|en>.png``.  Each
language plays the same games (a server of its own with the same seeds, the person's
moves chosen by fixed rules), so the German and the English pictures show the same
table.  At each moment the page is shot at desktop size and then narrowed to the
phone's size and shot again, both scrolled to the top: what a person sees without
scrolling.  When pngquant is on the PATH it reduces every picture to 256 colours.
For each phone picture the script prints what of the board and the own hand lies
outside the screen and text under 12 px, if any.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from support.phone import PHONE, smallest_text
from support.touche_duel_page import card_index, play_action
from support.webserver import chromium, running_server

DESKTOP = {"width": 1280, "height": 900}
SIZES = (("desktop", DESKTOP), ("phone", PHONE))
LANGUAGES = ("de", "en")
SEEDS = [f"screenshot-{n}" for n in range(20)]
ON_SCREEN = {
    "battleklinge": (".bk-board", ".bk-hand-own"),
    "touche-duell": (".td-piste", ".td-hand"),
    "touche-pyramiden": (".tp-board", ".tp-hand"),
}
"""What of each game must be on a phone's screen: the board and the own hand."""

SETTLED = """() => document.getAnimations().every(
  (a) => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)"""

PERSON_TO_ACT = """n => App.msg && App.msg.moves.length > n &&
  (App.msg.finished || App.msg.people.includes(App.msg.to_act))"""


class Camera:
    """Shoots one page of one language into ``out`` and collects what a phone picture
    shows wrong."""

    def __init__(self, page, out: Path, game: str, lang: str) -> None:
        self.page, self.out, self.game, self.lang = page, out, game, lang
        self.problems: list[str] = []

    def shoot(self, moment: str) -> None:
        for size, viewport in SIZES:
            self.page.set_viewport_size(viewport)
            self.page.evaluate("window.scrollTo(0, 0)")
            self.page.wait_for_function(SETTLED)
            path = self.out / f"play-{self.game}-{moment}-{size}-{self.lang}.png"
            # endless animations (a pulsing ring) stand still at their start
            self.page.screenshot(path=str(path), animations="disabled")
            reduce(path)
            if size == "phone":
                self.check_phone(f"{path.name}")
        self.page.set_viewport_size(DESKTOP)

    def check_phone(self, name: str) -> None:
        for part in ON_SCREEN[self.game]:
            box = self.page.evaluate(
                "s => { const e = document.querySelector(s);"
                " return e && e.getClientRects().length ? e.getBoundingClientRect().toJSON() : null; }",
                part,
            )
            if box and (box["bottom"] > PHONE["height"] or box["right"] > PHONE["width"]):
                self.problems.append(
                    f"{name}: {part} ends at x {box['right']:.0f}, y {box['bottom']:.0f}"
                )
        smallest = smallest_text(self.page)
        if smallest < 12:
            self.problems.append(f"{name}: text of {smallest:.1f} px")


def reduce(path: Path) -> None:
    """The picture in 256 colours when pngquant is there (and it is smaller so)."""
    pngquant = shutil.which("pngquant")
    if pngquant:
        subprocess.run(
            [pngquant, "--force", "--skip-if-larger", "--strip", "--output", str(path), str(path)],
            check=False,
        )


def wait_for_person(page, moves_before: int) -> dict:
    page.wait_for_function(PERSON_TO_ACT, arg=moves_before, timeout=120_000)
    return page.evaluate("App.msg")


def start(page, game: str, **options: str) -> dict:
    for name, value in options.items():
        page.select_option(f"#{game}-{name}", value)
    page.click(f"#start-{game}-computer")
    return wait_for_person(page, -1)


def end_screen(page, camera: Camera, state: dict) -> None:
    if not state["finished"]:
        raise RuntimeError(f"{camera.game}: the game did not end")
    page.wait_for_selector("#end:not([hidden])")
    camera.shoot("end")


# ---- Battleklinge: the person's moves are those of the engine's "mittel" ----------------
def battleklinge(page, camera: Camera) -> None:
    from fechtbuch.engines.battleklinge.players import Player
    from fechtbuch.engines.battleklinge.position import Position

    person = Player("mittel", seed=7)
    state = start(page, "battleklinge", strength="leicht", cards="einsteiger")
    camera.shoot("start")
    middle = False
    for _ in range(300):
        if state["finished"]:
            break
        text = person.choose(Position.from_text(state["view"]["notation"])).move.to_text()
        move = next(m for m in state["legal"] if m["text"] == text)
        if move["from"] is None:
            page.click(".bk-pass")
        else:
            page.click(f".bk-board [data-square={move['from']}]")
            if not middle and len(state["moves"]) >= 6:
                middle = True
                camera.shoot("middle")  # the piece picked, its targets dotted
            page.click(f".bk-board [data-square={move['to']}]")
            if page.is_visible("#card-dialog[open]"):
                page.click(f"#card-dialog-buttons [data-card={move['card']}]")
        state = wait_for_person(page, len(state["moves"]))
    end_screen(page, camera, state)


# ---- the Touché duel and the pyramids: the person's actions are chosen and played as
# their browser tests choose and play them (the duel: attack when it can, the strongest,
# parry, else a move of a fixed random sequence; the pyramids: the engine's "mittel" on
# the seat's own view) -----------------------------------------------------------------
def browser_tests():
    """The folder of the browser tests on the import path (pytest puts it there)."""
    folder = str(Path(__file__).resolve().parents[1] / "browser")
    if folder not in sys.path:
        sys.path.insert(0, folder)


def touche_duell(page, camera: Camera) -> None:
    browser_tests()
    from test_touche_duell_browser import choose

    state = start(page, "touche-duell", strength="leicht", ruleset="standard-kurz")
    camera.shoot("start")
    rng = random.Random(5)
    middle = False
    for _ in range(600):
        while page.is_visible(".td-next"):  # a round's end: on to the next round
            page.click(".td-next")
        if state["finished"]:
            break
        text = choose(state["legal"], rng)
        action = next(a for a in state["legal"] if a["text"] == text)
        if not middle and len(state["moves"]) >= 6 and action["kind"] in ("move", "attack"):
            middle = True
            value = action["value"] if action["kind"] == "attack" else abs(action["step"])
            picked = f".td-hand .td-own[data-index='{card_index(page, value)}']"
            page.click(picked)
            camera.shoot("middle")  # a card picked, the squares it reaches lit
            page.click(picked)  # put back
        play_action(page, state["view"], text)
        state = wait_for_person(page, len(state["moves"]))
    end_screen(page, camera, state)


def touche_pyramiden(page, camera: Camera) -> None:
    browser_tests()
    from test_pyramids_browser import choose, play_by_hand

    state = start(page, "touche-pyramiden", strength="leicht", players="2")
    camera.shoot("start")
    middle = False
    for _ in range(600):
        if page.is_visible("#tp-next"):  # a round's end: on to the next round
            page.click("#tp-next")
            continue
        if state["finished"]:
            break
        action = choose(state)
        if not middle and len(state["moves"]) >= 10 and action["act"] == "place":
            middle = True
            card = f".tp-card[data-card='{action['card']}']"
            page.click(card)
            camera.shoot("middle")  # a card chosen, the fields it may take lit
            page.click(card)  # put back
        play_by_hand(page, action)
        state = wait_for_person(page, len(state["moves"]))
    end_screen(page, camera, state)


GAMES = {
    "battleklinge": battleklinge,
    "touche-duell": touche_duell,
    "touche-pyramiden": touche_pyramiden,
}


def shoot_all(out: Path, games: list[str]) -> list[str]:
    """Every picture of ``games`` into ``out``; what the phone pictures show wrong."""
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as folder, chromium() as browser:
        for lang in LANGUAGES:
            data = Path(folder) / f"{lang}.sqlite3"
            with running_server(data, seeds=iter(SEEDS)) as (url, _):
                for game in games:
                    page = browser.new_page(viewport=DESKTOP, color_scheme="light")
                    errors: list[str] = []
                    page.on("pageerror", lambda err, errors=errors: errors.append(str(err)))
                    page.goto(url)
                    page.wait_for_selector(f"#start-{game}-computer")
                    if page.evaluate("I18n.lang") != lang:  # the menu is built again
                        page.select_option("#lang", lang)
                        page.wait_for_function("l => I18n.lang === l", arg=lang)
                    camera = Camera(page, out, game, lang)
                    GAMES[game](page, camera)
                    problems += camera.problems
                    problems += [f"{game} ({lang}): script error {e}" for e in errors]
                    page.close()
    return problems


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-") or any(g not in GAMES for g in argv[1:]):
        print(f"usage: python -m support.screenshots OUTDIR [{' '.join(GAMES)}]")
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    problems = shoot_all(out, argv[1:] or list(GAMES))
    for problem in problems:
        print(problem)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
