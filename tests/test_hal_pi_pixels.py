"""LED frames to bytes, the strip's lifecycle, and the choice of LED driver."""

from __future__ import annotations

import dataclasses
import importlib.util
import logging

import pytest

from tavla_pi.errors import BadInputError, HardwareError, PinMapError
from tavla_pi.hal.pi.board import PiModel
from tavla_pi.hal.pi.pixel_drivers import (
    PWM_ROOT_WARNING,
    PixelbufWriter,
    check_led_driver,
    open_pixel_writer,
)
from tavla_pi.hal.pi.pixels import NeoPixelStrip, encode_frame
from tavla_pi.hardware.pinmap import AdcChip, LedStrip, PinMap
from tavla_pi.testing.hal_models import PixelBufModel, RecordingWriter, reference_pinmap

PI4 = PiModel("Raspberry Pi 4 Model B Rev 1.4", 4)
PI5 = PiModel("Raspberry Pi 5 Model B Rev 1.0", 5)


def test_frames_go_out_green_red_blue_as_given() -> None:
    frame = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (12, 34, 56)]
    assert encode_frame(frame) == bytes([0, 255, 0, 255, 0, 0, 0, 0, 255, 34, 12, 56])
    assert encode_frame(frame, "RGB") == bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 12, 34, 56])
    assert encode_frame([(1, 2, 3)], "BGR") == bytes([3, 2, 1])
    assert encode_frame([]) == b""


@pytest.mark.parametrize(("pixel", "problem"), [
    ((256, 0, 0), "colour component 256 is not an integer 0..255"),
    ((0, -1, 0), "colour component -1 is not an integer 0..255"),
    ((0, 0, 0.5), "colour component 0.5 is not an integer 0..255"),
    ((1, 2), "expected (r, g, b), got (1, 2)"),
])
def test_a_bad_pixel_is_named_by_its_index(pixel: tuple[int, ...], problem: str) -> None:
    with pytest.raises(BadInputError) as err:
        encode_frame([(0, 0, 0), pixel])  # type: ignore[list-item]
    assert str(err.value) == f"LED frame[1]: {problem}"


def test_an_unknown_colour_order_is_a_pin_map_error() -> None:
    with pytest.raises(PinMapError) as err:
        encode_frame([(0, 0, 0)], "RGBW")
    assert str(err.value) == "leds.order: expected one of BGR, BRG, GBR, GRB, RBG, RGB, got 'RGBW'"


def test_show_writes_the_encoded_frame() -> None:
    writer = RecordingWriter()
    strip = NeoPixelStrip(3, writer)
    strip.show([(10, 20, 30), (0, 0, 0), (255, 255, 255)])
    assert writer.frames == [bytes([20, 10, 30, 0, 0, 0, 255, 255, 255])]
    with pytest.raises(BadInputError, match="LED frame: expected 3 pixels, got 2"):
        strip.show([(0, 0, 0)] * 2)
    assert len(writer.frames) == 1


def test_close_blanks_then_releases_once() -> None:
    writer = RecordingWriter()
    with NeoPixelStrip(4, writer, order="RGB") as strip:
        strip.show([(9, 9, 9)] * 4)
    assert writer.frames[-1] == bytes(12)
    assert writer.closes == 1
    strip.close()
    assert len(writer.frames) == 2 and writer.closes == 1
    assert strip.closed and repr(strip) == "<NeoPixelStrip 4 LEDs RGB closed>"
    with pytest.raises(HardwareError, match="closed"):
        strip.show([(0, 0, 0)] * 4)


def test_a_failing_blank_still_releases_the_writer() -> None:
    writer = RecordingWriter(fail_on_write=True)
    strip = NeoPixelStrip(2, writer)
    with pytest.raises(OSError, match="unplugged"):
        strip.close()
    assert writer.closes == 1
    strip.close()
    assert writer.closes == 1


@pytest.mark.parametrize(("count", "order", "where"), [(0, "GRB", "leds.count"),
                                                       (5, "GRBW", "leds.order")])
def test_refused_settings_close_the_writer(count: int, order: str, where: str) -> None:
    writer = RecordingWriter()
    with pytest.raises(PinMapError, match=where):
        NeoPixelStrip(count, writer, order=order)
    assert writer.closes == 1


