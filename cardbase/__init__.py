"""cardbase: card database, decks, proxies and simulators for Méa, Meio and Meikyu Kingdom."""

__version__ = "0.1.0"
