"""A SQLite database in a folder cardbase cannot write to (a read-only mount, a shared catalog): SQLite
cannot make the ``-shm`` file a WAL database is read through, so even a search was refused ("cannot
open the database file"), and a new database there was refused without naming the folder. Now it is
read (read-only and immutable), with a warning naming the folder; a change is refused as read-only,
exit 2, the file as it was; a new database there names the read-only folder, exit 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import POSTGRES, REPO
from tests.hostile.conftest import assert_no_crash, assert_refused, db_dump, run_cli

pytestmark = pytest.mark.skipif(bool(POSTGRES), reason="SQLite's files and folders")

READS = [
    ["cards", "search", "cost<=2", "--game", "mea"],
    ["cards", "show", "Crumb Goblin"],
    ["deck", "list"],
    ["catalog", "status", "--game", "mea"],
    ["catalog", "export", "--game", "mea", "--format", "csv", "-o", "-"],
]
WRITES = [
    ["deck", "new", "Mine", "--game", "mea"],
    ["catalog", "add", "--game", "mea", "name=Zed", "type=monster", "cost=1"],
    ["collection", "add", "Crumb Goblin"],
]


@pytest.fixture
def read_only(hostile_db: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """``hostile_db`` in a folder taken as not writable (root writes anywhere; a mount is the real case)."""
    from cardbase.db import engine

    folder = Path(hostile_db).parent
    monkeypatch.setattr(engine, "_folder_writable", lambda path: Path(path) != folder)
    return hostile_db


@pytest.mark.parametrize("argv", READS, ids=[" ".join(a)[:30] for a in READS])
def test_a_database_in_a_read_only_folder_is_read(argv: list[str], read_only: str) -> None:
    before = db_dump(read_only)
    result = run_cli(argv, read_only)
    assert_no_crash(result)
    assert result.exit_code == 0, result.stderr
    assert "is read-only: the database is read" in result.stderr, result.stderr
    assert db_dump(read_only) == before
    assert not Path(f"{read_only}-wal").exists() and not Path(f"{read_only}-shm").exists()


@pytest.mark.parametrize("argv", WRITES, ids=[" ".join(a)[:30] for a in WRITES])
def test_a_change_to_it_is_refused_as_read_only(argv: list[str], read_only: str) -> None:
    before = db_dump(read_only)
    assert_refused(run_cli(argv, read_only), 2, "read-only")
    assert db_dump(read_only) == before


def test_a_new_database_in_a_read_only_folder_names_the_folder(read_only: str) -> None:
    new = Path(read_only).parent / "new.db"
    assert_refused(run_cli(["deck", "list"], str(new)), 2, "no database there", "is read-only")
    assert not new.exists()


def test_on_a_read_only_mount(hostile_db: str, tmp_path: Path) -> None:
    """The real thing, where the machine lets this test make a mount of its own (root, Linux)."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs unshare and root")
    folder = tmp_path / "mounted"
    folder.mkdir()
    shutil.copyfile(hostile_db, folder / "cards.db")
    script = (
        f"mount --bind -o ro {folder} {folder} || exit 99\n"
        f'exec "$@" cards search "cost<=2" --game mea --db {folder / "cards.db"}\n'
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", sys.executable, "-m", "cardbase"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=300,
    )
    if done.returncode == 99 or "unshare failed" in done.stderr:
        pytest.skip(f"no mount namespace here: {done.stderr.strip()[:200]}")
    assert done.returncode == 0, done.stderr
    assert "Crumb Goblin" in done.stdout and "is read-only" in done.stderr
