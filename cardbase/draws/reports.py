"""The data of the ``draws`` reports: needs, sample hands, and each game's opening report.

Each function returns a value the CLI formats (a table or JSON) and the web app can render; no
output here. Bad input is a :class:`~cardbase.errors.UsageError` naming the deck file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardbase.draws.exact import Groups, Need
from cardbase.draws.montecarlo import DealEstimate, Estimate
from cardbase.draws.openings import (
    MEA_MAX_OPENING,
    MEIKYU_DEAL,
    MEIO_HAND,
    TABLE_SEEN,
    Answer,
    Draws,
    MeaDraws,
    MeaOpening,
    MeikyuDeal,
    MeikyuDraws,
    MeioHand,
    make_draws,
)
from cardbase.draws.service import Setup
from cardbase.errors import InvalidData, Said, UsageError, counted

if TYPE_CHECKING:
    from cardbase.db.engine import Database

# --- the deck's model and labels ------------------------------------------------------------------


def draw_model(deck: Setup, needs: Sequence[Need], opening: int, players: int | None) -> Draws:
    """The draws of the deck's pile by its game's rules."""
    try:
        return make_draws(deck.game, deck.cards, needs, opening, players or 2)
    except ValueError as error:
        raise UsageError(f"{deck.source}: {error}") from None


def deck_title(deck: Setup) -> str:
    """``Goblin Rush (Méa, 40-card deck)``."""
    from cardbase.games.base import GAME_TITLES, GameId

    title = GAME_TITLES[GameId(deck.game)].split(":")[0]
    pile = "Kingdom pile" if deck.game == "meikyu" else "deck"
    return f"{deck.name} ({title}, {deck.size}-card {pile})"


def seen_rule(deck: Setup, model: Draws, by_turn: int | None) -> str:
    """Which cards a player sees, by the game's rules (for captions and plots)."""
    if deck.game == "mea":
        rule = "Méa: cards seen are the top of the deck"
        if by_turn is not None and isinstance(model, MeaDraws):
            rule += f"; opening {counted(model.opening, 'card')}, then 1 drawn at the end of each turn"
        return rule
    if deck.game == "meikyu" and isinstance(model, MeikyuDraws):
        return (
            f"Meikyu, {counted(model.players, 'player')}: 4 cards dealt (no OPEN card: redealt), then 1 drawn at the "
            f"start "
            "of each turn; exact"
        )
    return "Meio: cards of the 13-card dealt hand"


def card_label(deck: Setup, i: int) -> str:
    """A pile card's name; a Meio card as ``QH``."""
    info = deck.infos[i]
    if deck.game == "meio" and info.rank is not None and info.suit:
        from cardbase.games.meio.cards import RANK_LETTERS

        return f"{RANK_LETTERS.get(info.rank, str(info.rank))}{info.suit}"
    return str(info.name)


# --- needs ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NeedsReport:
    """The exact chances of the needs (one row per cards seen, or per turn), with Monte Carlo checks."""

    answers: list[Answer]
    rows: list[dict[str, Any]]  # the JSON rows, in the order of ``answers``
    single: bool  # one number of cards seen, not a table
    notes: list[str]

    def as_json(self) -> Any:
        return self.rows[0] if self.single else self.rows


def needs_report(
    deck: Setup, model: Draws, cards: int | None, by_turn: int | None, trials: int | None, seed: int
) -> NeedsReport:
    """The chances for ``cards`` seen, for turns 1..``by_turn``, or (neither) the 1..10 table."""
    single = cards is not None or (by_turn is None and deck.game == "meio")
    try:
        if by_turn is not None:
            answers = model.by_turn(by_turn)
        elif single:
            answers = model.answers([cards if cards is not None else model.max_seen])
        else:
            answers = model.answers([n for n in TABLE_SEEN if n <= model.max_seen])
    except ValueError as error:
        raise UsageError(f"{deck.source}: {error}") from None
    notes = []
    if not single and by_turn is None and model.max_seen < TABLE_SEEN[-1]:
        notes.append(
            f"the table stops at {counted(model.max_seen, 'card')}: no more can be seen "
            f"({seen_rule(deck, model, None)})"
        )
    estimates = _monte_carlo(deck, model, [a.seen for a in answers], trials, seed) if trials else {}
    rows = [_row(deck, a, estimates.get(a.seen), seed) for a in answers]
    return NeedsReport(answers, rows, single, notes)


