"""``/replay`` and ``POST /api/replay`` over the ASGI client: the steps of a record as JSON and as
pages, the check ``cardbase replay`` runs, the bounds; and the Meio split advisor for the boards."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app
from cardbase.games.meio.cards import PlayingCard
from cardbase.sim.boards import all_seeing_view, board_view
from cardbase.sim.records import parse_records, replay
from cardbase.web.settings import RECORD_BYTES

GAMES = ("mea", "meio", "meikyu")


def truncated(path: Path, n: int) -> str:
    """The record at ``path`` cut after its ``n``-th action line (the header kept, no outcome)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return "\n".join(lines[: 1 + n]) + "\n"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_api_steps_are_the_engines_states_as_replay_json_counts_them(client, sim_records, game_id, tmp_path):
    path = sim_records[game_id]
    text = path.read_text(encoding="utf-8")
    whole = client.post("/api/replay", content=text.encode(), headers={"Content-Type": "application/x-ndjson"})
    assert whole.status_code == 200, whole.text
    data = whole.json()
    assert data["game"] == game_id and "illegal" not in data and data["finished"]
    assert len(data["steps"]) == data["actions"] + 1
    action_lines = len(text.splitlines()) - 2  # the header and the outcome
    for n in sorted({1, action_lines // 2, action_lines}):
        cut = tmp_path / f"cut-{n}.jsonl"
        cut.write_text(truncated(path, n), encoding="utf-8")
        checked = CliRunner().invoke(cli_app, ["replay", str(cut), "--json"])
        assert checked.exit_code == 0, checked.output
        (report,) = json.loads(checked.stdout)
        (record,) = parse_records(cut.read_text(encoding="utf-8"), str(cut))
        state = replay(record).state
        answer = client.post("/api/replay", content=cut.read_bytes()).json()
        assert answer["actions"] == report["actions"]
        assert answer["outcome"] == report["outcome"]
        assert answer["steps"][-1]["view"] == all_seeing_view(state)
        assert answer["steps"][-1]["view"] == data["steps"][report["actions"]]["view"]
        for seat in range(state.rules.players):
            one = client.post(f"/api/replay?seat={seat}", content=cut.read_bytes()).json()
            assert one["seat"] == seat
            assert one["steps"][-1]["view"] == board_view(game_id, state.observation(seat))


def test_an_illegal_action_is_named_with_its_line_and_reason(client, sim_records):
    lines = sim_records["mea"].read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if '"action": "summon ' in line)
    entry = json.loads(lines[k])
    entry["action"] = entry["action"].rsplit(" ", 1)[0] + " z9"
    lines[k] = json.dumps(entry, ensure_ascii=False)
    body = "\n".join(lines).encode()
    data = client.post("/api/replay", content=body).json()
    assert data["illegal"]["line"] == k + 1 and "there is no tile z9" in data["illegal"]["reason"]
    assert len(data["steps"]) == data["illegal"]["number"]  # steps 0 … the one before it
    page = client.post("/replay", data={"text": body.decode()}, follow_redirects=True)
    assert page.status_code == 200
    assert f"line {k + 1}" in page.text and "there is no tile z9" in page.text


def test_a_record_of_terminal_play_opens_in_replay(client, db_url, tmp_path):
    from tests.mea.test_mea_cli import CONTROL, RUSH

    path = tmp_path / "played.jsonl"
    args = ["play", "mea", "--deck", RUSH, "--vs-deck", CONTROL, "--vs", "random", "--seed", "2"]
    played = CliRunner().invoke(cli_app, [*args, "--record", str(path), "--db", db_url], input="draw 5\nquit\n")
    assert played.exit_code == 0, played.output
    (record,) = parse_records(path.read_text(encoding="utf-8"), str(path))
    state = replay(record).state
    data = client.post("/api/replay?seat=0", content=path.read_bytes()).json()
    assert data["game"] == "mea" and not data["finished"] and "illegal" not in data
    assert data["actions"] == len(record.actions) > 1  # P1's draw 5 and at least P2's opening draw
    assert data["steps"][-1]["view"] == board_view("mea", state.observation(0))
    page = client.post("/replay", files={"file": ("played.jsonl", path.read_bytes())}, follow_redirects=True)
    assert page.status_code == 200 and f"<strong>0</strong> of {data['actions']}" in page.text  # opens at the start
    last = data["steps"][-1]["action"]
    end = client.get(f"{page.url.path}?step={data['actions']}")
    assert f"— {last}" in end.text  # the last step, named with its action


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"not json", 400, "line 1: not JSON"),
        (b'{"record": "cardbase.game", "game": "chess", "rules": {}, "seed": 1}\n', 400, "chess"),
        (b'"play 7H"\n', 400, "starts with a header line"),
        (b"\xc3(\n", 400, "not UTF-8"),
        (b"\xff\xfe\x00", 400, "not valid UTF-16 text"),
    ],
)
def test_a_bad_record_is_one_message(client, body, status, words):
    response = client.post("/api/replay", content=body)
    assert response.status_code == status
    assert words in response.json()["error"]["message"]
    assert "Traceback" not in response.text


