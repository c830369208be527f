"""The card search language, compiled to parameterised SQL.

Scryfall-style: bare words and quoted phrases match names (and aliases, and a land's
owned name); ``field:value``; comparisons ``= != < <= > >=`` on numbers; ``t:``, ``o:``,
``game:``, ``set:``, ``source:``, ``is:unknown``; ``-`` negates; ``or``; parentheses;
``/regex/`` on name and text. Terms side by side must all hold.

Every term is made two-valued (an unknown value never matches a comparison, and its
negation matches), so ``-cost<=3`` is exactly the cards that ``cost<=3`` leaves out.

>>> parse("t:monster (cost<=3 or atk>=5) -o:draw")
And(items=(Term(key='t', op=':', value='monster', ...), ...))
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict, namedtuple
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Connection,
    String,
    TypeDecorator,
    and_,
    case,
    column,
    false,
    func,
    literal,
    literal_column,
    not_,
    or_,
    select,
    table,
    text,
    true,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql import Select
from sqlalchemy.sql.visitors import InternalTraversal

from cardbase.catalog.fields import APPLICABLE, GAME_FIELDS, GAME_TYPES, canonical_type
from cardbase.db import search_index, tables
from cardbase.db.regex import check_pattern, postgresql_pattern
from cardbase.db.search_index import COLUMNS as SEARCHED_COLUMNS
from cardbase.db.search_index import TEXT_START
from cardbase.db.tags import EntryTags, tag_condition
from cardbase.errors import QueryError, counted, plural, quoted
from cardbase.names import fold

if TYPE_CHECKING:
    from sqlmodel import Session

    Reader = Session | Connection
    """What search reads through: an ORM session (the web app's) or a connection (``Database.read``)."""

_CARD_TABLE = tables.card
_CARD = _CARD_TABLE.c
"""The card table's columns (``cardbase.db.tables``): search is SQL on the table, and needs neither
the ORM nor SQLModel's classes. A statement that adds a search's condition takes its tables from
there too."""

# --- syntax -------------------------------------------------------------------------------

MAX_QUERY_LENGTH = 2_000
"""Longer than any query a person types (Scryfall stops at 1,000); longer input is refused, not cut."""
MAX_TERMS = 200
MAX_DEPTH = 32
MAX_NUMBER = 10**9
"""No card value comes near it; beyond it a comparison means nothing (and would overflow SQL INTEGER)."""

_OPS = ("!=", "<=", ">=", ":", "=", "<", ">")
_TOKEN = re.compile(
    r"""\s*(?:
      (?P<lparen>\()|(?P<rparen>\))
    | (?P<term>-?!?(?:[A-Za-z_]+(?:!=|<=|>=|[:=<>]))?(?:"[^"]*"?|/(?:\\.|[^/\\])*/?|[^\s()"]+)?)
    )""",
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class Term:
    """One search term: ``key op value``; ``key`` is None for a bare word, phrase or regex."""

    key: str | None
    op: str
    value: str
    regex: bool = False
    exact: bool = False
    text: str = ""


@dataclass(frozen=True, slots=True)
class Not:
    item: Node


@dataclass(frozen=True, slots=True)
class And:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple[Node, ...]


Node = Term | Not | And | Or


_REGEX = re.compile(r"/((?:\\.|[^/\\])*)/", re.S)
"""A whole regular expression term: ``/``, then escaped characters (``\\/``, ``\\\\``) or any but ``/`` and
``\\``, then the closing ``/`` (``/\\\\/``, matching one backslash, is closed; ``/a\\/`` is not)."""


def _split_term(raw: str) -> Term:
    text = raw
    exact = raw.startswith("!")
    if exact:
        raw = raw[1:]
    key: str | None = None
    op = ":"
    m = re.match(r"([A-Za-z_]+)(!=|<=|>=|[:=<>])(.*)$", raw, re.S)
    if m and not raw.startswith(('"', "/")):
        key, op, raw = m.group(1).lower(), m.group(2), m.group(3)
    if raw.startswith("/"):
        closed = _REGEX.fullmatch(raw)
        if closed is None:
            raise QueryError(f"unclosed regular expression in {quoted(text)}: end it with /")
        pattern = closed.group(1)
        try:
            check_pattern(pattern)
        except QueryError as error:  # RE2's refusal, or a construct a search does not take
            raise QueryError(f"{quoted(text)}: {error}") from None
        return Term(key, op, pattern, regex=True, text=text)
    if raw.startswith('"'):
        if len(raw) < 2 or not raw.endswith('"'):
            raise QueryError(f'unclosed quote in {quoted(text)}: end the phrase with "')
        raw = raw[1:-1]
    if not raw:
        raise QueryError(f"term {quoted(text)} has no value" if key else "empty term in query")
    return Term(key, op, raw, exact=exact, text=text)


def parse(query: str) -> Node:
    """Parse ``query`` into a tree of terms; a bad query raises ``QueryError`` naming the term."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    query = query.strip()
    if len(query) > MAX_QUERY_LENGTH:
        raise QueryError(
            f"the query has {len(query):,} {plural(len(query), 'character')}; at most {MAX_QUERY_LENGTH:,} are read"
        )
    while pos < len(query):
        m = _TOKEN.match(query, pos)
        if not m or m.end() == pos:
            raise QueryError(f"cannot read the query at {quoted(query[pos:])}")
        pos = m.end()
        if m.group("lparen"):
            tokens.append(("(", "("))
        elif m.group("rparen"):
            tokens.append((")", ")"))
        else:
            raw = m.group("term")
            if raw:
                tokens.append(("term", raw))
    if len(tokens) > MAX_TERMS:
        raise QueryError(f"the query has {counted(len(tokens), 'term')}; at most {MAX_TERMS} are read")
    if not tokens:
        raise QueryError("empty query: give words to find in names, or field:value terms")
    parser = _Parser(tokens)
    node = parser.parse_or()
    if parser.i < len(tokens):
        raise QueryError(f"unexpected {quoted(tokens[parser.i][1])} in the query (an unmatched ')'?)")
    return node


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]):
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def parse_or(self) -> Node:
        items = [self.parse_and()]
        while (tok := self._peek()) and tok[0] == "term" and tok[1].lower() == "or":
            self.i += 1
            if self._peek() is None or self._peek()[0] == ")":  # type: ignore[index]
                raise QueryError("'or' needs a term after it")
            items.append(self.parse_and())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def parse_and(self) -> Node:
        items: list[Node] = []
        while (tok := self._peek()) and tok[0] != ")" and not (tok[0] == "term" and tok[1].lower() == "or"):
            items.append(self.parse_unary())
        if not items:
            tok = self._peek()
            if tok is None:
                raise QueryError("a term is missing at the end of the query")
            if tok[0] == ")":
                raise QueryError("unexpected ')' in the query (an unmatched ')'?)")
            raise QueryError("'or' needs a term before it")
        if len(items) == 1:
            return items[0]
        return And(tuple(items))

    def parse_unary(self) -> Node:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise QueryError(f"the query nests more than {MAX_DEPTH} levels of parentheses or negations")
            return self._parse_unary()
        finally:
            self.depth -= 1

    def _parse_unary(self) -> Node:
        kind, raw = self.tokens[self.i]
        if kind == "(":
            self.i += 1
            node = self.parse_or()
            if self._peek() is None or self._peek()[0] != ")":  # type: ignore[index]
                raise QueryError("unclosed '(' in the query: add ')'")
            self.i += 1
            return node
        self.i += 1
        if raw.lower() == "and":
            return self.parse_unary() if self._peek() else _fail("'and' needs a term after it")
        if raw.startswith("-"):
            if raw == "-":
                if self._peek() and self._peek()[0] == "(":  # type: ignore[index]
                    return Not(self.parse_unary())
                raise QueryError("'-' must stand right before the term it negates")
            return Not(_split_term(raw[1:]))
        return _split_term(raw)


def _fail(message: str) -> Node:
    raise QueryError(message)


# --- meaning --------------------------------------------------------------------------------

_NUMERIC: dict[str, str] = {
    "cost": "cost",
    "mana": "cost",
    "cmc": "cost",
    "atk": "attack",
    "attack": "attack",
    "pow": "attack",
    "power": "attack",
    "def": "defence",
    "defence": "defence",
    "defense": "defence",
    "level": "level",
    "lvl": "level",
    "lv": "level",
    "points": "points",
    "pts": "points",
    "dev": "developed_points",
    "developed": "developed_points",
    "developed_points": "developed_points",
    "bravery": "bravery",
    "swords": "bravery",
    "sword": "bravery",
    "brv": "bravery",
    "wits": "wits",
    "seals": "wits",
    "seal": "wits",
    "rank": "rank",
    "copies": "copies",
    "count": "copies",
    "players": "min_players",
    "min_players": "min_players",
}
_TEXT: dict[str, str] = {
    "o": "text",
    "text": "text",
    "oracle": "text",
    "d": "description",
    "desc": "description",
    "description": "description",
    "flavor": "description",
    "flavour": "description",
    "land": "land_name",
    "land_name": "land_name",
    "notes": "notes",
}
_RANK_LETTERS = {"a": 1, "j": 11, "q": 12, "k": 13}
ACE_HIGH = 14
"""Meio's ace ranks above the king (the rulebook's default): ``rank>=10`` finds the aces,
``order:rank`` puts them last, and ``rank:a`` or ``rank:1`` still names them. ``ace:low`` in the
query (or ``--ace low``) reads the ace below the two, as the game's ``ace_high`` rules option
(``--ace-low``) plays it: then ``rank<=3`` finds the aces and ``order:rank`` puts them first."""
ACES = ("high", "low")


def rank_value(ace_high: bool = True) -> Any:
    """A card's rank as players read it: 2 … 13, then the ace (14); ace low: the ace (1), 2 … 13."""
    return case((_CARD.rank == 1, ACE_HIGH), else_=_CARD.rank) if ace_high else _CARD.rank


_SUITS = {
    "s": "S",
    "spades": "S",
    "♠": "S",
    "h": "H",
    "hearts": "H",
    "♥": "H",
    "d": "D",
    "diamonds": "D",
    "♦": "D",
    "c": "C",
    "clubs": "C",
    "♣": "C",
}
KEYS_HELP = (
    "order:KEY, direction:asc|desc, "
    "name:, t:/type:, o:/text:, d:/desc:, land:, game:, set:, source:, is:unknown|demo|rulebook|imported, "
    "unknown:FIELD, suit:, tag:, and numbers " + ", ".join(sorted(set(_NUMERIC))) + " with : = != < <= > >="
)


def _two_valued(expr: ColumnElement[bool]) -> ColumnElement[bool]:
    return func.coalesce(expr, false())


def _numeric(term: Term, column_name: str, ace_high: bool = True) -> ColumnElement[bool]:
    value_text = term.value.strip()
    if column_name == "rank" and value_text.lower() in _RANK_LETTERS:
        value = _RANK_LETTERS[value_text.lower()]
    else:
        try:
            if not (value_text.removeprefix("-").isascii() and value_text.removeprefix("-").isdecimal()):
                raise ValueError(value_text)  # int() reads 1_0 as 10 and another script's digits (٣) as ours
            value = int(value_text)
        except ValueError:
            raise QueryError(
                f"{quoted(term.text)}: {term.key} needs a whole number, not {quoted(term.value)}"
            ) from None
        if abs(value) > MAX_NUMBER:
            raise QueryError(
                f"{quoted(term.text)}: {value} is out of range (numbers from -{MAX_NUMBER:,} to {MAX_NUMBER:,})"
            )
    column: Any = _CARD[column_name]
    if column_name == "rank":  # the ace is named 1 (or a) whichever way it ranks
        column, value = rank_value(ace_high), ACE_HIGH if value == 1 and ace_high else value
    op = term.op
    compared: dict[str, ColumnElement[bool]] = {
        ":": column == value,
        "=": column == value,
        "!=": column != value,
        "<": column < value,
        "<=": column <= value,
        ">": column > value,
        ">=": column >= value,
    }
    return compared[op]


LOWER_FUNCTION = "cardbase_lower"
"""SQLite: ``str.lower`` as a SQL function (``engine._sqlite_pragmas`` registers it on each connection)."""


class _ContainsCI(ColumnElement[bool]):
    """``column`` contains ``value`` (or, ``at_start``, starts with it), ignoring ASCII case: LIKE
    on SQLite (already case-blind there, and unlike ``lower(x) LIKE …`` it costs no function call
    per row), ILIKE elsewhere."""

    inherit_cache = True
    type = Boolean()
    # SQLAlchemy's stubs declare it per instance; every element class sets it on the class.
    _traverse_internals: ClassVar[list[tuple[str, Any]]] = [  # type: ignore[misc]
        ("column", InternalTraversal.dp_clauseelement),
        ("pattern", InternalTraversal.dp_clauseelement),
        ("cased", InternalTraversal.dp_boolean),
    ]

    def __init__(self, column: Any, value: str, at_start: bool = False):
        escaped = value.replace("/", "//").replace("%", "/%").replace("_", "/_")
        self.column = column
        self.pattern = literal(f"{'' if at_start else '%'}{escaped}%")
        # a letter with case beyond ASCII: SQLite's LIKE ignores ASCII case only (see _contains_ci_sqlite)
        self.cased = not value.isascii() and value.lower() != value.upper()


@compiles(_ContainsCI)
def _contains_ci_default(element: _ContainsCI, compiler: Any, **kw: Any) -> str:
    return f"{compiler.process(element.column, **kw)} ILIKE {compiler.process(element.pattern, **kw)} ESCAPE '/'"


class _ShortPrefilter(_ContainsCI):
    """A regex's ``LIKE`` prefilter on a literal of fewer than three characters: on SQLite a cheap
    test in front of the regex; on PostgreSQL nothing (``true``): pg_trgm takes no trigram from it,
    so its GIN index would read every entry (10 ms at 100,000 cards, where the regex alone, whose
    trigrams pg_trgm reads itself, takes 0.2 ms)."""

    inherit_cache = True


@compiles(_ShortPrefilter)
def _short_prefilter_default(element: _ShortPrefilter, compiler: Any, **kw: Any) -> str:
    return "true"


_FOLDED_TEXT: ColumnElement[Any] = literal_column(f"{_CARD_TABLE.name}.{search_index.FOLDED_TEXT}")


@compiles(_ContainsCI, "postgresql")
def _contains_ci_postgresql(element: _ContainsCI, compiler: Any, **kw: Any) -> str:
    """``ILIKE``; on the card's text, behind ``text_folded LIKE lower(pattern)``, which gives the same
    answer without lowering each text it tests (``search_index.FOLDED_TEXT``): a card it turns away
    is never given to ``ILIKE``. At 100,000 cards ``o:draw`` passes 25,000 cards before its first
    match."""
    ilike = _contains_ci_default(element, compiler, **kw)
    column = element.column
    if getattr(column, "table", None) is not _CARD_TABLE or column.name != "text":
        return ilike
    folded = compiler.process(_FOLDED_TEXT, **kw)
    return f"({folded} LIKE lower({compiler.process(element.pattern, **kw)}) ESCAPE '/' AND {ilike})"


@compiles(_ContainsCI, "sqlite")
@compiles(_ShortPrefilter, "sqlite")
def _contains_ci_sqlite(element: _ContainsCI, compiler: Any, **kw: Any) -> str:
    """``LIKE``, which ignores ASCII case only; a term with a letter of another script's case
    (``épée``, ``зелье``) compares both sides lowered by ``cardbase_lower`` (``str.lower``, registered
    on every connection), as PostgreSQL's ``ILIKE`` lowers them: ``o:épée`` finds ``Épée`` on both."""
    column, pattern = compiler.process(element.column, **kw), compiler.process(element.pattern, **kw)
    if element.cased:
        return f"{LOWER_FUNCTION}({column}) LIKE {LOWER_FUNCTION}({pattern}) ESCAPE '/'"
    return f"{column} LIKE {pattern} ESCAPE '/'"


def _contains(column: Any, term: Term) -> ColumnElement[bool]:
    if term.regex:
        return _regex(column, term.value)
    if term.op == "=" or term.exact:
        return func.lower(column) == term.value.lower()
    return _ContainsCI(column, term.value)


_WIDE_FOLDS = frozenset("ks")
"""ASCII letters whose case-insensitive match may take a non-ASCII letter too (RE2 and some
PostgreSQL locales: ``k`` the Kelvin sign, ``s`` the long s)."""


def _parsed_as_re2(pattern: str) -> Any | None:
    """``pattern`` as Python's ``re`` parser reads it, where that is how RE2 reads it; else None.

    The prefilters only narrow what the regex (RE2) then tests, so they may only take from the
    pattern what RE2 requires. Python's parser reads most of RE2's syntax alike and refuses the rest
    (``\\pL``, ``\\Q…\\E``, ``\\x{…}``); where the two part without a refusal, Python warns (a
    POSIX class ``[[:alpha:]xy]`` is to it a set and then the text ``xy]``: "possible nested set"),
    so a warning is a refusal here too, and never reaches the user's terminal.
    """
    import warnings

    try:
        from re import _parser  # type: ignore[attr-defined]

        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return _parser.parse(pattern)
    except Exception:  # a pattern the parser refuses or reads differently (a Warning is an Exception)
        return None


def _plain(op: Any, value: Any) -> str:
    """The character a parsed item is when a prefilter may take it (an ASCII letter, digit or space
    whose every case-insensitive match is ASCII: not ``k`` or ``s``, see ``_WIDE_FOLDS``), else ``""``."""
    from re import _parser  # type: ignore[attr-defined]

    if op is not _parser.LITERAL:
        return ""
    char = chr(value)
    return char if char.isascii() and (char.isalnum() or char == " ") and char.lower() not in _WIDE_FOLDS else ""


def required_literal(pattern: str) -> str | None:
    """The longest plain run of 2+ characters every match of ``pattern`` must contain, if any.

    Used as a ``LIKE`` prefilter in front of a regex, which the database runs far faster than a
    regex function per row. Read from the top level of the parsed pattern (``_parsed_as_re2``):
    literals there are never optional (a branch or repeat is one opaque item); a run stops at a
    character that is not plain (``_plain``).
    """
    parsed = _parsed_as_re2(pattern)
    if parsed is None:
        return None
    runs, current = [], ""
    for op, value in list(parsed):
        if char := _plain(op, value):
            current += char
        else:
            runs.append(current)
            current = ""
    runs.append(current)
    best = max(runs, key=len)
    return best if len(best) >= 2 else None


class _PostgresRegex(TypeDecorator[str]):
    """A regex pattern bound as a parameter: on PostgreSQL, the pattern translated to the ARE that
    matches what RE2 matches (``cardbase.db.regex.postgresql_pattern``). Translated as the value is
    bound, not as the statement is compiled: a compiled statement is kept for other patterns."""

    impl = String
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Any) -> str | None:
        return postgresql_pattern(value) if value is not None and dialect.name == "postgresql" else value


