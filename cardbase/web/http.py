"""The HTTP mechanisms every route shares: a change's turn, versions as ETag and If-Match, downloads.

- **A change's turn** (``WriteTurn``, a dependency of every POST, PUT, PATCH and DELETE route; a
  test walks the routes): at most ``settings.write_slots`` changes run at once, the others wait on
  the event loop (no worker thread, no connection held), and the wait for the turn and every lock
  the change then needs (``db.engine.lock_budget``) is one budget, ``settings.lock_wait`` (10 s):
  past it the answer is 503 with ``Retry-After``. Reads never queue behind changes for a worker
  thread or a pooled connection. The body is read before the turn is taken (a slow upload holds
  no slot).
- **Versions**: a thing with a version (a deck) answers with ``ETag: "deck-ID-vN"`` (``etag``,
  ``tag``); a change sent with ``If-Match`` (``expected``, or a form's ``version`` field,
  ``form_versions``) is made only if the thing is still at that version, checked under the row
  lock in the change's transaction; else 412 with the current version and ETag. A change without
  ``If-Match`` applies as it comes (concurrent ``+1`` adds all count).
- **JSON bodies** (``JsonBody``, the base of every route's body model; a test walks the routes):
  read strictly, as JSON gives them: a whole-number field takes a JSON integer, not a text
  (Pydantic's lax mode read ``"1_0"`` as 10 and ``" 3"``, ``"+3"``, ``"3.0"`` as 3), not ``true``
  (1) and not ``3.0``; a yes/no field takes ``true`` or ``false``, not ``"yes"`` or ``1``. A body
  whose Content-Type is not what its route reads (JSON or a form) is 415 (``refuse_other_content``).
- **Downloads**: ``download`` answers a file under any name (any script, quotes, control
  characters) with RFC 6266 ``Content-Disposition``: ``filename*=UTF-8''…`` and an ASCII fallback.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Depends, Request, Response
from pydantic import BaseModel, ConfigDict
from starlette.datastructures import FormData

from cardbase.errors import plural
from cardbase.web.app import settings_of


class JsonBody(BaseModel):
    """The base of every JSON body the API reads: strict (no text, ``true`` or ``3.0`` for a whole
    number) and, as ``extra="forbid"``, no field it does not know."""

    model_config = ConfigDict(strict=True, extra="forbid")


MAX_TAGS = 20
"""If-Match names at most this many versions (more is not a client's honest list)."""


# --- a change's turn ------------------------------------------------------------------------------


class Turn:
    """A change's turn, held while the route runs; ``release`` gives it back sooner (from the route's
    worker thread), e.g. once the write is committed and only the answer is left to make."""

    def __init__(self, slots: Any) -> None:
        self._slots = slots
        self.held = True

    def _give_back(self) -> None:  # on the event loop
        if self.held:
            self.held = False
            self._slots.release()

    def release(self) -> None:
        """Give the turn back now (called from the route's worker thread)."""
        from anyio import from_thread

        from_thread.run_sync(self._give_back)


async def write_turn(request: Request) -> AsyncIterator[Turn]:
    """Hold one of the server's change slots (waiting for it within the lock budget) while the route runs,
    or until it gives it back (``Turn.release``)."""
    import anyio

    from cardbase.db import engine

    settings = settings_of(request)
    seconds = engine.LOCK_WAIT_SECONDS if settings.lock_wait is None else settings.lock_wait
    slots = request.app.state.write_slots
    with engine.lock_budget(seconds):
        with anyio.move_on_after(seconds) as waiting:
            await slots.acquire()
        if waiting.cancelled_caught:
            raise engine.busy()
        turn = Turn(slots)
        try:
            yield turn
        finally:
            turn._give_back()


WriteTurn = Annotated[Turn, Depends(write_turn, scope="function")]
"""Declare it on every route that changes something, after the parameters that read the body."""


async def form_data(request: Request) -> FormData:
    """The request's form (read on the event loop, before the route's worker thread runs), fields up to
    the request's body bound (the Guard already refused a larger body)."""
    from cardbase.web.security import body_bound

    return await request.form(max_part_size=body_bound(request.url.path))


Form = Annotated[FormData, Depends(form_data)]


LIST_FIELDS = frozenset({"need", "at_most", "exactly", "open", "aside", "against"})
"""The parameters and form fields meant as lists, which may be given any number of times (the odds'
needs, the deck page's panels to open, Meio's cards set aside, the lab's field decks); every other
one takes one value."""

_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


BUTTON_OVERRIDES = frozenset({("seed", "new")})
"""A submit button's (name, value) that may come beside a field of the same name in its form, which
it overrides: the sample hand's "New hand" (``seed=new``) beside the seed typed in, as a browser
without the page's script sends them (the script sends only the button's)."""


def refuse_repeats(pairs: Any, where: str) -> None:
    """A usage error (400) naming the first name of ``pairs`` (name, value) given more than once that
    is not a list field (:data:`LIST_FIELDS`), nor a field and the button that overrides it
    (:data:`BUTTON_OVERRIDES`): a second value, taken silently, would be half of what was sent."""
    from cardbase.errors import UsageError, quoted

    values: dict[str, list[Any]] = {}
    for name, value in pairs:
        values.setdefault(name, []).append(value)
    for name, given in values.items():
        if len(given) < 2 or name in LIST_FIELDS:
            continue
        if len(given) == 2 and any((name, value) in BUTTON_OVERRIDES for value in given):
            continue
        raise UsageError(f"the {where} {quoted(name)} is given more than once; it takes one value")


def refuse_lax_integer(value: str | None, what: str) -> None:
    """A usage error (400) starting with ``what`` (the parameter's name, as FastAPI's own messages
    do) when ``value`` is not a whole number in ASCII digits (a ``-`` in front at most): FastAPI reads
    integers as Pydantic's lax mode does, ``1_0`` as 10 and ``+3``, `` 3`` or ``3.0`` as 3, which the
    CLI and the JSON bodies refuse."""
    from cardbase.games.base import is_whole_number

    if value is not None and not is_whole_number(value):
        from cardbase.errors import UsageError, quoted

        error = UsageError(f"{what}: give a whole number in digits 0–9, not {quoted(value[:40])}")
        error.field, error.fields = what, (what,)  # named as FastAPI's own refusal of the value names it
        raise error


def _whole_number_params(route: Any) -> tuple[tuple[str, str], ...]:
    """``route``'s parameters typed ``int`` (or ``int | None``) in the query or the path, its
    dependencies' included, as (``"query"`` or ``"path"``, name); kept on the route (a route is not
    hashable)."""
    kept: tuple[tuple[str, str], ...] | None = getattr(route, "_whole_number_params", None)
    if kept is None:
        kept = _find_whole_number_params(route)
        if route is not None:
            route._whole_number_params = kept
    return kept


def _find_whole_number_params(route: Any) -> tuple[tuple[str, str], ...]:
    import types
    import typing

    names: list[tuple[str, str]] = []
    for dependant in _dependants(route):
        for place, field in [("query", f) for f in dependant.query_params] + [
            ("path", f) for f in dependant.path_params
        ]:
            annotation = field.field_info.annotation
            kinds = (
                typing.get_args(annotation)
                if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union
                else (annotation,)
            )
            if int in kinds and bool not in kinds:
                names.append((place, field.alias))
    return tuple(names)


def _dependants(route: Any) -> Iterator[Any]:
    """The dependants of ``route`` (FastAPI's: its own, its dependencies', at any depth): what it reads."""
    pending = [getattr(route, "dependant", None)]
    while pending:
        dependant = pending.pop()
        if dependant is not None:
            yield dependant
            pending.extend(dependant.dependencies)


def _body_reading(route: Any) -> str | None:
    """How ``route`` reads a request body: ``"form"`` (FastAPI ``Form``/``File`` fields, or the
    :data:`Form` dependency), ``"json"`` (a model or value FastAPI reads as JSON), or None (none, or
    the raw bytes: ``POST /api/replay`` takes a record whatever its content type says)."""
    from fastapi import params

    found: str | None = None
    for dependant in _dependants(route):
        if dependant.call is form_data:
            return "form"
        for field in dependant.body_params:
            if isinstance(field.field_info, params.Form):  # File is a Form
                return "form"
            found = "json"
    return found


INPUTS = "cardbase.inputs"
"""Where :func:`single_values` leaves the request body's values (``Inputs``) in the request's scope,
for an error about one of them to name its field (``cardbase.web.errors.naming_inputs``)."""


@dataclass(frozen=True)
class Inputs:
    """The values a request's body gave, by field: ``kind`` ``"form"`` (a form's fields by name, files
    left out), ``"json"`` (a JSON body's values by path: ``seats[1].agent``), or ``"query"`` (no body)."""

    kind: str
    values: dict[str, Any]


def inputs_of(request: Request) -> Inputs:
    """The body's values :func:`single_values` read (none for a request it did not read)."""
    found = request.scope.get(INPUTS)
    return found if isinstance(found, Inputs) else Inputs("query", {})


async def single_values(request: Request) -> None:
    """Refuse a request that gives a one-value parameter twice: in the address, or in the body the
    route reads, a form (URL-encoded or multipart, through FastAPI or :data:`Form`) or a JSON object
    (at any depth). An app-wide dependency, run before each route's own; the form read here is the
    one the route then gets. The values read are kept on the request (:func:`inputs_of`), not read again."""
    import json

    from cardbase.errors import UsageError
    from cardbase.textfiles import refuse_duplicate_keys

    refuse_repeats(request.query_params.multi_items(), "parameter")
    if request.url.path.startswith("/api/"):  # a misspelt one is never read past (a page's address may carry others)
        refuse_undeclared_parameters(request)
    request.scope[INPUTS] = Inputs("query", {})
    for place, name in _whole_number_params(request.scope.get("route")):
        given = request.query_params.get(name) if place == "query" else request.path_params.get(name)
        refuse_lax_integer(given, name)
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    reading = _body_reading(request.scope.get("route"))
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    refuse_other_content(reading, kind, reading == "form" and not kind and bool(await request.body()))
    if reading == "form" and kind in _FORM_TYPES:
        form = await form_data(request)  # FastAPI's own, if it read it for the route's fields
        refuse_repeats(form.multi_items(), "form field")
        texts = {name: value for name, value in form.multi_items() if isinstance(value, str)}
        request.scope[INPUTS] = Inputs("form", texts)
    elif reading == "json":
        body = await request.body()
        try:
            data = json.loads(body, object_pairs_hook=refuse_duplicate_keys)
        except ValueError as error:
            if "given twice" in str(error):
                raise UsageError(f"the request body: {error}") from None
        except RecursionError:
            pass  # not JSON FastAPI reads: it refused it already
        else:
            from cardbase.web.errors import flat_fields

            request.scope[INPUTS] = Inputs("json", flat_fields(data))


def refuse_other_content(reading: str | None, kind: str, unlabelled: bool = False) -> None:
    """415 for a body whose Content-Type ``kind`` is not what its route reads (``reading``: ``"json"``
    or ``"form"``): Starlette reads JSON sent to a form route as a form of no fields, which the
    route took (a deck copied, a card saved with its defaults), and FastAPI reads a form sent to
    a JSON route as text. Without a Content-Type a JSON route reads the body as JSON; a form route
    would read it as no fields, so a body there without one (``unlabelled``) is refused too."""
    if reading is None or (not kind and not unlabelled):
        return
    json_kind = kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))
    read_as_sent = json_kind if reading == "json" else kind in _FORM_TYPES
    if read_as_sent:
        return
    from cardbase.errors import quoted
    from cardbase.web.errors import UnsupportedBody

    takes = "JSON (application/json)" if reading == "json" else f"a form ({' or '.join(_FORM_TYPES)})"
    sent = f"is {quoted(kind[:100])}" if kind else "has no Content-Type"
    raise UnsupportedBody(f"the request body {sent}; this address takes {takes}")


