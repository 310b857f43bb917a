"""Mended labels of the shared ammememe_roboflow photos, each checked by eye (`label_fixes.csv`): cards lying in
a photo that its labels leave out (a neighbouring card at the frame's edge, both or one index plainly
readable; a 3S in the middle of an overhead frame; a 3S in a fan whose index box is labelled 4S, the
photo's 4S lying elsewhere) and one card labelled as another (a 3C labelled 4C: its index reads 3, its face
shows three clubs). Read right, they counted as confidently wrong cards; the
measurement scripts (`casts.py`) score against the mended labels unless asked for the upstream ones.
"""
from __future__ import annotations

import csv
from pathlib import Path

FIXES = Path(__file__).with_name("label_fixes.csv")


def mended(truth: dict[str, list[str]], fixes: Path = FIXES) -> dict[str, list[str]]:
    """`truth` (path -> card names) with each fix applied: its card added, or put in place of the card in
    `was`. A fix whose `was` is not among its photo's labels is refused, naming the photo (the labels it
    mends have changed)."""
    out = {path: list(cards) for path, cards in truth.items()}
    with fixes.open(newline="") as f:
        for row in csv.DictReader(f):
            cards = out.get(row["path"])
            if cards is None:
                continue  # a photo outside the set being scored
            if row["was"]:
                if row["was"] not in cards:
                    raise ValueError(f"{fixes.name}: {row['path']} has no {row['was']} label to mend")
                cards.remove(row["was"])
            cards.append(row["rank"] + row["suit"])
    return out