def plot_range(model: Draws, answers: Sequence[Answer]) -> list[Answer]:
    """For a plot of one number of cards seen: the curve from 1 card up to it (at least 10)."""
    top = min(model.max_seen, max(10, answers[0].seen))
    return model.answers(list(range(1, top + 1)))


def _row(deck: Setup, answer: Answer, estimate: list[Estimate] | None, seed: int) -> dict[str, Any]:
    row: dict[str, Any] = {
        "cards_seen": answer.seen,
        "probability": float(answer.joint),
        "method": "exact",
        "needs": deck.need_dicts(answer.each),
    }
    if answer.turn is not None:
        row = {"turn": answer.turn, **row}
    if estimate is not None:
        row["monte_carlo"] = {**estimate[0].as_dict(), "seed": seed}
        for d, e in zip(row["needs"], estimate[1:], strict=True):
            d["monte_carlo"] = e.as_dict()
    return row


def _monte_carlo(deck: Setup, model: Draws, seen: list[int], trials: int, seed: int) -> dict[int, list[Estimate]]:
    from cardbase.draws.montecarlo import simulate, simulate_meikyu

    if isinstance(model, MeikyuDraws):
        kinds = [(c.mask, c.open, c.count) for c in model.cards]
        return simulate_meikyu(kinds, deck.needs, model.players, seen, trials, seed).seen
    groups = Groups.of((c.mask, c.count) for c in model.cards)
    return {n: simulate(groups, deck.needs, n, trials, seed) for n in seen}


# --- sample hands ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SampleHand:
    cards: list[str]
    redeals: int | None = None  # Meikyu: how many times the hand was redealt
    meets_needs: bool | None = None  # None without needs
    ids: tuple[str, ...] = ()  # the catalog id of each card, in the same order
    split: MeioSplit | None = None  # Meio: the 7 + 6 split of a 13-card deal, as the heuristic agent makes it

    def as_dict(self) -> dict[str, Any]:
        item: dict[str, Any] = {"cards": self.cards}
        if self.redeals is not None:
            item["redeals"] = self.redeals
        if self.meets_needs is not None:
            item["meets_needs"] = self.meets_needs
        if self.split is not None:
            item["split"] = self.split.as_dict()
        return item


@dataclass(frozen=True, slots=True)
class MeioSplit:
    """Meio's split of the dealt 13 (rulebook, Phase 1): 7 cards kept in hand for the first half, 6 set
    aside face down for the second, as cardbase's heuristic agent chooses them for ``players`` players
    (its estimate, not a searched answer: ``lab split`` plays the splits out)."""

    first: list[str]  # the 7 kept in hand, in deal order
    aside: list[str]  # the 6 set aside
    players: int

    def as_dict(self) -> dict[str, Any]:
        return {"first_seven": self.first, "set_aside_six": self.aside, "players": self.players, "by": "heuristic"}

    def line(self) -> str:
        return (
            f"split as the heuristic agent would ({counted(self.players, 'player')}): keep {' '.join(self.first)}; "
            f"set aside {' '.join(self.aside)}"
        )


@dataclass(frozen=True, slots=True)
class Samples:
    what: str  # e.g. "Méa opening hands of 5"
    seed: int
    hands: list[SampleHand]

    def as_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "hands": [h.as_dict() for h in self.hands]}


