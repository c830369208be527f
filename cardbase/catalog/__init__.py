"""Shipped card data (one file per game, plus the Méa demo set) and its loader."""