class _MatchesCI(ColumnElement[bool]):
    """``column`` matches the regex ``pattern``, ignoring case, as RE2 matches it on both databases:
    SQLite's ``REGEXP`` (cardbase's RE2 function) with ``(?i)`` in front; PostgreSQL's ``~`` with the
    pattern translated to an ARE that spells out RE2's case folding and classes (its own engine's
    syntax, classes and folding are not RE2's; its pg_trgm indexes read ``~`` too)."""

    inherit_cache = True
    type = Boolean()
    _traverse_internals: ClassVar[list[tuple[str, Any]]] = [  # type: ignore[misc]
        ("column", InternalTraversal.dp_clauseelement),
        ("pattern", InternalTraversal.dp_clauseelement),
        ("flagged", InternalTraversal.dp_clauseelement),
    ]

    def __init__(self, column: Any, pattern: str):
        self.column = column
        self.pattern = literal(pattern, _PostgresRegex())
        self.flagged = literal(_ci(pattern))


@compiles(_MatchesCI)
def _matches_ci_default(element: _MatchesCI, compiler: Any, **kw: Any) -> str:
    return f"{compiler.process(element.column, **kw)} ~ {compiler.process(element.pattern, **kw)}"


@compiles(_MatchesCI, "sqlite")
def _matches_ci_sqlite(element: _MatchesCI, compiler: Any, **kw: Any) -> str:
    return f"{compiler.process(element.column, **kw)} REGEXP {compiler.process(element.flagged, **kw)}"


