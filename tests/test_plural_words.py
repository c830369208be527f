"""No message says a count as ``1 problem(s)``: every text a player reads (the CLI's, a page's, the
API's) words its plural by the count (``errors.counted``): ``1 problem``, ``2 problems``."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from cardbase.errors import InvalidData

PACKAGE = Path(__file__).resolve().parent.parent / "cardbase"
HEDGED_PLURAL = re.compile(r"[A-Za-z]\((?:s|es)\)")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree`` (not text a user reads)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def test_no_string_of_the_package_hedges_a_plural() -> None:
    """The class: every string literal of the package (an f-string's text parts too), docstrings
    aside, and every page template and script."""
    hedged = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) and id(node) not in skip else None
            if isinstance(text, str) and HEDGED_PLURAL.search(text):
                hedged.append(f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}: {text!r}")
    for path in sorted([*PACKAGE.rglob("*.html"), *PACKAGE.rglob("*.js")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HEDGED_PLURAL.search(line.replace("(s)=>", "").replace("(s) =>", "")):
                hedged.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}")
    assert not hedged, "\n".join(hedged)


def test_a_list_of_one_problem_says_one_problem() -> None:
    assert str(InvalidData("deck.txt", ["line 2: bad"])).splitlines()[0] == "deck.txt: 1 problem, nothing was written:"
    two = InvalidData("deck.txt", ["line 2: bad", "line 3: bad"], writes=False)
    assert str(two).splitlines()[0] == "deck.txt: 2 problems:"


# A count before a plural noun in an f-string (``f"{n} cards"``) reads "1 cards" when n is 1: each
# goes through ``counted`` (``plural`` for a count written apart: ``f"{n:,} {plural(n, 'byte')}"``).
# The sweep finds a FormattedValue followed by a literal " <word>s"; the same in the templates.
# Up to two words may stand between them ("{n} more notes", "{n} demo cards", "{n} card proxies"),
# unless one is a word after which the count no longer counts the noun ("{n} of the cards").
PLURAL_AFTER = re.compile(r" ((?:[a-z]+ ){0,2}?)([a-z]+(?:-[a-z]+)*s)\b")
NOT_COUNTING = frozenset(["a", "and", "at", "in", "it", "its", "mm", "of", "on", "or", "the", "to", "with"])


def _plural_after(text: str, at: int = 0) -> str | None:
    """The plural noun a count just before ``text[at:]`` counts (``PLURAL_AFTER``), or None."""
    found = PLURAL_AFTER.match(text, at)
    if found is None or NOT_COUNTING.intersection(found[1].split()):
        return None
    word = found[2]
    return None if word in NOT_PLURALS or word.endswith(("ss", "us", "is", "as")) else word


def _worded(expr: ast.expr) -> bool:
    """A value already worded by its count (``counted(n, "card")``): what follows it is not counted."""
    return isinstance(expr, ast.Call) and _last_name(expr) in ("counted", "plural")


# Words ending in -s that are no plural noun here: verbs after a name ("{name} needs"), a unit that
# does not inflect ("ms"), and words that merely end in s ("process", "vs").
NOT_PLURALS = frozenset(
    [
        "adds",
        "allows",
        "assumes",
        "attacks",
        "chooses",
        "confirms",
        "conquers",
        "contradicts",
        "costs",
        "develops",
        "dies",
        "divides",
        "does",
        "exists",
        "fails",
        "gives",
        "goes",
        "holds",
        "leads",
        "loses",
        "maps",
        "matches",
        "ms",
        "names",
        "needs",
        "plays",
        "process",
        "quests",
        "reads",
        "returns",
        "runs",
        "says",
        "shows",
        "takes",
        "uses",
        "vs",
        "was",
        "wins",
        "works",
        "writes",
    ]
)
# A value whose name says it holds a text, not a count ("{game} cards" is "Meikyu cards").
TEXT_NAMES = re.compile(r"(?:^|_)(?:name|title|titles|game|game_id|code|key|cid|quoted|and|kind)$", re.IGNORECASE)
# Counts that can never be 1, each with its reason (file, the value's source).
NEVER_ONE = {
    ("cardbase/render/options.py", "megapixels"): "over the bound MAX_MEGAPIXELS (60), so never 1",
    ("cardbase/render/art.py", "limit"): "Pillow's decompression-bomb limit, millions of pixels",
    ("cardbase/db/io.py", "more"): "the word 'more' or 'fewer', not a count",
    ("cardbase/sim/table_setup.py", "counts[-1]"): "the top of a range of player counts, above its bottom",
    ("cardbase/web/templates/_panels.html", "v.merged"): "shown only {% if v.merged > 1 %}",
    ("cardbase/web/templates/deck_history.html", "v.merged"): "shown only {% if v.merged > 1 %}",
    ("cardbase/web/templates/card_edit.html", "'{:,}'.format(art_bytes)"): "the art bound, megabytes",
    ("cardbase/web/templates/collection.html", "'{:,}'.format(paste_chars)"): "the paste bound, thousands",
    ("cardbase/web/templates/replay/open.html", '"{:,}".format(bound)'): "the record bound, megabytes",
    ("cardbase/db/collection.py", "BOUNDS.rows"): "the import bound, 200,000 rows",
    ("cardbase/db/io.py", "BOUNDS.rows"): "the import bound, 200,000 rows",
    ("cardbase/db/io.py", "other"): "a game's id ('meikyu card fields')",
    ("cardbase/db/regex.py", "out.looks"): "said only when over MAX_LOOKAROUNDS",
    ("cardbase/games/mea/abilities.py", "a.amount"): "an amount of 1 says 'again'",
    ("cardbase/games/mea/engine.py", "who"): "a seat's name ('P1 first draws')",
    ("cardbase/sim/hints.py", "len(candidates)"): "at least the two best compared",
    ("cardbase/sim/hints.py", "best.samples"): "SPLIT_FIRST_DEALS (32) deals and more",
}


def _last_name(expr: ast.expr) -> str:
    """The identifier a value is read from: ``deck.size`` → size, ``quoted(x)`` → quoted,
    ``TITLES.get(game)`` → TITLES (what the mapping holds)."""
    while True:
        if isinstance(expr, ast.Name):
            return expr.id
        if isinstance(expr, ast.Attribute):
            if expr.attr != "get":
                return expr.attr
            expr = expr.value
        elif isinstance(expr, ast.Call):
            expr = expr.func
        elif isinstance(expr, ast.Subscript):
            expr = expr.value
        else:
            return ""


def _module_numbers(path: Path) -> dict[str, object]:
    """The numbers a module binds at its top (``MAX_NAME = 80``), and the names it imports from
    another module of the package, resolved there."""
    numbers: dict[str, object] = {}
    for statement in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            try:
                value = ast.literal_eval(statement.value)
            except ValueError:
                continue
            numbers.update({t.id: value for t in targets if isinstance(t, ast.Name)})
        elif isinstance(statement, ast.ImportFrom) and (statement.module or "").startswith("cardbase."):
            source = PACKAGE.parent / (str(statement.module).replace(".", "/") + ".py")
            if source.is_file() and source != path:
                for alias in statement.names:
                    numbers[alias.asname or alias.name] = (source, alias.name)
    return numbers


def _constant_over_one(path: Path, name: str, depth: int = 3) -> bool:
    """Whether ``name`` is an UPPER_CASE constant of the module at ``path`` whose value is a number
    other than 1 (a fixed bound such as ``MAX_NAME``)."""
    value = _module_numbers(path).get(name) if name.isupper() and depth else None
    if isinstance(value, tuple):
        return _constant_over_one(value[0], value[1], depth - 1)
    return isinstance(value, int | float) and value != 1


def _words_after(parts: list[ast.expr], k: int) -> str | None:
    """The text after part ``k`` of an f-string: its next literal, or the literal after a text value
    between them (``{n} {kind} actions``: "1 move actions"), or None."""
    rest = parts[k + 1 : k + 4]
    if not rest or not isinstance(rest[0], ast.Constant):
        return None
    between, tail = (*rest[1:], None, None)[:2]
    if isinstance(between, ast.FormattedValue) and isinstance(tail, ast.Constant) and rest[0].value == " ":
        return str(tail.value) if TEXT_NAMES.search(_last_name(between.value)) else str(rest[0].value)
    return str(rest[0].value)


def bare_counts_before_plurals() -> list[str]:
    """Each ``{count} <plural>`` of the package's f-strings, as ``file:line: {count} word``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            parts = node.values
            for k, value in enumerate(parts):
                before, after = parts[k - 1] if k else None, _words_after(parts, k)
                if not (isinstance(value, ast.FormattedValue) and after is not None):
                    continue
                word = _plural_after(after)
                if word is None or _worded(value.value):
                    continue
                if isinstance(before, ast.Constant) and str(before.value)[-1:].isalnum():
                    continue  # a label such as P{seat}, not a count
                source = ast.unparse(value.value)
                name = _last_name(value.value)
                if TEXT_NAMES.search(name) or (relative, source) in NEVER_ONE:
                    continue
                if isinstance(value.value, ast.Name) and _constant_over_one(path, name):
                    continue  # a fixed bound such as MAX_NAME (80 characters)
                found.append(f"{relative}:{value.value.lineno}: {{{source}}} {word}")
    return found


TEMPLATE_COUNT = {  # a value shown in a page template (Jinja) and in a script's template literal
    "*.html": re.compile(r"\{\{\s*((?:(?!\}\}).)*?)\s*\}\}(?= [a-z])"),
    "*.js": re.compile(r"\$\{([^{}]*)\}(?= [a-z])"),
}


def bare_counts_in_templates() -> list[str]:
    """Each ``{{ count }} <plural>`` of the page templates (``{{ n | counted('card') }}`` words it)
    and each ``${count} <plural>`` of the scripts (``counted(n, "card")``)."""
    found = []
    paths = [(path, pattern) for glob, pattern in TEMPLATE_COUNT.items() for path in sorted(PACKAGE.rglob(glob))]
    for path, pattern in paths:
        relative = path.relative_to(PACKAGE.parent).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for shown in pattern.finditer(line):
                word = _plural_after(line, shown.end())
                if word is None or re.search(r"\|\s*(?:counted|plural)\(", shown[1]):
                    continue
                try:
                    name = _last_name(ast.parse(shown[1], mode="eval").body)
                except SyntaxError:
                    name = ""
                if TEXT_NAMES.search(name) or (relative, shown[1]) in NEVER_ONE:
                    continue
                found.append(f"{relative}:{number}: {shown[0]} {word}")
    return found


def test_no_template_puts_a_bare_count_before_a_plural() -> None:
    bare = bare_counts_in_templates()
    assert not bare, "\n".join(bare)


def test_no_f_string_puts_a_bare_count_before_a_plural() -> None:
    """The class: ``f"{n} cards"`` reads "1 cards"; ``counted(n, "card")`` words it by the count."""
    bare = bare_counts_before_plurals()
    assert not bare, "\n".join(bare)


def test_the_sweep_finds_a_bare_count_and_passes_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep itself can fail: a file with ``{len(x)} games`` is found, ``counted`` and a name are not."""
    package = tmp_path / "cardbase"
    package.mkdir()
    (package / "probe.py").write_text(
        "def f(x, game, counted):\n"
        '    return f"{len(x)} games", f"{counted(len(x), \'game\')}", f"{game} cards", f"P{len(x)} holds"\n'
        "def g(x):\n"
        '    return f"{len(x)} more games", f"{len(x)} demo cards", f"{len(x)} of the cards", f"{len(x)} card holds"\n'
        "def h(x, kind):\n"
        '    return f"{len(x)} {kind} actions", f"{kind} {len(x)} {kind} holds"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", package)
    assert bare_counts_before_plurals() == [
        "cardbase/probe.py:2: {len(x)} games",
        "cardbase/probe.py:4: {len(x)} games",
        "cardbase/probe.py:4: {len(x)} cards",
        "cardbase/probe.py:6: {len(x)} actions",
    ]


def test_a_deck_of_one_card_says_one_card_in_the_cli(tmp_path: Path) -> None:
    """`deck validate` of a one-card deck: its header and its size problem say "1 card" ("1 cards" before)."""
    from tests.hostile.conftest import run_cli

    deck = tmp_path / "one.txt"
    deck.write_text("game: mea\n1 Crumb Goblin\n", encoding="utf-8")
    result = run_cli(["deck", "validate", deck], str(tmp_path / "c.db"))
    assert result.exit_code == 1, result.output
    assert f"{deck}: mea deck, 1 card, format standard: INVALID" in result.stdout, result.stdout
    assert "the deck has 1 card;" in result.stdout, result.stdout


@pytest.mark.parametrize(("limit", "words"), [(1, "game over after 1 turn\n"), (2, "game over after 2 turns\n")])
def test_a_meikyu_board_counts_its_turns_and_points(limit: int, words: str) -> None:
    """The board `play meikyu` prints at the end: "after 1 turn", and a kingdom of 1 point "1* pt"."""
    from tests.meikyu.helpers import act, position
    from tests.meikyu.test_meikyu_ends import ONE, THREE, finish_turn

    state = position(
        2,
        rules_options={"turn_limit": limit},
        turn=(limit - 1) % 2,
        hands=[{"Bee": 1}, {"Bee": 1}],
        lands=[[THREE[0]], [ONE[0]]],
    )
    for _ in range(limit):
        act(state, "resupply")
        finish_turn(state)
    board = state.observation(0).describe()
    assert words in board and "P2: 1* pt ·" in board, board  # * marks an assumed value


def test_a_deck_of_one_demo_card_says_one_demo_card(tmp_path: Path) -> None:
    """`deck stats` of a deck of one Méa demo card: "1 demo card" ("1 demo cards" before: a word stood
    between the count and its noun, where the sweep did not look)."""
    from tests.hostile.conftest import run_cli

    deck = tmp_path / "one.txt"
    deck.write_text("game: mea\n1 Crumb Goblin\n", encoding="utf-8")
    result = run_cli(["deck", "stats", deck], str(tmp_path / "c.db"))
    assert result.exit_code == 0, result.output
    assert "\n1 demo card (made for cardbase, not published)\n" in result.stdout, result.stdout


HAND_ROLLED = re.compile(
    r"""(?:''|"") if [^\n]*?==\s*1 else ['"](?:s|es)['"]"""  # card{{ '' if n == 1 else 's' }}
    r"""|['"](?:s|es)['"] if [^\n]*?!=\s*1 else (?:''|"")"""  # card{'s' if n != 1 else ''}
    r"""|['"]y['"] if [^\n]*?==\s*1 else ['"]ies['"]"""  # cop{{ 'y' if n == 1 else 'ies' }}
    r"""|===\s*1\s*\?\s*(?:''|"")\s*:\s*['"]s['"]"""  # deal${n === 1 ? "" : "s"}
)


def test_no_plural_is_spelled_by_hand() -> None:
    """One mechanism words a count (``counted``/``plural``, the templates' filters of the same names, the
    scripts' ``counted``): no text spells its own ending by the count (``card{'s' if n != 1 else ''}``),
    which the sweeps above do not read as a count before a noun, and which each spelled again."""
    spelled = []
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.html"), *PACKAGE.rglob("*.js")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HAND_ROLLED.search(line):
                spelled.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()[:120]}")
    assert not spelled, "\n".join(spelled)