def form_text(form: Any, name: str, bound: int, default: str = "") -> str:
    """Field ``name`` of a form as text (``default`` when it is absent), or a usage error naming the
    field when it is a file or longer than ``bound`` characters."""
    from cardbase.errors import UsageError

    value = form.get(name)
    if value is None:
        return default
    if not isinstance(value, str):
        raise UsageError(f"the field {name} is text, not a file")
    if len(value) > bound:
        raise UsageError(
            f"the field {name} is {len(value):,} {plural(len(value), 'character')} long; at most {bound:,}"
        ).refusing(value)
    return value


def form_whole(
    value: object, name: str, low: int, high: int, default: int | None = None, *, at_field: bool = False
) -> int:
    """A whole number typed in a form or a query (``default`` when left empty, if it has one), from
    ``low`` to ``high``, or a usage error naming ``name``: digits only (no sign, ``_``, exponent or
    other script's digits), read only when no longer than ``high`` is. ``at_field``: the error names
    the input ``name`` as the one refused (``taking``), so a page shows it at that field."""
    from cardbase.errors import UsageError, quoted

    text = str(value if value is not None else "").strip()
    if not text and default is not None:
        return default
    if not (text.isascii() and text.isdecimal()) or len(text) > len(str(high)) or not low <= int(text) <= high:
        refused = UsageError(f"{name} must be a whole number from {low:,} to {high:,}, not {quoted(text)}")
        raise refused.taking(name, text).refusing(value) if at_field else refused.refusing(value)
    return int(text)


