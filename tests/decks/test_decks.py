"""Deck files, share codes, validation by format, stats and house formats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.decks.diff import deck_diff, diff_lines
from cardbase.decks.files import decode, encode, parse_json, write_deck
from cardbase.decks.model import Deck, DeckCard
from cardbase.decks.service import catalog_index, resolve_file, resolve_text, validate_resolved
from cardbase.decks.stats import HEADLINE, deck_stats, stats_lines
from cardbase.decks.text import parse_text
from cardbase.errors import UnreadableInput, UsageError
from tests.conftest import REPO

EXAMPLES = REPO / "examples" / "decks"
HOUSE = REPO / "examples" / "formats" / "house.toml"


def validate_text(database, text: str, fmt: str | None = None, formats: Path | None = None):
    from cardbase.decks.service import load_house

    resolved = resolve_text(database, parse_text(text, "t.txt"))
    report, _ = validate_resolved(resolved, fmt, load_house(formats, database))
    return report


def codes(report) -> list[str]:
    return [p.code for p in report.problems if p.severity == "error"]


@pytest.mark.parametrize("name", ["mea-goblin-rush.txt", "mea-tile-control.txt", "meio-3-players.txt", "meio-hand.txt"])
def test_example_decks_are_valid(database, name: str) -> None:
    report, _ = validate_resolved(resolve_file(database, EXAMPLES / name))
    assert report.valid, report.problems


def test_broken_example_reports_every_problem_at_once(database) -> None:
    report, _ = validate_resolved(resolve_file(database, EXAMPLES / "mea-broken.txt"))
    assert codes(report) == ["unknown-card", "wrong-game", "bad-count", "card-type", "deck-size"]
    assert [p.line for p in report.problems][:4] == [5, 6, 7, 8]


def test_comments_and_a_hash_in_a_deck_name(database) -> None:
    text = parse_text("# a comment\nname: Goblins #2\ngame: mea\n3 Crumb Goblin # the cheap one\n")
    assert text.problems == [] and text.name == "Goblins #2"
    assert [(e.count, e.name) for e in text.lines] == [(3, "Crumb Goblin")]


def test_names_match_case_and_accent_insensitively_and_aliases_resolve(database) -> None:
    resolved = resolve_text(database, parse_text("game: meikyu\n2 grimor\n1 COCK\n3x cave of the dragon\n"))
    assert [(c.name, c.count) for c in resolved.deck.cards] == [("Grimoire", 2), ("Cook", 1), ("Cave of the Dragon", 3)]
    typed = "game: Méa\n2 Creme Golem\n1 JALAPENO IMP\n1 naive squire\n1 CHÂTEAU toad\n"
    mea = resolve_text(database, parse_text(typed))
    assert mea.game == "mea"
    assert [c.name for c in mea.deck.cards] == ["Crème Golem", "Jalapeño Imp", "Naïve Squire", "Château Toad"]
    report, _ = validate_resolved(resolve_text(database, parse_text("game: mea\n2 jalapeno\n")))
    assert ("unknown-card", "did you mean 'Jalapeño Imp'?") in [(p.code, p.hint) for p in report.problems]


def test_game_is_inferred_when_the_file_has_no_header(database) -> None:
    assert resolve_text(database, parse_text("3 Crumb Goblin\n2 Pep Talk\n")).game == "mea"
    assert resolve_text(database, parse_text("AH\n7S\n")).game == "meio"


def test_mea_has_no_copy_limit_but_a_house_format_can_add_one(database) -> None:
    deck = "game: mea\n20 Crumb Goblin\n"
    assert validate_text(database, deck).valid
    report = validate_text(database, deck, "highlander", HOUSE)
    assert codes(report) == ["copy-limit"]
    assert "remove 19 copies" in report.problems[0].hint


def test_house_format_bans(database) -> None:
    report = validate_text(
        database, "game: mea\n17 Crumb Goblin\n1 The Unreasonably Large Duck\n", "no-big-ducks", HOUSE
    )
    assert codes(report) == ["copy-limit", "banned"]  # in line order


def test_unknown_stats_are_a_warning_not_an_error(database) -> None:
    report = validate_text(database, "game: mea\n17 Crumb Goblin\n1 Selounticia\n")
    assert report.valid
    assert [p.code for p in report.problems] == ["unknown-stats"]
    assert "cardbase catalog edit" in report.problems[0].hint and "cardbase catalog import" in report.problems[0].hint


def test_a_meikyu_shortfall_the_catalog_cannot_fill_says_what_is_missing(database, tmp_path: Path) -> None:
    """The rulebook names 16 of the 32 lands: "add 16" cannot be done from the catalog, so the problem
    says what is missing and where the cards come from (the README's `cardbase catalog import`)."""
    text = (EXAMPLES / "meikyu-rulebook-cards.txt").read_text(encoding="utf-8")
    problems = validate_text(database, text).problems
    lands = next(p for p in problems if "land cards" in p.message)
    assert "16 land cards; standard needs 32" in lands.message
    assert lands.hint == "add 16, but the catalog has only 16 land cards (copies unknown)"
    (short,) = [p for p in problems if p.code == "catalog-short"]  # said once, with where the cards come from
    assert "land" in short.message and "cardbase catalog import FILE --game meikyu" in short.hint
    gotcha = text.replace("4 Gotcha!", "3 Gotcha!")  # the catalog has all 4: a plain "add 1"
    aggression = next(p for p in validate_text(database, gotcha).problems if "aggression" in p.message)
    assert aggression.hint == "add 1"
    csv = tmp_path / "lands.csv"  # an owner's own 16 lands: then the catalog can fill it
    rows = ["name,type,level,points,developed_points"] + [f"House Land {i},land,{4 + i % 6},1,2" for i in range(16)]
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    from cardbase.db.io import import_catalog

    import_catalog(database, csv, "meikyu")
    problems = validate_text(database, text).problems
    lands = next(p for p in problems if "land cards" in p.message)
    assert lands.hint == "add 16"
    assert "land" not in next(p for p in problems if p.code == "catalog-short").message


def test_meikyu_full_set_composition(database, tmp_path: Path) -> None:
    # The rulebook names 16 of 32 lands: import 16 more (a user's own values) and make a full set.
    csv = tmp_path / "lands.csv"
    rows = ["name,type,level,points,developed_points"] + [f"House Land {i},land,{4 + i % 6},1,2" for i in range(16)]
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    from cardbase.db.io import import_catalog

    import_catalog(database, csv, "meikyu")
    lands = [f"1 House Land {i}" for i in range(16)]
    named = [
        "1 Den of the Geister",
        "1 Nest of the Ogrekin",
        "1 Room of the Money Eater",
        "1 Workshop of the Dwarves",
        "1 Stage of the Airt Piper",
        "1 Tunnel of the Valaraukar",
        "1 Altar of the Nightingale",
        "1 Forest of the Manitou",
        "1 Storehouse of the Demonic Steel",
        "1 Mansion of the Lamia",
        "1 Dojo of the Rust Samurai",
        "1 Graveyard of the Vampire",
        "1 Spring of the Mayonnaise King",
        "1 Archives of the Dungeon Geek",
        "1 Castle of the Tyrant",
        "1 Cave of the Dragon",
    ]
    kingdom = [
        "28 Cook",
        "14 Bee",
        "6 Grimoire",
        "6 Amulet",
        "3 Sword",
        "3 Map",
        "4 Gotcha!",
        "2 Refugee",
        "1 Dungeon Storm",
        "1 Dungeon Tsunami",
    ]
    text = "game: meikyu\n" + "\n".join(lands + named + kingdom) + "\n"
    assert codes(validate_text(database, text)) == []
    short = text.replace("28 Cook", "27 Cook")
    report = validate_text(database, short)
    assert codes(report) == ["deck-size", "composition"]
    assert "41 character cards; standard needs 42" in report.problems[1].message


def test_meio_hand_split(database) -> None:
    good = (EXAMPLES / "meio-hand.txt").read_text(encoding="utf-8")
    assert validate_text(database, good).valid
    moved = good.replace("[second half]\n6H", "6H\n[second half]")
    report = validate_text(database, moved)
    assert codes(report) == ["split", "split"]
    assert report.problems[0].message == "[first half] has 8 cards; it needs 7"


def test_text_round_trip_of_examples(database) -> None:
    for path in EXAMPLES.glob("*.txt"):
        if "broken" in path.name:
            continue
        deck = resolve_file(database, path).deck
        again = resolve_text(database, parse_text(write_deck(deck, "text"))).deck
        assert again == deck, path.name
        from_json = resolve_text(database, parse_json(write_deck(deck, "json"), "x.json")).deck
        assert from_json == deck, path.name
        assert write_deck(from_json, "json") == write_deck(deck, "json")


# --- properties: any deck survives text, JSON and share code --------------------------------


@pytest.fixture
def index(database):
    return catalog_index(database)


def _decks(index) -> st.SearchStrategy[Deck]:
    by_game: dict[str, list] = {}
    for card in index.by_id.values():
        by_game.setdefault(card.game, []).append(card)
    games = sorted(by_game)

    @st.composite
    def deck(draw) -> Deck:
        game = draw(st.sampled_from(games))
        cards = draw(st.lists(st.sampled_from(sorted(by_game[game], key=lambda c: c.id)), max_size=12, unique=True))
        sections = [None, "first half", "second half"] if game == "meio" else [None]
        entries = tuple(
            DeckCard(c.id, c.name, draw(st.integers(1, 999)), draw(st.sampled_from(sections))) for c in cards
        )
        name = draw(
            st.none()
            | st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=30)
            .map(str.strip)
            .filter(bool)
        )
        fmt = draw(st.none() | st.sampled_from(["standard", "highlander"]))
        players = draw(st.none() | st.sampled_from([2, 3, 4])) if game == "meio" else None
        return Deck(game, entries, name, fmt, players).canonical()

    return deck()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_deck_round_trips_through_text_json_and_code(database, index, data) -> None:
    deck = data.draw(_decks(index))
    text = parse_text(write_deck(deck, "text"))
    assert text.problems == []
    assert resolve_text(database, text, index=index).deck == deck
    assert resolve_text(database, parse_json(write_deck(deck, "json"), "j"), index=index).deck == deck
    decoded = decode(encode(deck, None), index)
    assert (decoded.game, decoded.format, decoded.players) == (deck.game, deck.format, deck.players)
    assert sorted(decoded.cards, key=repr) == sorted(deck.cards, key=repr)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_the_text_parser_never_crashes_and_keeps_line_numbers(text: str) -> None:
    deck = parse_text(text)
    lines = text.splitlines()
    for entry in deck.lines:
        assert 1 <= entry.line <= len(lines) and 1 <= entry.count <= 999 and entry.name.strip()
    for problem in deck.problems:
        assert problem.line is None or 1 <= problem.line <= len(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", max_size=60))
def test_decoding_junk_is_a_clear_usage_error(index, junk: str) -> None:
    try:
        decode(junk, index)
    except UsageError as error:
        assert str(error)


def test_codes_are_compact(database) -> None:
    deck = resolve_file(database, EXAMPLES / "mea-goblin-rush.txt").deck
    code = encode(deck, None)
    assert len(code) < 180, code  # 14 distinct cards; ids are 53-bit hashes, so ~7-9 bytes each
    assert sorted(decode(code, catalog_index(database)).cards, key=repr) == sorted(deck.cards, key=repr)


def test_bad_codes(index) -> None:
    import base64

    from cardbase.decks.files import _check

    newer = base64.urlsafe_b64encode(b"\x09\x00" + _check(b"\x09\x00")).decode().rstrip("=")
    with pytest.raises(UsageError, match="version 9"):  # a newer cardbase's code: its check matches
        decode(newer, index)
    with pytest.raises(UsageError, match="damaged"):  # a version past ours without its check: damage
        decode("CQ", index)
    deck = Deck("mea", (DeckCard("mea/demo/crumb-goblin", "Crumb Goblin", 3),))
    code = encode(deck, None)
    with pytest.raises(UsageError, match="cut short"):
        decode(code[:-4], index)


# --- stats -------------------------------------------------------------------------------------


def test_mea_stats_against_a_hand_count(database) -> None:
    resolved = resolve_text(
        database, parse_text("game: mea\n3 Crumb Goblin\n2 Bramble Bear\n1 Selounticia\n2 Pep Talk\n")
    )
    stats = deck_stats(resolved, None)
    # Crumb Goblin 1/1/2, Bramble Bear 4/5/4, Selounticia unknown, Pep Talk assist cost 1
    assert stats["by_type"] == {"assist": 2, "monster": 6}
    assert stats["mana_curve"] == {"1": 5, "4": 2, "?": 1}
    # Selounticia's attack and defence are unknown: the averages are unknown too, with what is known beside
    assert stats["average_attack"] == {"average": None, "of_known": round(13 / 5, 2), "known": 5, "unknown": 1}
    assert stats["average_defence"] == {"average": None, "of_known": round(14 / 5, 2), "known": 5, "unknown": 1}
    assert stats["monsters_with_unknown_attack"] == 1
    assert "average attack: unknown (2.6 over the 5 known, 1 unknown)" in stats_lines(stats)


def test_mea_averages_are_numbers_only_when_every_value_is_known(database) -> None:
    known = deck_stats(resolve_text(database, parse_text("game: mea\n3 Crumb Goblin\n2 Bramble Bear\n")), None)
    assert known["average_attack"] == {"average": 2.6, "of_known": 2.6, "known": 5, "unknown": 0}
    assert "average attack: 2.6" in stats_lines(known)
    unknown = deck_stats(resolve_text(database, parse_text("game: mea\n1 Selounticia\n")), None)
    assert "average attack: unknown (1 unknown)" in stats_lines(unknown)
    assists = deck_stats(resolve_text(database, parse_text("game: mea\n2 Pep Talk\n")), None)
    assert "average attack: — (no monsters)" in stats_lines(assists)  # not unknown: nothing to average
    a = resolve_text(database, parse_text("game: mea\n3 Crumb Goblin\n2 Bramble Bear\n"))
    b = resolve_text(database, parse_text("game: mea\n3 Crumb Goblin\n2 Bramble Bear\n1 Selounticia\n"))
    moved = "\n".join(diff_lines(deck_diff(a, b)))
    assert "average attack: 2.6 → unknown (2.6 over the 5 known, 1 unknown)" in moved


def test_a_diff_lists_a_statistics_buckets_together_and_in_order(database) -> None:
    """A bucket only the second deck has (cost 3 here) is listed with its statistic's other buckets, in
    order, not after every other statistic that moved (the Edit as text page showed 1, 2, 5, averages, 3)."""
    a = resolve_text(database, parse_text("game: mea\n3 Crumb Goblin\n2 Goblin Surveyor\n"))
    b = resolve_text(database, parse_text("game: mea\n2 Crumb Goblin\n2 Barrel Bandit\n1 Bramble Bear\n"))
    moved = [s["stat"] for s in deck_diff(a, b)["stats"]]
    curve = [k for k in moved if k.startswith("mana_curve.")]
    assert curve == ["mana_curve.1", "mana_curve.3", "mana_curve.4", "mana_curve.5"], moved
    first = moved.index(curve[0])
    assert moved[first : first + len(curve)] == curve, moved  # together


@pytest.mark.parametrize("deck", ["mea-goblin-rush.txt", "meikyu-rulebook-cards.txt", "meio-3-players.txt"])
def test_every_statistic_of_every_game_has_a_players_label(database, deck: str) -> None:
    """Each statistic ``deck diff`` can name (a statistic, or one bucket of it) has a label in words: no key
    (``_``, ``.``) shows through, and no two statistics of a deck share a label."""
    from cardbase.decks.diff import _flat
    from cardbase.decks.stats import stat_label

    resolved = resolve_file(database, EXAMPLES / deck)
    keys = [*_flat(deck_stats(resolved, None)), "mana_curve.?", "suits.?", "ranks.?", "land_levels.?", "by_tag.draw"]
    labels = {key: stat_label(key) for key in keys}
    for key, label in labels.items():
        assert label and "_" not in label and "." not in label, (key, label)
    assert len(set(labels.values())) == len(labels), labels
    assert stat_label("by_type.assist") == "assist cards"
    assert stat_label("mana_curve.3") == "cards of cost 3"


def test_deck_stats_lines_use_the_same_labels_as_the_diff(database) -> None:
    """``deck stats`` (and the builder's stats panel) name a statistic as ``deck diff`` does."""
    from cardbase.decks.stats import stat_label

    data = deck_stats(resolve_text(database, parse_text("game: mea\n1 Selounticia\n2 Pep Talk\n")), None)
    lines = stats_lines(data)
    assert "cards of unknown cost: 1" in lines, lines
    assert [line.split(": ", 1)[0] for line in lines] == [stat_label(k) for k in data if k not in HEADLINE]


def test_meikyu_stats_count_unknowns(database) -> None:
    stats = deck_stats(resolve_text(database, parse_text("game: meikyu\n3 Cook\n2 Bee\n1 Den of the Geister\n")), None)
    assert stats["bravery_total"] == {"total": None, "at_least": 0, "unknown": 5}
    assert stats["characters_with_unknown_bravery"] == 5
    assert stats["land_levels"] == {"4": 1}


def test_meio_stats_spread(database) -> None:
    stats = deck_stats(resolve_file(database, EXAMPLES / "meio-3-players.txt"), None)
    assert stats["suits"] == {"S": 10, "H": 10, "D": 10, "C": 10}
    assert stats["ranks"]["A"] == 4 and "J" not in stats["ranks"]


# --- house formats files ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[formats.x]\ngame = 'mea'\ncopy_limt = 1\n", "format 'x': unknown key 'copy_limt'"),
        ("[formats.x]\ngame = 'chess'\n", "key 'game' must be mea, meio or meikyu"),
        ("[formats.x]\ngame = 'mea'\ncopy_limit = 'one'\n", "key 'copy_limit' must be a whole number"),
        ("[formats.x]\ngame = 'mea'\nbanned = 'Duck'\n", "key 'banned' must be a list of names"),
        ("[formats.x]\ngame = 'mea'\nbase = 'modern'\n", "mea has no standard format 'modern'"),
        ("[formats.x]\ngame = 'mea'\nmin_cards = 30\nmax_cards = 20\n", "min_cards 30 is more than max_cards 20"),
        ("[formats\n", "not valid TOML"),
        ("title = 'no formats'\n", "no [formats.NAME] tables"),
    ],
)
def test_bad_house_formats_are_refused_naming_the_key(database, tmp_path: Path, toml: str, message: str) -> None:
    path = tmp_path / "f.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(UnreadableInput, match=message.replace("(", r"\(").replace("[", r"\[")):
        validate_text(database, "game: mea\n20 Crumb Goblin\n", "x", path)


def test_unknown_format_option_is_bad_usage(database) -> None:
    with pytest.raises(UsageError, match="mea has no format 'vintage'; formats are standard"):
        validate_text(database, "game: mea\n20 Crumb Goblin\n", "vintage")


def test_deck_schema_validates_json_decks(database) -> None:
    import jsonschema

    schema = json.loads((REPO / "schema" / "deck.schema.json").read_text(encoding="utf-8"))
    deck = resolve_file(database, EXAMPLES / "meio-hand.txt").deck
    jsonschema.validate(json.loads(write_deck(deck, "json")), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"game": "mea", "cards": [{"count": 0, "name": "X"}]}, schema)


def test_unknown_values_are_one_short_warning_with_its_cards_listed_apart(database) -> None:
    """The rulebook deck's 31 cards of unknown values: one short sentence with the count; the names are
    the problem's ``cards`` (a page folds them away, ``--json`` lists them), not a sentence's worth of them.
    The catalog's shortfall is short too."""
    text = (EXAMPLES / "meikyu-rulebook-cards.txt").read_text(encoding="utf-8")
    problems = validate_text(database, text).problems
    (unknown,) = [p for p in problems if p.code == "unknown-stats"]
    assert unknown.message == "31 cards with unknown values"
    assert len(unknown.cards) == 31 and unknown.cards == tuple(sorted(unknown.cards)) and "Bee" in unknown.cards
    assert unknown.as_dict()["cards"] == list(unknown.cards)
    (short,) = [p for p in problems if p.code == "catalog-short"]
    assert len(short.message) <= 80, short.message
    assert "land, character, item and open" in short.message
    assert all(p.as_dict()["cards"] == [] for p in problems if p.code != "unknown-stats")


# --- nothing a deck file says is dropped or overridden unseen -------------------------------------


@pytest.mark.parametrize("header", ["author: Ann", "description: Fast and mean", "Author: Ann"])
def test_a_header_a_deck_does_not_keep_is_refused_on_its_line(header: str) -> None:
    """``author:`` and ``description:`` were read and dropped: a deck here keeps neither."""
    deck = parse_text(f"game: mea\n{header}\n3 Crumb Goblin\n", "d.txt")
    assert [(p.code, p.line) for p in deck.problems] == [("not-kept", 2)]
    assert "not kept" in deck.problems[0].message and deck.problems[0].hint.startswith("make it a comment")


def test_a_json_entry_whose_name_is_not_the_card_of_its_id_is_refused(database) -> None:
    """The id won and the name was dropped unseen: a hand-edited entry names two cards at once."""
    data = {"game": "mea", "cards": [{"count": 2, "name": "Pep Talk", "id": "mea/demo/crumb-goblin"}]}
    resolved = resolve_text(database, parse_json(json.dumps(data), "d.json"))
    (problem,) = [p for p in resolved.problems if p.severity == "error"]
    assert problem.code == "name-not-id" and "cards[0]" in problem.message and "'Crumb Goblin'" in problem.message
    same = {"game": "mea", "cards": [{"count": 2, "name": "crumb goblin", "id": "mea/demo/crumb-goblin"}]}
    assert not resolve_text(database, parse_json(json.dumps(same), "d.json")).problems


def test_a_cod_deck_name_past_the_bound_is_refused_not_cut() -> None:
    from cardbase.decks.lists import parse_cod

    long = "G" * 301
    deck = parse_cod(f"<cockatrice_deck>\n<deckname>{long}</deckname>\n</cockatrice_deck>", "d.cod")
    assert [(p.line, "301 characters" in p.message) for p in deck.problems] == [(2, True)]


def test_a_json_entry_whose_set_is_not_its_ids_is_refused(database) -> None:
    entry = {"count": 2, "name": "Crumb Goblin", "set": "mine", "id": "mea/demo/crumb-goblin"}
    data = {"game": "mea", "cards": [entry]}
    resolved = resolve_text(database, parse_json(json.dumps(data), "d.json"))
    (problem,) = [p for p in resolved.problems if p.severity == "error"]
    assert problem.code == "name-not-id" and "cards[0]: the set 'mine' is not the set of the id" in problem.message


def test_a_share_code_naming_a_card_twice_is_refused_not_merged() -> None:
    """encode never writes one: such a code is damaged, and its counts were added up unseen."""
    import base64

    from cardbase.decks.files import read_code

    def code(body: bytes) -> str:
        return base64.urlsafe_b64encode(body).decode().rstrip("=")

    once = bytes([3, 0, 0, 0, 1, 5, 0, 0]) + bytes([0, 0, 0] * 2)  # the card of short id 5, one copy
    assert read_code(code(once)).entries == ((None, 5, 1),)
    twice = bytes([3, 0, 0, 0, 2, 5, 0, 0, 0]) + bytes([0, 0, 0] * 2)  # then a gap of 0: the same card
    with pytest.raises(UsageError, match="names a card twice"):
        read_code(code(twice))
