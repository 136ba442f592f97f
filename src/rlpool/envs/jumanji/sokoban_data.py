"""Sokoban's levels and pictures (jumanji 1.1.2, ``Sokoban-v0``), found or fetched when a Sokoban task is made.

jumanji's Sokoban takes its levels from one of three generators (``jumanji/environments/routing/sokoban/
generator.py``), which the option ``generator`` picks:

- ``"huggingface"`` (jumanji's default, ``HuggingFaceDeepMindGenerator``): DeepMind's Boxoban levels, which
  jumanji downloads from the Hugging Face hub (repo ``InstaDeepAI/boxoban-levels``, file ``<dataset_name>.npy``:
  uint8 of shape ``(N, 10, 10, 2)``, ``[..., 0]`` the fixed grid, ``[..., 1]`` the variable one). rlpool neither
  ships nor downloads them: the file is the option ``levels_file`` where given, else the one ``hf_hub_download``
  has left in the Hugging Face cache (``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else
  ``~/.cache/huggingface/hub``: ``models--InstaDeepAI--boxoban-levels/snapshots/*/<dataset_name>.npy``); where
  neither holds it, ``levels_file`` raises a ValueError saying how to supply it.
- ``"toy"`` (``ToyGenerator``) and ``"simple_solve"`` (``SimpleSolveGenerator``): the two and the one level
  written in ``generator.py`` itself. ``generator.py`` is taken from an installed jumanji where that holds it
  with the sha256 it has in jumanji's 1.1.2 wheel, else from that wheel, fetched by name, version and sha256
  (``wheel_files``, shared by the family); the levels are read from it with ``ast`` (the file is neither
  imported nor run), turned into grids with ``convert_level_to_array``'s ``mapping`` (read the same way) and
  written in the Boxoban file's format to ``<cache>/jumanji/jumanji-1.1.2-sokoban-<generator>.npy``.

The env (``sokoban.cc``) reads and checks the level file whose path ``prepare`` gives it as the hidden option
``_levels_file`` (a missing dataset's error as ``_levels_missing``, raised when an env is made, so that the
task's spec and description need no levels). For ``render_mode``, ``prepare`` also decodes jumanji's viewer
images (``sokoban/imgs/*.png``, from the same place as ``generator.py``) into rlpool's image format
(``rlpool.images``) in ``<cache>/jumanji/jumanji-1.1.2-sokoban-imgs/``, the hidden option ``_images``.
"""

from __future__ import annotations

import ast
import io
import os
from pathlib import Path
from typing import Any

import numpy as np

from rlpool import images
from rlpool.cache import cache_root, write_atomically
from rlpool.envs.jumanji import wheel_files

PACKAGE = wheel_files.PACKAGE
VERSION = wheel_files.VERSION
WHEEL_SHA256 = wheel_files.WHEEL_SHA256
FOLDER = "jumanji/environments/routing/sokoban/"
GENERATOR = FOLDER + "generator.py"
"""The source that holds the toy and simple-solve levels, as the wheel names it."""
GENERATOR_SHA256 = "295969910ea843bdee027707e96567f8b22b14555469c3b61b767121384e4db4"
"""Its sha256 in the pinned wheel (the wheel's RECORD)."""
IMAGES: dict[str, str] = {
    "floor": "0d65fb2d1372545ad71d75aaa92f51075f6d99fcd0a63af321ec4bf494ffb1e9",
    "wall": "277f2644da8ebc8230cae70f48c92ce40475cfe8574354f003515b0c1668918b",
    "box_target": "37276b9baacea6b0db7343f9fa4e2c07183abb274ccc1a24d7de59e058e74770",
    "agent": "1b38631351efbb2e5d7923b6b0fc49237762952fd098e24091b8cbcf5ad0fce5",
    "box": "5dd6a15b09cbddf585c0e41396ad11876d4a5a975e3a89cc65158ad94a5e8022",
    "agent_on_target": "55194119beebfe58032dbec06a9ec8ae5d3a0dc363f94918d24b8d34ab13e203",
    "box_on_target": "c6c7abeffab6228d65fa8c61ec928ee9b6950a529ad2b8793becfb38e9cde97f",
}
"""BoxViewer's images (``imgs/<name>.png``), in its order (the cell codes 0..6), with their sha256 in the wheel."""

GENERATORS: dict[str, str] = {"toy": "ToyGenerator", "simple_solve": "SimpleSolveGenerator"}
"""The option ``generator``'s values whose levels are in ``generator.py`` -> the class that holds them."""
DATASETS = ("unfiltered-train", "unfiltered-valid", "unfiltered-test", "medium-train", "medium-test", "hard")
"""``HuggingFaceDeepMindGenerator``'s dataset names."""
HUB_REPO = "InstaDeepAI/boxoban-levels"
"""The Hugging Face hub repository jumanji downloads the Boxoban levels from."""
GRID = 10


