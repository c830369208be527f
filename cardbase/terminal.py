"""Text shown on a terminal: every character a terminal would act on made visible, never acted on.

The one escaper of the package (the command line's ``cardbase.cli.common.echo``, the play prompt,
the Méa table, the web server's log lines and uvicorn's own, ``cardbase.web.serverlog``, all use
it): a card, deck or player name, a note or a request path from outside is shown as the text it
is — ``\\x1b`` for an ESC, ``\\u202e`` for a bidi override — and, through :func:`console`, never
read as Rich markup (``[bold]``, ``[link=…]``) or an emoji code (``:smile:``). Rich is imported on
first use.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

# Characters a terminal acts on instead of showing: C0 controls but tab and newline, DEL, C1
# controls (ESC and CSI start escape sequences), and the bidirectional overrides that reorder text.
UNSAFE = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))}
UNSAFE.update({c: f"\\u{c:04x}" for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))})


def safe_text(text: str) -> str:
    """``text`` with every character a terminal would act on shown as a visible escape (``\\x1b``)."""
    return text.translate(UNSAFE)


def one_line(text: str) -> str:
    """``text`` made terminal-safe (:func:`safe_text`) on one line: a line break or tab in it (a path
    named ``a<newline>  b``) is shown as ``\\n`` or ``\\t`` instead of splitting the line."""
    return safe_text(text).replace("\n", "\\n").replace("\t", "\\t")


def log_line(line: str) -> None:
    """One line on stderr (a server's log): terminal-safe, a line break in it shown as ``\\n``, so a
    request's text can neither act on the terminal nor forge a second log line."""
    print(one_line(line), file=sys.stderr)


def console(stderr: bool = False) -> Console:
    """A Rich console (imported on first use) that never lets a control character reach the terminal
    and reads no markup, emoji codes or highlighting into the strings it prints.

    Every string it prints, and every table cell, title and caption, becomes text through
    ``render_str``, where ``safe_text`` is applied before layout (so widths stay right); text
    already made into Rich ``Text`` is made safe segment by segment as a last guard.
    """
    from rich.console import Console
    from rich.segment import Segment

    class _SafeConsole(Console):
        def render_str(self, text: str, **kwargs: Any) -> Any:
            return super().render_str(safe_text(text), **kwargs)

        def render(self, renderable: Any, options: Any = None) -> Any:
            for segment in super().render(renderable, options):
                if segment.control is None and segment.text != safe_text(segment.text):
                    yield Segment(safe_text(segment.text), segment.style)
                else:
                    yield segment

        def on_broken_pipe(self) -> None:
            # Rich would exit 1 ("checked and invalid" here): let the command's boundary end it (141).
            self.quiet = True
            raise BrokenPipeError

    return _SafeConsole(stderr=stderr, highlight=False, markup=False, emoji=False, soft_wrap=False)


def progress_console() -> Console | None:
    """The console a progress display is drawn on (stderr), or None where stderr is not a terminal
    that can draw one (a pipe, a log file, a dumb terminal): there a bar shows nothing, and Rich's
    display wrote a blank line as it closed — after every run, and before a ``| head`` exit (141)."""
    err = console(stderr=True)
    return err if err.is_terminal and not err.is_dumb_terminal else None
