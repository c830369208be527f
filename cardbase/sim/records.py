"""Game records: (rules, seed, actions) as JSON Lines, and their replay.

A record file holds one or more games. Each game is a header line followed by
one line per action, optionally closed by the outcome::

    {"record": "cardbase.game", "version": 1, "game": "meio", "rules": {"players": 3, …},
     "seed": 42, "agents": ["search", "heuristic", "random"]}
    {"player": "chance", "action": "deal 2S 5S … / … / …"}
    {"player": "P1", "action": "split 2S … | …"}
    {"player": "P1", "action": "play 7H"}
    …
    {"outcome": {"winners": [1], "scores": [4, 2, 5], …}}

An action line may also be a bare JSON string (``"play 7H"``), which is handy when
typing up a game played at a real table; such a record has ``"seed": null`` and
gives every deal as a ``deal`` action. With a seed, deals may be left out (they
come from the seed) or written out (they are then checked against the seed).

Nothing is read past: a field a line does not have (``HEADER_FIELDS``, ``ACTION_FIELDS``,
``OUTCOME_FIELDS``; a typo such as ``"seeed"`` would leave the seed out), a second outcome or an
action after the outcome is refused naming its line.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardbase.errors import CardbaseError, InvalidRecord, UnreadableInput, counted, quoted
from cardbase.games.base import CHANCE, MAX_SEED, GameError, Outcome, Rules, State
from cardbase.sim.registry import GAMES, game
from cardbase.textfiles import JSON_LINE_ESCAPES, LINE_END, check_line_ends, json_type, load_json, read_text

RECORD_TAG = "cardbase.game"
RECORD_VERSION = 1
MAX_RECORD_BYTES = 64 * 1024 * 1024


def seat_label(seat: int) -> str:
    """``P1`` … for seat 0 …; ``chance`` for a chance action."""
    return "chance" if seat == CHANCE else f"P{seat + 1}"


@dataclass
class ActionLine:
    """One recorded action: its text, who the record says took it, its line."""

    text: str
    player: str | None
    line: int


@dataclass
class GameRecord:
    """A game as read from a record file."""

    game: str
    rules: dict[str, Any]
    seed: int | None
    actions: list[ActionLine] = field(default_factory=list)
    agents: list[str] | None = None
    outcome: dict[str, Any] | None = None
    line: int = 1
    outcome_line: int | None = None
    """The line of the outcome, when the record gives one."""
    source: str = "<record>"


def header(rules: Rules, seed: int | None, agents: Sequence[str] | None = None, **extra: Any) -> str:
    """The header line of a game."""
    data: dict[str, Any] = {
        "record": RECORD_TAG,
        "version": RECORD_VERSION,
        "game": rules.game_id,
        "rules": rules.to_options(),
        "seed": seed,
    }
    if agents is not None:
        data["agents"] = list(agents)
    data.update(extra)
    return json_line(data)


def json_line(data: Any) -> str:
    """One JSON line of a record: UTF-8 text as it is, but NEL, LS and PS escaped (``JSON_LINE_ESCAPES``),
    so that no reader, this one included, takes them for a line end or refuses them."""
    return json.dumps(data, ensure_ascii=False).translate(JSON_LINE_ESCAPES)


def record_lines(
    rules: Rules,
    seed: int | None,
    history: Sequence[Any],
    agents: Sequence[str] | None = None,
    **extra: Any,
) -> list[str]:
    """The JSON Lines of a game: its header, each action with its player, and the
    outcome if the game is over. The seats are found by replaying ``history``."""
    state = rules.new_initial_state(seed)
    lines = [header(rules, seed, agents, **extra)]
    for action in history:
        lines.append(json_line({"player": seat_label(state.actor(action)), "action": str(action)}))
        state.apply_unchecked(action)
    outcome = state.outcome()
    if outcome is not None:
        lines.append(json.dumps({"outcome": outcome.to_dict()}))
    return lines


def write_records(path: Path, games: Iterable[Sequence[str]]) -> None:
    """Write the lines of ``games`` to ``path``, whole or not at all."""
    from cardbase.textfiles import output_file

    with output_file(path, "game records") as temporary, temporary.open("w", encoding="utf-8") as f:
        for lines in games:
            for line in lines:
                f.write(line + "\n")


def save_record(path: Path, lines: Sequence[str]) -> None:
    """Write one game's record lines to ``path``, whole or not at all."""
    from cardbase.textfiles import write_text_output

    write_text_output(path, "\n".join(lines) + "\n", "game record")