def test_records_are_bounded(client):
    response = client.post("/api/replay", content=b"x" * (RECORD_BYTES + 1))
    assert response.status_code == 413
    assert "1,000,000 bytes" in response.json()["error"]["message"]
    assert client.post("/api/replay?seat=12", content=b"").status_code == 400


def test_the_replay_page_counts_one_action_in_the_singular(client, sim_records):
    one = truncated(sim_records["mea"], 1)
    opened = client.post("/replay", files={"file": ("mea.jsonl", one.encode(), "application/x-ndjson")})
    said = " ".join(re.sub(r"<[^>]+>", " ", opened.text).split())
    assert "Every action is legal: 1 action; the record stops before the end of the game." in said
    whole = client.post("/replay", files={"file": ("mea.jsonl", sim_records["mea"].read_bytes(), "text/plain")})
    assert re.search(r"Every action is legal: [\d,]+ actions, to the end of the game", whole.text)


def test_the_replay_page_steps_by_links_and_keeps_the_seat(client, sim_records):
    text = sim_records["meio"].read_text(encoding="utf-8")
    opened = client.post("/replay", files={"file": ("meio.jsonl", text.encode(), "application/x-ndjson")})
    assert opened.status_code == 200 and "Every action is legal" in opened.text
    key = re.search(r'data-key="([0-9a-f]+)"', opened.text).group(1)
    page = client.get(f"/replay/{key}?step=3&seat=1")
    assert page.status_code == 200
    assert "Step <strong>3</strong>" in page.text
    assert 'href="?step=2&amp;seat=1"' in page.text and 'href="?step=4&amp;seat=1"' in page.text
    assert "splits their hand" in client.get(f"/replay/{key}?step=3&seat=0&fragment=1").text  # P2's split, as P1 saw it
    fragment = client.get(f"/replay/{key}?step=3&seat=all&fragment=1").text
    assert fragment.startswith('<div id="step-body"') and "split " in fragment
    turn = client.get(f"/replay/{key}?turn=3&seat=all")
    assert 'data-turn="3"' in turn.text
    assert client.get(f"/replay/{key}?step=1&seat=7").status_code == 400
    gone = client.get("/replay/0123456789abcdef01234567")
    assert gone.status_code == 400 and "open the record again" in gone.text


def test_the_split_advisor_answers_with_intervals_and_a_verdict(client: TestClient):
    from cardbase.games.meio.masks import mask_of
    from cardbase.games.meio.rules import MeioRules
    from cardbase.sim.hints import split_hint
    from cardbase.stats import places, shown

    hand = ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H", "AD", "2D", "3D", "AC", "2C"]
    answer = client.post("/api/meio/split-advice", json={"hand": hand, "rules": {"players": 2}, "seat": 1, "starts": 1})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["verdict"] in ("clear", "too close to call") and len(data["splits"]) == 2
    for split in data["splits"]:
        assert sorted(split["keep"] + split["aside"]) == sorted(hand) and len(split["aside"]) == 6
        low, high = split["ci"]
        assert 0 <= low <= split["estimate"] <= high <= 7
        # the words the page shows: to the digits the interval gives, as the terminal's hint (not toFixed(2))
        value, lo, hi = shown(split["estimate"], low, high, scale=1.0)
        assert split["shown"] == {"estimate": value, "ci": f"{lo}–{hi}"}, split
        assert len(value.partition(".")[2]) == places(low, high, scale=1.0)
    # the same hint as `play meio` gives this seat at the split (the engine's observation of that deal)
    cards = mask_of(PlayingCard.parse(c) for c in hand)
    seen = SimpleNamespace(hand=cards, player=1, start=1)
    same = split_hint(MeioRules(players=2), seen, 0)
    assert data["splits"][0]["action"] == same.best.text
    bad = client.post("/api/meio/split-advice", json={"hand": [*hand[:12], "KH"], "rules": {"players": 2}})
    assert bad.status_code == 400 and "13 cards must be of the 2-player deck" in bad.json()["error"]["message"]
    twice = client.post("/api/meio/split-advice", json={"hand": [*hand[:12], "AS"], "rules": {"players": 2}})
    assert twice.status_code == 400 and "named twice" in twice.json()["error"]["message"]
