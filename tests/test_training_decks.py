"""The measure on deck designs never trained on (vision/training/decks.py): rasterised cards are laid on
white at face size, the listed designs are loaded without their left-out cards, and the frames show 8
separated cards of the design with their truth. Drawn designs stand in for the rasterised SVG themes
(those need Debian's theme packages)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cnn import DEFAULT_CNN, CnnModel
from vision.deck import PIQUET_DECK
from vision.readings import UNKNOWN, CardReading
from vision.recognize import Recognizer, in_colour
from vision.synthetic import FACE_H, FACE_W, SceneStyle
from vision.training.crops import save_crop
from vision.training.decks import (Design, Scene, fanned_cards, load_designs, load_face, main, separated_cards,
                                   wrong_readings)
from vision.training.model_folder import recognizer_from

CARDS = ("2H", "5S", "7D", "10C", "JS", "QH", "KD", "AC", "9S")


def _drawn_card(card: str) -> np.ndarray:
    """A card as svg_decks.py writes it: BGRA, opaque card with its rank in the corner, transparent margin."""
    bgra = np.zeros((420, 300, 4), np.uint8)
    bgra[6:414, 6:294] = (255, 255, 255, 255)
    ink = (30, 30, 200, 255) if card[-1] in "HD" else (20, 20, 20, 255)
    cv2.putText(bgra, card, (14, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.2, ink, 3)
    return bgra


def _write_design(root: Path, name: str, cards: tuple[str, ...]) -> None:
    (root / name).mkdir(parents=True)
    for card in cards:
        cv2.imwrite(str(root / name / f"{card}.png"), _drawn_card(card))


def test_a_rasterised_card_is_laid_on_white_at_face_size(tmp_path: Path) -> None:
    bgra = np.zeros((420, 300, 4), np.uint8)
    bgra[20:400, 20:280] = (0, 0, 255, 255)  # an opaque red card inside a transparent margin
    cv2.imwrite(str(tmp_path / "AS.png"), bgra)
    face = load_face(tmp_path / "AS.png")
    assert face.shape == (FACE_H, FACE_W, 3)
    assert face[0, 0].tolist() == [255, 255, 255]
    assert face[FACE_H // 2, FACE_W // 2].tolist() == [0, 0, 255]
    cv2.imwrite(str(tmp_path / "QS.png"), bgra[20:400, 20:280, :3])  # cairo writes a wholly opaque card as RGB
    assert load_face(tmp_path / "QS.png")[0, 0].tolist() == [0, 0, 255]
    cv2.imwrite(str(tmp_path / "KS.png"), bgra[:, :, 0])
    with pytest.raises(ValueError, match="KS.png: not a BGR\\(A\\) card image"):
        load_face(tmp_path / "KS.png")


def test_the_listed_designs_are_loaded_without_their_left_out_cards(tmp_path: Path) -> None:
    _write_design(tmp_path, "german", CARDS)
    _write_design(tmp_path, "unlisted", CARDS)
    designs = load_designs(tmp_path, {"german": frozenset({"JS", "QH"}), "absent": frozenset()})
    assert [d.name for d in designs] == ["german"]
    assert sorted(designs[0].faces) == sorted(set(CARDS) - {"JS", "QH"})


def test_frames_show_eight_separated_cards_of_the_design_with_their_truth(tmp_path: Path) -> None:
    _write_design(tmp_path, "drawn", CARDS)
    [design] = load_designs(tmp_path, {"drawn": frozenset()})
    frames = separated_cards(design, 3)
    assert len(frames) == 3
    for frame, truth, _ in frames:
        assert frame.shape == (720, 1280, 3)
        assert len(truth) == len(set(truth)) == 8 and set(truth) <= set(CARDS)
        paper = (frame.min(axis=2) > 170).astype(np.uint8)  # the drawn cards' white faces
        n, _, stats, _ = cv2.connectedComponentsWithStats(paper)
        assert sum(stats[1:, cv2.CC_STAT_AREA] > 5000) == 8  # eight cards, none touching another
    assert [s.truth for s in frames] == [s.truth for s in separated_cards(design, 3)]  # the same frames every run
    small = separated_cards(design, 3, card_width=70)  # the same tables, light and cards, only smaller
    assert [s.style.card_width for s in small] == [70] * 3
    assert [replace(s.style, card_width=0) for s in small] == [
        replace(s.style, card_width=0) for s in frames]
    assert [s.truth for s in small] == [s.truth for s in frames]



def test_a_light_table_is_nearly_as_bright_as_the_cards_and_the_rest_is_drawn_alike(tmp_path: Path) -> None:
    """`--table light`: the same cards, sizes, tilts, light and blur, on tables of 170-235 a channel."""
    _write_design(tmp_path, "drawn", CARDS)
    [design] = load_designs(tmp_path, {"drawn": frozenset()})
    dark, light = separated_cards(design, 3), separated_cards(design, 3, table="light")
    assert all(170 <= v < 236 for s in light for v in s.style.table_bgr)
    assert all(v < 160 for s in dark for v in s.style.table_bgr)
    def untabled(scenes: list[Scene]) -> list[SceneStyle]:
        return [replace(s.style, table_bgr=(0, 0, 0)) for s in scenes]
    assert untabled(light) == untabled(dark)
    assert [s.truth for s in light] == [s.truth for s in dark]

def test_fans_show_the_designs_cards_in_two_fans(tmp_path: Path) -> None:
    """Frames of two fans of distinct cards of the design (a design of 9 cards: 5 and 4), each fan one
    region of overlapping cards, with their truth, the same every run."""
    _write_design(tmp_path, "drawn", CARDS)
    [design] = load_designs(tmp_path, {"drawn": frozenset()})
    frames = fanned_cards(design, 2)
    for frame, truth, _ in frames:
        assert frame.shape == (720, 1280, 3)
        assert len(truth) == len(set(truth)) == len(CARDS) and set(truth) <= set(CARDS)
        paper = (frame.min(axis=2) > 170).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(paper)
        assert sum(stats[1:, cv2.CC_STAT_AREA] > 5000) == 2  # two fans, each one region of overlapping cards
    assert [s.truth for s in frames] == [s.truth for s in fanned_cards(design, 2)]  # the same frames every run


def test_the_command_measures_fans_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_design(tmp_path, "svg-standard", CARDS)
    assert main([str(tmp_path), "--frames", "1", "--layout", "fan"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(f"svg-standard: {len(CARDS)} cards, ")


def test_a_design_with_fewer_cards_shows_them_all() -> None:
    face = np.full((FACE_H, FACE_W, 3), 255, np.uint8)
    design = Design("small", {"AS": face, "KH": face})
    [(_, truth, _)] = separated_cards(design, 1)
    assert sorted(truth) == ["AS", "KH"]


def test_the_command_names_the_missing_rasterisation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([str(tmp_path)])
    assert exit_.value.code == 2
    assert "none of the listed designs is there (run svg_decks.py first)" in capsys.readouterr().err


def test_the_command_reports_every_design_and_the_total(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_design(tmp_path, "svg-standard", CARDS)  # a listed design's folder, with drawn cards
    assert main([str(tmp_path), "--frames", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("svg-standard: 16 cards, ")
    assert lines[1].startswith("all 1 designs: 16 cards, ")


def test_the_command_measures_grey_frames_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`--grey`: the recognizer sees the frames as a grey camera shows them (no colour to check suits by)."""
    _write_design(tmp_path, "svg-standard", CARDS)
    seen: list[bool] = []
    read = Recognizer.read
    monkeypatch.setattr(Recognizer, "read", lambda self, frame: seen.append(in_colour(frame)) or read(self, frame))
    assert main([str(tmp_path), "--frames", "1", "--grey"]) == 0
    assert seen == [False]
    assert main([str(tmp_path), "--frames", "1"]) == 0
    assert seen == [False, True]
    assert capsys.readouterr().out.count("all 1 designs: ") == 2


