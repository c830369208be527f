"""What a player's walk through the pages found unlabelled or untidy: a card type with no values (a Méa
tile, a Meikyu item) showed ``tile ·`` in the gallery and its set as its "values"; the deck list showed a
bare number beside each card (``monster · 3``) without saying it is the cost, the level or the rank."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient
from sqlmodel import select

from cardbase.db.engine import Database
from cardbase.db.models import Card
from cardbase.decks.groups import COST, cost_label
from tests.web.test_pages import add, make_deck


def first_card(database: Database, game: str, type_: str, **known: object) -> Card:
    """The first card (by name) of ``game`` and ``type_`` whose fields in ``known`` are not NULL."""
    with database.session() as session:
        query = select(Card).where(Card.game == game, Card.type == type_).order_by(Card.name)
        for field in known:
            query = query.where(getattr(Card, field).is_not(None))
        card = session.exec(query).first()
    assert card is not None, (game, type_)
    return card


def grid_meta(page: str, card_id: str) -> str:
    """The text of the gallery's line under ``card_id``'s picture (its type and values, the demo badge left out)."""
    item = page.split(f'data-card-id="{html.escape(card_id)}"', 1)[1]
    meta = re.search(r'<span class="card-meta">(.*?)</span>\s*(?:<form|<p|</li>)', item, re.S)
    assert meta, item[:800]
    text = re.sub(r"<span class=\"badge demo[^>]*>.*?</span>", "", meta.group(1), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()


def table_values(page: str, card_id: str) -> str:
    row = page.split(f'<tr data-card-id="{html.escape(card_id)}"', 1)[1].split("</tr>", 1)[0]
    cell = re.search(r'<td class="values">(.*?)</td>', row, re.S)
    assert cell, row
    return cell.group(1).strip()


def test_a_card_type_without_values_shows_no_separator_nor_its_set(client: TestClient, database: Database) -> None:
    """``/cards?q=game:mea`` showed ``Blue Tile — tile ·``; a Meikyu Amulet showed ``item · core`` (its set,
    already the table's Set column, as if it were a value). A type with no values shows its type alone, and
    the table's Values cell the "does not apply" mark the footer explains."""
    for game, type_ in (("mea", "tile"), ("meikyu", "item")):
        card = first_card(database, game, type_)
        grid = client.get("/cards", params={"q": f'game:{game} t:{type_} "{card.name}"'})
        assert grid.status_code == 200
        assert grid_meta(grid.text, card.id) == type_
        table = client.get("/cards", params={"q": f'game:{game} t:{type_} "{card.name}"', "view": "table"})
        cell = table_values(table.text, card.id)
        assert 'class="na"' in cell and "—" in cell, cell
        assert card.set_code not in re.sub(r"<[^>]+>", "", cell)


def test_a_card_type_with_values_keeps_them_after_its_type(client: TestClient, database: Database) -> None:
    monster = first_card(database, "mea", "monster", cost=True, attack=True, defence=True)
    page = client.get("/cards", params={"q": f'game:mea "{monster.name}"'}).text
    assert grid_meta(page, monster.id) == f"monster · cost {monster.cost} · {monster.attack}/{monster.defence}"


def entry_line(page: str, card_id: str) -> str:
    """The small line under a deck list entry's name: its type and the game's cost."""
    item = page.split(f'<li data-card-id="{html.escape(card_id)}"', 1)[1]
    line = re.search(r'<span class="muted small">(.*?)</span>\s*<div class="entry-extra', item, re.S)
    assert line, item[:800]
    text = re.sub(r"<span class=\"badge demo[^>]*>.*?</span>", "", line.group(1), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()


def test_the_deck_list_names_the_number_beside_each_card(client: TestClient, database: Database) -> None:
    """The builder's list said ``monster · 3`` (Méa), ``land · 5`` (Meikyu): a number without its name. It
    says ``cost 3``, ``level 5``, ``rank Q`` — each game's word for what the list groups and sorts by."""
    picks = {
        "mea": first_card(database, "mea", "monster", cost=True),
        "meikyu": first_card(database, "meikyu", "land", level=True),
        "meio": first_card(database, "meio", "playing card", rank=True),
    }
    for game, card in picks.items():
        deck = make_deck(client, f"Labels {game}", game, "4" if game == "meio" else "")
        add(client, deck, card.id)
        page = client.get(f"/decks/{deck}")
        assert page.status_code == 200
        field, word, _ = COST[game]
        assert entry_line(page.text, card.id) == f"{card.type} · {word} {cost_label(game, getattr(card, field))}"


def test_an_example_deck_is_named_alike_on_the_play_form_and_in_the_lab(client: TestClient) -> None:
    """The play form offered ``mea-tile-control.txt (example)`` (a file's name) where the lab says
    ``Tile Control (example)``: one deck, two names. Both name it as the lab does."""
    from cardbase.sim.table_setup import example_decks

    form = client.get("/play", params={"game": "mea"}).text
    offered = dict(re.findall(r'<option value="(example:[^"]+)"[^>]*>([^<]*)</option>', form))
    deck = make_deck(client, "Walk lab", "mea")
    lab = client.get(f"/decks/{deck}/lab").text
    in_lab = {k: html.unescape(v).strip() for k, v in re.findall(r'value="(example:[^"]+)"[^>]*> ([^<]+)</label>', lab)}
    assert in_lab and set(in_lab) <= {f"example:{e}" for e in example_decks("mea")}
    for key, label in in_lab.items():
        shown = html.unescape(offered[key]).split(" — ")[0]  # the play form adds "— invalid: …" to a refused one
        assert shown == label, (key, shown, label)
        assert ".txt" not in shown
