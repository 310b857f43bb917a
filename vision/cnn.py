"""The corner-index CNN at run time: one upright colour patch per candidate, one batched forward pass
through ONNX Runtime (the .onnx is trained offline with PyTorch, see vision/training/cnn.py; the runtime
needs no torch). ONNX Runtime runs these small convolutions ~2x faster than OpenCV's DNN module.

The patch covers the index and the card corner next to it (the corner's two paper edges are what tells a
real index from a pair of pips in the middle of a card).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.glyphs import IndexCandidate, affine_to_image
from vision.ink import as_bgr, ink_colour, ink_image
from vision.resample import Pyramid
from vision.shipped import shipped_file

# The patch size new networks are trained at (training/cnn.py): 10 px per L. A model cuts its patches at
# the size its networks' input declares (30x48 was tried: vision/README).
CNN_W, CNN_H = 20, 32
# Region around the index centre in units of L (x card-right, y card-down): the card corner sits at
# (-0.52, -1.5), so the patch shows ~0.5 L of table beyond both corner edges.
CNN_EXTENT = (-1.0, 1.0, -1.8, 1.4)
DEFAULT_CNN = shipped_file("vision.models", "generic.json")


def cut_cnn_patches(bgr: np.ndarray, cands: list[IndexCandidate], size: tuple[int, int] = (CNN_W, CNN_H)
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(N, 3, h, w) network input at `size` (w, h) (BGR over the patch's bright paper level, minus 0.5)
    and the (N, 2) ink redness of the index glyphs (ink.ink_colour)."""
    n = len(cands)
    w, h = size
    if n == 0:
        return np.zeros((0, 3, h, w), np.float32), np.zeros((0, 2), np.float32)
    raw = upright_patches(bgr, cands, size, CNN_EXTENT)
    ink = patch_ink(raw)
    k = w * h // 20
    levels = np.partition(ink.reshape(n, -1), (k, w * h - k - 1), axis=1)  # 5th and 95th percentile
    lo = levels[:, k].astype(np.float32)
    hi = np.maximum(levels[:, -k - 1].astype(np.float32), 12.0)
    x = over_paper(raw, hi)
    # the index glyphs (x -0.4..0.4 L, y -0.95..0.95 L): the ink colour is measured there only, not on
    # the table beyond the card's corner, which a dark table would make 'ink'
    rows = slice(round((-0.95 + 1.8) / 3.2 * h), round((0.95 + 1.8) / 3.2 * h))
    cols = slice(round((-0.4 + 1.0) / 2.0 * w), round((0.4 + 1.0) / 2.0 * w))
    inked = ink[:, rows, cols] < ((lo + hi) / 2)[:, None, None]
    return x, ink_colour(raw[:, rows, cols].reshape(n, -1, 3).astype(np.float32), inked.reshape(n, -1))


def upright_patches(bgr: np.ndarray, cands: list[IndexCandidate], size: tuple[int, int],
                    extent: tuple[float, float, float, float]) -> np.ndarray:
    """(N, h, w, 3) uint8: each candidate's `extent` (in units of L around its index centre, see
    glyphs.affine_to_image) resampled upright to `size` (w, h), averaged where it shrinks (resample.py);
    a grey frame is cut as BGR."""
    frame = Pyramid(as_bgr(bgr))
    raw = np.empty((len(cands), size[1], size[0], 3), np.uint8)
    for i, c in enumerate(cands):
        frame.warp(affine_to_image(c, size, extent), size, raw[i])
    return raw


def patch_ink(raw: np.ndarray) -> np.ndarray:
    """(N, h, w, 3) patches -> (N, h, w) darkest channel (OpenCV's per-channel min: numpy's min over a
    last axis of 3 cost ~0.3 ms a frame)."""
    n, h, w, _ = raw.shape
    return ink_image(raw.reshape(n * h, w, 3)).reshape(n, h, w)