def test_the_command_reads_calibrated_to_each_frames_card_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`--calibrated`: each frame is read as a table calibrated to its card size would read it."""
    _write_design(tmp_path, "svg-standard", CARDS)
    glyphs: list[tuple[float, float] | None] = []
    read = Recognizer.read
    monkeypatch.setattr(Recognizer, "read", lambda self, frame: glyphs.append(self.glyph_px) or read(self, frame))
    assert main([str(tmp_path), "--frames", "2", "--calibrated"]) == 0
    [design] = load_designs(tmp_path)
    assert glyphs == [s.calibration().glyph_px() for s in separated_cards(design, 2)]
    assert glyphs[0] != glyphs[1]  # each frame its own card size
    assert main([str(tmp_path), "--frames", "1"]) == 0
    assert glyphs[-1] is None
    assert capsys.readouterr().out.count("all 1 designs: ") == 2


def test_the_command_lays_out_and_reads_the_chosen_decks_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """`--deck 32`: only the design's 7..A are laid out, read by a recognizer of that deck, also calibrated."""
    _write_design(tmp_path, "svg-standard", CARDS)
    assert sorted(load_designs(tmp_path, deck=PIQUET_DECK)[0].faces) == ["10C", "7D", "9S", "AC", "JS", "KD", "QH"]
    decks: list[str] = []
    read = Recognizer.read
    monkeypatch.setattr(Recognizer, "read", lambda self, frame: decks.append(self.deck.name) or read(self, frame))
    assert main([str(tmp_path), "--frames", "1", "--deck", "32", "--calibrated"]) == 0
    assert main([str(tmp_path), "--frames", "1"]) == 0
    assert decks == ["32", "52"]
    assert "svg-standard: 7 cards, " in capsys.readouterr().out