# --- versions: ETag and If-Match ------------------------------------------------------------------


def etag(kind: str, key: int | str, version: int) -> str:
    """The ETag of version ``version`` of thing ``kind`` ``key``: ``"deck-7-v3"``."""
    return f'"{kind}-{key}-v{version}"'


def tag(response: Response, kind: str, key: int | str, version: int) -> None:
    """Put the thing's ETag on ``response`` (a route's ``Response`` parameter, or a response)."""
    response.headers["ETag"] = etag(kind, key, version)


def _versions(tags: list[str], prefix: str) -> frozenset[str] | None:
    if tags == ["*"]:
        return None  # any version of a thing that exists; "*" beside tags is no If-Match RFC 9110 allows: none matches
    quoted_prefix = f'"{prefix}'
    out = set()
    for text in tags[:MAX_TAGS]:
        if text.startswith(quoted_prefix) and text.endswith('"') and len(text) > len(quoted_prefix):
            out.add(text[len(quoted_prefix) : -1])
    return frozenset(out)  # empty: a tag of no version of this thing, which never matches


def _whole(text: str) -> bool:
    return text.isascii() and text.isdecimal() and len(text) <= 18


def expected_tags(request: Request, prefix: str) -> frozenset[str] | None:
    """The versions ``If-Match`` accepts of a thing whose ETags are ``"<prefix><version>"`` (None: no
    If-Match, or ``*``), over every line of the header and every tag of its list; a weak tag
    (``W/"…"``) never matches, as RFC 9110 says (If-Match compares strongly)."""
    if "if-match" not in request.headers:
        return None
    return _versions(header_list(request, "if-match"), prefix)


