"""Images for reports, with numpy only: PNG encoding and decoding, frame strips, position heat maps.

No imaging library is needed: PNGs are written with zlib and struct (filter 0 on every row) and read
back with all five PNG row filters, which is what browsers' screenshots use.
"""

from __future__ import annotations

import math
import struct
import zlib

import numpy as np

__all__ = ["HEAT_RAMP", "SEPARATOR_RGB", "UNVISITED_RGB", "frame_strip", "heatmap", "heatmap_colors",
           "png_bytes", "png_decode"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

SEPARATOR_RGB = (24, 26, 31)
"""The 2-px separator between frames in a strip."""

UNVISITED_RGB = (48, 48, 52)
"""Heat map cells never visited."""

HEAT_RAMP = ((26, 35, 126), (33, 102, 172), (35, 160, 150), (120, 198, 80), (250, 228, 40))
"""The heat map's colour stops, fewest visits (dark blue) to most (yellow)."""

_COLOR_TYPES = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> PNG colour type (gray, gray+alpha, RGB, RGBA)
_CHANNELS = {0: 1, 4: 2, 2: 3, 6: 4}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(rgb: np.ndarray, level: int = 6) -> bytes:
    """Encode an image as PNG.

    Args:
        rgb: ``uint8`` array, ``H x W x 3`` (RGB), ``H x W`` (gray), ``H x W x 1`` or ``H x W x 4`` (RGBA).
            Other integer or bool arrays are clipped to 0..255.
        level: zlib compression level.

    Returns:
        The PNG file's bytes (8-bit, no interlace, filter 0 on every row).

    Raises:
        ValueError: the array has no pixels or not one of the shapes above.
    """
    a = np.asarray(rgb)
    if a.ndim == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    if a.ndim == 2:
        channels = 1
    elif a.ndim == 3 and a.shape[2] in (2, 3, 4):
        channels = a.shape[2]
    else:
        raise ValueError(f"png_bytes wants an H x W x 3 (or H x W gray) array, got shape {a.shape}")
    h, w = a.shape[:2]
    if h == 0 or w == 0:
        raise ValueError(f"png_bytes got an empty image (shape {a.shape})")
    if a.dtype != np.uint8:
        a = np.clip(a, 0, 255).astype(np.uint8)
    rows = np.ascontiguousarray(a).reshape(h, w * channels)
    raw = np.empty((h, 1 + w * channels), np.uint8)
    raw[:, 0] = 0  # filter type 0 (None) on every row
    raw[:, 1:] = rows
    ihdr = struct.pack(">IIBBBBB", w, h, 8, _COLOR_TYPES[channels], 0, 0, 0)
    return (PNG_SIGNATURE + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(raw.tobytes(), level))
            + _chunk(b"IEND", b""))


def _unfilter(data: bytes, h: int, w: int, bpp: int) -> np.ndarray:
    stride = w * bpp
    if len(data) < h * (stride + 1):
        raise ValueError(f"PNG image data is short: {len(data)} bytes for {h} rows of {stride + 1}")
    buf = np.frombuffer(data, np.uint8, count=h * (stride + 1)).reshape(h, stride + 1)
    out = np.zeros((h, stride), np.uint8)
    prev = np.zeros(stride, np.uint8)
    for y in range(h):
        ft = int(buf[y, 0])
        line = buf[y, 1:]
        if ft == 0:
            cur = line.copy()
        elif ft == 1:  # Sub: a running sum per channel (uint8 arithmetic wraps mod 256)
            cur = np.cumsum(line.reshape(w, bpp), axis=0, dtype=np.uint8).reshape(stride)
        elif ft == 2:  # Up
            cur = line + prev
        elif ft in (3, 4):
            cur = _unfilter_row_slow(line.tobytes(), prev.tobytes(), bpp, ft)
        else:
            raise ValueError(f"PNG row {y} has unknown filter type {ft}")
        out[y] = cur
        prev = cur
    return out


