"""Shipped model weights (package data): the CNN ensemble generic.json + generic_*.onnx, built by
vision.training.cnn."""
