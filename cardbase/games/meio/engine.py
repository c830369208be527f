"""Meio's rules engine: deal, split, tricks, scoring, over three rounds.

Implements the engine protocol of :mod:`cardbase.games.base`. Cards are held as
52-bit masks (bit ``13 * suit + rank - 1``, suits in the order S, H, D, C) so
that the fast path, :meth:`MeioState.apply_unchecked`, and
:meth:`MeioState.legal_actions` are a few integer operations and table look-ups.

Actions: :class:`Play` (``play 7H``), :class:`Split` (``split <7 kept> | <6 aside>``)
and the chance action :class:`Deal` (``deal <13 cards> / <13 cards> / …``).

The engine's modules: ``masks`` (cards as small ints and hands as masks), ``actions`` (the actions,
their notation and the lazy list of splits), ``rules`` (the options, the play tables, the scoring),
``observation`` (what a seat sees); this module is the state.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Any

from cardbase.errors import counted, quoted
from cardbase.games.base import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    IllegalAction,
    InvalidPosition,
    Outcome,
    State,
    check_notation,
    check_seat,
    check_steps,
    counts,
    one_hot,
    to_act,
)
from cardbase.games.meio.actions import (
    ASIDE_IDS,
    PLAYS,
    Deal,
    MeioAction,
    Play,
    Split,
    SplitActions,
    _parse_cards,
    parse_action,
)
from cardbase.games.meio.cards import (
    FIRST_HALF,
    HAND_SIZE,
    SECOND_HALF,
    PlayingCard,
)
from cardbase.games.meio.masks import (
    _BIT,
    _CARD_NAMES,
    _DEAL,
    _HEARTS_MASK,
    _OVER,
    _PLAY,
    _SPLIT,
    _SUIT,
    CARDS,
    HEARTS,
    PHASE_NAMES,
    SUIT_MASKS,
    _pretty,
    cards_of,
    held_back,
    indices_of,
)
from cardbase.games.meio.observation import MeioObservation
from cardbase.games.meio.rules import (
    PLAY_IDS,
    MeioRules,
    _aside_ids,
    _deck,
    _tables,
    final_outcome,
    play_ids,
    round_score,
)

# --- state -------------------------------------------------------------------


MeioPlay = tuple[
    Sequence[int], Sequence[int], Sequence[int], Sequence[int], Sequence[int], int, int, Sequence[Sequence[int]]
]
"""What :meth:`MeioState.play_view` returns, in this order (a plain tuple: a named one took twice as
long to build, and a playout takes one per card):

