"""The one crash report of both faces: a bug's traceback written to a file, and the line that says where."""

from __future__ import annotations

import os
import tempfile
import time
import traceback

from cardbase.errors import mask_secrets


def crash_report(error: BaseException, heading: str) -> str:
    """Write ``error``'s traceback (secrets masked) under ``heading`` to a temporary file; the one
    line that names the error and the file (no ``cardbase:`` prefix: each face adds its own)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    text = mask_secrets("".join(traceback.format_exception(error)))
    try:
        fd, path = tempfile.mkstemp(prefix=f"cardbase-crash-{stamp}-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(f"{heading}\n\n{text}")
        said = f"the traceback is in {path}"
    except OSError:
        said = "the traceback could not be written"
    summary = mask_secrets(str(error).splitlines()[0])[:200] if str(error) else ""
    return (
        f"internal error: {type(error).__name__}{': ' + summary if summary else ''} "
        f"(a bug in cardbase; {said}, please report it)"
    )
