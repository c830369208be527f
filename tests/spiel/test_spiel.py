"""The three games through OpenSpiel (``cardbase.spiel``) and, through Shimmy, PettingZoo: OpenSpiel's
own conformance test, its search bots, its RL environment, PettingZoo's API test, and game records
both ways. The ``spiel`` extra is in the dev dependencies, so these run everywhere the suite does."""

from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test
from shimmy import OpenSpielCompatibilityV0
from typer.testing import CliRunner

import cardbase.spiel
from cardbase.cli.app import app
from cardbase.errors import InvalidRecord
from cardbase.sim.records import MAX_RECORD_BYTES, parse_records

REPO = Path(__file__).resolve().parents[2]
DECKS = REPO / "examples" / "decks"


@pytest.fixture
def mea_config(db_url: str) -> dict[str, object]:
    """``cardbase_mea``'s parameters: the two example decks, read from a catalog database."""
    return {
        "deck0": str(DECKS / "mea-goblin-rush.txt"),
        "deck1": str(DECKS / "mea-tile-control.txt"),
        "db": db_url,
    }


def _config(name: str, mea_config: dict[str, object], **more: object) -> dict[str, object]:
    return {**(mea_config if name == "cardbase_mea" else {}), **more}


# (game, parameters for a short game) — short so that search bots finish it in a test's time.
SHORT = {
    "cardbase_meio": {"players": 3, "rounds": 1},
    "cardbase_mea": {"max_turns": 8},
    "cardbase_meikyu": {"players": 3, "goal": 4},
}


def test_the_three_games_are_registered():
    names = set(pyspiel.registered_names())
    assert {"cardbase_meio", "cardbase_mea", "cardbase_meikyu"} <= names
    assert set(cardbase.spiel.GAMES) == {"cardbase_meio", "cardbase_mea", "cardbase_meikyu"}


@pytest.mark.parametrize(
    ("name", "params", "sims"),
    [
        ("cardbase_meio", {"players": 2}, 1),
        ("cardbase_meio", {"players": 4, "hearts_anytime": False, "rounds": 1}, 1),
        ("cardbase_mea", {}, 3),
        ("cardbase_mea", {"adjacency": "diagonal", "move_in": "first", "board_size": 5}, 3),
        ("cardbase_meikyu", {"players": 2}, 1),
        ("cardbase_meikyu", {"players": 5, "aggression_target": "defender", "grimoire": "stack"}, 1),
        ("cardbase_meikyu", {"players": 3, "amulet_ask": "everyone"}, 1),
    ],
)
def test_openspiel_random_sim_test_passes(name, params, sims, mea_config):
    """OpenSpiel's conformance test: legal actions sorted and in range, chance outcomes summing to
    1, clone and serialisation round trips, returns within the bounds, game length within the
    bound, at every step of random games."""
    game = pyspiel.load_game(name, _config(name, mea_config, **params))
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def _play(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: np.random.RandomState) -> pyspiel.State:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(outcomes, p=probs))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


@pytest.mark.parametrize("name", sorted(SHORT))
def test_openspiel_ismcts_and_mcts_bots_play_whole_games(name, mea_config):
    """OpenSpiel's ISMCTSBot (keyed by our information-state strings, sampling worlds with our
    ``resample_from_infostate``) and MCTSBot play every seat of a whole game."""
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    n = game.num_players()
    bots: list[pyspiel.Bot] = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng) if seat % 2 == 0 else None  # type: ignore[misc]
        for seat in range(n)
    ]
    for seat in range(n):
        if bots[seat] is None:
            bots[seat] = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng)
    state = _play(game, bots, rng)
    returns = state.returns()
    assert abs(sum(returns) - 1.0) < 1e-9 and max(returns) > 0
    winners = state.engine.outcome().winners
    assert [p for p in range(n) if returns[p] > 0] == list(winners)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_rl_environment_runs_episodes(name, mea_config):
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    env = rl_environment.Environment(game, seed=3)
    size = game.observation_tensor_size()
    rng = np.random.RandomState(3)
    for _ in range(2):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            assert len(step.observations["info_state"][player]) == size
            step = env.step([rng.choice(legal)])
        assert abs(sum(step.rewards) - 1.0) < 1e-9


