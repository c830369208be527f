"""``cardbase sim meio``, ``cardbase play meio`` and ``cardbase replay`` through Typer's runner."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.games.meio.engine import MeioRules, Play, Split
from cardbase.sim.registry import GAMES, derive_seed

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


@pytest.mark.xdist_group("pools")  # starts worker processes: one such test at a time
def test_sim_meio_json_is_the_same_whatever_the_jobs():
    args = [
        "sim",
        "meio",
        "--players",
        "3",
        "--agents",
        "heuristic,random,random",
        "--games",
        "30",
        "--seed",
        "4",
        "--json",
    ]
    one = run(*args)
    two = run(*args, "--jobs", "2")
    assert one.exit_code == 0, one.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a["seats"] == b["seats"]
    assert a["games"] == 30 and [s["agent"] for s in a["seats"]] == ["heuristic", "random", "random"]
    for seat in a["seats"]:
        lo, hi = seat["mean_score_95"]
        assert lo <= seat["mean_score"] <= hi


def test_sim_meio_prints_a_table_with_intervals():
    result = run("sim", "meio", "--players", "2", "--agents", "heuristic,random", "--games", "20")
    assert result.exit_code == 0, result.output
    for text in ("mean", "score", "95% interval", "win rate", "heuristic", "random", "Wilson"):
        assert text in result.stdout


def test_sim_of_a_few_games_gives_no_interval_outside_the_possible_scores():
    """Two Meio games: each seat's interval lies in 0 to 7 a round and is never a point; one game of
    Meikyu: a mean of points bounded below by 0 and above by nothing the game shows (``?``)."""
    result = run("sim", "meio", "--players", "2", "--agents", "heuristic,random", "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    for seat in json.loads(result.stdout)["seats"]:
        low, high = seat["mean_score_95"]
        assert 0 <= low <= seat["mean_score"] <= high <= 21 and low < high
    args = ["sim", "meikyu", "--players", "2", "--agents", "heuristic,random", "--games", "1", "--assume", "default"]
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [s["mean_score_95"] for s in data["seats"]] == [[0.0, None], [0.0, None]]
    assert data["meikyu"]["game_length_turns"]["mean_95"] == [0.0, None]
    shown = run(*args)
    assert shown.exit_code == 0 and "never below 0" in " ".join(shown.stdout.split())
    # one game's mean has no digit the game does not give: 10 (0–?), not 10.00 (0.00–?)
    for seat in data["seats"]:
        assert re.search(rf"│\s+{seat['mean_score']:g} │\s+0–\? │", shown.stdout), shown.stdout
    turns = data["meikyu"]["game_length_turns"]["mean"]
    assert f"Game length: {turns:g} turns on average (95% interval 0–?)" in shown.stdout, shown.stdout


def test_sim_meikyus_median_game_length_has_no_digit_the_games_do_not_give():
    """The median of an even count of whole turns is whole or a half: two games whose lengths add up to an
    even number read 'median 37', not 'median 37.0' (as sim mea says it)."""
    args = ["sim", "meikyu", "--players", "2", "--agents", "heuristic,heuristic", "--games", "2", "--assume", "default"]
    args += ["--seed", "1"]  # (its two games' lengths add up to an even number)
    data = json.loads(run(*args, "--json").stdout)["meikyu"]["game_length_turns"]
    assert data["median"] == int(data["median"])
    shown = run(*args)
    assert shown.exit_code == 0, shown.output
    said = re.search(r"median (\S+), longest", " ".join(shown.stdout.split()))
    assert said is not None and float(said.group(1)) == data["median"], shown.stdout
    assert re.fullmatch(r"[0-9]+(\.5)?", said.group(1)), said.group(1)


def test_sim_meio_bad_options_exit_2_with_one_message():
    result = run("sim", "meio", "--players", "3", "--agents", "random,random", "--games", "2")
    assert result.exit_code == 2
    assert "one agent per seat (3 players)" in result.stderr
    assert "Traceback" not in result.output
    result = run("sim", "meio", "--players", "2", "--agents", "random,genius", "--games", "2")
    assert result.exit_code == 2 and "unknown Meio agent 'genius'" in result.stderr
    result = run("sim", "meio", "--players", "5", "--games", "2")
    assert result.exit_code == 2 and "'--players'" in result.stderr and "from 2 to 4" in result.stderr


def test_records_from_sim_replay_and_a_tampered_one_exits_1(tmp_path):
    result = run(
        "sim", "meio", "--players", "2", "--agents", "random,heuristic", "--games", "3", "--records", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.glob("*.jsonl")
    ok = run("replay", str(path), "--json")
    assert ok.exit_code == 0, ok.output
    games = json.loads(ok.stdout)
    assert len(games) == 3 and all(g["finished"] for g in games)
    lines = path.read_text().splitlines()
    # Make the first P2 play in the first game a card P2 cannot have: P1's first card.
    first_p1 = next(i for i, line in enumerate(lines) if '"P1", "action": "play' in line)
    first_p2 = next(i for i, line in enumerate(lines) if '"P2", "action": "play' in line)
    p1_card = json.loads(lines[first_p1])["action"]
    lines[first_p2] = json.dumps({"player": "P2", "action": p1_card})
    path.write_text("\n".join(lines) + "\n")
    bad = run("replay", str(path))
    assert bad.exit_code == 1
    assert f"line {first_p2 + 1}: action {first_p2} (P2)" in bad.stderr
    assert "you do not hold" in bad.stderr
    assert "Traceback" not in bad.output


def test_replay_of_a_split_given_to_the_wrong_player_says_whose_split_it_is(tmp_path):
    """``cardbase replay``: a split that divides P1's hand, recorded as P2's, is refused (exit 1) naming
    whose split it is, not "it is P1's turn" (P2 may split before their turn)."""
    result = run("sim", "meio", "--players", "3", "--agents", "random,random,random", "--games", "1",
                 "--records", str(tmp_path))  # fmt: skip
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.glob("*.jsonl")
    lines = path.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if '"action": "split' in line)
    record = json.loads(lines[first])
    assert record["player"] == "P1"
    lines[first] = json.dumps({"player": "P2", "action": record["action"]})
    path.write_text("\n".join(lines) + "\n")
    bad = run("replay", str(path))
    assert bad.exit_code == 1 and "Traceback" not in bad.output
    assert "divides P1's hand: it is P1's to take, not P2's" in bad.stderr
    assert "turn" not in bad.stderr.split("(P2):", 1)[1]  # "(P2)": the line's player


def test_replay_unreadable_file_exits_2(tmp_path):
    result = run("replay", str(tmp_path / "missing.jsonl"))
    assert result.exit_code == 2 and "cannot read record" in result.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n")
    result = run("replay", str(bad))
    assert result.exit_code == 2 and "line 1: not JSON" in result.stderr


def test_replay_lists_moves(tmp_path):
    run("sim", "meio", "--players", "2", "--agents", "random,random", "--games", "1", "--records", str(tmp_path))
    (path,) = tmp_path.glob("*.jsonl")
    result = run("replay", str(path), "--moves")
    assert result.exit_code == 0
    assert "chance" in result.stdout and "P1" in result.stdout and "play " in result.stdout


def scripted_game(players: int, seat: int, vs: str, seed: int, pick):
    """Play the game the CLI will play, choosing the human's moves with ``pick``;
    returns the lines to type. Agents are built exactly as ``play`` builds them."""
    entry = GAMES["meio"]
    rules = MeioRules(players=players)
    human = seat - 1
    agents = {s: entry.make_agent(vs, rules, s, derive_seed(seed, "play", s)) for s in range(players) if s != human}
    state = rules.new_initial_state(seed)
    typed = []
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply(state.sample_chance())
            continue
        p = state.current_player
        if p == human:
            text, stop = pick(state)
            typed.extend(text)
            if stop:
                return typed
            state.apply(state.parse_action(text[-1]))
        else:
            state.apply(agents[p].act(state.observation(p), state.legal_actions()))
    return typed


def test_play_meio_refuses_a_revoke_with_the_reason_and_gives_a_hint(tmp_path):
    for seed in range(50):
        seen = {}

        def pick(state, seen=seen):
            if state.phase == "split":
                split: Split = state.legal_actions()[0]
                return ["split " + " ".join(c.notation for c in split.aside_cards)], False
            trick = state.trick()
            me = state.current_player
            if trick:
                led = trick[0][1].suit
                hand = state.hand(me)
                off = [c for c in hand if c.suit != led]
                if off and any(c.suit == led for c in hand):
                    seen["card"] = off[0]
                    seen["follow"] = [c for c in hand if c.suit == led]
                    return [off[0].notation, "hint", "quit"], True
            return [str(state.legal_actions()[0])], False

        typed = scripted_game(3, 2, "heuristic", seed, pick)
        if "card" in seen:
            break
    record = tmp_path / "game.jsonl"
    result = run(
        "play",
        "meio",
        "--players",
        "3",
        "--seat",
        "2",
        "--vs",
        "heuristic",
        "--seed",
        str(seed),
        "--record",
        str(record),
        input="\n".join(typed) + "\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    symbol = seen["follow"][0].suit.symbol
    assert f"refused: must follow {symbol}: you hold" in out
    assert "hint: play " in out
    assert "Your hand:" in out and "Tricks won (horizontal / vertical)" in out and "Scores:" in out
    assert "Game left unfinished" in out
    replayed = run("replay", str(record), "--json")
    assert replayed.exit_code == 0 and json.loads(replayed.stdout)[0]["finished"] is False


def test_play_meio_a_whole_game_then_replay(tmp_path):
    typed = scripted_game(2, 1, "heuristic", 12, lambda s: ([str(s.legal_actions()[0])], False))
    record = tmp_path / "whole.jsonl"
    result = run(
        "play",
        "meio",
        "--players",
        "2",
        "--vs",
        "heuristic",
        "--seed",
        "12",
        "--record",
        str(record),
        input="\n".join(typed) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout and "refused" not in result.stdout
    replayed = run("replay", str(record), "--json")
    assert replayed.exit_code == 0
    (game,) = json.loads(replayed.stdout)
    assert game["finished"] and game["actions"] == 3 * (1 + 2 + 26)


def test_play_meio_rejects_nonsense_and_lists_legal_moves():
    result = run(
        "play",
        "meio",
        "--players",
        "2",
        "--seed",
        "1",
        "--no-record",
        "--vs",
        "random",
        input="banana\nlegal\nhelp\nquit\n",
    )
    assert result.exit_code == 0
    assert "not understood" in result.stdout
    assert "1716 legal moves" in result.stdout
    assert "hint" in result.stdout


def test_play_meio_keeps_a_new_seed_secret_until_the_game_is_over():
    """The seed decides every deal: shown during the game it would tell where every card face
    down is (the others' hands, their packs of 6, the cards left aside). A seed the player did
    not choose is shown only once the game ends (here, left at the first prompt)."""
    result = run("play", "meio", "--players", "2", "--no-record", "--vs", "random", input="quit\n")
    assert result.exit_code == 0, result.output
    during, _, after = result.stdout.partition("Game left unfinished.")
    assert after, result.stdout
    assert not re.search(r"[Ss]eed \d", during), during
    seed = int(re.search(r"seed was (\d+)", after).group(1))
    state = MeioRules(players=2).new_initial_state(seed)
    state.resolve_chance()  # the seed shown at the end is the game's: it deals the hand shown
    hand = re.search(r"Your hand: (.*)", during).group(1).split()
    assert sorted(hand) == sorted(f"{c.notation[:-1]}{c.suit.symbol}" for c in state.hand(0))


def test_play_meio_names_a_seed_the_player_chose():
    result = run("play", "meio", "--players", "2", "--seed", "41", "--no-record", "--vs", "random", input="quit\n")
    assert result.exit_code == 0 and "seed 41" in result.stdout.partition("Your hand")[0]


@pytest.mark.parametrize(
    "args",
    [
        ["mea", "--deck", "examples/decks/mea-goblin-rush.txt", "--vs-deck", "examples/decks/mea-tile-control.txt"],
        ["meikyu", "--players", "2", "--assume", "default"],
    ],
    ids=["mea", "meikyu"],
)
def test_play_keeps_a_new_seed_secret_in_every_game(args, monkeypatch):
    """As for Meio: Méa's shuffled decks and Meikyu's piles and dice come from the seed, so a seed the
    player did not choose is named only after the game; one they chose is named at the start."""
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    result = run("play", *args, "--no-record", "--vs", "random", input="quit\n")
    assert result.exit_code == 0, result.output
    during, _, after = result.stdout.partition("Game left unfinished.")
    assert "a new seed (named when the game is over)" in during.lower() and after, result.stdout
    assert not re.search(r"[Ss]eed \d", during), during
    assert re.search(r"The game's seed was \d+\.", after), after
    chosen = run("play", *args, "--no-record", "--vs", "random", "--seed", "41", input="quit\n")
    assert chosen.exit_code == 0 and re.search(r"[Ss]eed 41\b", chosen.stdout.partition("\n")[0]), chosen.stdout
    assert "seed was" not in chosen.stdout


def test_play_meio_bad_seat_exits_2():
    result = run("play", "meio", "--players", "2", "--seat", "3", "--no-record", input="")
    assert result.exit_code == 2 and "--seat must be 1 to 2" in result.stderr


def test_play_action_text_hides_other_splits():
    rules = MeioRules(players=2)
    state = rules.new_initial_state(0)
    state.resolve_chance()
    split = state.legal_actions()[0]
    assert state.action_text(split, viewer=1) == "splits their hand"
    assert state.action_text(split, viewer=0) == str(split)
    state.apply(split)
    state.apply(state.legal_actions()[0])
    play = state.legal_actions()[0]
    assert isinstance(play, Play) and state.action_text(play, viewer=1) == str(play)


def test_sim_meio_takes_any_rules_option_by_rule(tmp_path):
    args = ["sim", "meio", "--players", "3", "--agents", "heuristic,random,random", "--games", "4", "--json"]
    result = run(*args, "--rule", "first_player=2", "--rule", "rounds=1", "--records", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["rules"]["first_player"], data["rules"]["rounds"], data["rules"]["players"]) == (2, 1, 3)
    (path,) = tmp_path.glob("*.jsonl")
    replayed = json.loads(run("replay", str(path), "--json").stdout)
    assert len(replayed) == 4 and all(g["rules"]["first_player"] == 2 and g["finished"] for g in replayed)
    for bad, words in ((["--rule", "players=2"], "not a Meio rules option"),
                       (["--rule", "ace_high=maybe"], "not yes or no"),
                       (["--rule", "first_player=7"], "first_player must be a seat from 0 to 2"),
                       (["--rule", "second_half_leader=loser"], "must be one of winner, starter")):  # fmt: skip
        wrong = run(*args, *bad)
        assert wrong.exit_code == 2 and words in wrong.stderr and "Traceback" not in wrong.output


def test_a_rules_option_refused_by_the_rules_keeps_the_command_lines_words():
    """The rules' refusal of an option's value keeps its id as ``--rule`` takes it, and names no other
    option given the same number (``--games 7``: the value read, 7, is no text of that option)."""
    args = ["sim", "meio", "--players", "3", "--agents", "heuristic,random,random", "--games", "7"]
    wrong = run(*args, "--rule", "first_player=7")
    assert wrong.exit_code == 2 and "first_player must be a seat from 0 to 2, not 7" in wrong.stderr, wrong.output
    assert "--games" not in wrong.stderr, wrong.stderr
