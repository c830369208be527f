"""Game-agnostic simulation over the engine protocol: agents, batch runs, game
records, replay and interactive play. Written once for every game."""