def _regex(column: Any, pattern: str) -> ColumnElement[bool]:
    """The regex condition, with ``LIKE`` prefilters in front that the databases run (and index:
    PostgreSQL's pg_trgm reads ``ILIKE 'gr%'`` for ``^gr``) far faster than a regex per row."""
    prefilters = [
        (_ContainsCI if len(run) >= 3 else _ShortPrefilter)(column, run) for run in (required_literal(pattern),) if run
    ]
    start = anchored_prefix(pattern)
    if start:
        prefilters.append(_ContainsCI(column, start, at_start=True))
    expr = _MatchesCI(column, pattern)
    return and_(*prefilters, expr) if prefilters else expr


def anchored_prefix(pattern: str) -> str:
    """The literal every match of ``pattern`` starts the text with (``^gr.*`` → ``gr``), or ``""``.

    Read as ``required_literal`` reads literals, after a leading ``^`` or ``\\A`` (not under
    ``(?m)``, where ``^`` starts every line); ASCII letters, digits and spaces only, and it stops
    before ``k`` or ``s`` (see ``_WIDE_FOLDS``): a card it finds is certain to start with it, in
    any case.
    """
    from re import _parser  # type: ignore[attr-defined]

    parsed = _parsed_as_re2(pattern)
    if parsed is None:
        return ""
    items = list(parsed)
    anchors = (_parser.AT_BEGINNING, _parser.AT_BEGINNING_STRING)
    if not items or items[0][0] is not _parser.AT or items[0][1] not in anchors:
        return ""
    if parsed.state.flags & _parser.SRE_FLAG_MULTILINE:
        return ""
    prefix = ""
    for op, value in items[1:]:
        if not (char := _plain(op, value)):
            break
        prefix += char
    return prefix