``hands``: per seat, the cards it plays from now (the pack of 7, then the 6 set aside), as masks;
``asides``: per seat, the pack set aside for the second half (none once it is reached);
``horizontal`` and ``vertical``: per seat, the tricks won in the first and in the second half;
``trick``: the cards of the trick on the table, in play order (the leader's first);
``win_key``: the key, in ``trick_keys[led suit]``, of the card winning it (stale between tricks:
read it only when ``trick`` holds cards); ``tricks_done``: the tricks completed this round;
``trick_keys``: per led suit, per card, its key in a trick (the highest wins; -1: it cannot).

The lists are the engine's own, not copies: changed by the next action; never modify them.
Cards are indices and sets of cards masks (:mod:`cardbase.games.meio.masks`)."""


_ALL_CARDS = (1 << 52) - 1


def _check_masks(action: Split | Deal, p: int) -> None:
    """A split's or a deal's hands are masks of the 52 cards' bits: a negative number or a bit past
    the 52nd is no set of cards (its names would be looked up past the deck, and a negative mask's
    bits never end), refused as no Meio action before anything reads them."""
    masks = (action.keep, action.aside) if isinstance(action, Split) else action.hands
    for mask in masks if isinstance(masks, tuple) else ():
        if type(mask) is not int or mask & ~_ALL_CARDS:
            kind = "split" if isinstance(action, Split) else "deal"
            raise IllegalAction(
                f"a {kind}'s cards are a mask of the 52 cards' bits (0 to 2**52 - 1); this one holds other bits",
                "not-an-action",
                p,
            )
    if not isinstance(masks, tuple):
        raise IllegalAction("a deal's hands are a tuple of masks", "not-an-action", p)


class MeioState(State):
    """A Meio game in progress. See :class:`cardbase.games.base.State` for the protocol."""

    __slots__ = (
        "_asides",
        "_dealt",
        "_hands",
        "_horiz",
        "_keys",
        "_leader",
        "_led",
        "_leftover",
        "_log",
        "_n",
        "_phase",
        "_round",
        "_round_scores",
        "_split_mask",
        "_start",
        "_starter_leads",
        "_suit_plays",
        "_totals",
        "_trick",
        "_tricks_done",
        "_vert",
        "_win_key",
        "_winner",
        "current_player",
        "history",
        "rng",
        "rules",
        "seed",
    )

    rules: MeioRules

    def __init__(self, rules: MeioRules, seed: int | None = None):
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.history = []
        n = rules.players
        self._n = n
        self._keys, self._suit_plays = _tables(rules.ace_high)
        self._starter_leads = rules.second_half_leader == "starter"
        self._round = 0
        self._start = rules.first_player
        self._round_scores: list[tuple[int, ...]] = []
        self._totals = [0] * n
        self._reset_round()
        self._phase = _DEAL
        self.current_player = CHANCE

    def _reset_round(self) -> None:
        n = self._n
        self._hands = [0] * n
        self._asides = [0] * n
        self._dealt = [0] * n
        self._leftover = 0
        self._horiz = [0] * n
        self._vert = [0] * n
        self._log: list[tuple[int, tuple[int, ...], int]] = []
        self._trick: list[int] = []
        self._leader = self._start
        self._led = -1
        self._win_key = -1
        self._winner = -1
        self._tricks_done = 0
        self._split_mask = 0

    # -- queries --

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._n

    @property
    def phase(self) -> str:
        """``deal``, ``split``, ``play`` or ``over``."""
        return PHASE_NAMES[self._phase]

    @property
    def round(self) -> int:
        """The round being played, from 0 (equals ``rules.rounds`` once over)."""
        return self._round

    @property
    def starting_player(self) -> int:
        """The seat that starts the current round."""
        return self._start

    @property
    def half(self) -> int:
        """1 while the 7-card packs are played (tricks horizontal), 2 after (vertical)."""
        return 1 if self._tricks_done < FIRST_HALF else 2

    def hand(self, seat: int) -> tuple[PlayingCard, ...]:
        """The cards in seat ``seat``'s hand (hidden from the other seats: see :meth:`observation`)."""
        seat = check_seat(seat, self._n)
        return cards_of(self._hands[seat])

    def aside(self, seat: int) -> tuple[PlayingCard, ...]:
        """The cards seat ``seat`` set aside in the split, for the second half."""
        seat = check_seat(seat, self._n)
        return cards_of(self._asides[seat])

    def leftover(self) -> tuple[PlayingCard, ...]:
        """The cards of the deck dealt to nobody this round."""
        return cards_of(self._leftover)

    def trick(self) -> tuple[tuple[int, PlayingCard], ...]:
        """The trick on the table: (seat, card) in play order."""
        return tuple(((self._leader + i) % self._n, CARDS[c]) for i, c in enumerate(self._trick))

    def tricks(self) -> tuple[tuple[int, tuple[PlayingCard, ...], int], ...]:
        """The tricks completed this round: (leader, cards in play order, winner)."""
        return tuple((ld, tuple(CARDS[c] for c in cs), w) for ld, cs, w in self._log)

    def tricks_won(self) -> tuple[tuple[int, int], ...]:
        """Per seat: (horizontal, vertical) tricks won this round."""
        return tuple(zip(self._horiz, self._vert, strict=True))

    def hand_mask(self, seat: int) -> int:
        """The cards a seat holds as a mask (:meth:`hand` names them)."""
        seat = check_seat(seat, self._n)
        return self._hands[seat]

    def aside_mask(self, seat: int) -> int:
        """The pack a seat set aside, as a mask (:meth:`aside` names it)."""
        seat = check_seat(seat, self._n)
        return self._asides[seat]

    def leftover_mask(self) -> int:
        """The cards dealt to no one this round, as a mask (:meth:`leftover` names them)."""
        return self._leftover

    def play_view(self) -> MeioPlay:
        """The round's hands, packs, tricks won and the trick on the table, as live views, in one
        call (what a playout's choice of card reads): see :data:`MeioPlay` for the order."""
        return (
            self._hands,
            self._asides,
            self._horiz,
            self._vert,
            self._trick,
            self._win_key,
            self._tricks_done,
            self._keys,
        )

    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        """Each finished round's scores, one per seat."""
        return tuple(self._round_scores)

    def totals(self) -> tuple[int, ...]:
        """Each seat's total score over the finished rounds (lower is better)."""
        return tuple(self._totals)

    # -- protocol --

    def legal_actions(self) -> Sequence[MeioAction]:
        p = self.current_player
        if p < 0:
            return ()
        hand = self._hands[p]
        if self._phase == _PLAY:
            sp = self._suit_plays
            if self._trick:
                led = self._led
                m = hand & SUIT_MASKS[led]
                if m:
                    return sp[led][m >> (13 * led)]
            elif not self.rules.hearts_anytime and hand & ~_HEARTS_MASK and not self._hearts_broken():
                hand &= ~_HEARTS_MASK
            return (
                sp[0][hand & 0x1FFF] + sp[1][(hand >> 13) & 0x1FFF] + sp[2][(hand >> 26) & 0x1FFF] + sp[3][hand >> 39]
            )
        return SplitActions(hand)

    def _hearts_broken(self) -> bool:
        played = 0
        for _, cards, _ in self._log:
            for c in cards:
                played |= _BIT[c]
        for c in self._trick:
            played |= _BIT[c]
        return bool(played & _HEARTS_MASK)

    def apply_unchecked(self, action: Any) -> None:
        self.history.append(action)
        if self._phase != _PLAY:
            if self._phase == _SPLIT:
                self._apply_split(action)
            else:
                self._apply_deal(action)
            return
        p = self.current_player
        self._hands[p] ^= _BIT[action]
        trick = self._trick
        if trick:
            k = self._keys[self._led][action]
            if k > self._win_key:
                self._win_key = k
                self._winner = p
            trick.append(action)
            if len(trick) == self._n:
                self._finish_trick()
                return
        else:
            led = _SUIT[action]
            self._led = led
            self._win_key = self._keys[led][action]
            self._winner = p
            self._leader = p
            trick.append(action)
        p += 1
        self.current_player = 0 if p == self._n else p

    def _finish_trick(self) -> None:
        w = self._winner
        self._log.append((self._leader, tuple(self._trick), w))
        self._trick = []
        t = self._tricks_done + 1
        self._tricks_done = t
        if t <= FIRST_HALF:
            self._horiz[w] += 1
            if t == FIRST_HALF:
                self._hands = self._asides
                self._asides = [0] * self._n
                if self._starter_leads:  # (option second_half_leader="starter")
                    w = self._start
        else:
            self._vert[w] += 1
            if t == HAND_SIZE:
                self._end_round()
                return
        self._leader = w
        self.current_player = w

    def _end_round(self) -> None:
        scores = tuple(round_score(h, v) for h, v in zip(self._horiz, self._vert, strict=True))
        self._round_scores.append(scores)
        for i, s in enumerate(scores):
            self._totals[i] += s
        self._round += 1
        if self._round >= self.rules.rounds:
            self._phase = _OVER
            self.current_player = TERMINAL
        else:
            self._start = (self._start + 1) % self._n
            self._phase = _DEAL
            self.current_player = CHANCE

    def _apply_deal(self, deal: Deal) -> None:
        self._reset_round()
        self._hands = list(deal.hands)
        self._dealt = list(deal.hands)
        dealt = 0
        for h in deal.hands:
            dealt |= h
        self._leftover = self.rules.deck_mask & ~dealt
        self._phase = _SPLIT
        self.current_player = self._start

    def _apply_split(self, split: Split) -> None:
        p = self.current_player
        seat = p if split.keep | split.aside == self._hands[p] else self._split_seat(split)
        self._hands[seat] = split.keep
        self._asides[seat] = split.aside
        n = self._n
        done = self._split_mask | 1 << seat
        self._split_mask = done
        if done == (1 << n) - 1:
            self._phase = _PLAY
            self._leader = self._start
            self.current_player = self._start
        elif seat == p:  # the next in turn who has not split (one may have split out of turn)
            q = (p + 1) % n
            while done >> q & 1:
                q = (q + 1) % n
            self.current_player = q

    def _split_seat(self, split: Split) -> int:
        """The seat whose hand ``split`` divides: another player's who has not split yet when its
        cards are exactly that hand (the rulebook sets no order for the split), else the current
        player's (whose checks then say what is wrong with it)."""
        p = self.current_player
        cards = split.keep | split.aside
        if self._phase == _SPLIT and cards != self._hands[p]:
            for seat in range(self._n):
                if seat != p and not self._split_mask >> seat & 1 and cards == self._hands[seat]:
                    return seat
        return p

    def actor(self, action: Any) -> int:
        """The current player, or for a split out of turn the player whose hand it divides."""
        return self._split_seat(action) if isinstance(action, Split) else self.current_player

    def out_of_turn_refusal(self, action: Any) -> IllegalAction:
        """The current player's refusal of a split that another player may make out of turn:
        what it would be if that hand were unknown (a table says this, so that guessing another
        player's 13 cards tells nothing)."""
        try:
            self._check_split(action, self.current_player)
        except IllegalAction as refusal:
            return refusal
        return super().out_of_turn_refusal(action)

    def wrong_player(self, action: Any, seat: int) -> str:
        """In the split, whose split ``action`` is or what is wrong with it as ``seat``'s: any player
        who has not split may split now (the rulebook sets no order), so "it is P1's turn" is no reason."""
        seat = check_seat(seat, self._n)
        if self._phase == _SPLIT:
            if self._split_mask >> seat & 1:
                waiting = ", ".join(f"P{q + 1}" for q in range(self._n) if not self._split_mask >> q & 1)
                return f"P{seat + 1} has already split their hand this round; {waiting} still to split"
            if not isinstance(action, Split):
                return f"P{seat + 1} must first split their hand: keep 7 cards and set 6 aside"
            owner = self.actor(action)
            if owner != seat and action.keep | action.aside == self._hands[owner]:
                return f"{action} divides P{owner + 1}'s hand: it is P{owner + 1}'s to take, not P{seat + 1}'s"
            try:
                self._check_split(action, seat)
            except IllegalAction as refusal:
                return f"P{seat + 1}'s split: {refusal}"
        return super().wrong_player(action, seat)

    def sample_chance(self) -> Deal:
        if self.current_player != CHANCE:
            raise IllegalAction("no cards are to be dealt now", "not-chance")
        deck = list(_deck(self._n)[0])
        self.rng.shuffle(deck)
        hands = []
        for seat in range(self._n):
            m = 0
            for c in deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]:
                m |= _BIT[c]
            hands.append(m)
        return Deal(tuple(hands))

    def check(self, action: Any) -> None:
        p = self.current_player
        if p == TERMINAL:
            raise IllegalAction("the game is over", "game-over")
        if not isinstance(action, Play | Split | Deal):
            raise IllegalAction(f"{quoted(action)} is not a Meio action", "not-an-action", p)
        if not isinstance(action, Play):
            _check_masks(action, p)
        if p == CHANCE:
            if not isinstance(action, Deal):
                raise IllegalAction(
                    f"the cards must be dealt first (deal <hand> / <hand> …), not {action}",
                    "deal-first",
                )
            self._check_deal(action)
            return
        if self._phase == _SPLIT:
            if not isinstance(action, Split):
                raise IllegalAction(
                    f"P{p + 1} must first split their hand: keep 7 cards and set 6 aside (split <7 kept> | <6 aside>)",
                    "split-first",
                    p,
                )
            self._check_split(action, self._split_seat(action))
            return
        if isinstance(action, Split):
            raise IllegalAction(
                f"the split is made before the first trick; P{p + 1} must play a card",
                "split-over",
                p,
            )
        if isinstance(action, Deal):
            raise IllegalAction("cards are dealt only at the start of a round", "deal-at-round-start", p)
        self._check_play(action, p)

    def _check_deal(self, deal: Deal) -> None:
        n = self._n
        if len(deal.hands) != n:
            raise IllegalAction(
                f"a deal gives 13 cards to each of the {counted(n, 'player')}, not {counted(len(deal.hands), 'hand')}",
                "deal-13-each",
            )
        deck = self.rules.deck_mask
        seen = 0
        for seat, h in enumerate(deal.hands):
            outside = h & ~deck
            if outside:
                raise IllegalAction(
                    f"{_pretty(indices_of(outside))} not in the {self.rules.deck_label()}",
                    "deck-for-players",
                )
            if h.bit_count() != HAND_SIZE:
                raise IllegalAction(
                    f"a deal gives 13 cards to each player: P{seat + 1} has {h.bit_count()}",
                    "deal-13-each",
                )
            twice = h & seen
            if twice:
                raise IllegalAction(
                    f"{_pretty(indices_of(twice))} dealt twice (again to P{seat + 1})",
                    "deal-once",
                )
            seen |= h

    def _check_split(self, split: Split, p: int) -> None:
        hand = self._hands[p]
        both = split.keep & split.aside
        if both:
            raise IllegalAction(f"{_pretty(indices_of(both))} both kept and set aside", "split-7-6", p)
        extra = (split.keep | split.aside) & ~hand
        if extra:
            raise IllegalAction(f"you do not hold {_pretty(indices_of(extra))}", "hold-card", p)
        missing = hand & ~(split.keep | split.aside)
        if missing:
            raise IllegalAction(
                f"every card is kept or set aside: {_pretty(indices_of(missing))} missing",
                "split-7-6",
                p,
            )
        k, a = split.keep.bit_count(), split.aside.bit_count()
        if (k, a) != (FIRST_HALF, SECOND_HALF):
            raise IllegalAction(f"keep 7 cards and set 6 aside, not {k} and {a}", "split-7-6", p)

    def _check_play(self, action: Play, p: int) -> None:
        c = int(action)
        bit = _BIT[c]
        hand = self._hands[p]
        name = _CARD_NAMES[c]
        if not bit & self.rules.deck_mask:
            raise IllegalAction(f"{name} is not in the {self.rules.deck_label()}", "deck", p)
        if not bit & hand:
            if bit & self._asides[p]:
                raise IllegalAction(
                    f"{name} is in your pack of 6 set aside; you pick it up after the 7th trick",
                    "play-7-first",
                    p,
                )
            raise IllegalAction(f"you do not hold {name}", "hold-card", p)
        if (_SUIT[c] != self._led) if self._trick else (_SUIT[c] == HEARTS and not self.rules.hearts_anytime):
            led = self._led if self._trick else None
            why = held_back(hand, led, self._hearts_broken(), self.rules.hearts_anytime)
            if why is not None:
                raise IllegalAction(*why, p)

    def outcome(self) -> Outcome | None:
        if self.current_player != TERMINAL:
            return None
        return final_outcome(self.rules, tuple(self._totals), tuple(self._round_scores))

    def clone(self) -> MeioState:
        new = self._copy_round()
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new.history = list(self.history)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the play tables every state of these rules shares (a megabyte: it made
        every pickled state, and OpenSpiel's saved one, that size); ``__setstate__`` looks them up."""
        return {name: getattr(self, name) for name in _PICKLED if hasattr(self, name)}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)
        self._keys, self._suit_plays = _tables(self.rules.ace_high)

    def search_copy(self) -> MeioState:
        """A copy for a search's playout: its own position, the RNG shared with this state, an
        empty history (cheaper than :meth:`clone`; not a record of the game)."""
        new = self._copy_round()
        new.history = []
        return new

    def _copy_round(self) -> MeioState:
        """A copy sharing the RNG and the history list (for search rollouts)."""
        new = object.__new__(MeioState)
        for name in MeioState.__slots__:
            setattr(new, name, getattr(self, name))
        new._hands = list(self._hands)
        new._asides = list(self._asides)
        new._dealt = list(self._dealt)
        new._horiz = list(self._horiz)
        new._vert = list(self._vert)
        new._log = list(self._log)
        new._trick = list(self._trick)
        new._round_scores = list(self._round_scores)
        new._totals = list(self._totals)
        return new

    def observation(self, player: int) -> MeioObservation:
        player = check_seat(player, self._n, spectator=True)
        seated = player != SPECTATOR
        n = self._n
        return MeioObservation(
            rules=self.rules,
            player=player,
            current_player=self.current_player,
            phase=PHASE_NAMES[self._phase],
            round=self._round,
            start=self._start,
            hand=self._hands[player] if seated else 0,
            aside=self._asides[player] if seated else 0,
            dealt=self._dealt[player] if seated else 0,
            split_done=tuple(
                self._phase == _PLAY or (self._phase == _SPLIT and bool(self._split_mask >> i & 1)) for i in range(n)
            ),
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            aside_sizes=tuple(a.bit_count() for a in self._asides),
            leader=self._leader,
            trick=tuple(self._trick),
            tricks=tuple(self._log),
            horizontal=tuple(self._horiz),
            vertical=tuple(self._vert),
            round_scores=tuple(self._round_scores),
            totals=tuple(self._totals),
        )

    def _has_split(self, seat: int) -> bool:
        if self._phase == _PLAY:
            return True
        return self._phase == _SPLIT and bool(self._split_mask >> seat & 1)

    def parse_action(self, text: str, seat: int | None = None) -> MeioAction:
        """Like :func:`parse_action`, and in the split, ``split`` or ``aside``
        followed by just the 6 cards to set aside (the rest of the hand is kept): the hand of
        ``seat`` when given (a player may split before their turn), else the current player's."""
        t = check_notation(text).strip()
        head, _, rest = t.partition(" ")
        p = self.current_player if seat is None else check_seat(seat, self._n)
        if head.lower() in ("split", "aside") and "|" not in rest and p >= 0:
            aside = _parse_cards(rest, head.lower())
            return Split(self._hands[p] & ~aside, aside)
        return parse_action(text)

    def action_text(self, action: Any, viewer: int | None = None) -> str:
        if viewer is not None:
            check_seat(viewer, self._n, spectator=True)
        if isinstance(action, Split) and viewer is not None and viewer != self.actor(action):
            return "splits their hand"
        if isinstance(action, Deal) and viewer is not None:
            return f"round {self._round + 1}: the cards are dealt"
        return str(action)

    def __repr__(self) -> str:
        phase = PHASE_NAMES[self._phase]
        return f"<MeioState {self._n}p round {self._round + 1} {phase} to act: {to_act(self.current_player)}>"

    # -- integer steps and tensors (see cardbase.games.base) --

    def legal_ids(self, prefix: Sequence[int] = ()) -> list[int]:
        check_steps(self, prefix)
        p = self.current_player
        if p < 0:
            return [i for i, _ in self.chance_ids(prefix)] if p == CHANCE else []
        hand = self._hands[p]
        if self._phase == _PLAY:  # legal_actions' cards, their ids read from a table
            if prefix:
                return []  # (a play is one step: none follows another)
            get = PLAY_IDS.get
            if self._trick:
                led = self._led
                m = hand & SUIT_MASKS[led]
                if m:  # (suit << 13 | pattern: the suit's bits shifted down by 13 × suit)
                    key = led << 13 | m >> (13 * led)
                    return list(get(key) or play_ids(key))
            elif not self.rules.hearts_anytime and hand & ~_HEARTS_MASK and not self._hearts_broken():
                hand &= ~_HEARTS_MASK
            out: list[int] = []
            for key in (
                hand & 0x1FFF,
                1 << 13 | (hand >> 13) & 0x1FFF,
                2 << 13 | (hand >> 26) & 0x1FFF,
                3 << 13 | hand >> 39,
            ):
                ids = get(key)
                out.extend(play_ids(key) if ids is None else ids)
            return out
        # The split: the hand's cards after the last set aside, leaving room for the rest.
        more = SECOND_HALF - len(prefix)  # this card and more - 1 after it
        if more <= 0:
            return []
        cards = _aside_ids(hand)
        if prefix:
            cards = cards[bisect_right(cards, prefix[-1]) :]
        return list(cards[: len(cards) - more + 1])

    def chance_ids(self, prefix: Sequence[int] = ()) -> list[tuple[int, float]]:
        # A deal step gives the deck's next card to a seat (n: left aside): a seat's share is
        # the room it has left, counted in C over the steps as bytes.
        check_steps(self, prefix)
        if self.current_player != CHANCE:
            return []
        n = self._n
        size = len(_deck(n)[0])
        count: Callable[[int], int]
        try:  # (the steps are seats, 0 to n: bytes count them in C)
            count = bytes(prefix).count
        except (ValueError, TypeError):
            count = list(prefix).count
        left = size - len(prefix)
        if left <= 0:
            return []  # (the deal is a step per card: none follows the last)
        out = []
        for s in range(n):
            room = HAND_SIZE - count(s)
            if room:
                out.append((s, room / left))
        room = size - HAND_SIZE * n - count(n)
        if room:
            out.append((n, room / left))
        return out

    def action_from_ids(self, ids: Sequence[int]) -> MeioAction | None:
        if not ids:
            return None
        check_steps(self, ids)
        if self.current_player == CHANCE:
            deck = _deck(self._n)[0]
            if len(ids) < len(deck):
                return None
            if len(ids) > len(deck):
                raise IllegalAction(f"a deal is {counted(len(deck), 'step')}, a card each, not {len(ids)}", "steps")
            hands = [0] * self._n
            for c, s in zip(deck, ids, strict=True):
                if s < self._n:
                    hands[s] |= _BIT[c]
            return Deal(tuple(hands))
        if ids[0] < ASIDE_IDS:
            if len(ids) > 1:
                raise IllegalAction(f"a play is one step; no step follows {ids[0]}", "steps", self.current_player)
            return PLAYS[ids[0]]
        if len(ids) < SECOND_HALF:
            return None
        if len(ids) > SECOND_HALF:
            raise IllegalAction(f"a split is {SECOND_HALF} steps, not {len(ids)}", "steps", self.current_player)
        aside = 0
        for step in ids:
            aside |= _BIT[step - ASIDE_IDS]
        return Split(self._hands[self.current_player] ^ aside, aside)

    def action_ids(self, action: Any) -> tuple[int, ...]:
        self.check(action)
        if isinstance(action, Deal):
            n = self._n
            seat_of = [n] * 52
            for s, hand in enumerate(action.hands):
                for c in indices_of(hand):
                    seat_of[c] = s
            return tuple(seat_of[c] for c in _deck(n)[0])
        if isinstance(action, Split):
            return tuple(ASIDE_IDS + c for c in indices_of(action.aside))
        return (int(action),)

    def step_text(self, prefix: Sequence[int], step: int) -> str:
        action = self.action_from_ids((*prefix, step))
        if action is not None:
            return str(action)
        if self.current_player == CHANCE:
            card = CARDS[_deck(self._n)[0][len(prefix)]].notation
            return f"{card} to P{step + 1}" if step < self._n else f"{card} left aside"
        return f"aside {CARDS[step - ASIDE_IDS].notation}"

    def information_state_key(self, seat: int, prefix: Sequence[int] = ()) -> str:
        o = self.observation(check_seat(seat, self._n))
        check_steps(self, prefix)
        return repr(
            (
                o.player,
                o.current_player,
                o.phase,
                o.round,
                o.start,
                o.hand,
                o.aside,
                o.dealt,
                o.split_done,
                o.hand_sizes,
                o.aside_sizes,
                o.leader,
                o.trick,
                o.tricks,
                o.horizontal,
                o.vertical,
                o.round_scores,
                o.totals,
                tuple(prefix) if seat == self.current_player else (),
            )
        )

    def observation_tensor(self, seat: int, prefix: Sequence[int] = ()) -> list[float]:
        check_seat(seat, self._n)
        check_steps(self, prefix)
        n = self._n

        def rel(s: int) -> int:
            return (s - seat) % n

        def cards(mask: int) -> list[float]:
            return counts(indices_of(mask), 52)

        played = [[0.0] * 52 for _ in range(n)]
        trick = [[0.0] * 52 for _ in range(n)]
        for leader, cs, _ in self._log:
            for i, c in enumerate(cs):
                played[rel(leader + i)][c] = 1.0
        for i, c in enumerate(self._trick):
            played[rel(self._leader + i)][c] = 1.0
            trick[rel(self._leader + i)][c] = 1.0
        split_done = [1.0 if self._has_split(s) else 0.0 for s in range(n)]
        setting = 0
        if seat == self.current_player and self._phase == _SPLIT:
            for step in prefix:
                setting |= _BIT[step - ASIDE_IDS]
        out = cards(self._hands[seat]) + cards(self._asides[seat]) + cards(self._dealt[seat]) + cards(setting)
        for row in played + trick:
            out += row
        out += one_hot(4, self._phase)
        out += one_hot(2, self.half - 1)
        cp = self.current_player
        out += one_hot(n, rel(cp) if cp >= 0 else -1)
        out += one_hot(n, rel(self._leader) if self._phase == _PLAY else -1)
        out += one_hot(n, rel(self._start))
        out += [split_done[(seat + r) % n] for r in range(n)]
        out += [self._hands[(seat + r) % n].bit_count() / HAND_SIZE for r in range(n)]
        out += [self._asides[(seat + r) % n].bit_count() / SECOND_HALF for r in range(n)]
        for r in range(n):
            s = (seat + r) % n
            out += [self._horiz[s] / HAND_SIZE, self._vert[s] / HAND_SIZE]
        most = FIRST_HALF * self.rules.rounds
        out += [self._totals[(seat + r) % n] / most for r in range(n)]
        out.append(self._round / self.rules.rounds)
        return out

    def resample_from_infostate(self, seat: int, rng: random.Random) -> MeioState:
        """The search agents' deal (:func:`cardbase.games.meio.agents.sample_hidden`): unseen
        cards placed at random within the sizes and the suits each seat has shown it lacks; a
        split not seen is the heuristic's."""
        from cardbase.games.meio.agents import card_weights, sample_hidden

        obs = self.observation(check_seat(seat, self._n))
        hands, asides, leftover = sample_hidden(obs, rng, card_weights(self._n, self.rules.ace_high))
        return MeioState.from_parts(obs, hands, asides, leftover)

    # -- reconstruction (for search agents that sample hidden cards) --

    @classmethod
    def from_parts(
        cls,
        obs: MeioObservation,
        hands: Sequence[int],
        asides: Sequence[int],
        leftover: int,
    ) -> MeioState:
        """The state that ``obs`` shows, with every hidden card placed as given.

        Only the current round is rebuilt (rounds before it are in ``totals``);
        the RNG is fresh. For determinised search, not for records.

        The hidden cards must be a world of ``obs`` (:class:`InvalidPosition` otherwise): hands and
        packs of their observed sizes, the observer's own as shown, and with the cards played every
        card of the deck once ("For 2 players, use cards A-7 of each suit …").
        """
        if obs.phase in ("split", "play"):
            try:
                _check_parts(obs, hands, asides, leftover)
            except (AttributeError, TypeError):  # no cost to a search's worlds, which are masks
                raise InvalidPosition(
                    "the hands, the packs set aside and the leftover are masks of the 52 cards' bits (whole numbers)",
                    "hidden-cards",
                ) from None
        state = cls(obs.rules, 0)
        state._round = obs.round
        state._start = obs.start
        state._round_scores = list(obs.round_scores)
        state._totals = list(obs.totals)
        state._phase = PHASE_NAMES.index(obs.phase)
        state.current_player = obs.current_player
        state._hands = list(hands)
        state._asides = list(asides)
        state._leftover = leftover
        state._dealt = [0] * state._n
        state._dealt[obs.player] = obs.dealt
        state._horiz = list(obs.horizontal)
        state._vert = list(obs.vertical)
        state._log = list(obs.tricks)
        state._trick = list(obs.trick)
        state._leader = obs.leader
        state._tricks_done = len(obs.tricks)
        state._split_mask = sum(1 << i for i, done in enumerate(obs.split_done) if done)
        if obs.trick:
            led = _SUIT[obs.trick[0]]
            state._led = led
            keys = state._keys[led]
            best = -2
            for i, c in enumerate(obs.trick):
                if keys[c] > best:
                    best = keys[c]
                    state._winner = (obs.leader + i) % state._n
            state._win_key = best
        return state


