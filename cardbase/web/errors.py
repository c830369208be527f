"""Errors as the web app says them: the CLI's one-line messages, as JSON for ``/api`` or as a page.

Every ``CardbaseError`` a feature function raises gets a status by its kind (400 bad query or
usage, or a card of another game than the one asked, 404 unknown card or deck, 409 conflict, 412
changed since the version the change was made from (with the current version and ETag), 413 too
big, 415 a body of a content type its route does not read, 503 database busy (with
``Retry-After``) or unusable, 500 a server's file its user may not read, or its worker process
that died); FastAPI's own errors (a parameter out of its bound, an unknown route) get the same shape;
a library's fault that a user's input or database causes is made a user error by the one
translator of both faces (``cardbase.faults``); anything else is a bug: one line naming the file its
traceback was written to, as ``cardbase/cli/boundary.py`` does, and the server keeps serving. No
traceback ever reaches the client.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardbase.errors import (
    CardbaseError,
    Conflict,
    DatabaseBusy,
    DatabaseError,
    InvalidData,
    QueryError,
    ServerStopping,
    Stale,
    UnknownCard,
    UsageError,
    WorkerStopped,
    quoted,
    said_of,
    shown,
)
from cardbase.errors import mask_secrets as _mask
from cardbase.faults import Unreachable
from cardbase.games.base import GameError, InvalidAction
from cardbase.terminal import log_line
from cardbase.web.jsonresponse import JSONResponse

if TYPE_CHECKING:
    from cardbase.decks.model import Problem


class TooLarge(UsageError):
    """A request body, or a file in it, over its bound (413)."""


class UnsupportedBody(UsageError):
    """A request body of a content type its route does not read (415): a form sent to a JSON route,
    JSON to a page's form (read as a form, it was a form of no fields)."""


class Unauthorized(UsageError):
    """A request without the server's token (401)."""


class Forbidden(UsageError):
    """A request refused by the Host or Origin check (403, or 400 for a bad Host)."""


TITLES = {
    400: "Bad request",
    401: "Token needed",
    403: "Refused",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    412: "Changed elsewhere",
    413: "Too large",
    415: "Unsupported content type",
    422: "Refused by the rules",
    500: "Internal error",
    503: "Database unavailable",
}


def status_of(error: CardbaseError) -> int:
    from cardbase.decks.store import UnknownDeck
    from cardbase.sim.hall import HintsBusy, TooManyGames, TooManyStreams, UnknownGame
    from cardbase.sim.table import NotYourTurn, UndoRefused

    if isinstance(error, NotYourTurn):
        return 403
    if isinstance(error, UnknownGame):
        return 404
    if isinstance(error, UndoRefused):
        return 422
    from cardbase.lab.service import OverBudget

    if isinstance(error, TooManyGames | TooManyStreams | HintsBusy | OverBudget | ServerStopping):
        return 503
    if isinstance(error, TooLarge):
        return 413
    if isinstance(error, UnsupportedBody):
        return 415
    if isinstance(error, Unauthorized):
        return 401
    if isinstance(error, Forbidden):
        return 403
    if isinstance(error, Unreachable | WorkerStopped):
        return 500  # the server's own file it may not read, its worker process that died: no request's doing
    if isinstance(error, UnknownCard) and (not error.given or error.elsewhere):
        return 400  # no card asked for, or another game's card: the client's mistake about one that exists
    if isinstance(error, UnknownCard | UnknownDeck):
        return 404
    from cardbase.db.edit import StaleEdit

    if isinstance(error, Stale | StaleEdit):
        return 412
    if isinstance(error, Conflict):
        return 409
    if isinstance(error, DatabaseError):
        return 503
    return 400


def wants_json(path: str) -> bool:
    """The API (and ``/healthz``, images) answers in JSON; every other path is a page."""
    return path.startswith("/api/") or path == "/api" or path == "/healthz" or path.endswith(".png")


