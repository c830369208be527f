"""The play prompt: prompt_toolkit through its pipe input (history, Tab completion,
Ctrl-C, end of input), short and close names, ``legal`` by kind, ``card NAME``, and the
plain fallback through the CLI runner."""

from __future__ import annotations

import re

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.fuzzy import AmbiguousName, match
from cardbase.games.meio.engine import MeioRules
from cardbase.sim.play import Vocabulary, expand_names, legal_text, play_interactive
from cardbase.sim.prompt import completions, make_reader
from tests.mea.test_mea_cli import CONTROL, RUSH

NAMES = ("Pickpocket Ferret", "Crumb Goblin", "Goblin Surveyor", "Den of the Geister", "Gotcha!")
VOCAB = Vocabulary(("summon", "attack", "with", "quest", "by"), NAMES, re.compile(r"[a-z]\d{1,2}|P\d"))
runner = CliRunner()


def test_a_unique_start_a_word_or_a_close_spelling_stands_for_the_name():
    assert match("ferret", NAMES) == "Pickpocket Ferret"
    assert match("pick", NAMES) == "Pickpocket Ferret"
    assert match("crumb goblin", NAMES) == "Crumb Goblin"
    assert match("Pickpocket Feret", NAMES) == "Pickpocket Ferret"  # a typo
    assert match("den geister", NAMES) == "Den of the Geister"
    assert match("banana", NAMES) is None
    with pytest.raises(AmbiguousName) as error:
        match("goblin", NAMES)
    assert "Crumb Goblin, Goblin Surveyor" in str(error.value)


def test_names_are_expanded_between_the_games_words_tiles_and_separators():
    assert expand_names("summon ferret b1", VOCAB) == "summon Pickpocket Ferret b1"
    assert (
        expand_names("attack b2 with crumb@a2 + surv@b1", VOCAB)
        == "attack b2 with Crumb Goblin@a2 + Goblin Surveyor@b1"
    )
    assert (
        expand_names("quest den with ferret, crumb", VOCAB)
        == "quest Den of the Geister with Pickpocket Ferret, Crumb Goblin"
    )
    assert expand_names("attack P2 1 with crumb by gotcha", VOCAB) == "attack P2 1 with Crumb Goblin by Gotcha!"
    assert expand_names("summon banana b1", VOCAB) == "summon banana b1"  # the engine says it is unknown


def test_completion_of_names_from_any_word_and_of_the_games_words():
    assert ("Pickpocket Ferret", 4) in completions("summon ferr", VOCAB)
    assert {c for c, _ in completions("summon gob", VOCAB)} == {"Crumb Goblin", "Goblin Surveyor"}
    assert completions("summon ", VOCAB) == []  # after a space: nothing to complete
    assert ("Goblin Surveyor", 4) in completions("attack b2 with crumb@a2 + surv", VOCAB)
    assert ("summon", 3) in completions("sum", VOCAB)
    assert completions("", VOCAB) == []


def test_the_prompt_reads_lines_completes_with_tab_and_keeps_history():
    with create_pipe_input() as pipe:
        read = make_reader(VOCAB, input=pipe, output=DummyOutput())
        pipe.send_text("summon ferr\t b1\r")
        assert read("P1> ") == "summon Pickpocket Ferret b1"
        pipe.send_text("\x1b[A\r")  # the up arrow: the line before
        assert read("P1> ") == "summon Pickpocket Ferret b1"
        pipe.send_text("\x03")  # Ctrl-C
        with pytest.raises(KeyboardInterrupt):
            read("P1> ")
        pipe.close()
        assert read("P1> ") is None  # end of input


def test_the_history_file_keeps_lines_between_games(tmp_path):
    path = tmp_path / "cache" / "play-history"
    with create_pipe_input() as pipe:
        read = make_reader(VOCAB, input=pipe, output=DummyOutput(), history=path)
        pipe.send_text("legal\r")
        assert read("> ") == "legal"
    assert "legal" in path.read_text()


def test_ctrl_c_at_the_prompt_ends_the_game_as_interrupted():
    out: list[str] = []
    with create_pipe_input() as pipe:
        read = make_reader(Vocabulary(), input=pipe, output=DummyOutput())
        pipe.send_text("legal\r\x03")
        session = play_interactive(MeioRules(players=2), 1, 0, _random_agents(), read, out.append)
    assert session.interrupted and session.abandoned
    assert any(line.startswith("1716 legal moves:") for line in out)


def _random_agents():
    from cardbase.sim.registry import GAMES

    return {1: GAMES["meio"].make_agent("random", MeioRules(players=2), 1, 0)}