def read_records(path: Path) -> list[GameRecord]:
    """Every game in a record file; a file that cannot be read or parsed is an
    :class:`UnreadableInput` naming the line."""
    source = str(path)
    try:
        text = read_text(path, "game record", MAX_RECORD_BYTES)
    except UnreadableInput as error:
        raise UnreadableInput(f"cannot read record {error}") from None
    return parse_records(text, source)


_PLAYER = re.compile(r"chance|P[1-9][0-9]?")


def parse_records(text: str, source: str = "<record>") -> list[GameRecord]:
    """Parse the JSON Lines of a record (see the module docstring). Every field is checked for its
    type here, where the file is read: a record that does not fit is :class:`UnreadableInput`
    naming the line and the field."""
    records: list[GameRecord] = []
    current: GameRecord | None = None
    # A line ends in \n, \r\n or a lone \r (JSON text holds no raw CR, so it can be nothing else),
    # as every line-based input's does (textfiles.LINE_END); a raw NEL, LS or PS, which a JSON string
    # could hold, is refused as everywhere (cardbase writes them escaped: json_line).
    check_line_ends(text, source)
    for number, raw in enumerate(LINE_END.split(text), start=1):
        if not raw.strip():
            continue
        where = f"{source} line {number}"
        data = load_json(raw, where, bad="not JSON", one_line=True)
        if isinstance(data, dict) and "record" in data:
            current = _header(data, source, number)
            records.append(current)
            continue
        if current is None:
            raise UnreadableInput(
                f"{where}: a record starts with a header line "
                f'({{"record": "{RECORD_TAG}", "game": …, "rules": …, "seed": …}})'
            )
        if current.outcome is not None:
            said = "a second outcome" if isinstance(data, dict) and "outcome" in data else "an action after the outcome"
            raise UnreadableInput(f"{where}: {said} (the outcome closes its game; a new game starts with a header)")
        if isinstance(data, str):
            current.actions.append(ActionLine(data, None, number))
        elif isinstance(data, dict) and "action" in data:
            _only(data, ACTION_FIELDS, "an action line", where)
            action, player = data["action"], data.get("player")
            if not isinstance(action, str):
                raise UnreadableInput(f'{where}: "action" must be text, such as "play 7H", not {json_type(action)}')
            if player is not None and not (isinstance(player, str) and _PLAYER.fullmatch(player)):
                raise UnreadableInput(f'{where}: "player" must be "P1", "P2", … or "chance", not {_shown(player)}')
            current.actions.append(ActionLine(action, player, number))
        elif isinstance(data, dict) and "outcome" in data:
            _only(data, ("outcome",), "an outcome line", where)
            current.outcome = _outcome(data["outcome"], where)
            current.outcome_line = number
        else:
            raise UnreadableInput(
                f'{where}: expected an action ("play 7H" or '
                '{"player": "P1", "action": "play 7H"}), an outcome or a header'
            )
    if not records:
        raise UnreadableInput(f"{source}: no game in this record")
    return records


HEADER_FIELDS = ("record", "version", "game", "rules", "seed", "agents", "batch_seed", "index")
"""What a record's header may hold (``header``; ``sim --records`` adds its batch's seed and the game's index)."""
ACTION_FIELDS = ("player", "action")
OUTCOME_FIELDS = ("winners", "scores", "reason", "lower_is_better", "round_scores")
"""What a recorded outcome may hold (``Outcome.to_dict``)."""
_TRANSCRIPT_FIELDS = ("seat", "unfinished", "note")


def _only(data: dict[str, Any], known: Sequence[str], what: str, where: str) -> None:
    """Refuse a field ``what`` does not have, naming it: a field read past unseen (a typo such as
    "seeed") would be a value of the user's silently lost."""
    unknown = [key for key in data if key not in known]
    if not unknown:
        return
    if what == "a record's header" and set(unknown) & set(_TRANSCRIPT_FIELDS):
        raise UnreadableInput(
            f'{where}: a seat\'s transcript of a game ("seat", "unfinished"), not its record; '
            "the record comes once the game is over"
        )
    raise UnreadableInput(
        f"{where}: {json.dumps(unknown[0][:40], ensure_ascii=False)} is not a field of {what} ({', '.join(known)}); "
        "remove it or correct its name"
    )


