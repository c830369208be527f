"""``cardbase lab``: per-card figures against a hand count, reproducibility for any --jobs and on
a Dask LocalCluster, the opening study.

The Dask tests need the optional extra (``uv run --extra dask pytest``; ``.ci/run`` installs every
extra): without it they fail rather than skip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.sim.records import parse_records
from cardbase.sim.registry import derive_seed, game
from cardbase.stats import rate_text, wilson
from tests.conftest import REPO

pytestmark = pytest.mark.xdist_group("pools")  # these start worker processes: one at a time

EXAMPLES = REPO / "examples" / "decks"
RUSH = EXAMPLES / "mea-goblin-rush.txt"
CONTROL = EXAMPLES / "mea-tile-control.txt"
runner = CliRunner()


def lab(db: str, *args: str) -> Any:
    result = runner.invoke(app, ["lab", *args, "--db", db])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def gauntlet(db: str, *args: str) -> Any:
    return lab(db, "gauntlet", str(RUSH), "--field", str(CONTROL), "--json", *args)


def hand_count(lines: list[str], deck_name: str) -> tuple[set[str], set[str], bool]:
    """Replay one record action by action, looking at the hand of ``deck_name``'s seat after every
    action: (every card seen in that hand, the hand after its opening draw, whether it won)."""
    (record,) = parse_records("\n".join(lines))
    rules = game("mea").make_rules(record.rules)
    seat = [d["name"] for d in record.rules["decks"]].index(deck_name)
    state = rules.new_initial_state(record.seed)
    seen: set[str] = set()
    opening: set[str] | None = None
    for line in record.actions:
        if line.player == "chance":
            action = state.sample_chance()
            assert str(action) == line.text
        else:
            action = state.parse_action(line.text)
        mover = state.current_player
        state.apply(action)
        seen |= set(state.hand_names(seat))
        if opening is None and mover == seat and line.text.startswith("draw"):
            opening = set(state.hand_names(seat))
    outcome = state.outcome()
    assert outcome is not None
    return seen, opening or set(), outcome.winners == (seat,)


def test_card_figures_match_a_hand_count_of_the_records(db_url: str) -> None:
    games, seed = 40, 5
    data = gauntlet(db_url, "--games", str(games), "--seed", str(seed), "--jobs", "1")
    # The same games again, with their records: match-up 1 of the gauntlet, both arrangements.
    from cardbase.lab.gauntlet import load_decks
    from cardbase.sim.mea import run_mea_batch

    decks = load_decks(db_url, [RUSH, CONTROL], ("heuristic", "heuristic"), {}, False)
    records: list[list[str]] = []
    run_mea_batch(
        decks,
        ("heuristic", "heuristic"),
        {},
        games,
        derive_seed(seed, "gauntlet", 1),
        on_records=lambda lines: records.append(list(lines)),
    )
    assert len(records) == games
    counted = [hand_count(r, decks[0].deck.name) for r in records]
    assert sum(won for *_, won in counted) == data["matchups"][0]["wins"]
    assert {c["name"] for c in data["cards"]} == {card.name for card, _ in decks[0].deck.cards}
    for card in data["cards"]:
        name = card["name"]
        drawn = [won for seen, _, won in counted if name in seen]
        not_drawn = [won for seen, _, won in counted if name not in seen]
        opening = [won for _, hand, won in counted if name in hand]
        assert card["games_in_hand"] == len(drawn), name
        assert card["games_not_drawn"] == len(not_drawn), name
        assert card["games_in_opening"] == len(opening), name
        for key, wins in (("win_rate_in_hand", drawn), ("win_rate_not_drawn", not_drawn)):
            if wins:
                assert card[key] == pytest.approx(sum(wins) / len(wins)), (name, key)
                assert card[f"{key}_ci"] == pytest.approx(list(wilson(sum(wins), len(wins)))), (name, key)
            else:
                assert card[key] is None
        if drawn and not_drawn:
            iwd = sum(drawn) / len(drawn) - sum(not_drawn) / len(not_drawn)
            assert card["improvement_when_drawn"] == pytest.approx(iwd)
            lo, hi = card["improvement_when_drawn_ci"]
            assert lo <= iwd <= hi
        assert card["too_few_games"] == (len(drawn) < 30 or len(not_drawn) < 30)
    # Some card is in some opening hands and not in others: the count is not trivially all or nothing.
    assert any(0 < c["games_in_opening"] < games for c in data["cards"])


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("matchups", "cards", "overall"):
        assert a[key] == b[key]


def test_gauntlet_is_the_same_for_any_jobs(db_url: str) -> None:
    one = gauntlet(db_url, "--games", "30", "--seed", "9", "--jobs", "1")
    two = gauntlet(db_url, "--games", "30", "--seed", "9", "--jobs", "2")
    _same(one, two)
    assert one["workers"] == 1 and two["workers"] == 2
    assert one["matchups"][0]["games"] == 30
    assert one["version"] and "git_revision" in one
    three = gauntlet(db_url, "--games", "30", "--seed", "10", "--jobs", "2")
    assert three["cards"] != one["cards"]  # the seed does matter


def test_gauntlet_on_a_dask_local_cluster_is_the_same_as_a_local_run(db_url: str) -> None:
    local = gauntlet(db_url, "--games", "30", "--seed", "4", "--jobs", "1")
    dask = gauntlet(db_url, "--games", "30", "--seed", "4", "--jobs", "2", "--dask", "local")
    _same(local, dask)


def test_dask_backend_maps_every_chunk_with_bounded_submission() -> None:
    from cardbase.sim.dask_backend import dask_backend
    from cardbase.sim.runner import run_batch

    rules = game("meio").make_rules({"players": 3})
    local = run_batch("meio", rules, ["heuristic"] * 3, 40, seed=2)
    with dask_backend("local", 2) as backend:
        remote = run_batch("meio", rules, ["heuristic"] * 3, 40, seed=2, backend=backend)
    assert [r.scores for r in remote.results] == [r.scores for r in local.results]
    assert [r.index for r in remote.results] == list(range(40))


def test_two_local_dask_clusters_at_once_take_free_loopback_ports_without_a_warning() -> None:
    import warnings

    from cardbase.sim.dask_backend import dask_backend

    with warnings.catch_warnings(record=True) as seen:  # the second would find Dask's default port taken
        warnings.simplefilter("always")
        with dask_backend("local", 1) as one, dask_backend("local", 1) as two:
            servers = [one.client.scheduler_info(), two.client.scheduler_info()]
    assert not [w for w in seen if "already in use" in str(w.message)], [str(w.message) for w in seen]
    assert all(info["address"].startswith("tcp://127.0.0.1:") for info in servers)


def test_opening_forces_the_size_and_reports_each(db_url: str, tmp_path: Path) -> None:
    plot = tmp_path / "opening.png"
    data = lab(
        db_url,
        "opening",
        str(RUSH),
        "--vs",
        str(CONTROL),
        "--games",
        "6",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--json",
        "--plot",
        str(plot),
    )
    assert [s["size"] for s in data["sizes"]] == list(range(1, 11))
    assert all(s["games"] == 6 for s in data["sizes"])
    best = max(data["sizes"], key=lambda s: s["win_rate"])
    assert data["best"]["size"] == best["size"] or best["win_rate"] == next(
        s["win_rate"] for s in data["sizes"] if s["size"] == data["best"]["size"]
    )
    assert plot.stat().st_size > 0
    # The opening really is forced: the deck's opening draw is the size in every game.
    from cardbase.lab.gauntlet import load_decks
    from cardbase.lab.opening import forced
    from cardbase.sim.mea import run_mea_batch

    decks = load_decks(db_url, [RUSH, CONTROL], ("heuristic", "heuristic"), {}, False)
    for size in (1, 4, 10):
        batch = run_mea_batch(decks, (forced("heuristic", size), "heuristic"), {}, 4, 0)
        assert {g.openings[0] for g in batch.games} == {size}
    assert forced("search:samples=4", 3) == "search:samples=4;opening=3"


def test_gauntlet_table_and_plot(db_url: str, tmp_path: Path) -> None:
    plot = tmp_path / "g.svg"
    result = runner.invoke(
        app,
        [
            "lab",
            "gauntlet",
            str(RUSH),
            "--field",
            str(CONTROL),
            "--games",
            "10",
            "--jobs",
            "1",
            "--plot",
            str(plot),
            "--db",
            db_url,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "overall" in result.stdout and "Goblin" in result.stdout
    assert plot.read_text().lstrip().startswith("<?xml")


def test_meikyu_cards_table_and_plot(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardbase.lab.plot as lab_plot
    from cardbase.lab.common import number

    drawn: list[tuple[list[str], list[float], list[float], list[float]]] = []
    bars = lab_plot._bars

    def spy(ax: Any, labels: list[str], values: list[float], lows: list[float], highs: list[float], unit: str) -> None:
        drawn.append((labels, values, lows, highs))
        bars(ax, labels, values, lows, highs, unit)

    monkeypatch.setattr(lab_plot, "_bars", spy)
    plot = tmp_path / "cards.svg"
    args = ["--players", "2", "--assume", "default", "--games", "6", "--seed", "2", "--jobs", "1", "--db", db_url]
    result = runner.invoke(app, ["lab", "cards", *args, "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "Kingdom cards" in result.stdout and f"plot: {plot}" in result.stdout
    assert plot.read_text().lstrip().startswith("<?xml")
    data = lab(db_url, "cards", *args[:-2], "--json")
    # one panel per kind, a point per card with its interval, in the report's order and values
    for (labels, values, lows, highs), rows in zip(drawn, (data["kingdom_cards"], data["lands"]), strict=True):
        assert [label.split(" (")[0] for label in labels] == [c["name"] for c in rows]
        assert [number(v) for v in values] == [c["improvement"] for c in rows]  # NaN: no games, null in JSON
        assert [[number(lo), number(hi)] for lo, hi in zip(lows, highs, strict=True)] == [
            c["improvement_ci"] for c in rows
        ]
        assert any("(assumed)" in label for label in labels)


def _die_once(marker: str, chunk: Any) -> list[Any]:
    """The runner's chunk work, except that the first worker to play chunk 0 dies (its process exits)."""
    import os

    from cardbase.sim.runner import _play_chunk

    if chunk[4] == 0 and not Path(marker).exists():
        Path(marker).write_text("died")
        os._exit(1)
    return _play_chunk(chunk)


