"""The glyph verifiers' trainer (needs the 'train' extra, which `make test` installs): the encoder cuts what the
run-time verifier cuts, and an exported net loads and runs in the verifier, for suits and for ranks."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.ranks import RankVerifier, cut_rank_patches
from vision.recognize import index_candidates
from vision.suits import SuitVerifier, cut_suit_patches
from vision.synthetic import SceneStyle, random_layout, render

from vision.training.suits import RANK, SUIT, Glyph, encoder, export, fit, main

GLYPHS = [(SUIT, cut_suit_patches, SuitVerifier), (RANK, cut_rank_patches, RankVerifier)]


@pytest.mark.parametrize("glyph, cut, _", GLYPHS, ids=["suit", "rank"])
def test_the_encoder_cuts_the_run_time_patches(glyph: Glyph, cut: object, _: object) -> None:
    frame, _ = render(random_layout(3, SceneStyle(size=(640, 360))), SceneStyle(size=(640, 360)), seed=2)
    cands = index_candidates(frame)[0][:20]
    rows = encoder(glyph)(frame, cands)
    w, h = glyph.size
    assert rows.dtype == np.float16 and rows.shape == (len(cands), 3 * w * h)
    assert np.allclose(rows.astype(np.float32), cut(frame, cands).reshape(len(cands), -1), atol=2e-3)  # type: ignore


@pytest.mark.parametrize("glyph, _, verifier", GLYPHS, ids=["suit", "rank"])
def test_a_trained_net_runs_in_the_verifier(glyph: Glyph, _: object, verifier: type, tmp_path: Path) -> None:
    """Two classes told apart by brightness: learnt, exported, and loaded by the run-time verifier."""
    rng = np.random.default_rng(0)
    w, h = glyph.size
    labels = rng.integers(0, 2, 512)
    x = (rng.normal(0, 0.05, (512, 3 * w * h)) + np.where(labels == 0, -0.4, 0.4)[:, None]).astype(np.float16)
    net = fit(x, labels, epochs=6, glyph=glyph)
    export(net, tmp_path / "net.onnx", glyph)
    session = verifier(tmp_path / "net.onnx").net
    logits = session.run([glyph.output], {"x": x[:64].astype(np.float32).reshape(-1, 3, h, w)})[0]
    assert logits.shape == (64, glyph.classes)
    assert (logits.argmax(1) == labels[:64]).mean() > 0.95


def test_a_missing_data_folder_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main([str(tmp_path)])
    assert exc.value.code == 2