class SokobanDataUnavailableError(RuntimeError):
    """jumanji's Sokoban files could not be had (no network, no pip, a file with the wrong sha256): what to do."""


class BoxobanDatasetMissingError(ValueError):
    """The Boxoban dataset asked for is not in the Hugging Face cache and no ``levels_file`` names one."""


def _files() -> wheel_files.WheelFiles:
    """``generator.py`` and the viewer's images as files of the wheel (read from this module's constants)."""
    files = {GENERATOR: GENERATOR_SHA256, **{f"{FOLDER}imgs/{name}.png": sha for name, sha in IMAGES.items()}}
    return wheel_files.WheelFiles(
        part="sokoban", files=files, purpose="Sokoban's levels and images",
        needed=f"Sokoban's toy levels and pictures are {PACKAGE}=={VERSION}'s ({FOLDER})",
        error=SokobanDataUnavailableError, wheel_sha256=WHEEL_SHA256,
    )


def _literal(node: ast.AST | None, origin: str, what: str) -> Any:
    """The value of a literal expression, or a SokobanDataUnavailableError naming ``what``."""
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, TypeError, SyntaxError) as e:
        raise SokobanDataUnavailableError(f"{origin}: {what} is no literal: refusing to use it") from e


def _function(body: list[ast.stmt], name: str) -> ast.FunctionDef | None:
    """The function ``name`` defined directly in ``body``."""
    return next((n for n in body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _assignments(function: ast.FunctionDef) -> dict[str, ast.expr]:
    """The names a function's top-level statements assign (``name = value``) -> the value."""
    out: dict[str, ast.expr] = {}
    for node in function.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out[node.targets[0].id] = node.value
    return out


def parse_levels(source: bytes, origin: str, generator: str) -> np.ndarray:
    """The levels of ``generator`` ("toy" or "simple_solve") in ``generator.py``'s ``source``, as a Boxoban array.

    The class's ``__call__`` assigns them as ``level1``, ``level2``, ... (lists of ten strings of ten
    characters), in that order; ``convert_level_to_array``'s ``mapping`` turns each character into its
    (fixed, variable) codes. Read with ``ast``; nothing is run. Returns uint8 ``(N, 10, 10, 2)``.
    """
    try:
        tree = ast.parse(source, filename=origin)
    except (SyntaxError, ValueError) as e:
        raise SokobanDataUnavailableError(f"{origin} is no Python source ({e}): refusing to use it") from e
    convert = _function(tree.body, "convert_level_to_array")
    mapping = _literal(_assignments(convert).get("mapping") if convert else None, origin, "mapping")
    if not isinstance(mapping, dict) or not all(
        isinstance(k, str) and isinstance(v, tuple) and len(v) == 2 and all(isinstance(c, int) and 0 <= c <= 4
                                                                            for c in v)
        for k, v in mapping.items()
    ):
        raise SokobanDataUnavailableError(f"{origin}: convert_level_to_array's mapping is missing or not "
                                          "{character: (fixed, variable)}: refusing to use it")
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == GENERATORS[generator]), None)
    call = _function(cls.body, "__call__") if cls else None
    assigned = _assignments(call) if call else {}
    names = sorted((n for n in assigned if n.startswith("level") and n[5:].isdigit()), key=lambda n: int(n[5:]))
    if not names:
        raise SokobanDataUnavailableError(f"{origin}: {GENERATORS[generator]}.__call__ assigns no levels")
    levels = []
    for name in names:
        rows = _literal(assigned[name], origin, f"{GENERATORS[generator]}'s {name}")
        if not (isinstance(rows, list) and len(rows) == GRID
                and all(isinstance(r, str) and len(r) == GRID and set(r) <= set(mapping) for r in rows)):
            raise SokobanDataUnavailableError(f"{origin}: {GENERATORS[generator]}'s {name} is not {GRID} strings of "
                                              f"{GRID} of {''.join(sorted(mapping))!r}: refusing to use it")
        levels.append([[mapping[ch] for ch in row] for row in rows])
    return np.asarray(levels, np.uint8)


def generator_file() -> Path:
    """The checked ``generator.py``: installed jumanji's, else the one unpacked from the fetched wheel."""
    return _files().path(GENERATOR)


def generated_levels_path(generator: str) -> Path:
    """Where the levels of ``generator`` are written: ``<cache>/jumanji/jumanji-1.1.2-sokoban-<generator>.npy``."""
    return cache_root() / PACKAGE / f"{PACKAGE}-{VERSION}-sokoban-{generator}.npy"