@pytest.mark.parametrize("name", sorted(SHORT))
def test_pettingzoo_api_test_passes_through_shimmy(name, mea_config):
    """PettingZoo's API test on Shimmy's wrapper, given the game by name and parameters (Shimmy
    loads it again on every reset)."""
    env = OpenSpielCompatibilityV0(game_name=name, config=_config(name, mea_config, **SHORT[name]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on infinite observation bounds
        api_test(env, num_cycles=200)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_a_pettingzoo_episode_ends_with_the_game(name, mea_config):
    """Shimmy cuts an episode off at ``max_game_length``, counting chance steps too: a whole game
    of the rules' default length (Meio: three rounds of 52 dealt cards) ends at its end."""
    env = OpenSpielCompatibilityV0(game_name=name, config=_config(name, mea_config))
    env.reset(seed=5)
    for agent in env.agent_iter():
        _, _, termination, truncation, info = env.last()
        assert not truncation
        env.step(None if termination else env.action_space(agent).sample(info["action_mask"]))
    state = env.game_state
    assert state.is_terminal() and abs(sum(state.returns()) - 1.0) < 1e-9


def readme_examples(text: str) -> list[str]:
    """The Python of the README's ``uv run --extra spiel python -c '…'`` blocks."""
    return re.findall(r"```sh\nuv run --extra spiel python -c '\n(.*?)\n'\n```", text, re.S)


def test_the_readme_examples_run(db_url, tmp_path):
    """The README's OpenSpiel, PettingZoo and RL environment examples, as written, from a clone's files
    (the Méa decks read against the default database, here the test's), each playing the three games."""
    examples = readme_examples((REPO / "README.md").read_text(encoding="utf-8"))
    assert len(examples) == 3
    shutil.copytree(DECKS, tmp_path / "examples" / "decks")
    env = {**os.environ, "CARDBASE_DB": db_url}
    for code in examples:
        run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        lines = run.stdout.splitlines()
        assert [line.split()[0] for line in lines] == ["cardbase_meio", "cardbase_mea", "cardbase_meikyu"]
        for line in lines:  # the returns: 1 shared among the winners
            returns = [float(x) for x in re.findall(r"[\d.]+", line.split(" ", 1)[1])]
            assert abs(sum(returns) - 1.0) < 1e-9, line


@pytest.mark.parametrize("name", sorted(SHORT))
def test_a_record_converts_to_a_cardbase_record_that_replay_accepts_and_back(name, mea_config, tmp_path):
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    rng = np.random.RandomState(11)
    state = _play(game, [pyspiel.make_uniform_random_bot(p, 5) for p in range(game.num_players())], rng)
    lines = cardbase.spiel.record_lines(state, agents=["openspiel random"] * game.num_players())
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    replayed = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    (result,) = json.loads(replayed.stdout)
    assert result["finished"] and result["outcome"]["winners"] == list(state.engine.outcome().winners)
    (record,) = parse_records(path.read_text(encoding="utf-8"), str(path))
    back = cardbase.spiel.from_record(game, record)
    assert back.history() == state.history()
    assert back.returns() == state.returns()
    # Serialised by OpenSpiel and back, too.
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.history() == state.history() and again.returns() == state.returns()


@pytest.mark.parametrize("name", sorted(SHORT))
def test_the_engine_under_openspiel_saves_as_the_readme_says_natively(name, mea_config):
    """The engine's state under an OpenSpiel state (``state.engine``) saves with the README's native
    recipe, ``record_lines(state.rules, state.seed, state.history)``, and replays: its seed is None,
    as OpenSpiel dealt (the engine said seed 0, and replay refused the deals as not seed 0's)."""
    from cardbase.sim.records import record_lines, replay

    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    state = _play(
        game, [pyspiel.make_uniform_random_bot(p, 5) for p in range(game.num_players())], np.random.RandomState(3)
    )
    engine = state.engine
    assert engine.seed is None
    (record,) = parse_records("\n".join(record_lines(engine.rules, engine.seed, engine.history)))
    assert replay(record).state.history == engine.history


def test_a_record_of_other_rules_is_refused(mea_config):
    game = pyspiel.load_game("cardbase_meio", {"players": 3})
    other = pyspiel.load_game("cardbase_meio", {"players": 2})
    lines = cardbase.spiel.record_lines(other.new_initial_state())
    (record,) = parse_records("\n".join(lines))
    with pytest.raises(InvalidRecord, match=r"not those of .*: players 2 in the record, 3 here$"):
        cardbase.spiel.from_record(game, record)
    mea = pyspiel.load_game("cardbase_mea", mea_config)
    with pytest.raises(InvalidRecord, match="a meio record, not a mea game"):
        cardbase.spiel.from_record(mea, record)


def _meio_lines() -> list[str]:
    game = pyspiel.load_game("cardbase_meio", {"players": 2})
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    return cardbase.spiel.record_lines(state)


MALFORMED_RECORDS = {
    "no JSON": lambda lines: "junk",
    "empty": lambda lines: "",
    "two records": lambda lines: "\n".join([*lines, *lines]),
    "a seed past 2**64": lambda lines: json.dumps({**json.loads(lines[0]), "seed": 10**30}),
    "an illegal action": lambda lines: "\n".join([lines[0], json.dumps({"action": "play ZZ"})]),
    "over its bound": lambda lines: "x" * (MAX_RECORD_BYTES + 1),
}


@pytest.mark.parametrize("case", sorted(MALFORMED_RECORDS))
def test_from_record_refuses_a_malformed_record_naming_it(case):
    """A record's text that is no record (or not one, or one whose action is illegal): a ``ValueError``
    naming ``record`` (an illegal action: the ``InvalidRecord`` replay gives, naming the line). The
    text of a record, as ``record_lines`` gives it, was an ``AttributeError`` ('str' object has no
    attribute 'game')."""
    game = pyspiel.load_game("cardbase_meio", {"players": 2})
    text = MALFORMED_RECORDS[case](_meio_lines())
    with pytest.raises(ValueError, match=r"^record: |line 2: action 1"):
        cardbase.spiel.from_record(game, text)


@pytest.mark.parametrize("given", [None, 3, {"game": "meio"}, [1, 2]], ids=repr)
def test_from_record_refuses_what_is_no_record_naming_it(given):
    game = pyspiel.load_game("cardbase_meio", {"players": 2})
    with pytest.raises(TypeError, match=r"^record: a cardbase GameRecord or its JSON Lines, not "):
        cardbase.spiel.from_record(game, given)


def test_from_record_takes_a_records_lines_as_record_lines_gives_them():
    game = pyspiel.load_game("cardbase_meio", {"players": 2})
    lines = _meio_lines()
    (record,) = parse_records("\n".join(lines))
    want = str(cardbase.spiel.from_record(game, record))
    assert str(cardbase.spiel.from_record(game, lines)) == want
    assert str(cardbase.spiel.from_record(game, "\n".join(lines))) == want


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("cardbase_meio", {"players": 5}, "2, 3 or 4 players"),
        ("cardbase_meikyu", {"farm": "fields"}, "farm must be one of"),
        ("cardbase_meikyu", {"assume": ""}, "cannot play Meikyu Kingdom"),
        ("cardbase_mea", {}, "^cardbase_mea: needs deck0 and deck1"),  # the game named once
        ("cardbase_mea", {"deck0": "nowhere.txt", "deck1": "nowhere.txt"}, "nowhere"),
        ("cardbase_mea", {"board_size": 2}, "board_size must hold"),
        # A database that cannot be opened names the parameter (it was cardbase's DatabaseError,
        # no ValueError, without the game's name).
        ("cardbase_mea", {"db": "/nonexistent-folder/x.db"}, "^cardbase_mea: db: .*nonexistent-folder"),
        ("cardbase_meikyu", {"db": "/nonexistent-folder/x.db"}, "^cardbase_meikyu: db: .*nonexistent-folder"),
        # A folder as db is refused in the adapter's words: the db parameter, not the CLI's '--db'.
        ("cardbase_mea", {"db": "/"}, r"^cardbase_mea: db: /: is a folder, not a database file(?!.*--db)"),
        ("cardbase_meikyu", {"db": "/"}, r"^cardbase_meikyu: db: /: is a folder, not a database file(?!.*--db)"),
        # A set with no cards says so (it listed 83 cards 'the rules need').
        ("cardbase_meikyu", {"set": "nope"}, r"^cardbase_meikyu: set: no Meikyu cards in set 'nope' \(sets: core\)$"),
    ],
)
def test_bad_parameters_are_one_message(name, params, message, mea_config):
    decks = name == "cardbase_mea" and params and "deck0" not in params
    config = {**(mea_config if decks else {}), **params}
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(name, config)


