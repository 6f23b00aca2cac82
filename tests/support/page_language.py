"""Every text a person sees on a page, checked against the catalogue of the page's
language: the language test (tests/browser/test_page_language.py) and its own unit
test (tests/unit/test_page_language_checker.py).

What counts as seen: the page's title, every text node of a rendered element (SVG
``<text>`` included, the options of a rendered ``<select>``, the ``<title>`` of a
rendered SVG element: its tooltip), and the attributes a person or a screen reader
meets (``title``, ``aria-label``, ``placeholder``, ``alt``, ``aria-roledescription``,
``aria-valuetext``, the value of an input button) on rendered elements.

A text passes when every word of it is a word of the active catalogue's values (the
``{placeholders}`` are left out, so whatever fills them must itself be worded from
the catalogue) or a language-free token: a number or anything with a digit in it
(coordinates, notation such as ``6S:h1``), a single letter, and the strings the test
names as language-free (the notation of the moves on the page, names typed by the
test).  A word joined by hyphens (``standard-kurz``) is one word: a slug shown as it
came from the server fails unless the catalogue words it so.  A catalogue key shown
in place of its text (``td.explain.move``) fails as well.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

VISIBLE_TEXTS = r"""
() => {
  const seen = [];
  const rendered = (el) => el && el.checkVisibility
    && el.checkVisibility({visibilityProperty: true, opacityProperty: true});
  const where = (el) => {
    const id = el.closest("[id]");
    return el.tagName.toLowerCase() + (id ? " in #" + id.id : "");
  };
  if (document.title) seen.push({text: document.title, where: "title"});
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.trim();
    const parent = node.parentElement;
    if (!text || !parent || ["SCRIPT", "STYLE", "TEMPLATE"].includes(parent.tagName)) continue;
    let shown;
    if (parent.tagName === "OPTION" || parent.tagName === "OPTGROUP") shown = rendered(parent.closest("select"));
    else if (parent.tagName.toLowerCase() === "title" && parent.namespaceURI.endsWith("svg")) shown = rendered(parent.parentElement);
    else shown = rendered(parent);
    if (shown) seen.push({text, where: where(parent)});
  }
  const attributes = ["title", "aria-label", "placeholder", "alt", "aria-roledescription", "aria-valuetext"];
  for (const el of document.body.querySelectorAll("*")) {
    if (!rendered(el)) continue;
    for (const name of attributes) {
      const value = el.getAttribute(name);
      if (value && value.trim()) seen.push({text: value.trim(), where: where(el) + " @" + name});
    }
    if (el.tagName === "INPUT" && ["button", "submit", "reset"].includes(el.type) && el.value)
      seen.push({text: el.value, where: where(el) + " @value"});
  }
  return seen;
}
"""

WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
TOKEN = re.compile(r"[\w.:+/'’-]+")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
KEY = re.compile(r"^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+$")


@dataclass(frozen=True)
class Catalogue:
    """The words of one language's catalogue (lower case) and its keys."""

    words: frozenset[str]
    keys: frozenset[str]

    @classmethod
    def of(cls, texts: dict[str, str]) -> Catalogue:
        words = set()
        for value in texts.values():
            words.update(w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", value)))
        return cls(frozenset(words), frozenset(texts))


def _without(text: str, allowed: list[str]) -> str:
    """``text`` with every allowed string (standing as a token of its own) blanked."""
    for free in sorted(allowed, key=len, reverse=True):
        if len(free) >= 2:
            text = re.sub(rf"(?<![\w-]){re.escape(free)}(?![\w-])", " ", text)
    return text


def foreign_words(text: str, catalogue: Catalogue, allowed: list[str] = ()) -> list[str]:
    """The words of ``text`` that neither the catalogue nor the allowed strings give."""
    bad = []
    for token in TOKEN.findall(_without(text, list(allowed))):
        token = token.strip(".:'’-")
        if token in catalogue.keys or KEY.match(token) and not any(c.isdigit() for c in token):
            bad.append(token)
            continue
        if any(c.isdigit() for c in token):
            continue
        for word in WORD.findall(token):
            if len(word) > 1 and word.lower() not in catalogue.words:
                bad.append(word)
    return bad


def leaks(seen: list[dict], catalogue: Catalogue, allowed: list[str] = ()) -> list[str]:
    """Each seen text with a word not from the catalogue: "where: text [words]"."""
    found = []
    for item in seen:
        bad = foreign_words(item["text"], catalogue, allowed)
        if bad:
            found.append(f"{item['where']}: {item['text']!r} {bad}")
    return found
