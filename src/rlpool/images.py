"""The images some envs draw their frames from, read at run time from the package that ships them.

gymnasium draws Pendulum's torque arrow and the toy text tiles and figures from PNG files in its package.
rlpool's C++ renderers draw the same pixels from the same files: ``prepare(...)``, a task's registration
hook, decodes them (once per gymnasium install) into the cache (``rlpool.cache``) as plain ARGB files that
the C++ side reads (``draw::load`` in ``_core/gfx/images.h``), and gives the env that folder as its hidden
``_images`` option. Nothing of gymnasium's is copied into rlpool's sources.

The file format: ``RLPIMG01``, then width and height (uint32, little-endian), then ``height * width``
pixels, row-major, each a little-endian uint32 ``0xAARRGGBB`` (what pygame loads: no gamma or colour
profile applied).
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from rlpool.cache import cache_root, write_atomically

MAGIC = b"RLPIMG01"
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def read_png(path: Path) -> np.ndarray:
    """The pixels of a non-interlaced PNG as ``(height, width, 4)`` uint8 RGBA.

    8-bit RGB or RGBA, or a palette of 1, 2, 4 or 8 bits (its ``tRNS`` alphas applied). Other PNG kinds
    (grey, 16 bits, interlacing) raise ``ValueError``: the images read here have none.
    """
    data = Path(path).read_bytes()
    if not data.startswith(_PNG_SIGNATURE):
        raise ValueError(f"{path} is not a PNG file")
    pos, idat, header, palette, alpha = len(_PNG_SIGNATURE), [], None, b"", b""
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = body
        elif kind == b"tRNS":
            alpha = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError(f"{path} has no IHDR chunk")
    width, height, depth, color, _, _, interlace = header
    indexed = color == 3 and depth in (1, 2, 4, 8) and len(palette) >= 3
    if interlace != 0 or not (indexed or (depth == 8 and color in (2, 6))):
        raise ValueError(f"{path}: only non-interlaced 8-bit RGB/RGBA and palette PNGs are read (depth {depth}, "
                         f"colour type {color}, interlace {interlace})")
    bpp = 1 if indexed else 4 if color == 6 else 3  # bytes a filter steps back (a palette pixel: 1 at most)
    stride = (width * depth + 7) // 8 if indexed else width * bpp
    out = _unfilter(np.frombuffer(zlib.decompress(b"".join(idat)), np.uint8), height, stride, bpp, path)
    if indexed:
        bits = np.unpackbits(out, axis=1)[:, : width * depth].reshape(height, width, depth)
        index = (bits.astype(np.int64) << np.arange(depth - 1, -1, -1)).sum(axis=-1)
        colours = np.frombuffer(palette[: len(palette) // 3 * 3], np.uint8).reshape(-1, 3)
        if index.max() >= len(colours):
            raise ValueError(f"{path}: a pixel's palette index is past the palette's {len(colours)} colours")
        alphas = np.full(len(colours), 255, np.uint8)
        alphas[: min(len(alpha), len(colours))] = np.frombuffer(alpha, np.uint8)[: len(colours)]
        return np.concatenate([colours[index], alphas[index][..., None]], axis=-1)
    pixels = out.reshape(height, width, bpp)
    if bpp == 3:
        pixels = np.concatenate([pixels, np.full((height, width, 1), 255, np.uint8)], axis=2)
    return pixels


def _unfilter(raw: np.ndarray, height: int, stride: int, bpp: int, path: Path) -> np.ndarray:
    """PNG's per-row filters undone: ``(height, stride)`` bytes from the rows' filter byte and data."""
    if raw.size != height * (stride + 1):
        raise ValueError(f"{path}: image data has {raw.size} bytes, expected {height * (stride + 1)}")
    rows = raw.reshape(height, stride + 1)
    out = np.zeros((height, stride), np.uint8)
    prev = np.zeros(stride, np.int32)
    for y in range(height):
        kind, line = rows[y, 0], rows[y, 1:].astype(np.int32)
        if kind == 0:  # None
            cur = line
        elif kind == 2:  # Up
            cur = (line + prev) & 0xFF
        elif kind == 1:  # Sub: a running sum per channel
            cur = (np.cumsum(line.reshape(-1, bpp), axis=0) & 0xFF).ravel()
        elif kind in (3, 4):  # Average, Paeth: each pixel needs the one before it
            cur = np.zeros(stride, np.int32)
            for x in range(0, stride, bpp):
                a = cur[x - bpp : x] if x else np.zeros(bpp, np.int32)
                b, c = prev[x : x + bpp], prev[x - bpp : x] if x else np.zeros(bpp, np.int32)
                if kind == 3:
                    pred = (a + b) >> 1
                else:
                    p = a + b - c
                    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
                    pred = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
                cur[x : x + bpp] = (line[x : x + bpp] + pred) & 0xFF
        else:
            raise ValueError(f"{path}: unknown PNG filter {kind} in row {y}")
        out[y] = cur
        prev = cur
    return out


def argb_bytes(rgba: np.ndarray) -> bytes:
    """RGBA pixels ``(height, width, 4)`` as a file of this module's format."""
    height, width, _ = rgba.shape
    px = rgba.astype(np.uint32)
    argb = (px[..., 3] << 24) | (px[..., 0] << 16) | (px[..., 1] << 8) | px[..., 2]
    return MAGIC + struct.pack("<II", width, height) + argb.astype("<u4").tobytes()


_READY: dict[tuple[str, ...], Path] = {}  # folders already decoded in this process


def _valid(path: Path) -> bool:
    """Whether ``path`` is a whole image file of this format (a cache file may be from another version)."""
    try:
        with open(path, "rb") as f:
            head = f.read(16)
        if len(head) != 16 or not head.startswith(MAGIC):
            return False
        width, height = struct.unpack("<II", head[8:])
        return path.stat().st_size == 16 + 4 * width * height
    except OSError:
        return False


def gymnasium_images(folders: tuple[str, ...]) -> Path:
    """The cache folder holding every PNG under gymnasium's ``folders`` (paths in its package) as ARGB files.

    Each ``<package>/<file>.png`` becomes ``<cache folder>/<file>.png.argb``; the cache folder is keyed by
    the installed gymnasium's version and location, so that another gymnasium gets its own images.
    """
    if folders in _READY:
        return _READY[folders]
    import gymnasium

    package = Path(gymnasium.__file__).parent
    key = hashlib.sha256(f"{gymnasium.__version__}\0{package}".encode()).hexdigest()[:16]
    cache = cache_root() / "images" / f"gymnasium-{gymnasium.__version__}-{key}"
    for folder in folders:
        if not (package / folder).is_dir():
            raise FileNotFoundError(f"gymnasium {gymnasium.__version__} has no image folder {package / folder}")
        for source in sorted((package / folder).rglob("*.png")):
            target = cache / f"{source.relative_to(package).as_posix()}.argb"
            if not _valid(target):
                write_atomically(target, argb_bytes(read_png(source)))
    _READY[folders] = cache
    return cache


def prepare(*folders: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A registration ``prepare`` hook: the env's ``_images`` is gymnasium's ``folders``, decoded."""

    def hook(config: dict[str, Any]) -> dict[str, Any]:
        return {"_images": str(gymnasium_images(folders))}

    return hook
