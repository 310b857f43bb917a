"""Shipped assets (package data): rendered card faces for the synthetic scene source."""