_PICKLED = tuple(name for name in MeioState.__slots__ if name not in ("_keys", "_suit_plays"))
"""What a pickled state holds: all but the rules' shared play tables."""


def _check_parts(obs: MeioObservation, hands: Sequence[int], asides: Sequence[int], leftover: int) -> None:
    """Refuse a deal of the hidden cards that is not one of ``obs``'s worlds (:meth:`MeioState.from_parts`)."""
    n = obs.rules.players
    if len(hands) != n or len(asides) != n:
        raise InvalidPosition(
            f"the hands and the packs set aside are {counted(n, 'mask')} each, one per player", "hidden-cards"
        )
    _check_sizes(obs, hands, asides, leftover)  # (the sizes given are the ones observed: both are the rules')
    me = obs.player
    if 0 <= me < n and (hands[me] != obs.hand or asides[me] != obs.aside):
        raise InvalidPosition(f"P{me + 1}'s own hand and pack are the ones observed", "hidden-cards")
    seen = obs.played
    total = seen.bit_count() + leftover.bit_count()
    for m in (*hands, *asides, leftover):
        if m < 0 or m & seen:
            raise InvalidPosition("a card is in two places: every card of the deck is in one", "hidden-cards")
        seen |= m
    total += sum(h.bit_count() for h in hands) + sum(a.bit_count() for a in asides)
    if seen != obs.rules.deck_mask or total != seen.bit_count():
        raise InvalidPosition(f"the cards are not the {obs.rules.deck_label()}, each once", "hidden-cards")


