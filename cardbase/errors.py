"""Errors a user can cause, each with the exit code the CLI gives it.

Exit codes follow one convention across every command: 1 means the input was
read and checked and found invalid; 2 means it could not be read, or the
command was used wrongly. ``cardbase.cli.boundary`` turns each into one line.

    CardbaseError                 (exit 2 unless said)
    ├── UsageError                a bad option, argument or combination
    │   └── Refused               exit 1: a request read well but refused by a check of what the database
    │       │                     holds (a card not in the deck, a deck over its bound)
    │       └── Conflict          exit 1: the database holds what the command would make (a deck name taken)
    │           └── Stale         exit 1: the thing changed since the version a change was made from
    ├── UnreadableInput           a file that cannot be read or parsed (missing, folder, device,
    │                             too large, binary, not UTF-8, bad JSON/TOML, nested too deeply)
    ├── QueryError                a search query that does not parse; names the term
    ├── DatabaseError             a database that cannot be used (foreign, damaged, newer,
    │   │                         read-only, unreachable)
    │   └── DatabaseBusy          a lock (or a pooled connection) not had within its wait: try again
    ├── WorkerStopped             a worker process ended without its result (killed, out of memory)
    │   └── ServerStopping        work sent to a server's worker as the server stops
    ├── UnknownCard               exit 1: a card name not in the catalog, with the closest names
    ├── InvalidData               exit 1: a file read but holding invalid rows, every one listed
    ├── InvalidRecord             exit 1: a game record that breaks the rules; names line and rule
    └── Interrupted               exit 130: Ctrl-C; says what had finished and where it was saved

The rules raise their own ``GameError`` family (``cardbase.games.base``); ``mask_secrets`` keeps
passwords out of every message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    from cardbase.decks.model import Problem
    from cardbase.fuzzy import Near


class CardbaseError(Exception):
    """Base of every error a user can cause; the CLI prints its message, no traceback."""

    exit_code: int = 2
    value: object = None
    """The text a user gave that the error refuses, as it was given, when it is one value (a card's or
    a deck's name): where it was given is known only where it entered, so the command line names the
    parameter given that text (``app.strict_parameters``). Set by :meth:`refusing`."""
    values: tuple[object, ...] = ()
    """The texts a user gave that the error refuses, when it refuses several at once (an ``InvalidData``
    of a card's fields: each bad field's text), as :attr:`value` is one. Set by :meth:`refusing`."""
    field: str | None = None
    """The input (a web form's field, a JSON body's path) given :attr:`value`, once a boundary that
    knows the inputs has named it (``web.errors.naming_field``); the API's error says it as ``field``."""
    fields: tuple[str, ...] = ()
    """Every input named so (:attr:`field` is the first), when the error refuses :attr:`values`."""
    named: str | None = None
    """How the boundary named the inputs, ``Invalid value for 'text'``: the start of the message, which a
    page that shows the error's problems itself shows above them."""
    listed: tuple[str, tuple[str, ...]] | None = None
    """A message that lists items: its first line and the items, which the CLI shows as lines of their
    own below it (every other message is one line: a line break in a path it quotes is shown as ``\\n``)."""
    said: str | None = None
    """The message in players' words where the raiser knows them and they differ from the command
    line's (a game by its display name, a form's field instead of an option, a page instead of a
    command): what a page shows (``web.errors.for_pages``), and the API's ``text``. Set by :meth:`saying`."""

    option: str | None = None
    """The option whose value the error refuses (a rules option's name, ``ace_high``), as data: the
    message names it as the command line does; a face names it as it shows it. Set by :meth:`taking`."""
    option_value: object = None
    """The value of :attr:`option` refused, as it was read."""
    choices: tuple[str, ...] = ()
    """The values :attr:`option` takes, when it takes one of a few (``yes``, ``no``; a choice's words)."""
    reason: str | None = None
    """What is wrong with :attr:`option_value`, in words that name no option, said after the value
    (``is not a whole number``), when :attr:`choices` do not say it."""
    options: tuple[str, ...] = ()
    """The options whose values the error refuses together (two that contradict each other), as
    :attr:`option` is the one whose value it refuses alone; :attr:`said` words the refusal."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        if args and isinstance(args[0], Said):  # a message that carries its players' words
            self.said = args[0].said

    def __reduce__(self) -> tuple[Any, ...]:
        """A pickle (an error crossing from a worker process) that rebuilds the error as it is, not by
        calling its ``__init__`` with its message (which takes other arguments in ``InvalidData``,
        ``UnknownCard``: a ``TypeError`` in the pool's thread, or a message quoted in itself)."""
        return (_rebuilt, (type(self), self.args, self.__dict__))

    def saying(self, text: str) -> Self:
        """This error, said to players as ``text`` (:attr:`said`) where the command line's message names
        a game by its id, an option or a command."""
        self.said = text
        return self

    def taking(self, option: str, given: object, choices: Sequence[str] = (), reason: str | None = None) -> Self:
        """This error, refusing ``given`` for ``option``, which takes one of ``choices`` (none: not a
        list of values), or of which ``reason`` says what is wrong: the data a page says it from
        (:attr:`option`), the message left as it is."""
        self.option, self.option_value, self.choices, self.reason = option, given, tuple(choices), reason
        return self

    def refusing(self, value: object, *more: object) -> Self:
        """This error, about the text ``value`` a user gave (:attr:`value`), or about each of several
        (``value`` and ``more``: :attr:`values`)."""
        if more:
            self.values = (value, *more)
        else:
            self.value = value
        return self

    def _listing(self, head: str, items: list[str], limit: int) -> str:
        """The message ``head`` with ``items`` below it (at most ``limit``, then how many more), kept in
        ``listed`` too."""
        shown_items = [*items[:limit], *([f"… and {len(items) - limit} more"] if len(items) > limit else [])]
        self.listed = (head, tuple(shown_items))
        message = "\n".join([head, *(f"  {item}" for item in shown_items)])
        if not any(isinstance(line, Said) for line in (head, *shown_items)):
            return message
        # a line in players' words (a hint that names a command): the whole listing in them too (``said``)
        return Said(message, "\n".join([said_of(head), *(f"  {said_of(item)}" for item in shown_items)]))


def _rebuilt(cls: type[CardbaseError], args: tuple[object, ...], state: dict[str, Any]) -> CardbaseError:
    """The error :meth:`CardbaseError.__reduce__` pickled: its arguments and attributes, no ``__init__`` run."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class UsageError(CardbaseError, ValueError):
    """A bad option, argument or combination of them."""

    exit_code = 2


class Refused(UsageError):
    """A request that was read and understood, refused by a check against what the database holds
    (a card that is not in the deck, an edit the card does not have, a deck that would go over its
    bound): checked and invalid, exit 1. A usage error still (a 400 on the web, as before)."""

    exit_code = 1


class Conflict(Refused):
    """What the command would make is already there (a deck name another deck has)."""


class Stale(Conflict):
    """A change made from a version of a thing (``kind`` ``key``: a deck and its id) that is no longer
    its current one (``current``)."""

    def __init__(self, message: str, current: int, kind: str = "", key: int | str = ""):
        self.current = current
        self.kind = kind
        self.key = key
        super().__init__(message)


class UnreadableInput(CardbaseError, ValueError):
    """A file that cannot be read or parsed at all."""

    exit_code = 2


class OutputFailed(CardbaseError):
    """An output the system would not take (standard output on a full disk): exit 2, as an output
    path that cannot be written. Not a ``ValueError``: no reader's ``except ValueError`` may take it."""

    exit_code = 2


class QueryError(CardbaseError, ValueError):
    """A search query that does not parse; the message names the offending term."""

    exit_code = 2


class UnknownCard(CardbaseError, LookupError):
    """A card name that is not in the catalog; carries the closest names."""

    exit_code = 1

    def __init__(
        self,
        name: str,
        game: str | None = None,
        suggestions: Sequence[str | Near] | None = None,
        elsewhere: Sequence[str] = (),
    ):
        """``suggestions``: the names it may mean (``cardbase.fuzzy.closest_cards``: one of another game
        says which). ``elsewhere``: the other games that have a card of this name (a card of another
        game is said to be one, as a deck line naming it is)."""
        from cardbase.catalog.fields import GAME_NAMES
        from cardbase.fuzzy import near_text

        self.name = name
        self.game = game
        self.suggestions = list(suggestions or [])
        self.elsewhere = tuple(elsewhere)
        self.given = bool(name.strip())  # blank: no card was asked for (a bad request, not a card not there)
        self.value = name if self.given else None  # a blank text is no field's to name
        if not self.given:
            super().__init__("no card is given: its name or id is empty")
            return
        if game and self.elsewhere:
            super().__init__(of_other_games(name, self.elsewhere, game))
            self.said = of_other_games(name, self.elsewhere, game, lambda g: GAME_NAMES.get(g, g))
            return

        def unknown(named: Callable[[str], str]) -> str:
            where = f" in {named(game)}" if game else ""
            hint = f"; did you mean {near_text(self.suggestions, named)}?" if self.suggestions else ""
            return f"unknown card {quoted(name)}{where}{hint}"

        super().__init__(unknown(str))
        if (said := unknown(lambda g: GAME_NAMES.get(g, g))) != str(self):
            self.said = said


def and_list(items: Sequence[str]) -> str:
    """``items`` as said in a sentence: "P1", "P1 and P3", "P1, P3 and P4"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}" if items else ""


def of_other_games(name: str, games: Sequence[str], other_than: str, named: Callable[[str], str] = str) -> str:
    """What a card name of ``games`` but not of ``other_than`` is, the one wording of every face (a
    lookup, a deck line, a collection line, a card added to a deck): ``'Grimoire' is a meikyu card, not
    mea``; of two games, ``is a meikyu and a meio card`` (two cards, one of each). ``named`` words a
    game (its id, or its display name for players)."""
    return f"{quoted(name)} is a {' and a '.join(map(named, games))} card, not {named(other_than)}"


class InvalidData(CardbaseError, ValueError):
    """A file that was read but holds invalid rows; every problem is listed."""

    exit_code = 1

    def __init__(self, source: str, problems: list[str], *, writes: bool = True, found: Sequence[Problem] = ()) -> None:
        self.source = source
        self.problems = problems
        self.found: tuple[Problem, ...] = tuple(found)
        """The problems as data, when they are a deck's (``decks.model.Problem``, one for each line
        of :attr:`problems`): what a page words for players itself (the game's display name, a
        link for a hint), while the command line prints :attr:`problems`."""
        written = ", nothing was written" if writes else ""
        super().__init__(self._listing(f"{source}: {counted(len(problems), 'problem')}{written}:", problems, 200))


class DatabaseError(CardbaseError):
    """A database that cannot be opened or is of an unknown (newer) schema."""

    exit_code = 2


class DatabaseBusy(DatabaseError):
    """A lock (or a pooled connection) not had within its wait; the same write may succeed later."""


class InvalidRecord(CardbaseError, ValueError):
    """A game record that was read but breaks the rules: an illegal or unreadable
    action, or an outcome that replaying does not reproduce. Names the line, the
    action's number, the player and the rule."""

    exit_code = 1

    def __init__(
        self,
        source: str,
        message: str,
        line: int | None = None,
        number: int | None = None,
        player: str | None = None,
    ):
        self.source = source
        self.line = line
        self.number = number
        self.player = player
        self.reason = message
        where = f"{source} line {line}" if line is not None else source
        super().__init__(f"{where}: {message}")


class WorkerStopped(CardbaseError):
    """A worker process of a command ended without giving its result (killed, out of memory)."""

    exit_code = 2


class ServerStopping(WorkerStopped):
    """Work sent to a server's worker after the server began to stop: not its fault, nor the
    request's; a 503 (try again once the server is back)."""


class Interrupted(CardbaseError):
    """Ctrl-C during a long command; the message says what had finished and where it was saved."""

    exit_code = 130


class Said(str):
    """A line of a message (an ``InvalidData`` problem) in the command line's words, carrying the same
    line in players' words (:attr:`said`) where it names a command: the line as a page shows it
    (:func:`said_of`). Anything that makes a new text of it (a prefix added) keeps only the command
    line's words: :func:`prefixed` keeps both."""

    said: str

    def __new__(cls, text: str, said: str) -> Said:
        line = super().__new__(cls, text)
        line.said = said
        return line

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]  # a copy, a pickle keep both
        return (str(self), self.said)


