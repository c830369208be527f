"""What every command shares: options, output, and turning user errors into exit codes.

Only ``typer`` is imported at module level so that ``cardbase --help`` stays fast.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from cardbase import jsonout
from cardbase.cli import complete
from cardbase.games.base import DECIMAL, MAX_DECIMAL_CHARS
from cardbase.terminal import UNSAFE as _UNSAFE
from cardbase.terminal import console as console  # the escaping helpers live there, shared with sim and web
from cardbase.terminal import one_line as one_line
from cardbase.terminal import safe_text as safe_text

if TYPE_CHECKING:  # imported lazily at run time
    from cardbase.db.engine import Database


def checked_path(value: Any) -> Any:
    """The callback of every path option and argument: a path no file system can hold (a NUL, a name
    over 255 bytes, over 4,095 bytes in all) is a usage error naming the option, before any command
    looks it up (the system's ENAMETOOLONG, or Python's ValueError for a NUL, would be a crash)."""
    from cardbase.textfiles import path_problem

    for path in value if isinstance(value, list | tuple) else [value]:
        if path is not None and (problem := path_problem(path)) is not None:
            raise typer.BadParameter(problem)
    return value


def pdf_output(value: Any) -> Any:
    """The callback of ``print``'s ``--output``: :func:`checked_path`, and a name whose ending says
    another kind of file than the PDF written (``-o sheet.png``) is refused as it is parsed."""
    checked_path(value)
    return _of_kind(value, {"PDF": (".pdf",)}, "print")


def png_plot(value: Any) -> Any:
    """The callback of ``draws --plot``: :func:`checked_path`, and a name whose ending says another
    kind of file than the PNG drawn (``--plot p.svg``) is refused as it is parsed."""
    checked_path(value)
    return _of_kind(value, {"PNG": (".png",)}, "--plot")


def _of_kind(value: Any, kinds: dict[str, tuple[str, ...]], writer: str) -> Any:
    from cardbase.errors import UsageError
    from cardbase.textfiles import output_kind

    if value is not None:
        try:
            output_kind(value, None, kinds, next(iter(kinds)), writer=writer)
        except UsageError as error:
            raise typer.BadParameter(str(error)) from None
    return value


pdf_output.checks_path = checked_path  # type: ignore[attr-defined]
png_plot.checks_path = checked_path  # type: ignore[attr-defined]


def art_folder(value: Any) -> Any:
    """The callback of ``--images`` (a folder of card art, read, with the face cache written inside
    it): :func:`checked_path`, and a path that is there must be a folder. A file, a FIFO, a device or
    a link to nothing was an internal error when the cache was written inside it. A missing folder
    means no art (every card a placeholder; the folder is made for the cache)."""
    import os

    from cardbase.errors import quoted

    checked_path(value)
    if value is not None and os.path.lexists(value) and not os.path.isdir(value):
        from cardbase.textfiles import what_it_is

        try:
            kind = "a file" if os.path.isfile(value) else what_it_is(os.stat(value).st_mode)
        except OSError:
            kind = "a link to nothing"
        raise typer.BadParameter(f"{quoted(str(value))}: is {kind}, not a folder (give the folder of card art)")
    return value


art_folder.checks_path = checked_path  # type: ignore[attr-defined]  # (not __wrapped__: Typer reads the signature through it)


class Number:
    """The parser of every option that takes a number with a fraction (``typer.Option(parser=Number(…))``):
    plain decimal digits (``2``, ``0.5``, ``1e-2``) from ``low`` to ``high``. ``nan``, ``inf``, a
    negative zero and a number too large for a float (``1e309``, which Python reads as infinity) are
    each refused with their own reason, never compared as numbers (a NaN passes or fails every range
    check at random, and Click's own range check named the bound, not the problem)."""

    _MAX_CHARS = MAX_DECIMAL_CHARS

    def __init__(self, low: float, high: float, unit: str = "") -> None:
        self.low, self.high, self.unit = low, high, unit

    def __call__(self, value: Any) -> float:
        if isinstance(value, int | float) and not isinstance(value, bool):  # the default, already a number
            return float(value)
        from cardbase.errors import quoted

        text = str(value).strip()
        span = f"{self.low:g}{self.unit} to {self.high:g}{self.unit}"
        word = text.lower().lstrip("+-")
        if word in ("nan", "snan", "qnan"):
            self._refuse(f"{quoted(text)} is not a number (NaN): give a number from {span}")
        if word in ("inf", "infinity"):
            self._refuse(f"{quoted(text)} is infinite: give a number from {span}")
        if len(text) > self._MAX_CHARS or not DECIMAL.fullmatch(text):
            self._refuse(f"{quoted(text, self._MAX_CHARS)} is not a number: give a number from {span} (digits, '.')")
        number = float(text)
        if math.isinf(number):
            self._refuse(f"{text} is too large to be a number here: give a number from {span}")
        if number == 0 and math.copysign(1.0, number) < 0 and self.low <= 0:
            self._refuse(f"{text} is a negative zero: give 0 (numbers from {span})")
        if not self.low <= number <= self.high:
            self._refuse(f"{text}{self.unit} is out of range: use {span}")
        return number

    @staticmethod
    def _refuse(message: str) -> NoReturn:
        from pydantic_core import PydanticCustomError

        raise PydanticCustomError("number", message)  # the option parser shows this message as it is


def _db_given(ctx: typer.Context, param: typer.CallbackParam, value: str | None) -> str | None:
    """``--db`` (or ``CARDBASE_DB``) checked as it is parsed, naming where it came from: a blank value
    (a script's ``--db "$DB"`` with DB unset) is refused, not taken as the default ./cardbase.db (made
    anew if it is not there); so is one that can name no database (``engine.location_problem``)."""
    if value is None:
        return value
    from cardbase.db.engine import location_problem

    problem: str | None
    if not value.strip():
        problem = f"{value!r} is blank: give a SQLite file path or a database URL (leave --db out for ./cardbase.db)"
    else:
        problem = location_problem(value)
    source = ctx.get_parameter_source(param.name or "db")  # (read by name: Typer has its own Click)
    if problem is not None and source is not None and source.name == "ENVIRONMENT":
        problem = f"(set in the environment) {problem}"
    if problem is not None:
        raise typer.BadParameter(problem)
    return value


DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="CARDBASE_DB",
        help="Database: a SQLite file path or any SQLAlchemy URL (default: ./cardbase.db).",
        show_default=False,
        callback=_db_given,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of a table.")]
SheetFormatIn = Annotated[
    str | None,
    typer.Option(
        "--format",
        "-f",
        shell_complete=complete.choices("csv", "xlsx", "json"),
        help="csv, xlsx or json (default: from the extension).",
    ),
]
"""The form of a table file read (catalog imports; collection import adds text)."""
SheetFormatOut = Annotated[
    str | None,
    typer.Option(
        "--format",
        "-f",
        shell_complete=complete.choices("csv", "json", "xlsx"),
        help="csv, json or xlsx (default: the --output name's ending, else csv).",
        show_default=False,
    ),
]
"""The form of a table file written (catalog and collection exports); see ``SHEET_KINDS``."""
SHEET_KINDS: dict[str, tuple[str, ...]] = {"csv": (".csv",), "json": (".json",), "xlsx": (".xlsx",)}
"""The endings of a table file written, by its form (``cardbase.textfiles.output_kind``): an
import reads a file by its ending, so an export never writes one form under another's."""
FormatsOption = Annotated[
    Path | None,
    typer.Option(
        "--formats",
        help="TOML file of house formats, known beside the game's own (examples/formats/house.toml).",
        callback=checked_path,
    ),
]


def _dask_address(value: str | None) -> str | None:
    """``--dask`` checked as it is parsed, before the decks are read or anything is started."""
    if value is None:
        return None
    from cardbase.errors import UsageError
    from cardbase.sim.dask_backend import scheduler_address

    try:
        return scheduler_address(value)
    except UsageError as error:
        raise typer.BadParameter(str(error).removeprefix("--dask ")) from None


DaskOption = Annotated[
    str | None,
    typer.Option(
        "--dask",
        help="Run the games on a Dask cluster: a scheduler address (tcp://host:8786) or 'local' for a LocalCluster "
        "of --jobs workers here, one per core at most (needs the dask extra: uv run --extra dask …). Same results "
        "as a local run.",
        show_default=False,
        callback=_dask_address,
    ),
]
CardArg = Annotated[
    str, typer.Argument(help="Card name or alias (any case, accents optional).", shell_complete=complete.cards)
]
CardGameOpt = Annotated[
    str | None,
    typer.Option("--game", "-g", shell_complete=complete.games, help="Game, when the name is in several."),
]

MAX_SEED = 2**64 - 1
"""Seeds are whole numbers from 0; 64 bits is more than any RNG here keeps. The value of
``cardbase.games.base.MAX_SEED``, written again: importing the engines' base costs start-up time."""


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """The one way the command line writes text (``typer.echo`` and ``print`` are kept out of
    ``cardbase/cli`` by a source rule): every character a terminal would act on — in a path, card,
    deck or file name the text quotes — shown as a visible escape (``\\x1b``); line breaks and tabs are
    kept, for the program's own multi-line blocks. A message of one line is :func:`say_done`,
    :func:`warn` or :func:`note`, which show a line break in a value as ``\\n`` too."""
    typer.echo(safe_text(text), err=err, nl=nl)


def say_done(line: str, err: bool = False) -> None:
    """One line on stdout saying what was done (``wrote PATH``), with every character a terminal would
    act on (in a path the user typed) shown as a visible escape, a line break as ``\\n``. Nothing when
    the file went to standard output (``-o -``): that is no file to name (``wrote -``), and standard
    output carries the data alone, so every command that writes one says nothing alike. ``err``: on
    stderr (after ``--json``, which standard output holds)."""
    from cardbase.textfiles import data_on_stdout

    if data_on_stdout():
        return
    typer.echo(one_line(line), err=err)


_JSON_UNSAFE: dict[int, str] = {}


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON (UTF-8, keys in the order given). ``json`` writes C0 controls as
    ``\\u00XX`` already; DEL, C1 controls and bidirectional overrides, which it leaves raw, are written
    so too: valid JSON holding the same data, with nothing a terminal would act on. A float that is
    not finite (no games to count, an unbounded interval's end) is ``null`` (:mod:`cardbase.jsonout`)."""
    if not _JSON_UNSAFE:
        _JSON_UNSAFE.update({c: f"\\u{c:04x}" for c in _UNSAFE})
    from cardbase.stdio import is_utf8

    # An output encoding that is not UTF-8 (PYTHONIOENCODING=latin-1) gets JSON all in ASCII: valid
    # JSON there too, where a character written as the encoding's escape would not be.
    ascii_only = not is_utf8(sys.stdout)
    text = jsonout.dumps(data, ensure_ascii=ascii_only, indent=2, default=str)
    sys.stdout.write(text.translate(_JSON_UNSAFE) + "\n")


def warn(message: str) -> None:
    """One warning line on stderr (control characters and line breaks shown as escapes: :func:`one_line`)."""
    typer.echo(one_line(f"warning: {message}"), err=True)


def note(message: str) -> None:
    """One note on stderr: something the user should know that is not a problem."""
    typer.echo(one_line(f"note: {message}"), err=True)


def deck_notes(resolved: Any) -> None:
    """Warn on stderr when a deck argument named a file and a database deck alike (the file was read)."""
    for problem in resolved.problems:
        if problem.code == "file-and-database-deck":
            warn(f"{problem.message} ({problem.hint})")


def loaded_notes(*loaded: Any) -> None:
    """The same warning for decks loaded to play (``sim.mea.LoadedDeck``)."""
    for deck in loaded:
        for note in deck.notes:
            warn(note)


def open_db(db: str | None) -> Database:
    """The catalog database at ``db`` (or the default), opened and loaded."""
    from cardbase.db.engine import open_database

    database = open_database(db)
    for note in database.notes:
        warn(note)
    return database


FIRST_SECOND = (
    "1st, 2nd: the deck's win rate going first, going second (half the games each), its 95% interval under it."
)
"""The note under a Méa table of win rates (``lab gauntlet``, ``sim mea``)."""