def expected(request: Request, kind: str, key: int | str) -> frozenset[int] | None:
    """The versions ``If-Match`` accepts of thing ``kind`` ``key`` (:func:`etag`), as
    :func:`expected_tags` reads them."""
    versions = expected_tags(request, f"{kind}-{key}-v")
    return None if versions is None else frozenset(int(v) for v in versions if _whole(v))


def header_list(request: Request, name: str) -> list[str]:
    """The comma list header ``name`` gives, over all its field lines: lines of one name are one list
    (RFC 9110 §5.3), so ``If-Match: *`` and a tag on a second line are ``*, "tag"``, not ``*``."""
    return [t.strip() for line in request.headers.getlist(name) for t in line.split(",") if t.strip()]


def form_versions(form: Any) -> frozenset[int] | None:
    """The version a page's form was made from (its hidden ``version`` field), or None without one."""
    value = str(form.get("version") or "").strip()
    if not value:
        return None
    return frozenset([int(value)]) if _whole(value) else frozenset()


# --- downloads ------------------------------------------------------------------------------------


NAME_LIMIT = 150
"""A download's name has at most this many characters (its ending kept whole; file systems allow 255 bytes)."""

_ENDING = re.compile(r"(?:\.[A-Za-z0-9]{1,8}){1,2}$")
"""A file name's ending: one or two short ASCII parts (``.txt``, ``.plain.txt``, ``.code.txt``)."""

_LATIN = str.maketrans(
    {"Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Ø": "O", "ø": "o", "ß": "ss", "ẞ": "SS", "Đ": "D", "đ": "d"}
    | {"Ð": "D", "ð": "d", "Þ": "Th", "þ": "th", "Ł": "L", "ł": "l", "Ħ": "H", "ħ": "h", "ı": "i", "ŀ": "l"}
)
"""Latin letters that NFKD does not take apart into an ASCII letter and accents."""