# A quoted text: its quote, then characters other than that quote or escapes (a backslash and any
# character), then the quote. Scanning is linear: from a quote that finds no end, every later quote of
# its kind is escaped and finds none either, so each kind is given up after its first open end
# (re.finditer retried from every one: quadratic on a run of \').
_QUOTED = {quote: re.compile(rf"{quote}(?:[^{quote}\\]|\\.)*+{quote}", re.S) for quote in "'\""}


def _quoted_texts(message: str) -> Iterator[str]:
    """The quoted texts of ``message`` (with their quotes), in order."""
    for start, end in _quoted_spans(message):
        yield message[start:end]


def _quoted_spans(message: str, prose: bool = False) -> Iterator[tuple[int, int]]:
    """Where each quoted text of ``message`` starts and ends (its quotes within), in order; ``prose``:
    a quote after a letter or digit is an apostrophe (``P1's deck``, ``the card's``), which opens none."""
    pos = 0
    next_at = {quote: message.find(quote) for quote in _QUOTED}
    while next_at:
        quote, at = min(next_at.items(), key=lambda item: item[1])
        if at < 0:
            del next_at[quote]
            continue
        if prose and at > 0 and message[at - 1].isalnum():
            next_at[quote] = message.find(quote, at + 1)
            continue
        m = _QUOTED[quote].match(message, at)
        if m is None:
            del next_at[quote]
            continue
        yield m.start(), m.end()
        pos = m.end()
        for kind, found in next_at.items():
            if 0 <= found < pos:
                next_at[kind] = message.find(kind, pos)


def query_term(message: str, query: str | None) -> str | None:
    """The offending term a ``QueryError`` message quotes: its first quoted text found in ``query``."""
    if not query:
        return None
    for literal in _quoted_texts(message):
        try:
            text = ast.literal_eval(literal)
        except (ValueError, SyntaxError):
            continue
        if isinstance(text, str) and text and text in query:
            return text
    return None


def _game_word() -> re.Pattern[str]:
    from cardbase.catalog.fields import GAME_NAMES

    ids = "|".join(sorted(GAME_NAMES, key=len, reverse=True))
    # a game's id as a word: not part of a path, a name or an address, nor the id a line writes (``game: mea``)
    return re.compile(rf"(?<![\w/.:@-])(?<!game: )({ids})(?![\w/@-]|\.\w)")


_GAME_WORD = _game_word()
_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w-])")
_COMMAND = re.compile(r"`cardbase ([a-z]+ [a-z]+)\b[^`\n]{0,300}`")

COMMAND_PAGES = {
    "cards search": "the card search",
    "catalog edit": "the card's Edit page",
    "catalog history": "the card's History",
    "catalog import": "the catalog page's Import",
    "collection import": "the collection page's Add cards",
    "deck delete": "the deck's Delete",
    "deck history": "the deck's History",
    "deck import": "the decks page's Import a deck",
    "deck list": "the decks page",
}
"""A command a refusal names (``deck history`` of `` `cardbase deck history` ``) as the page that does it."""


def players_words(text: str, path: str | None = None) -> str:
    """``text`` (a refusal in the command line's words) as a page says it to players: each game named
    by its id as its display name (``meio has no format`` → ``Meio has no format``) and each command
    line option as the form's field it is on the page (``--section`` → the field's label, else the
    option's words). A user's own text, which the message quotes, is left as it was given, and so
    is a line to write (``game: mea``). The one wording step of every refusal a page shows (errors
    that know their players' words carry them: ``CardbaseError.said``, which passes through it too)."""
    from cardbase.catalog.fields import GAME_NAMES

    def unquoted(part: str) -> str:
        part = _GAME_WORD.sub(lambda m: GAME_NAMES[m.group(1)], part)
        return _FLAG.sub(lambda m: field_words(m.group(1), path), part)

    if "--" not in text and "`cardbase " not in text and not any(game in text for game in GAME_NAMES):
        return text
    text = _commands_as_pages(text)
    out: list[str] = []
    done = 0
    for start, end in _quoted_spans(text, prose=True):
        out += [unquoted(text[done:start]), text[start:end]]
        done = end
    return "".join([*out, unquoted(text[done:])])