def test_dask_reruns_the_chunk_of_a_lost_worker(tmp_path: Path) -> None:
    import functools

    from cardbase.sim.dask_backend import dask_backend
    from cardbase.sim.runner import _play_chunk

    rules = game("meio").make_rules({"players": 3})
    options = rules.to_options()
    chunks = [("meio", options, ("heuristic",) * 3, 7, lo, lo + 5, False) for lo in range(0, 30, 5)]
    marker = tmp_path / "died"
    with dask_backend("local", 2) as backend:
        got = [r for chunk in backend.map(functools.partial(_die_once, str(marker)), iter(chunks)) for r in chunk]
    assert marker.read_text() == "died"  # a worker did die mid-run
    want = [r for chunk in chunks for r in _play_chunk(chunk)]
    assert sorted(got, key=lambda r: r.index) == want


def test_split_advisor_scores_every_split_and_is_reproducible(tmp_path: Path) -> None:
    hand = str(EXAMPLES / "meio-hand.txt")
    # A level budget (within a time budget it never reaches) makes the result the seed's alone.
    args = ["lab", "split", hand, "--players", "3", "--levels", "1", "--seconds", "600", "--json", "--top", "4"]
    runs = []
    for seed in ("1", "1", "2"):
        result = runner.invoke(app, [*args, "--seed", seed])
        assert result.exit_code == 0, result.output
        runs.append(json.loads(result.stdout))
    a, b, c = runs
    # every split on 2 deals, then the 4 shown checked on 2 fresh deals each
    assert a["candidates"] == 1716 and a["levels"] == 1 and a["rounds_played"] == 1716 * 2 + 4 * 2
    assert a["stopped_by"] == "levels" and not a["complete"]
    assert a["top"] == b["top"]
    assert a["top"] != c["top"]
    means = [s["expected_round_score"] for s in a["top"]]
    assert means == sorted(means)
    for s in a["top"]:
        assert len(s["keep"]) == 7 and len(s["aside"]) == 6
        assert sorted(s["keep"] + s["aside"]) == sorted(a["hand"])
        assert s["deals"] == 2 and 0 <= s["ci"][0] <= s["expected_round_score"] <= s["ci"][1] <= 13
    table = runner.invoke(app, [*args[:-3], "--top", "4", "--seed", "1"])
    assert table.exit_code == 0 and "1 halving level (stopped at --levels 1)" in table.output