def _unfilter_row_slow(line: bytes, prev: bytes, bpp: int, ft: int) -> np.ndarray:
    """Average (3) and Paeth (4) rows depend on the reconstructed byte to the left: a plain loop."""
    cur = bytearray(line)
    n = len(cur)
    if ft == 3:
        for i in range(n):
            a = cur[i - bpp] if i >= bpp else 0
            cur[i] = (cur[i] + ((a + prev[i]) >> 1)) & 0xFF
    else:
        for i in range(bpp):
            cur[i] = (cur[i] + prev[i]) & 0xFF  # a = c = 0: the predictor is b
        for i in range(bpp, n):
            a, b, c = cur[i - bpp], prev[i], prev[i - bpp]
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - c - c)
            if pa <= pb and pa <= pc:
                pred = a
            elif pb <= pc:
                pred = b
            else:
                pred = c
            cur[i] = (cur[i] + pred) & 0xFF
    return np.frombuffer(bytes(cur), np.uint8)


def png_decode(data: bytes) -> np.ndarray:
    """Decode a PNG (8-bit gray, gray+alpha, RGB, RGBA or palette; not interlaced).

    Args:
        data: the PNG file's bytes.

    Returns:
        A ``uint8`` array, ``H x W x C`` with C = 3 (RGB, palette) or 4 (RGBA, gray+alpha gives 2),
        or ``H x W`` for gray.

    Raises:
        ValueError: not a PNG, a corrupt chunk, or a kind of PNG this decoder does not read.
    """
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG file (bad signature)")
    pos = len(PNG_SIGNATURE)
    header: tuple[int, ...] | None = None
    idat: list[bytes] = []
    palette: np.ndarray | None = None
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError(f"PNG chunk {kind!r} at byte {pos} has a bad CRC")
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError("PNG has no IHDR chunk")
    w, h, depth, ctype, _comp, _filt, interlace = header
    if depth != 8 or interlace != 0 or ctype not in (0, 2, 3, 4, 6):
        raise ValueError(f"unsupported PNG: bit depth {depth}, colour type {ctype}, interlace {interlace} "
                         "(this decoder reads 8-bit, non-interlaced images)")
    channels = 1 if ctype == 3 else _CHANNELS[ctype]
    pixels = _unfilter(zlib.decompress(b"".join(idat)), h, w, channels)
    if ctype == 3:
        if palette is None:
            raise ValueError("palette PNG without a PLTE chunk")
        return palette[pixels.reshape(h, w)]
    return pixels.reshape(h, w) if channels == 1 else pixels.reshape(h, w, channels)


def _as_rgb(frame: np.ndarray) -> np.ndarray:
    f = np.asarray(frame)
    if f.ndim == 3 and f.shape[2] == 1:
        f = f[:, :, 0]
    if f.ndim == 2:
        f = np.repeat(f[:, :, None], 3, axis=2)
    elif f.ndim == 3 and f.shape[2] == 4:
        f = f[:, :, :3]
    if f.ndim != 3 or f.shape[2] != 3 or f.shape[0] == 0 or f.shape[1] == 0:
        raise ValueError(f"a frame must be H x W x 3 (or H x W gray), got shape {np.shape(frame)}")
    return f if f.dtype == np.uint8 else np.clip(f, 0, 255).astype(np.uint8)


