"""`cardtable vision ...`: detect, eval, capture, calibrate, enroll, deckcheck, watch."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import cv2

from controller.arguments import number, whole
from controller.output_files import check_output, write_atomically, write_text_atomically
from vision.calibration import Calibration, calibrate
from vision.deck import DECKS, Deck, deck_named
from vision.deck_check import check_deck
from vision.detect import Detection, Detector
from vision.enroll import (EnrolledModel, ReadBack, enroll, enrollment_photos, is_enrolled_model, read_back,
                           what_enrolment_changes)
from vision.evaluate import SPLITS, evaluate, parse_size, read_manifest, resized, split_of
from vision.live_enroll import LiveEnrolment, parse_order
from vision.model import IndexModel
from vision.model_files import DEFAULT_MODEL, load_model
from vision.recognize import Recognizer
from vision.sources import ImageFolderSource, check_frame_size, frames, grab, load_image
from vision.synthetic import scene_calibration
from vision.tracking import ReaderTracker, TableTracker
from vision.observations import observation_to_json
from vision.watch import SYNTHETIC_STYLE, Watcher, open_source, stop_on_signals


def progress_bar(label: str) -> Any:
    def show(done: int, total: int) -> None:
        filled = int(30 * done / max(total, 1))
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def _recognizer(args: argparse.Namespace, cal: Calibration | None) -> Recognizer:
    model: IndexModel
    if getattr(args, "enroll", None):
        model = enroll(Path(args.enroll), _cnn_path(args.model), progress_bar("enrolling"))
    else:
        model = load_model(args.model)
    return Recognizer(model, threshold=args.threshold, glyph_px=cal.glyph_px() if cal else None,
                      card_area=cal.card_area if cal else None, deck=deck_named(args.deck))


def _calibration(args: argparse.Namespace) -> Calibration | None:
    return Calibration.load(args.calibration) if args.calibration else None


def cmd_detect(args: argparse.Namespace) -> int:
    cal = _calibration(args)
    detector = Detector(_recognizer(args, cal), cal)
    results: list[tuple[str, Detection | str]] = []  # per image, its detection or why it failed
    for path in args.images:
        try:
            results.append((path, detector.detect(load_image(path))))
        except ValueError as exc:
            results.append((path, str(exc)))
    failed = sum(isinstance(r, str) for _, r in results)
    status = 1 if failed else 0
    if failed:  # also on stderr: the results on stdout may be going to a file
        print(f"{args.command_name}: {failed} of {len(results)} images could not be read", file=sys.stderr)
    if args.json:
        print(json.dumps([{"image": path, **({"error": r} if isinstance(r, str) else r.to_json())}
                          for path, r in results], indent=2))
        return status
    for path, r in results:
        if isinstance(r, str):
            print(f"{path}: ERROR {r}")
            continue
        names = [f"{c.card}({c.confidence:.2f})" for c in r.cards]
        down = sum(g.count for g in r.face_down)
        print(f"{path}: {' '.join(names) or '-'}" + (f" +{down} face-down" if down else ""))
    return status


def cmd_eval(args: argparse.Namespace) -> int:
    size = _parse_size(args.resize) if args.resize else None  # checked before the models load
    manifest = Path(args.manifest)
    root = Path(args.root) if args.root else manifest.parent
    truth = {p: cards for p, cards in read_manifest(manifest).items()
             if (args.split is None or split_of(p) == args.split) and p.startswith(args.under or "")}
    if not truth:
        raise ValueError(f"no manifest rows in {manifest} match --split {args.split} --under {args.under}")
    cal = _calibration(args)
    detector = Detector(_recognizer(args, cal), cal)

    def load(p: str) -> Any:
        img = load_image(root / p)
        return img if size is None else resized(img, size)

    report = evaluate(sorted(truth.items()), load, lambda f: detector.detect(f).cards)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key in ("images", "labelled", "reported", "correct", "confidently_wrong", "wrong_read_twice", "precision",
                    "recall", "mean_ms"):
            print(f"{key:>18}: {report[key]}")
    return 0


def _parse_size(text: str, option: str = "--resize") -> tuple[int, int]:
    try:
        w, h = parse_size(text, option)
        check_frame_size(w, h, what=f"{option} {text}")
    except ValueError as exc:
        detail = str(exc) if str(exc).startswith(option) else f"{option} wants WIDTHxHEIGHT, got {text!r}"
        raise ValueError(detail) from None
    return w, h


def cmd_calibrate(args: argparse.Namespace) -> int:
    out = check_output(args.out, option="--out", inputs=(args.empty, args.card), force=args.force,
                       ours=_is_calibration)
    cal = calibrate(load_image(args.empty), load_image(args.card), seats=args.seats)
    write_text_atomically(out, cal.dumps())
    print(f"card {cal.card_width_px:.0f}x{cal.card_height_px:.0f} px, {len(cal.zones)} zones -> {args.out}")
    _warn_of_scale(cal)
    return 0


def _camera_size(args: argparse.Namespace) -> tuple[int, int] | None:
    return _parse_size(args.size, "--size") if args.size else None


def _is_calibration(path: Path) -> bool:
    """A file `calibrate` wrote (and may replace without --force): a JSON object with a card width."""
    try:
        with open(path, "rb") as stream:
            data = json.loads(stream.read(1 << 20))
    except ValueError:  # not JSON, or not UTF-8 (UnicodeDecodeError is a ValueError)
        return False
    return isinstance(data, dict) and "card_width_px" in data


def cmd_capture(args: argparse.Namespace) -> int:
    out = check_output(args.out, option="--out", inputs=(args.source,), force=args.force)
    if not cv2.haveImageWriter(str(out)):
        raise ValueError(f"--out {out}: not an image file name; end it in .png or .jpg")
    source = open_source(args.source, _camera_size(args))
    try:
        image = grab(source, skip=args.skip, timeout_s=args.timeout)
    finally:
        source.close()
    ok, encoded = cv2.imencode(out.suffix, image)
    if not ok:
        raise ValueError(f"--out {out}: OpenCV cannot write {out.suffix} images here; use .png")
    write_atomically(out, lambda stream: stream.write(encoded.tobytes()))
    print(f"{image.shape[1]}x{image.shape[0]} frame -> {args.out}")
    return 0


def _warn_of_scale(cal: Calibration | None) -> None:
    warning = cal.scale_warning() if cal else None
    if warning:
        print(f"cardtable vision: warning: {warning}", file=sys.stderr)


def _cnn_path(model: Path) -> Path:
    if Path(model).suffix not in (".json", ".onnx"):
        raise ValueError(f"enrolment builds on a CNN model (.json or .onnx), not {model} (default: {DEFAULT_MODEL})")
    return Path(model)


def cmd_enroll(args: argparse.Namespace) -> int:
    if (args.photos is None) == (args.source is None):
        raise ValueError("enroll wants either a folder/manifest of photos or --live --source SPEC")
    if args.source is not None and not args.live:
        raise ValueError("--source is for --live enrolment (or give a folder of photos instead)")
    deck = deck_named(args.deck)
    photos_in = Path(args.photos) if args.photos else Path(args.keep or Path(args.out).with_suffix(""))
    inputs = (args.photos, args.model, *(p for p, _ in enrollment_photos(photos_in))) if args.photos else (args.model,)
    out = check_output(args.out, option="--out", inputs=inputs, force=args.force, ours=is_enrolled_model)
    if args.live:
        model, back = _enroll_live(args, deck, photos_in)
    else:
        model, back = _enrolled(args, photos_in, deck, table_camera=args.table_camera)
    write_atomically(out, model.save)
    print(f"enrolled {len(model.prototypes.classes)} cards -> {args.out} (use it with --model {args.out}): "
          f"{what_enrolment_changes(photos_in, model)}")
    print(back.summary())
    return 0


def _enrolled(args: argparse.Namespace, photos: Path, deck: Deck, table_camera: bool) -> tuple[EnrolledModel, ReadBack]:
    """The deck enrolled from `photos`, and those photos read back by it (the test deal)."""
    model = enroll(photos, _cnn_path(args.model), progress_bar("enrolling"), table_camera)
    return model, read_back(model, photos, deck, progress_bar("reading back"))


def _enroll_live(args: argparse.Namespace, deck: Deck, folder: Path) -> tuple[EnrolledModel, ReadBack]:
    """Walk the dealer through the deck on the camera (vision/live_enroll.py), the views going to
    `folder`; enrol from them, and have each view the enrolled deck does not read back taken again, once."""
    if folder.exists() and any(folder.iterdir()):
        raise ValueError(f"{folder} is not empty: live enrolment writes its photos there (--keep DIR)")
    source = open_source(args.source, _camera_size(args))

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    def ask(question: str) -> str:
        sys.stderr.write(question)
        sys.stderr.flush()
        answer = sys.stdin.readline()
        if not answer:
            raise ValueError("no answer on standard input: enrolment stopped (use --order to enrol unattended)")
        return answer

    order = parse_order(args.order, deck) if args.order else None
    live = LiveEnrolment(folder, deck, ask, say, order, args.views, still_frames=isinstance(source, ImageFolderSource))
    try:
        captured = live.run(f.image for f in frames(source))
        if not captured.photos:
            raise ValueError("no card was enrolled: the source gave no view of a card")
        if captured.missing:
            say(f"not enrolled (fewer than {args.views} views): {', '.join(captured.missing)}")
        model, back = _enrolled(args, folder, deck, table_camera=True)
        failed = [folder / name for name in back.unread + [name for name, _ in back.wrong]]
        if failed and not getattr(source, "exhausted", False):
            say(f"{back.summary()}\nre-take: each card not read back, once more")
            retaken = live.retake(failed, (f.image for f in frames(source)))
            if retaken.missing:
                say(f"not re-taken: {', '.join(retaken.missing)}")
            model, back = _enrolled(args, folder, deck, table_camera=True)
    finally:
        source.close()
    return model, back


def cmd_deckcheck(args: argparse.Namespace) -> int:
    """Exit 0 when every card of the deck was read once and none twice, 1 otherwise (what failed printed)."""
    cal = _calibration(args)
    detector = Detector(_recognizer(args, cal), cal)
    result = check_deck((c.card for path in args.images for c in detector.detect(load_image(path)).cards),
                        deck_named(args.deck))
    print(json.dumps(result.to_json()) if args.json else result.summary())
    return 0 if result.passed else 1


def cmd_watch(args: argparse.Namespace) -> int:
    # the scripted synthetic game knows its own calibration
    synthetic = args.source.partition(":")[0] == "synthetic"
    cal = _calibration(args) or (scene_calibration(SYNTHETIC_STYLE) if synthetic else None)
    _warn_of_scale(cal)
    detector = Detector(_recognizer(args, cal), cal)
    # the deal reader's whole frame is its zone; no calibration, no zones: every card lands in
    # OFF_ZONE ("table"), the whole frame
    tracker = (ReaderTracker(detector.detect, k=args.k, n=args.n) if args.reader
               else TableTracker(detector.detect, cal.zones if cal else {}, k=args.k, n=args.n))
    watcher = Watcher(open_source(args.source, _camera_size(args)), tracker, max_frames=args.max_frames, fps=args.fps,
                      check=detector.check)
    try:
        with stop_on_signals(watcher):
            for t, obs in watcher:
                print(json.dumps(observation_to_json(t, obs)), flush=True)
    except KeyboardInterrupt:  # a second Ctrl-C while a camera read hangs; the source is closed anyway
        pass
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, without the exit-time flush error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def force_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--force", action="store_true", help="replace --out even if cardtable did not write it")


def register(subparsers: Any) -> None:
    vision = subparsers.add_parser("vision", help="read cards from the camera or photos")
    sub = vision.add_subparsers(dest="vision_command", required=True, metavar="ACTION")

    def common(p: argparse.ArgumentParser, enroll: bool = False, json_flag: bool = True) -> None:
        p.add_argument("--model", type=Path, default=DEFAULT_MODEL,
                       help="model: .json/.onnx CNN (default: generic) or enrolled .npz")
        p.add_argument("--threshold", type=number(0, 1, low_open=True), default=None,
                       help="confidence below which a card is unknown (above 0, at most 1)")
        p.add_argument("--calibration", type=Path, help="calibration JSON (card scale, table, zones)")
        p.add_argument("--deck", choices=sorted(DECKS), default="52",
                       help="the deck in play: 52 (A..K) or 32 (7..A, Färbeln); no other card is named")
        if json_flag:  # watch always prints JSON lines
            p.add_argument("--json", action="store_true", help="machine-readable output")
        if enroll:
            p.add_argument("--enroll", help="enrol the deck from this folder/manifest before evaluating")

    p = sub.add_parser("detect", help="read the cards in images")
    p.add_argument("images", nargs="+")
    common(p)
    p.set_defaults(func=cmd_detect)

    p = sub.add_parser("eval", help="precision/recall against a path,rank,suit manifest")
    p.add_argument("manifest")
    p.add_argument("--root", help="folder the manifest paths are relative to (default: its folder)")
    p.add_argument("--resize", help="resize every image first, e.g. 1138x640 to undo a dataset's stretching")
    p.add_argument("--split", choices=SPLITS,
                   help="only the images of this deterministic split (md5 of the file name: the held-out 'test')")
    p.add_argument("--under", help="only the manifest paths that start with this, e.g. single/")
    common(p, enroll=True)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("capture", help="save one frame of a camera (for calibrate and enroll)",
                       description="Save one frame of the source the table watches, at the size it watches at, "
                                   "so that calibration and enrolment photos match the live frames.")
    p.add_argument("--source", required=True, help="as for watch: picamera2, 0, /dev/videoN, a video, a folder")
    p.add_argument("--out", required=True, help="image file to write, e.g. empty.png")
    force_flag(p)
    p.add_argument("--size", help="ask the camera for WIDTHxHEIGHT, as watch will (default: its own)")
    p.add_argument("--skip", type=whole(0, 100_000), default=10, help="frames to let pass first (exposure settling)")
    p.add_argument("--timeout", type=number(0, 86_400), default=10.0, help="seconds to wait for an offline camera")
    p.set_defaults(func=cmd_capture)

    p = sub.add_parser("calibrate", help="card scale and zones from an empty-table frame and one card")
    p.add_argument("--empty", required=True, help="frame of the empty table")
    p.add_argument("--card", required=True, help="same view with one card lying on the table")
    p.add_argument("--seats", type=int, default=4, help="players around the table, 2..8 (the default zones)")
    p.add_argument("--out", default="calibration.json")
    force_flag(p)
    p.set_defaults(func=cmd_calibrate)

    p = sub.add_parser("enroll", help="learn this table's deck from photos of each card",
                       description="Enrol from photos named after their card, or --live: lay the deck on the "
                                   "table's camera one card at a time (in --order, or in any order, confirming "
                                   "each reading), --views views of each, moved or turned between views.")
    p.add_argument("photos", nargs="?", help="folder of photos named after their card (QS.jpg) or a manifest")
    p.add_argument("--live", action="store_true", help="enrol from --source, walking the dealer through the deck")
    p.add_argument("--table-camera", action="store_true",
                   help="the photos are frames of the table's own camera: learn the deck's own suit and rank glyphs "
                        "too (--live always does; from another camera they would deny right cards)")
    p.add_argument("--source", help="with --live: picamera2, 0, /dev/videoN, a video file or a folder of frames")
    p.add_argument("--size", help="with --live: ask the camera for WIDTHxHEIGHT (as watch will)")
    p.add_argument("--order", help="with --live: the cards in the order they will be laid, e.g. AS,2S,3S "
                                   "(default: any order, each reading confirmed)")
    p.add_argument("--views", type=whole(1, 20), default=3, help="with --live: views kept of each card")
    p.add_argument("--keep", help="with --live: folder for the views (default: --out without its suffix)")
    p.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="CNN to build on (default: generic)")
    p.add_argument("--out", default="enrolled.npz", help="the file to write, named exactly so")
    force_flag(p)
    p.add_argument("--deck", choices=sorted(DECKS), default="52",
                   help="the deck the photos show: 52 (A..K) or 32 (7..A); its cards without a photo are listed")
    p.set_defaults(func=cmd_enroll)

    p = sub.add_parser("deckcheck", help="a test deal: is every card of the deck read once, none twice?",
                       description="Read the whole deck spread face up (in one photo or several, each card in "
                                   "one of them): every card of the deck in play must be read once and none twice. "
                                   "Prints what failed; exit code 1 when it failed.")
    p.add_argument("images", nargs="+", help="photos of the spread deck")
    common(p)
    p.set_defaults(func=cmd_deckcheck)

    p = sub.add_parser("watch", help="live loop: print card observations as JSON lines",
                       description="Read frames, track the table, print each observation and camera status "
                                   "change as one JSON line. Without --calibration there are no zones: the whole "
                                   "frame is one zone 'table', and face-down cards are not counted (the synthetic "
                                   "source brings its own calibration).")
    p.add_argument("--source", required=True,
                   help="picamera2, a camera index (0) or /dev/videoN, a video file, a folder of images, "
                        "or synthetic[:SEED] (a scripted hand)")
    common(p, json_flag=False)
    p.add_argument("--size", help="ask the camera for WIDTHxHEIGHT, e.g. 1280x720 (default: picamera2 1280x720, "
                                  "a webcam its own); calibrate at the same size")
    p.add_argument("--reader", action="store_true",
                   help="the source is the deal reader: each card shown to it is placed in the zone 'reader' "
                        "(its whole frame; a calibration gives only the card scale)")
    p.add_argument("--k", type=int, default=3, help="an item counts when seen in k of the last n reads")
    p.add_argument("--n", type=int, default=5, help="reads per settled scene")
    p.add_argument("--max-frames", type=int, help="stop after this many good frames")
    p.add_argument("--fps", type=number(0, 1000, low_open=True), help="process at most this many frames per second")
    p.set_defaults(func=cmd_watch)
