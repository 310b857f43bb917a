"""Mini-batch Adam training of the two-headed index MLP (numpy only)."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.model import IndexClassifier, _softmax


def train(model: IndexClassifier, x: np.ndarray, yr: np.ndarray, ys: np.ndarray, epochs: int = 30,
          lr: float = 2e-3, batch: int = 256, seed: int = 0, l2: float = 1e-4,
          progress: Callable[[int, int], None] | None = None) -> IndexClassifier:
    rng = np.random.default_rng(seed)
    params = model.params()
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    xn = ((x - model.mean) / model.std).astype(np.float32)
    for epoch in range(epochs):
        order = rng.permutation(len(xn))
        for start in range(0, len(order), batch):
            sel = order[start:start + batch]
            xb = xn[sel]
            # dropout-free forward pass with the same layers as IndexClassifier.hidden
            z1 = xb @ model.w1 + model.b1
            h1 = np.maximum(z1, 0)
            z2 = h1 @ model.w2 + model.b2
            h2 = np.maximum(z2, 0)
            pr = _softmax(h2 @ model.wr + model.br)
            ps = _softmax(h2 @ model.ws + model.bs)
            n = len(sel)
            pr[np.arange(n), yr[sel]] -= 1
            ps[np.arange(n), ys[sel]] -= 1
            pr /= n
            ps /= n
            g_wr, g_br = h2.T @ pr, pr.sum(0)
            g_ws, g_bs = h2.T @ ps, ps.sum(0)
            dh2 = (pr @ model.wr.T + ps @ model.ws.T) * (z2 > 0)
            g_w2, g_b2 = h1.T @ dh2, dh2.sum(0)
            dh1 = (dh2 @ model.w2.T) * (z1 > 0)
            g_w1, g_b1 = xb.T @ dh1, dh1.sum(0)
            grads = [g_w1 + l2 * model.w1, g_b1, g_w2 + l2 * model.w2, g_b2, g_wr, g_br, g_ws, g_bs]
            step += 1
            for p, g, mi, vi in zip(params, grads, m, v):
                mi *= 0.9
                mi += 0.1 * g
                vi *= 0.999
                vi += 0.001 * g * g
                p -= lr * (mi / (1 - 0.9 ** step)) / (np.sqrt(vi / (1 - 0.999 ** step)) + 1e-8)
        if progress:
            progress(epoch + 1, epochs)
    return model


def fit_new(x: np.ndarray, yr: np.ndarray, ys: np.ndarray, epochs: int = 30, seed: int = 0,
            progress: Callable[[int, int], None] | None = None) -> IndexClassifier:
    model = IndexClassifier.init(x.shape[1], seed=seed)
    model.mean = x.mean(0).astype(np.float32)
    model.std = (x.std(0) + 0.05).astype(np.float32)
    return train(model, x, yr, ys, epochs=epochs, seed=seed, progress=progress)