FILE_PARAMETERS = [("cardbase_mea", "deck0"), ("cardbase_mea", "deck1"), ("cardbase_meikyu", "assume")]
"""Every parameter that names a file to read (``db`` has its own cases above)."""

NOT_READABLE = {
    "a FIFO": lambda folder: os.mkfifo(folder / "pipe") or folder / "pipe",
    "a folder": lambda folder: folder,
    "/dev/zero": lambda folder: Path("/dev/zero"),
    "a 2 GB sparse file": lambda folder: _sparse(folder / "big.txt", 2 * 2**30),
    "no file": lambda folder: folder / "nowhere.txt",
}


def _sparse(path: Path, size: int) -> Path:
    with path.open("wb") as out:
        out.truncate(size)
    return path


@pytest.mark.parametrize("target", sorted(NOT_READABLE))
@pytest.mark.parametrize(("name", "parameter"), FILE_PARAMETERS, ids=[p for _, p in FILE_PARAMETERS])
def test_a_file_parameter_that_cannot_be_read_is_refused_naming_it(name, parameter, target, mea_config, tmp_path):
    """A FIFO (which would block an open), a folder, a device, a file over its bound or none at all, given
    as a parameter that names a file: one ``ValueError`` naming the game and the parameter, before any
    read (the sparse file is never read: 2 GB would be a memory blow-up). The deck and profile
    refusals named the path only, so a caller could not tell deck0 from deck1 (or assume from db)."""
    path = NOT_READABLE[target](tmp_path)
    config = {**(mea_config if name == "cardbase_mea" else {}), parameter: str(path)}
    with pytest.raises(ValueError, match=rf"^{name}: {parameter}: .*{re.escape(str(path))}"):
        pyspiel.load_game(name, config)