def said_of(line: str) -> str:
    """``line`` in players' words: its :attr:`Said.said`, else the line itself."""
    return line.said if isinstance(line, Said) else line


def prefixed(prefix: str, line: str) -> str:
    """``prefix`` and ``line`` as one line, keeping its players' words (:class:`Said`) if it has them."""
    return Said(prefix + line, prefix + line.said) if isinstance(line, Said) else prefix + line


QUOTE_LIMIT = 200
"""The most characters of a user's text a message quotes (``quoted``): any card name (at most 200); a
longer text is cut there and its length given."""


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as a message quotes it: its ``repr``, cut after ``limit`` characters with ``…`` and
    the whole length, so that a message about a 100,000-letter word stays one short line."""
    if isinstance(text, int) and text.bit_length() > 4 * limit:  # repr of over 4,300 digits raises
        digits = int(text.bit_length() * 0.30103)
        return f"a whole number of about {digits:,} {plural(digits, 'digit')}"
    if not isinstance(text, str):
        shown = repr(text)
        return shown if len(shown) <= limit else f"{shown[:limit]}… ({type(text).__name__})"
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} {plural(len(text), 'character')})"


def counted(n: int, noun: str, plural: str | None = None, zero: str | None = None) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: ``1 row``, ``0 rows``, ``2 copies``; with
    ``zero``, that word for none (``zero="no"``: ``no cards``)."""
    return f"{zero if n == 0 and zero is not None else n} {noun if n == 1 else plural or noun + 's'}"


