"""Shipped model weights (package data): the CNN ensemble generic.json + generic_*.onnx, built by
vision.training.cnn, the suit verifier suit.onnx, built by vision.training.suits, and the pip network
pip.onnx, built by vision.training.pips."""