def sample_report(deck: Setup, model: Draws, hands: int, seed: int, cards: int | None) -> Samples:
    """``hands`` seeded sample hands (Meikyu: deals with their redeals; Meio: sorted by suit and rank)."""
    from cardbase.draws.montecarlo import sample_hands, sample_meikyu_deals

    copies = [i for i, c in enumerate(deck.cards) for _ in range(c.count)]
    redeals: list[int | None] = [None] * hands
    try:
        if isinstance(model, MeikyuDraws):
            size = cards if cards is not None else MEIKYU_DEAL
            model.check(size)
            dealt = sample_meikyu_deals(
                copies, [deck.cards[i].open for i in copies], model.players, hands, seed, MEIKYU_DEAL, size
            )
            drawn = [h for h, _ in dealt]
            redeals = [r for _, r in dealt]
            what = f"Meikyu hands, {counted(size, 'card')} seen (seat 1 of {model.players}, OPEN cards redealt)"
        else:
            opening = model.opening if isinstance(model, MeaDraws) else MEIO_HAND
            size = cards if cards is not None else MEIO_HAND if deck.game == "meio" else opening
            model.check(size)
            drawn = sample_hands(copies, size, hands, seed)
            what = {"meio": "Meio deals", "mea": "Méa opening hands"}.get(deck.game, "hands") + f" of {size}"
            if deck.game == "mea" and size > opening:  # the cards past the opening are drawn, a turn at a time
                what = f"Méa hands: the opening {opening}, then {size - opening} drawn"
    except ValueError as error:
        raise UsageError(f"{deck.source}: {error}") from None
    if deck.game == "meio":
        drawn = [sorted(h, key=lambda i: _meio_order(deck.infos[i])) for h in drawn]
    out = [
        SampleHand(
            [card_label(deck, i) for i in hand],
            r,
            _meets(deck, hand) if deck.needs else None,
            tuple(deck.infos[i].id for i in hand),
            meio_split([card_label(deck, i) for i in hand], deck.players) if deck.game == "meio" else None,
        )
        for hand, r in zip(drawn, redeals, strict=True)
    ]
    return Samples(what, seed, out)


def meio_split(labels: list[str], players: int | None) -> MeioSplit | None:
    """The heuristic agent's 7 + 6 split of a Meio deal of 13 distinct playing cards (None for any other
    hand: fewer or more cards, a repeated card, a card that is not a playing card). Without ``players``,
    the table the deal fits: 13 cards for each of 2 to 4 players in the deck's size."""
    from cardbase.games.meio.agents import best_split, card_weights
    from cardbase.games.meio.cards import HAND_SIZE, PlayingCard, min_players
    from cardbase.games.meio.masks import cards_of, mask_of

    if len(labels) != HAND_SIZE:
        return None
    try:
        cards = [PlayingCard.parse(label) for label in labels]
    except ValueError:
        return None
    if len(set(cards)) != HAND_SIZE:
        return None
    if players is None:  # the fewest players whose deck holds every card dealt
        players = max(min_players(c.rank) for c in cards)
    split = best_split(mask_of(cards), card_weights(min(4, max(2, players)), True))
    keep, aside = set(cards_of(split.keep)), set(cards_of(split.aside))
    return MeioSplit(
        [label for label, c in zip(labels, cards, strict=True) if c in keep],
        [label for label, c in zip(labels, cards, strict=True) if c in aside],
        min(4, max(2, players)),
    )


def sample_hand(database: Database, resolved: Any, seed: int, cards: int, opening: int = 5) -> Samples:
    """One seeded hand of ``cards`` cards seen, as ``draws DECK --sample 1 --seed SEED --cards CARDS`` draws
    it: the top of one shuffle (Meikyu: the deal, redeals, then the turns' draws), so the same seed with one
    card more adds the next card of the same shuffle."""
    from cardbase.draws.service import setup

    pile = setup(database, resolved, [], resolved.source)
    return sample_report(pile, draw_model(pile, [], opening, None), 1, seed, cards)


def _meio_order(info: Any) -> tuple[int, int]:
    """A Meio hand's order: by suit, then rank high to low; a card of unknown suit or rank after the known."""
    suit = "SHDC".index(info.suit) if info.suit is not None and info.suit in "SHDC" else 4
    return (suit, 1 if info.rank is None else -(14 if info.rank == 1 else info.rank))


def _meets(deck: Setup, hand: list[int]) -> bool:
    counts = [sum(1 for i in hand if deck.cards[i].mask >> k & 1) for k in range(len(deck.needs))]
    return all(n.holds(c) for n, c in zip(deck.needs, counts, strict=True))


