"""The deck builder's services: the list grouped with subtotals (``decks.groups``), the edit as text
(``decks.bulk``), the goldfish hand (``draws.reports.sample_hand``) and the CLI's faces of them."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app as cli_app
from cardbase.db.engine import Database
from cardbase.db.queries import find_card
from cardbase.decks.bulk import edit_text, read_edit, save_edit
from cardbase.decks.groups import grouped_deck, grouped_lines
from cardbase.decks.service import resolve_stored
from cardbase.decks.store import add_card, load_deck, new_deck
from cardbase.decks.validate import ResolvedDeck
from cardbase.draws.reports import sample_hand
from cardbase.errors import InvalidData, UsageError

runner = CliRunner()


def _deck(database: Database, game: str, cards: dict[str, int], section: dict[str, str] | None = None) -> int:
    deck_id = new_deck(database, f"{game} deck", game)
    with database.session() as session:
        found = {name: find_card(session, name, game) for name in cards}
    for name, count in cards.items():
        add_card(database, deck_id, found[name], count, (section or {}).get(name))
    return deck_id


MEA = {"Crumb Goblin": 3, "Selounticia": 2, "Bramble Bear": 1, "Pep Talk": 2, "Chemical Vial": 1}
"""Selounticia and Chemical Vial: cards of the rulebook whose cost the catalog does not have (unknown)."""


def _copies(resolved: ResolvedDeck, kind: str) -> list[tuple[int | None, int]]:
    return [
        (resolved.cards[c.card_id].cost, c.count) for c in resolved.deck.cards if resolved.cards[c.card_id].type == kind
    ]


def test_a_mea_deck_groups_into_monsters_then_assists_with_subtotals_that_keep_unknown_costs_unknown(
    database: Database,
) -> None:
    resolved = resolve_stored(database, _deck(database, "mea", MEA))
    ((section, groups),) = grouped_deck(resolved, "type", "name")
    assert section is None and [g.label for g in groups] == ["Monsters", "Assists"]
    for group, kind in zip(groups, ("monster", "assist"), strict=True):
        copies = _copies(resolved, kind)
        assert group.count == sum(n for _, n in copies)
        mana = group.subtotals["mana"]
        assert mana["total"] is None, "a group with an unknown cost has no exact total"
        assert mana["at_least"] == sum(cost * n for cost, n in copies if cost is not None)
        assert mana["unknown"] == sum(n for cost, n in copies if cost is None) > 0
        assert "unknown (≥" in group.subtotal_text()
        names = [e["name"] for e in group.entries]
        assert names == sorted(names)
    assert sum(g.count for g in groups) == resolved.deck.size


def test_grouped_by_cost_the_unknown_cost_is_its_own_group_and_sorts_by_count_within(database: Database) -> None:
    resolved = resolve_stored(database, _deck(database, "mea", MEA))
    ((_, groups),) = grouped_deck(resolved, "cost", "count")
    costs = sorted({resolved.cards[c.card_id].cost for c in resolved.deck.cards} - {None})
    assert [g.key for g in groups] == [str(c) for c in costs] + ["?"]
    assert groups[-1].label == "Cost unknown" and {e["name"] for e in groups[-1].entries} == {
        "Selounticia",
        "Chemical Vial",
    }
    for group in groups:
        counts = [e["count"] for e in group.entries]
        assert counts == sorted(counts, reverse=True)
    by_cost = grouped_deck(resolved, "type", "cost")[0][1][0].entries
    known = [e["cost"] for e in by_cost if e["cost"] != "?"]
    assert known == sorted(known, key=int) and by_cost[-1]["cost"] == "?"  # unknown last


def test_meikyu_groups_by_kind_and_meio_by_suit(database: Database) -> None:
    meikyu = resolve_stored(database, _deck(database, "meikyu", {"Cook": 1, "Grimoire": 1, "Gotcha!": 2}))
    assert [g.label for g in grouped_deck(meikyu)[0][1]] == ["Characters", "Items", "Gotcha!"]
    meio = resolve_stored(
        database, _deck(database, "meio", {"Seven of Hearts": 1, "Ace of Spades": 1, "Two of Clubs": 1})
    )
    groups = grouped_deck(meio)[0][1]
    assert [(g.key, g.count) for g in groups] == [("S", 1), ("H", 1), ("C", 1)]
    ranks = grouped_deck(meio, "cost")[0][1]
    assert [g.label for g in ranks] == ["Rank 2", "Rank 7", "Rank A"]  # Meio's ace is high


def test_grouped_by_tag_a_card_is_under_its_entry_tag_else_its_catalog_tag_and_the_groups_add_up(
    database: Database,
) -> None:
    from cardbase.db.tags import replace_card_tags
    from cardbase.decks.store import tag_entries

    with database.transaction() as session:
        replace_card_tags(session, "mea/demo/pep-talk", ["removal", "cheap"])
        replace_card_tags(session, "mea/demo/bramble-bear", ["beef"])
    deck_id = _deck(database, "mea", {"Crumb Goblin": 3, "Bramble Bear": 2, "Pep Talk": 1})
    with database.session() as session:
        bear = find_card(session, "Bramble Bear", "mea")
    tag_entries(database, deck_id, bear, add=["combo piece"])  # the deck's tag comes before the catalog's
    groups = grouped_deck(resolve_stored(database, deck_id), "tag")[0][1]
    assert [(g.label, [e["name"] for e in g.entries]) for g in groups] == [
        ("cheap", ["Pep Talk"]),  # its catalog tags by name: cheap before removal
        ("combo piece", ["Bramble Bear"]),
        ("Untagged", ["Crumb Goblin"]),
    ]
    assert sum(g.count for g in groups) == 6
    shown = runner.invoke(cli_app, ["deck", "show", "mea deck", "--group", "tag", "--db", str(database.engine.url)])
    assert shown.exit_code == 0 and "combo piece — 2 cards" in shown.output, shown.output


def test_every_section_is_grouped_and_a_bad_choice_is_a_usage_error(database: Database) -> None:
    deck_id = _deck(database, "mea", {"Crumb Goblin": 3, "Pep Talk": 1}, {"Pep Talk": "sideboard"})
    resolved = resolve_stored(database, deck_id)
    assert [(s, [g.label for g in gs]) for s, gs in grouped_deck(resolved)] == [
        (None, ["Monsters"]),
        ("sideboard", ["Assists"]),
    ]
    assert grouped_lines(resolved)[:2] == ["Monsters — 3 cards · mana 3", "  3 Crumb Goblin  (1)  demo"]
    with pytest.raises(UsageError, match="group must be one of type, cost"):
        grouped_deck(resolved, "colour")


def test_deck_show_group_prints_the_groups_and_their_json(database: Database) -> None:
    _deck(database, "mea", MEA)
    url = str(database.engine.url)
    shown = runner.invoke(cli_app, ["deck", "show", "db:mea deck", "--group", "type", "--sort", "count", "--db", url])
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[0].startswith("Monsters — 6 cards · mana unknown (≥ 7, 2 unknown)")
    data = runner.invoke(cli_app, ["deck", "show", "db:mea deck", "--group", "cost", "--json", "--db", url])
    groups = json.loads(data.output)["groups"][0]["groups"]
    assert sum(g["count"] for g in groups) == sum(MEA.values())
    bad = runner.invoke(cli_app, ["deck", "show", "db:mea deck", "--sort", "colour", "--db", url])
    assert bad.exit_code == 2 and "'--sort': 'colour' is not one of name, cost, count" in bad.output


# --- edit as text ---------------------------------------------------------------------------------


def test_the_edit_box_holds_every_section_and_reads_back_to_the_same_deck(database: Database) -> None:
    deck_id = _deck(database, "mea", {"Crumb Goblin": 3, "Pep Talk": 1}, {"Pep Talk": "sideboard"})
    text = edit_text(load_deck(database, deck_id))
    assert "[sideboard]" in text and "name:" not in text
    edit = read_edit(database, deck_id, text)
    assert not edit.changes and edit.lines()[1] == "  the same cards"


def test_saving_an_edit_replaces_the_deck_whole_and_shows_the_change_first(database: Database) -> None:
    deck_id = _deck(database, "mea", {"Crumb Goblin": 3, "Pep Talk": 1}, {"Pep Talk": "sideboard"})
    text = "3 Crumb Goblin\n2 Bramble Bear\n[maybe]\n1 Pep Talk\n"
    edit = read_edit(database, deck_id, text)
    assert edit.changes and load_deck(database, deck_id).size == 4  # a check writes nothing
    assert "  +2 Bramble Bear" in edit.lines() and "  -1 Pep Talk [sideboard]" in edit.lines()
    save_edit(database, deck_id, text)
    after = load_deck(database, deck_id)
    assert [(c.name, c.count, c.section) for c in after.cards] == [
        ("Crumb Goblin", 3, None),
        ("Bramble Bear", 2, None),
        ("Pep Talk", 1, "maybe"),
    ]
    assert after.name == "mea deck"


def test_an_edit_is_the_decks_next_version_and_carries_the_entry_tags(database: Database) -> None:
    from cardbase.decks.history import deck_history, load_version
    from cardbase.decks.store import deck_by_id

    deck_id = _deck(database, "mea", {"Crumb Goblin": 3, "Pep Talk": 1})
    before = deck_by_id(database, deck_id).version
    text = edit_text(load_deck(database, deck_id)).replace("Pep Talk (demo)", "Pep Talk (demo)  # tags: removal, cheap")
    edit = read_edit(database, deck_id, text)
    assert edit.changes and "tags of Pep Talk: none → cheap, removal" in edit.lines()  # tags alone are a change
    save_edit(database, deck_id, text, expected=[before])
    after = load_deck(database, deck_id)
    assert {c.name: set(c.tags) for c in after.cards} == {"Crumb Goblin": set(), "Pep Talk": {"removal", "cheap"}}
    _, versions, _ = deck_history(database, deck_id)
    assert versions[0].number == before + 1 == deck_by_id(database, deck_id).version  # one counter
    assert "Pep Talk" in versions[0].change
    assert load_version(database, deck_id, before + 1).entry_tags  # the version holds the tags it saved
    assert edit_text(after).count("# tags: cheap, removal") == 1  # and the box shows them again


def test_a_bad_edit_names_every_bad_line_and_changes_nothing(database: Database) -> None:
    deck_id = _deck(database, "mea", {"Crumb Goblin": 3})
    before = load_deck(database, deck_id)
    text = "3 Crumb Goblin\n2 Crumb Goblim\nthree Pep Talk\n[graveyard]\n1 Pep Talk\n"
    with pytest.raises(InvalidData) as caught:
        save_edit(database, deck_id, text)
    lines = [p.split(":", 1)[0] for p in caught.value.problems]
    assert lines == ["line 2", "line 3", "line 5"], caught.value.problems
    assert "did you mean" in caught.value.problems[0] and "Crumb Goblin" in caught.value.problems[0]
    assert load_deck(database, deck_id) == before
    with pytest.raises(InvalidData, match="line 1: wrong-game"):
        save_edit(database, deck_id, "game: meio\n1 Ace of Spades\n")
    with pytest.raises(InvalidData, match="line 1: unknown-format"):
        save_edit(database, deck_id, "format: frobnitz\n1 Crumb Goblin\n")
    assert load_deck(database, deck_id) == before


# --- the goldfish ---------------------------------------------------------------------------------


def test_the_panels_listing_after_an_edit_keeps_a_burst_at_its_end_whole(database: Database) -> None:
    """The builder's panel lists the newest 10 versions' lines, a burst its 10th version is in whole (as a
    fresh listing reads it); the listing made from the one before an edit (``listed_after``) agrees."""
    from cardbase.decks.history import deck_history, history_lines, listed_after
    from cardbase.decks.store import edit_entry

    deck_id = new_deck(database, "Long burst", "mea")
    with database.session() as s:
        goblin, bat, mole = (find_card(s, n, "mea") for n in ("Crumb Goblin", "Dizzy Bat", "Tile Mole"))
    _, versions, kept = deck_history(database, deck_id, 10)
    for card in [goblin] * 5 + [bat, mole] * 3:
        done = edit_entry(database, deck_id, card, "add", 1)
        assert done.recorded is not None
        after = listed_after(versions, kept, done.recorded, 10)
        assert after is not None
        versions, kept = after
        fresh = deck_history(database, deck_id, 10)[1]
        assert versions == fresh and history_lines(versions) == history_lines(fresh)
    assert history_lines(versions)[-1].change == "+5 Crumb Goblin" and len(versions) == 11


@pytest.mark.parametrize(
    ("game", "cards", "seen"),
    [
        ("mea", {"Crumb Goblin": 4, "Dizzy Bat": 4, "Barrel Bandit": 4, "Bramble Bear": 4, "Pep Talk": 4}, (5, 8)),
        ("meikyu", None, (4, 6)),
    ],
)
def test_a_sample_hand_is_the_cli_sample_and_a_draw_is_the_next_card_of_the_same_shuffle(
    database: Database, game: str, cards: dict[str, int] | None, seen: tuple[int, int]
) -> None:
    if cards is None:  # Meikyu: the Kingdom pile of the rulebook's named cards (OPEN cards redealt)
        url = str(database.engine.url)
        made = runner.invoke(cli_app, ["deck", "import", "examples/decks/meikyu-rulebook-cards.txt", "--db", url])
        assert made.exit_code == 0, made.output
        name = "Named cards only"
    else:
        _deck(database, game, cards)
        name = f"{game} deck"
    resolved = resolve_stored(database, name)
    opening, later = seen
    for seed in (0, 7, 12345):
        first = sample_hand(database, resolved, seed, opening).hands[0]
        more = sample_hand(database, resolved, seed, later).hands[0]
        assert len(first.cards) == opening and len(more.cards) == later
        assert more.cards[:opening] == first.cards
        cli = runner.invoke(
            cli_app,
            [
                "draws",
                f"db:{name}",
                "--sample",
                "1",
                "--seed",
                str(seed),
                "--cards",
                str(later),
                "--json",
                "--db",
                str(database.engine.url),
            ],
        )
        assert cli.exit_code == 0, cli.output
        assert json.loads(cli.stdout)["hands"][0]["cards"] == more.cards


def test_a_meio_deal_of_thirteen_comes_with_the_heuristic_agents_seven_and_six() -> None:
    from itertools import combinations

    from cardbase.draws.reports import meio_split
    from cardbase.games.meio.agents import card_weights, estimate
    from cardbase.games.meio.cards import PlayingCard
    from cardbase.games.meio.masks import mask_of

    labels = ["AS", "9S", "4S", "KH", "7H", "2H", "QD", "10D", "5D", "3D", "JC", "8C", "6C"]
    split = meio_split(labels, None)
    assert split is not None and split.players == 4  # a king is only in the 4-player deck
    assert len(split.first) == 7 and len(split.aside) == 6
    assert sorted(split.first + split.aside) == sorted(labels)
    # the heuristic's aim, scored here on its own: the two packs' estimated tricks as near as any split's
    weights = card_weights(4, True)
    cards = [PlayingCard.parse(label) for label in labels]

    def gap(aside: list[PlayingCard]) -> float:
        kept = [c for c in cards if c not in aside]
        return abs(estimate(mask_of(kept), weights) - estimate(mask_of(aside), weights))

    best = min(gap(list(six)) for six in combinations(cards, 6))
    assert gap([PlayingCard.parse(label) for label in split.aside]) == pytest.approx(best)
    assert meio_split(labels[:12], 4) is None  # not a deal of 13
    assert meio_split([*labels[:12], "AS"], 4) is None  # a card twice
    assert meio_split(labels, 2) is not None and meio_split(labels, 2).players == 2  # type: ignore[union-attr]


def test_draws_sample_of_a_meio_deal_prints_and_writes_its_split() -> None:
    shown = runner.invoke(cli_app, ["draws", "examples/decks/meio-3-players.txt", "--sample", "2", "--seed", "3"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("split as the heuristic agent would (3 players): keep ") == 2
    made = runner.invoke(
        cli_app, ["draws", "examples/decks/meio-3-players.txt", "--sample", "1", "--seed", "3", "--json"]
    )
    hand = json.loads(made.output)["hands"][0]
    assert sorted(hand["split"]["first_seven"] + hand["split"]["set_aside_six"]) == sorted(hand["cards"])
    assert (len(hand["split"]["first_seven"]), hand["split"]["by"]) == (7, "heuristic")
    fewer = runner.invoke(
        cli_app, ["draws", "examples/decks/meio-3-players.txt", "--sample", "1", "--cards", "5", "--json"]
    )
    assert "split" not in json.loads(fewer.output)["hands"][0]  # 5 cards seen is not a deal to split


def test_quick_changes_to_one_card_are_one_history_line_and_each_listing_path_agrees(database: Database) -> None:
    """Moxfield's history: consecutive changes to the same card in one burst are one line ("+5 X"); a
    change to another card, a tag or a pause ends it. The builder's panel (the recorded row put before
    the listing it had) and a fresh listing give the same lines."""
    from cardbase.decks.history import deck_history, history_lines, listed_after
    from cardbase.decks.store import edit_entry, tag_entries

    deck_id = new_deck(database, "Burst", "mea")
    with database.session() as s:
        goblin, bat = find_card(s, "Crumb Goblin", "mea"), find_card(s, "Dizzy Bat", "mea")
    _, versions, kept = deck_history(database, deck_id)
    for card, edit in [(goblin, "add")] * 5 + [(bat, "add"), (goblin, "add"), (goblin, "remove")]:
        done = edit_entry(database, deck_id, card, edit, 1)
        assert done.recorded is not None
        after = listed_after(versions, kept, done.recorded, 10)
        assert after is not None
        versions, kept = after
        assert history_lines(versions) == history_lines(deck_history(database, deck_id)[1])
    shown = [(line.change, line.first, line.number) for line in history_lines(versions)]
    assert shown == [
        ("±0 Crumb Goblin (added and taken out again)", 8, 9),
        ("+1 Dizzy Bat", 7, 7),
        ("+5 Crumb Goblin", 2, 6),
        ("made", 1, 1),
    ]
    tag_entries(database, deck_id, goblin, ["combo"], [])  # not a count: a line of its own
    add_card(database, deck_id, goblin)
    lines = history_lines(deck_history(database, deck_id)[1])
    assert [line.change for line in lines[:3]] == [
        "+1 Crumb Goblin",
        "tags of Crumb Goblin: combo",
        "±0 Crumb Goblin (added and taken out again)",
    ]
    # a listing page whose end falls inside a burst lists it whole, each row knowing what it changed
    _, page, _ = deck_history(database, deck_id, limit=2, offset=4)
    assert [v.number for v in page] == [7, 6, 5, 4, 3, 2] and all(v.entry is not None for v in page)
    assert deck_history(database, deck_id, limit=3, offset=6)[1] == []  # inside the burst: @6's page has it


def test_a_meikyu_deck_list_names_each_stat_as_the_rulebook_and_the_card_do(database: Database) -> None:
    """The rulebook's Bravery and Wits: the subtotals say "bravery" and "wits" as the card's values
    and the deck's statistics do (not "swords" for one of them)."""
    resolved = resolve_stored(database, _deck(database, "meikyu", {"Cook": 2, "Bee": 1}))
    text = "\n".join(grouped_lines(resolved))
    assert "bravery unknown" in text and "wits unknown" in text and "sword" not in text, text
    from cardbase.decks.stats import deck_stats

    assert "bravery_total" in deck_stats(resolved, None) and not any("sword" in k for k in deck_stats(resolved, None))