def _ci(pattern: str) -> str:
    return "(?i)" + pattern


def _text_op(term: Term) -> None:
    if term.op not in (":", "=", "!="):
        raise QueryError(f"{quoted(term.text)}: {term.key} is text; use {term.key}:value (not {term.op})")


_SETTINGS = ("order", "direction", "ace")
"""Terms that say how to read the whole query, not which cards: they stand at its top level."""
_OTHER_KEYS = (
    *_SETTINGS,
    "name",
    "n",
    "t",
    "type",
    "game",
    "g",
    "set",
    "s",
    "e",
    "edition",
    "source",
    "src",
    "is",
    "unknown",
    "suit",
    "tag",
)


def value_field(key: str) -> str | None:
    """The card field a query's ``key`` reads (``atk`` → ``attack``, ``suit`` → ``suit``, ``o`` →
    ``text``), or None for a key that reads no card value (``t:``, ``set:``, ``is:``, ``order:``)."""
    key = key.lower()
    return _NUMERIC.get(key) or _TEXT.get(key) or ("suit" if key == "suit" else None)


def _check_key(term: Term) -> None:
    """An unknown field is named, with the nearest known one (``cots`` → ``cost``)."""
    key = term.key
    if key is None or key in _NUMERIC or key in _TEXT or key in _OTHER_KEYS:
        return
    import difflib

    near = difflib.get_close_matches(key, [*_NUMERIC, *_TEXT, *_OTHER_KEYS], n=1, cutoff=0.6)
    hint = f"; did you mean {quoted(near[0])}?" if near else f"; fields are {KEYS_HELP}"
    raise QueryError(f"unknown field {quoted(key)} in {quoted(term.text)}{hint}")