def test_split_advisor_stops_at_the_time_budget_after_level_zero() -> None:
    from cardbase.games.meio.masks import mask_of
    from cardbase.lab.split import advise, read_hand

    rules = game("meio").make_rules({"players": 3})
    hand = mask_of(read_hand(EXAMPLES / "meio-hand.txt"))
    # The smallest budget ends before level 0 does, but level 0 always completes: every split scored.
    advice = advise(rules, hand, 0, ["heuristic"] * 3, 0.0, 0, top=3)
    assert advice.stopped_by == "time" and advice.levels == 1 and advice.rounds_played == 1716 * 2 + 3 * 2
    assert all(s.deals == 2 for s in advice.top)


def test_split_advisor_prunes_by_halving_and_scores_the_same_on_any_number_of_processes() -> None:
    from cardbase.games.meio.masks import mask_of
    from cardbase.lab.split import advise, read_hand
    from cardbase.sim.runner import LocalProcesses

    rules = game("meio").make_rules({"players": 3})
    hand = mask_of(read_hand(EXAMPLES / "meio-hand.txt"))
    # Two levels whatever the machine's speed: every split on 2 deals, then the better half on 4.
    one = advise(rules, hand, 0, ["heuristic"] * 3, 600.0, 0, top=3, max_levels=2)
    assert one.levels == 2 and not one.complete and one.workers == 1
    assert one.rounds_played == 1716 * 2 + 858 * 2 + 3 * 4  # and the check: the best 3 on 4 fresh deals
    assert all(s.deals == 4 for s in one.top)
    two = advise(rules, hand, 0, ["heuristic"] * 3, 600.0, 0, top=3, backend=LocalProcesses(2), max_levels=2)
    assert two.workers == 2
    assert two.top == one.top and two.rounds_played == one.rounds_played
    other = advise(rules, hand, 0, ["heuristic"] * 3, 600.0, 1, top=3, max_levels=1)
    assert other.top != advise(rules, hand, 0, ["heuristic"] * 3, 600.0, 0, top=3, max_levels=1).top