def _write_if_changed(path: Path, data: bytes) -> None:
    """``data`` into ``path`` unless it holds them already; a SokobanDataUnavailableError where it cannot."""
    try:
        if not (path.is_file() and path.read_bytes() == data):
            write_atomically(path, data)
    except OSError as e:
        raise SokobanDataUnavailableError(
            f"Sokoban's data could not be written to {path} ({e}): set $RLPOOL_CACHE_DIR to a writable folder."
        ) from e


def generated_levels_file(generator: str) -> Path:
    """The level file of ``generator`` ("toy" or "simple_solve"), (re)written from ``generator.py`` when it differs."""
    source = generator_file()
    buffer = io.BytesIO()
    np.save(buffer, parse_levels(source.read_bytes(), str(source), generator), allow_pickle=False)
    path = generated_levels_path(generator)
    _write_if_changed(path, buffer.getvalue())
    return path


def hub_cache() -> Path:
    """The Hugging Face hub's cache folder, as ``huggingface_hub`` finds it from the environment."""
    for var in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if os.environ.get(var):
            return Path(os.environ[var]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "huggingface" / "hub"


def cached_dataset(dataset_name: str) -> Path | None:
    """``<dataset_name>.npy`` where ``hf_hub_download`` caches it: the snapshot ``refs/main`` names, else any."""
    repo = hub_cache() / ("models--" + HUB_REPO.replace("/", "--"))
    snapshots = repo / "snapshots"
    try:
        main = (repo / "refs" / "main").read_text().strip()
    except OSError:
        main = ""
    candidates = ([snapshots / main] if main else []) + (sorted(snapshots.iterdir()) if snapshots.is_dir() else [])
    return next((c / f"{dataset_name}.npy" for c in candidates if (c / f"{dataset_name}.npy").is_file()), None)


def levels_file(options: dict[str, Any]) -> Path:
    """The level file the options ask for (``generator``, ``dataset_name``, ``levels_file``).

    Raises ValueError for an unknown generator or dataset, and BoxobanDatasetMissingError (a ValueError) where
    the Boxoban dataset is nowhere to be found.
    """
    generator = options.get("generator", "huggingface")
    if generator in GENERATORS:
        return generated_levels_file(generator)
    if generator != "huggingface":
        raise ValueError(f"generator must be one of {['huggingface', *GENERATORS]}, got {generator!r}")
    given = options.get("levels_file", "")
    if given:
        return Path(given).expanduser()
    dataset_name = options.get("dataset_name", "unfiltered-train")
    if dataset_name not in DATASETS:
        raise ValueError(f"dataset_name must be one of {list(DATASETS)}, got {dataset_name!r}")
    found = cached_dataset(dataset_name)
    if found is None:
        raise BoxobanDatasetMissingError(
            f"Sokoban's Boxoban dataset {dataset_name!r} ({dataset_name}.npy of the Hugging Face hub repository "
            f"{HUB_REPO}, which jumanji downloads) is not in the Hugging Face cache ({hub_cache()}); rlpool does "
            f"not download it. Pass its path as the option levels_file (a .npy of uint8 (N, 10, 10, 2): fixed "
            f"grid, variable grid), put it in the cache (e.g. `huggingface-cli download {HUB_REPO} "
            f"{dataset_name}.npy`), or use generator=\"toy\" (jumanji's two toy levels)."
        )
    return found


def images_folder() -> Path:
    """Where the viewer's images are decoded: ``<cache>/jumanji/jumanji-1.1.2-sokoban-imgs`` (not created here)."""
    return cache_root() / PACKAGE / f"{PACKAGE}-{VERSION}-sokoban-imgs"


def images_file_folder() -> Path:
    """The folder of BoxViewer's images in rlpool's image format (``<name>.argb``), (re)written where they differ."""
    files = _files()
    folder = images_folder()
    for name in IMAGES:
        png = files.path(f"{FOLDER}imgs/{name}.png")
        try:
            rgba = images.read_png(png)
        except ValueError as e:
            raise SokobanDataUnavailableError(str(e)) from e
        _write_if_changed(folder / f"{name}.argb", images.argb_bytes(rgba))
    return folder


def prepare(options: dict[str, Any]) -> dict[str, Any]:
    """The registry's ``prepare`` hook of Sokoban-v0: ``_levels_file`` and, for rendering, ``_images``.

    A missing Boxoban dataset does not stop a spec (its spaces need no levels): its error goes to the env as
    ``_levels_missing``, which raises it as a ValueError when an env is made.
    """
    try:
        out = {"_levels_file": str(levels_file(options)), "_levels_missing": ""}
    except BoxobanDatasetMissingError as e:
        out = {"_levels_file": "", "_levels_missing": str(e)}
    if options.get("_render"):
        out["_images"] = str(images_file_folder())
    return out
