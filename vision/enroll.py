"""Enrolment: learn the table's own deck from photos of each card, on top of the shipped CNN (no training,
no torch): the CNN's hidden-layer embedding of each card's corner indices becomes that card's prototype,
and in enrolled mode a card is named when the CNN and the nearest prototype agree, and a card the recognizer
left unknown when its corners are all nearest to one card's enrolled views (vision/prototypes.py), and so
is an index the CNN declined (vision/declined.py).

The enrolled file (.npz) holds the prototypes, every enrolled corner's embedding, the calibrated margin and
low threshold, and which CNN manifest they were computed with (the embedding only means something for that
network). A file written before the views were kept still loads: it names unknown cards by its prototypes
(one view per card); enrolling again keeps every view.
"""
from __future__ import annotations

import copy
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from vision.cnn import DEFAULT_CNN, CnnModel
from vision.deck import FULL_DECK, Deck
from vision.glyph_views import DeckGlyphs, GlyphSample
from vision.glyphs import IndexCandidate
from vision.manifest import manifest_rows
from vision.model import JUNK_RANK, JUNK_SUIT, RANKS, SUITS
from vision.prototypes import NAME_SUIT, VETO_LEAD, Prototypes, Sample, calibrate, card_class, class_name
from vision.readings import UNKNOWN, CardReading
from vision.declined import FrameCandidates, may_name, name_declined
from vision.outline import CardOutline, find_outlines
from vision.recognize import Recognizer, general_candidates, in_colour, index_candidates
from vision.working_scale import expected_length, working_scale
from vision.sources import IMAGE_SUFFIXES, load_image

Progress = Callable[[int, int], None]