def test_meikyu_cards_held_match_a_hand_count_and_the_report(db_url: str) -> None:
    from cardbase.sim.meikyu import prepare
    from cardbase.sim.runner import run_batch

    data = lab(
        db_url,
        "cards",
        "--players",
        "3",
        "--assume",
        "default",
        "--games",
        "12",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--json",
    )
    two = lab(
        db_url,
        "cards",
        "--players",
        "3",
        "--assume",
        "default",
        "--games",
        "12",
        "--seed",
        "3",
        "--jobs",
        "2",
        "--json",
    )
    assert data["kingdom_cards"] == two["kingdom_cards"] and data["lands"] == two["lands"]
    assert data["assumed_values"][0].startswith("ASSUMED VALUES")
    assert any(c["assumed_values"] for c in data["kingdom_cards"])
    rules = prepare(db_url, "default", 3, ["heuristic"] * 3)
    batch = run_batch("meikyu", rules, ["heuristic"] * 3, 12, seed=3, keep_records=True)
    held: list[list[set[str]]] = []
    for r in batch.results:  # replay each record, looking at every hand after every action
        (record,) = parse_records("\n".join(r.record))
        state = rules.new_initial_state(record.seed)
        seen: list[set[str]] = [set() for _ in range(3)]
        decided = False  # a deal returned at the deal check (it held an OPEN card) was never held
        for line in record.actions:
            action = state.sample_chance() if line.player == "chance" else state.parse_action(line.text)
            if line.player == "chance":
                assert str(action) == line.text
            decided |= line.player != "chance"
            state.apply(action)
            for s in range(3):
                if not decided and not state.hand(s):
                    seen[s] = set()
                seen[s] |= set(state.hand(s))
        assert [set(h) for h in dict(r.facts)["held"]] == seen
        held.append(seen)
    for card in data["kingdom_cards"]:
        pairs = [
            (card["name"] in seen[s], s in r.winners)
            for r, seen in zip(batch.results, held, strict=True)
            for s in range(3)
        ]
        with_card = [won for has, won in pairs if has]
        assert card["games_in_hand"] == len(with_card)
        assert card["games_without"] == 36 - len(with_card)
        if with_card:
            assert card["win_rate_in_hand"] == pytest.approx(sum(with_card) / len(with_card))
    for land in data["lands"]:
        count = sum(
            1 for r in batch.results for s in range(3) if any(e[0] == land["name"] for e in dict(r.facts)["lands"][s])
        )
        assert land["games_in_kingdom"] == count


