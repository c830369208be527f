"""The command line: thin Typer apps, one module per command group.

Help is formatted by Click's plain formatter, not Rich: Typer's Rich help imports Rich's
Markdown and syntax highlighting (about 0.25 s), which would triple the start-up time of
``cardbase --help``. Set before Typer is first imported; Rich still draws the tables.

A command group's module is imported, and its Typer app built (Typer reads every command's
signature), only when the group is used: ``cardbase --help`` lists the groups from ``app.COMMANDS``.
"""

import os

os.environ.setdefault("TYPER_USE_RICH", "0")
