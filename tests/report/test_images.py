"""PNG writing and reading, frame strips, heat maps: numpy + zlib only."""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest

from playtester.report import frame_strip, heatmap, png_bytes, png_decode
from playtester.report.images import HEAT_RAMP, SEPARATOR_RGB, UNVISITED_RGB, heatmap_scale


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, body) chunks of a PNG, checking each CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, pos = [], 8
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body)
        out.append((kind, body))
        pos += 12 + n
    return out


def test_png_bytes_layout_and_round_trip():
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (7, 5, 3), dtype=np.uint8)
    data = png_bytes(img)
    cs = chunks(data)
    assert [k for k, _ in cs] == [b"IHDR", b"IDAT", b"IEND"]
    assert struct.unpack(">IIBBBBB", cs[0][1]) == (5, 7, 8, 2, 0, 0, 0)  # w, h, 8-bit RGB, no interlace
    raw = zlib.decompress(cs[1][1])
    assert len(raw) == 7 * (1 + 5 * 3)
    rows = np.frombuffer(raw, np.uint8).reshape(7, 16)
    assert (rows[:, 0] == 0).all()  # filter 0 on every row
    assert np.array_equal(rows[:, 1:].reshape(7, 5, 3), img)
    assert np.array_equal(png_decode(data), img)


@pytest.mark.parametrize("shape, ctype", [((4, 6), 0), ((4, 6, 1), 0), ((4, 6, 4), 6)])
def test_png_gray_and_rgba(shape, ctype):
    img = np.arange(np.prod(shape), dtype=np.uint8).reshape(shape)
    data = png_bytes(img)
    assert chunks(data)[0][1][9] == ctype
    assert np.array_equal(png_decode(data), img.reshape(img.shape[:2]) if len(shape) == 3 and shape[2] == 1 else img)


def test_png_rejects_bad_input():
    with pytest.raises(ValueError):
        png_bytes(np.zeros((0, 3, 3), np.uint8))
    with pytest.raises(ValueError):
        png_bytes(np.zeros((2, 2, 5), np.uint8))
    with pytest.raises(ValueError, match="signature"):
        png_decode(b"GIF89a")
    bad = bytearray(png_bytes(np.zeros((2, 2, 3), np.uint8)))
    bad[20] ^= 1  # inside IHDR
    with pytest.raises(ValueError, match="CRC"):
        png_decode(bytes(bad))


@pytest.mark.parametrize("ft", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("channels", [3, 4])
def test_png_decode_every_filter(ft, channels):
    """A PNG whose rows use filter ``ft`` (built here by the book) decodes to the image."""
    rng = np.random.default_rng(ft)
    h, w = 6, 9
    img = rng.integers(0, 256, (h, w, channels), dtype=np.uint8)
    img[2:4] = 200  # flat parts too
    flat = img.reshape(h, w * channels).astype(np.int64)
    raw = bytearray()
    for y in range(h):
        raw.append(ft)
        for i in range(w * channels):
            a = flat[y, i - channels] if i >= channels else 0
            b = flat[y - 1, i] if y else 0
            c = flat[y - 1, i - channels] if y and i >= channels else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            paeth = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            pred = [0, a, b, (a + b) // 2, paeth][ft]
            raw.append(int(flat[y, i] - pred) % 256)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2 if channels == 3 else 6, 0, 0, 0)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    comp = zlib.compress(bytes(raw))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", comp[:10]) + chunk(b"IDAT", comp[10:])
            + chunk(b"IEND", b""))
    assert np.array_equal(png_decode(data), img)


def test_frame_strip():
    a = np.full((48, 64, 3), 10, np.uint8)
    a[:24, :32] = (255, 0, 0)  # top-left quarter red
    b = np.full((30, 30), 200, np.uint8)  # gray, square
    strip = frame_strip([a, b], height=96)
    assert strip.dtype == np.uint8 and strip.shape == (96, 128 + 2 + 96, 3)
    assert np.array_equal(strip[:, :128], np.repeat(np.repeat(a, 2, axis=0), 2, axis=1))  # nearest, 2x
    assert (strip[:, 128:130] == SEPARATOR_RGB).all()
    assert (strip[:, 130:] == 200).all()
    assert frame_strip([a]).shape == (96, 128, 3)
    with pytest.raises(ValueError):
        frame_strip([])


def test_heatmap_colours_and_layout():
    counts = {(0, 0): 1, (2, 0): 100, (0, 1): 10}
    img = heatmap(counts)
    s = heatmap_scale(3, 2)
    assert s >= 8 and img.shape == (2 * s, 3 * s, 3) and img.dtype == np.uint8

    def cell(x, y):
        block = img[y * s:(y + 1) * s, x * s:(x + 1) * s].reshape(-1, 3)
        assert (block == block[0]).all()
        return tuple(int(v) for v in block[0])

    assert cell(0, 0) == HEAT_RAMP[0]  # one visit: dark blue
    assert cell(2, 0) == HEAT_RAMP[-1]  # most visited: yellow, top right (rows are y)
    assert cell(1, 0) == UNVISITED_RGB and cell(1, 1) == UNVISITED_RGB
    mid = cell(0, 1)  # 10 visits: half way on the log scale
    assert mid not in (HEAT_RAMP[0], HEAT_RAMP[-1], UNVISITED_RGB)
    assert mid == HEAT_RAMP[2]


def test_heatmap_negative_cells_and_big_maps():
    img = heatmap({(-3, -1): 5, (-2, -1): 5}, scale=4)
    assert img.shape == (4, 8, 3)
    assert (img == HEAT_RAMP[-1]).all()  # all cells equally (and most) visited
    big = heatmap({(0, 0): 1, (999, 499): 2})
    assert big.shape[1] <= 2048 and big.shape[1] == 1000 * heatmap_scale(1000, 500)
    with pytest.raises(ValueError):
        heatmap({})