def _commands_as_pages(text: str) -> str:
    """``text`` with each command it names (`` `cardbase deck history` ``, its arguments too) as the page
    that does it (:data:`COMMAND_PAGES`), outside the texts it quotes; a command no page does is left."""
    quoted_spans = list(_quoted_spans(text, prose=True))
    out: list[str] = []
    done = 0
    for found in _COMMAND.finditer(text):
        page = COMMAND_PAGES.get(found.group(1))
        if page is None or any(start <= found.start() < end for start, end in quoted_spans):
            continue
        out += [text[done : found.start()], page]
        done = found.end()
    return "".join([*out, text[done:]])


def field_words(option: str, path: str | None = None) -> str:
    """A command line option (``card-size`` of ``--card-size``) as a page names it: the label of the
    field of that name on the form posted to ``path``, else the option's words (``card size``): not
    another page's label (the builder's ``format`` is its "Check against", not an export's format)."""
    name = option.replace("-", "_")
    label = form_label(name, path) if path is not None else name
    return label if label != name else option.replace("-", " ")


def or_words(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


def page_text(error: CardbaseError, text: str | None = None) -> str:
    """The players' text of ``error`` before the wording step (:func:`players_words`): its
    :attr:`~cardbase.errors.CardbaseError.said` after the field it names (``Invalid value for
    'format': ``), else its message (``text``: the part of it shown), the option that repeats the
    field named left out (``Invalid value for 'section': --section 'x'`` → ``…: 'x'``)."""
    prefix = f"{error.named}: " if error.named else ""
    if error.said is not None:
        if text is not None and error.listed is not None and "\n" not in text:  # a listing's head alone
            head = error.said.partition("\n")[0]
            return prefix + (head if text.endswith(":") else head.removesuffix(":"))
        return prefix + error.said
    if error.option is not None and (error.choices or error.reason):  # an option's value refused, and why
        from cardbase.games.base import option_words

        why = error.reason or f"is not {or_words(error.choices)}"  # the values its field offers
        head = prefix or f"Invalid value for {option_words(error.option)!r}: "
        return f"{head}{quoted(error.option_value)} {why}"
    said = str(error) if text is None else text
    if prefix and said.startswith(prefix + "--"):
        flag = _FLAG.match(said, len(prefix))
        if flag is not None and flag.group(1).replace("-", "_") in error.fields:
            said = prefix + said[flag.end() :].lstrip()
    return said


def for_pages(
    error: BaseException, path: str | None = None, request: Request | None = None, text: str | None = None
) -> str:
    """The refusal ``error`` (``text``: the part of its message a page shows, its first line) as a
    page shows it: its players' text (:func:`page_text`) in players' words (:func:`players_words`),
    secrets masked, the server's folders too off loopback (:func:`server_folders`)."""
    said = page_text(error, text) if isinstance(error, CardbaseError) else str(error) if text is None else text
    return without_folders(mask(players_words(said, path), request), server_folders(request))


def mask(text: str, request: Request | None = None) -> str:
    """``text`` with URL passwords and the server's token blanked."""
    out = _mask(text)
    token = _token(request)
    return out.replace(token, "***") if token else out


def server_folders(request: Request | None) -> list[str]:
    """The server's folders a message may name, longest first, when the request is served off loopback
    (none on loopback, where the user is the server's): its images', its SQLite database's, the
    temporary folder crash reports go to, its working folder and its user's home."""
    import os
    import tempfile
    from pathlib import Path

    settings = getattr(request.app.state, "settings", None) if request is not None else None
    if settings is None or settings.loopback:
        return []
    database = getattr(settings, "database", None)
    sqlite_file = database.engine.url.database if database is not None and database.url.startswith("sqlite") else None
    places = [settings.images, tempfile.gettempdir(), Path.cwd(), Path.home()]
    places += [Path(sqlite_file).parent] if sqlite_file and not sqlite_file.startswith("file:") else []
    found: set[str] = set()
    for place in places:
        with suppress(OSError, RuntimeError):
            found |= {os.path.abspath(place), os.path.realpath(place)}
    return sorted((f for f in found if f.strip(os.sep)), key=len, reverse=True)  # never the root itself


def without_folders(text: str, folders: Sequence[str]) -> str:
    """``text`` with each of ``folders`` (a path's start: ``/srv/cardbase/card_images/mea``) said as ``…``."""
    for folder in folders:
        text = re.sub(r"(?<![\w.~/-])" + re.escape(folder) + r"(?=[/\\\s'\"`:;,)]|$)", "…", text)
    return text


def _token(request: Request | None) -> str | None:
    if request is None:
        return None
    settings = getattr(request.app.state, "settings", None)
    return getattr(settings, "token", None)


def error_response(
    request: Request | None,
    path: str,
    status: int,
    message: str,
    *,
    term: str | None = None,
    problems: list[str] | None = None,
    headers: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
    rule: str | None = None,
    found: Sequence[Problem] = (),
    said: str | None = None,
) -> Response:
    """The error as JSON ``{"error": {"message", "term"}}`` (with the ``rule`` of a move the rules
    refuse, ``text``: the message in players' words where they differ, and ``extra`` fields) for
    the API, else as ``error.html``, which shows the players' words (``said``, else the message,
    through :func:`players_words`)."""
    folders = server_folders(request)  # off loopback, the server's own paths are no one else's business

    def hidden(said: str) -> str:
        return without_folders(mask(said, request), folders)

    text = hidden(players_words(said if said is not None else said_of(message), path))
    message = hidden(message)
    term = hidden(term) if term is not None else None
    problems = [hidden(p) for p in problems] if problems else None
    if wants_json(path):
        body: dict[str, Any] = {"message": message, "term": term}
        if text != message:
            body["text"] = text
        if rule is not None:
            body["rule"] = rule
        if problems:
            body["problems"] = problems
        body |= extra or {}
        return JSONResponse({"error": body}, status_code=status, headers=headers)
    from cardbase.web.app import TEMPLATES
    from cardbase.web.pages_decks import problem_item

    # a deck's problems (``found``: one for each of ``problems``) in players' words, else the lines
    shown: list[Problem | str] = [*found] if problems and len(found) == len(problems) else [*(problems or [])]
    html = TEMPLATES.get_template("error.html").render(
        request=request,
        status=status,
        title=TITLES.get(status, "Error"),
        message=text,
        problems=[problem_item(p) for p in shown],
        url_for=(request.url_for if request is not None and "router" in request.scope else _no_url),
    )
    return HTMLResponse(html, status_code=status, headers=headers)


def _no_url(name: str, **params: Any) -> str:
    return f"/static/{params.get('path', '')}" if name == "static" else "/"


def cardbase_error_response(request: Request, error: CardbaseError) -> Response:
    naming_inputs(error, request)
    status = status_of(error)
    text = error.on_server if isinstance(error, Unreachable) else str(error)
    problems = None
    if isinstance(error, InvalidData):
        text = text.splitlines()[0].rstrip(":")
        problems = list(error.problems)
    term = query_term(text, request.query_params.get("q")) if isinstance(error, QueryError) else None
    headers, extra = error_headers(error)
    if isinstance(error, InvalidData) and error.found:  # a deck's problems, as data in players' words too
        details = [
            {k: mask(v, request) if isinstance(v, str) else v for k, v in p.for_players().items()} for p in error.found
        ]
        extra = {**(extra or {}), "details": details}
    rule = getattr(error, "rule", None)
    found = error.found if isinstance(error, InvalidData) else ()
    return error_response(
        request,
        request.url.path,
        status,
        text,
        term=term,
        problems=problems,
        headers=headers,
        extra=extra,
        rule=rule,
        found=found,
        said=page_text(error, text),
    )


def naming_field(
    error: CardbaseError, fields: Mapping[str, Any], label: Callable[[str], str] = lambda name: name
) -> CardbaseError:
    """``error`` saying which of ``fields`` (name → value as submitted) was given the text it refuses
    (``error.value``): ``Invalid value for 'seats[1].agent': unknown Meio agent 'bogus' …``, as the
    command line names its options; ``label`` is the name a person reads (a form's label). The
    rules refuse a value wherever it came from; only the form or the API knows where it was given.
    An error refusing several texts (``error.values``: a card's bad fields) names each field found;
    a pasted text is found whatever its line ends (a browser sends CRLF). An error about no submitted
    value, or about a text several fields were given, is left as it is; so is a text no field was given."""
    if error.field is not None:
        return error
    wanted = [error.value] if error.value is not None else list(error.values)
    names: list[str] = []
    for text in (_same_text(w) for w in wanted):
        found = [n for n, v in fields.items() if v is not None and _same_text(v) == text]
        if len(found) == 1 and found[0] not in names:  # none, or several given the same text: not known
            names.append(found[0])
    return naming(error, names, label)


def naming(
    error: CardbaseError, names: Sequence[str], label: Callable[[str], str] = lambda name: name
) -> CardbaseError:
    """``error`` saying it refuses the values of the inputs ``names`` (the part of :func:`naming_field`
    after it has found them; a face that knows them calls it itself: a rules option's field)."""
    if not names or error.field is not None:
        return error
    error.field, error.fields = names[0], tuple(names)
    shown_names = " and ".join(repr(label(name)) for name in names)
    error.named = f"Invalid value{'s' if len(names) > 1 else ''} for {shown_names}"
    prefix = f"{error.named}: "
    if error.listed is not None:
        error.listed = (prefix + error.listed[0], error.listed[1])
    error.args = (prefix + str(error), *error.args[1:])
    return error


def _same_text(value: object) -> str:
    """A submitted value as compared with a refused one: a text's line ends as ``\\n``."""
    return str(value).replace("\r\n", "\n")


def naming_inputs(error: CardbaseError, request: Request) -> CardbaseError:
    """``error`` naming the input of ``request`` given the text it refuses (:func:`naming_field`):
    a query parameter by its name, a JSON body's value by its path (``decks[1]``, ``values.cost``),
    a form's field by the label its page gives it (``form_label``). The one mechanism of every route:
    the error handler calls it, and so does a page that shows a refusal itself."""
    from cardbase.web.http import inputs_of

    given = inputs_of(request)
    fields = dict(request.query_params)
    fields |= given.values
    if given.kind != "form" or wants_json(request.url.path):  # an API's form field: by its name
        rules = [f"rules.{o}" for o in (error.option, *error.options) if o is not None and f"rules.{o}" in fields]
        return naming(error, rules) if rules else naming_field(error, fields)  # a rules option: its own field
    form = given.values
    path = request.url.path
    return naming_field(error, fields, lambda name: form_label(name, path) if name in form else name)


_LABELLED = re.compile(
    r"<label\b[^>]*>((?:(?!</label>|<(?:input|select|textarea)\b).)*)<(?:input|select|textarea)\b[^>]*?"
    r"\bname=\"([A-Za-z0-9_]+)\"",
    re.S,
)
_JOINING = {"a", "an", "the", "for", "of", "in", "on", "to", "with", "from"}
_FORM = re.compile(r"<form\b[^>]*?\baction=\"([^\"{%]*(?:\{\{[^}]*\}\}[^\"{%]*)*)\"[^>]*>(.*?)</form>", re.S)
_LABEL_FOR = re.compile(r"<label\b[^>]*?\bfor=\"([A-Za-z0-9_-]+)\"[^>]*>((?:(?!</label>).)*)", re.S)
_CONTROL = re.compile(r"<(?:input|select|textarea)\b[^>]*>", re.S)
_ATTRIBUTE = re.compile(r"(?<![\w-])(id|name)=\"([A-Za-z0-9_-]+)\"")


def label_words(label: str) -> str:
    """A label's words as a person reads them: its text up to its first markup or what the page fills in,
    or, for a label that opens with markup (a screen reader's span), that markup's (``<span>New name for
    {{ d.name }}</span>`` → ``New name``: the words joining the filled-in part left out too)."""
    text = re.sub(r"^\s*(?:<[^>]*>\s*)*", "", label)
    end = re.search(r"<|\{[{%]", text)
    words = (text[: end.start()] if end else text).split()
    while end and end.group() != "<" and words and words[-1].lower() in _JOINING:
        words.pop()
    return " ".join(words)


def _labels_for(inner: str) -> dict[str, str]:
    """A form's fields labelled apart (``<label for="edit-box">The deck as text</label>`` … ``<textarea
    id="edit-box" name="text">``): name → the label's words (:func:`label_words`)."""
    names: dict[str, str] = {}
    for tag in _CONTROL.findall(inner):
        attributes = dict(_ATTRIBUTE.findall(tag))
        if "id" in attributes and "name" in attributes:
            names[attributes["id"]] = attributes["name"]
    found = {names[for_id]: label_words(label) for for_id, label in _LABEL_FOR.findall(inner) if for_id in names}
    return {name: words for name, words in found.items() if words}


def _template_labels() -> list[tuple[re.Pattern[str], dict[str, str]]]:
    """Each form of the pages, as the addresses it posts to (``/decks/{{ d.id }}/rename``: any deck)
    and its fields' labels as the page writes them (``<label>Name <input name="name">``), read from
    the templates themselves; a label apart from its field (``<label for>``) names it too."""
    from cardbase.web.app import TEMPLATES

    env = TEMPLATES.env
    forms: list[tuple[re.Pattern[str], dict[str, str]]] = []
    if env.loader is None:
        return forms
    for name in sorted(n for n in env.list_templates() if n.endswith(".html")):
        source = env.loader.get_source(env, name)[0]  # the package's own pages, through Jinja's loader
        for action, inner in _FORM.findall(source):
            labelled = {name: label_words(label) for label, name in _LABELLED.findall(inner)}
            labels = _labels_for(inner) | {name: words for name, words in labelled.items() if words}
            address = re.escape(action.partition("#")[0])
            address = re.sub(r"\\\{\\\{\\ card\\.id\\ \\\}\\\}", "[^/]+/[^/]+/[^/]+", address)  # game/set/slug
            address = re.sub(r"\\\{\\\{.*?\\\}\\\}", "[^/]+", address)
            if labels and address.startswith("/"):
                forms.append((re.compile(address), labels))
    return forms


_LABELS: list[tuple[re.Pattern[str], dict[str, str]]] | None = None


def form_label(name: str, path: str) -> str:
    """A field of the form posted to ``path`` as a person reads it on its page: its label (``I own``
    for the card page's ``count``), else its name (no label, or pages that label it differently)."""
    global _LABELS
    if _LABELS is None:
        _LABELS = _template_labels()
    found = {labels[name] for pattern, labels in _LABELS if name in labels and pattern.fullmatch(path)}
    return found.pop() if len(found) == 1 else name


def flat_fields(data: Any, path: str = "") -> dict[str, Any]:
    """A JSON body's values by their path (``seats[1].agent``, ``rules.farm``), for :func:`naming_field`;
    walked without recursion (a body nested as deep as JSON reads is no crash)."""
    out: dict[str, Any] = {}
    pending: list[tuple[str, Any]] = [(path, data)]
    while pending:
        where, item = pending.pop()
        if isinstance(item, Mapping):
            pending.extend((f"{where}.{key}" if where else str(key), value) for key, value in item.items())
        elif isinstance(item, list | tuple):
            pending.extend((f"{where}[{i}]", value) for i, value in enumerate(item))
        else:
            out[where] = item
    return out


def error_headers(error: CardbaseError) -> tuple[dict[str, str], dict[str, Any]]:
    """The headers an error's answer carries, and the fields its JSON adds: a 401 asks for the token,
    a busy database or a full hall says when to try again, a stale change gives the current version;
    a refused value names its ``field``."""
    headers, extra = _headers_of(error)
    if error.field is not None:
        extra = {"field": error.field} | ({"fields": list(error.fields)} if len(error.fields) > 1 else {}) | extra
    return headers, extra


def _headers_of(error: CardbaseError) -> tuple[dict[str, str], dict[str, Any]]:
    from cardbase.sim.hall import HintsBusy, TooManyGames, TooManyStreams
    from cardbase.web.http import etag
    from cardbase.web.settings import RETRY_AFTER_SECONDS

    if isinstance(error, Unauthorized):
        return {"WWW-Authenticate": "Bearer"}, {}
    if isinstance(error, DatabaseBusy | TooManyGames | TooManyStreams | HintsBusy):
        return {"Retry-After": str(RETRY_AFTER_SECONDS)}, {}
    if isinstance(error, Stale):
        current = etag(error.kind, error.key, error.current)
        return {"ETag": current}, {"version": error.current, "etag": current}
    from cardbase.db.edit import StaleEdit

    if isinstance(error, StaleEdit):  # a card's version (``db.edit.card_state``)
        return {"ETag": f'"card-{error.current}"'}, {"version": error.current}
    return {}, {}


def game_error_response(request: Request, error: GameError) -> Response:
    """A move the rules refuse (422): the rule's reason, and ``rule`` its short name (``notation``
    for a text that is no action of the game)."""
    rule = getattr(error, "rule", None) or ("notation" if isinstance(error, InvalidAction) else "")
    return error_response(request, request.url.path, 422, str(error), rule=rule)


def crash_line(error: BaseException, where: str) -> str:
    """Write ``error``'s traceback to a file; the one line that says where (as the CLI's boundary)."""
    from cardbase.crash import crash_report

    return crash_report(error, f"cardbase serve: {where}")


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``; the pages' form labels are read now, not by a request's error."""
    global _LABELS
    if _LABELS is None:
        _LABELS = _template_labels()

    @app.exception_handler(CardbaseError)
    async def on_cardbase_error(request: Request, error: CardbaseError) -> Response:
        return cardbase_error_response(request, error)

    @app.exception_handler(GameError)
    async def on_game_error(request: Request, error: GameError) -> Response:
        return game_error_response(request, error)

    @app.exception_handler(RequestValidationError)
    async def on_bad_request(request: Request, error: RequestValidationError) -> Response:
        field = validation_field(error)
        extra = {"field": field} if field is not None else None
        message = validation_message(error)
        path = request.url.path
        first = error.errors()[0] if error.errors() else {}
        in_body = tuple(first.get("loc", ()))[:1] == ("body",)
        if field is not None and in_body and not wants_json(path):  # a page's form: its field as labelled
            message = f"Invalid value for {form_label(field, path)!r}: {message.removeprefix(f'{shown(field)}: ')}"
        return error_response(request, path, 400, message, extra=extra)

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, error: StarletteHTTPException) -> Response:
        detail = error.detail if isinstance(error.detail, str) else "request refused"
        if error.status_code == 404 and detail == "Not Found":
            detail = f"no page or API route at {request.url.path}"
        elif error.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        elif error.status_code == 400 and detail == "There was an error parsing the body":
            detail = _body_refusal(request) or detail
        headers = dict(error.headers) if error.headers else None
        return error_response(request, request.url.path, error.status_code, detail, headers=headers)


def _body_refusal(request: Request) -> str | None:
    """Why a JSON body FastAPI could not read is refused, as cardbase's JSON reader says it (a whole
    number too long to read, with its line and column), or None: FastAPI says only "There was an
    error parsing the body"."""
    from cardbase.errors import UnreadableInput
    from cardbase.textfiles import load_json

    read = getattr(request, "_body", None)  # the body FastAPI read whole, kept by this request
    if not isinstance(read, bytes):
        return None  # cut short (over its bound: the 413) or never read: reading again would wait forever
    try:
        body = read.decode("utf-8")
        load_json(body, "the request body")
    except UnreadableInput as refused:
        return str(refused)
    except (UnicodeDecodeError, RuntimeError):
        return None
    return None


