"""The ``cardbase`` console script: Ctrl-C and SIGTERM are handled before anything heavy is imported.

Importing the command line (Typer, Click, every command group) takes a noticeable moment; a
Ctrl-C pressed then must end like one pressed later: ``cardbase: interrupted``, exit 130, no
traceback. So this module imports nothing of weight, installs ``cardbase.interrupts`` first, and
imports the application inside the ``try``. After the command, while the interpreter shuts
down, a signal ends the process at once and silently.
"""

from __future__ import annotations

import sys

from cardbase import interrupts, stdio


def main() -> None:
    """Entry point of the ``cardbase`` console script and of ``python -m cardbase``."""
    try:
        interrupts.install()  # inside the ``try``: a signal may land before ``install`` returns
        stdio.prepare()  # a closed standard stream held, an encoding that lacks characters escaped
        from cardbase.cli.app import main as run

        run()
    except KeyboardInterrupt:  # before the command's own boundary was in place, or after it
        interrupts.quiet_exit()  # a second signal while the line is written: exit at once
        try:
            sys.stderr.write(f"cardbase: {interrupts.word()}\n")
            sys.stderr.flush()
        finally:
            sys.exit(interrupts.exit_code())
    finally:
        interrupts.quiet_exit()
