"""Shipped model weights (package data): generic.npz, built by vision.training.build_model."""