def test_the_pixelbuf_writer_passes_bytes_through_unchanged() -> None:
    model = PixelBufModel(3)
    strip = NeoPixelStrip(3, PixelbufWriter(model))
    strip.show([(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    assert model.transmitted == [bytes([2, 1, 3, 5, 4, 6, 8, 7, 9])]
    strip.close()
    assert model.transmitted[-1] == bytes(9)
    assert model.released


def with_leds(driver: str, pin: int, spi_port: int | None = None,
              adc_port: int = 0) -> PinMap:
    pinmap = reference_pinmap()
    adcs = tuple(AdcChip(a.name, adc_port, a.spi_device) for a in pinmap.adcs)
    return dataclasses.replace(pinmap, adcs=adcs,
                               leds=LedStrip(driver, pin, 70, "GRB", spi_port))


@pytest.mark.parametrize(("pinmap", "model"), [
    (with_leds("pwm", 18), PI4), (with_leds("pwm", 12), PI4), (with_leds("spi", 20), PI4),
    (with_leds("spi", 20, spi_port=1), PI5), (with_leds("pio", 18), PI5),
    (with_leds("spi", 10, adc_port=1), PI4),
])
def test_workable_led_drivers_pass(pinmap: PinMap, model: PiModel) -> None:
    check_led_driver(pinmap, model)


@pytest.mark.parametrize(("pinmap", "model", "error", "message"), [
    (with_leds("pwm", 18), PI5, HardwareError, "'pwm' \\(rpi_ws281x\\) does not run on a "
                                               "Raspberry Pi 5"),
    (with_leds("pio", 18), PI4, HardwareError, "'pio' needs a Raspberry Pi 5, not a "
                                               "Raspberry Pi 4"),
    (with_leds("pwm", 17), PI4, PinMapError, "leds.pin: driver 'pwm' needs GPIO"),
    (with_leds("spi", 10), PI4, PinMapError, "SPI0 also carries the ADCs"),
    (with_leds("spi", 18), PI4, PinMapError, "needs a MOSI pin"),
    (with_leds("spi", 20, spi_port=0), PI4, PinMapError, "GPIO 20 is the MOSI of SPI1"),
    (with_leds("dma", 18), PI4, PinMapError, "leds.driver: expected 'auto', 'pwm', 'spi' or 'pio'"),
])
def test_unworkable_led_drivers_are_refused_before_anything_opens(
        pinmap: PinMap, model: PiModel, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        open_pixel_writer(pinmap, model)


@pytest.mark.skipif(importlib.util.find_spec("board") is not None,
                    reason="Blinka is installed here")
@pytest.mark.parametrize(("model", "extra"), [(PI4, "pi"), (PI5, "pi5")])
def test_without_blinka_the_led_driver_is_a_one_line_hardware_error(
        model: PiModel, extra: str) -> None:
    pinmap = with_leds("pio" if model.has_rp1 else "pwm", 18)
    with pytest.raises(HardwareError) as err:
        open_pixel_writer(pinmap, model)
    assert str(err.value) == (f"the board library is not installed, needed for the NeoPixel "
                              f"LEDs (pip install 'tavla-pi[{extra}]')")


@pytest.mark.parametrize("model", [PI4, PI5])
def test_auto_driver_resolves_per_model(model: PiModel) -> None:
    pinmap = with_leds("auto", 20, spi_port=1)
    check_led_driver(pinmap, model)  # SPI1 on a Pi 4, PIO on a Pi 5: both fine on GPIO 20
    assert pinmap.leds.resolve_driver(pi5=model.has_rp1) == ("pio" if model.has_rp1 else "spi")


@pytest.mark.skipif(importlib.util.find_spec("board") is not None,
                    reason="Blinka is installed here")
@pytest.mark.parametrize(("pinmap", "warnings"), [(with_leds("pwm", 18), [PWM_ROOT_WARNING]),
                                                  (with_leds("auto", 20, spi_port=1), [])])
def test_only_the_pwm_opt_in_warns_that_it_needs_root(
        pinmap: PinMap, warnings: list[str], caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, "tavla_pi.hal.pi"), pytest.raises(HardwareError):
        open_pixel_writer(pinmap, PI4)  # no Blinka here: the libraries fail after the check
    assert [r.getMessage() for r in caplog.records if "root" in r.getMessage()] == warnings
    assert "/dev/mem" in PWM_ROOT_WARNING and "pwm-root.conf" in PWM_ROOT_WARNING
