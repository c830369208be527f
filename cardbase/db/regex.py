"""The ``/regex/`` terms of the search language, run by RE2.

RE2 matches in time linear in the text, whatever the pattern, so no query can hang a search
(Python's ``re`` backtracks: ``/^(\\w+\\s?)+#/`` over a 40-letter name takes minutes). The price
is RE2's syntax: no backreferences and no lookaround, which a card search does not need; such a
pattern is refused with a ``QueryError`` that says so. ``\\w`` and ``\\d`` are ASCII in RE2; use
``\\pL`` for any letter. It is one language on both databases: SQLite calls RE2 (``regexp``),
PostgreSQL is given the pattern translated to its own engine's syntax (``postgresql_pattern``), and
``check_pattern`` refuses, before any SQL runs, what either could not run alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardbase.errors import QueryError, counted

MAX_PATTERN_LENGTH = 500


def _options() -> Any:
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print its own copy of the error on stderr
    options.max_mem = 8 << 20  # bounds the compiled program, and so the work per character
    return options


@lru_cache(maxsize=256)
def compile_pattern(pattern: str, shown: str | None = None) -> Any:
    """The compiled RE2 program for ``pattern``; a pattern RE2 cannot run is a ``QueryError`` that
    quotes ``shown`` (the user's pattern, without the flags put in front of it), or ``pattern``."""
    import re2

    try:
        return re2.compile(pattern, options=_options())
    except re2.error as error:
        reason = error.args[0].decode() if error.args and isinstance(error.args[0], bytes) else str(error)
        raise QueryError(
            f"bad regular expression /{shown or pattern}/: {reason} (searches use RE2 syntax, which runs in linear "
            "time: no backreferences or lookaround)"
        ) from None


def regexp(pattern: str, value: str | None) -> bool | None:
    """SQLite's ``REGEXP`` function: whether ``pattern`` occurs in ``value`` (NULL for NULL)."""
    return None if value is None else compile_pattern(pattern).search(value) is not None


# --- one regex language on PostgreSQL -------------------------------------------------------------
#
# PostgreSQL runs a regex on its own engine (Spencer's AREs), whose syntax and meaning part from
# RE2's: no ``\pL``; ``\w``, ``\d``, ``[[:alpha:]]`` and case folding follow the database's locale;
# ``(?i)`` only at the very start; repeats up to 255. So a search never hands it the user's pattern:
# ``postgresql_pattern`` translates the pattern as RE2 reads it (RE2 has accepted it first) into an
# ARE matched case-sensitively (``~``) with every set of characters spelt out, code point by code
# point: each class (``[…]``, ``\d``, ``\pL``…) and each letter under ``(?i)`` becomes the set RE2
# itself matches, read by running RE2 over every code point. The ARE then matches the same texts
# whatever the locale: the two databases find the same cards.

_LAST = 0x10FFFF
_ASCII_WORD = "[0-9A-Z_a-z]"
_NEVER = "[^\\u0001-\\U0010FFFF]"
"""A character no text holds (PostgreSQL's text has no NUL): a set RE2 matches nothing of."""


class UnsupportedRegex(QueryError):
    """A construct of RE2's syntax that searches do not take (on either database)."""


def _code_point(index: int) -> int:
    """The code point at ``index`` of ``_every_character()`` (which skips NUL and the surrogates)."""
    return index + 1 if index + 1 < 0xD800 else index + 1 + 0x800


@lru_cache(maxsize=1)
def _every_character() -> str:
    return "".join(map(chr, range(1, 0xD800))) + "".join(map(chr, range(0xE000, _LAST + 1)))


@lru_cache(maxsize=1024)
def _scanned(source: str, fold: bool) -> tuple[tuple[int, int], ...]:
    """The code points (as ranges) the one-character RE2 expression ``source`` matches, with or
    without ``(?i)``: RE2 run over every character, so the set is RE2's own (its Unicode tables,
    its case folding, its newline rule for negated classes)."""
    import re2

    program = re2.compile(("(?i)" if fold else "(?-i)") + f"(?:{source})+", options=_options())
    return tuple((_code_point(m.start()), _code_point(m.end() - 1)) for m in program.finditer(_every_character()))


_CASED_BELOW = 0x20000
"""Every character with a case is below it (the last, in Unicode 15, is Adlam's U+1E943)."""


@lru_cache(maxsize=1)
def _cased() -> str:
    """Every character with another case (Python's tables), and those cases: where RE2's ``(?i)``
    can find a letter's other forms. Read by blocks of 256, a caseless block (most) at once."""
    found: set[str] = set()
    for block in range(0, _CASED_BELOW, 256):
        chars = "".join(map(chr, range(block, block + 256)))
        if chars.lower() == chars == chars.upper():
            continue
        for char in chars:
            others = {x for x in (char.lower(), char.upper(), char.title(), char.casefold()) if len(x) == 1}
            if others - {char}:
                found |= others | {char}
    return "".join(sorted(found))


@lru_cache(maxsize=4096)
def _folded(code: int) -> tuple[int, ...]:
    """The characters RE2's ``(?i)`` matches for the letter ``code`` (itself, if it has no case)."""
    import re2

    char = chr(code)
    if char not in _cased():
        return (code,)
    program = re2.compile(f"(?i)\\x{{{code:x}}}", options=_options())
    return tuple(sorted({ord(m.group()) for m in program.finditer(_cased())} | {code}))


def _escaped(code: int) -> str:
    char = chr(code)
    if char.isascii() and char.isalnum():
        return char
    return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


def _bracket(ranges: tuple[tuple[int, int], ...]) -> str:
    """An ARE bracket expression of ``ranges`` (code points, NUL left out: no text holds it)."""
    kept = [(max(lo, 1), hi) for lo, hi in ranges if hi >= 1]
    if not kept:
        return _NEVER
    if len(kept) == 1 and kept[0][0] == kept[0][1]:
        return _escaped(kept[0][0])
    parts = []
    for lo, hi in kept:
        if lo == hi:
            parts.append(_escaped(lo))
        elif hi == lo + 1:
            parts.append(_escaped(lo) + _escaped(hi))
        else:
            parts.append(f"{_escaped(lo)}-{_escaped(hi)}")
    return "[" + "".join(parts) + "]"


def _literal(code: int, fold: bool) -> str:
    if not fold:
        return _escaped(code) if code else _NEVER
    return _bracket(tuple((c, c) for c in _folded(code)))


@dataclass
class _Flags:
    fold: bool = True  # a search ignores case (its pattern is read after ``(?i)``)
    multiline: bool = False
    dotall: bool = False


@dataclass
class _Atom:
    text: str
    single: bool = True  # one character, a bracket or a group: a repeat may follow it as it is
    looks: int = 0  # the lookarounds in it (``\\b``, ``\\B``, ``^`` and ``$`` under ``(?m)``), repeats counted


MAX_LOOKAROUNDS = 16
"""``\\b``, ``\\B`` and ``(?m)``'s ``^`` and ``$`` become lookarounds in PostgreSQL's ARE, whose
compiler grows with the ways they can follow one another: 18 ``\\b`` in a row are "too complex" for
it. A pattern may hold 16 (a repeat counts its copies: ``(\\bx){4}`` is 4), on either database."""


_HEX = "0123456789abcdefABCDEF"
_SIMPLE_ESCAPES = {"a": 7, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}


class _Translator:
    """RE2's parser (``re2/parse.cc``) retold, for patterns RE2 has accepted, writing an ARE."""

    def __init__(self, pattern: str, spell: bool = True):
        self.p = pattern
        self.i = 0
        self.spell = spell  # False: only read the pattern (a check), write no sets

    def refuse(self, construct: str, why: str) -> UnsupportedRegex:
        return UnsupportedRegex(f"{construct} is not supported in a search's regular expressions ({why})")

    def chars(self, source: str, fold: bool) -> str:
        return _bracket(_scanned(source, fold)) if self.spell else "."

    def literal(self, code: int, fold: bool) -> str:
        return _literal(code, fold) if self.spell else "."

    def peek(self, ahead: int = 0) -> str:
        at = self.i + ahead
        return self.p[at] if at < len(self.p) else ""

    def translate(self) -> str:
        out = self.alternation(_Flags())
        if self.i != len(self.p):  # an unmatched ``)``: RE2 refuses it first
            raise self.refuse(repr(self.p[self.i]), "it does not parse")
        if out.looks > MAX_LOOKAROUNDS:
            raise UnsupportedRegex(
                f"{out.looks} word boundaries and line anchors (\\b, \\B, and ^ $ under (?m)) are more than a "
                f"search's regular expression may hold (at most {MAX_LOOKAROUNDS}, each copy of a repeat counted)"
            )
        return out.text

    def alternation(self, flags: _Flags) -> _Atom:
        branches: list[str] = []
        items: list[_Atom] = []
        looks = 0
        while self.i < len(self.p):
            c = self.p[self.i]
            if c == ")":
                break
            if c == "|":
                branches.append("".join(a.text for a in items))
                looks += sum(a.looks for a in items)
                items = []
                self.i += 1
            elif c in "*+?":
                self.i += 1
                low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
                self.repeat(items, low, high)
            elif c == "{" and (counts := self.counts()) is not None:
                self.repeat(items, *counts)
            elif c == "(":
                self.group(items, flags)
            elif self.p.startswith(
                "\\Q", self.i
            ):  # literal text to \E: each character an atom (a repeat takes the last)
                end = self.p.find("\\E", self.i + 2)
                end = len(self.p) if end < 0 else end
                items.extend(_Atom(self.literal(ord(ch), flags.fold)) for ch in self.p[self.i + 2 : end])
                self.i = min(end + 2, len(self.p))
            else:
                items.append(self.atom(flags))
        branches.append("".join(a.text for a in items))
        looks += sum(a.looks for a in items)
        if len(branches) == 1:
            return _Atom(branches[0], looks=looks)
        return _Atom("|".join(f"(?:{b})" if b else "(?:)" for b in branches), looks=looks)

    def counts(self) -> tuple[int, int | None] | None:
        """``{n}``, ``{n,}`` or ``{n,m}`` here (read past it), else None: a ``{`` is then a literal."""
        import re

        m = re.compile(r"\{(\d+)(,(\d*))?\}").match(self.p, self.i)
        if m is None:
            return None
        self.i = m.end()
        low = int(m.group(1))
        high = low if m.group(2) is None else (int(m.group(3)) if m.group(3) else None)
        return low, high

    def repeat(self, items: list[_Atom], low: int, high: int | None) -> None:
        if self.peek() == "?":  # lazy: which match is found does not matter, only whether one is
            self.i += 1
        if not items:
            raise self.refuse("a repeat of nothing", "it does not parse")
        atom = items.pop()
        base = atom.text if atom.single else f"(?:{atom.text})"
        copies = max(low + 1 if high is None else high, 1)
        items.append(_Atom(_repeated(base, low, high), single=False, looks=atom.looks * copies))

    def group(self, items: list[_Atom], flags: _Flags) -> None:
        p = self.p
        self.i += 1
        inner = _Flags(flags.fold, flags.multiline, flags.dotall)
        if p.startswith("?", self.i):
            if p.startswith(("?P<", "?<"), self.i):  # a named group: its name is no matter here
                self.i = p.index(">", self.i) + 1
            else:
                self.i += 1
                on = True
                while True:
                    c = self.peek()
                    self.i += 1
                    if c == "-":
                        on = False
                    elif c == "i":
                        inner.fold = on
                    elif c == "m":
                        inner.multiline = on
                    elif c == "s":
                        inner.dotall = on
                    elif c == "U":  # ungreedy: no matter to whether a text matches
                        pass
                    elif c == ")":  # ``(?flags)``: for the rest of the enclosing group
                        flags.fold, flags.multiline, flags.dotall = inner.fold, inner.multiline, inner.dotall
                        return
                    elif c == ":":
                        break
                    else:
                        raise self.refuse(f"(?{c}", "it does not parse")
        body = self.alternation(inner)
        if self.peek() != ")":
            raise self.refuse("an unclosed group", "it does not parse")
        self.i += 1
        items.append(_Atom(f"(?:{body.text})", looks=body.looks))

    def atom(self, flags: _Flags) -> _Atom:
        p = self.p
        c = p[self.i]
        if c == "^":
            self.i += 1
            return _Atom("(?<![^\\u000A])", False, 1) if flags.multiline else _Atom("\\A", single=False)
        if c == "$":
            self.i += 1
            return _Atom("(?![^\\u000A])", False, 1) if flags.multiline else _Atom("\\Z", single=False)
        if c == ".":
            self.i += 1
            return _Atom("." if flags.dotall else "[^\\u000A]")
        if c == "[":
            start = self.i
            self.skip_class()
            return _Atom(self.chars(p[start : self.i], flags.fold))
        if c != "\\":
            self.i += 1
            return _Atom(self.literal(ord(c), flags.fold))
        e = self.peek(1)
        if e in "bB":
            self.i += 2
            w = _ASCII_WORD
            if e == "b":
                return _Atom(f"(?:(?<={w})(?!{w})|(?<!{w})(?={w}))", single=False, looks=1)
            return _Atom(f"(?:(?<={w})(?={w})|(?<!{w})(?!{w}))", single=False, looks=1)
        if e == "A":
            self.i += 2
            return _Atom("\\A", single=False)
        if e == "z":
            self.i += 2
            return _Atom("\\Z", single=False)
        if e == "C":
            raise self.refuse("\\C", "it matches one byte of a character's UTF-8; use . for a character")
        if e in "pPdDsSwW":
            start = self.i
            self.skip_class_escape()
            return _Atom(self.chars(p[start : self.i], flags.fold))
        return _Atom(self.literal(self.escape(), flags.fold))

    def escape(self) -> int:
        """The code point of the character escape here (``\\n``, ``\\x41``, ``\\101``, ``\\.``), read past."""
        p = self.p
        self.i += 1  # the backslash
        c = self.peek()
        self.i += 1
        if "0" <= c <= "7":
            digits = c
            while len(digits) < 3 and "0" <= self.peek() <= "7" and self.peek():
                digits += self.peek()
                self.i += 1
            return int(digits, 8)
        if c == "x":
            if self.peek() == "{":
                end = p.index("}", self.i)
                code = int(p[self.i + 1 : end], 16)
                self.i = end + 1
                return code
            code = int(p[self.i : self.i + 2], 16)
            self.i += 2
            return code
        if c in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[c]
        if c and c.isascii() and not c.isalnum():
            return ord(c)
        raise self.refuse(f"\\{c}", "it does not parse")

    def skip_class_escape(self) -> None:
        """Past ``\\d`` (and the other Perl classes) or ``\\pL``, ``\\p{Greek}``, ``\\P{^Greek}``."""
        e = self.peek(1)
        self.i += 2
        if e in "pP":
            if self.peek() == "{":
                self.i = self.p.index("}", self.i) + 1
            else:
                self.i += 1

    def skip_char(self) -> None:
        if self.peek() == "\\":
            self.escape()
        else:
            self.i += 1

    def skip_class(self) -> None:
        """Past a bracketed class, read as RE2 reads it (its set is then RE2's to say)."""
        p = self.p
        self.i += 1
        if self.peek() == "^":
            self.i += 1
        first = True
        while self.i < len(p) and (p[self.i] != "]" or first):
            first = False
            if p.startswith("[:", self.i) and (end := p.find(":]", self.i + 2)) >= 0:
                self.i = end + 2
                continue
            if self.peek() == "\\" and self.peek(1) in "pPdDsSwW" and self.peek(1):
                self.skip_class_escape()
                continue
            self.skip_char()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.i += 1
                self.skip_char()
        if self.peek() != "]":
            raise self.refuse("an unclosed class", "it does not parse")
        self.i += 1


_MAX_COUNT = 255
"""The most an ARE's ``{n,m}`` counts; RE2 counts to 1,000."""


def _repeated(base: str, low: int, high: int | None) -> str:
    """``base`` repeated ``low`` to ``high`` (None: no end) times, in counts of at most 255."""
    parts = []
    if low == 0 and high is None:
        return base + "*"
    if high is None:  # {n,}: n times, then any number
        return _repeated(base, low, low) + base + "*"
    fixed, spare = low, high - low
    while fixed > _MAX_COUNT:
        parts.append(f"{base}{{{_MAX_COUNT}}}")
        fixed -= _MAX_COUNT
    if fixed:
        parts.append(base if fixed == 1 else f"{base}{{{fixed}}}")
    while spare > _MAX_COUNT:
        parts.append(f"{base}{{0,{_MAX_COUNT}}}")
        spare -= _MAX_COUNT
    if spare:
        parts.append(f"{base}?" if spare == 1 else f"{base}{{0,{spare}}}")
    return f"(?:{''.join(parts)})" if parts else "(?:)"


@lru_cache(maxsize=256)
def check_pattern(pattern: str) -> None:
    """Refuse, before any SQL runs, a pattern RE2 refuses or a construct a search does not take
    (``UnsupportedRegex``): the same on both databases."""
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise QueryError(
            f"regular expression of {counted(len(pattern), 'character')} is too long (at most {MAX_PATTERN_LENGTH})"
        )
    compile_pattern("(?i)" + pattern, pattern)
    _Translator(pattern, spell=False).translate()


@lru_cache(maxsize=256)
def postgresql_pattern(pattern: str) -> str:
    """The ARE PostgreSQL's ``~`` (case-sensitive) matches exactly where RE2 matches ``(?i)`` +
    ``pattern`` (``check_pattern`` has passed it)."""
    check_pattern(pattern)
    return _Translator(pattern).translate()