def number_text(value: float) -> str:
    """``value`` written out as a user types it: ``1000000000000``, never ``1e+12`` (as ``:g`` gives
    it), ``97.5``, ``0.5``; a whole float without its ``.0``. A float past the digits it holds
    (``1e308`` from a file) stays ``1e+308``, not 309 digits of which 292 are noise."""
    if isinstance(value, float) and value.is_integer() and abs(value) < FLOAT_WHOLE_DIGITS:
        return str(int(value))
    return str(value) if isinstance(value, int) else repr(value)


FLOAT_WHOLE_DIGITS = 1e16
"""Whole floats below this are written out in full (every digit a float holds is exact up to 2**53)."""


def plural(n: float | str, noun: str, plural: str | None = None) -> str:
    """``noun`` as :func:`counted` words it for ``n``, without the number: for a count written
    apart (``f"{n:,} {plural(n, 'row')}"``, a mark between the number and the noun) or shown as
    text (``+1``, singular like 1; ``+1.5``, plural)."""
    one = n.removeprefix("+") == "1" if isinstance(n, str) else n == 1
    return noun if one else plural or noun + "s"


def visible(text: str) -> str:
    """``text`` with each character that prints nothing (a raw ESC, a line break, a direction mark)
    written as the escape :func:`quoted` gives it (``\\x1b``, ``\\n``, ``\\u202e``), the rest as
    it is: for a user's own text shown bare beside a message (the query a search refused)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def shown(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as a message shows it bare (a path, a deck argument): whole when it is short, else
    cut as :func:`quoted` cuts it; quoted too when it holds a line break or another control character
    (a path named ``a<newline>b`` stays on the message's one line, its break shown as ``\\n``)."""
    if len(text) > limit or any(c < " " or "\x7f" <= c < "\xa0" for c in text):
        return quoted(text, limit)
    return text


