"""The one translation of a fault raised deep in a library into the user error it is, for both faces.

A driver's refusal (a lock not had in time, a full connection pool, a read-only or damaged
database, a text the database cannot hold), an input nested too deeply to read, an input too big
for the machine's memory, a path the system does not let this user reach (in a folder they may
not enter: Python's ``Path.exists`` raises for it): each is a ``CardbaseError`` the CLI
(``cli/boundary.py``) prints as one line with its exit code and the web app (``web/errors.py``)
answers with its status. Anything else is a bug (None here), reported by ``cardbase.crash``.
"""

from __future__ import annotations

from cardbase.errors import CardbaseError, UnreadableInput, UsageError, shown


def user_error(error: BaseException) -> CardbaseError | None:
    """``error`` as the user error it is, or None when it is a bug."""
    from sqlalchemy.exc import DatabaseError as SADatabaseError
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    if isinstance(error, PoolTimeout | OperationalError | SADatabaseError):
        from cardbase.db.engine import database_error

        return database_error(error)
    if isinstance(error, RecursionError):
        return UsageError("the input is nested too deeply to read")
    if isinstance(error, MemoryError):
        return UsageError("the input needs more memory than this machine has; use a smaller one")
    if isinstance(error, PermissionError) and error.filename is not None:
        return Unreachable(str(error.filename), error.strerror or "permission denied")
    return None


class Unreachable(UnreadableInput):
    """A path the system does not let this process's user reach. At the command line it is the user's
    input (exit 2, ``this user may not reach it``); on the web the server's own file, which no request
    made so: a server fault (500) said as the server's (:attr:`on_server`)."""

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"{shown(path)}: {reason} (this user may not reach it)")

    @property
    def on_server(self) -> str:
        """The fault as the web says it: the server's, not the request's."""
        return (
            f"the server cannot read {shown(self.path)}: {self.reason} (the server's user may not reach it; "
            "its operator can fix that)"
        )
