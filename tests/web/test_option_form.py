"""Every rules option of every game through the web table's start form: offered (a list of its words,
yes/no, or a field), a value chosen reaching the table's rules and its record, which ``cardbase
replay`` plays again with it. Generated from the engines' declarations, as the CLI's table
(``tests/test_option_surfaces.py``), whose values it takes."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardbase.sim.registry import GAMES, MAX_RULE_TEXT
from tests.hostile.conftest import run_cli
from tests.test_option_surfaces import OPTIONS, values_of
from tests.web.play_helpers import hall, settle

START = {
    "meio": {"game": "meio", "players": "2"},
    "mea": {
        "game": "mea",
        "players": "2",
        "deck0": "example:mea-goblin-rush.txt",
        "deck1": "example:mea-tile-control.txt",
    },
    "meikyu": {"game": "meikyu", "players": "2", "assume": "default"},
}


def form_text(value: Any) -> str:
    """A value as the form sends it."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_start_form_offers_every_option_and_its_words(client: TestClient, game_id: str) -> None:
    """Each option, labelled in words as its refusals say it (``max turns``), its name as ``--rule`` and
    docs/rules/<game>.md spell it in the label's title: a list of its words, yes/no, or a field (with the
    names a text option takes beside it)."""
    from cardbase.games.base import option_words

    page = client.get(f"/play?game={game_id}").text
    missing = []
    for name in GAMES[game_id].rule_defaults():
        kind, _ = GAMES[game_id].rule_defaults()[name]
        label = (
            rf"<label title=\"--rule {name}=…\">{re.escape(option_words(name))}\s*<(select|input) name=\"rule_{name}\""
        )
        if not re.search(label, page):
            missing.append(f"{name} (labelled in words, titled as --rule spells it)")
        select = re.search(rf'<select name="rule_{name}">(.*?)</select>', page, re.S)
        words = GAMES[game_id].rules_class().option_choices.get(name)
        if words or kind is bool:
            offered = re.findall(r'<option value="([^"]+)"', select.group(1)) if select else []
            if offered != (list(words) if words else ["yes", "no"]):
                missing.append(name)
        elif f'<input name="rule_{name}"' not in page:
            missing.append(name)
        else:  # a text option's names (Méa's layouts) are shown beside its field
            field = page[page.index(f'<input name="rule_{name}"') :].split("</label>")[0]
            if not all(w in field for w in GAMES[game_id].rules_class().option_names.get(name, ())):
                missing.append(name)
    assert not missing, f"/play?game={game_id} does not offer {missing}"


@pytest.mark.parametrize(("game_id", "name"), OPTIONS, ids=[f"{g}-{n}" for g, n in OPTIONS])
def test_a_value_chosen_reaches_the_table_and_its_record(
    client: TestClient, game_id: str, name: str, tmp_path: Any
) -> None:
    """Each value posted by the form: the table plays it, its record names it and replays."""
    for value in values_of(game_id, name):
        started = client.post(
            "/play",
            data={**START[game_id], "seat0": "random", "seat1": "random", f"rule_{name}": form_text(value)},
            follow_redirects=False,
        )
        assert started.status_code == 303, started.text[-1500:]
        game = started.headers["location"].rsplit("/", 1)[1]
        assert getattr(hall(client).get(game).table.rules, name) == value
        settle(client, game)
        record = client.get(f"/play/{game}/record")
        assert record.status_code == 200, record.text[-500:]
        assert json.loads(record.text.splitlines()[0])["rules"][name] == value
        path = tmp_path / f"{name}.jsonl"
        path.write_text(record.text, encoding="utf-8")
        replayed = run_cli(["replay", str(path), "--json"])
        assert replayed.exit_code == 0, replayed.output[-1000:]
        assert json.loads(replayed.stdout)[0]["rules"][name] == value


def test_a_rules_value_has_the_clis_bound_on_the_form(client: TestClient) -> None:
    """The form takes a rules value as long as ``--rule NAME=VALUE`` takes it (a Méa layout grid is the
    longest), and refuses a longer one naming the option and the bound."""
    room = MAX_RULE_TEXT - len("layout=")
    page = client.get("/play?game=mea").text
    assert re.search(rf'<input name="rule_layout"[^>]* maxlength="{room}"', page)
    post = {**START["mea"], "seat0": "random", "seat1": "random"}
    bound, page_bound = f"at most {MAX_RULE_TEXT:,} characters", f"over {room:,} characters"  # the field's room
    fits = client.post("/play", data={**post, "rule_layout": "B" * room}, follow_redirects=False)
    assert fits.status_code == 400 and page_bound not in fits.text and "layout" in fits.text  # read as a grid
    cli = run_cli(["sim", "mea", "--games", "1", "--rule", "layout=" + "B" * room])
    assert cli.exit_code == 2 and bound not in cli.output and "layout" in cli.output
    longer = client.post("/play", data={**post, "rule_layout": "B" * (room + 1)}, follow_redirects=False)
    assert longer.status_code == 400 and page_bound in longer.text
    too_long = run_cli(["sim", "mea", "--games", "1", "--rule", "layout=" + "B" * (room + 1)])
    assert too_long.exit_code == 2 and bound in too_long.output