# Secrets in messages, found in time linear in the message: every pattern below is anchored on a
# literal (``://``, ``password``) and each part it scans is a run that ends at the first character
# of a fixed set, so no part of the text is scanned twice (``re``'s backtracking over a run of
# scheme letters before ``://`` took 52 s on a 100,000-letter word).
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
_USER = re.compile(r"[^:/@\s'\"]*")
_SECRET = re.compile(r"[^@\s'\"]*")
_PASSWORD_PARAM = re.compile(r"(?i)(password\s*=\s*)('[^']*'|\S+)")


def _run_end(run: re.Pattern[str], text: str, start: int) -> int:
    """Where the run of ``run``'s characters that starts at ``start`` ends."""
    match = run.match(text, start)
    return match.end() if match else start


def _has_scheme(text: str, end: int) -> bool:
    """True if a URL scheme (a letter, then letters, digits, ``+.-``) ends at ``end``."""
    start = end
    while start > 0 and text[start - 1] in _SCHEME_CHARS:
        start -= 1
    return any(c.isascii() and c.isalpha() for c in text[start:end])


def _mask_url_passwords(text: str) -> str:
    out: list[str] = []
    done = 0  # text[:done] is in out
    secret_from = secret_end = -1  # the last secret run scanned: reused by a URL that starts inside it
    at = text.find("://")
    while at >= 0:
        user_end = _run_end(_USER, text, at + 3)
        if user_end < len(text) and text[user_end] == ":" and _has_scheme(text, at):
            start = user_end + 1
            if not secret_from <= start <= secret_end:
                secret_from, secret_end = start, _run_end(_SECRET, text, start)
            if secret_end > start and secret_end < len(text) and text[secret_end] == "@":
                out += [text[done:start], "***@"]
                done = secret_end + 1
                at = text.find("://", done)
                continue
        at = text.find("://", at + 3)
    return "".join(out) + text[done:] if out else text


