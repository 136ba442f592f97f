"""MiniGrid-WFC-*: minigrid 3.2.0's Wave Function Collapse envs, their pattern images supplied by the user.

minigrid's WFC presets learn their levels from PNG images in ``minigrid/envs/wfc/patterns/``, but no minigrid
release ships that folder (neither wheel nor sdist, 2.3.1 to 3.2.0: the folder is only in minigrid's source
repository), and rlpool carries no third-party files. So the image is an input: the option ``pattern_path`` (a
PNG file), else the preset's file by minigrid's name in the folder ``$RLPOOL_MINIGRID_WFC_PATTERNS``, else in
the installed minigrid's ``patterns`` folder (minigrid installed from its source, or a release that ships it;
found without importing minigrid). The image is decoded here (with imageio where installed, as minigrid reads
it, else ``rlpool.images.read_png``) into the hidden option ``_pattern``; the C++ env (``wfc_env.cc``,
``wfc.cc``) does the rest. Without an image, ``make_spec`` still works and every ``make*`` raises a ValueError
saying how to supply one.

EnvPool's ids of the same names run without an image because they are another generator: small bitmaps of
EnvPool's own compiled into its library and a simpler solver of its own (every input read as periodic, no
heuristic options), neither minigrid's images nor its WFCConfig. Their levels are not minigrid's, so they are
no source for these.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

PATTERNS_ENV = "RLPOOL_MINIGRID_WFC_PATTERNS"


@dataclass(frozen=True)
class Preset:
    """One of minigrid's ``WFC_PRESETS``: its image's file name and the WFCConfig values it sets."""

    file: str
    pattern_width: int
    periodic: bool  # output_periodic and input_periodic (the presets set both alike)


# minigrid's WFC_PRESETS (the ids it registers by default); the other WFCConfig values are the defaults.
PRESETS: dict[str, Preset] = {
    "MazeSimple": Preset("SimpleMaze.png", 2, False),
    "DungeonMazeScaled": Preset("ScaledMaze.png", 2, True),
    "RoomsFabric": Preset("Fabric.png", 3, False),
    "ObstaclesBlackdots": Preset("Blackdots.png", 2, False),
    "ObstaclesAngular": Preset("Angular.png", 3, True),
    "ObstaclesHogs3": Preset("Hogs.png", 3, True),
}


def minigrid_patterns_dir() -> Path | None:
    """The installed minigrid's ``envs/wfc/patterns`` folder (found without importing minigrid), or None."""
    spec = importlib.util.find_spec("minigrid")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "envs" / "wfc" / "patterns"


def search_dirs() -> list[Path]:
    """Where a preset's image is looked for, in order: ``$RLPOOL_MINIGRID_WFC_PATTERNS``, then minigrid's."""
    out = [Path(p) for p in os.environ.get(PATTERNS_ENV, "").split(os.pathsep) if p]
    folder = minigrid_patterns_dir()
    if folder is not None:
        out.append(folder)
    return out


def missing_message(file: str) -> str:
    """Why a preset has no image (naming the package that lacks it), and how to give it one."""
    places = ", ".join(str(d) for d in search_dirs()) or "nowhere"
    return (
        f"MiniGrid-WFC: no pattern image {file!r}. minigrid's WFC presets learn their levels from PNG files in "
        "minigrid/envs/wfc/patterns/, which no minigrid release ships (neither its wheels nor its sdists; "
        f"installed here: {_installed_minigrid()}): only minigrid's source repository has them, and rlpool "
        "carries no third-party images. Supply one: pass pattern_path='/path/to/image.png', or set "
        f"{PATTERNS_ENV} to a folder holding minigrid's patterns files by their minigrid names (this preset "
        f"reads {file!r}; e.g. a checkout of the Minigrid repository's minigrid/envs/wfc/patterns). "
        f"Looked in: {places}."
    )


def _installed_minigrid() -> str:
    """``"minigrid <version>"``, or ``"no minigrid"`` (from its metadata, without importing it)."""
    try:
        return f"minigrid {importlib.metadata.version('minigrid')}"
    except importlib.metadata.PackageNotFoundError:
        return "no minigrid"


def load_pattern(path: Path) -> np.ndarray:
    """The RGB pixels (height, width, 3) of the PNG at ``path``, as minigrid reads them (``imread()[:, :, :3]``).

    A missing or unreadable file raises a ValueError naming ``path``.
    """
    if not path.is_file():
        raise ValueError(f"MiniGrid-WFC: pattern_path {str(path)!r} is not a file")
    try:
        try:
            from imageio.v2 import imread
        except ImportError:
            imread = None
        if imread is not None:
            with warnings.catch_warnings():  # imageio's plugins warn of their own deprecations on a bad file
                warnings.simplefilter("ignore")
                pixels = np.asarray(imread(path))
        else:
            from rlpool.images import read_png

            pixels = read_png(path)
    except Exception as e:  # noqa: BLE001  (any decoder's failure is a bad image)
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ValueError(f"MiniGrid-WFC: cannot read the pattern image {str(path)!r}: {reason}") from e
    if pixels.ndim == 2:  # greyscale: the same value in each channel
        pixels = np.repeat(pixels[:, :, None], 3, axis=2)
    if pixels.ndim != 3 or pixels.shape[2] < 3 or pixels.dtype != np.uint8:
        raise ValueError(f"MiniGrid-WFC: the pattern image {str(path)!r} must be an 8-bit RGB or RGBA image, got "
                         f"shape {pixels.shape} of {pixels.dtype}")
    if not (1 <= pixels.shape[0] <= 1024 and 1 <= pixels.shape[1] <= 1024):
        raise ValueError(f"MiniGrid-WFC: the pattern image {str(path)!r} must be 1 to 1024 pixels a side, got "
                         f"{pixels.shape[1]} x {pixels.shape[0]}")
    return np.ascontiguousarray(pixels[:, :, :3])


def encode(pixels: np.ndarray) -> str:
    """The hidden option ``_pattern``: ``"<width>x<height>:"`` and the RGB bytes in hex (what wfc_env.cc reads)."""
    h, w, _ = pixels.shape
    return f"{w}x{h}:" + pixels.tobytes().hex()


def prepare(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """The hidden options of a WFC task: its image decoded, or why there is none (raised by ``make``)."""
    given = options.get("pattern_path", "")
    if given:
        return {"_pattern": encode(load_pattern(Path(given).expanduser())), "_pattern_error": ""}
    file = PRESETS[preset].file
    for folder in search_dirs():
        if (folder / file).is_file():
            return {"_pattern": encode(load_pattern(folder / file)), "_pattern_error": ""}
    return {"_pattern": "", "_pattern_error": missing_message(file)}
