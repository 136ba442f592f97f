"""Craftax-Classic's pixel textures, taken from craftax 1.6.1's published wheel and written into one raw file.

craftax renders its pixel observation from 16 x 16 PNGs in ``craftax/craftax_classic/assets/``, loaded by
``load_texture`` and assembled by ``load_all_textures_given_size`` (craftax 1.6.1,
``craftax_classic/constants.py`` l.135-436). rlpool does not vendor the PNGs and does not install craftax: the
pinned wheel is fetched by name, version and sha256 with pip (``rlpool.pinned_wheel``), each PNG is checked
against the wheel's RECORD, decoded here (a small PNG decoder: zlib and the five row filters, 8-bit RGB/RGBA
and 1/2/4/8-bit palette images, non-interlaced, the kinds craftax's PNGs are), processed as ``load_texture``
does (imageio's RGBA conversion, alpha clamped to 0/1 by ``// 255`` unless ``clamp_alpha=False``, PIL's
``Image.NEAREST`` resize from 16 px, reproduced with PIL's coordinate rule) and written, with craftax's MIT
licence, into rlpool's cache: ``<cache>/craftax/craftax-1.6.1/classic_textures_7.bin``. The C++ renderer
(``classic_render.h``) reads that file, whose path the env takes as a string option.

File layout (little-endian): the 8 bytes ``RLPCXCT1``, then uint32 block pixel size (7), uint32 number of
float32 values that follow, then the float32 arrays of ``LAYOUT`` in order, each C-ordered.
"""

from __future__ import annotations

import hashlib
import struct
import zipfile
import zlib
from pathlib import Path

import numpy as np

from rlpool import pinned_wheel
from rlpool.cache import cache_root

PACKAGE = "craftax"
VERSION = "1.6.1"
"""The craftax release whose textures the renderer uses."""
ASSETS = "craftax/craftax_classic/assets/"
LICENSE = f"craftax-{VERSION}.dist-info/licenses/LICENSE"
BLOCK_PIXEL_SIZE = 7
"""craftax_classic/constants.py BLOCK_PIXEL_SIZE_AGENT: the pixel observation's tile size."""
FILE_NAME = f"classic_textures_{BLOCK_PIXEL_SIZE}.bin"
MAGIC = b"RLPCXCT1"
MARKER = "UNPACKED-BY-RLPOOL"
OBS_DIM = (7, 9)

# craftax's block textures, by BlockType (constants.py load_all_textures_given_size texture_names); block 1
# (OUT_OF_BOUNDS) is replaced by grey 128.
BLOCK_FILES = [
    "debug_tile.png", "debug_tile.png", "grass.png", "water.png", "stone.png", "tree.png", "wood.png",
    "path.png", "coal.png", "iron.png", "diamond.png", "table.png", "furnace.png", "sand.png", "lava.png",
    "plant_on_grass.png", "ripe_plant_on_grass.png",
]
PLAYER_FILES = ["player-left.png", "player-right.png", "player-up.png", "player-down.png", "player-sleep.png"]
# The inventory icons (small size), in the renderer's order, and whether craftax multiplies RGB by alpha.
ICON_FILES = [
    ("health.png", False), ("food.png", False), ("drink.png", False), ("energy.png", False),
    ("wood_pickaxe.png", False), ("stone_pickaxe.png", True), ("iron_pickaxe.png", True),
    ("wood_sword.png", True), ("stone_sword.png", True), ("iron_sword.png", True), ("sapling.png", False),
]
MOB_FILES = ["zombie.png", "cow.png", "skeleton.png"]

_S = BLOCK_PIXEL_SIZE
_SMALL = int(BLOCK_PIXEL_SIZE * 0.8)
_NUMBER = int(BLOCK_PIXEL_SIZE * 0.6)
LAYOUT: list[tuple[str, tuple[int, ...]]] = [
    ("block", (17, _S, _S, 3)),
    ("smaller_block", (17, _SMALL, _SMALL, 3)),
    ("player", (5, _S, _S, 3)),
    ("player_alpha", (5, _S, _S)),
    ("number", (10, _NUMBER, _NUMBER, 3)),
    ("number_alpha", (10, _NUMBER, _NUMBER)),
    ("icons", (len(ICON_FILES), _SMALL, _SMALL, 3)),
    ("mobs", (3, _S, _S, 3)),
    ("mobs_alpha", (3, _S, _S)),
    ("arrow", (_S, _S, 3)),
    ("arrow_alpha", (_S, _S)),
    ("night_noise_intensity", (OBS_DIM[0] * _S, OBS_DIM[1] * _S)),
]
"""The arrays of the file, in order, with their shapes (what classic_render.h's Textures holds)."""


class CraftaxUnavailableError(ImportError):
    """craftax 1.6.1's textures could not be had (the wheel not fetched, or not readable): what to do."""


