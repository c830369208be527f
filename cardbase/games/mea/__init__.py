"""Méa: The Tiled Kingdom."""