def test_the_command_measures_the_frames_under_a_cast(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`--cast warm`: the recognizer sees the frames under the casts' warm lamp (blue taken out)."""
    _write_design(tmp_path, "svg-standard", CARDS)
    blue_share: list[float] = []
    read = Recognizer.read

    def watched(self: Recognizer, frame: np.ndarray) -> list[CardReading]:
        blue_share.append(float(frame[..., 0].mean() / frame.mean()))
        return read(self, frame)
    monkeypatch.setattr(Recognizer, "read", watched)
    assert main([str(tmp_path), "--frames", "1", "--cast", "warm"]) == 0
    assert main([str(tmp_path), "--frames", "1"]) == 0
    assert blue_share[0] < 0.8 * blue_share[1]
    assert capsys.readouterr().out.count("all 1 designs: ") == 2


def test_only_the_named_designs_are_measured(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_design(tmp_path, "svg-standard", CARDS)
    _write_design(tmp_path, "ar-anglo", CARDS)
    assert main([str(tmp_path), "--frames", "1", "--only", "ar-anglo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ar-anglo: 8 cards, ") and "svg-standard" not in out
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--only", "ar-anglo,no-such-deck"])
    assert "--only: no design no-such-deck" in capsys.readouterr().err


def test_a_card_named_wrong_is_listed_and_its_crop_saved(tmp_path: Path) -> None:
    """The readings the truth does not hold are the wrong ones (a card read twice: its second reading),
    and each is saved as the frame around its quad."""
    quad = [[100.0, 50.0], [200.0, 50.0], [200.0, 190.0], [100.0, 190.0]]
    read = [CardReading(name, 0.99, quad) for name in ("QS", "QS", UNKNOWN, "7H")]
    assert [c.card for c in wrong_readings(["QS", "2C"], read)] == ["QS", "7H"]
    frame = np.zeros((300, 400, 3), np.uint8)
    frame[50:190, 100:200] = 255
    save_crop(frame, read[3], tmp_path / "wrong" / "x_0_7H.png")
    crop = cv2.imread(str(tmp_path / "wrong" / "x_0_7H.png"))
    assert crop.shape == (140 + 70, 100 + 70, 3)  # a quarter of the card's longer side added each way
    assert crop[105, 85].tolist() == [255, 255, 255] and crop[10, 10].tolist() == [0, 0, 0]


def test_a_folder_of_retrained_networks_reads_the_deck_in_play(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """--models: the folder's networks (none here: the shipped ones) with the deck in play; with --model
    (a deck enrolled over the folder's CNN), that model in the CNN's place and the folder's verifiers."""
    assert recognizer_from(tmp_path, PIQUET_DECK).deck == PIQUET_DECK
    enrolled = CnnModel()
    assert recognizer_from(tmp_path, PIQUET_DECK, enrolled).model is enrolled
    _write_design(tmp_path, "ar-anglo", CARDS)
    assert main([str(tmp_path), "--model", str(DEFAULT_CNN), "--models", str(tmp_path), "--frames", "1"]) == 0
    assert "all 1 designs: 8 cards" in capsys.readouterr().out
