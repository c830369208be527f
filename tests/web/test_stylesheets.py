"""The stylesheets keep to their pages. cardbase.css and boards.css are on every page, play.css on the
play pages: a rule meant for one family of pages matched another's elements when both used a class
name (the boards' ``.face`` drew the deck builder's faces 0 px high until their pictures came; the
owners' tag pill ``.tag`` put its border round the boards' "leads" and "turn"). Read from the files
(no browser): each class and id the templates, the scripts and the pages' Python write, and each
selector of each sheet."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "cardbase" / "web"
TEMPLATES = WEB / "templates"
STATIC = WEB / "static"

BOARD_TEMPLATES = ("play/", "replay/")
"""The play and replay pages, with their boards: what boards.css is for."""
PLAY_TEMPLATES = ("play/",)
"""The play pages (the start form, the seat links, the table): what play.css is for (with the boards)."""
BOARD_SCRIPTS = ("boards.js", "replay.js", "preview.js", "play.js")

SHARED = {
    "muted", "small", "note", "notice", "demo-note", "plain", "visually-hidden", "error", "panel", "help",
    "inline-form", "badge", "demo", "stack", "lead", "button-link", "problems", "hint", "unknown", "check",
}  # fmt: skip
"""cardbase.css's rules meant for every page, boards included: a class of these a board uses takes
them. Any other cardbase.css rule that can match a board's element is a rule of another page's."""


def names_in_markup(text: str) -> set[str]:
    """The classes (``name``) and ids (``#name``) markup writes: in ``class="…"`` and ``id="…"``, with
    the quoted words of a Jinja expression inside them (``{{ 'red' if c.red else 'black' }}``) and of a
    macro's ``extra=`` (the boards' faces)."""
    found: set[str] = set()
    for match in re.finditer(r'\b(class|id)=(?:"([^"]*)"|\\"([^"\\]*)\\")', text):
        attr, value = match.group(1), match.group(2) if match.group(2) is not None else match.group(3)
        quoted = re.findall(r"'([^']*)'", " ".join(re.findall(r"\{\{.*?\}\}|\{%.*?%\}", value)))
        plain = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", value)
        words = [w for part in [plain, *quoted] for w in part.split()]
        found.update(("#" + w if attr == "id" else w) for w in words if re.fullmatch(r"[A-Za-z][\w-]*", w))
    for extra in re.findall(r"extra=([^%]*)%\}", text):
        found.update(w for q in re.findall(r"'([^']*)'", extra) for w in q.split())
    return found


def names_in_script(text: str) -> set[str]:
    """The classes a script gives (``classList.add("x")``, ``className = "a b"``) and the markup it writes."""
    found = {w for w in re.findall(r"classList\.(?:add|toggle|replace)\(\s*[\"'`]([\w-]+)", text)}
    found.update(w for v in re.findall(r"className\s*=\s*[\"'`]([^\"'`]*)", text) for w in v.split())
    found.update(w for v in re.findall(r"\.id\s*=\s*[\"'`]([\w-]+)", text) for w in ["#" + v])
    return found | names_in_markup(text)


def uses() -> dict[str, set[str]]:
    """Name → the files (a template's path under templates/, a script's or module's name) that write it."""
    out: dict[str, set[str]] = {}
    sources = [(str(p.relative_to(TEMPLATES)), names_in_markup(p.read_text())) for p in TEMPLATES.rglob("*.html")]
    sources += [(p.name, names_in_script(p.read_text())) for p in STATIC.glob("*.js")]
    sources += [(p.name, names_in_markup(p.read_text())) for p in WEB.glob("*.py")]
    for source, names in sources:
        for name in names:
            out.setdefault(name, set()).add(source)
    return out


def selectors(sheet: str) -> list[str]:
    """Each selector of a sheet (those inside @media too)."""
    text = re.sub(r"/\*.*?\*/", "", (STATIC / sheet).read_text(), flags=re.S)
    out = []
    for head in re.findall(r"([^{}]+)\{[^{}]*\}", text):
        if not head.strip().startswith("@"):
            out.extend(s.strip() for s in head.split(",") if s.strip())
    return out


def required(selector: str) -> set[str]:
    """The classes and ids an element (or its ancestors, or its descendants for ``:has``) must have for
    ``selector`` to match it (what ``:not(…)`` names is not required)."""
    while re.search(r":not\([^()]*\)", selector):
        selector = re.sub(r":not\([^()]*\)", "", selector)
    selector = re.sub(r"\[[^\]]*\]", "", selector)
    ids = {"#" + n for n in re.findall(r"#([A-Za-z_][\w-]*)", selector)}
    return set(re.findall(r"\.([A-Za-z_][\w-]*)", selector)) | ids


def only_in(name: str, used: dict[str, set[str]], family: tuple[str, ...], scripts: tuple[str, ...] = ()) -> bool:
    """Whether ``name`` is written only by the family's templates and scripts (or by nothing)."""
    return all(source.startswith(family) or source in scripts for source in used.get(name, set()))


def test_every_rule_of_the_boards_sheet_needs_a_name_only_the_boards_use() -> None:
    """boards.css is on every page: a selector of it whose names some other page also writes (``.face``,
    on the deck builder's faces) styles that page too. Each selector needs one name only the boards
    (play and replay) and their scripts write."""
    used = uses()
    loose = [
        f"{s!r}: each of {sorted(required(s))} is written by another page too "
        f"({sorted({src for n in required(s) for src in used.get(n, set())})})"
        for s in selectors("boards.css")
        if required(s) and not any(only_in(n, used, BOARD_TEMPLATES, BOARD_SCRIPTS) for n in required(s))
    ]
    assert not loose, "boards.css rules that reach other pages:\n" + "\n".join(loose)


def test_every_rule_of_the_play_sheet_needs_a_name_only_the_play_pages_use() -> None:
    used = uses()
    loose = [
        f"{s!r}: {sorted(required(s))}"
        for s in selectors("play.css")
        if not any(only_in(n, used, PLAY_TEMPLATES, BOARD_SCRIPTS) for n in required(s))
    ]
    assert not loose, "play.css rules that reach what other pages also write:\n" + "\n".join(loose)


def test_a_board_takes_no_rule_of_another_page_from_the_main_sheet() -> None:
    """cardbase.css is on every page: a selector of it whose every name the boards also write (the
    owners' ``.tag`` pill, on the boards' "leads" and "turn") styles the boards, unless it is one of
    the rules every page shares (``SHARED``)."""
    used = uses()
    on_boards = {n for n, sources in used.items() if any(s.startswith(BOARD_TEMPLATES) for s in sources)}
    reaching = [
        f"{s!r}: {sorted(required(s))}"
        for s in selectors("cardbase.css")
        if required(s) and required(s) <= on_boards and not required(s) <= SHARED
    ]
    assert not reaching, "cardbase.css rules of other pages that a board's elements match:\n" + "\n".join(reaching)


def test_the_reading_of_names_finds_the_boards_faces_and_tags() -> None:
    """The checks above are only as good as their reading: the names of a face, a tag and a board."""
    used = uses()
    assert "play/_board_common.html" in used["face"] and "_deck_entry.html" in used["stack-face"]
    assert "tag" in used and "card.html" in used["tag"] and "board-tag" in used
    assert {"red", "black", "idle"} <= set(used)  # from a face's ``extra=``
    assert "#seat-links" in used and "preview.js" in used["card-preview"]
    lit = ".game-board.js.picking-on [data-key]:not(.pickable):not(.picked)"
    assert required(lit) == {"game-board", "js", "picking-on"}
