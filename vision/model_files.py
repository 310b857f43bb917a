"""Loading a model file: the shipped CNN ensemble (vision/cnn.py) or an enrolled deck (vision/enroll.py).

Apart from vision/model.py so that the recognizer and enrolment can depend on the model's protocol and
labels without depending on each other.
"""
from __future__ import annotations

from pathlib import Path

from vision.cnn import DEFAULT_CNN, CnnModel
from vision.enroll import EnrolledModel
from vision.model import IndexModel

DEFAULT_MODEL = DEFAULT_CNN


def load_model(path: Path = DEFAULT_MODEL) -> IndexModel:
    """A shipped or enrolled model: CNN ensemble manifest .json (the default) or one .onnx, or an enrolled
    deck .npz (`cardtable vision enroll`)."""
    if Path(path).suffix in (".json", ".onnx"):
        return CnnModel(Path(path))
    return EnrolledModel.load(Path(path))