def _compile_term(
    term: Term, game: str | None, ace_high: bool = True, entry_tags: EntryTags | None = None
) -> ColumnElement[bool]:
    key = term.key
    _check_key(term)
    if key == "tag":
        _text_op(term)
        return _negate_if(term, tag_condition(term.value, term.text, entry_tags))
    if key is None or key in ("name", "n"):
        if term.regex:
            expr = _regex(_CARD.name, term.value)
            if key is None:
                expr = or_(expr, _regex(_CARD.text, term.value))
        elif term.exact or term.op == "=":
            expr = _CARD.search_names.contains(f"|{fold(term.value)}|", autoescape=True)
        else:
            expr = _CARD.search_names.contains(fold(term.value), autoescape=True)
        return _negate_if(term, expr)
    if key in _NUMERIC:
        column = _NUMERIC[key]
        if (
            game
            and not any(column in fields for (g, _), fields in APPLICABLE.items() if g == game)
            and column not in {f.name for f in GAME_FIELDS[game]}
        ):
            raise QueryError(f"{quoted(term.text)}: {key} is not a value of {game} cards")
        if term.regex:
            raise QueryError(f"{quoted(term.text)}: {key} is a number; a /regex/ does not apply")
        return _numeric(term, column, ace_high)
    _text_op(term)
    if key in _TEXT:
        return _negate_if(term, _contains(_CARD[_TEXT[key]], term))
    if key in ("t", "type"):
        wanted = fold(term.value)
        names = {t for g in GAME_TYPES if not game or g == game if (t := canonical_type(g, wanted)) is not None}
        if not names:
            known = sorted({t for g, types in GAME_TYPES.items() if not game or g == game for t in types})
            whose = [g for g in GAME_TYPES if canonical_type(g, wanted) is not None]  # another game's type
            if whose:
                raise QueryError(
                    f"{quoted(term.text)}: {quoted(term.value)} is a {' and a '.join(whose)} card type, "
                    f"not {game}'s; {game} types are {', '.join(known)}"
                )
            raise QueryError(
                f"{quoted(term.text)}: unknown card type {quoted(term.value)}; types are {', '.join(known)}"
            )
        return _negate_if(term, _CARD.type.in_(sorted(names)))
    if key in ("game", "g"):
        value = fold(term.value)
        if value not in GAME_FIELDS:
            raise QueryError(f"{quoted(term.text)}: unknown game {quoted(term.value)}; games are mea, meio, meikyu")
        return _negate_if(term, _CARD.game == value)
    if key in ("set", "s", "e", "edition"):
        return _negate_if(term, func.lower(_CARD.set_code) == term.value.lower())
    if key in ("source", "src"):
        value = term.value.lower()
        expr = (
            _CARD.source.startswith(value, autoescape=True)
            if value in ("file", "file:")
            else or_(_CARD.source == value, _CARD.source == f"file:{value}")
        )
        return _negate_if(term, expr)
    if key == "is":
        flags = {
            "unknown": _CARD.unknown != "",
            "demo": _CARD.source == "demo",
            "rulebook": _CARD.source == "rulebook",
            "imported": _CARD.source.startswith("file:"),
        }
        if term.value.lower() not in flags:
            raise QueryError(f"{quoted(term.text)}: is: takes {', '.join(flags)}")
        return _negate_if(term, flags[term.value.lower()])
    if key == "unknown":
        field = _NUMERIC.get(term.value.lower(), _TEXT.get(term.value.lower(), term.value.lower()))
        fields_known = {f for fields in APPLICABLE.values() for f in fields}
        if field not in fields_known:
            raise QueryError(f"{quoted(term.text)}: unknown: takes a field name ({', '.join(sorted(fields_known))})")
        # the column lists the fields with commas: the field itself, never one whose name holds it
        # (``points`` is not ``developed_points``)
        listed = or_(
            _CARD.unknown == field,
            _CARD.unknown.startswith(f"{field},", autoescape=True),
            _CARD.unknown.endswith(f",{field}", autoescape=True),
            _CARD.unknown.contains(f",{field},", autoescape=True),
        )
        return _negate_if(term, listed)
    if key in _SETTINGS:
        raise QueryError(f"{quoted(term.text)} says how to read search results; it does not choose cards here")
    if key == "suit":
        suit = _SUITS.get(term.value.lower())
        if suit is None:
            raise QueryError(f"{quoted(term.text)}: suit is S, H, D or C (or spades, hearts, diamonds, clubs)")
        return _negate_if(term, _CARD.suit == suit)
    raise QueryError(f"unknown field {quoted(key)} in {quoted(term.text)}; fields are {KEYS_HELP}")


def _negate_if(term: Term, expr: ColumnElement[bool]) -> ColumnElement[bool]:
    return not_(_two_valued(expr)) if term.op == "!=" else expr


def compile_node(
    node: Node,
    game: str | None = None,
    *,
    negated: bool = False,
    ace_high: bool = True,
    entry_tags: EntryTags | None = None,
) -> ColumnElement[bool]:
    """The SQL condition (bound parameters only) for a parsed query; ``ace_high``: how a Meio
    ace compares (``rank>=10`` holds for it when it ranks high).

    Outside any negation an unknown (NULL) term already acts as false in WHERE, so only
    terms under a ``-`` are wrapped in ``coalesce(…, false)``; the rest stay plain, which
    lets SQL use indexes. ``entry_tags``: a deck's entry tags, which ``tag:`` matches beside the cards' own.
    """
    if isinstance(node, Term):
        expr = _compile_term(node, game, ace_high, entry_tags)
        return _two_valued(expr) if negated else expr
    if isinstance(node, Not):
        return not_(compile_node(node.item, game, negated=True, ace_high=ace_high, entry_tags=entry_tags))
    parts = [compile_node(n, game, negated=negated, ace_high=ace_high, entry_tags=entry_tags) for n in node.items]
    return and_(*parts) if isinstance(node, And) else or_(*parts)


_ORDER_KEYS = ("name", "set", "type", "game", *sorted(set(_NUMERIC)))
ORDER_KEYS = _ORDER_KEYS
"""The keys search results sort by (``order:KEY``, ``--order``)."""
DIRECTIONS = ("asc", "desc")


@dataclass(frozen=True, slots=True)
class Order:
    """How results are read and sorted: Scryfall's ``order:KEY`` and ``direction:asc|desc``, and
    whether a Meio ace ranks high (``ace:high``, the default) or low (``ace:low``)."""

    key: str = "name"
    direction: str = "asc"
    ace_high: bool = True


def check_order(key: str | None, direction: str | None, ace: str | None = None) -> Order:
    """``order``/``direction``/``ace`` as given (an option or a query term), checked; None is the default."""
    import difflib

    key = (key or "name").lower()
    direction = (direction or "asc").lower()
    ace = (ace or "high").lower()
    if ace not in ACES:
        raise QueryError(f"ace: {quoted(ace)} is not high or low")
    if key not in _ORDER_KEYS:
        near = difflib.get_close_matches(key, _ORDER_KEYS, n=1, cutoff=0.6)
        hint = f"did you mean {quoted(near[0])}? " if near else ""
        raise QueryError(f"order: {quoted(key)} is not a sort key; {hint}keys are {', '.join(_ORDER_KEYS)}")
    if direction not in DIRECTIONS:
        raise QueryError(f"direction: {quoted(direction)} is not asc or desc")
    return Order(key, direction, ace == "high")


