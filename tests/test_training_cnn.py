"""The index CNN's trainer (vision/training/cnn.py): a miner trained at another patch size reads the rows
it mines at its own size. Needs the train extra."""
from __future__ import annotations

import numpy as np

from vision.cnn import CnnModel, cut_cnn_patches
from vision.recognize import Recognizer
from vision.synthetic import PlacedCard, SceneStyle, render
from vision.training.cnn import _resized


def test_patches_cut_larger_and_resized_read_as_patches_cut_at_the_models_size() -> None:
    img, _ = render([PlacedCard("7D", 300, 250, 20.0), PlacedCard("QS", 700, 300, -35.0)],
                    SceneStyle(card_width=130.0), seed=2)
    model = CnnModel()
    named = [r for r in Recognizer(model).read_indices(img) if r.card != "unknown"]
    assert {r.card for r in named} == {"7D", "QS"}
    cands = [r.candidate for r in named]
    w, h = model.size
    large, _ = cut_cnn_patches(img, cands, (2 * w, 2 * h))
    resized = _resized(large, model.size)
    assert resized.shape == (len(cands), 3, h, w)
    own, _ = model.patches(img, cands)
    (pr, ps), (qr, qs) = model.forward(resized), model.forward(own)
    assert (pr.argmax(1) == qr.argmax(1)).all() and (ps.argmax(1) == qs.argmax(1)).all()
    assert np.allclose(pr.max(1), qr.max(1), atol=0.1)
