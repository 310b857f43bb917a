"""The table buzzer: a beep for an illegal play, short jingles for a 29 hand and for a win.

Melodies play on a worker thread so a caller (the table session) never waits for a sound; a busy
buzzer queues at most a few sounds and drops the rest.
"""
from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from enum import Enum

from gpiozero import Buzzer, TonalBuzzer
from gpiozero.pins import Factory

from controller.hardware.config import HardwareConfig

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Note:
    tone: str | None  # a note name gpiozero's Tone understands ("C5"), None for a rest
    seconds: float


class Sound(str, Enum):
    ILLEGAL = "illegal"
    TWENTY_NINE = "twenty-nine"
    WIN = "win"


MELODIES: dict[Sound, tuple[Note, ...]] = {
    Sound.ILLEGAL: (Note("C4", 0.15), Note(None, 0.05), Note("C4", 0.15)),
    Sound.TWENTY_NINE: (Note("C5", 0.1), Note("E5", 0.1), Note("G5", 0.1), Note("C6", 0.3)),
    Sound.WIN: (Note("G4", 0.12), Note("C5", 0.12), Note("E5", 0.12), Note("G5", 0.2), Note(None, 0.05),
                Note("E5", 0.1), Note("G5", 0.4)),
}
_QUEUE_SIZE = 4


class TableBuzzer:
    """tempo > 1 plays faster (the tests use it to keep runs short)."""

    def __init__(self, config: HardwareConfig, pin_factory: Factory | None = None,
                 tempo: float = 1.0) -> None:
        if tempo <= 0:
            raise ValueError(f"tempo must be positive, not {tempo}")
        self._tempo = tempo
        self._device: TonalBuzzer | Buzzer
        if config.buzzer_tonal:  # two octaves round A4: 110 Hz .. 1760 Hz covers every melody
            self._device = TonalBuzzer(config.buzzer, octaves=2, pin_factory=pin_factory)
        else:
            self._device = Buzzer(config.buzzer, pin_factory=pin_factory)
        self._queue: queue.Queue[tuple[Note, ...] | None] = queue.Queue(_QUEUE_SIZE)
        self._idle = threading.Event()
        self._idle.set()
        self._closing = threading.Event()
        self.dropped = 0
        self._thread = threading.Thread(target=self._work, name="buzzer", daemon=True)
        self._thread.start()

    def play(self, sound: Sound) -> None:
        """Queue a sound and return at once."""
        self._idle.clear()
        try:
            self._queue.put_nowait(MELODIES[sound])
        except queue.Full:
            self.dropped += 1
            log.info("buzzer busy: dropped %s", sound.value)

    def wait_idle(self, timeout: float) -> bool:
        """True once every queued sound has finished."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        self._closing.set()
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass  # the worker sees _closing after its current note
        self._thread.join()
        self._device.close()

    def _work(self) -> None:
        while not self._closing.is_set():
            melody = self._queue.get()
            if melody is None:
                break
            try:
                self._play(melody)
            except Exception:  # a bad note must not silence the buzzer for the rest of the game
                log.exception("buzzer failed to play %s", melody)
            finally:
                self._sound(None)
            if self._queue.empty():
                self._idle.set()
        self._idle.set()

    def _play(self, melody: tuple[Note, ...]) -> None:
        for note in melody:
            if self._closing.is_set():
                return
            self._sound(note.tone)
            self._closing.wait(note.seconds / self._tempo)

    def _sound(self, tone: str | None) -> None:
        if isinstance(self._device, TonalBuzzer):
            if tone is None:
                self._device.stop()
            else:
                self._device.play(tone)
        elif tone is None:
            self._device.off()
        else:
            self._device.on()