_SECRETS: set[str] = set()  # the running server's token: masked in every message and crash file
MIN_SECRET_LENGTH = 16  # a shorter value would blank ordinary words (`serve --token` asks for 16+)


def register_secret(value: str) -> None:
    """Mask ``value`` wherever :func:`mask_secrets` runs from now on in this process (the server's
    token, which a crash's traceback may hold); a value under ``MIN_SECRET_LENGTH`` characters is
    not kept (masking it would blank ordinary words; ``serve --token`` refuses one)."""
    if len(value) >= MIN_SECRET_LENGTH:
        _SECRETS.add(value)


def mask_secrets(text: str) -> str:
    """``text`` with the password of every URL (``scheme://user:secret@``), ``password=`` and every
    registered secret (:func:`register_secret`) shown as ``***``; linear in the length of ``text``
    for each registered secret."""
    text = _PASSWORD_PARAM.sub(r"\1***", _mask_url_passwords(text))
    for secret in _SECRETS:
        text = text.replace(secret, "***")
    return text


_KINDS = {
    "int": "a whole number",
    "float": "a number",
    "string": "text",
    "str": "text",
    "bool": "true or false",
    "list": "a list ([…])",
    "tuple": "a list ([…])",
    "dict": "an object ({…})",
    "model": "an object ({…})",
    "model_attributes": "an object ({…})",
    "dataclass": "an object ({…})",
    "none": "nothing (null)",
}
"""What a value of each kind a file's schema checks is called in a message (by the prefix of the
schema library's error type: ``int_parsing``, ``list_type``, ``model_type``)."""

_BOUNDS = {
    "greater_than_equal": "at least",
    "less_than_equal": "at most",
    "greater_than": "more than",
    "less_than": "less than",
}