def test_a_deck_of_unknown_stats_says_how_to_leave_them_out_in_the_adapters_words(tmp_path, db_url):
    """The hint names the parameter the adapter takes (``drop_unknown``), not the CLI's flag."""
    deck = tmp_path / "deck.txt"
    deck.write_text((DECKS / "mea-goblin-rush.txt").read_text(encoding="utf-8") + "1 Selounticia\n", encoding="utf-8")
    config = {"deck0": str(deck), "deck1": str(DECKS / "mea-tile-control.txt"), "db": db_url}
    with pytest.raises(ValueError, match=r"(?s)^cardbase_mea: deck0: (?!.*--drop-unknown).*drop_unknown=true"):
        pyspiel.load_game("cardbase_mea", config)


def test_an_unknown_parameter_is_refused():
    with pytest.raises(pyspiel.SpielError, match="farm"):
        pyspiel.load_game("cardbase_meio(farm=lands)")


def test_the_observer_names_the_pieces_of_the_tensor(mea_config):
    game = pyspiel.load_game("cardbase_meio", {"players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    observer = game.make_py_observer()
    observer.set_from(state, 0)
    hand = observer.dict["hand"]
    assert hand.shape == (52,) and hand.sum() == 13  # the 13 cards just dealt to seat 0
    assert observer.dict["played"].shape == (3, 52)
    assert state.observation_tensor(0) == pytest.approx(list(observer.tensor))
    assert "Your hand" in state.observation_string(0)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_the_observation_tensors_shape_is_the_engines_layout(name, mea_config):
    """OpenSpiel's tensor shape, the observer's pieces and each state's tensor all have the engine's
    ``observation_tensor_layout()`` sizes."""
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    layout = game.rules.observation_tensor_layout()
    size = game.rules.observation_tensor_size()
    assert game.observation_tensor_shape() == [size] and game.observation_tensor_size() == size
    observer = game.make_py_observer()
    assert [(piece, array.shape) for piece, array in observer.dict.items()] == list(layout)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(40):
        if state.is_terminal():
            break
        for seat in range(game.num_players()):
            assert len(state.observation_tensor(seat)) == size
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", sorted(SHORT))
def test_no_information_state_tensor_is_offered(name, mea_config):
    """OpenSpiel's information state is perfect recall (all the seat has seen and done); the games
    offer none as a tensor (``provides_information_state_tensor`` False), so asking for one is
    OpenSpiel's SpielError saying so, as for its own games without one (``go``), not the
    observation tensor passed off as one."""
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    assert game.get_type().provides_information_state_tensor is False
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.is_chance_node():  # (always the first outcome ties Meikyu's first-player roll forever)
        state.apply_action(rng.choice(state.legal_actions()))
    for call in (lambda: state.information_state_tensor(0), game.information_state_tensor_shape):
        with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
            call()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert observer.tensor is None and observer.dict == {}
    assert observer.string_from(state, 0) == state.information_state_string(0)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_apply_action_refuses_an_id_that_is_not_a_legal_step(name, mea_config):
    """``apply_action`` checks: an id outside ``legal_actions()`` (a player's, then chance's) is
    ``IllegalStep``, a ``ValueError`` naming the id, and the state is as it was."""
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    state = game.new_initial_state()
    rng = np.random.RandomState(11)
    refused = {"chance": 0, "player": 0}
    while not state.is_terminal() and min(refused.values()) == 0:
        kind = "chance" if state.is_chance_node() else "player"
        size = game.max_chance_outcomes() if kind == "chance" else game.num_distinct_actions()
        legal = state.legal_actions()
        illegal = [i for i in range(size) if i not in legal]
        if illegal and refused[kind] == 0:
            before = (str(state), state.history(), legal)
            step = illegal[len(illegal) // 2]
            with pytest.raises(cardbase.spiel.IllegalStep, match=rf"action id {step} is not a legal step") as caught:
                state.apply_action(step)
            assert isinstance(caught.value, ValueError) and caught.value.step == step
            assert (str(state), state.history(), state.legal_actions()) == before
            refused[kind] += 1
        state.apply_action(int(rng.choice(legal)))
    assert min(refused.values()) == 1


@pytest.mark.parametrize("name", sorted(SHORT))
def test_apply_unchecked_plays_the_same_game_as_apply_action(name, mea_config):
    """The unchecked fast path takes the same steps to the same states, OpenSpiel's history
    included; and the legal steps it hands out are a copy the caller may change."""
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    checked, unchecked = game.new_initial_state(), game.new_initial_state()
    rng = np.random.RandomState(5)
    while not checked.is_terminal():
        legal = checked.legal_actions()
        assert unchecked.legal_actions() == legal
        if checked.is_chance_node():
            assert unchecked.chance_outcomes() == checked.chance_outcomes()
        step = int(rng.choice(legal))
        legal.clear()  # the caller's copy: the state's own list is untouched
        assert checked.legal_actions()
        checked.apply_action(step)
        unchecked.apply_unchecked(step)
        assert str(unchecked) == str(checked) and unchecked.history() == checked.history()
    assert unchecked.is_terminal() and unchecked.returns() == checked.returns()


def test_the_ismcts_match_plays_reproducible_games_in_either_seat():
    """``benchmarks/spiel_ismcts.py``: cardbase's ismcts and OpenSpiel's ISMCTSBot finish a game
    in either seat, the score is the seat's return, and a seed gives the same game again."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import spiel_ismcts
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    game = pyspiel.load_game("cardbase_meio", {"players": 2, "rounds": 1})
    for seat in (0, 1):
        score, ours, theirs, state = spiel_ismcts.play(game, seat, 3, 7)
        assert state.is_terminal() and score == state.returns()[seat] and score in (0.0, 0.5, 1.0)
        assert ours > 0 and theirs > 0
        again = spiel_ismcts.play(game, seat, 3, 7)[3]
        assert again.history() == state.history()


@pytest.mark.parametrize("name", sorted(SHORT))
def test_new_states_and_clones_are_independent(name, mea_config):
    """New states read the game's one initial node until they move (a clone makes a new state
    first): moving one, through OpenSpiel or through its engine, leaves every other as it was."""
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    fresh = str(game.new_initial_state())
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_action(a.legal_actions()[0])
    twin = b.clone()
    engine = b.engine
    engine.apply_unchecked(engine.sample_chance())
    assert len(b.engine.history) == 1 and str(b) != fresh
    c = game.new_initial_state()
    assert str(c) == str(twin) == fresh and c.history() == twin.history() == [] and len(a.history()) == 1
    assert c.legal_actions() == twin.legal_actions()
    twin.apply_unchecked(twin.legal_actions()[-1])
    assert str(game.new_initial_state()) == fresh and twin.history() != a.history()


@pytest.mark.parametrize("name", sorted(SHORT))
def test_action_to_string_refuses_an_id_out_of_range(name, mea_config):
    """Any id in range reads as text (OpenSpiel prints policies so); one outside the node's range
    (a player's ``num_distinct_actions``, chance's ``max_chance_outcomes``) is a ``ValueError``
    naming it, not an IndexError from inside the engine or the text of some other id."""
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    seen = set()
    while not state.is_terminal() and len(seen) < 2:
        chance = state.is_chance_node()
        player = state.current_player()
        size = game.max_chance_outcomes() if chance else game.num_distinct_actions()
        for step in (size, size + 7, 10**9, -2):
            with pytest.raises(ValueError, match=rf"action id {step} is not"):
                state.action_to_string(player, step)
        for step in state.legal_actions():
            assert state.action_to_string(player, step)
        seen.add(chance)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert seen == {True, False}


@pytest.mark.parametrize("name", sorted(SHORT))
def test_games_and_states_pickle_and_say_what_they_are(name, mea_config):
    """A game pickles as its name and parameters, a state as OpenSpiel saves it; their reprs name
    the game and the node (a state's was empty until its first step)."""
    game = pyspiel.load_game(name, _config(name, mea_config, **SHORT[name]))
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.rules == game.rules
    state = game.new_initial_state()
    assert repr(state).startswith(f"<{name} ") and "chance" in repr(state)
    rng = np.random.RandomState(3)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert f"player {state.current_player()} to act" in repr(state)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and copy.legal_actions() == state.legal_actions()


def test_the_adapters_public_names_have_docstrings():
    from tests.sim.test_sim_protocol import public_names_without_a_docstring

    assert public_names_without_a_docstring(["cardbase.spiel"]) == []


def test_without_the_extra_the_import_says_how_to_get_it():
    """``import cardbase.spiel`` without OpenSpiel installed names the extra to install (it was
    ``No module named 'pyspiel'``)."""
    code = "import sys; sys.modules['pyspiel'] = None; import cardbase.spiel"
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: cardbase.spiel needs OpenSpiel"), last
    assert "uv run --extra spiel" in last and "pip install 'cardbase[spiel]'" in last
