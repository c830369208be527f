"""The one error boundary of the ``cardbase`` command.

Whatever a command raises ends here as one line on stderr and an exit code:

- ``CardbaseError`` (``cardbase.errors``): its message, its exit code (1 invalid, 2 unreadable/usage);
- a usage error found by the option parser: its message and the command's ``--help``, exit 2;
- Ctrl-C: ``cardbase: interrupted`` (long commands raise ``Interrupted`` saying what had finished), exit 130;
  SIGTERM alike, ``cardbase: terminated``, exit 143 (``cardbase.interrupts``);
- a database the driver refuses mid-command (locked, read-only, damaged), an input nested too deeply or
  too big for memory: the user error ``cardbase.faults`` makes of it;
- anything else is a bug: a short line naming the file the full traceback was written to, exit 70.

Every line is passed through ``mask_secrets`` so that a database password never reaches the terminal.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, NoReturn

import typer

from cardbase import interrupts
from cardbase.errors import CardbaseError, Interrupted, OutputFailed, mask_secrets

INTERNAL_ERROR_EXIT = 70  # sysexits.h EX_SOFTWARE
BROKEN_PIPE_EXIT = 141  # 128 + SIGPIPE, as a shell reports a program the signal stopped
INTERRUPTED_EXIT = 130


def say(message: str, items: Sequence[str] = ()) -> None:
    """One ``cardbase: …`` message on stderr, secrets masked and every character a terminal would act
    on (an escape or a bell in a path the user gave) shown as a visible escape, every line break as
    ``\\n`` (a path named ``a<newline>  b`` stays on the line). The ``items`` a message lists (an
    error's ``listed``) are lines of their own below it, indented, each made safe alike."""
    from cardbase.cli.common import one_line

    lines = [one_line(mask_secrets(message)), *(f"  {one_line(mask_secrets(item))}" for item in items)]
    typer.echo("\n".join(lines), err=True)


def fail(message: str, code: int, items: Sequence[str] = ()) -> NoReturn:
    say(message, items)
    raise typer.Exit(code)


def handle_command_error(error: BaseException) -> NoReturn:
    """Turn an error raised while a command ran into its message and exit code (re-raises Click's own)."""
    if isinstance(error, typer.Exit | typer.Abort | typer.TyperException):
        raise error
    if isinstance(error, Interrupted):
        fail(f"cardbase: {interrupts.word()}: {error}", interrupts.exit_code())
    if isinstance(error, CardbaseError):
        if error.listed is not None and str(error) == "\n".join(
            [error.listed[0], *(f"  {i}" for i in error.listed[1])]
        ):
            head, items = error.listed  # a listing only as the message still is one (not replaced by a subclass)
            fail(f"cardbase: error: {head}", error.exit_code, items)
        fail(f"cardbase: error: {error}", error.exit_code)
    if isinstance(error, KeyboardInterrupt) or _while_interrupted(error):
        fail(f"cardbase: {interrupts.word()}", interrupts.exit_code())
    if isinstance(error, BrokenPipeError):
        # The reader of our output went away (`| head`): nothing left to say to it. Exit as a program
        # that SIGPIPE stopped (128 + 13, what `yes | head` gives), not 1, which says "checked and invalid".
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise typer.Exit(BROKEN_PIPE_EXIT)
    from cardbase.faults import user_error as translate

    user_error = translate(error)
    if user_error is not None:
        fail(f"cardbase: error: {user_error}", user_error.exit_code)
    fail(_crash_report(error), INTERNAL_ERROR_EXIT)


class _GuardedStdout:
    """``sys.stdout`` while a command runs (:func:`guarded_stdout`): a write or flush the system refuses
    (a full disk, ENOSPC; an I/O error, EIO; a file over its size limit, EFBIG) is :class:`OutputFailed`
    naming standard output, exit 2, wherever the command wrote from (``echo``, Rich, JSON), and is
    remembered (``failed``): a caller that swallows it (Click probes a stream by writing ``""``) does
    not make a lost output a success. A reader that went away stays a ``BrokenPipeError`` (exit 141)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.failed: OSError | None = None

    def error(self) -> OutputFailed:
        assert self.failed is not None
        return OutputFailed(f"- (standard output): cannot write: {self.failed.strerror or self.failed}")

    def _failing(self, error: OSError) -> OutputFailed:
        self.failed = self.failed or error
        return self.error()

    def silence(self) -> None:
        """What is still buffered goes nowhere: the interpreter's last flush would fail again and say
        "Exception ignored", exit 120, after the one line."""
        with suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)

    def write(self, text: str) -> int:
        if isinstance(text, str) and not text:  # nothing to write (Click's probe): never the system's say
            return 0
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self._failing(error) from None

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self._failing(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def guarded_stdout() -> Iterator[None]:
    """While the block runs (one command), standard output is :class:`_GuardedStdout`. As the block ends
    (returning, or by an exit with its code), its output is flushed, and output the system refused at
    any point is one error line here (exit 2), never a success, nor a failure of the interpreter's last
    flush after the command said it was done. An error the command raised stays what is said."""
    stream = sys.stdout
    guard = _GuardedStdout(stream)
    sys.stdout = guard
    try:
        try:
            yield
        except (typer.Exit, SystemExit):
            _finish(guard)
            raise
        except BaseException:
            if sys.stdout is guard:
                with suppress(OutputFailed, OSError, ValueError):
                    guard.flush()
            if guard.failed is not None:
                guard.silence()
            raise
        _finish(guard)
    finally:
        if sys.stdout is guard:
            sys.stdout = stream


def _finish(guard: _GuardedStdout) -> None:
    """The end of a command that ran to its exit: its output flushed, or ``OutputFailed`` if any was refused."""
    if sys.stdout is guard:
        with suppress(OutputFailed):
            guard.flush()
    if guard.failed is not None:
        guard.silence()
        raise guard.error() from None


def _while_interrupted(error: BaseException) -> bool:
    """Whether ``error`` was raised while a Ctrl-C or SIGTERM unwound the command (a clean-up that
    could not run on a transaction the interruption cut): the interruption is what to report."""
    seen: set[int] = set()
    context = error.__context__
    while context is not None and id(context) not in seen:
        if isinstance(context, KeyboardInterrupt):
            return True
        seen.add(id(context))
        context = context.__context__
    return False


_NEGATED_TERM = re.compile(r"-[A-Za-z][A-Za-z_]*(?::|[<>]=?|!?=)\S+")
"""A word that reads as a negated query term (``-t:tile``, ``-game:mea``, ``-cost>=3``)."""


def _negated_term(error: typer.TyperException, args: Sequence[str]) -> str | None:
    """The word of ``args`` that Click read as a short option (``-cost>=3``: no such option ``-c``),
    or one with its value attached (``-game:mea``: ``-g`` given ``ame:mea``), and that reads as a
    negated query term: for an error about that option."""
    param = getattr(error, "param", None)
    options = [
        getattr(error, "option_name", None) or "",
        *getattr(param, "opts", ()),
        *getattr(param, "secondary_opts", ()),
    ]
    shorts = [o for o in options if len(o) == 2]
    return next((w for w in args if w[:2] in shorts and _NEGATED_TERM.fullmatch(w)), None)


def handle_usage_error(error: typer.TyperException, command_path: str = "cardbase", args: Sequence[str] = ()) -> int:
    """Print a parser error as one line with where to find help (the error's own command, else
    ``command_path``); its exit code. ``args``: the words typed, to name a negated query term that
    Click read as a short option and its value."""
    ctx = getattr(error, "ctx", None)
    if type(error).__name__ == "NoArgsIsHelpError":  # a bare group name: its help is the answer
        from cardbase.cli.common import echo

        echo(error.format_message(), err=True)
        return error.exit_code
    hint = f" (see '{ctx.command_path if ctx is not None else command_path} --help')"
    option = getattr(error, "option_name", "")
    takes_query = ctx is not None and any(p.name == "query" for p in ctx.command.params)
    term = _negated_term(error, args) if ctx is not None and takes_query else None
    if ctx is not None and (
        term is not None
        or (type(error).__name__ == "NoSuchOption" and takes_query and re.fullmatch(r"-[A-Za-z]", option))
    ):
        # `cards search -t:tile`: Click reads the query's negation as the short option -t; `-game:mea`,
        # as -g with the value 'ame:mea'
        hint += f"; a query that starts with '-' goes after '--', e.g. {ctx.command_path} -- {term or '-t:tile'}"
    elif type(error).__name__ == "NoSuchOption" and not re.fullmatch(r"--?[A-Za-z][A-Za-z-]*", option):
        # `collection set CARD -1`: the value is read as an option; say the form for this command
        arguments = (
            [p.name.upper() for p in ctx.command.params if p.param_type_name == "argument" and p.name] if ctx else []
        )
        form = (
            f"{ctx.command_path} [OPTIONS] -- {' '.join(arguments)}"
            if ctx and arguments
            else "cardbase cards search -- -t:tile"
        )
        hint += f"; a value that starts with '-' goes after '--', e.g. {form}"
    say(f"cardbase: error: {error.format_message()}{hint}")
    return error.exit_code


def _crash_report(error: BaseException) -> str:
    """Write the traceback to a file; the one line that says where."""
    from cardbase.crash import crash_report

    return "cardbase: " + crash_report(error, f"cardbase {' '.join(sys.argv[1:])}")
