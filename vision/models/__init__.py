"""Shipped model weights (package data): the CNN ensemble generic.json + generic_*.onnx, built by
vision.training.cnn, and the suit verifier suit.onnx, built by vision.training.suits."""
