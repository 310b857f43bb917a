"""Buttons, buzzer and status light on gpiozero's own MockFactory (whole pin.states lists compared)."""
import queue
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from controller.hardware.buttons import ButtonAction, TableButtons
from controller.hardware.buzzer import MELODIES, Sound, TableBuzzer
from controller.hardware.config import HardwareConfig, SeatPins
from controller.hardware.status_light import LightStatus, StatusLight, choose_status

CONFIG = HardwareConfig()


class FrequencyPin(MockPWMPin):
    """MockPWMPin that also keeps the frequency history (states only hold the duty cycle)."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.frequencies = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.frequencies.append(value)


@pytest.fixture
def factory():
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = None


def _values(pin):
    return [s.state for s in pin.states]


def test_config_validates_pins():
    with pytest.raises(ValueError, match="twice"):
        HardwareConfig(dealer_next=5)
    with pytest.raises(ValueError, match="GPIO40"):
        HardwareConfig(buzzer=40)
    with pytest.raises(ValueError, match="unknown"):
        HardwareConfig.from_mapping({"buzer": 18})
    with pytest.raises(ValueError, match="pairs"):
        HardwareConfig.from_mapping({"seats": [5, 6]})
    config = HardwareConfig.from_mapping({"seats": [[5, 6], [13, 19]], "buzzer_tonal": False})
    assert config.seats == (SeatPins(5, 6), SeatPins(13, 19)) and not config.buzzer_tonal


def test_button_presses_become_events_in_order(factory):
    events = queue.Queue()
    with TableButtons(CONFIG, events):
        for pin in (13, 6, 23, 24):  # seat 2 go, seat 1 confirm, dealer next, dealer undo
            factory.pin(pin).drive_low()
            factory.pin(pin).drive_high()
            time.sleep(0.03)  # past the 20 ms debounce
    got = [events.get_nowait() for _ in range(events.qsize())]
    assert [(e.action, e.seat) for e in got] == [(ButtonAction.GO, 1), (ButtonAction.CONFIRM, 0),
                                                 (ButtonAction.NEXT, None), (ButtonAction.UNDO, None)]
    assert all(a.at <= b.at for a, b in zip(got, got[1:]))


def test_a_full_queue_drops_presses_without_blocking(factory):
    events = queue.Queue(maxsize=1)
    with TableButtons(HardwareConfig(bounce_time=None), events) as buttons:
        for _ in range(3):
            factory.pin(5).drive_low()
            factory.pin(5).drive_high()
        assert events.qsize() == 1 and buttons.dropped == 2


def test_tonal_buzzer_plays_the_29_jingle(factory):
    factory.pin_class = FrequencyPin
    buzzer = TableBuzzer(CONFIG, tempo=20)
    factory.pin(CONFIG.buzzer).frequencies.clear()  # gpiozero's own set-up (100 Hz, then silent)
    buzzer.play(Sound.TWENTY_NINE)
    assert buzzer.wait_idle(2)
    pin = factory.pin(CONFIG.buzzer)
    # 50 % duty while the notes change frequency (a MockPin records changes only), then silence
    assert _values(pin) == [0.0, 0.5, 0.0]
    played = [None if f is None else round(f) for f in pin.frequencies]
    assert played == [523, 659, 784, 1047, None]  # C5 E5 G5 C6, stop
    buzzer.close()


def test_active_buzzer_beeps_twice_for_an_illegal_play(factory):
    buzzer = TableBuzzer(HardwareConfig(buzzer_tonal=False), tempo=20)
    buzzer.play(Sound.ILLEGAL)
    buzzer.play(Sound.ILLEGAL)
    assert buzzer.wait_idle(2)
    buzzer.close()
    beep_beep = [True, False, True, False]  # note, rest, note, silence after the melody
    assert _values(factory.pin(CONFIG.buzzer)) == [False] + beep_beep * 2


def test_every_melody_is_in_the_tonal_buzzers_range(factory):
    factory.pin_class = FrequencyPin
    buzzer = TableBuzzer(CONFIG, tempo=100)
    factory.pin(CONFIG.buzzer).frequencies.clear()
    for sound in Sound:
        buzzer.play(sound)
        assert buzzer.wait_idle(2)
    buzzer.close()
    notes = [n.tone for sound in Sound for n in MELODIES[sound] if n.tone]
    played = [f for f in factory.pin(CONFIG.buzzer).frequencies if f is not None]
    assert [round(f) for f in played] == [round(Tone(n).frequency) for n in notes]  # out-of-range tones would have raised instead


def test_status_light_steady_colours(factory):
    light = StatusLight(CONFIG)
    for status in (LightStatus.READY, LightStatus.READY, LightStatus.WAITING, LightStatus.READY):
        light.show(status)
    light.close()
    red, green, blue = (factory.pin(p) for p in (CONFIG.led_red, CONFIG.led_green, CONFIG.led_blue))
    assert _values(red) == [False]
    assert _values(green) == [False, True, False, True]
    assert _values(blue) == [False, True, False]


def test_status_light_blinks_red_for_illegal_then_settles(factory):
    light = StatusLight(CONFIG)
    light.show(LightStatus.ILLEGAL)
    time.sleep(0.45)
    light.show(LightStatus.WAITING)
    red, blue = factory.pin(CONFIG.led_red), factory.pin(CONFIG.led_blue)
    observed = _values(red)
    blinks = (len(observed) - 1) // 2
    assert blinks >= 2
    assert observed == [False] + [True, False] * blinks
    assert _values(blue) == [False, True]
    light.close()


def test_status_priority():
    assert choose_status(camera_ok=False, board_ok=True, illegal=True, waiting=True) is LightStatus.OFFLINE
    assert choose_status(camera_ok=True, board_ok=False, illegal=False, waiting=False) is LightStatus.OFFLINE
    assert choose_status(camera_ok=True, board_ok=True, illegal=True, waiting=True) is LightStatus.ILLEGAL
    assert choose_status(camera_ok=True, board_ok=True, illegal=False, waiting=True) is LightStatus.WAITING
    assert choose_status(camera_ok=True, board_ok=True, illegal=False, waiting=False) is LightStatus.READY