def test_legal_lists_every_move_by_kind():
    state = MeioRules(players=2).new_initial_state(1)
    state.resolve_chance()
    text = legal_text(state)
    assert text.startswith("1716 legal moves:") and "split (1716):" in text and "1706 more (legal split" in text
    assert legal_text(state, "split").count("split ") == 1716 + 1  # the heading, then every one
    assert "no legal play action now" in legal_text(state, "play")


def _play_mea(db_url: str, moves: str):
    return runner.invoke(app, ["play", "mea", "--deck", RUSH, "--vs-deck", CONTROL, "--vs", "random", "--seed", "2",
                               "--no-record", "--db", db_url], input=moves)  # fmt: skip


def test_play_mea_by_pipe_takes_short_names_shows_cards_and_lists_moves(db_url):
    result = _play_mea(db_url, "draw 5\nlegal\ncard ferret\ncard goblin\nsummon barrel b1\nhint\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Barrel Bandit (3, 4/3)" in out  # the hand: cost, attack/defence
    assert "legal moves:" in out and "  summon (" in out and "  draw (" in out
    assert "Pickpocket Ferret — monster, cost 2, attack 1, defence 2" in out
    # the goblins of P2's deck (Goblin Surveyor, Goblin Real Estate) are hidden: 'goblin' is P1's Crumb Goblin
    assert "Crumb Goblin — monster" in out and "Goblin Surveyor" not in out and "Goblin Real Estate" not in out
    assert "P1 (you): summon Barrel Bandit b1" in out
    hint = next(line for line in out.splitlines() if "hint: " in line)
    assert "(95% " in hint and "next best" in hint and ("clear" in hint or "too close to call" in hint)


def test_play_meikyu_by_pipe_collapses_the_assumptions_and_lists_them_on_request(db_url):
    args = ["play", "meikyu", "--players", "2", "--vs", "random", "--seed", "3", "--assume", "default", "--no-record"]
    result = runner.invoke(app, [*args, "--db", db_url], input="assumptions\ncard bee\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    note = next(line for line in out.splitlines() if line.startswith("Note: "))
    assert re.fullmatch(r"Note: 84 values and 17 whole cards assumed; type 'assumptions' \(ASSUMED .*\)", note)
    assert "ASSUMED VALUES:" in out  # the list, on request
    assert re.search(r"Bee — character, \d+ swords? / \d+ seals?, ", out)  # (1 sword, 2 swords: counted)


def test_ctrl_c_at_the_prompt_toolkit_prompt_saves_the_record_and_says_where(tmp_path, monkeypatch):
    import cardbase.sim.prompt as prompt

    record = tmp_path / "game.jsonl"
    with create_pipe_input() as pipe:
        real = prompt.make_reader
        monkeypatch.setattr(
            prompt, "make_reader", lambda vocabulary, **kw: real(vocabulary, input=pipe, output=DummyOutput())
        )
        pipe.send_text("legal\r\x03")
        result = runner.invoke(
            app, ["play", "meio", "--players", "2", "--vs", "random", "--seed", "4", "--record", str(record)]
        )
    assert result.exit_code == 130, result.output
    assert f"the game so far is saved in {record}" in result.stderr
    assert f"Record: {record}" in result.stdout and record.exists()
    replayed = runner.invoke(app, ["replay", str(record), "--json"])
    assert replayed.exit_code == 0 and '"finished": false' in replayed.stdout


def test_play_meio_by_pipe_logs_each_trick_and_each_round():
    from tests.sim.test_sim_cli import scripted_game

    typed = scripted_game(2, 1, "heuristic", 12, lambda s: ([str(s.legal_actions()[0])], False))
    args = ["play", "meio", "--players", "2", "--vs", "heuristic", "--seed", "12", "--no-record"]
    result = runner.invoke(app, args, input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert len(re.findall(r"^  P[12](?: \(you\))? wins trick \d+ with ", out, re.M)) == 3 * 13
    for r in (1, 2, 3):
        assert f"Round {r} over. Tricks won, first half / second half, and the score:" in out
    assert "\x1b[" not in out  # no colour codes when the output is not a terminal


def test_the_log_wraps_long_lines_at_spaces_on_a_terminal_only(monkeypatch, capsys):
    from cardbase.sim.prompt import writer

    line = " ".join(f"word{i}" for i in range(30))
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    writer()(line)
    assert capsys.readouterr().out == line + "\n"  # a pipe: as it is
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    writer()(line)
    rows = [re.sub(r"\x1b\[[0-9;]*m", "", r).rstrip() for r in capsys.readouterr().out.splitlines()]
    assert len(rows) > 1 and all(len(r) <= 80 for r in rows)  # Rich's width when it cannot ask the terminal
    assert " ".join(rows).split() == line.split()  # every word whole