def wheel() -> pinned_wheel.PinnedWheel:
    """The craftax 1.6.1 wheel, as rlpool fetches it."""
    return pinned_wheel.PinnedWheel(
        package=PACKAGE,
        version=VERSION,
        file=f"craftax-{VERSION}-py3-none-any.whl",
        sha256="09c2a78870a68f4af45709de73c77cf5b6df9e754cefbe9f05a1b8fb66243959",
        megabytes=1,
        purpose="the Craftax pixel observations' textures",
        needed=f"the Craftax pixel observations need craftax {VERSION}'s textures (craftax-{VERSION}-py3-none-any.whl)",
        error=CraftaxUnavailableError,
        what_to_do=(
            f"Check the network access to the package index, or put craftax-{VERSION}-py3-none-any.whl, "
            f"downloaded elsewhere (pip download craftax=={VERSION} --no-deps), in {cache_root()}"
        ),
    )


def cache_folder() -> Path:
    """Where the texture file is written: ``<cache>/craftax/craftax-1.6.1``."""
    return cache_root() / "craftax" / f"craftax-{VERSION}"


# --- PNG -----------------------------------------------------------------------------------------------


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(raw: bytes, height: int, stride: int, bpp: int) -> bytearray:
    """The scanlines of ``raw`` (a filter byte and ``stride`` bytes each) with the PNG filters undone."""
    out = bytearray(height * stride)
    prev = bytearray(stride)
    pos = 0
    for y in range(height):
        kind = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + _paeth(a, b, c)) & 0xFF
            elif kind != 0:
                raise ValueError(f"unknown PNG filter {kind}")
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return out


def decode_png(data: bytes, name: str = "PNG") -> np.ndarray:
    """An image as uint8 RGBA (height, width, 4), as PIL's ``convert("RGBA")`` gives it.

    Takes 8-bit RGB and RGBA and 1/2/4/8-bit palette images (alpha 255, or the tRNS chunk's), non-interlaced;
    raises ValueError on anything else, naming ``name``.
    """
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{name}: not a PNG file")
    pos, idat, palette, trns = 8, bytearray(), None, None
    header = None
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"tRNS":
            trns = body
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError(f"{name}: no IHDR chunk")
    width, height, depth, color, compression, filtering, interlace = header
    if compression != 0 or filtering != 0 or interlace != 0:
        raise ValueError(f"{name}: interlaced or non-standard PNG not supported")
    if color in (2, 6) and depth == 8:
        channels = 3 if color == 2 else 4
        if color == 2 and trns is not None:
            raise ValueError(f"{name}: RGB with a tRNS chunk not supported")
        rows = _unfilter(zlib.decompress(bytes(idat)), height, width * channels, channels)
        pixels = np.frombuffer(bytes(rows), np.uint8).reshape(height, width, channels)
        if channels == 4:
            return pixels.copy()
        return np.concatenate([pixels, np.full((height, width, 1), 255, np.uint8)], axis=2)
    if color == 3 and depth in (1, 2, 4, 8) and palette is not None:
        stride = (width * depth + 7) // 8
        rows = _unfilter(zlib.decompress(bytes(idat)), height, stride, 1)
        bits = np.unpackbits(np.frombuffer(bytes(rows), np.uint8).reshape(height, stride), axis=1)
        bits = bits[:, :width * depth].reshape(height, width, depth)
        index = (bits * (1 << np.arange(depth - 1, -1, -1))).sum(axis=2)
        if index.max() >= len(palette):
            raise ValueError(f"{name}: palette index out of range")
        alpha = np.full(len(palette), 255, np.uint8)
        if trns is not None:
            alpha[:len(trns)] = np.frombuffer(trns, np.uint8)[:len(palette)]
        return np.concatenate([palette[index], alpha[index][..., None]], axis=2).astype(np.uint8)
    raise ValueError(f"{name}: PNG colour type {color} at bit depth {depth} not supported")


# --- craftax's load_texture ------------------------------------------------------------------------------


def nearest_indices(size_in: int, size_out: int) -> list[int]:
    """The source index of each output pixel of PIL's ``Image.NEAREST`` resize along one axis.

    PIL (ImagingScaleAffine) starts at ``scale * 0.5`` and adds ``scale = size_in / size_out`` per pixel,
    in double, taking the integer part.
    """
    scale = size_in / size_out
    position = scale * 0.5
    out = []
    for _ in range(size_out):
        out.append(min(int(position), size_in - 1) if position >= 0 else -1)
        position += scale
    return out


def load_texture(png: np.ndarray, size: int, clamp_alpha: bool = True) -> np.ndarray:
    """The texture craftax's ``load_texture`` makes of a decoded 16 x 16 RGBA image: int32 (size, size, 4)."""
    img = png.astype(np.int32)
    if img.shape[:2] != (16, 16):
        raise ValueError(f"a craftax texture is 16 x 16, not {img.shape[:2]}")
    if clamp_alpha:
        img[:, :, 3] //= 255
    if size != 16:
        rows = nearest_indices(16, size)
        img = img.astype(np.uint8)[rows][:, rows].astype(np.int32)
    return img