def _shown(value: Any) -> str:
    """A JSON value as a message names it: text quoted (and cut), a number or constant as written,
    a list or an object by its kind."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return quoted(value) if isinstance(value, str | int | float) else json_type(value)


def _header(data: dict[str, Any], source: str, number: int) -> GameRecord:
    where = f"{source} line {number}"
    if data.get("record") != RECORD_TAG:
        raise UnreadableInput(f'{where}: not a cardbase game record ("record": "{RECORD_TAG}")')
    _only(data, HEADER_FIELDS, "a record's header", where)
    version = data.get("version", RECORD_VERSION)
    if type(version) is not int or version != RECORD_VERSION:
        raise UnreadableInput(f"{where}: record version {_shown(version)}; this cardbase reads {RECORD_VERSION}")
    game_id = data.get("game")
    rules = data.get("rules", {})
    seed = data.get("seed")
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise UnreadableInput(f'{where}: "game" must name the game ({", ".join(GAMES)}), not {_shown(game_id)}')
    if not isinstance(rules, dict):
        raise UnreadableInput(f'{where}: "rules" must be an object of options, not {json_type(rules)}')
    if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
        raise UnreadableInput(f'{where}: "seed" must be a whole number from 0 to 2**64 - 1, or null')
    agents = data.get("agents")
    if agents is not None and not (isinstance(agents, list) and all(isinstance(a, str) for a in agents)):
        raise UnreadableInput(f'{where}: "agents" must be a list of agent names, or left out')
    return GameRecord(game=game_id, rules=rules, seed=seed, agents=agents, line=number, source=source)


def _outcome(data: Any, where: str) -> dict[str, Any]:
    """A recorded outcome (``Outcome.to_dict``), its fields checked for their types (each may be left out)."""
    if not isinstance(data, dict):
        raise UnreadableInput(f'{where}: "outcome" must be an object, not {json_type(data)}')
    _only(data, OUTCOME_FIELDS, "an outcome", where)

    def seat(v: Any) -> bool:
        return type(v) is int and 0 <= v < 100

    def score(v: Any) -> bool:
        return type(v) in (int, float) and math.isfinite(v)

    def listed(v: Any, item: Callable[[Any], bool]) -> bool:
        return isinstance(v, list) and all(item(x) for x in v)

    fields: dict[str, tuple[Callable[[Any], bool], str]] = {
        "winners": (lambda v: listed(v, seat), "a list of seats (0 for P1, 1 for P2, …)"),
        "scores": (lambda v: listed(v, score), "a list of numbers, one per seat"),
        "reason": (lambda v: isinstance(v, str), "text"),
        "lower_is_better": (lambda v: isinstance(v, bool), "true or false"),
        "round_scores": (lambda v: listed(v, lambda r: listed(r, score)), "a list of lists of numbers"),
    }
    for key, (fits, want) in fields.items():
        if key in data and not fits(data[key]):
            raise UnreadableInput(f'{where}: the outcome\'s "{key}" must be {want}, not {_shown(data[key])}')
    return data


@dataclass
class ReplayResult:
    """A record replayed: the final state and what it says."""

    record: GameRecord
    state: State
    actions: int
    finished: bool
    outcome: Outcome | None
    moves: list[tuple[int, str, str]] = field(default_factory=list)
    """(action number, player, action text), when asked for."""


Watcher = Callable[[State, Any, str], None]
"""Called with the state, the action about to be applied to it (checked) and who takes it."""


def _wrong_player(state: State, text: str, player: str) -> str | None:
    """Why the record's ``player`` (not the current player) may not take the action ``text`` here, or
    ``None`` when the rules let that player take it out of turn (:meth:`State.actor`; Meio's split).
    The game says what is expected (:meth:`State.wrong_player`): whose split it is, say."""
    current = seat_label(state.current_player)
    if player != "chance" and int(player[1:]) > state.rules.players:
        return f"this game has {counted(state.rules.players, 'player')}, no {player}; it is {current}'s turn"
    seat = line_seat(state, player)
    try:
        action = state.parse_action(text, seat)
        if seat_label(state.actor(action)) == player:
            return None
    except GameError:
        return f"it is {current}'s turn, not {player}'s"
    if seat is None:  # chance
        return f"it is {current}'s turn, not {player}'s"
    return state.wrong_player(action, seat)


def line_seat(state: State, player: str | None) -> int | None:
    """The seat a record's line names (``P2``: 1), or None for none, chance or a seat the game lacks."""
    if player is None or player == "chance":
        return None
    seat = int(player[1:]) - 1
    return seat if seat < state.rules.players else None


def record_rules(record: GameRecord) -> Rules:
    """The rules a record's header gives, checked against its game, with its ``"agents"`` one a
    seat: a refusal is :class:`UnreadableInput` naming the file, the header's line and the field
    (the game's own refusal of an option said neither which file nor which line)."""
    where = f"{record.source} line {record.line}"
    try:
        rules = game(record.game).make_rules(record.rules)
    except CardbaseError as error:
        raise UnreadableInput(f'{where}: "rules": {error}') from None
    if record.agents is not None and len(record.agents) != rules.players:
        raise UnreadableInput(
            f'{where}: "agents" names {counted(len(record.agents), "agent")} for {counted(rules.players, "player")} '
            "(one a seat, or leave it out)"
        )
    return rules


def replay(record: GameRecord, keep_moves: bool = False, watch: Watcher | None = None) -> ReplayResult:
    """Replay ``record`` through the rules, checking every action.

    The first action the rules refuse raises :class:`InvalidRecord` with its line,
    its number (1-based, deals included), its player and the rule's reason. A
    record that ends before the game does is not an error: ``finished`` is false.
    ``watch`` sees each action, once checked, before it is applied (replay views use it).
    """
    rules = record_rules(record)
    state = rules.new_initial_state(record.seed)
    source = record.source
    moves: list[tuple[int, str, str]] = []
    number = 0
    pending = list(record.actions)
    pos = 0

    def fail(message: str, line: ActionLine | None, who: str | None) -> InvalidRecord:
        """``who`` is the player the action is by: the line's, when it names one (the message
        says whose turn or action it is instead)."""
        at = f"action {number}" + (f" ({who})" if who else "")
        return InvalidRecord(source, f"{at}: {message}", line.line if line else None, number, who)

    while True:
        line = pending[pos] if pos < len(pending) else None
        if state.current_player == CHANCE:
            sampled = state.sample_chance() if record.seed is not None else None
            action, given = _chance_line(state, line, sampled is None)
            number += 1
            if given is not None:
                pos += 1
                if isinstance(action, str):
                    raise fail(action, given, "chance")
                if sampled is not None and action != sampled:
                    raise fail(f"this deal is not the one seed {record.seed} gives", given, "chance")
            elif sampled is not None:
                action = sampled
            elif line is None:
                break  # the record stops here: unfinished
            else:
                raise fail(
                    "the cards must be dealt here and the record has no seed: give the deal (deal <hand> / <hand> …)",
                    line,
                    "chance",
                )
            if keep_moves:
                moves.append((number, "chance", str(action)))
            if watch is not None:
                watch(state, action, "chance")
            state.apply_unchecked(action)
            continue
        if line is None:
            break
        pos += 1
        number += 1
        if state.is_terminal:
            raise fail("the game is already over", line, None)
        who = seat_label(state.current_player)
        if line.player is not None and line.player != who:
            wrong = _wrong_player(state, line.text, line.player)
            if wrong is not None:
                raise fail(wrong, line, line.player)
            who = line.player
        try:
            action = state.parse_action(line.text, line_seat(state, line.player))
            text = str(action)
            state.check(action)
        except GameError as error:
            raise fail(f"{quoted(line.text)}: {error}", line, who) from None
        actor = seat_label(state.actor(action))  # a line without a player may be a split out of turn
        if line.player is not None and line.player != actor:  # (the current player named for another's split)
            raise fail(f"{quoted(line.text)} is {actor}'s to take, not {line.player}'s", line, line.player)
        who = actor
        if watch is not None:
            watch(state, action, who)
        state.apply_unchecked(action)
        if keep_moves:
            moves.append((number, who, text))
    outcome = state.outcome()
    if record.outcome is not None:
        _check_outcome(record, outcome)
    return ReplayResult(record, state, number, outcome is not None, outcome, moves)


def _chance_line(state: State, line: ActionLine | None, required: bool) -> tuple[Any, ActionLine | None]:
    """At a chance node: the chance action ``line`` gives, or the reason it is
    wrong (a ``str``), with the line; ``(None, None)`` if ``line`` is no chance
    action and need not be (a bare line that does not parse as one, with a seed)."""
    if line is None or line.player not in (None, "chance"):
        return None, None
    try:
        action = state.parse_action(line.text)
        state.check(action)
    except GameError as error:
        if line.player == "chance":
            return f"{quoted(line.text)}: {error}", line
        if required:
            return f"{quoted(line.text)}: {error} (the record has no seed, so it gives every deal)", line
        return None, None
    return action, line


def _check_outcome(record: GameRecord, outcome: Outcome | None) -> None:
    if outcome is None:
        raise InvalidRecord(record.source, "the record gives an outcome but the game is not over", record.outcome_line)
    got = outcome.to_dict()
    assert record.outcome is not None  # called only for a record that gives one
    for key in ("winners", "scores"):
        if key in record.outcome and list(record.outcome[key]) != got[key]:
            raise InvalidRecord(
                record.source,
                f"the recorded {key} {quoted(record.outcome[key])} differ from the replay's {got[key]}",
                record.outcome_line,
            )


def iter_games(path: Path) -> Iterator[ReplayResult]:
    """Replay every game of a record file in turn."""
    for record in read_records(path):
        yield replay(record)