MAX_WARNED = 10_000
"""Warnings remembered (each said once on the server's log); past it, the oldest are forgotten."""


def warner(request: Request) -> Callable[[str], None]:
    """A function saying a warning (art that cannot be used) on the server's log, once per text."""
    state = request.app.state
    if not hasattr(state, "warned"):
        state.warned = {}
    warned: dict[str, None] = state.warned

    def warn(line: str) -> None:
        if line in warned:
            return
        warned[line] = None
        while len(warned) > MAX_WARNED:
            warned.pop(next(iter(warned)))
        log_line(f"cardbase: warning: {mask(line, request)}")

    return warn


def crash_response(request: Request, error: BaseException) -> Response:
    """Any other exception: a user error if a driver or the input caused it, else a bug (500, one
    line naming the crash file, also printed to the server's log)."""
    from cardbase.faults import user_error

    user = user_error(error)
    if isinstance(user, Unreachable):  # the server's to fix: its operator reads it on the server's log
        log_line(f"cardbase: {mask(user.on_server, request)}")
    if user is not None:
        return cardbase_error_response(request, user)
    line = crash_line(error, f"{request.method} {request.url.path}")
    log_line(f"cardbase: {mask(line, request)}")
    return error_response(request, request.url.path, 500, line)


_UNION_MEMBER = re.compile(
    r"str|int|bool|float|none|bytes|decimal|date|datetime|time|[a-z]+\[.*\]|constrained-[\w-]+"
    r"|function-[\w-]+\[.*\]|[A-Z]\w*"
)
"""How pydantic names the member of a union a value failed (``str``, ``list[int]``, a model's class)
in the error's place: no field of a request is named so."""


