"""A recognizer built from a folder of networks named as the shipped ones (generic.json and its members,
suit.onnx, rank.onnx, pip.onnx): what a retrain writes, e.g. the leave-one-deck-out fold's (vision/README.md).
A network the folder lacks is the shipped one; a `model` given (a deck enrolled over the folder's CNN) stands
for the folder's CNN."""
from __future__ import annotations

from pathlib import Path

from vision.cnn import CnnModel
from vision.deck import FULL_DECK, Deck
from vision.model import IndexModel
from vision.pips import DEFAULT_PIP_NET
from vision.ranks import DEFAULT_RANK_NET, RankVerifier
from vision.recognize import Recognizer
from vision.suits import DEFAULT_SUIT_NET, SuitNetwork, SuitVerifier


def recognizer_from(folder: Path, deck: Deck = FULL_DECK, model: IndexModel | None = None) -> Recognizer:
    def net(default: Path) -> Path:
        return folder / default.name if (folder / default.name).is_file() else default

    cnn = folder / "generic.json"
    return Recognizer(model or (CnnModel(cnn) if cnn.is_file() else None),
                      suit_verifier=SuitVerifier(net(DEFAULT_SUIT_NET)),
                      rank_verifier=RankVerifier(net(DEFAULT_RANK_NET)),
                      pip_network=SuitNetwork(net(DEFAULT_PIP_NET)), deck=deck)