def split_settings(node: Node) -> tuple[Node | None, dict[str, Term]]:
    """The query without its ``order:``, ``direction:`` and ``ace:`` terms, and those terms by
    key. They read the whole result, so they stand at the top level (not under ``-``, ``or`` or
    parentheses), once each: a second one would silently overrule the first."""
    items = node.items if isinstance(node, And) else (node,)
    given: dict[str, Term] = {}
    rest: list[Node] = []
    for item in items:
        if isinstance(item, Term) and item.key in _SETTINGS:
            if item.op != ":" or item.regex:
                raise QueryError(f"{quoted(item.text)}: write {item.key}:VALUE")
            if item.key in given:
                raise QueryError(
                    f"{quoted(given[item.key].text)} and {quoted(item.text)}: {item.key}: reads the whole result; "
                    "give it once"
                )
            given[item.key] = item
        else:
            _no_order_inside(item)
            rest.append(item)
    if not rest:
        return None, given
    return (rest[0] if len(rest) == 1 else And(tuple(rest))), given


def _no_order_inside(node: Node) -> None:
    if isinstance(node, Term):
        if node.key in _SETTINGS:
            raise QueryError(f"{quoted(node.text)} reads the whole result: put it outside '-', 'or' and parentheses")
        return
    for child in (node.item,) if isinstance(node, Not) else node.items:
        _no_order_inside(child)


def _order_by(order: Order) -> list[Any]:
    """Sort columns: the key (unknown values last either way), then game, name, set."""
    if order.key in ("name", "set", "type", "game"):
        column: Any = _CARD[{"name": "name", "set": "set_code", "type": "type", "game": "game"}[order.key]]
    elif _NUMERIC[order.key] == "rank":
        column = rank_value(order.ace_high)
    else:
        column = _CARD[_NUMERIC[order.key]]
    first = [column.desc() if order.direction == "desc" else column.asc()]
    if order.key not in ("name", "set", "type", "game"):  # those are never NULL: no term to stop an index
        first.insert(0, column.is_(None))
    ties = {"game": _CARD.game, "name": _CARD.name, "set": _CARD.set_code}
    return [*first, *(c for key, c in ties.items() if key != order.key)]  # a key sorted once


def build_select(
    query: str,
    game: str | None = None,
    limit: int | None = 50,
    order: str | None = None,
    direction: str | None = None,
    ace: str | None = None,
    offset: int = 0,
) -> Select[Any]:
    """A ``SELECT`` of the card table's columns for ``query`` (optionally within one game), sorted by
    ``order:``/``direction:`` in the query or by ``order``/``direction``, else by name; a Meio ace
    ranks as ``ace:`` in the query or ``ace`` says (``high`` or ``low``), else high. An option and the
    query's term of one setting must agree (:class:`SettingConflict`)."""
    node, sort = _parsed(query, order, direction, ace)
    return _select(node, sort, game, limit, offset)


def _select(
    node: Node | None, sort: Order, game: str | None, limit: int | None, offset: int, match: str | None = None
) -> Select[Any]:
    """The SELECT of ``build_select``; with ``match``, read from the cards the index finds for it."""
    stmt = _from_index(_ByShortId(_CARD_TABLE), match) if match else select(_CARD_TABLE)
    stmt = stmt.where(_condition(node, game, sort))
    stmt = stmt.order_by(*_order_by(sort))
    if limit is not None:
        stmt = stmt.limit(limit)
    if offset:
        stmt = stmt.offset(offset)
    return stmt


def _parsed(
    query: str, order: str | None = None, direction: str | None = None, ace: str | None = None
) -> tuple[Node | None, Order]:
    """The query's condition (None: every card) and how its results are read."""
    if not query.strip():
        return None, check_order(order, direction, ace)
    node, terms = split_settings(parse(query))
    check_order(order, direction, ace)  # the options as given: each a word a setting takes
    for key, option in (("order", order), ("direction", direction), ("ace", ace)):
        term = terms.get(key)
        if term is not None and option and not _same_setting(key, option, term.value):
            raise SettingConflict(key, option, term.text)
    settings = {key: term.value for key, term in terms.items()}
    sort = check_order(settings.get("order", order), settings.get("direction", direction), settings.get("ace", ace))
    return node, sort


def _same_setting(key: str, option: str, value: str) -> bool:
    """Whether an option and the query's term of that setting say the same (``cmc`` is ``cost``)."""
    option, value = option.strip().lower(), value.strip().lower()
    if key == "order":
        return _NUMERIC.get(option, option) == _NUMERIC.get(value, value)
    return option == value


class SettingConflict(QueryError):
    """An option saying how results are read (``--order``, the API's ``order``) given beside the same
    setting in the query (``order:cmc``), saying otherwise: which one was meant is not known, so
    neither wins. ``field`` is the web's parameter of that setting (named as the setting); the
    command line names its option (:meth:`said_as`)."""

    def __init__(self, key: str, given: str, term: str, option: str | None = None) -> None:
        self.key, self.given, self.term = key, given, term
        self.field = key
        said = option or f"{key}={given}"
        super().__init__(f"{said} and {quoted(term)} in the query differ: give one of them, or both the same")

    def said_as(self, option: str) -> SettingConflict:
        """This refusal naming the setting as ``option`` says it (``--order name``)."""
        return SettingConflict(self.key, self.given, self.term, option)


def check_query(query: str) -> None:
    """Refuse a query that no search could run, whatever the game and the cards (its syntax, its
    fields, how it is read): :class:`QueryError`, as a search would raise it."""
    node, sort = _parsed_once(query, None, None, None)
    if node is not None:
        compile_node(node, None, ace_high=sort.ace_high)


def _condition(node: Node | None, game: str | None, sort: Order) -> ColumnElement[bool]:
    condition = compile_node(node, game, ace_high=sort.ace_high) if node is not None else true()
    return and_(condition, _CARD.game == game) if game else condition


def search_cards(
    session: Reader,
    query: str,
    game: str | None = None,
    limit: int | None = 50,
    order: str | None = None,
    direction: str | None = None,
    ace: str | None = None,
    offset: int = 0,
) -> Sequence[Any]:
    """The cards matching ``query``, ordered by game and name, as rows with the card's columns as attributes.

    Rows, not ORM objects: building a SQLModel object per card costs more than the query. The plan
    is chosen per query: from the search index's candidates when it finds few, else a walk in the
    result's order that stops at the page's end. The statement's SQL is made once per query shape
    (``_statement``) and run on the driver's connection (``_run``).
    """
    node, sort = _parsed_once(query, order, direction, ace)
    match = _driven_by_index(session, node, None if limit is None else limit + offset)
    sql, args = _statement(_connection(session).dialect, node, sort, game, limit, offset, match)
    return _run(session, sql, args)