def _first_error(error: RequestValidationError) -> dict[str, Any]:
    """FastAPI's first validation error, with the members of unions taken out of its place: of a value
    that failed every member of a union, the member whose shape it had (an object for a model, a
    list for a list), whose error is deeper, else one error saying every kind the field takes."""
    errors = [dict(e) for e in error.errors()]
    if not errors:
        return {}
    first = errors[0]
    while True:
        loc = tuple(first.get("loc", ()))
        at = next(
            (
                i
                for i, part in enumerate(loc)
                if isinstance(part, str)
                and _UNION_MEMBER.fullmatch(part)
                and any(
                    len(e["loc"]) > i
                    and tuple(e["loc"][:i]) == loc[:i]
                    and e["loc"][i] != part
                    and isinstance(e["loc"][i], str)
                    for e in errors
                )
            ),
            None,
        )
        if at is None:
            return first
        members = [e for e in errors if len(e["loc"]) > at and tuple(e["loc"][:at]) == loc[:at]]
        deeper = [e for e in members if len(e["loc"]) > at + 1]
        if deeper:
            first = {**deeper[0], "loc": (*loc[:at], *deeper[0]["loc"][at + 1 :])}
        else:
            said = list(dict.fromkeys(_kind_said(str(e.get("msg", ""))) for e in members))
            kinds = ", ".join(said[:-1]) + f" or {said[-1]}" if len(said) > 1 else said[0]
            first = {**members[0], "loc": loc[:at], "msg": f"Input should be {kinds}"}
        errors = [first]


