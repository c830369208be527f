"""Seeded OpenSpiel walks through ``cardbase.spiel``, hashed: to show that a change to the engines'
steps or the adapter keeps their behaviour (run it on both trees; the hashes must be equal).

    uv run --extra spiel python benchmarks/spiel_walk_hash.py GAME N [DB]

GAME: meio2, meio3, meio4, mea, meikyu2, meikyu3, meikyu5; N seeded random games. Hashed at every
step: the player, the legal steps, the chance outcomes, the returns; every 7th step also the
information-state and observation strings, the tensors (each seat's), the step's text, the state
as text and a clone's legal steps; steps applied by ``apply_action`` and ``apply_unchecked`` in
turn. DB (Méa's decks are read against it): cardbase.db in the working directory by default.
Prints the game, N, the steps and the SHA-256. Not a test; never gates CI.
"""

import hashlib
import random
import sys
from pathlib import Path

import numpy as np
import pyspiel

import cardbase.spiel  # noqa: F401  (registers the games)

root = Path(__file__).resolve().parents[1]
db = sys.argv[3] if len(sys.argv) > 3 else "cardbase.db"
decks = [str(root / "examples/decks" / n) for n in ("mea-goblin-rush.txt", "mea-tile-control.txt")]
CONF = {
    "meio4": ("cardbase_meio", {"players": 4}),
    "meio2": ("cardbase_meio", {"players": 2}),
    "meio3": ("cardbase_meio", {"players": 3, "hearts_anytime": False}),
    "mea": ("cardbase_mea", {"deck0": decks[0], "deck1": decks[1], "db": db}),
    "meikyu3": ("cardbase_meikyu", {"players": 3}),
    "meikyu2": ("cardbase_meikyu", {"players": 2}),
    "meikyu5": ("cardbase_meikyu", {"players": 5, "aggression_target": "defender", "grimoire": "stack"}),
}
name, params = CONF[sys.argv[1]]
n = int(sys.argv[2])
game = pyspiel.load_game(name, params)
h = hashlib.sha256()
steps = 0
for seed in range(n):
    rng = random.Random(seed)
    state = game.new_initial_state()
    obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    k = 0
    while not state.is_terminal():
        p = state.current_player()
        h.update(repr(p).encode())
        full = k % 7 == 0
        if state.is_chance_node():
            outs = state.chance_outcomes()
            h.update(repr(outs).encode())
            h.update(repr(state.legal_actions()).encode())
            a = rng.choices([i for i, _ in outs], [w for _, w in outs])[0]
        else:
            legal = state.legal_actions()
            h.update(repr(legal).encode())
            if full:
                h.update(state.information_state_string(p).encode())
                h.update(state.observation_string(p).encode())
                h.update(np.asarray(state.observation_tensor(p), np.float32).tobytes())
                for q in range(game.num_players()):
                    obs.set_from(state, q)
                    h.update(obs.tensor.tobytes())
                    h.update(info.string_from(state, q).encode())
            a = legal[rng.randrange(len(legal))]
        if full:
            h.update(state.action_to_string(p, a).encode())
            h.update(str(state).encode())
            c = state.clone()
            h.update(repr(c.legal_actions()).encode())
        if k % 3 == 0:
            state.apply_action(a)
        else:
            state.apply_unchecked(a)
        h.update(repr(state.returns()).encode())
        k += 1
        steps += 1
    h.update(repr(state.returns()).encode())
    h.update(str(state).encode())
print(sys.argv[1], n, steps, h.hexdigest())
