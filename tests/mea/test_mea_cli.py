"""``cardbase sim mea``, ``play mea`` and ``replay`` on Méa records, through Typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from tests.conftest import REPO

EXAMPLES = REPO / "examples" / "decks"
RUSH = str(EXAMPLES / "mea-goblin-rush.txt")
CONTROL = str(EXAMPLES / "mea-tile-control.txt")
runner = CliRunner()


def run(db: str, *args: str, input: str | None = None):
    return runner.invoke(app, [*args, "--db", db], input=input)


def sim(db: str, *args: str):
    return run(db, "sim", "mea", "--deck", RUSH, "--vs", CONTROL, *args)


@pytest.mark.xdist_group("pools")  # starts worker processes: one such test at a time
def test_sim_mea_json_report_is_the_same_whatever_the_jobs(db_url):
    one = sim(db_url, "--games", "24", "--seed", "3", "--json")
    assert one.exit_code == 0, one.output
    two = sim(db_url, "--games", "24", "--seed", "3", "--json", "--jobs", "2")
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    for key in ("decks", "turns", "endings", "agents"):
        assert a[key] == b[key]
    assert a["games"] == 24
    rush, control = a["decks"]
    assert rush["overall"]["wins"] + control["overall"]["wins"] + a["shared_results"] == 24
    assert rush["going_first"]["games"] == rush["going_second"]["games"] == 12  # each deck on both seats
    for d in a["decks"]:
        lo, hi = d["overall"]["win_rate_95"]
        assert lo <= d["overall"]["win_rate"] <= hi
        assert "by_opening_draw" not in d  # confounded by the agent: see cardbase lab opening
    assert sum(e["games"] for e in a["endings"].values()) == 24
    assert a["turns"]["mean_95"][0] <= a["turns"]["mean"] <= a["turns"]["mean_95"][1]
    assert any("demo cards" in n for n in a["notes"])


@pytest.mark.parametrize(
    ("games", "said"),
    [
        ("1", "1 game, seed 0; Goblin Rush goes first in 1, Tile Control in 0"),
        ("3", "3 games, seed 0; Goblin Rush goes first in 2, Tile Control in 1"),
        ("2", "2 games, seed 0; each deck goes first in half of them"),
    ],
)
def test_sim_mea_title_says_who_went_first_when_the_games_do_not_halve(db_url, games, said):
    """One game: one deck went first (the title said each did in half of them, and '1 games')."""
    result = sim(db_url, "--games", games)
    assert result.exit_code == 0, result.output
    assert said in " ".join(result.stdout.split()), result.stdout


def test_sim_mea_table_says_who_wins_and_why(db_url):
    result = sim(db_url, "--games", "8", "--agents", "heuristic:opening=2-6,random")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "opening draw size" not in out  # dropped: it confounds the agent with the size
    for text in (
        "Goblin Rush",
        "Tile Control",
        "win rate",
        "95%",
        "1st",
        "How the games ended",
        "cardbase lab opening",
        "Game length",
        "demo cards",
        "not published",
    ):
        assert text in out, text


def test_sim_mea_swap_agents_reports_each_agent(db_url):
    result = sim(db_url, "--games", "8", "--agents", "heuristic,random", "--swap-agents", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["agents"]) == {"heuristic", "random"}
    assert data["agents"]["heuristic"]["games"] == data["agents"]["random"]["games"] == 8


def test_sim_mea_bad_usage_exits_2(db_url):
    result = sim(db_url, "--games", "2", "--agents", "heuristic")
    assert result.exit_code == 2 and "one agent for --deck and one for --vs" in result.stderr
    result = sim(db_url, "--games", "2", "--agents", "heuristic,genius")
    assert result.exit_code == 2 and "unknown Méa agent 'genius'" in result.stderr
    result = sim(db_url, "--games", "2", "--agents", "heuristic:colour=red,random")
    assert result.exit_code == 2 and "colour" in result.stderr
    result = sim(db_url, "--games", "2", "--layout", "nonsense")
    assert result.exit_code == 2 and "layout" in result.stderr
    result = run(db_url, "sim", "mea", "--deck", "missing.txt", "--vs", CONTROL, "--games", "2")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_sim_mea_refuses_an_invalid_deck_listing_its_problems(db_url):
    result = run(db_url, "sim", "mea", "--deck", str(EXAMPLES / "mea-broken.txt"), "--vs", CONTROL, "--games", "2")
    assert result.exit_code == 1
    assert "Goblen Surveyor" in result.stderr and "deck-size" in result.stderr
    assert "Traceback" not in result.output


def selounticia_deck(tmp_path: Path) -> Path:
    path = tmp_path / "mea-selounticia.txt"
    path.write_text(
        "game: mea\nname: With Selounticia\n3 Selounticia\n3 Crumb Goblin\n3 Puddle Knight\n"
        "3 Turnip Sentry\n3 Barrel Bandit\n3 Iron Pudding\n",
        encoding="utf-8",
    )
    return path


def test_cards_with_unknown_stats_are_refused_with_a_list_unless_dropped(db_url, tmp_path):
    deck = selounticia_deck(tmp_path)
    result = run(db_url, "sim", "mea", "--deck", str(deck), "--vs", CONTROL, "--games", "2")
    assert result.exit_code == 1
    assert "Selounticia (core): unknown cost, attack, defence" in result.stderr
    assert "--drop-unknown" in result.stderr and "cardbase catalog edit NAME FIELD=VALUE" in result.stderr
    result = run(db_url, "sim", "mea", "--deck", str(deck), "--vs", CONTROL, "--games", "2", "--drop-unknown", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["decks"][0]["cards"] == 15
    assert data["decks"][0]["dropped_unknown"] == ["Selounticia (core): unknown cost, attack, defence"]
    assert any("left out of With Selounticia" in n for n in data["notes"])


def test_imported_cards_play_as_bare_stats_and_the_report_says_so(db_url, tmp_path):
    sheet = tmp_path / "mine.csv"
    sheet.write_text(
        "name,type,cost,atk,def,text\nHome Brew,monster,2,3,3,When summoned: Make tea.\n", encoding="utf-8"
    )
    result = run(db_url, "catalog", "import", str(sheet), "--game", "mea")
    assert result.exit_code == 0, result.output
    deck = tmp_path / "brew.txt"
    deck.write_text("game: mea\n3 Home Brew\n15 Crumb Goblin\n", encoding="utf-8")
    result = run(db_url, "sim", "mea", "--deck", str(deck), "--vs", CONTROL, "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["decks"][0]["bare_stats"] == ["Home Brew"]
    assert any("bare stats" in n and "Home Brew" in n for n in data["notes"])
    table = run(db_url, "sim", "mea", "--deck", str(deck), "--vs", CONTROL, "--games", "2")
    assert "bare stats" in table.stdout and "Home Brew" in table.stdout


def test_records_replay_and_a_tampered_record_exits_1(db_url, tmp_path):
    result = sim(db_url, "--games", "3", "--records", str(tmp_path))
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.glob("*.jsonl")
    ok = runner.invoke(app, ["replay", str(path), "--json"])
    assert ok.exit_code == 0, ok.output
    games = json.loads(ok.stdout)
    assert len(games) == 3 and all(g["finished"] and g["game"] == "mea" for g in games)
    assert any("demo cards" in n for n in games[0]["notes"])
    table = runner.invoke(app, ["replay", str(path)])
    assert "every action legal" in table.stdout and "demo cards" in table.stdout
    lines = path.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if '"action": "summon ' in line)
    entry = json.loads(lines[k])
    entry["action"] = entry["action"].rsplit(" ", 1)[0] + " z9"
    lines[k] = json.dumps(entry, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = runner.invoke(app, ["replay", str(path)])
    assert bad.exit_code == 1
    assert f"line {k + 1}" in bad.stderr and "there is no tile z9" in bad.stderr
    assert "Traceback" not in bad.output


def test_play_mea_refuses_illegal_actions_with_the_rule_and_saves_a_record(db_url, tmp_path):
    record = tmp_path / "game.jsonl"
    moves = "draw 0\nhelp\ndraw 5\nlegal\nsummon Iron Pudding z9\nattack b2 with Crumb Goblin@a2\nshow\nquit\n"
    result = run(
        db_url,
        "play",
        "mea",
        "--deck",
        RUSH,
        "--vs-deck",
        CONTROL,
        "--vs",
        "heuristic",
        "--seed",
        "4",
        "--record",
        str(record),
        input=moves,
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "refused: you must draw at least 1 card" in out
    assert "summon <card> b2" in out  # the Méa help
    # Iron Pudding is a card of P2's deck, whose list P1 does not see: refused as a name of no deck is
    assert "refused: you hold no card by that name" in out and "Iron Pudding" not in out
    assert "P1 (yellow)" in out and "tiles" in out and "mana" in out
    assert "Game left unfinished." in out and "demo cards" in out
    replayed = runner.invoke(app, ["replay", str(record), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)[0]["finished"] is False


def test_play_mea_against_random_to_the_end(db_url, tmp_path):
    # Draw 10, then end every turn drawing 1 until the game is over (the hand fills up: a loss).
    moves = "draw 10\n" + "draw 1\nyes\nflip none\n" * 20  # yes: drawing the 11th card is confirmed
    result = run(
        db_url,
        "play",
        "mea",
        "--deck",
        RUSH,
        "--vs-deck",
        CONTROL,
        "--vs",
        "random",
        "--seed",
        "1",
        "--no-record",
        input=moves,
    )
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.stdout and "with 11 you lose at once. Draw anyway? [y/N]" in result.stdout


def test_help_texts_have_examples():
    for args in (["sim", "mea", "--help"], ["play", "mea", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0 and "Example:" in result.stdout


def test_play_mea_header_names_the_second_player_during_their_opening_draw(db_url):
    result = run(db_url, "play", "mea", "--deck", RUSH, "--vs-deck", CONTROL, "--seat", "2", "--vs", "heuristic",
                 "--seed", "4", "--no-record", input="quit\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Méa · opening draws · P2 draws" in out and "P1's turn" not in out


def test_rules_options_by_rule_reach_sim_play_and_the_record(db_url, tmp_path):
    rules = ["--rule", "tile_attack=filters", "--rule", "move_onto_enemy=allowed", "--rule", "tiles_per_colour=9",
             "--rule", "obliterated=killed"]  # fmt: skip
    result = sim(db_url, "--games", "4", "--seed", "1", "--records", str(tmp_path), *rules)
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.glob("*.jsonl")
    replayed = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert len(replayed) == 4
    for g in replayed:
        assert g["finished"]
        assert (g["rules"]["tile_attack"], g["rules"]["move_onto_enemy"]) == ("filters", "allowed")
        assert (g["rules"]["tiles_per_colour"], g["rules"]["obliterated"]) == (9, "killed")
    record = tmp_path / "played.jsonl"
    moves = "draw 10\n" + "draw 1\nyes\nflip none\n" * 20  # yes: drawing the 11th card is confirmed
    played = run(db_url, "play", "mea", "--deck", RUSH, "--vs-deck", CONTROL, "--vs", "random", "--seed", "1",
                 "--record", str(record), *rules, input=moves)  # fmt: skip
    assert played.exit_code == 0, played.output
    (g,) = json.loads(runner.invoke(app, ["replay", str(record), "--json"]).stdout)
    assert g["rules"]["move_onto_enemy"] == "allowed" and g["rules"]["tiles_per_colour"] == 9
    for bad, words in ((["--rule", "tiles_per_colour=4"], "tiles_per_colour"),
                       (["--rule", "move_onto_enemy=maybe"], "move_onto_enemy must be one of refused, allowed"),
                       (["--rule", "decks=x"], "not a Méa rules option")):  # fmt: skip
        wrong = sim(db_url, "--games", "2", *bad)
        assert wrong.exit_code == 2 and words in wrong.stderr and "Traceback" not in wrong.output


def test_the_median_game_length_of_an_even_count_is_the_middle_two_means(db_url):
    result = sim(db_url, "--games", "2", "--seed", "0", "--json")
    assert result.exit_code == 0, result.output
    turns = json.loads(result.stdout)["turns"]
    assert turns["min"] < turns["max"]  # two games of different lengths: their median is their mean
    assert turns["median"] == (turns["min"] + turns["max"]) / 2 == turns["mean"]
    table = sim(db_url, "--games", "2", "--seed", "0")
    assert f"median {turns['median']:g}," in table.stdout


@pytest.mark.parametrize(
    ("deck", "vs", "agents", "compares", "said"),
    [
        (RUSH, CONTROL, "heuristic,heuristic", "decks", "This compares the decks: the same agent (heuristic)"),
        (RUSH, RUSH, "heuristic,random", "agents", "This compares the agents: both play the same deck"),
        (RUSH, CONTROL, "heuristic,random", "decks and agents", "This compares decks and agents together"),
        (RUSH, RUSH, "heuristic,heuristic", "seats", "This compares the seats"),
    ],
)
def test_sim_mea_says_what_its_table_compares(db_url, deck, vs, agents, compares, said):
    """Issue 28: heuristic against random made the decks look even (47.5% vs 52.5%) where one agent on both
    sides shows Goblin Rush losing: the report says which comparison a table makes."""
    args = ["sim", "mea", "--deck", deck, "--vs", vs, "--agents", agents, "--games", "4", "--db", db_url]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert data["compares"] == compares and data["comparison"].startswith(said.removeprefix("This ")[:20])
    table = runner.invoke(app, args)
    assert table.exit_code == 0 and " ".join(said.split()) in " ".join(table.stdout.split())
    swapped = json.loads(runner.invoke(app, [*args, "--swap-agents", "--json"]).stdout)
    if compares == "decks and agents":
        assert "each deck is played by heuristic and by random" in swapped["comparison"]


@pytest.mark.parametrize(
    ("option", "value", "refusal"),
    [
        ("move_onto_enemy", "refused", "a monster cannot move onto a tile with an enemy monster on it (b1)"),
        ("left_play", "ignored", None),
    ],
)
def test_replay_plays_a_record_under_its_own_rules_and_refuses_a_move_those_rules_forbid(
    tmp_path, option, value, refusal
):
    """replay checks every action under the rules options the record was played with: a move onto a tile with
    an enemy monster on it, legal under move_onto_enemy=allowed, is refused with the rule's one message (and
    its line) once the header says refused; a new option (left_play) in a record round-trips."""
    from cardbase.games.mea.actions import Shuffle
    from cardbase.sim.records import record_lines
    from tests.mea.conftest import KNIGHT, PAWN, rules_for

    rules = rules_for([KNIGHT], [PAWN], move_onto_enemy="allowed", left_play="resolved", triggered_after="card")
    state = rules.new_initial_state(0)
    state.apply(Shuffle([range(d.size) for d in rules.decks]))
    for text in ["draw 1", "draw 1", "summon Knight b1", "draw 1", "summon Pawn b2", "move Pawn@b2 b1"]:
        state.apply_text(text)
    lines = record_lines(rules, None, state.history, ["human", "human"])  # the deal is given, not seeded
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ok = runner.invoke(app, ["replay", str(path)])
    assert ok.exit_code == 0 and "every action legal" in ok.stdout, ok.output
    head = json.loads(lines[0])
    assert head["rules"][option] != value
    head["rules"][option] = value
    path.write_text("\n".join([json.dumps(head, ensure_ascii=False), *lines[1:]]) + "\n", encoding="utf-8")
    again = runner.invoke(app, ["replay", str(path)])
    assert "Traceback" not in again.output
    if refusal is None:
        assert again.exit_code == 0, again.output
        return
    assert again.exit_code == 1
    assert f"line {len(lines)}" in again.stderr and refusal in again.stderr
    assert again.stderr.count(refusal) == 1