def count_cards(session: Reader, query: str, game: str | None = None, ace: str | None = None) -> int:
    """How many cards match ``query``."""
    node, sort = _parsed_once(query, None, None, ace)
    match = _driven_by_index(session, node)
    sql, args = _statement(_connection(session).dialect, node, sort, game, None, 0, match, count=True)
    return int(_run(session, sql, args)[0][0])


# --- the statements' SQL, made once per query shape ------------------------------------------

STATEMENTS_KEPT = 512
"""How many searches' parsed queries and SQL are kept (each a few kilobytes): a page of results
asked again, the next page, the same query from another client."""


@lru_cache(maxsize=STATEMENTS_KEPT)
def _parsed_once(query: str, order: str | None, direction: str | None, ace: str | None) -> tuple[Node | None, Order]:
    """``_parsed``, kept: the tree is immutable (frozen dataclasses), so one serves every call. A
    query that does not parse raises each time (``lru_cache`` keeps no exception)."""
    return _parsed(query, order, direction, ace)


@lru_cache(maxsize=STATEMENTS_KEPT)
def _statement(
    dialect: Any,
    node: Node | None,
    sort: Order,
    game: str | None,
    limit: int | None,
    offset: int,
    match: str | None,
    count: bool = False,
) -> tuple[str, Any]:
    """The SQL text and driver parameters of a search (``count``: of its count), keyed by the
    parsed query (its normal form: the same tree for the same terms however they were spaced),
    the game, the page and the plan. Building and compiling the SQLAlchemy statement costs more
    than running it on a thousand cards; the values are in the key, so the parameters are kept
    with the SQL."""
    if count:
        stmt = _from_index(_ByShortId(func.count()), match) if match else select(func.count())
        stmt = stmt.select_from(_CARD_TABLE).where(_condition(node, game, sort))
    else:
        stmt = _select(node, sort, game, limit, offset, match)
    compiled: Any = stmt.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
    params = compiled.construct_params()
    for name, process in compiled._bind_processors.items():  # none for text and numbers; kept general
        if name in params and params[name] is not None:
            params[name] = process(params[name])
    if compiled.positional:
        return compiled.string, tuple(params[name] for name in compiled.positiontup)
    return compiled.string, params


@lru_cache(maxsize=64)
def _row_type(columns: tuple[str, ...]) -> Any:
    """A named tuple of ``columns``: a row read as ``row.name`` (and ``row[0]``), as SQLAlchemy's rows are."""
    return namedtuple("CardRow", columns, rename=True)


def _run(reader: Reader, sql: str, args: Any) -> list[Any]:
    """Rows of ``sql`` run on the driver's connection within the reader's transaction (begun as
    SQLAlchemy begins it, so SQLite's ``BEGIN`` and lock wait are the same): no result objects,
    no statement cache key per call. A driver's error is raised as SQLAlchemy raises it
    (``OperationalError``, ``DataError``…), so callers see what they saw. On PostgreSQL the
    statement is never prepared (psycopg prepares a statement run five times): a prepared one
    may get a generic plan, made without the ``LIKE`` or regex pattern that decides whether the
    trigram indexes or the name order serve it best. (A precaution: the 246 ms the regex took at
    100,000 cards one morning was not reproduced, and a generic plan forced by hand still read
    the trigram indexes.)"""
    connection = _connection(reader)
    if not connection.in_transaction():
        connection.begin()
    dialect = connection.dialect
    cursor: Any = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        if dialect.name == "postgresql":
            cursor.execute(sql, args, prepare=False)
        else:
            cursor.execute(sql, args)
        rows = cursor.fetchall()
        columns = tuple(d[0] for d in cursor.description)
    except dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(sql, args, error, dialect.loaded_dbapi.Error, dialect=dialect) from error
    finally:
        cursor.close()
    make = _row_type(columns)._make
    return [make(row) for row in rows]


# --- the search index (``cardbase.db.search_index``) ------------------------------------------

FTS_CANDIDATES = 500
"""A query the SQLite index finds fewer candidates for than this is read from them (their rows,
sorted); otherwise from the name-ordered walk that stops at the page's last card. Reading a
candidate costs a few times a walked row, and a term on a third of 100,000 cards is met in the
first few hundred rows walked (the index would hand over 33,000)."""

_SEARCH_TABLE = table("card_search", column("rowid"))


def _phrase(column: str, value: str) -> str | None:
    """An FTS5 phrase for ``value`` in ``column``: the cards whose column holds it (three
    characters at least, else the trigram index cannot find it)."""
    if len(value) < 3 or any(c < " " for c in value.lstrip(TEXT_START)):
        return None
    return f'{column} : "{value.replace(chr(34), chr(34) * 2)}"'


def _all_of(*parts: str | None) -> str | None:
    kept = [p for p in parts if p]
    return " AND ".join(f"({p})" for p in kept) or None


def _regex_phrases(column: str, pattern: str, start: str | None) -> str | None:
    """Phrases every card whose ``column`` matches ``pattern`` holds there: its required literal,
    and, with ``start`` (what the index holds before the column's value, ``|`` or ``TEXT_START``),
    ``start`` and the literal a ``^`` anchors (``^gr`` → ``\\x02gr``, three characters)."""
    prefix = anchored_prefix(pattern) if start else ""
    anchored = _phrase(column, start + prefix) if start and prefix else None
    literal = required_literal(pattern)
    if literal and column == "search_names":  # folded names: whole words only (fold joins spaces)
        literal = max(literal.split(), key=len, default="")
    return _all_of(anchored, _phrase(column, literal or ""))


