import html, re
from tests.web.test_play_rule_words import page_error

CASES = [
    ("meio", {"rule_rounds": "many"}),
    ("meio", {"rule_rounds": "-3"}),
    ("meio", {"rule_rounds": "0"}),
    ("meio", {"rule_rounds": "99999999"}),
    ("meio", {"rule_first_player": "7"}),
    ("mea", {"rule_layout": "bogus"}),
    ("mea", {"rule_layout": "x"*50}),
    ("mea", {"rule_board_size": "3", "rule_layout": "checkerboard"}),
    ("mea", {"rule_board_size": "2"}),
    ("mea", {"rule_tiles_per_colour": "1", "rule_tile_supply": "2"}),
    ("mea", {"rule_mana_minimum": "-1"}),
    ("mea", {"rule_max_turns": "0"}),
    ("meikyu", {"rule_goal": "0"}),
    ("meikyu", {"rule_turn_limit": "abc"}),
    ("meio", {"rule_bogus": "1"}),
]

def test_probe(client):
    for game, extra in CASES:
        data = {"game": game, "players": "2" if game == "mea" else "3", "seat0": "human", "seat1": "heuristic", "seat2": "heuristic", **extra}
        if game == "meikyu":
            data["assume"] = "default"
        r = client.post("/play", data=data)
        try:
            said = page_error(r.text)
        except AssertionError:
            said = "<no error div>"
        api = client.post("/api/games", json={"game": game, "players": int(data["players"]), "rules": {k.removeprefix("rule_"): v for k, v in extra.items()}})
        print(f"\n{game} {extra} -> {r.status_code}\n  PAGE: {said}\n  API: {api.status_code} {api.json().get('error')}")