# --- per-game opening reports ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeaReport:
    """Méa: per opening size, the chance that no monster is castable with each first-turn mana."""

    deck: str
    cards: int
    monsters: int
    unknown_cost: int  # monsters of unknown cost, counted as not castable
    castable: dict[int, int]  # mana → monsters castable with it
    mana: list[int]  # first-turn mana of the first player, the second, then any more asked
    seats: list[str]
    openings: list[MeaOpening]

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": "mea",
            "deck": self.deck,
            "cards": self.cards,
            "method": "exact",
            "monsters": self.monsters,
            "monsters_unknown_cost": self.unknown_cost,
            "castable": {str(m): n for m, n in self.castable.items()},
            "first_turn_mana": {s: m for s, m in zip(self.seats, self.mana, strict=False)},
            "openings": [
                {"opening": r.opening, "no_castable_monster": {str(m): float(p) for m, p in r.no_castable.items()}}
                for r in self.openings
            ],
        }


def mea_report(database: Database, deck: Setup, mana: Sequence[int]) -> MeaReport:
    from cardbase.draws.openings import mea_openings
    from cardbase.draws.service import castable_counts

    values = list(mana)
    castable = castable_counts(database, deck, sorted(set(values)))
    rows = mea_openings(deck.size, castable, range(1, MEA_MAX_OPENING + 1))
    pairs = list(zip(deck.cards, deck.infos, strict=True))
    unknown_cost = sum(c.count for c, i in pairs if i.type == "monster" and i.cost is None)
    monsters = sum(c.count for c, i in pairs if i.type == "monster")
    seats = ["first player", "second player"] + [f"mana {m}" for m in values[2:]]
    return MeaReport(deck.name, deck.size, monsters, unknown_cost, castable, values, seats, rows)


@dataclass(frozen=True, slots=True)
class MeikyuReport:
    """Meikyu: the deal with its OPEN-card redeals (exact, and simulated), and the opening hand by type."""

    deck: str
    deal: MeikyuDeal
    simulated: DealEstimate
    runs: int
    seed: int
    no_character: float

    def as_dict(self) -> dict[str, Any]:
        deal, sim = self.deal, self.simulated
        return {
            "game": "meikyu",
            "deck": self.deck,
            "kingdom_cards": deal.kingdom,
            "open_cards": deal.open_cards,
            "players": deal.players,
            "player_dealt_open": {"probability": float(deal.player_redeals), "method": "exact"},
            "deal_needs_redeal": {"probability": float(deal.deal_redeals), "method": "exact"},
            "redeals_per_deal": {
                "mean": sim.redeals_mean,
                "mean_95": list(sim.redeals_95),
                "interval": "95% Student's t (mean ± t·s/√n), never below 0; null: not known",
                "method": "monte carlo",
                "trials": self.runs,
                "seed": self.seed,
                "at_least_one": sim.any_redeal.as_dict(),
            },
            "opening_hand": {
                "method": "exact",
                "by_type": {t: [float(p) for p in pmf] for t, pmf in deal.by_type.items()},
                "no_character": self.no_character,
            },
        }


def meikyu_report(deck: Setup, model: MeikyuDraws, trials: int | None, seed: int) -> MeikyuReport:
    """The deal for ``model.players``; the redeals simulated ``trials`` times (default 20,000)."""
    from cardbase.draws.montecarlo import simulate_meikyu
    from cardbase.draws.openings import meikyu_deal

    types: Counter[str] = Counter()
    for card, info in zip(deck.cards, deck.infos, strict=True):
        if not card.open:
            types[info.type] += card.count
    deal = meikyu_deal(dict(types), model.open_cards, model.players)
    runs = trials or 20_000
    sim = simulate_meikyu(
        [(0, c.open, c.count) for c in model.cards], [], model.players, [MEIKYU_DEAL], runs, seed, MEIKYU_DEAL
    )
    no_character = float(deal.by_type["character"][0]) if "character" in deal.by_type else 1.0
    return MeikyuReport(deck.name, deal, sim, runs, seed, no_character)


