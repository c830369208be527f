"""``cardbase sim meikyu``, ``play meikyu``, ``replay`` of Meikyu records and ``odds meikyu``,
through Typer's runner, on a real database (SQLite, or PostgreSQL with CARDBASE_TEST_POSTGRES)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.games.base import CHANCE
from cardbase.sim.meikyu import make_rules
from cardbase.sim.registry import derive_seed, game
from tests.meikyu.helpers import default_pool

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_sim_without_values_refuses_with_the_list_of_missing_values(db_url):
    result = run("sim", "meikyu", "--players", "3", "--games", "5", "--db", db_url)
    assert result.exit_code == 1
    err = result.stderr
    assert "cannot play Meikyu Kingdom: the catalog lacks 84 values and at least 16 whole cards the rules need" in err
    assert "Bee (character): bravery, wits, copies" in err
    assert "Den of the Geister (land): points, developed_points" in err
    assert "lands: 16 of the rulebook's 32 not catalogued" in err
    assert "cardbase catalog import" in err and "--assume default" in err
    assert "Traceback" not in result.output


@pytest.mark.xdist_group("pools")  # starts worker processes: one such test at a time
def test_sim_with_the_default_profile_reports_what_it_assumed(db_url):
    args = ["sim", "meikyu", "--players", "3", "--agents", "heuristic,random,random", "--games", "12", "--seed", "3"]
    result = run(*args, "--assume", "default", "--db", db_url, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assumed = data["meikyu"]["assumed"]
    assert assumed["profile"] == "default" and assumed["count"] == {"values": 84, "whole_cards": 17}
    assert "Bee bravery" in assumed["values"] and "Unnamed room 1 (card not in the rulebook)" in assumed["values"]
    assert data["rules"]["pool"] == {
        "lands": 32,
        "kingdom_cards": 68,
        "profile": "default",
        "assumed": {"values": 84, "whole_cards": 17},
    }
    assert [s["agent"] for s in data["seats"]] == ["heuristic", "random", "random"]
    for seat in data["seats"]:
        assert seat["win_rate_95"][0] - 1e-9 <= seat["win_rate"] <= seat["win_rate_95"][1] + 1e-9
    length = data["meikyu"]["game_length_turns"]
    assert length["mean_95"][0] <= length["mean"] <= length["mean_95"][1]
    assert sum(data["meikyu"]["ended"].values()) == 12
    assert data["meikyu"]["points_by_land"] and "land" in data["meikyu"]["points_by_land"][0]
    table = run(*args, "--assume", "default", "--db", db_url)
    assert table.exit_code == 0, table.output
    out = table.stdout
    for text in ("win rate", "95% interval", "Game length", "How games ended", "Points by land", "ASSUMED VALUES: 84"):
        assert text in out
    assert "Bee: bravery, wits, copies" in out and "ASSUMED VALUES: 84 values and 17 whole cards come from" in out
    again = run(*args, "--assume", "default", "--db", db_url, "--json", "--jobs", "2")
    assert json.loads(again.stdout)["seats"] == data["seats"]


def test_points_per_game_by_land_have_their_interval(db_url):
    """'Points by land' gave each land's points per game as 1.00 from 12 games, two decimals and no
    interval (a mean of 12 games read as exact): now the mean of each game's points, Student's t cut
    at 0 (score_interval), shown to the digits that interval gives, and the interval in --json."""
    import math
    import re

    from cardbase.stats import shown

    args = ["sim", "meikyu", "--players", "3", "--agents", "heuristic,random,random", "--games", "12", "--seed", "3"]
    data = json.loads(run(*args, "--assume", "default", "--db", db_url, "--json").stdout)
    rows = data["meikyu"]["points_by_land"]
    for row in rows:
        low, high = row["points_per_game_95"]
        assert 0 <= low <= row["points_per_game"] <= (math.inf if high is None else high), row
        assert row["points_per_game"] == pytest.approx(row["points_at_end"] / 12)
    out = run(*args, "--assume", "default", "--db", db_url).stdout
    first = rows[0]
    per_game, lo, hi = shown(
        first["points_per_game"], *[math.inf if x is None else x for x in first["points_per_game_95"]], scale=1.0
    )
    line = next(line for line in out.splitlines() if f"│ {first['land'].split()[0]} " in line)
    assert f"{per_game} ({lo}–{hi})" in line, out
    assert not re.search(r"│\s+\d+\.\d\d\s+│", out), out  # no bare two-decimal mean


def test_sim_bad_options_and_profiles(db_url, tmp_path):
    result = run("sim", "meikyu", "--players", "6", "--games", "2", "--assume", "default", "--db", db_url)
    assert result.exit_code == 2 and "'--players'" in result.stderr and "from 2 to 5" in result.stderr, result.stderr
    result = run("sim", "meikyu", "--players", "2", "--farm", "capacity", "--assume", "default", "--db", db_url)
    assert result.exit_code == 2 and "farm must be one of lands, points" in result.stderr
    result = run("sim", "meikyu", "--players", "2", "--agents", "random,genius", "--assume", "default", "--db", db_url)
    assert result.exit_code == 2 and "unknown Meikyu Kingdom agent 'genius'" in result.stderr
    result = run("sim", "meikyu", "--players", "2", "--assume", str(tmp_path / "none.json"), "--db", db_url)
    assert result.exit_code == 2 and "no assumption profile" in result.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "x", "cards": {"Bee": {"bravery": "high"}}}))
    result = run("sim", "meikyu", "--players", "2", "--assume", str(bad), "--db", db_url)
    assert result.exit_code == 1 and "cards.Bee.bravery: must be a whole number" in result.stderr
    assert "Traceback" not in result.output


def _real_values_csv(path: Path) -> None:
    """A user's spreadsheet with every value the rules need (the 16 missing lands included)."""
    pool = default_pool()
    rows = []
    for land in pool.lands:
        name = land.name.replace("Unnamed room", "Real room")
        rows.append([name, "land", land.level, land.points + 1, land.developed_points + 1, "", "", ""])
    for card in pool.kingdom:
        if card.type == "character":
            rows.append([card.name, "character", "", "", "", card.bravery + 1, card.wits, card.copies])
        elif card.name == "Unknown OPEN card":
            rows.append(["Dungeon Quake", "open", "", "", "", "", "", 1])
        else:
            rows.append([card.name, card.type, "", "", "", "", "", card.copies])
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["name", "type", "level", "points", "developed_points", "swords", "seals", "count"])
        writer.writerows(rows)