def over_paper(raw: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """(N, h, w, 3) patches -> (N, 3, h, w) network input: each over its paper level (N,), minus 0.5."""
    x = raw.transpose(0, 3, 1, 2).astype(np.float32, order="C")
    x *= (1.0 / paper)[:, None, None, None]
    x -= 0.5
    return x


def glyph_patches(bgr: np.ndarray, cands: list[IndexCandidate], size: tuple[int, int],
                  extent: tuple[float, float, float, float]) -> np.ndarray:
    """(N, 3, h, w) network input of one glyph per candidate (the verifiers' and the pip network's):
    `extent` around the index centre resampled upright to `size` (w, h), over the patch's bright paper
    level (its 95th percentile), minus 0.5."""
    n = len(cands)
    w, h = size
    if n == 0:
        return np.zeros((0, 3, h, w), np.float32)
    raw = upright_patches(bgr, cands, size, extent)
    k = w * h * 95 // 100
    paper = np.maximum(np.partition(patch_ink(raw).reshape(n, -1), k, axis=1)[:, k], 12).astype(np.float32)
    return over_paper(raw, paper)


class CnnModel:
    """An ensemble of ONNX two-headed index CNNs (rank + junk, suit + junk; probabilities averaged:
    members disagree on what they have not learnt, which lowers confidence exactly there) and the
    val-calibrated threshold.

    `path` is a JSON manifest {"threshold": t, "members": ["a.onnx", ...]} (paths relative to it), or
    one .onnx whose same-named .json holds the threshold. Each member has the input "patch" and the
    outputs "rank", "suit" and "embedding" (the hidden layer feeding both heads, which enrolment compares).
    One thread per network: the table's recognition runs on one core, beside the service.
    """

    def __init__(self, path: Path = DEFAULT_CNN, threshold: float | None = None) -> None:
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"cannot load card model {path}: no such file")
        try:
            meta = json.loads(path.with_suffix(".json").read_text())
            members = [path] if path.suffix == ".onnx" else [path.parent / m for m in meta["members"]]
            self.threshold = float(meta["threshold"]) if threshold is None else threshold
        except (OSError, KeyError, ValueError, TypeError) as exc:
            raise ValueError(f"cannot load card model {path}: {exc}") from exc
        networks = [_read_network(m) for m in members]
        self.nets = [_session(m, network) for m, network in zip(members, networks)]
        # which networks these are: an enrolled deck's prototypes only mean something for the same ones
        self.digest = hashlib.sha256(b"".join(networks)).hexdigest()[:16]
        if not self.nets:
            raise ValueError(f"cannot load card model {path}: no member network")
        if "embedding" not in {o.name for o in self.nets[0].get_outputs()}:
            raise ValueError(f"cannot load card model {path}: its first member has no 'embedding' output")
        sizes = {tuple(net.get_inputs()[0].shape[2:]) for net in self.nets}  # (h, w) of (n, 3, h, w)
        if len(sizes) != 1 or not all(isinstance(d, int) for d in next(iter(sizes))):
            raise ValueError(f"cannot load card model {path}: its members' patch sizes differ or vary: {sizes}")
        ((h, w),) = sizes
        self.size = (int(w), int(h))  # the patch size its networks read
        self.path = path

    def score(self, frame: np.ndarray, cands: list[IndexCandidate], floor: float | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rank (N, 14) and suit (N, 5) probabilities and ink redness (N, 2) of every candidate (`floor`:
        see forward_embedded)."""
        x, redness = self.patches(frame, cands)
        return (*self.forward(x, floor), redness)

    def patches(self, frame: np.ndarray, cands: list[IndexCandidate]) -> tuple[np.ndarray, np.ndarray]:
        """`cut_cnn_patches` at the size this model's networks read."""
        return cut_cnn_patches(frame, cands, self.size)

    def forward(self, x: np.ndarray, floor: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(N, 3, h, w) patches -> mean rank (N, 14) and suit (N, 5) probabilities."""
        rank, suit, _ = self.forward_embedded(x, floor)
        return rank, suit

    def forward_embedded(self, x: np.ndarray, floor: float | None = None
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(N, 3, h, w) patches -> mean rank (N, 14) and suit (N, 5) probabilities and the first
        member's (N, D) hidden-layer embedding, one batched pass per member.

        Cascade (speed): later members only see the patches that could still reach `floor`, the least
        confidence the caller will name (default: the model's threshold; a caller naming cards at a lower
        threshold must say so, or the patches between the two would be judged by the first member alone).
        With k of m members done, a card's mean probability is at most (sum so far + m - k) / m; patches
        whose bound for rank x suit stays below the floor keep the mean of the members done so far (they
        cannot be named either way; only their junk-vs-unknown verdict may differ slightly)."""
        floor = self.threshold if floor is None else floor
        if not len(x):
            return np.zeros((0, 14)), np.zeros((0, 5)), np.zeros((0, 0), np.float32)
        m = len(self.nets)
        rank, suit = np.zeros((len(x), 14)), np.zeros((len(x), 5))
        done = np.zeros(len(x))
        live = np.arange(len(x))
        embedding: np.ndarray = np.zeros((0, 0), np.float32)
        for k, net in enumerate(self.nets):
            if not len(live):
                break
            patches = {"patch": np.ascontiguousarray(x[live])}
            if k == 0:  # the first member sees every patch: its embedding costs one more output
                r, s, embedding = net.run(["rank", "suit", "embedding"], patches)
            else:
                r, s = net.run(["rank", "suit"], patches)
            rank[live] += softmax(r)
            suit[live] += softmax(s)
            done[live] += 1
            left = m - k - 1
            best = (rank[live, :-1].max(1) + left) * (suit[live, :-1].max(1) + left) / (m * m)
            live = live[best >= floor]
        return rank / done[:, None], suit / done[:, None], embedding.reshape(len(x), -1)


def one_thread_session(path: Path) -> ort.InferenceSession:
    """An ONNX Runtime session of the network at `path` on one thread; a clear ValueError if it cannot load."""
    return _session(path, _read_network(path))


def _read_network(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot load card model {path}: {exc}") from exc


def _session(path: Path, network: bytes) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    try:
        return ort.InferenceSession(network, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ONNX Runtime's errors (bad protobuf, bad graph) share no base
        raise ValueError(f"cannot load card model {path}: {exc}") from exc


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