_NOT_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def content_disposition(filename: str) -> str:
    """``attachment`` with ``filename`` as RFC 6266 and RFC 5987 say: the name in UTF-8
    (``filename*``), and an ASCII fallback for old clients; separators and control characters go.

    One rule gives both from the same name: the same base and the same whole ending (``.plain.txt``
    in both, never ``_plain.txt``); the fallback spells the base in ASCII (``Crème brûlée`` →
    ``Creme_brulee``, ``Ærø`` → ``AEro``), each run of what ASCII cannot spell one ``_``, and a base
    with no ASCII letter or digit at all (``勇者の山札``) ``download``. A name longer than
    ``NAME_LIMIT`` characters loses the end of its base, never its ending."""
    name = "".join("_" if c in '/\\"' else c for c in unicodedata.normalize("NFC", filename) if c.isprintable())
    name = name.strip(" .")
    ending_found = _ENDING.search(name)
    ending = ending_found.group(0) if ending_found and ending_found.start() > 0 else ""
    base = name[: len(name) - len(ending)].rstrip(" .")[: NAME_LIMIT - len(ending)].rstrip(" .") or "download"
    folded = unicodedata.normalize("NFKD", base.translate(_LATIN))
    spelt = "".join(c if c.isascii() else "" if unicodedata.combining(c) else "_" for c in folded)
    plain = _NOT_NAME.sub("_", spelt).strip("._-")[: NAME_LIMIT - len(ending)]
    if not any(c.isalnum() for c in plain):
        plain = "download"
    return f"attachment; filename=\"{plain}{ending}\"; filename*=UTF-8''{quote(base + ending, safe='')}"


SHEET_MEDIA = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
"""The media type of each form a catalog or a collection is exported in."""


def download(data: bytes | str, filename: str, media_type: str, headers: dict[str, str] | None = None) -> Response:
    """A file to save, named ``filename`` (any script)."""
    return Response(
        data, media_type=media_type, headers={"Content-Disposition": content_disposition(filename), **(headers or {})}
    )


# --- an import route reads every field it is sent ----------------------------------------------------


def _declared(request: Request) -> tuple[set[str], set[str]]:
    """The query parameters and form fields the request's route (and its dependencies) read."""
    query: set[str] = set()
    form: set[str] = set()
    for found in _dependants(request.scope.get("route")):
        query |= {name for p in found.query_params for name in _names_of(p)}
        form |= {p.alias for p in found.body_params}
    return query, form


def _names_of(param: Any) -> set[str]:
    """The names a query parameter is given by: its own, or a model's fields' (``Annotated[PdfOptions, Query()]``)."""
    kind = param.field_info.annotation
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return {f.alias or name for name, f in kind.model_fields.items()}
    return {param.alias}


def refuse_undeclared_parameters(request: Request, query: set[str] | None = None) -> None:
    """Refuse a query parameter the request's route does not read (``query``: the ones it reads)."""
    from cardbase.errors import UsageError, quoted

    if request.scope.get("route") is None:
        return
    if query is None:
        query = _declared(request)[0]
    for key in request.query_params:
        if key not in query:
            takes = ", ".join(sorted(query)) or "none"
            raise UsageError(f"{quoted(key[:40])} is not a parameter of this request (its parameters: {takes})")


async def only_declared(request: Request) -> None:
    """Refuse a query parameter or form field the route does not read (a dependency of the import
    routes): a misspelt ``dryrun`` was read past, and the file imported for good."""
    from cardbase.errors import UsageError, quoted

    if request.scope.get("route") is None:
        return
    query, form = _declared(request)
    refuse_undeclared_parameters(request, query)
    kind = request.headers.get("content-type", "").lower()  # a media type is case-insensitive (RFC 9110)
    # a route of no form fields reads its body as sent (``curl --data-binary @game.jsonl`` calls a
    # record a form): it is not read as one
    if form and kind.startswith(("multipart/form-data", "application/x-www-form-urlencoded")):
        for key in await request.form():
            if key not in form:
                takes = ", ".join(sorted(form)) or "none"
                raise UsageError(f"{quoted(key[:40])} is not a field of this request (its fields: {takes})")


OnlyDeclared = Depends(only_declared)
"""``dependencies=[OnlyDeclared]`` on an import route: nothing it is sent is read past."""