def build_textures(pngs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The arrays of ``LAYOUT`` (float32) from craftax's decoded PNGs, as ``load_all_textures_given_size``."""
    s, small, number = _S, _SMALL, _NUMBER
    t: dict[str, np.ndarray] = {}
    block = np.stack([load_texture(pngs[f], s)[:, :, :3] for f in BLOCK_FILES])
    block[1] = 128
    t["block"] = block
    t["smaller_block"] = np.stack([load_texture(pngs[f], small)[:, :, :3] for f in BLOCK_FILES])
    players = [load_texture(pngs[f], s, clamp_alpha=False) for f in PLAYER_FILES]
    t["player"] = np.stack([p[:, :, :3] for p in players])
    t["player_alpha"] = np.stack([p[:, :, 3].astype(np.float32) / np.float32(255) for p in players])
    numbers = [np.zeros((number, number, 4), np.int32)]
    numbers += [load_texture(pngs[f"{i}.png"], number) for i in range(1, 10)]
    t["number"] = np.stack([n[:, :, :3] * n[:, :, 3:4] for n in numbers])
    t["number_alpha"] = np.stack([n[:, :, 3] for n in numbers])
    icons = []
    for f, apply_alpha in ICON_FILES:
        icon = load_texture(pngs[f], small)
        icons.append(icon[:, :, :3] * icon[:, :, 3:4] if apply_alpha else icon[:, :, :3])
    t["icons"] = np.stack(icons)
    mobs = [load_texture(pngs[f], s, clamp_alpha=False) for f in MOB_FILES]
    t["mobs"] = np.stack([m[:, :, :3] for m in mobs])
    t["mobs_alpha"] = np.stack([m[:, :, 3].astype(np.float32) / np.float32(255) for m in mobs])
    arrow = load_texture(pngs["arrow-up.png"], s)
    t["arrow"] = arrow[:, :, :3] * arrow[:, :, 3:4]
    t["arrow_alpha"] = arrow[:, :, 3]
    xs, ys = np.meshgrid(np.linspace(-1, 1, OBS_DIM[0] * s), np.linspace(-1, 1, OBS_DIM[1] * s))
    t["night_noise_intensity"] = 1 - np.exp(-0.5 * (xs**2 + ys**2) / (0.5**2)).T
    out = {}
    for name, shape in LAYOUT:
        a = np.asarray(t[name]).astype(np.float32)
        if a.shape != shape:
            raise ValueError(f"texture {name}: shape {a.shape}, expected {shape}")
        out[name] = a
    return out


def texture_bytes(textures: dict[str, np.ndarray]) -> bytes:
    """The texture file's bytes: header, then ``LAYOUT``'s arrays as little-endian float32."""
    payload = b"".join(np.ascontiguousarray(textures[name], "<f4").tobytes() for name, _ in LAYOUT)
    return MAGIC + struct.pack("<II", BLOCK_PIXEL_SIZE, len(payload) // 4) + payload


def needed_pngs() -> list[str]:
    """The PNG file names the renderer's textures come from."""
    names = set(BLOCK_FILES) | set(PLAYER_FILES) | {f for f, _ in ICON_FILES} | set(MOB_FILES)
    return sorted(names | {"arrow-up.png"} | {f"{i}.png" for i in range(1, 10)})


# --- the cached file -------------------------------------------------------------------------------------


def _marker_text() -> str:
    w = wheel()
    return f"{w.file} {w.sha256} {MAGIC.decode()}\n"


def _complete(folder: Path) -> bool:
    try:
        return (folder / MARKER).read_text() == _marker_text() and (folder / FILE_NAME).is_file()
    except OSError:
        return False


def _unpack(wheel_path: Path, folder: Path) -> None:
    """The texture file (and craftax's licence) from ``wheel_path`` (already checked) into ``folder``."""
    pngs = {}
    with zipfile.ZipFile(wheel_path) as z:
        record = pinned_wheel.record_hashes(z, wheel().dist_info)
        for name in [ASSETS + f for f in needed_pngs()] + [LICENSE]:
            try:
                data = z.read(name)
            except KeyError as e:
                raise CraftaxUnavailableError(f"{wheel_path}: {name} is missing: refusing to use it") from e
            if hashlib.sha256(data).hexdigest() != record.get(name):
                raise CraftaxUnavailableError(
                    f"{wheel_path}: {name} differs from its sha256 in the wheel's RECORD: refusing to use it"
                )
            if name == LICENSE:
                (folder / "LICENSE").write_bytes(data)
            else:
                try:
                    pngs[name[len(ASSETS):]] = decode_png(data, name)
                except (ValueError, zlib.error) as e:
                    raise CraftaxUnavailableError(f"{wheel_path}: {name} could not be decoded: {e}") from e
    (folder / FILE_NAME).write_bytes(texture_bytes(build_textures(pngs)))
    (folder / MARKER).write_text(_marker_text())


def classic_textures_file() -> Path:
    """The texture file of Craftax-Classic's pixel observation, built once from craftax 1.6.1's wheel.

    Raises ``CraftaxUnavailableError`` (naming the wheel and what to do) where the wheel cannot be had.
    """
    return pinned_wheel.fetch_into(wheel(), cache_folder(), _unpack, _complete) / FILE_NAME
