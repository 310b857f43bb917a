"""The pip network's trainer (needs the 'train' extra, which `make test` installs): its samples are cut as the
run-time pip reading cuts them, so the shipped network, trained on other seeds, reads fresh ones."""
from __future__ import annotations

import numpy as np

from vision.model import JUNK_SUIT
from vision.pips import DEFAULT_PIP_NET
from vision.suits import SUIT_PATCH, SuitNetwork

from vision.training.pips import rendered_pips, shipped_face_pips
from vision.training.samples import SampleSet


def _read(samples: SampleSet) -> tuple[np.ndarray, np.ndarray]:
    x, _, suit = samples.arrays()
    logits = SuitNetwork(DEFAULT_PIP_NET).net.run(["suit"], {"x": x.reshape(-1, 3, SUIT_PATCH, SUIT_PATCH)})[0]
    return logits.argmax(axis=1), suit


def test_rendered_pips_and_junk_are_read_as_labelled() -> None:
    samples = SampleSet()
    rendered_pips(150, samples, seed=1234)
    read, labelled = _read(samples)
    assert len(labelled) == 300 and 0.2 < np.mean(labelled == JUNK_SUIT) < 0.5
    assert np.mean(read == labelled) > 0.9


def test_the_shipped_faces_pips_carry_their_cards_suit() -> None:
    samples = SampleSet()
    shipped_face_pips(6, samples, seed=1234)
    read, labelled = _read(samples)
    assert len(labelled) > 60 and set(labelled.tolist()) == {0, 1, 2, 3}  # the four suits, no junk
    assert np.mean(read == labelled) > 0.95