def parse_card(name: str) -> tuple[int, int]:
    """'QS' / '10h' / 'qs_2' -> (rank index, suit index); ValueError for anything else."""
    stem = name.split("_")[0].split("-")[0].upper()
    rank, suit = stem[:-1], stem[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card name: {name!r} (expected e.g. QS, 10H, 7C_2.jpg)")
    return RANKS.index(rank), SUITS.index(suit)


def enrollment_photos(source: Path) -> list[tuple[Path, tuple[int, int]]]:
    """A folder of photos named after their card (QS.jpg, 10H_2.png) or a path,rank,suit manifest."""
    if source.is_dir():
        photos = sorted(p for p in source.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not photos:
            raise ValueError(f"no photos in {source}: one photo per card, named after it (QS.jpg, 10H_2.png)")
        return [(p, parse_card(p.stem)) for p in photos]
    if source.is_file():
        listed = []
        for row in manifest_rows(source):
            try:
                listed.append((source.parent / row.path, parse_card(row.rank + row.suit)))
            except ValueError as exc:
                raise ValueError(f"{source}: line {row.line}: {exc}") from None
        paths = [path for path, _ in listed]
        several = sorted({str(path) for path in paths if paths.count(path) > 1})
        if several:  # the photo's label names the card whose corners it shows: one card per photo
            raise ValueError(f"{source}: enrolment wants one card per photo, {several[0]} has several")
        return listed
    raise ValueError(f"no such enrolment folder or manifest: {source}")


def photo_samples(base: CnnModel, photos: list[tuple[Path, tuple[int, int]]], progress: Progress | None = None,
                  corners: int = 2) -> tuple[Sample, GlyphSample]:
    """`view_samples` of photo files."""
    views = ((load_image(path), card) for path, card in photos)
    return view_samples(base, views, len(photos), progress, corners)


def view_samples(base: CnnModel, views: Iterable[tuple[np.ndarray, tuple[int, int]]], count: int,
                 progress: Progress | None = None, corners: int = 2) -> tuple[Sample, GlyphSample]:
    """Every CNN-named candidate of every view (a frame showing one card, and that card), its embedding,
    and which are the view's `corners` most index-like non-overlapping candidates (whatever the CNN calls
    them: the label is the view's); and those corners' glyphs (glyph_views.py)."""
    collected = EnrolmentViews(base)
    for i, (frame, (rank, suit)) in enumerate(views):
        cands, _, outlines = index_candidates(frame)  # as the recognizer finds them: a lone card's by its outline
        pr, ps, emb, corner = _scored(base, frame, cands, corners)
        if outlines and corner.sum() < corners:
            # its index is not where the outline puts it: the general proposer over the card, as the
            # recognizer hands over such a card (courts whose letters run into the art)
            rest = find_outlines(frame)[1]
            cands = general_candidates(frame, None, rest, [], unread=True,
                                       scale=working_scale(expected_length(None, outlines)))
            pr, ps, emb, corner = _scored(base, frame, cands, corners)
        collected.add(frame, cands, (pr, ps, emb), corner, rank * len(SUITS) + suit, i)
        if progress:
            progress(i + 1, count)
    return collected.samples()


class EnrolmentViews:
    """Enrolment views as they are collected: the CNN-named candidates of each view and its corners
    (prototypes.Sample), and the corners' glyphs (glyph_views.GlyphSample)."""

    def __init__(self, base: CnnModel) -> None:
        self.base = base
        self.cols: dict[str, list[np.ndarray]] = {k: [] for k in ("photo", "label", "cnn", "conf", "embedding", "corner")}
        self.glyphs: list[GlyphSample] = []

    def add(self, frame: np.ndarray, cands: list[IndexCandidate], scored: tuple[np.ndarray, np.ndarray, np.ndarray],
            corner: np.ndarray, card: int, view: int) -> None:
        """View number `view` of card class `card`: its candidates, their CNN outputs (rank and suit
        probabilities, embeddings) and which are its corners."""
        pr, ps, emb = scored
        r, s = pr[:, :JUNK_RANK].argmax(1), ps[:, :JUNK_SUIT].argmax(1)
        if corner.any():
            self.glyphs.append(GlyphSample.cut(frame, [cands[j] for j in np.flatnonzero(corner)], card, view))
        keep = corner | (pr.argmax(1) != JUNK_RANK) & (ps.argmax(1) != JUNK_SUIT)
        if keep.any():
            self.cols["photo"].append(np.full(int(keep.sum()), view))
            self.cols["label"].append(np.full(int(keep.sum()), card))
            self.cols["cnn"].append(card_class(r, s)[keep])
            self.cols["conf"].append((pr[np.arange(len(r)), r] * ps[np.arange(len(s)), s])[keep])
            self.cols["embedding"].append(emb[keep])
            self.cols["corner"].append(corner[keep])

    def samples(self) -> tuple[Sample, GlyphSample]:
        if not self.glyphs:
            raise ValueError("no card index found in any enrolment photo")
        return Sample(**{k: np.concatenate(v) for k, v in self.cols.items()}), GlyphSample.joined(self.glyphs)


def _scored(base: CnnModel, frame: np.ndarray, cands: list[IndexCandidate], corners: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The CNN's rank and suit probabilities, the embeddings and the mask of the `corners` most index-like."""
    pr, ps, emb = base.forward_embedded(base.patches(frame, cands)[0])
    return pr, ps, emb, _most_index_like(cands, (1 - pr[:, JUNK_RANK]) * (1 - ps[:, JUNK_SUIT]), corners)


def _most_index_like(cands: list[IndexCandidate], index_like: np.ndarray, count: int, floor: float = 0.3
                     ) -> np.ndarray:
    """Mask of the `count` most index-like candidates sharing no glyph (a card's two corners)."""
    taken = np.zeros(len(cands), bool)
    used: set[int] = set()
    for j in np.argsort(-index_like, kind="stable"):
        keys = {id(cands[j].rank), id(cands[j].suit)}
        if index_like[j] < floor or taken.sum() == count:
            break
        if not keys & used:
            taken[j] = True
            used |= keys
    return taken


class EnrolledModel:
    """The generic CNN plus the deck's prototypes (an IndexModel: the recognizer runs it unchanged)."""

    def __init__(self, base_path: Path, prototypes: Prototypes, glyphs: DeckGlyphs | None = None) -> None:
        # the cascade may only skip the second member on patches that cannot reach the low threshold
        self.base = CnnModel(base_path, threshold=prototypes.low_threshold)
        self.base_path = Path(base_path)
        self.prototypes = prototypes
        self.glyphs = glyphs or DeckGlyphs(None, None)
        self.threshold = prototypes.threshold
        # every candidate scored on the frame being read, with its embedding and ink (`name_unknown` names
        # the ones no reading kept: their embeddings come free with the recognizer's own pass)
        self._scored = FrameCandidates()

    def without_photo(self, photo: int) -> "EnrolledModel":
        """This model without the views of enrolment photo number `photo` (the same networks)."""
        held_out = copy.copy(self)
        held_out.prototypes = self.prototypes.without_photo(photo)
        held_out.glyphs = self.glyphs.without_photo(photo)
        held_out._scored = FrameCandidates()  # its own frame's candidates, not shared with this model's reads
        return held_out

    def score(self, frame: np.ndarray, cands: list[IndexCandidate], floor: float | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x, redness = self.base.patches(frame, cands)
        # agreement raises CNN confidences from low_threshold up, never those below it
        low = self.prototypes.low_threshold
        pr, ps, emb = self.base.forward_embedded(x, None if floor is None else min(floor, low))
        self._scored.add(frame, cands, emb, redness)
        return (*self.prototypes.adjust(pr, ps, emb), redness)

    def name_unknown(self, frame: np.ndarray, cards: list[CardReading], deck: Deck = FULL_DECK,
                     outlines: Sequence[CardOutline] = ()) -> None:
        """First make unknown, in place, each named card whose corner indices are all nearest to another
        card's enrolled views (Prototypes.names, VETO_LEAD): the CNN and the deck's own glyphs disagree
        (gnomangelo's QD read 6D on both corners at 1.0 in a fan, its corners nearest the enrolled QD's
        views; an unseen deck's 3s read as 5s, nearest the 3's views by a hair). Then name each
        unknown card, but those, whose corner indices the views all name alike, when the CNN reads that
        suit at NAME_SUIT or more on every corner (an unseen typeface's ranks are what it misreads), every
        corner's ink is of that suit's colour, no corner guesses another card and no card of that name is
        read in the frame. (Photos named after the wrong card would otherwise teach: a 4H enrolled as 4S
        named a held-out 4H '4S'; its red ink stops that.) Then the candidates no reading kept, by the
        views too (vision/declined.py; `outlines`: the frame's isolated cards). Last, whatever named it, a
        card is unknown whose suit or rank the deck's own glyphs deny on every corner (glyph_views.py)."""
        scored, self._scored = self._scored.of(frame), FrameCandidates()
        contradicted = self._unname_contradicted(cards, scored)
        read = {c.card for c in cards}
        colourful = in_colour(frame)
        for card in cards:
            if card.card != UNKNOWN or not card.corners or id(card) in contradicted:
                continue
            x, redness = self.base.patches(frame, [rd.candidate for rd in card.corners])
            _, suit_p, embedding = self.base.forward_embedded(x, 1.0)  # the embedding: the first member's
            named = self.prototypes.name(embedding)
            if named is None or (suit_p[:, named % len(SUITS)] < NAME_SUIT).any():
                continue  # the CNN's own suit head must agree on every corner (a 3D under a blue cast: 3S at 0.7)
            name = class_name(named)
            if not may_name(named, redness, read, deck, colourful) or \
                    any(rd.guess not in (None, name) for rd in card.corners):
                continue
            card.card, card.confidence = name, self.threshold
            read.add(name)
        if scored is not None:
            name_declined(self.base, self.prototypes, self.threshold, frame, cards, scored, deck, outlines)
        self._unname_by_glyphs(frame, cards)

    def _unname_contradicted(self, cards: list[CardReading], scored: FrameCandidates | None) -> set[int]:
        """Make unknown each named card whose corners' embeddings (scored on this frame) are all nearest to
        one other card's views (VETO_LEAD); the ids of those cards."""
        if scored is None:
            return set()
        row = {id(c): i for i, c in enumerate(scored.cands)}
        embedding = np.concatenate(scored.embedding)
        named = [c for c in cards
                 if c.card != UNKNOWN and c.corners and all(id(rd.candidate) in row for rd in c.corners)]
        corners = [embedding[[row[id(rd.candidate)] for rd in c.corners]] for c in named]
        views = self.prototypes.names(corners, VETO_LEAD)
        out = set()
        for card, by_views in zip(named, views):
            if by_views is not None and class_name(by_views) != card.card:
                card.card = UNKNOWN
                out.add(id(card))
        return out

    def _unname_by_glyphs(self, frame: np.ndarray, cards: list[CardReading]) -> None:
        """Make unknown each named card, however named, whose suit or rank the deck's own glyphs deny
        (glyph_views.py)."""
        named = [card for card in cards if card.card != UNKNOWN]
        for card, doubted in zip(named, self.glyphs.doubted(frame, [([rd.candidate for rd in card.corners], card.card)
                                                                    for card in named])):
            if doubted:
                card.card = UNKNOWN

    def score_generic(self, frame: np.ndarray, cands: list[IndexCandidate], floor: float | None = None
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The CNN's probabilities without the prototypes (the recognizer's jittered re-check)."""
        return self.base.score(frame, cands, floor)

    def save(self, target: Path | BinaryIO) -> None:
        """Write the enrolled deck to a file named exactly `target` (no suffix added), or to a binary stream."""
        p = self.prototypes
        if isinstance(target, Path):
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as stream:
                return self.save(stream)
        arrays: dict[str, Any] = dict(
            base=str(self.base_path.resolve()), base_digest=self.base.digest, classes=p.classes,
            means=p.means.astype(np.float32), views=p.views.astype(np.float32), view_class=p.view_class,
            agree_margin=p.agree_margin, veto_margin=p.veto_margin, low_threshold=p.low_threshold,
            threshold=p.threshold, **self.glyphs.arrays())
        np.savez_compressed(target, **arrays)

    @classmethod
    def load(cls, path: Path) -> "EnrolledModel":
        if not Path(path).is_file():
            raise ValueError(f"cannot load card model {path}: no such file")
        if not zipfile.is_zipfile(path):  # np.load would try it as a pickle and advise loading it unsafely
            raise ValueError(f"cannot load card model {path}: not a model (a .json or .onnx CNN, or an .npz "
                             f"from 'cardtable vision enroll')")
        try:
            with np.load(path, allow_pickle=False) as z:
                agree, veto, low, threshold = (float(z[k]) for k in (
                    "agree_margin", "veto_margin", "low_threshold", "threshold"))
                protos = Prototypes(z["classes"], z["means"], agree, veto, low, threshold)
                if "views" in z.files:  # older files have none: their means serve as one view per card
                    protos = replace(protos, views=z["views"], view_class=z["view_class"])
                glyphs = DeckGlyphs.from_arrays(z)
                base = Path(str(z["base"]))
                digest = str(z["base_digest"]) if "base_digest" in z.files else "none recorded"
        except KeyError as exc:
            raise ValueError(f"cannot load card model {path}: an .npz without {exc}, not an enrolled deck") from exc
        except (OSError, ValueError, TypeError, EOFError, zipfile.BadZipFile) as exc:
            # numpy's text may advise unpickling; never pass that on
            raise ValueError(f"cannot load card model {path}: not an enrolled deck "
                             f"({type(exc).__name__})") from exc
        # the package may have moved since enrolment: fall back to the shipped CNN of the same name
        model = cls(base if base.exists() else DEFAULT_CNN.with_name(base.name), protos, glyphs)
        if model.base.digest != digest:  # e.g. an update shipped new networks: the embeddings changed
            raise ValueError(f"cannot load card model {path}: it was enrolled with other card networks "
                             f"({digest}, now {model.base.digest}); run 'cardtable vision enroll' again")
        return model


def is_enrolled_model(path: Path) -> bool:
    """A file `enroll` wrote (and may replace without --force): an .npz holding prototypes."""
    try:
        with zipfile.ZipFile(path) as archive:
            return {"means.npy", "classes.npy", "base_digest.npy"} <= set(archive.namelist())
    except (OSError, zipfile.BadZipFile):
        return False


def enroll(source: Path, base_path: Path = DEFAULT_CNN, progress: Progress | None = None,
           table_camera: bool = False) -> EnrolledModel:
    """Prototypes of the deck photographed in `source`, calibrated leave-one-photo-out; and, when the photos
    are frames of the table's own camera, the deck's own glyphs (glyph_views.py: learnt in another camera
    they deny right cards)."""
    base = CnnModel(base_path)
    samples, glyphs = photo_samples(base, enrollment_photos(source), progress)
    return enrolled(base, samples, glyphs if table_camera else None)


def enroll_views(views: list[tuple[np.ndarray, tuple[int, int]]], base_path: Path = DEFAULT_CNN) -> EnrolledModel:
    """`enroll` from frames of the table's camera in memory, each showing one card: (frame, (rank index, suit
    index))."""
    base = CnnModel(base_path)
    return enrolled(base, *view_samples(base, views, len(views)))


def enrolled(base: CnnModel, samples: Sample, glyphs: GlyphSample | None) -> EnrolledModel:
    """The enrolled deck of these views over the CNN `base`, with their glyphs' classifiers unless `glyphs`
    is None (views of another camera than the table's)."""
    return EnrolledModel(base.path, calibrate(samples, base.threshold), DeckGlyphs.fit(glyphs) if glyphs else None)


def what_enrolment_changes(source: Path, model: EnrolledModel) -> str:
    """Said plainly after enrolling: what the enrolled deck reads differently from the generic recognizer."""
    return f"{_what_the_views_change(source, model)}. {model.glyphs.summary()}"


def _what_the_views_change(source: Path, model: EnrolledModel) -> str:
    named = ("the cards it leaves unknown are named where every corner index is nearest one card's enrolled "
             "views (closely, and by a lead over every other card), and so are the indices it declines to read, "
             "re-checked")
    views = Counter(card for _, card in enrollment_photos(source))
    if max(views.values()) < 2:
        return (f"one photo per card: {named}; the generic recognizer's own readings are kept as they are (nothing "
                f"to test a lower threshold or a veto on: photograph each card two or three times, in the table's "
                f"own light, QS_1.jpg, QS_2.jpg, ..., for that)")
    if model.prototypes.generic:
        return (f"{named}; on these photos no lower threshold or veto read more cards without reading more wrong, "
                f"so the generic recognizer's own readings are kept as they are")
    p = model.prototypes
    return (f"{named}; where a card's prototype agrees by {p.agree_margin} it is named from confidence "
            f"{p.low_threshold} (generic: {p.threshold}); where another card's is nearer by more than "
            f"{p.veto_margin} it is not named")


@dataclass(frozen=True)
class ReadBack:
    """The enrolment photos read back by the enrolled recognizer, as a test deal: which photos it leaves
    unread or reads as another card, and which cards of the deck have no photo (so no prototype)."""
    photos: int
    unread: list[str]  # photo names
    wrong: list[tuple[str, str]]  # (photo name, the card it was read as)
    missing: list[str]  # cards of the deck without a photo

    def summary(self) -> str:
        wrong = ", ".join(f"{photo} as {card}" for photo, card in self.wrong)
        return (f"read back {self.photos - len(self.unread) - len(self.wrong)} of {self.photos} photos; "
                f"not read: {', '.join(self.unread) or 'none'}; read wrong: {wrong or 'none'}; "
                f"no photo of: {', '.join(self.missing) or 'none'}")


def read_back(model: EnrolledModel, source: Path, deck: Deck = FULL_DECK, progress: Progress | None = None
              ) -> ReadBack:
    """Read every enrolment photo in `source` with `model` (the photos it was enrolled from: a card unread
    here is unlikely to be read at the table), each without its own views (which would name it whatever
    it looks like: an out-of-focus view read itself back)."""
    photos = enrollment_photos(source)
    recognizer = Recognizer(model, deck=deck)
    unread: list[str] = []
    wrong: list[tuple[str, str]] = []
    for i, (path, (rank, suit)) in enumerate(photos):
        recognizer.model = model.without_photo(i)
        named = [c.card for c in recognizer.read(load_image(path)) if c.card != UNKNOWN]
        if not named:
            unread.append(path.name)
        elif RANKS[rank] + SUITS[suit] not in named:
            wrong.append((path.name, named[0]))
        if progress:
            progress(i + 1, len(photos))
    shown = {RANKS[rank] + SUITS[suit] for _, (rank, suit) in photos}
    missing = [r + s for s in SUITS for r in RANKS if r in deck.ranks and r + s not in shown]
    return ReadBack(len(photos), unread, wrong, missing)
