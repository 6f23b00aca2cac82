"""Every text a person sees on a page, checked against the catalogue of the page's
language: the language test (tests/browser/test_page_language.py and
test_pack_page_language.py) and its own unit test
(tests/unit/test_page_language_checker.py).

What counts as seen: the page's title, every text node of a rendered element (SVG
``<text>`` included, the options of a rendered ``<select>``, the ``<title>`` of a
rendered SVG element: its tooltip), and the attributes a person or a screen reader
meets (``title``, ``aria-label``, ``placeholder``, ``alt``, ``aria-roledescription``,
``aria-valuetext``, the value of an input button) on rendered elements.

A text passes when every word of it is a word of the active catalogue's values (the
``{placeholders}`` are left out, so whatever fills them must itself be worded from
the catalogue) or a language-free token: a number or anything with a digit in it
(coordinates, notation such as ``6S:h1``), a coordinate label of a board (a letter
in an element of class ``coord``), and the strings the test names as language-free
(the notation of the moves on the page, names typed by the test).  A word joined by
hyphens (``standard-kurz``) is one word: a slug shown as it came from the server
fails unless the catalogue words it so.

A seat's or a school's bare id fails as well: a single letter passes only where the
catalogue has it as a word in that very case (the duel's fencers are "A" and "B" in
its catalogue; Battleklinge's schools "g" and "b" are worded "Gold" and "Blau", so a
bare "g" fails), a single digit standing where a catalogue text puts a name (``{name}
ist am Zug.`` shown as "0 ist am Zug.") fails, and so does a catalogue key shown in
place of its text (``td.explain.move``, ``tp.seat.0``).  A number standing alone
(a score, a count) is a number.
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
    if (shown) seen.push({text, where: where(parent), coord: !!parent.closest(".coord")});
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
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
KEY = re.compile(r"^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+$")
BARE = r"(?<![\w.-])[^\W_](?![\w-])"
"""One letter or digit standing alone: what a seat's or a school's bare id looks like."""
NOT_A_NAME_S_END = r"(?<!\w )"
"""Not after a word and a space: the number of "Blau 1" is part of its name."""
NAMED = frozenset({"name", "who", "team", "seat", "school", "winner", "first", "nameA", "nameB"})
"""The placeholders a seat's, a school's or a person's name fills."""


def _name_slots(value: str) -> re.Pattern | None:
    """A catalogue text with a name placeholder as a pattern that finds it filled
    with a bare id; ``None`` for a text without one, or without a word of its own
    (``{rank}{suit}`` would match anything)."""
    parts = PLACEHOLDER.split(value)
    literal = " ".join(parts[0::2])
    if not any(name in NAMED for name in parts[1::2]) or not WORD.search(literal):
        return None
    pattern = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            pattern.append(r"\s+".join(re.escape(piece) for piece in part.split()))
            if part[:1].isspace():
                pattern.insert(-1, r"\s+")
            if part[-1:].isspace() and part.strip():
                pattern.append(r"\s+")
        elif part in NAMED:
            # after a word of its own text the id is anchored; at the text's start (or
            # after another placeholder) it must not end a longer name ("Blau 1")
            anchored = parts[i - 1].strip()
            start = "" if anchored else NOT_A_NAME_S_END
            pattern.append(f"(?P<n{i}>{start}{BARE})")
        else:
            pattern.append(".*?")
    return re.compile("".join(pattern))


@dataclass(frozen=True)
class Catalogue:
    """The words of one language's catalogue (lower case), its one-letter words as
    written, its keys and its texts that name someone (as patterns: _name_slots)."""

    words: frozenset[str]
    keys: frozenset[str]
    letters: frozenset[str] = frozenset()
    named: tuple[re.Pattern, ...] = ()

    @classmethod
    def of(cls, texts: dict[str, str]) -> Catalogue:
        words, letters, named = set(), set(), []
        for value in texts.values():
            for word in WORD.findall(PLACEHOLDER.sub(" ", value)):
                words.add(word.lower())
                if len(word) == 1:
                    letters.add(word)
            slots = _name_slots(value)
            if slots is not None:
                named.append(slots)
        return cls(frozenset(words), frozenset(texts), frozenset(letters), tuple(named))

    def bare_names(self, text: str) -> list[str]:
        """The bare ids that stand in ``text`` where a catalogue text puts a name
        (a letter the catalogue writes so, the duel's "A", is a name)."""
        if not re.search(BARE, text):
            return []
        found = []
        for slots in self.named:
            match = slots.search(text)
            if match:
                found += [v for v in match.groupdict().values() if v not in self.letters]
        return list(dict.fromkeys(found))


def _without(text: str, allowed: list[str]) -> str:
    """``text`` with every allowed string (standing as a token of its own) blanked; a
    one-letter one (the duel's parry, ``p``) only in brackets, as the notation stands
    beside the words ("A pariert. (p)"): standing alone it is a bare id."""
    for free in sorted(allowed, key=len, reverse=True):
        if len(free) >= 2:
            text = re.sub(rf"(?<![\w-]){re.escape(free)}(?![\w-])", " ", text)
        elif free.strip():
            text = text.replace(f"({free})", " ")
    return text


def foreign_words(
    text: str, catalogue: Catalogue, allowed: list[str] = (), coordinate: bool = False
) -> list[str]:
    """The words of ``text`` that neither the catalogue nor the allowed strings give;
    ``coordinate``: the text is a board's coordinate label (a letter is free there)."""
    bad = []
    text = _without(text, list(allowed))
    for token in TOKEN.findall(text):
        token = token.strip(".:'’-")
        if token in catalogue.keys or KEY.match(token):
            bad.append(token)
            continue
        if any(c.isdigit() for c in token):
            continue
        for word in WORD.findall(token):
            if len(word) == 1:
                if word not in catalogue.letters and not coordinate:
                    bad.append(word)
            elif word.lower() not in catalogue.words:
                bad.append(word)
    return bad + [b for b in catalogue.bare_names(text) if b not in bad]


def leaks(seen: list[dict], catalogue: Catalogue, allowed: list[str] = ()) -> list[str]:
    """Each seen text with a word not from the catalogue: "where: text [words]"."""
    found = []
    for item in seen:
        bad = foreign_words(item["text"], catalogue, allowed, item.get("coord", False))
        if bad:
            found.append(f"{item['where']}: {item['text']!r} {bad}")
    return found