@dataclass(frozen=True, slots=True)
class MeioReport:
    """Meio: a dealt hand's hearts, high cards and void suits."""

    deck: str
    cards: int
    players: int | None
    left_aside: int | None
    hand: MeioHand
    high: list[str]  # the high ranks as letters

    @property
    def is_hand(self) -> bool:
        """The file is one hand (13 cards or fewer than a deal needs), not a deck dealt from: a
        deal's chances do not apply; its counts are what it holds."""
        return self.cards <= MEIO_HAND or (self.left_aside is not None and self.left_aside < 0)

    def as_dict(self) -> dict[str, Any]:
        hand = self.hand
        if self.is_hand:
            return {
                "game": "meio",
                "deck": self.deck,
                "cards": self.cards,
                "is_hand": True,
                "why": "the file is one hand, not a deck to deal from: a deal's chances do not apply",
                "hearts": _mode(hand.hearts),
                "high_cards": _mode(hand.high_cards),
                "void_suits": _mode(hand.voids),
                "high_ranks": self.high,
            }
        return {
            "game": "meio",
            "is_hand": False,
            "deck": self.deck,
            "cards": self.cards,
            "players": self.players,
            "left_aside": self.left_aside,
            "hand": hand.hand,
            "method": "exact",
            "hearts": [float(p) for p in hand.hearts],
            "voids": [float(p) for p in hand.voids],
            "high_ranks": self.high,
            "high_cards": [float(p) for p in hand.high_cards],
        }


def _mode(distribution: Any) -> int:
    """The count a distribution is certain of (a hand dealt from itself has one outcome)."""
    return max(range(len(distribution)), key=lambda k: distribution[k])


UNKNOWN_NOT_GUESSED = (
    "a dealt hand's hearts, high cards and void suits need every card's suit and rank, "
    "and an unknown one is not guessed"
)


def meio_report(deck: Setup) -> MeioReport:
    from cardbase.draws.openings import meio_hand
    from cardbase.games.meio.cards import RANK_LETTERS

    unknown = [
        f"{i.name} ({i.set}): unknown {', '.join(f for f in ('suit', 'rank') if getattr(i, f) is None)}"
        for i in deck.infos
        if i.suit is None or i.rank is None
    ]
    if unknown:
        raise InvalidData(
            deck.source,
            [
                *unknown,
                Said(
                    f"{UNKNOWN_NOT_GUESSED}: give them (cardbase catalog edit NAME FIELD=VALUE) or import them "
                    "(cardbase catalog import FILE --game meio)",
                    f"{UNKNOWN_NOT_GUESSED}: give them on each card's Edit page, or import them on the catalog page",
                ),
            ],
            writes=False,
        )
    cards = [(i.suit, i.rank) for c, i in zip(deck.cards, deck.infos, strict=True) for _ in range(c.count)]
    try:
        hand = meio_hand(cards, MEIO_HAND)
    except ValueError as error:
        raise UsageError(f"{deck.source}: {error}") from None
    players = deck.players or {28: 2, 40: 3, 52: 4}.get(deck.size)
    left = deck.size - MEIO_HAND * players if players else None
    high = [RANK_LETTERS.get(r, str(r)) for r in hand.high_ranks]
    return MeioReport(deck.name, deck.size, players, left, hand, high)


def draws_data(
    database: Database,
    deck: Setup,
    model: Draws,
    *,
    cards: int | None = None,
    by_turn: int | None = None,
    mana: Sequence[int] = (5, 5),
    trials: int | None = None,
    seed: int = 0,
    sample: int | None = None,
) -> tuple[Any, list[str]]:
    """The object ``cardbase draws --json`` prints for these options (sample hands, the chances of
    the needs, or with no need the game's opening report), and the notes it writes beside it on
    stderr (unknown values not counted, demo cards, cards left out)."""
    if sample is not None:
        return sample_report(deck, model, sample, seed, cards).as_dict(), list(deck.notes)
    if deck.needs:
        report = needs_report(deck, model, cards, by_turn, trials, seed)
        return report.as_json(), deck.notes + report.notes
    if deck.game == "mea":
        return mea_report(database, deck, mana).as_dict(), list(deck.notes)
    if isinstance(model, MeikyuDraws):
        return meikyu_report(deck, model, trials, seed).as_dict(), list(deck.notes)
    return meio_report(deck).as_dict(), list(deck.notes)
