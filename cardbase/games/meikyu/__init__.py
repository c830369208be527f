"""Meikyu Kingdom Card Game: Make You Conquest."""
