"""Games played at the server's tables, in the database: rules, seed, seats (agent specs and
seat-key hashes, never keys), the actions as their record writes them, status and times.

Each write is one transaction. A change says which ``version`` it was made on; a game whose
stored version is another (a second server on the same database moved it) is refused with
:class:`~cardbase.sim.table.Stale` and nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, update
from sqlmodel import col, select

from cardbase.db.models import PlayActionRow, PlayGameRow, PlaySeatRow
from cardbase.sim.table import Stale

if TYPE_CHECKING:
    from sqlalchemy.engine import CursorResult
    from sqlmodel import Session

    from cardbase.db.engine import Database

PLAYING = "playing"
OVER = "over"
ABANDONED = "abandoned"
STATUSES = (PLAYING, OVER, ABANDONED)


def now() -> str:
    """The time now, UTC, as ISO 8601 to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def age_seconds(moment: str) -> float:
    """Seconds since ``moment`` (as :func:`now` writes it); 0 for a time not understood or to come."""
    try:
        then = datetime.fromisoformat(moment)
    except ValueError:
        return 0.0
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return max(0.0, (datetime.now(UTC) - then).total_seconds())


@dataclass
class StoredGame:
    """A game as the database holds it."""

    id: str
    game: str
    rules: dict[str, Any]
    seed: int
    status: str
    version: int
    labels: dict[str, Any]
    seats: list[str]
    key_hashes: list[str | None]
    actions: list[str] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    created_at: str = ""
    updated_at: str = ""


def insert_game(
    database: Database,
    game_id: str,
    game: str,
    rules: dict[str, Any],
    seed: int,
    seats: Sequence[str],
    key_hashes: Sequence[str | None],
    labels: dict[str, Any],
    actions: Sequence[tuple[str, str]],
    version: int,
) -> str:
    """Store a new game with its first actions (the opening chance ones); returns its creation time."""
    at = now()
    with database.transaction() as session:
        session.add(
            PlayGameRow(
                id=game_id,
                game=game,
                rules=json.dumps(rules, ensure_ascii=False),
                seed=str(seed),
                status=PLAYING,
                version=version,
                labels=json.dumps(labels, ensure_ascii=False),
                created_at=at,
                updated_at=at,
            )
        )
        session.flush()  # the game before its seats and actions (their foreign key)
        for seat, (agent, key_hash) in enumerate(zip(seats, key_hashes, strict=True)):
            session.add(PlaySeatRow(game_id=game_id, seat=seat, agent=agent, key_hash=key_hash))
        for number, (player, text) in enumerate(actions, start=1):
            session.add(PlayActionRow(game_id=game_id, number=number, player=player, action=text))
    return at


def save_progress(
    database: Database,
    game_id: str,
    version: int,
    new_version: int,
    keep: int,
    actions: Sequence[tuple[str, str]],
    status: str,
    outcome: dict[str, Any] | None = None,
) -> None:
    """Keep the first ``keep`` actions, add ``actions`` after them, and set the version and the
    status: all in one transaction, and only if the stored version is still ``version``."""
    with database.transaction() as session:
        moved: CursorResult[Any] = session.execute(  # type: ignore[assignment]  # an UPDATE's result is a cursor's
            update(PlayGameRow)
            .where(col(PlayGameRow.id) == game_id, col(PlayGameRow.version) == version)
            .values(
                version=new_version,
                status=status,
                updated_at=now(),
                outcome=json.dumps(outcome) if outcome is not None else None,
            )
        )
        if moved.rowcount != 1:
            stored = session.scalar(select(PlayGameRow.version).where(col(PlayGameRow.id) == game_id))
            raise Stale(version, stored if stored is not None else -1)
        session.execute(
            delete(PlayActionRow).where(col(PlayActionRow.game_id) == game_id, col(PlayActionRow.number) > keep)
        )
        for number, (player, text) in enumerate(actions, start=keep + 1):
            session.add(PlayActionRow(game_id=game_id, number=number, player=player, action=text))


def set_status(database: Database, game_id: str, status: str) -> None:
    """Mark a game (``abandoned`` when left idle past the expiry)."""
    with database.transaction() as session:
        session.execute(
            update(PlayGameRow).where(col(PlayGameRow.id) == game_id).values(status=status, updated_at=now())
        )


def _stored(session: Session, row: PlayGameRow) -> StoredGame:
    seats = session.scalars(
        select(PlaySeatRow).where(col(PlaySeatRow.game_id) == row.id).order_by(col(PlaySeatRow.seat))
    ).all()
    actions = session.scalars(
        select(PlayActionRow.action).where(col(PlayActionRow.game_id) == row.id).order_by(col(PlayActionRow.number))
    ).all()
    return StoredGame(
        id=row.id,
        game=row.game,
        rules=json.loads(row.rules),
        seed=int(row.seed),
        status=row.status,
        version=row.version,
        labels=json.loads(row.labels or "{}"),
        seats=[s.agent for s in seats],
        key_hashes=[s.key_hash for s in seats],
        actions=list(actions),
        outcome=json.loads(row.outcome) if row.outcome else None,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def load_game(database: Database, game_id: str) -> StoredGame | None:
    """The game ``game_id`` with its seats and actions, or ``None``."""
    with database.session() as session:
        row = session.get(PlayGameRow, game_id)
        return _stored(session, row) if row is not None else None


def unfinished_games(database: Database) -> list[StoredGame]:
    """Every game still being played, oldest first."""
    with database.session() as session:
        rows = session.scalars(
            select(PlayGameRow).where(col(PlayGameRow.status) == PLAYING).order_by(col(PlayGameRow.created_at))
        ).all()
        return [_stored(session, row) for row in rows]


def list_games(database: Database, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
    """The latest games (newest first), without their actions: id, game, status, seats, times, outcome.
    A ``status`` that is none of :data:`STATUSES` is a :class:`UsageError` (it would list no game)."""
    if status is not None and status not in STATUSES:
        from cardbase.errors import UsageError, quoted

        raise UsageError(f"{quoted(status)} is not a game's status: playing, over or abandoned").refusing(status)
    with database.session() as session:
        query = select(PlayGameRow).order_by(col(PlayGameRow.updated_at).desc()).limit(limit)
        if status is not None:
            query = query.where(col(PlayGameRow.status) == status)
        out = []
        for row in session.scalars(query).all():
            seats = session.scalars(
                select(PlaySeatRow.agent).where(col(PlaySeatRow.game_id) == row.id).order_by(col(PlaySeatRow.seat))
            ).all()
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "status": row.status,
                    "seats": list(seats),
                    "created_at": row.created_at,
                    "updated_at": row.updated_at,
                    "outcome": json.loads(row.outcome) if row.outcome else None,
                }
            )
        return out