def test_importing_real_values_from_a_spreadsheet_then_simulating_without_assume(db_url, tmp_path):
    sheet = tmp_path / "my-meikyu.csv"
    _real_values_csv(sheet)
    imported = run("catalog", "import", str(sheet), "--game", "meikyu", "--db", db_url)
    assert imported.exit_code == 0, imported.output
    result = run(
        "sim", "meikyu", "--players", "2", "--agents", "heuristic,random", "--games", "6", "--db", db_url, "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["meikyu"]["assumed"] == {"profile": None, "count": {"values": 0, "whole_cards": 0}, "values": []}
    assert data["rules"]["pool"]["lands"] == 32
    lands = {row["land"] for row in data["meikyu"]["points_by_land"]}
    assert not any("Unnamed" in name for name in lands)
    table = run("sim", "meikyu", "--players", "2", "--games", "3", "--agents", "random,random", "--db", db_url)
    assert table.exit_code == 0 and "no assumed values" in table.stdout and "ASSUMED" not in table.stdout
    # an imported value is used even with --assume: the profile only fills gaps
    with_profile = run(
        "sim", "meikyu", "--players", "2", "--games", "3", "--assume", "default", "--db", db_url, "--json"
    )
    assert json.loads(with_profile.stdout)["meikyu"]["assumed"]["count"] == {"values": 0, "whole_cards": 0}


def test_a_partial_import_shrinks_the_list_of_missing_values(db_url, tmp_path):
    sheet = tmp_path / "some.csv"
    sheet.write_text("name,bravery,wits,copies\nBee,1,1,3\nCook,1,1,3\n", encoding="utf-8")
    assert run("catalog", "import", str(sheet), "--game", "meikyu", "--db", db_url).exit_code == 0
    result = run("sim", "meikyu", "--players", "2", "--games", "2", "--db", db_url)
    assert result.exit_code == 1 and "lacks 78 values and at least 16 whole cards" in result.stderr
    assert "Bee (character)" not in result.stderr and "Jehu (character)" in result.stderr
    assumed = run("sim", "meikyu", "--players", "2", "--games", "2", "--assume", "default", "--db", db_url, "--json")
    values = json.loads(assumed.stdout)["meikyu"]["assumed"]["values"]
    assert "Bee bravery" not in values and "Jehu bravery" in values


def test_records_replay_and_a_tampered_record_exits_1(db_url, tmp_path):
    result = run(
        "sim", "meikyu", "--players", "2", "--agents", "heuristic,random", "--games", "3",
        "--assume", "default", "--db", db_url, "--records", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.glob("meikyu-*.jsonl")
    ok = run("replay", str(path))
    assert ok.exit_code == 0, ok.output
    assert "every action legal" in ok.stdout and "ASSUMED" in ok.stdout
    games = json.loads(run("replay", str(path), "--json").stdout)
    assert len(games) == 3 and all(g["finished"] for g in games)
    lines = path.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"P1", "action": "quest' in line)
    lines[i] = json.dumps({"player": "P1", "action": "quest Cave of the Dragon with Bee, Bee, Bee, Bee"})
    path.write_text("\n".join(lines) + "\n")
    bad = run("replay", str(path))
    assert bad.exit_code == 1
    assert f"line {i + 1}: action" in bad.stderr and "(P1)" in bad.stderr
    assert "Traceback" not in bad.output


def _scripted(players: int, seat: int, vs: str, seed: int, pick, **options) -> list[str]:
    """The lines a person types in ``play meikyu``, playing the game the CLI will play."""
    entry = game("meikyu")
    rules = make_rules(default_pool(), players, **options)
    human = seat - 1
    agents = {s: entry.make_agent(vs, rules, s, derive_seed(seed, "play", s)) for s in range(players) if s != human}
    state = rules.new_initial_state(seed)
    typed: list[str] = []
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        p = state.current_player
        if p != human:
            state.apply(agents[p].act(state.observation(p), state.legal_actions()))
            continue
        lines, stop = pick(state)
        typed.extend(lines)
        if stop:
            return typed
        state.apply(state.parse_action(lines[-1]))
    return typed


def test_play_meikyu_shows_the_table_refuses_an_illegal_action_and_replays(db_url, tmp_path):
    def pick(state):
        if state.decision == "action":
            return ["quest 1 with Sword", "attack P2 1 with Bee by Gotcha!", "legal", "hint", "show", "quit"], True
        return [str(state.legal_actions()[0])], False

    typed = _scripted(2, 1, "heuristic", 4, pick)
    record = tmp_path / "game.jsonl"
    result = run(
        "play", "meikyu", "--players", "2", "--vs", "heuristic", "--seed", "4", "--assume", "default",
        "--db", db_url, "--record", str(record), input="\n".join(typed) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Rooms: [1]" in out and "Your hand (characters: swords/seals):" in out and "P2:" in out and "kingdom:" in out
    assert "refused:" in out  # e.g. no Sword in hand, or a quest without a character
    assert "legal moves:" in out and "  quest (" in out
    assert "hint: " in out and "Game left unfinished" in out and "ASSUMED" in out
    replayed = run("replay", str(record), "--json")
    assert replayed.exit_code == 0 and json.loads(replayed.stdout)[0]["finished"] is False


def test_play_meikyu_a_whole_game_then_replay(db_url, tmp_path):
    def pick(state):
        return [str(state.legal_actions()[0])], False

    typed = _scripted(2, 2, "random", 9, pick)
    record = tmp_path / "whole.jsonl"
    result = run(
        "play", "meikyu", "--players", "2", "--seat", "2", "--vs", "random", "--seed", "9", "--assume", "default",
        "--db", db_url, "--record", str(record), input="\n".join(typed) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout and "refused" not in result.stdout
    assert "rolls" in result.stdout  # the dice are shown
    (g,) = json.loads(run("replay", str(record), "--json").stdout)
    assert g["finished"] and g["outcome"]["winners"]


def test_play_meikyu_without_values_refuses(db_url):
    result = run("play", "meikyu", "--players", "2", "--db", db_url, input="quit\n")
    assert result.exit_code == 1 and "lacks 84 values and at least 16 whole cards" in result.stderr


def test_help_texts_have_examples():
    for args in (["sim", "meikyu"], ["play", "meikyu"], ["odds", "meikyu", "quest"], ["odds", "meikyu", "attack"]):
        result = run(*args, "--help")
        assert result.exit_code == 0 and "Example:" in result.stdout


def test_rules_options_by_rule_reach_sim_play_and_the_record(db_url, tmp_path):
    args = ["sim", "meikyu", "--players", "3", "--agents", "heuristic,random,random", "--games", "6", "--seed", "2"]
    rules = ["--rule", "casino=every", "--rule", "refugee=land", "--map-room", "discarded"]
    result = run(*args, *rules, "--assume", "default", "--db", db_url, "--json")
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)["rules"]
    assert (options["casino"], options["refugee"], options["map_room"], options["farm"]) == (
        "every", "land", "discarded", "points",  # the Farm's default reading
    )  # fmt: skip
    table = run(*args, *rules, "--assume", "default", "--db", db_url)
    words = " ".join(table.stdout.split())
    assert "the Casino counts every 6 rolled" in words and "a Refugee counts as a land" in words
    for bad, words in ((["--rule", "casino"], "NAME=VALUE"), (["--rule", "gravity=1"], "not a Meikyu Kingdom rules"),
                       (["--rule", "casino=sometimes"], "casino must be one of final, every"),
                       (["--rule", "turn_limit=many"], "not a whole number")):  # fmt: skip
        wrong = run(*args, *bad, "--assume", "default", "--db", db_url)
        assert wrong.exit_code == 2 and words in wrong.stderr and "Traceback" not in wrong.output

    def pick(state):
        return [str(state.legal_actions()[0])], False

    readings = {"casino": "every", "refugee": "land", "map_room": "discarded"}
    typed = _scripted(2, 1, "random", 5, pick, **readings)
    record = tmp_path / "options.jsonl"
    played = run(
        "play", "meikyu", "--players", "2", "--vs", "random", "--seed", "5", "--assume", "default", "--db", db_url,
        "--record", str(record), *rules, input="\n".join(typed) + "\n",
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert "Game over" in played.stdout and "refused" not in played.stdout
    (g,) = json.loads(run("replay", str(record), "--json").stdout)
    assert g["finished"] and {k: g["rules"][k] for k in readings} == readings


def test_the_missing_values_are_counted_one_way_in_every_command(db_url):
    """Issue 28: 100, 101 and '84 values + 17 whole cards' in different commands; one count, one wording."""
    from cardbase.catalog.meikyu_profiles import shipped_pool
    from cardbase.games.meikyu.engine import MeikyuRules

    missing = "84 values and at least 16 whole cards"
    status = run("catalog", "status", "--game", "meikyu", "--db", db_url)
    assert status.exit_code == 0 and missing in " ".join(status.stdout.split())
    for command in (("sim", "meikyu", "--players", "2", "--games", "2"), ("play", "meikyu", "--players", "2")):
        refused = run(*command, "--db", db_url, input="quit\n")
        assert refused.exit_code == 1 and f"lacks {missing} the rules need" in refused.stderr
    assumed = "84 values and 17 whole cards"
    report = run("sim", "meikyu", "--players", "2", "--games", "2", "--assume", "default", "--db", db_url)
    assert f"ASSUMED VALUES: {assumed} come from" in report.stdout
    played = run(
        "play", "meikyu", "--players", "2", "--assume", "default", "--db", db_url, "--no-record", input="quit\n"
    )
    assert f"Note: {assumed} assumed" in played.stdout
    note = MeikyuRules(shipped_pool("default"), players=2).report_notes()[0]  # replay and records say it so
    assert note.startswith(f"ASSUMED VALUES: {assumed} come from")
    data = json.loads(
        run("sim", "meikyu", "--players", "2", "--games", "2", "--assume", "default", "--json", "--db", db_url).stdout
    )
    assert data["meikyu"]["assumed"]["count"] == data["rules"]["pool"]["assumed"] == {"values": 84, "whole_cards": 17}
