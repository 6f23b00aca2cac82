"""The page's texts: the generic catalogue and each game's own, merged by the server.

Every catalogue (the generic one and each game's, the toy game's included) has the
same keys in German and English; no key is in two catalogues; every text a game's
board script asks for is in its catalogue or the generic one; the server serves the
merged catalogue at /i18n/<lang>.json and refuses another language.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fechtbuch.engines.plugin import load
from fechtbuch.engines.registry import plugins
from fechtbuch.web.server import Server, create_app
from fechtbuch.web.store import Store
from fechtbuch.web.webgame import LANGUAGES, game_static, game_texts, generic_texts, page_texts
from starlette.testclient import TestClient

TESTS = Path(__file__).parents[1]  # where toygame/ is


@pytest.fixture
def with_toy(monkeypatch):
    """The registry with the toy game (tests/toygame/), whose texts ship in its folder."""
    monkeypatch.setenv("FECHTBUCH_PLUGINS", "toygame.plugin")
    monkeypatch.syspath_prepend(str(TESTS))


def web_plugins():
    return [p for p in plugins() if p.web is not None]


def test_every_catalogue_has_the_same_keys_in_both_languages(with_toy):
    games = web_plugins()
    assert "abzaehlen" in [p.slug for p in games]
    assert set(generic_texts("de")) == set(generic_texts("en"))
    for entry in games:
        german, english = game_texts(entry, "de"), game_texts(entry, "en")
        assert german, entry.slug  # every game of the page words something of its own
        assert sorted(set(german) ^ set(english)) == [], entry.slug
        assert all(isinstance(text, str) and text for text in [*german.values(), *english.values()])


def test_the_merged_catalogue_holds_each_key_once(with_toy):
    for lang in LANGUAGES:
        merged = page_texts(lang, web_plugins())
        parts = [generic_texts(lang), *(game_texts(p, lang) for p in web_plugins())]
        assert len(merged) == sum(len(part) for part in parts)


def test_a_key_in_two_catalogues_is_refused(with_toy):
    toy = next(p for p in web_plugins() if p.slug == "abzaehlen")
    with pytest.raises(ValueError, match="abzaehlen"):
        page_texts("de", [toy, toy])


def test_every_text_a_board_script_asks_for_is_there(with_toy):
    for entry in web_plugins():
        web = load(entry.web)
        script = (game_static(entry) / web.script).read_text(encoding="utf-8")
        # literal keys only (t("key") or t("key", args)); keys built from data are not read
        asked = set(re.findall(r'\bt\("([a-z0-9_.-]+)"\s*[,)]', script))
        assert asked, entry.slug
        for lang in LANGUAGES:
            known = set(generic_texts(lang)) | set(game_texts(entry, lang))
            assert sorted(asked - known) == [], (entry.slug, lang)


def test_the_server_serves_the_merged_catalogue(tmp_path, with_toy):
    server = Server(Store(tmp_path / "web.sqlite3"))
    with TestClient(create_app(server)) as http:
        german = http.get("/i18n/de.json")
        assert german.status_code == 200
        assert german.json() == page_texts("de", web_plugins())
        assert "saal.variant.label.abzaehlen" in german.json()
        refused = http.get("/i18n/fr.json")
        assert refused.status_code == 404 and refused.json()["error"].startswith("lang:")


def test_each_board_brings_its_own_style_sheet(tmp_path, with_toy):
    """A game's board styles come from its web package, named in the catalogue; the
    page's own style sheet holds none of them."""
    server = Server(Store(tmp_path / "web.sqlite3"))
    games = {g["slug"]: g for g in server.catalogue()["games"]}
    assert games["abzaehlen"]["style"] is None
    with TestClient(create_app(server)) as http:
        sheet = http.get(games["battleklinge"]["style"])
        assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/css")
        assert ".bk-board" in sheet.text and ".bk-" not in http.get("/static/app.css").text
        assert http.get("/games/battleklinge/app.css").status_code == 404
