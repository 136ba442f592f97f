"""rlpool's on-disk cache: ``$RLPOOL_CACHE_DIR``, else ``$XDG_CACHE_HOME/rlpool`` (``~/.cache/rlpool``).

Everything in it is derived from, or fetched as, published packages (compiled models, decoded images,
files taken from a pinned, checksum-verified wheel) and is rebuilt when missing; each user keeps a folder
of its own under the root, named in its own module.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def cache_root() -> Path:
    """The cache's root folder (not created here)."""
    root = os.environ.get("RLPOOL_CACHE_DIR")
    if not root:
        root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rlpool")
    return Path(root)


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers (other processes too) see the whole file or none."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
