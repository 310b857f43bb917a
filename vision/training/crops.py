"""A card reading's crop saved for a look by eye (the measurements' wrong cards)."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.readings import CardReading


def save_crop(frame: np.ndarray, card: CardReading, path: Path) -> None:
    """The frame around a card reading's quad (a quarter of its size added each side), for a look by eye."""
    quad = np.array(card.quad, np.float32)
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    pad = 0.25 * max(x1 - x0, y1 - y0)
    h, w = frame.shape[:2]
    crop = frame[max(int(y0 - pad), 0):min(int(y1 + pad), h), max(int(x0 - pad), 0):min(int(x1 + pad), w)]
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), crop)
