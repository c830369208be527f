"""The line a person types in ``cardbase play``: prompt_toolkit on a terminal (history,
line editing, tab completion of the game's words and card names), plain line reading
otherwise (tests, pipes: a script of moves piped in still plays)."""

from __future__ import annotations

import builtins
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from cardbase.fuzzy import begins
from cardbase.names import fold
from cardbase.sim.play import Vocabulary
from cardbase.terminal import console, safe_text

_SEPARATORS = re.compile(r"[,+@]")


def history_path() -> Path:
    """Where the prompt keeps its history: ``cardbase/play-history`` in the user's cache directory."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path("~/.cache").expanduser())
    return Path(base) / "cardbase" / "play-history"


def completions(text: str, vocabulary: Vocabulary) -> list[tuple[str, int]]:
    """What the text before the cursor may complete to: ``(completion, characters it replaces)``.

    A name completes from its start or from the start of any of its words (``ferr`` →
    Pickpocket Ferret), over several typed words, in any case and with or without accents
    (``jalap`` → Jalapeño Imp); a game word from its start."""
    if not text or text[-1].isspace():
        return []
    tail = _SEPARATORS.split(text)[-1].lstrip()
    words = tail.split()
    out: list[tuple[str, int]] = []
    seen: set[str] = set()
    for k in range(len(words), 0, -1):
        fragment = " ".join(words[-k:])
        key = fold(fragment)
        for name in vocabulary.names:
            if name not in seen and fold(name) != key and begins(key, name):
                seen.add(name)
                out.append((name, len(fragment)))
    last = fold(words[-1]) if words else ""
    for word in vocabulary.words:
        if fold(word).startswith(last) and fold(word) != last and word not in seen:
            seen.add(word)
            out.append((word, len(words[-1])))
    return out


def make_reader(
    vocabulary: Vocabulary,
    *,
    interactive: bool | None = None,
    history: Path | None = None,
    input: Any = None,
    output: Any = None,
) -> Callable[[str], str | None]:
    """``read(prompt)``: the next line, or ``None`` at the end of input. Ctrl-C raises
    :class:`KeyboardInterrupt` (the game then saves its record).

    With ``interactive`` (default: stdin and stdout are terminals), or a prompt_toolkit
    ``input`` given (tests: ``create_pipe_input``), a prompt_toolkit session with
    in-memory history (also kept in the file ``history`` if it can be written) and tab
    completion; otherwise plain ``input()``."""
    if interactive is None:
        interactive = input is not None or (sys.stdin.isatty() and sys.stdout.isatty())
    if not interactive:
        return _plain_read
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.history import FileHistory, History, InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings

    class _Completer(Completer):
        def get_completions(self, document: Document, complete_event: Any) -> Iterator[Completion]:
            for text, replaced in completions(document.text_before_cursor, vocabulary):
                yield Completion(text, start_position=-replaced)

    kept: History = InMemoryHistory()
    if history is not None:
        try:
            history.parent.mkdir(parents=True, exist_ok=True)
            history.touch()
            kept = FileHistory(str(history))
        except OSError:
            pass  # an unwritable cache: the history lasts for this game only
    keys = KeyBindings()

    @keys.add("tab")
    def _tab(event: Any) -> None:
        """One completion is written at once; several open the menu (Tab again: the next)."""
        buffer = event.current_buffer
        if buffer.complete_state:
            buffer.complete_next()
            return
        found = completions(buffer.document.text_before_cursor, vocabulary)
        if len(found) == 1:
            text, replaced = found[0]
            buffer.delete_before_cursor(replaced)
            buffer.insert_text(text)
        elif found:
            buffer.start_completion(select_first=False)

    session: PromptSession[str] = PromptSession(
        history=kept,
        completer=_Completer(),
        complete_while_typing=False,
        key_bindings=keys,
        input=input,
        output=output,
    )

    def read(prompt: str) -> str | None:
        try:
            return session.prompt(safe_text(prompt))
        except EOFError:
            return None

    return read


def _plain_read(prompt: str) -> str | None:
    try:
        return builtins.input(safe_text(prompt))
    except EOFError:
        return None


def writer(styled: Callable[[str], Any] | None = None) -> Callable[[str], None]:
    """``write(text)`` for the game's log: on a terminal, Rich wraps long lines at spaces
    (and ``styled`` may colour them; none under NO_COLOR); elsewhere each line is printed
    as it is, unwrapped and uncoloured. The text (card, deck and player names from imported
    catalogs and decks among it) is shown as it is: no markup or emoji code read into it, every
    character a terminal would act on shown as a visible escape (:func:`cardbase.terminal.safe_text`),
    before ``styled`` sees it so that widths stay right."""
    out = console()

    def write(text: str) -> None:
        shown = safe_text(text)
        out.print(styled(shown) if styled is not None else shown, soft_wrap=not out.is_terminal)

    return write