def _term_match(term: Term) -> str | None:
    """The FTS5 query of the cards ``term`` can hold (a superset of them), if the index can say."""
    if term.op == "!=":
        return None
    key = term.key
    if key is None or key in ("name", "n"):
        if term.regex:  # a name's regex is looked for in its folded names (a superset, see above)
            names = _regex_phrases("search_names", term.value, "|")
            if key is not None:
                return names
            texts = _regex_phrases("text", term.value, TEXT_START)
            return f"({names}) OR ({texts})" if names and texts else None
        wanted = fold(term.value)
        return _phrase("search_names", f"|{wanted}|" if term.exact or term.op == "=" else wanted)
    column = _TEXT.get(key)
    if column not in SEARCHED_COLUMNS:
        return None
    if term.regex:
        return _regex_phrases(column, term.value, TEXT_START if column == "text" else None)
    return _phrase(column, term.value)  # ``o=…`` too: the whole text holds what it equals


def index_match(node: Node) -> str | None:
    """The FTS5 query (SQLite's search index) whose cards include every card ``node`` matches, or
    None when the index cannot narrow it (a negation, an ``or`` with a side it cannot say, a
    number, a term of fewer than three characters)."""
    if isinstance(node, Term):
        return _term_match(node)
    if isinstance(node, Not):
        return None
    parts = [index_match(item) for item in node.items]
    if isinstance(node, And):
        return _all_of(*parts)
    return None if None in parts else " OR ".join(f"({p})" for p in parts)


_index_match_once = lru_cache(maxsize=STATEMENTS_KEPT)(index_match)


class _ByShortId(Select[Any]):
    """A SELECT from ``card`` that SQLite reads by the short-id index (``INDEXED BY``): the planner,
    which does not know how few cards the search index hands over, would walk the name index."""

    inherit_cache = True


@compiles(_ByShortId, "sqlite")
def _by_short_id_sqlite(element: _ByShortId, compiler: Any, **kw: Any) -> str:
    sql: str = compiler.visit_select(element, **kw)
    forced = sql.replace("\nFROM card \n", "\nFROM card INDEXED BY ix_card_short_id \n", 1)
    assert forced != sql, "the card table's FROM clause was not found"
    return forced


def _driven_by_index(session: Reader, node: Node | None, page_end: int | None = None) -> str | None:
    """The FTS5 query to read this search from (SQLite, with the index), when it finds few cards.

    ``page_end`` (the page's limit and offset; None: every match is read) lets a walk in name
    order serve a term whose candidates are many for the catalog, not only in number: the walk
    reads about ``page_end × cards / candidates`` rows of the order index before its page is
    full, each cheaper than a candidate (read by its short id, then sorted). A bare word on a
    sixth of 1,000 cards: the walk takes 0.26 ms, the candidates 0.70 ms (and Datasette's plan
    0.44 ms)."""
    if node is None:
        return None
    if not _has_fts(session):  # PostgreSQL's planner uses its pg_trgm indexes by itself
        return None
    match = _index_match_once(node)
    if match is None:
        return None
    found, cards = _probed(session, match)
    if found >= FTS_CANDIDATES:
        return None
    if page_end is not None and page_end * cards <= WALK_PER_CANDIDATE * found * found:
        return None
    return match


def _probed(session: Reader, match: str) -> tuple[int, int]:
    """``_PROBE``'s answer for ``match``, kept per engine while the catalog's stamp
    (``cardbase.db.stamps``: renewed by every transaction that writes cards) is the same: asking
    the index again costs more than the rest of a search of 1,000 cards (0.2 of 0.8 ms). Only the
    plan depends on it, never the results: a write the stamp misses (another tool's) can make a
    plan slower, not a page different."""
    connection = _connection(session)
    stamp = _run(session, _STAMP, ())
    key = (stamp[0][0] if stamp else None, match)
    with _PROBES_LOCK:
        kept = _PROBES.setdefault(connection.engine, OrderedDict())
        found = kept.get(key)
        if found is not None:
            kept.move_to_end(key)
            return found
    count, cards = _run(session, _PROBE, (match,))[0]
    found = (int(count), int(cards or 0))
    with _PROBES_LOCK:
        kept[key] = found
        while len(kept) > STATEMENTS_KEPT:
            kept.popitem(last=False)
    return found


_STAMP = "SELECT value FROM meta WHERE key = 'stamp:cards'"
_PROBES: weakref.WeakKeyDictionary[Any, OrderedDict[tuple[str | None, str], tuple[int, int]]] = (
    weakref.WeakKeyDictionary()
)
_PROBES_LOCK = threading.Lock()

WALK_PER_CANDIDATE = 3
"""Rows of the order index walked for the cost of one candidate read from the search index
(a candidate: a look-up by short id, the card's row, a place in the sort; measured at 1,000 cards)."""

_PROBE = (
    f"SELECT (SELECT count(*) FROM (SELECT rowid FROM card_search WHERE card_search MATCH ? LIMIT {FTS_CANDIDATES})), "
    "(SELECT max(rowid) FROM card)"
)
"""How many candidates (up to ``FTS_CANDIDATES``) SQLite's index finds for an FTS5 query, and
about how many cards there are (the card table's largest rowid: no count, a look-up)."""


def cards_named(session: Reader, keys: Collection[str]) -> ColumnElement[bool]:
    """The cards one of whose folded names (name, aliases, land name) is one of ``keys``; read from
    the search index when the database has one (a deck's names, not the whole catalog)."""
    wanted = sorted(keys)
    exact = or_(false(), *(_CARD.search_names.contains(f"|{key}|", autoescape=True) for key in wanted))
    phrases = [_phrase("search_names", f"|{key}|") for key in wanted]
    if not wanted or None in phrases or not _has_fts(session):
        return exact if wanted else false()
    hits = select(_SEARCH_TABLE.c.rowid).where(
        text("card_search MATCH :names").bindparams(names=" OR ".join(p for p in phrases if p))
    )
    return and_(_CARD.short_id.in_(hits), exact)


def _connection(reader: Reader) -> Connection:
    return reader if isinstance(reader, Connection) else reader.connection()


def _has_fts(session: Reader) -> bool:
    """Whether the session's database is SQLite with its FTS5 search index."""
    connection = _connection(session)
    if connection.dialect.name != "sqlite":
        return False
    if "search_index" not in connection.info:
        connection.info["search_index"] = search_index.kind(connection)
    return bool(connection.info["search_index"] == "fts5")


def _from_index(stmt: Select[Any], match: str) -> Select[Any]:
    """``stmt`` (a ``_ByShortId``) limited to the cards the index finds for ``match``."""
    hits = select(_SEARCH_TABLE.c.rowid).where(text("card_search MATCH :match").bindparams(match=match))
    return stmt.where(_CARD.short_id.in_(hits))
