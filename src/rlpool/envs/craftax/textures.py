"""Craftax's pixel textures (Classic and full), taken from craftax 1.6.1's published wheel into raw files.

craftax renders its pixel observations from 16 x 16 PNGs, Classic's in ``craftax/craftax_classic/assets/`` and
full Craftax's in ``craftax/craftax/assets/``, loaded by ``load_texture`` and assembled by
``load_all_textures_given_size`` (craftax 1.6.1, ``craftax_classic/constants.py`` l.135-436 and
``craftax/constants.py`` l.597-1116). rlpool does not vendor the PNGs and does not install craftax: the pinned
wheel is fetched by name, version and sha256 with pip (``rlpool.pinned_wheel``), each PNG is checked against the
wheel's RECORD, decoded here (a small PNG decoder: zlib and the five row filters, 8-bit RGB/RGBA and 1/2/4/8-bit
palette images, non-interlaced, the kinds craftax's PNGs are), processed as ``load_texture`` does (imageio's RGBA
conversion, alpha clamped to 0/1 by ``// 255`` unless Classic's ``clamp_alpha=False``, PIL's ``Image.NEAREST``
resize from 16 px, reproduced with PIL's coordinate rule) and written, with craftax's MIT licence, into rlpool's
cache: ``<cache>/craftax/craftax-1.6.1/classic_textures_7.bin`` (``classic_textures_file``) and
``<cache>/craftax/craftax-1.6.1-full/full_textures_10.bin`` (``full_textures_file``). The C++ renderers
(``classic_render.h``, ``full_render.h``) read those files, whose path the envs take as a string option.

File layout (little-endian): 8 magic bytes (``RLPCXCT1`` Classic, ``RLPCXFT1`` full), then uint32 block pixel
size (7 or 10), uint32 number of float32 values that follow, then the float32 arrays of ``LAYOUT`` (Classic) or
``FULL_LAYOUT`` (full) in order, each C-ordered.
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


def _read_pngs(wheel_path: Path, assets: str, names: list[str], folder: Path) -> dict[str, np.ndarray]:
    """The PNGs ``names`` of the wheel's folder ``assets``, checked against the wheel's RECORD and decoded.

    craftax's licence is written into ``folder`` on the way.
    """
    pngs = {}
    with zipfile.ZipFile(wheel_path) as z:
        record = pinned_wheel.record_hashes(z, wheel().dist_info)
        for name in [assets + f for f in names] + [LICENSE]:
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
                    pngs[name[len(assets):]] = decode_png(data, name)
                except (ValueError, zlib.error) as e:
                    raise CraftaxUnavailableError(f"{wheel_path}: {name} could not be decoded: {e}") from e
    return pngs


def _unpack(wheel_path: Path, folder: Path) -> None:
    """The texture file (and craftax's licence) from ``wheel_path`` (already checked) into ``folder``."""
    pngs = _read_pngs(wheel_path, ASSETS, needed_pngs(), folder)
    (folder / FILE_NAME).write_bytes(texture_bytes(build_textures(pngs)))
    (folder / MARKER).write_text(_marker_text())


def classic_textures_file() -> Path:
    """The texture file of Craftax-Classic's pixel observation, built once from craftax 1.6.1's wheel.

    Raises ``CraftaxUnavailableError`` (naming the wheel and what to do) where the wheel cannot be had.
    """
    return pinned_wheel.fetch_into(wheel(), cache_folder(), _unpack, _complete) / FILE_NAME


# --- full Craftax ----------------------------------------------------------------------------------------

FULL_ASSETS = "craftax/craftax/assets/"
FULL_BLOCK_PIXEL_SIZE = 10
"""craftax/constants.py BLOCK_PIXEL_SIZE_AGENT: full Craftax's pixel observation's tile size."""
FULL_FILE_NAME = f"full_textures_{FULL_BLOCK_PIXEL_SIZE}.bin"
FULL_MAGIC = b"RLPCXFT1"
FULL_OBS_DIM = (9, 11)

# Block textures by BlockType (constants.py load_all_textures_given_size block_texture_names); OUT_OF_BOUNDS
# (1) is replaced by grey 128 and DARKNESS (18) by black.
FULL_BLOCK_FILES = [
    "debug_tile.png", "debug_tile.png", "grass.png", "water.png", "stone.png", "tree.png", "wood.png",
    "path.png", "coal.png", "iron.png", "diamond.png", "table.png", "furnace.png", "sand.png", "lava.png",
    "plant_on_grass.png", "ripe_plant_on_grass.png", "wall2.png", "debug_tile.png", "wall_moss.png",
    "stalagmite.png", "sapphire.png", "ruby.png", "chest.png", "fountain.png", "fire_grass.png", "ice_grass.png",
    "gravel.png", "fire_tree.png", "ice_shrub.png", "enchantment_table_fire.png", "enchantment_table_ice.png",
    "necromancer.png", "grave.png", "grave2.png", "grave3.png", "necromancer_vulnerable.png",
]
FULL_ITEM_FILES = ["debug.png", "torch_in_inventory.png", "ladder_down.png", "ladder_up.png", "ladder_down_blocked.png"]
# The small inventory icons, in the order of full_render.h's Icon enum, and whether craftax multiplies RGB
# by alpha (apply_alpha) or keeps RGB ([:, :, :3]).
FULL_ICON_FILES = [
    ("health.png", False), ("food.png", False), ("drink.png", False), ("energy.png", False), ("mana.png", False),
    ("wood_pickaxe.png", True), ("stone_pickaxe.png", True), ("iron_pickaxe.png", True),
    ("diamond_pickaxe.png", True), ("wood_sword.png", True), ("stone_sword.png", True), ("iron_sword.png", True),
    ("diamond_sword.png", True), ("bow.png", False), ("arrow-up.png", True), ("sapling.png", False),
    ("torch_in_inventory.png", False), ("potion_red.png", False), ("potion_green.png", False),
    ("potion_blue.png", False), ("potion_pink.png", False), ("potion_cyan.png", False),
    ("potion_yellow.png", False), ("book.png", False), ("fireball.png", False), ("iceball.png", False),
    ("xp.png", False), ("dexterity.png", False), ("strength.png", False), ("intelligence.png", False),
    ("iron_helmet.png", True), ("iron_chestplate.png", True), ("iron_pants.png", True), ("iron_boots.png", True),
    ("diamond_helmet.png", True), ("diamond_chestplate.png", True), ("diamond_pants.png", True),
    ("diamond_boots.png", True),
]
# The enchantment overlays (RGBA, alpha 0/1), in the order of full_render.h's Enchant enum.
FULL_ENCHANT_FILES = [
    "sword_fire_enchantment.png", "sword_ice_enchantment.png", "arrow_fire_enchantment.png",
    "arrow_ice_enchantment.png", "helmet_fire_enchantment.png", "chestplate_fire_enchantment.png",
    "pants_fire_enchantment.png", "boots_fire_enchantment.png", "helmet_ice_enchantment.png",
    "chestplate_ice_enchantment.png", "pants_ice_enchantment.png", "boots_ice_enchantment.png",
]
FULL_MOB_FILES = {
    "melee": ["zombie.png", "gnome_warrior.png", "orc_soldier.png", "lizard.png", "knight.png", "troll.png",
              "pigman.png", "frost_troll.png"],
    "passive": ["cow.png", "bat.png", "snail.png"],
    "ranged": ["skeleton.png", "gnome_archer.png", "orc_mage.png", "kobold.png", "knight_archer.png",
               "deep_thing.png", "fire_elemental.png", "ice_elemental.png"],
    "projectile": ["arrow-up.png", "dagger.png", "fireball.png", "iceball.png", "arrow-up.png", "slimeball.png",
                   "fireball.png", "iceball.png"],
}
FULL_PLAYER_FILES = PLAYER_FILES

_FS = FULL_BLOCK_PIXEL_SIZE
_FSMALL = int(FULL_BLOCK_PIXEL_SIZE * 0.8)
_FNUMBER = int(FULL_BLOCK_PIXEL_SIZE * 0.4)
FULL_LAYOUT: list[tuple[str, tuple[int, ...]]] = [
    ("block", (37, _FS, _FS, 3)),
    ("smaller_block", (37, _FSMALL, _FSMALL, 3)),
    ("item", (5, _FS, _FS, 4)),
    ("player", (5, _FS, _FS, 3)),
    ("player_alpha", (5, _FS, _FS)),
    ("number", (10, _FNUMBER, _FNUMBER, 3)),
    ("number_alpha", (10, _FNUMBER, _FNUMBER)),
    ("number_with_zero", (10, _FNUMBER, _FNUMBER, 3)),
    ("number_with_zero_alpha", (10, _FNUMBER, _FNUMBER)),
    ("icons", (len(FULL_ICON_FILES), _FSMALL, _FSMALL, 3)),
    ("enchant", (len(FULL_ENCHANT_FILES), _FSMALL, _FSMALL, 4)),
    ("melee", (8, _FS, _FS, 3)),
    ("melee_alpha", (8, _FS, _FS)),
    ("passive", (3, _FS, _FS, 3)),
    ("passive_alpha", (3, _FS, _FS)),
    ("ranged", (8, _FS, _FS, 3)),
    ("ranged_alpha", (8, _FS, _FS)),
    ("projectile", (8, _FS, _FS, 3)),
    ("projectile_alpha", (8, _FS, _FS)),
    ("night_noise_intensity", (FULL_OBS_DIM[0] * _FS, FULL_OBS_DIM[1] * _FS)),
]
"""The arrays of the full texture file, in order, with their shapes (what full_render.h's Textures holds)."""


def _apply_alpha(texture: np.ndarray) -> np.ndarray:
    return texture[:, :, :3] * texture[:, :, 3:4]


def night_noise_intensity(rows: int, cols: int) -> np.ndarray:
    """constants.py's night_noise_intensity_texture (one channel): each pixel's distance from the centre pixel.

    The float32 distance over its maximum, divided as XLA divides by a scalar: times the float32 reciprocal.
    """
    x = np.arange(rows)[:, None] - rows // 2
    y = np.arange(cols)[None, :] - cols // 2
    d = np.sqrt((x**2 + y**2).astype(np.float32))
    return (d * (np.float32(1) / d.max())).astype(np.float32)


def build_full_textures(pngs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The arrays of ``FULL_LAYOUT`` (float32) from craftax's decoded PNGs.

    As craftax/constants.py ``load_all_textures_given_size(10)`` makes them; its ``load_texture`` always clamps
    alpha to 0/1.
    """
    s, small, number = _FS, _FSMALL, _FNUMBER
    t: dict[str, np.ndarray] = {}
    block = np.stack([load_texture(pngs[f], s)[:, :, :3] for f in FULL_BLOCK_FILES])
    block[1] = 128
    block[18] = 0
    t["block"] = block
    t["smaller_block"] = np.stack([load_texture(pngs[f], small)[:, :, :3] for f in FULL_BLOCK_FILES])
    t["item"] = np.stack([load_texture(pngs[f], s) for f in FULL_ITEM_FILES])
    players = [load_texture(pngs[f], s) for f in FULL_PLAYER_FILES]
    t["player"] = np.stack([p[:, :, :3] for p in players])
    t["player_alpha"] = np.stack([p[:, :, 3] for p in players])
    digits = [load_texture(pngs[f"{i}.png"], number) for i in range(10)]
    blank = np.zeros((number, number, 4), np.int32)
    t["number"] = np.stack([_apply_alpha(n) for n in [blank, *digits[1:]]])
    t["number_alpha"] = np.stack([n[:, :, 3] for n in [blank, *digits[1:]]])
    t["number_with_zero"] = np.stack([_apply_alpha(n) for n in digits])
    t["number_with_zero_alpha"] = np.stack([n[:, :, 3] for n in digits])
    icons = []
    for f, apply_alpha in FULL_ICON_FILES:
        icon = load_texture(pngs[f], small)
        icons.append(_apply_alpha(icon) if apply_alpha else icon[:, :, :3])
    t["icons"] = np.stack(icons)
    t["enchant"] = np.stack([load_texture(pngs[f], small) for f in FULL_ENCHANT_FILES])
    for kind, files in FULL_MOB_FILES.items():
        mobs = [load_texture(pngs[f], s) for f in files]
        t[kind] = np.stack([_apply_alpha(m) for m in mobs])
        t[f"{kind}_alpha"] = np.stack([m[:, :, 3] for m in mobs])
    t["night_noise_intensity"] = night_noise_intensity(FULL_OBS_DIM[0] * s, FULL_OBS_DIM[1] * s)
    out = {}
    for name, shape in FULL_LAYOUT:
        a = np.asarray(t[name]).astype(np.float32)
        if a.shape != shape:
            raise ValueError(f"texture {name}: shape {a.shape}, expected {shape}")
        out[name] = a
    return out


def full_texture_bytes(textures: dict[str, np.ndarray]) -> bytes:
    """The full texture file's bytes: header, then ``FULL_LAYOUT``'s arrays as little-endian float32."""
    payload = b"".join(np.ascontiguousarray(textures[name], "<f4").tobytes() for name, _ in FULL_LAYOUT)
    return FULL_MAGIC + struct.pack("<II", FULL_BLOCK_PIXEL_SIZE, len(payload) // 4) + payload


def full_needed_pngs() -> list[str]:
    """The PNG file names full Craftax's renderer's textures come from."""
    names = set(FULL_BLOCK_FILES) | set(FULL_ITEM_FILES) | set(FULL_PLAYER_FILES) | set(FULL_ENCHANT_FILES)
    names |= {f for f, _ in FULL_ICON_FILES} | {f for files in FULL_MOB_FILES.values() for f in files}
    return sorted(names | {f"{i}.png" for i in range(10)})


def full_cache_folder() -> Path:
    """Where the full texture file is written: ``<cache>/craftax/craftax-1.6.1-full``."""
    return cache_root() / "craftax" / f"craftax-{VERSION}-full"


def _full_marker_text() -> str:
    w = wheel()
    return f"{w.file} {w.sha256} {FULL_MAGIC.decode()}\n"


def _full_complete(folder: Path) -> bool:
    try:
        return (folder / MARKER).read_text() == _full_marker_text() and (folder / FULL_FILE_NAME).is_file()
    except OSError:
        return False


def _full_unpack(wheel_path: Path, folder: Path) -> None:
    pngs = _read_pngs(wheel_path, FULL_ASSETS, full_needed_pngs(), folder)
    (folder / FULL_FILE_NAME).write_bytes(full_texture_bytes(build_full_textures(pngs)))
    (folder / MARKER).write_text(_full_marker_text())


def full_textures_file() -> Path:
    """The texture file of full Craftax's pixel observation, built once from craftax 1.6.1's wheel.

    Raises ``CraftaxUnavailableError`` (naming the wheel and what to do) where the wheel cannot be had.
    """
    return pinned_wheel.fetch_into(wheel(), full_cache_folder(), _full_unpack, _full_complete) / FULL_FILE_NAME
