"""The deck lab: decks judged by simulation (gauntlets with per-card figures, the Méa opening
size, the Meio split advisor). Functions return dataclasses; the CLI formats them."""