def _kind_said(msg: str) -> str:
    """What one member of a union wanted, from its error ("a valid integer"; a model: "an object")."""
    said = msg.removeprefix("Input should be ")
    return "an object" if said.startswith("a valid dictionary or instance of") else said


def validation_field(error: RequestValidationError) -> str | None:
    """The parameter or body field FastAPI's first validation error is about, as a JSON path
    (``seats[1].agent``, ``count``), or None for the body as a whole (not JSON)."""
    first = _first_error(error)
    if first.get("type") == "json_invalid":  # its place is a position in the text, not a field
        return None
    path = ""
    for part in first.get("loc", ())[1:]:
        path += f"[{part}]" if isinstance(part, int) else f".{part}" if path else str(part)
    return path or None


def validation_message(error: RequestValidationError) -> str:
    """FastAPI's first validation error as one line naming the parameter or field."""
    first = _first_error(error)
    loc = [str(p) for p in first.get("loc", ()) if p not in ("query", "path", "body", "header", "cookie", "form")]
    if first.get("type") == "json_invalid":
        return "the request body is not valid JSON"
    name = shown(".".join(loc)) if loc else "request"
    msg = str(first.get("msg", "is not valid"))
    if first.get("type") == "missing":
        return f"{name}: is required"
    return f"{name}: {msg[0].lower() + msg[1:] if msg else msg}"
