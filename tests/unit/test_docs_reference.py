"""The docs are reference pages: short enough to read, free of project history, and
their cited sections exist.

docs/performance.md and docs/strength.md hold at most 300 lines each; no page under
docs/ and not the README cites an issue, a pull request, a session or a "round of
work" (history stays in git); and every section that a doc or a module cites as
``docs/NAME.md, "Heading"`` or ``docs/NAME.md ("Heading")`` is a heading of that page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def _repo_root() -> Path:
    """The folder with pyproject.toml above this file (tests may live in sub-folders)."""
    for folder in Path(__file__).resolve().parents:
        if (folder / "pyproject.toml").is_file() and (folder / "docs").is_dir():
            return folder
    raise AssertionError("no repository root with pyproject.toml and docs/ above this test")


ROOT = _repo_root()
MAX_LINES = 300
SHORT_PAGES = ("performance.md", "strength.md")
HISTORY = re.compile(
    r"\bissues?\s*#?\s*\d+"  # "issue 30", "issue #30", "issues 13"
    r"|\b(?:pull request|PR)\s*#?\s*\d+"  # "PR #4", "pull request 12"
    r"|\bsessions?\s+\d+"  # "session 6", "Session 3"
    r"|\b(?:the\s+)?\d+(?:st|nd|rd|th)\s+session\b"  # "the 4th session"
    r"|\bround\s+of\s+work\b",
    re.IGNORECASE,
)
SECTION_REF = re.compile(r'docs/([a-z0-9-]+\.md)(?:,\s*|\s*\(\s*)"([^"]+)"')
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", "build", "dist"}


def _pages() -> list[Path]:
    return sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]


def _history_hits(text: str) -> list[tuple[int, str]]:
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if HISTORY.search(line)
    ]


def _sections(page: Path) -> list[str]:
    """The page's headings and its bold paragraph labels (``* **Real attempts.** ...``)."""
    text = page.read_text(encoding="utf-8")
    headings = [
        " ".join(line.lstrip("#").split()) for line in text.splitlines() if line.startswith("#")
    ]
    return headings + [" ".join(label.split()) for label in re.findall(r"\*\*([^*]+)\*\*", text)]


def _citing_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*"):
        if path.suffix in {".py", ".md"} and not SKIP_DIRS.intersection(path.parts):
            files.append(path)
    return sorted(files)


@pytest.mark.parametrize("name", SHORT_PAGES)
def test_reference_pages_stay_short(name):
    lines = (ROOT / "docs" / name).read_text(encoding="utf-8").splitlines()
    assert 0 < len(lines) <= MAX_LINES, f"docs/{name} has {len(lines)} lines (at most {MAX_LINES})"


def test_no_page_cites_issues_or_sessions():
    hits = [
        f"{page.relative_to(ROOT)}:{number}: {line}"
        for page in _pages()
        for number, line in _history_hits(page.read_text(encoding="utf-8"))
    ]
    assert not hits, "docs say what is, not which issue or session made it:\n" + "\n".join(hits)


@pytest.mark.parametrize(
    "text",
    [
        "the list of issue 13 decides",
        "Issue #30 quotes it",
        "as PR #4 did",
        "Session 6 re-mined it",
        "in sessions 3 and 4",
        "the 4th session",
        "one more round of work",
    ],
)
def test_the_history_pattern_catches(text):
    assert _history_hits(text)


@pytest.mark.parametrize(
    "text",
    [
        "a session ended by logging out is kept in the table `revoked`",
        "signed, expiring session tokens",
        "the `session` cookie at connect",
        "Example session (plain):",
        "#24 `s1ss1/1ms2/S3S/2MS1/3S1 g traverse,quint stoss` (5.7, hardest N=2)",
        "a known issue with the cache",
        "after round 4,024 of mining",
        "rounds 170, 1144 (two) and 4024",
        "fill:#222",
    ],
)
def test_the_history_pattern_spares_ordinary_words(text):
    assert not _history_hits(text)


def test_cited_sections_exist():
    missing = []
    for path in _citing_files():
        text = " ".join(path.read_text(encoding="utf-8", errors="replace").split())
        for page, section in SECTION_REF.findall(text):
            target = ROOT / "docs" / page
            if not target.is_file():
                missing.append(f"{path.relative_to(ROOT)}: docs/{page} does not exist")
            elif not any(name.startswith(section) for name in _sections(target)):
                missing.append(f'{path.relative_to(ROOT)}: docs/{page} has no section "{section}"')
    assert not missing, "\n".join(missing)


def test_section_references_are_found():
    """The reference pattern reads both citation forms, across a line break."""
    docs = "docs" + "/"  # split so that this file cites nothing itself
    raw = f'see ({docs}solver.md, "Sure wins under hidden\n    cards") and {docs}touche-pyramiden.md ("Touché in N")'
    text = " ".join(raw.split())
    assert SECTION_REF.findall(text) == [
        ("solver.md", "Sure wins under hidden cards"),
        ("touche-pyramiden.md", "Touché in N"),
    ]