def _given(value: object) -> str:
    """A value read from a file, as a message names it: text quoted, a list or object by its kind."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return quoted(value, 60)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "another kind of value"


def schema_problem(error: dict[str, object]) -> str:
    """One error of a file checked against its schema (a pydantic error dict: ``type``, ``msg``,
    ``input``, ``ctx``) in a user's words, without its place (:func:`schema_place`): ``should be a
    whole number, not 'three'``, ``missing``, ``is not a field here``. The one wording of every file
    cardbase reads through a schema (deck JSON, layout TOML, catalog JSON): the library's own
    ("Input should be a valid dictionary or instance of DeckEntryModel", "Field required") names
    its classes and speaks of "inputs"."""
    kind = str(error.get("type", ""))
    given = error.get("input")
    context = error.get("ctx")
    ctx: dict[str, object] = context if isinstance(context, dict) else {}
    if kind == "missing":
        return "missing: add it"
    if kind == "extra_forbidden":
        return "is not a field here: remove it, or check its spelling"
    if kind in _BOUNDS:
        bound = next((ctx[k] for k in ("ge", "le", "gt", "lt") if k in ctx), "?")
        return f"should be {_BOUNDS[kind]} {bound}, not {_given(given)}"
    if kind in ("literal_error", "enum"):
        return f"should be {ctx.get('expected', 'one of the values the schema names')}, not {_given(given)}"
    if kind in ("string_too_short", "too_short"):
        least = ctx.get("min_length", 1)
        return "should not be empty" if least == 1 else f"should hold at least {least}, not fewer"
    if kind in ("string_too_long", "too_long"):
        return f"is too long: at most {ctx.get('max_length', '?')}" + (" characters" if "string" in kind else "")
    if kind == "value_error":
        return str(error.get("msg", "is not valid")).removeprefix("Value error, ")
    for prefix, said in _KINDS.items():
        if kind.startswith(prefix + "_"):
            return f"should be {said}, not {_given(given)}"
    message = str(error.get("msg", "is not valid"))
    message = re.sub(r" or instance of \w+", "", message).replace("Input should be", "should be")
    return message[:1].lower() + message[1:]


def schema_place(loc: tuple[object, ...] | list[object]) -> str:
    """Where in a file a schema error is (a pydantic ``loc``), as a message names it: keys joined by
    ``.``, list items counted from 1 (``cards[2].count``); the whole file is ``the file``. The parts
    that name a member of a union (``str``, ``function-after[…]``) are left out."""
    place = ""
    for part in loc:
        if isinstance(part, int):
            place += f"[{part + 1}]"
        elif isinstance(part, str) and not (part in _UNION_TAGS or "[" in part):
            place += f".{part}" if place else part
    return place or "the file"


_UNION_TAGS = frozenset({"str", "float", "int", "bool", "none", "list", "dict", "tuple"})


def schema_message(source: str, error: dict[str, object]) -> str:
    """The one line naming ``source``, the place in it and the problem of a schema error:
    ``deck.json: cards[2].count: should be a whole number, not 'three'``, or for the whole file
    ``deck.json: the file should be an object ({…}), not a list``."""
    loc = error.get("loc", ())
    place = schema_place(tuple(loc) if isinstance(loc, list | tuple) else ())
    problem = schema_problem(error)
    return f"{source}: the file {problem}" if place == "the file" else f"{source}: {place}: {problem}"


_JSON_SYNTAX = (
    ("Expecting value", 'a value was expected here (text goes in double quotes: "…")'),
    (
        "Expecting property name",
        "a key in double quotes was expected here (a comma before a }, or a key without quotes?)",
    ),
    ("Expecting ',' delimiter", "a ',' is missing between two items"),
    ("Expecting ':' delimiter", "a ':' is missing after a key"),
    ("Extra data", "more text after the JSON value has ended (a file holds one value: put several in a list [ ])"),
    ("Unterminated string", 'a text in quotes is not closed (its closing " is missing)'),
    (
        "Invalid control character",
        "a line break, tab or control character inside a text in quotes: write it as \\n or \\t",
    ),
    ("Invalid \\uXXXX escape", "a \\u in a text in quotes is not followed by 4 hexadecimal digits"),
    ("Invalid \\escape", "a \\ in a text in quotes starts no escape: write \\\\ for a backslash"),
)
"""What is wrong at a place in JSON text, in a user's words, for each message of Python's JSON parser."""


def json_syntax(error: ValueError) -> str:
    """What ``error`` says is wrong with JSON text, in a user's words (``a ',' is missing between two
    items``), not the parser's (``Expecting ',' delimiter``); its place (line, column) is the caller's. ``error`` is a
    ``json.JSONDecodeError`` (typed as its base, so that this module imports no parser)."""
    message = str(getattr(error, "msg", error))
    return next((said for start, said in _JSON_SYNTAX if message.startswith(start)), message[:1].lower() + message[1:])