def _resize_nearest(img: np.ndarray, h: int, w: int) -> np.ndarray:
    ys = (np.arange(h) * img.shape[0] // h).clip(0, img.shape[0] - 1)
    xs = (np.arange(w) * img.shape[1] // w).clip(0, img.shape[1] - 1)
    return img[ys][:, xs]


def frame_strip(frames: list[np.ndarray], height: int = 96, gap: int = 2) -> np.ndarray:
    """Frames side by side, each scaled (nearest neighbour) to ``height``, keeping its aspect ratio.

    Args:
        frames: ``H x W x 3`` (or ``H x W`` gray, or RGBA: alpha is dropped) arrays; sizes may differ.
        height: the strip's height in pixels.
        gap: width of the dark separator between frames (`SEPARATOR_RGB`).

    Returns:
        An ``height x total_width x 3`` ``uint8`` array.

    Raises:
        ValueError: no frames, a frame of the wrong shape, or ``height < 1``.
    """
    if not frames:
        raise ValueError("frame_strip needs at least one frame")
    if height < 1:
        raise ValueError(f"frame_strip height must be >= 1, got {height}")
    scaled = []
    for f in frames:
        rgb = _as_rgb(f)
        w = max(1, round(rgb.shape[1] * height / rgb.shape[0]))
        scaled.append(_resize_nearest(rgb, height, w))
    total = sum(s.shape[1] for s in scaled) + gap * (len(scaled) - 1)
    strip = np.empty((height, total, 3), np.uint8)
    strip[:] = SEPARATOR_RGB
    x = 0
    for s in scaled:
        strip[:, x:x + s.shape[1]] = s
        x += s.shape[1] + gap
    return strip


def heatmap_colors(t: np.ndarray) -> np.ndarray:
    """Colours of the heat ramp (`HEAT_RAMP`) at ``t`` in [0, 1]: ``t.shape + (3,)`` ``uint8``."""
    stops = np.asarray(HEAT_RAMP, np.float64)
    pos = np.clip(np.asarray(t, np.float64), 0.0, 1.0) * (len(stops) - 1)
    i = np.minimum(pos.astype(np.int64), len(stops) - 2)
    frac = (pos - i)[..., None]
    return np.round(stops[i] * (1 - frac) + stops[i + 1] * frac).astype(np.uint8)


HEATMAP_MAX_CELLS = 1024  # cells across at most (square_jumper's player falls to y = 5 million: a 36 GiB grid)


def heatmap_scale(width: int, height: int) -> int:
    """Pixels per cell: 8 to 48 for small maps (about 480 px across), fewer only for maps over 256 cells."""
    side = max(width, height, 1)
    if side * 8 > 2048:
        return max(1, 2048 // side)
    return max(8, min(48, 480 // side))


def heatmap(counts: dict[tuple[int, int], int], scale: int | None = None) -> np.ndarray:
    """Visit counts over (x, y) cells as an RGB image: rows are y (y grows downwards, as on screen).

    Colours are log-scaled along `HEAT_RAMP` (one visit: dark blue; the most visited cell: yellow);
    cells never visited inside the bounding box are `UNVISITED_RGB`. The box spans the smallest to the
    largest x and y in ``counts`` (negative cells are fine).

    Args:
        counts: visits per cell.
        scale: pixels per cell; by default `heatmap_scale` (at least 8 px unless the map is huge).

    Returns:
        An ``H x W x 3`` ``uint8`` array.

    Raises:
        ValueError: ``counts`` is empty.
    """
    if not counts:
        raise ValueError("heatmap needs at least one visited cell")
    xs = np.fromiter((int(x) for x, _ in counts), np.int64, len(counts))
    ys = np.fromiter((int(y) for _, y in counts), np.int64, len(counts))
    vs = np.fromiter((max(0, int(v)) for v in counts.values()), np.float64, len(counts))
    x0, y0 = int(xs.min()), int(ys.min())
    w, h = int(xs.max()) - x0 + 1, int(ys.max()) - y0 + 1
    k = -(-max(w, h) // HEATMAP_MAX_CELLS)  # a map wider than that (a body falling for ever) is binned k x k
    if k > 1:
        xs, ys, x0, y0 = (xs - x0) // k, (ys - y0) // k, 0, 0
        w, h = int(xs.max()) + 1, int(ys.max()) + 1
    grid = np.zeros((h, w), np.float64)
    np.add.at(grid, (ys - y0, xs - x0), vs)
    top = float(vs.max())
    if top > 1:
        t = np.log(np.maximum(grid, 1.0)) / math.log(top)  # 1 visit -> 0, the most visited -> 1
    else:
        t = np.ones_like(grid)
    img = heatmap_colors(t)
    img[grid <= 0] = UNVISITED_RGB
    s = scale or heatmap_scale(w, h)
    return np.repeat(np.repeat(img, s, axis=0), s, axis=1)
