"""Cribbage: show scoring, pegging, the game engine, statistics and discard advice."""
