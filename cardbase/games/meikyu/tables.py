"""Per-pool look-up tables of the Meikyu engine: card names, values and effects by index, the
integer steps of OpenSpiel-style action ids (``StepIds``), interned actions and memos of what a
hand may play. Built once per (pool, players, readings) and shared by every state."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, islice
from typing import Any, TypeVar

from cardbase.games.meikyu.actions import (
    MAP,
    RESUPPLY,
    WORDS,
    Attack,
    Choose,
    Defend,
    Develop,
    DrawCard,
    MixedArea,
    Quest,
    Reveal,
    Roll,
)
from cardbase.games.meikyu.codes import (
    _LBIT,
    _TYPE_CODES,
    _X_CODES,
    AGGR,
    B_BAR,
    B_CASTLE,
    B_FORTRESS,
    B_SMITH,
    B_TOMB,
    CHAR,
    DEFEND,
    DEVELOP,
    ITEM,
    OPEN,
    QUEST,
    X_AMULET,
    X_GRIMOIRE,
    X_MAP,
    X_SWORD,
)
from cardbase.games.meikyu.pool import CardPool
from cardbase.games.meikyu.rules import MeikyuRules
from cardbase.names import fold


@dataclass(frozen=True, slots=True)
class StepIds:
    """Meikyu's integer steps (see :mod:`cardbase.games.base`): where each block of ids starts.

    One-step actions: ``word`` (resupply, map, amulet, pass, draw, tomb), ``mixed`` (the seat
    that loses a turn), ``keep``, ``return``, ``discard`` (a Kingdom card's kind), ``discard_land``,
    ``give`` (a land's kind). A card set is chosen in steps: first what it is for, ``quest`` (the
    room's kind), ``attack`` ((seat × (lands + 1) + the land's kind, or lands for the defender's
    choice) × the way: an aggression card's kind in :attr:`MeikyuTables.aggression` order, then the
    Council Chamber), ``develop`` (the land's kind), or nothing for a defence; then ``card`` (a
    card's kind) once per card, in the action's order (alphabetical), then ``lab`` (the item
    played as a character through the Laboratory), if any, then ``done``.
    """

    word: int
    mixed: int
    keep: int
    give_back: int
    discard: int
    discard_land: int
    give: int
    quest: int
    attack: int
    develop: int
    card: int
    lab: int
    done: int
    ways: int
    """The ways an aggression is made possible: the aggression kinds, then the Council Chamber."""
    lands: int

    @classmethod
    def of(cls, t: MeikyuTables, players: int) -> StepIds:
        """The blocks of ``t``'s pool for ``players`` seats (what ``MeikyuTables.ids`` holds)."""
        ways = len(t.aggression) + 1
        sizes = [len(WORDS), players, t.K, t.K, t.K, t.L, t.L, t.L, players * (t.L + 1) * ways, t.L, t.K, t.K]
        at = [sum(sizes[:k]) for k in range(len(sizes) + 1)]
        word, mixed, keep, give_back, discard, discard_land, give, quest, attack, develop, card, lab, done = at
        return cls(
            word,
            mixed,
            keep,
            give_back,
            discard,
            discard_land,
            give,
            quest,
            attack,
            develop,
            card,
            lab,
            done,
            ways,
            t.L,
        )

    @property
    def total(self) -> int:
        """How many player step ids there are (``rules.num_distinct_actions()``)."""
        return self.done + 1


_WORD_IDS = {w: k for k, w in enumerate(WORDS.values())}
_WORD_LIST = tuple(WORDS.values())

_TABLES: dict[tuple[CardPool, int, str, str, str, str], MeikyuTables] = {}
MEMO_LIMIT = 100_000
"""Entries a memo of the tables holds before it drops its older half (:func:`make_room`)."""
SETS_LIMIT = 30_000
"""The same for the memos whose values hold whole lists of card sets (about 0.5–0.7 KB an entry,
against 0.1–0.4 KB for the other memos'; benchmarks/README.md, "Meikyu's memos in long runs"):
:attr:`MeikyuTables.choice_cache` and the step trees by card sets (``tree_by_sets``)."""
_A = TypeVar("_A")

CardSet = tuple[tuple[str, ...], str | None]
"""Cards for a quest, an attack, a defence or a development: (names, the name of an item
played as a character through the Laboratory or None)."""
CardSets = tuple[CardSet, ...]
Multisets = tuple[tuple[tuple[str, ...], int, int], ...]
"""Multisets of cards: (names, characters, Grimoires) (see :meth:`MeikyuTables._multisets`)."""
StepNode = tuple[tuple[int, ...], tuple[Any, ...]]
"""A node of :meth:`MeikyuTables.set_steps`' tree: (the steps that may follow, ascending; the node
each leads to, in the same order, None after ``done``). Tuples of numbers: once the garbage
collector has seen them it no longer tracks them, however many the memo keeps."""
Menu = tuple[CardSets, CardSets, tuple[str, ...], bool]
"""What a hand offers for step 2 (see :meth:`MeikyuTables.main_choices`)."""
SwordParts = tuple[int, int, int, int]
"""See :func:`sword_parts`."""
Played = tuple[tuple[int, ...], int, tuple[int, ...], int, SwordParts, int]
"""Cards played, by kind (see :meth:`MeikyuTables.played`)."""


def make_room(memo: dict[Any, Any], limit: int) -> None:
    """Before an entry is added to ``memo`` (or after a batch): once it holds ``limit`` entries,
    drop all but the newest ``limit // 2`` (a dict keeps the order of insertion), so that what the
    games now in play use stays, where clearing all made every memo cold at once."""
    if len(memo) >= limit:
        for key in list(islice(memo, len(memo) - limit // 2)):
            del memo[key]


def _tables_of(rules: MeikyuRules) -> MeikyuTables:
    """The tables of ``rules`` (what a pickled :class:`MeikyuTables` is loaded as)."""
    return rules.tables


class MeikyuTables:
    """Look-up tables of a pool (``MeikyuRules.tables``, shared by equal rules): names, values and
    effects by index, interned actions, and memos of what a hand may play (each bounded by
    :data:`MEMO_LIMIT` or :data:`SETS_LIMIT` entries).

    What a reader of observations and tensors uses, read-only: the Kingdom card kinds ``K``,
    ``knames`` (kind → name), ``kindex`` (name → kind), ``kingdom_cards`` (a kind per card of the
    pool), the land kinds ``L``, ``lnames``, ``lindex``, ``land_cards``, ``points`` and
    ``dev_points`` (a land's points, undeveloped and developed), and ``ids`` (:class:`StepIds`,
    where each block of integer steps starts). An observation's hand counts, lands
    (``kind << 1 | developed``) and piles are by these indices. The other attributes (the codes of
    types and effects, interned actions, memos) are the engine's. Each memo drops its older half
    when it reaches its limit (:func:`make_room`).

    Pickled as the rules they are of, and loaded as those rules' tables: not as the tables and
    memos themselves, which grow with every game played by equal rules (a pickled state, and
    OpenSpiel's saved one, grew with them)."""

    def __reduce__(self) -> tuple[Any, tuple[MeikyuRules]]:
        return (_tables_of, (self._rules,))

    def __init__(self, rules: MeikyuRules):
        self._rules = rules
        pool = rules.pool
        kingdom = pool.kingdom
        self.K = len(kingdom)
        self.knames = tuple(k.name for k in kingdom)
        self.ktype = tuple(_TYPE_CODES[k.type] for k in kingdom)
        self.brav = tuple(k.bravery for k in kingdom)
        self.wits = tuple(k.wits for k in kingdom)
        self.keff = tuple(_X_CODES[k.effect] for k in kingdom)
        self.kindex = {k.name: i for i, k in enumerate(kingdom)}
        self.klookup: dict[str, int] = {}
        for i, k in enumerate(kingdom):
            self.klookup[fold(k.name)] = i
            self.klookup.setdefault(fold(k.name).rstrip("!"), i)
        alpha = sorted(range(self.K), key=lambda i: (kingdom[i].name.casefold(), i))
        self.alpha = tuple(alpha)
        self.rank = tuple(alpha.index(i) for i in range(self.K))
        self.chars = tuple(i for i in alpha if self.ktype[i] == CHAR)
        self.boosters = tuple(i for i in alpha if self.keff[i] in (X_SWORD, X_GRIMOIRE))
        self.items = tuple(i for i in alpha if self.ktype[i] == ITEM)
        self.amulets = tuple(i for i in alpha if self.keff[i] == X_AMULET)
        self.maps = tuple(i for i in alpha if self.keff[i] == X_MAP)
        self.aggression = tuple(i for i in alpha if self.ktype[i] == AGGR)
        self.opens = tuple(i for i in alpha if self.ktype[i] == OPEN)
        self.quest_kinds = tuple(i for i in alpha if i in self.chars or i in self.boosters)
        # The kinds whose counts make the card sets, by (develop?, Laboratory?).
        self.set_kinds = (
            (self.quest_kinds, self.quest_kinds + self.items),
            (self.chars, self.chars),
        )
        self.kingdom_cards = tuple(i for i, k in enumerate(kingdom) for _ in range(k.copies))
        self.stack_grimoires = rules.grimoire == "stack"
        self.one_sword = rules.sword == "one"  # (then no more Swords than characters in a set)
        self.sword_names = frozenset(self.knames[i] for i in alpha if self.keff[i] == X_SWORD)
        self.fortress_in_aggression = rules.fortress == "aggressions"
        self.bar_after_items = rules.bar_zero == "after-items"
        # A hand's key (see hand_key): its counts as the digits of one number, a kind's digit
        # below its copies + 1 (no hand holds more copies than the pool has).
        weights = [1]
        for k in kingdom[:-1]:
            weights.append(weights[-1] * (k.copies + 1))
        self.hand_weight = tuple(weights)
        lands = pool.lands
        self.L = len(lands)
        self.lnames = tuple(land.name for land in lands)
        self.llabels = tuple(land.label for land in lands)
        self.level = tuple(land.level for land in lands)
        self.points = tuple(land.points for land in lands)
        self.dev_points = tuple(land.developed_points for land in lands)
        self.lbit = tuple(_LBIT[land.effect] if land.effect else 0 for land in lands)
        self.lindex = {land.name: i for i, land in enumerate(lands)}
        self.llookup: dict[str, int] = {}
        for i, land in enumerate(lands):
            self.llookup[fold(land.name)] = i
        for i, land in enumerate(lands):
            if land.land_name:
                self.llookup.setdefault(fold(land.land_name), i)
        self.land_cards = tuple(i for i, land in enumerate(lands) for _ in range(land.copies))
        self.land_copies = tuple(land.copies for land in lands)
        self.unique_lands = all(c <= 1 for c in self.land_copies)  # no two face-up rooms alike
        self.castle = frozenset(i for i in range(self.L) if self.lbit[i] & B_CASTLE)
        self.tomb_lands = tuple(i for i in range(self.L) if self.lbit[i] & B_TOMB)
        self.by_bit = {bit: tuple(i for i in range(self.L) if self.lbit[i] & bit) for bit in _LBIT.values()}
        # Interned actions.
        self.draw_act = tuple(DrawCard(n) for n in self.knames)
        self.reveal_act = tuple(Reveal(n) for n in self.lnames)
        self.roll_act = (None, *(Roll(v) for v in range(1, 7)))
        self.keep_act = tuple(Choose("keep", n) for n in self.knames)
        self.return_act = tuple(Choose("return", n) for n in self.knames)
        self.discard_act = tuple(Choose("discard", n) for n in self.knames)
        self.give_act = tuple(Choose("give", n) for n in self.lnames)
        self.discard_land_act = tuple(Choose("discard land", n) for n in self.lnames)
        self.mixed_act = tuple(MixedArea(q) for q in range(rules.players))
        # The other seats, by seat, in seat order.
        self.others = tuple(tuple(q for q in range(rules.players) if q != p) for p in range(rules.players))
        # Aggression targets (seat, land name), by seat and land.
        self.named_targets = tuple(tuple((q, name) for name in self.lnames) for q in range(rules.players))
        self.free_plain = (RESUPPLY,)
        self.free_map = (MAP, RESUPPLY)
        self.choice_cache: dict[tuple[Any, ...], CardSets] = {}
        self.card_sets: dict[CardSet, CardSet] = {}  # each card set of choice_cache's values, once
        self.tree_nodes: dict[StepNode, StepNode] = {}  # each node of the step trees, once
        self.multiset_cache: dict[tuple[int, ...], Multisets] = {}
        # The card sets' step trees (set_steps), by (mode, Laboratory?, the hand's key).
        self.tree_cache: dict[tuple[int, bool, int], StepNode] = {}
        # Keyed by the hand's key; one memo without the Laboratory, one with it.
        self.main_cache: tuple[dict[int, Menu], dict[int, Menu]] = ({}, {})
        self.defend_cache: tuple[dict[int, tuple[Defend, ...]], dict[int, tuple[Defend, ...]]] = ({}, {})
        # Interned actions by key: (room, names, lab) a Quest, (seat, land, names, lab, by) an
        # Attack, (land, names) a Develop, (names, lab) (a card set) a Defend.
        self.action_cache: dict[tuple[Any, ...], Any] = {}
        self.played_cache: dict[tuple[tuple[str, ...], str | None], Played] = {}
        self.order_cache: dict[tuple[int, ...], tuple[Choose, ...]] = {}  # by the cards in play, in order
        self.order_lists: dict[tuple[int, ...], tuple[Choose, ...]] = {}  # by their kinds, alphabetically
        self.ids = StepIds.of(self, rules.players)
        # For the main choice's steps: the free plays' ids, and each way's index by name.
        self.free_plain_ids = tuple(self.ids.word + _WORD_IDS[WORDS[a.word]] for a in self.free_plain)
        self.free_map_ids = tuple(self.ids.word + _WORD_IDS[WORDS[a.word]] for a in self.free_map)
        self.way_of = {self.knames[k]: w for w, k in enumerate(self.aggression)}
        # A one-step action's id by the identity of its interned instance (the words and the
        # tables' Choose and MixedArea actions): legal_ids reads them without _step_id's tests.
        ids = self.ids
        step_of: dict[int, int] = {id(w): ids.word + _WORD_IDS[w] for w in WORDS.values()}
        for base, acts in (
            (ids.mixed, self.mixed_act),
            (ids.keep, self.keep_act),
            (ids.give_back, self.return_act),
            (ids.discard, self.discard_act),
            (ids.discard_land, self.discard_land_act),
            (ids.give, self.give_act),
        ):
            step_of.update((id(a), base + i) for i, a in enumerate(acts))
        self.step_of = step_of
        # The card sets' step trees by the card sets themselves (a value of :meth:`choices`,
        # by its identity, kept beside the tree): hands that differ only in cards no set
        # holds share one tree; tree_cache finds it by the hand's key first.
        self.tree_by_sets: dict[tuple[int, int], tuple[CardSets, StepNode]] = {}

    def hand_key(self, hand: Sequence[int]) -> int:
        """The key of a hand (counts by kind) in the memos; the state keeps each hand's key
        up to date as cards come and go (``MeikyuState._hkey``)."""
        return sum(map(int.__mul__, hand, self.hand_weight))

    def played(self, names: tuple[str, ...], lab: str | None) -> Played:
        """Cards named in an action: (their kinds, the Laboratory item's kind or -1, the
        characters among them with that item, their seals, their :func:`sword_parts`, what
        they weigh in the hand's key)."""
        key = (names, lab)
        hit = self.played_cache.get(key)
        if hit is None:
            make_room(self.played_cache, MEMO_LIMIT)
            kinds = tuple(self.kindex[c] for c in names)
            labk = -1 if lab is None else self.kindex[lab]
            chars = tuple(k for k in kinds if self.ktype[k] == CHAR) + ((labk,) if labk >= 0 else ())
            seals = sum(self.wits[k] for k in kinds)
            weight = sum(self.hand_weight[k] for k in (*kinds, labk) if k >= 0)
            hit = self.played_cache[key] = (kinds, labk, chars, seals, sword_parts(self, kinds, labk), weight)
        return hit

    # Interned step-2 actions (a frozen dataclass costs more to build than to look up).

    def quest(self, room: int, names: tuple[str, ...], lab: str | None) -> Quest:
        """The quest of room kind ``room`` with the cards ``names`` (``lab``: the item played as a
        character), interned: equal quests are one object."""
        key = (room, names, lab)
        return self.action_cache.get(key) or self._intern(key, Quest(self.lnames[room], names, lab))

    def attack(self, q: int, land: str | None, names: tuple[str, ...], lab: str | None, by: str) -> Attack:
        """The aggression against seat ``q`` (``land``: the land aimed at, None for the defender's
        choice) with the cards ``names``, made possible ``by`` a card or the Council Chamber, interned."""
        key = (q, land, names, lab, by)
        return self.action_cache.get(key) or self._intern(key, Attack(q, land, names, lab, by))

    def develop(self, land: int, names: tuple[str, ...]) -> Develop:
        """The development of land kind ``land`` with the characters ``names``, interned."""
        key = (land, names)
        return self.action_cache.get(key) or self._intern(key, Develop(self.lnames[land], names))

    def defend(self, cards: CardSet) -> Defend:
        """The defence with the card set ``cards``, interned."""
        return self.action_cache.get(cards) or self._intern(cards, Defend(*cards))

    def _intern(self, key: tuple[Any, ...], action: _A) -> _A:
        make_room(self.action_cache, 2 * MEMO_LIMIT)
        self.action_cache[key] = action
        return action

    def discard_order(self, inplay: Sequence[int]) -> tuple[Choose, ...]:
        """The cards in play that may go to the discard pile next, alphabetically, as actions."""
        key = tuple(inplay)
        hit = self.order_cache.get(key)
        if hit is None:
            make_room(self.order_cache, MEMO_LIMIT)
            kinds = tuple(sorted(set(inplay), key=self.rank.__getitem__))
            # (Equal lists are one object: the entry adds nothing the garbage collector must follow.)
            hit = self.order_lists.get(kinds)
            if hit is None:
                make_room(self.order_lists, MEMO_LIMIT)
                hit = self.order_lists[kinds] = tuple(map(self.discard_act.__getitem__, kinds))
            self.order_cache[key] = hit
        return hit

    def main_choices(self, hand: Sequence[int], key: int, lab: bool) -> Menu:
        """What ``hand`` (whose :meth:`hand_key` is ``key``) offers for step 2: the card sets
        for a quest or an attack, the card sets for a development, the names of the aggression
        cards held, whether a Map is held. (MeikyuState._main_actions reads the memo first.)"""
        cache = self.main_cache[lab]
        hit = cache.get(key)
        if hit is None:
            make_room(cache, MEMO_LIMIT)
            hit = cache[key] = (
                self.choices(hand, QUEST, lab),
                self.choices(hand, DEVELOP, False),
                self.held_aggression(hand),
                self.holds_map(hand),
            )
        return hit

    def held_aggression(self, hand: Sequence[int]) -> tuple[str, ...]:
        """The names of the aggression cards ``hand`` holds, alphabetically."""
        return tuple([self.knames[k] for k in self.aggression if hand[k]])

    def holds_map(self, hand: Sequence[int]) -> bool:
        """Whether ``hand`` holds a Map."""
        return any(map(hand.__getitem__, self.maps))

    def forms_sets(self, hand: Sequence[int], mode: int, lab: bool) -> bool:
        """Whether :meth:`choices` of ``hand`` has a card set for ``mode`` (QUEST or DEVELOP),
        without enumerating them: any character alone is a set for either, and for a quest with
        the Laboratory (``lab``) any item alone (played as a character); a set needs one of them,
        and no Sword or Grimoire rule refuses one alone (a test checks it against ``choices``)."""
        at = hand.__getitem__
        return any(map(at, self.chars)) or (lab and mode != DEVELOP and any(map(at, self.items)))

    def defences(self, hand: Sequence[int], key: int, lab: bool) -> tuple[Defend, ...]:
        """The defender's choices from ``hand`` (whose :meth:`hand_key` is ``key``), as actions."""
        cache = self.defend_cache[lab]
        hit = cache.get(key)
        if hit is None:
            make_room(cache, MEMO_LIMIT)
            hit = cache[key] = tuple(map(self.defend, self.choices(hand, DEFEND, lab)))
        return hit

    def choices(self, hand: Sequence[int], mode: int, lab: bool) -> CardSets:
        """Every legal card set from ``hand`` for ``mode``.

        Quest and attack: at least one character (a Laboratory item counts), any Swords
        and Grimoires, no more Grimoires than characters (any number under ``grimoire="stack"``).
        Defend: no card at all, then the same as a quest. Develop: one or more characters only.
        """
        if mode == DEFEND:  # (the die alone comes first: it is the empty set of the enumeration)
            return (((), None), *self.choices(hand, QUEST, lab))
        kinds = self.set_kinds[mode == DEVELOP][lab]
        # Only the cards that can be part of a set matter (hands differing elsewhere share).
        key = (mode, lab, *map(hand.__getitem__, kinds))
        hit = self.choice_cache.get(key)
        if hit is not None:
            return hit
        make_room(self.choice_cache, SETS_LIMIT)
        if mode == DEVELOP:
            slots = [k for k in self.chars if hand[k]]
            labs: list[int] = []
        else:
            slots = [k for k in self.quest_kinds if hand[k]]
            labs = [k for k in self.items if hand[k]] if lab else []
        # Every multiset of the slots' cards in alphabetical order of the slots, the last
        # varying fastest: each of the first half's multisets followed by each of the second's.
        half = len(slots) // 2
        head, tail = self._multisets(hand, slots[:half]), self._multisets(hand, slots[half:])
        out: list[CardSet]
        if not labs:
            stack = self.stack_grimoires  # (then a character takes any number of Grimoires)
            out = [
                (hn + tn, None)
                for hn, hc, hg in head
                for tn, tc, tg in tail
                if hc + tc and (stack or hg + tg <= hc + tc)
            ]
        else:
            out = []
            names = self.knames
            stack = self.stack_grimoires
            for hn, hc, hg in head:
                for tn, tc, tg in tail:
                    cards, nch, ng = hn + tn, hc + tc, hg + tg
                    if nch and (stack or ng <= nch):
                        out.append((cards, None))
                    if stack or ng <= nch + 1:  # an item played as a character, with a copy left over
                        out.extend((cards, names[i]) for i in labs if hand[i] > cards.count(names[i]))
        if self.one_sword:  # each Sword on a character of its own (the Laboratory's item is one)
            swords = self.sword_names
            out = [
                (names, lab)
                for names, lab in out
                if sum(1 for n in names if n in swords) <= self._characters(names) + (lab is not None)
            ]
        # (A tuple: memo values hold no mutable object, which the garbage collector can skip.
        # Equal card sets are one object, shared by every hand that offers them.)
        same = self.card_sets.setdefault
        hit = self.choice_cache[key] = tuple([same(s, s) for s in out])
        make_room(self.card_sets, MEMO_LIMIT)  # (after the batch: the sets stay shared in hit)
        return hit

    def _characters(self, names: Sequence[str]) -> int:
        kindex, ktype = self.kindex, self.ktype
        return sum(1 for n in names if ktype[kindex[n]] == CHAR)

    def set_steps(self, sets: CardSets) -> StepNode:
        """The steps that choose one of ``sets`` (a value of :meth:`choices`), as a tree: a card
        step per card in order, the Laboratory step if any, then ``done`` (see :class:`StepIds`).
        OpenSpiel's card-set steps walk it (``MeikyuState`` keeps them in :attr:`tree_cache`)."""
        ids = self.ids
        card, lab_at, done = ids.card, ids.lab, ids.done
        kindex = self.kindex
        root: dict[int, Any] = {}
        for names, lab in sets:
            node = root
            for name in names:
                step = card + kindex[name]
                child = node.get(step)
                if child is None:
                    child = node[step] = {}
                node = child
            if lab is not None:
                step = lab_at + kindex[lab]
                child = node.get(step)
                if child is None:
                    child = node[step] = {}
                node = child
            node[done] = None
        tree = _frozen(root, self.tree_nodes.setdefault)
        make_room(self.tree_nodes, MEMO_LIMIT)
        return tree

    def _multisets(self, hand: Sequence[int], slots: Sequence[int]) -> Multisets:
        """Every multiset of the cards of ``hand`` in ``slots``, grown slot by slot (the last
        slot varying fastest): (names, characters, Grimoires). Memoised: hands share them."""
        key = (*slots, *map(hand.__getitem__, slots))
        hit = self.multiset_cache.get(key)
        if hit is not None:
            return hit
        make_room(self.multiset_cache, MEMO_LIMIT)
        names, ktype, keff = self.knames, self.ktype, self.keff
        sets: Multisets = (((), 0, 0),)
        for k in slots:
            name = names[k]
            char, grim = ktype[k] == CHAR, keff[k] == X_GRIMOIRE
            steps = [((name,) * c, c if char else 0, c if grim else 0) for c in range(hand[k] + 1)]
            sets = tuple([(tn + sn, nch + sc, ng + sg) for tn, nch, ng in sets for sn, sc, sg in steps])
        self.multiset_cache[key] = sets
        return sets


def _frozen(node: dict[int, Any], same: Callable[[StepNode, StepNode], StepNode]) -> StepNode:
    """A tree of dicts (step → node) as :data:`StepNode` tuples, equal subtrees one object
    (``same``: the setdefault of a dict of them)."""
    steps = tuple(sorted(node))
    frozen = steps, tuple([None if node[step] is None else _frozen(node[step], same) for step in steps])
    return same(frozen, frozen)


def sword_parts(t: MeikyuTables, kinds: Sequence[int], labk: int) -> SwordParts:
    """What the swords of the cards ``kinds`` (+ a Laboratory item ``labk``, a 2-sword
    character, unless -1) are made of before land effects: (swords, characters with 0
    swords, Sword cards, characters). Each Sword adds 1; each Grimoire adds the seals of a
    character of its own (the most seals first), or, under ``grimoire="stack"``, of the
    character with the most seals. Characters with 0 swords: printed with 0 Bravery, or under
    ``bar_zero="after-items"`` as many as the Bar can lift at best (:func:`_best_with_bar`, less
    the swords without it), so that swords + that count is the best total with the Bar."""
    s = weak = sword_cards = nch = grims = 0
    wits: list[int] = []
    chars: list[tuple[int, int]] = []
    ktype, brav, keff, kwits = t.ktype, t.brav, t.keff, t.wits
    for k in kinds:
        if ktype[k] == CHAR:
            b = brav[k]
            s += b
            if b == 0:
                weak += 1
            nch += 1
            wits.append(kwits[k])
            chars.append((b, kwits[k]))
        else:
            e = keff[k]
            if e == X_SWORD:
                s += 1
                sword_cards += 1
            elif e == X_GRIMOIRE:
                grims += 1
    if labk >= 0:
        s += 2
        nch += 1
        wits.append(0)
        chars.append((2, 0))
    base = s
    if grims and wits:
        wits.sort(reverse=True)
        s += grims * wits[0] if t.stack_grimoires else sum(wits[:grims])
    if t.bar_after_items and weak and (sword_cards or grims):
        weak = _best_with_bar(chars, base, sword_cards, grims, t.stack_grimoires, t.one_sword) - s
    return s, weak, sword_cards, nch


def _best_with_bar(
    chars: list[tuple[int, int]], base: int, swords: int, grims: int, stack_grimoires: bool, one_sword: bool
) -> int:
    """Under ``bar_zero="after-items"``: the most swords the characters ``chars`` ((bravery, seals)
    each) make with a developed Bar, which lifts each character left at 0 swords after the items on it
    to 1: ``base`` swords before the Grimoires (printed, +1 per Sword), ``swords`` Swords and
    ``grims`` Grimoires. Every placement of the Grimoires is tried (each on a character of its own,
    or all on one under ``grimoire="stack"``: spreading them never does better); the Swords then go
    on characters already above 0 where they can (each on one of its own under ``sword="one"``), a
    character at 0 taking one only when no other can."""
    n = len(chars)
    if stack_grimoires:
        placements: list[tuple[int, ...]] = [(i,) for i in range(n)]
    else:
        placements = list(combinations(range(n), min(grims, n)))
    best = -1
    for chosen in placements:
        gain = sum(chars[i][1] for i in chosen) * (grims if stack_grimoires else 1)
        raised = {i for i in chosen if chars[i][1] > 0}
        zeros = sum(1 for i, (b, _) in enumerate(chars) if b == 0 and i not in raised)
        if not swords:
            lost = 0
        elif one_sword:
            lost = max(0, swords - (n - zeros))
        else:
            lost = 1 if zeros == n else 0
        best = max(best, base + gain + zeros - lost)
    return best


def land_swords(parts: SwordParts, eff: int, deff: int, fortress: bool) -> int:
    """Swords of cards made of ``parts`` (see :func:`sword_parts`) for a player whose lands
    give ``eff`` (and, developed, ``deff``): Bar (developed) lifts 0-sword characters to 1;
    Blacksmith adds 1 per Sword; Fortress adds 2 for two or more characters where it counts
    (``fortress``: a quest, or an aggression under ``fortress="aggressions"``)."""
    s, weak, sword_cards, nch = parts
    if deff & B_BAR:
        s += weak
    if eff & B_SMITH:
        s += sword_cards
    if fortress and nch >= 2 and eff & B_FORTRESS:
        s += 2
    return s


def sword_total(t: MeikyuTables, kinds: Sequence[int], labk: int, eff: int, deff: int, quest: bool) -> int:
    """Swords of the cards ``kinds`` (+ a Laboratory item ``labk``) for a player whose
    lands give ``eff`` (and, developed, ``deff``), in a quest or an aggression:
    :func:`sword_parts` with :func:`land_swords`."""
    return land_swords(sword_parts(t, kinds, labk), eff, deff, quest or t.fortress_in_aggression)