def _check_sizes(obs: MeioObservation, hands: Sequence[int], asides: Sequence[int], leftover: int) -> None:
    """Refuse a position whose tricks, hands or packs are not of the sizes the rulebook fixes for its
    phase, whether the observation or the hidden cards given say so (:meth:`MeioState.from_parts`):
    13 cards each from the deal until the split, then 7 in hand and 6 set aside, the hand less the
    cards played; after the seventh trick the 6 picked up, less the cards played; the leftover cards
    the deck's rest; a trick on the table of fewer cards than players; the tricks won one per
    trick done, horizontal in the first half, upright in the second."""
    rules = obs.rules
    n = rules.players
    done = len(obs.tricks)
    trick = obs.trick
    if obs.phase == "split" and (done or trick):
        raise InvalidPosition(
            f"{counted(done, 'trick')} done and {counted(len(trick), 'card')} on the table in the split: every player "
            f"splits"
            ' before the first trick ("Phase 1: The Split")',
            "split-first",
        )
    if done >= HAND_SIZE or len(trick) >= n or any(len(cs) != n for _, cs, _ in obs.tricks):
        raise InvalidPosition(
            f"{counted(done, 'trick')} done and {counted(len(trick), 'card')} on the table: a round is 13 tricks of "
            f"one card from each"
            f" of the {counted(n, 'player')}, and a trick once complete is taken by its winner",
            "trick",
        )
    horizontal, vertical = sum(obs.horizontal), sum(obs.vertical)
    if (horizontal, vertical) != (min(done, FIRST_HALF), max(done - FIRST_HALF, 0)) or min(
        *obs.horizontal, *obs.vertical
    ) < 0:
        raise InvalidPosition(
            f"{horizontal} horizontal and {counted(vertical, 'upright trick')} won after "
            f"{counted(done, 'trick')}: each trick goes to its"
            ' winner, horizontal for the first seven, upright after ("in horizontal position", "in the upright'
            ' position")',
            "tricks-won",
        )
    for seat in range(n):
        if obs.phase == "split" and not obs.split_done[seat]:
            want, rule, why = (HAND_SIZE, 0), "deal-13-each", '"deal 13 cards to each player"'
        else:
            played = (done if done < FIRST_HALF else done - FIRST_HALF) + ((seat - obs.leader) % n < len(trick))
            if done < FIRST_HALF:
                want, rule = (FIRST_HALF - played, SECOND_HALF), "split-7-6"
                why = '"one with 7 cards, and one with 6 cards", less the cards played'
            else:
                want, rule = (SECOND_HALF - played, 0), "pick-up"
                why = '"They pick up the pile of 6 cards that had been set aside", less the cards played'
        for source, sizes in (
            ("observed", (obs.hand_sizes[seat], obs.aside_sizes[seat])),
            ("given", (hands[seat].bit_count(), asides[seat].bit_count())),
        ):
            if sizes != want:
                raise InvalidPosition(
                    f"P{seat + 1} holds {counted(sizes[0], 'card')} and sets {sizes[1]} aside ({source}), not "
                    f"{want[0]} and"
                    f" {want[1]}: in the {obs.phase} after {counted(done, 'trick')}, {why}",
                    rule,
                )
    rest = len(_deck(n)[0]) - HAND_SIZE * n
    if leftover.bit_count() != rest:
        raise InvalidPosition(
            f"{counted(leftover.bit_count(), 'card')} left aside, not {rest}: with {counted(n, 'player')}"
            ' "there will be cards left over (2 and 1, respectively)" of the deck dealt 13 each',
            "leftover",
        )
