from __future__ import annotations
import json
from pathlib import Path
from fastapi.testclient import TestClient
from tests.web.conftest import new_deck

def report(tag, r):
    print("R", r.status_code, tag, r.text[:250].replace("\n", "\\n"))

def test_fuzz(client: TestClient) -> None:
    text = Path("examples/decks/meio-3-players.txt").read_text()
    meio = client.post("/api/decks/import", json={"text": text, "name": "M3"}).json()["id"]
    mk = client.post("/api/decks/import", json={"text": Path("examples/decks/meikyu-rulebook-cards.txt").read_text(), "name": "MK"}).json()["id"]
    mea = client.post("/api/decks/import", json={"text": Path("examples/decks/mea-goblin-rush.txt").read_text(), "name": "MEA"}).json()["id"]
    for url in [f"/api/decks/diff?a={mea}&b={meio}", f"/api/decks/diff?a=db:MEA&b=db:M3", f"/decks/compare?a={mea}&b={meio}", f"/api/decks/{meio}/draws", f"/api/decks/{mk}/draws", f"/api/decks/{meio}/stats", f"/api/decks/{mk}/stats",
                f"/api/decks/{meio}/pdf", f"/api/decks/{mk}/validation", f"/api/decks/{meio}/validation?format=standard", f"/api/decks/{mea}/validation?format=zz", f"/decks/{meio}", f"/decks/{mk}", f"/api/decks/{meio}/collection", f"/decks/{meio}/print.pdf", f"/decks/{mk}/export.ydk", f"/decks/{meio}/export.cod", f"/api/decks/{mk}/export?format=arena", f"/api/decks/{meio}/draws?needs=AS&n=5"]:
        r = client.get(url); report(url, r)
    for body in [{"card": "meio/standard/ace-of-spades", "count": 1}, {"name": "Ace of Spades", "count": 1}, {"card": "mea/demo/crumb-goblin", "count": 1, "section": "<b>"}]:
        r = client.post(f"/api/decks/{mea}/cards", json=body); report(("add", json.dumps(body)), r)
        r = client.post(f"/api/decks/{meio}/cards", json={**body, "name": "Crumb Goblin"} if "name" in body else body); report(("add2", json.dumps(body)), r)
    r = client.post(f"/api/decks/{mea}/tags", json={"card": "meio/standard/ace-of-spades", "add": ["x"]}); report("tag-other", r)
    r = client.patch(f"/api/decks/{meio}", json={"format": "standard"}); report("fmt", r)
    r = client.post(f"/api/decks/{meio}/duplicate", json={"name": "x"}); report("dup", r)
