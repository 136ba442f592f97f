"""How rlpool's messages name what to install for an optional feature (one phrasing for every extra).

rlpool installs from a checkout, not from PyPI, so ``pip install 'rlpool[dm]'`` would not work: a message
names the packages the extra brings (as pyproject.toml pins them) and the extra itself, as it installs from a
checkout. The C++ sources spell the same phrasing as literals.
"""

from __future__ import annotations


def install_hint(extra: str, packages: str) -> str:
    """``pip install '<packages>' (rlpool's <extra> extra: pip install '.[<extra>]' in an rlpool checkout)``.

    ``packages`` is what the extra of that name in pyproject.toml brings, with its pins (``"dm-env>=1.6"``);
    several are separated by spaces, each quoted.
    """
    quoted = " ".join(f"'{p}'" for p in packages.split())
    return f"pip install {quoted} (rlpool's {extra} extra: pip install '.[{extra}]' in an rlpool checkout)"