def test_plot_rows_are_in_points_and_an_unknown_figure_has_no_marker() -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from cardbase.lab.plot import _bars

    ax = Figure().subplots()
    _bars(ax, ["Crumb Goblin", "Tile Titan"], [0.067, float("nan")], [0.01, float("nan")], [0.12, 0.5], "points")
    markers = [line for line in ax.lines if line.get_marker() == "o"]  # the others are the caps
    assert len(markers) == 1  # one marker: the unknown figure is not drawn at 0
    assert list(markers[0].get_xdata()) == pytest.approx([6.7]) and list(markers[0].get_ydata()) == [0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Crumb Goblin", "Tile Titan (no figure)"]
    assert ax.get_xlabel() == "points"


def test_split_from_two_deals_is_an_honest_interval_and_says_it_cannot_tell() -> None:
    """Issue 28: two deals gave '0.00 | 0.00–0.00' for all five top splits; a handful of deals of a score that
    runs 0 to 7 leaves most of that range possible, and the advice says no split is clearly best."""
    hand = str(EXAMPLES / "meio-hand.txt")
    args = ["lab", "split", hand, "--players", "3", "--levels", "1", "--seconds", "600", "--top", "4"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    for s in data["top"]:
        low, high = s["ci"]
        assert s["deals"] == 2 and 0 <= low <= s["expected_round_score"] <= high <= 7
        assert high - low >= 2.0  # two deals: never a point, and never a narrow one
    assert not data["clear_best"] and data["tied_with_best"] == 4
    table = runner.invoke(app, args)
    assert "Advice: no clear best among these 4" in table.output and "More deals" in table.output


def test_split_advice_names_the_clear_best_when_its_interval_stands_apart() -> None:
    from cardbase.cli.lab import split_verdict
    from cardbase.games.meio.actions import SplitActions
    from cardbase.games.meio.agents import card_weights, heuristic_splits
    from cardbase.games.meio.masks import indices_of, mask_of
    from cardbase.lab.split import advise, read_hand

    rules = game("meio").make_rules({"players": 3})
    hand = mask_of(read_hand(EXAMPLES / "meio-hand.txt"))
    splits = list(SplitActions(hand))
    weights = card_weights(3, True)
    good = splits.index(heuristic_splits(hand, weights, 1)[0])
    # The six weakest cards set aside: the kept seven take the first-half tricks, the second half few.
    worst = min(range(len(splits)), key=lambda i: sum(weights[c] for c in indices_of(splits[i].aside)))
    advice = advise(rules, hand, 0, ["heuristic"] * 3, 600.0, 3, top=2, candidates=[good, worst], first_deals=48)
    assert advice.clear and advice.tied == 1
    best, other = advice.top
    assert best.high < other.low and best.deals == 48
    assert "clearly the best" in split_verdict(advice)


def _titles_inside(fig: Any) -> list[str]:
    """The titles (and the figure's suptitle) of ``fig`` that do not fit inside the figure, drawn."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    frame = fig.bbox
    texts = [ax.title for ax in fig.axes] + ([fig._suptitle] if fig._suptitle is not None else [])
    texts += [label for ax in fig.axes for label in ax.get_yticklabels()]
    out = []
    for t in texts:
        if not t.get_text():
            continue
        box = t.get_window_extent(renderer)
        if box.x0 < frame.x0 - 0.5 or box.x1 > frame.x1 + 0.5 or box.y1 > frame.y1 + 0.5:
            out.append(t.get_text())
    return out


def test_lab_plots_never_cut_a_title(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: 'lab cards --plot' cut its titles ('(95% Newcom')."""
    from matplotlib.figure import Figure

    drawn: list[Any] = []
    save = Figure.savefig

    def keep(self: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(self)
        return save(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    args = ["--players", "3", "--assume", "default", "--games", "6", "--seed", "2", "--jobs", "1", "--db", db_url]
    result = runner.invoke(app, ["lab", "cards", *args, "--plot", str(tmp_path / "cards.png")])
    assert result.exit_code == 0, result.output
    gauntlet = ["lab", "gauntlet", str(RUSH), "--field", str(CONTROL), "--games", "4", "--jobs", "1", "--db", db_url]
    result = runner.invoke(app, [*gauntlet, "--plot", str(tmp_path / "gauntlet.png")])
    assert result.exit_code == 0, result.output
    assert len(drawn) == 2
    for fig in drawn:
        assert _titles_inside(fig) == []
        assert any("Newcombe)" in ax.title.get_text() for ax in fig.axes)  # the whole title is there


def test_gauntlet_card_table_never_splits_a_number_at_80_columns(db_url: str) -> None:
    """Issue 28: at 80 columns a rate's interval broke across lines ('(1.5%–17.7' then '%)')."""
    args = ["lab", "gauntlet", str(RUSH), "--field", str(CONTROL), "--games", "20", "--seed", "1", "--jobs", "1"]
    result = runner.invoke(app, [*args, "--db", db_url], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    data = json.loads(runner.invoke(app, [*args, "--db", db_url, "--json"]).stdout)
    cells = [cell.strip() for line in lines for cell in line.split("│")]
    for card in data["cards"]:
        rate = card["win_rate_in_hand"]
        if rate is not None:
            shown, interval = rate_text(rate, *card["win_rate_in_hand_ci"])
            assert shown in cells  # each figure whole on its line …
            assert interval in cells  # … its interval too


def test_a_hand_file_for_another_table_than_players_is_refused() -> None:
    """The file's ``players: 3`` was read past when ``--players 4`` was given and its cards fit."""
    from cardbase.errors import InvalidData
    from cardbase.lab.split import read_hand

    with pytest.raises(InvalidData) as error:
        read_hand(EXAMPLES / "meio-hand.txt", 4)
    assert error.value.problems == ["line 3: the file is a hand of a 3-player table, not of 4 (--players)"]
    assert len(read_hand(EXAMPLES / "meio-hand.txt", 3)) == 13


def _false_digits(text: str) -> list[str]:
    """Rates shown with a decimal: a handful of games never has one (its interval is tens of points wide)."""
    import re

    return re.findall(r"[+-]?\d+\.\d+%?", text.split("Note:")[0])


def test_a_few_games_show_rates_without_digits_they_do_not_have(db_url: str) -> None:
    """At 4 games a match-up the gauntlet showed 25.0% (4.6%–69.9%) and an improvement of +11.1: the
    interval says the first digit is all the games know. The tables of `lab gauntlet`, `lab opening`,
    `lab cards` and `sim mea` all go through one formatter (cardbase.stats.rate_text)."""
    common = ["--games", "4", "--seed", "1", "--jobs", "1", "--db", db_url]
    runs = [
        ["lab", "gauntlet", str(RUSH), "--field", str(CONTROL), *common],
        ["sim", "mea", "--deck", str(RUSH), "--vs", str(CONTROL), *common],
        ["lab", "cards", "--players", "3", "--assume", "default", *common],
    ]
    for args in runs:
        result = runner.invoke(app, args, env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        body = "\n".join(line for line in result.stdout.splitlines() if "turns" not in line and " s " not in line)
        assert _false_digits(body) == [], (args[:2], body)


def test_the_first_and_second_seat_rates_say_where_their_intervals_are(db_url: str) -> None:
    """The gauntlet's 1st and 2nd columns (rates of half the games) stood bare (100% from 2 games);
    each now has its interval under it, and the JSON says which intervals they are."""
    from cardbase.cli.common import FIRST_SECOND
    from cardbase.stats import rate_text

    args = ["lab", "gauntlet", str(RUSH), "--field", str(CONTROL), "--games", "4", "--jobs", "1", "--db", db_url]
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert FIRST_SECOND in result.stdout
    data = gauntlet(db_url, "--games", "4", "--jobs", "1")
    rows = [line for line in result.stdout.splitlines() if "│" in line]
    for m in data["matchups"]:  # each half's interval is printed under its rate (the row's second line)
        row = rows.index(next(r for r in rows if r.split("│")[1].strip() == m["opponent"]))
        cells = [c.strip() for c in rows[row].split("│")[-3:-1]], [c.strip() for c in rows[row + 1].split("│")[-3:-1]]
        rate_first, interval_first = rate_text(m["going_first"]["win_rate"], *m["going_first"]["ci"])
        rate_second, interval_second = rate_text(m["going_second"]["win_rate"], *m["going_second"]["ci"])
        assert cells == ([rate_first, rate_second], [interval_first, interval_second]), cells
    assert data["intervals"] == {
        "level": 0.95,
        "rates": "Wilson score",
        "improvement_when_drawn": "Newcombe's hybrid score (method 10)",
    }


def test_sim_meikyu_marks_each_land_whose_points_are_assumed_where_they_show(db_url: str) -> None:
    """`sim meikyu --assume default` listed the assumed values only under its 'Points by land' table,
    whose every row is points from the profile, unmarked; and its endings' shares had no interval.
    The test of a card's values being assumed is one (CardPool.assumes), shared with `lab cards`."""
    args = ["sim", "meikyu", "--players", "3", "--games", "3", "--seed", "1", "--assume", "default", "--db", db_url]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    rows = data["meikyu"]["points_by_land"]
    assert rows and all(row["assumed"] is True for row in rows)
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for row in rows:
        assert f"{row['land']} (assumed)" in result.stdout
    assert "How games ended: a kingdom reached the goal: 3 (100%, 95% Wilson interval 43%–100%)" in result.stdout


def test_every_lab_plot_says_its_games_seed_and_what_was_assumed(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plot travels without the terminal's notes: the gauntlet's and the opening's plots said neither
    how many games nor the seed nor that the decks are demo cards; lab cards' gave no seed. Every lab
    plot now carries one footnote of its run (lab.plot.footnote)."""
    from matplotlib.figure import Figure

    drawn: list[Any] = []
    save = Figure.savefig

    def keep(self: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(self)
        return save(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    common = ["--games", "2", "--seed", "5", "--jobs", "1", "--db", db_url]
    runs = [
        ["lab", "gauntlet", str(RUSH), "--field", str(CONTROL), *common],
        ["lab", "opening", str(RUSH), "--vs", str(CONTROL), *common],
        ["lab", "cards", "--players", "3", "--assume", "default", *common],
    ]
    for k, args in enumerate(runs):
        result = runner.invoke(app, [*args, "--plot", str(tmp_path / f"{k}.png")])
        assert result.exit_code == 0, result.output
        words = " ".join(t.get_text() for t in drawn[k].texts).replace("\n", " ")
        assert "seed 5" in words and "2 games" in words, (args[1], words)
        assert ("demo cards" in words) if args[1] != "cards" else ("assumption profile 'default'" in words), words


def test_a_split_on_two_deals_shows_no_hundredths(db_url: str) -> None:
    """On 2 deals a split's expected score was 0.50 (0.04–4.56): the interval leaves the whole 0–5
    open, so the hundredths are noise. The table goes through the shared formatter; the seed stays."""
    import re

    args = ["lab", "split", str(EXAMPLES / "meio-hand.txt"), "--players", "3", "--levels", "1", "--top", "2"]
    result = runner.invoke(app, [*args, "--jobs", "1", "--seed", "4"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert rows and not any(re.search(r"\d\.\d\d", row) for row in rows), rows
    assert "seed 4" in result.stdout


def test_an_opening_size_not_clearly_best_is_not_called_best(db_url: str) -> None:
    """Four games a size: one size won 1 of 4, the others none, and the report said 'Best: 1 cards'
    (then that its margin's interval includes 0), its JSON 'best' with no word of how sure: a best the
    games cannot tell from the next. Now the JSON's best says whether it is clear (the margin's interval
    above 0), and the words say 'Highest win rate' and no clear best, as lab split says it."""
    args = ["opening", str(RUSH), "--vs", str(CONTROL), "--games", "4", "--seed", "0", "--jobs", "1"]
    data = lab(db_url, *args, "--json")
    best = data["best"]
    low = best["margin_ci"][0]
    assert best["clear"] is (low > 0)
    assert not best["clear"]  # four games a size tell no size apart
    text = runner.invoke(app, ["lab", *args, "--db", db_url])
    assert text.exit_code == 0, text.output
    said = " ".join(text.stdout.split())
    assert "Best:" not in said and "Highest win rate: " in said and "no size is clearly best" in said, said
    assert f"Highest win rate: {best['size']} card{'' if best['size'] == 1 else 's'}, " in said, said


def test_a_deck_met_twice_is_named_once_in_the_demo_note(db_url: str) -> None:
    """A mirror match (a deck against itself), and a deck in several match-ups of one study: the
    rules' demo note names each deck once (it said 'in Goblin Rush, … in Goblin Rush')."""
    from cardbase.lab.gauntlet import load_decks
    from cardbase.sim.mea import make_rules

    rush, control = load_decks(db_url, [RUSH, CONTROL], ("heuristic", "heuristic"), {}, False)
    mirror = make_rules([rush.deck, rush.deck], {}).demo_note()
    assert mirror is not None and mirror.count(rush.label) == 1, mirror
    from cardbase.lab.common import study_notes  # the notes of a study's every deck

    (note,) = [n for n in study_notes([rush, rush, rush, control]) if "demo set" in n]
    assert note.count(rush.label) == 1 and note.count(control.label) == 1, note
