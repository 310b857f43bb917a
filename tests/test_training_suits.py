"""The suit verifier's trainer (needs the 'train' extra: skipped without torch): the encoder cuts what the
run-time verifier cuts, and an exported net loads and runs in the verifier."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.recognize import index_candidates
from vision.suits import SUIT_PATCH, SuitVerifier, cut_suit_patches
from vision.synthetic import SceneStyle, random_layout, render

pytest.importorskip("torch")
pytest.importorskip("onnx")
from vision.training.suits import export, fit, main, suit_encoder  # noqa: E402  (torch is optional)


def test_the_encoder_cuts_the_run_time_patches() -> None:
    frame, _ = render(random_layout(3, SceneStyle(size=(640, 360))), SceneStyle(size=(640, 360)), seed=2)
    cands = index_candidates(frame)[0][:20]
    rows = suit_encoder(frame, cands)
    assert rows.dtype == np.float16 and rows.shape == (len(cands), 3 * SUIT_PATCH * SUIT_PATCH)
    assert np.allclose(rows.astype(np.float32), cut_suit_patches(frame, cands).reshape(len(cands), -1), atol=2e-3)


def test_a_trained_net_runs_in_the_verifier(tmp_path: Path) -> None:
    """Two classes told apart by brightness: learnt, exported, and loaded by the run-time verifier."""
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, 512)
    x = (rng.normal(0, 0.05, (512, 3 * SUIT_PATCH ** 2)) + np.where(labels == 0, -0.4, 0.4)[:, None]).astype(np.float16)
    net = fit(x, labels, epochs=3)
    export(net, tmp_path / "suit.onnx")
    verifier = SuitVerifier(tmp_path / "suit.onnx")
    logits = verifier.net.run(["suit"], {"x": x[:64].astype(np.float32).reshape(-1, 3, SUIT_PATCH, SUIT_PATCH)})[0]
    assert (logits.argmax(1) == labels[:64]).mean() > 0.95


def test_a_missing_data_folder_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main([str(tmp_path)])
    assert exc.value.code == 2
