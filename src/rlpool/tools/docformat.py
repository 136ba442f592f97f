"""What a task's description and the reference pages share: the families' texts, values and spaces.

``family_docs()`` finds every family's hand-written text (``rlpool.tools.docpage``);
``format_value`` and ``format_space`` write option values and gymnasium spaces in the short,
stable form both show; ``layout`` lays a doc's ``Part``s over one task's action or observation
elements. Used by ``rlpool.tools.describe`` (plain text) and ``rlpool.tools.docgen`` (the pages).
It does not import ``rlpool.spec``: ``EnvSpec.describe()`` reaches this module.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part

if TYPE_CHECKING:
    from rlpool.spec import EnvSpec

NO_LIMIT = 2**31 - 1
"""``max_episode_steps`` of tasks without a time limit (EnvPool's value)."""

UNDOCUMENTED_ENV_TYPES: dict[str, str] = {
    "NumbaEnv": "A task written in Python (rlpool.python_env): see docs/python_envs.md",
}
"""Env types that have no reference page, and why."""


# --------------------------------------------------------------------------------------------------
# The families' hand-written texts.


@functools.cache
def family_docs() -> tuple[FamilyDoc, ...]:
    """Every family's ``FamilyDoc``: the ``reference_doc()`` of each ``rlpool/envs/<family>/docs.py`` there is.

    A family without a ``docs`` module has no page (its tasks' env types must then be in
    ``UNDOCUMENTED_ENV_TYPES``). Importing ``rlpool.envs`` registers every family's tasks first.
    """
    from rlpool.envs import family_modules

    docs = []
    for family, module in family_modules("docs"):
        doc = module.reference_doc()
        if doc.name != family:
            raise ValueError(f"{module.__name__}: reference_doc() names its family {doc.name!r}")
        docs.append(doc)
    return tuple(docs)


@functools.cache
def env_docs() -> dict[str, tuple[FamilyDoc, EnvDoc]]:
    """Every documented env type -> its family's doc and its env's doc."""
    found: dict[str, tuple[FamilyDoc, EnvDoc]] = {}
    for family in family_docs():
        for env in family.envs:
            for env_type in env.env_types:
                if env_type in found:
                    raise ValueError(
                        f"env type {env_type!r} is documented twice ({found[env_type][1].title}, {env.title})"
                    )
                found[env_type] = (family, env)
    return found


def env_doc(env_type: str) -> EnvDoc | None:
    """The hand-written doc of ``env_type``, or None if it has none."""
    entry = env_docs().get(env_type)
    return None if entry is None else entry[1]


# --------------------------------------------------------------------------------------------------
# Formatting values and spaces.


def _labels() -> list[tuple[str, str]]:
    return [pair for family in family_docs() for pair in family.paths if pair[0]]


def format_value(value: Any, *, page: bool = False) -> str:
    """An option value as the reference shows it (``repr``; on pages, machine-specific folders are labelled)."""
    text = repr(value)
    if page and isinstance(value, str):
        for folder, label in _labels():
            if value.startswith(folder.rstrip("/") + "/"):
                return repr(label + value[len(folder.rstrip("/")) :])
    return text


def format_number(x: Any) -> str:
    """A bound or threshold: an integer without a point, ``inf``, or six significant digits."""
    x = x.item() if isinstance(x, np.generic) else x
    if isinstance(x, (bool, int)):
        return str(int(x))
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.6g}"


def format_space(space: Any) -> str:
    """A gymnasium space in a short, stable form, e.g. ``Box(-1, 1, (8,), float32)`` or ``Discrete(6)``."""
    from gymnasium import spaces

    if isinstance(space, spaces.Discrete):
        start = int(space.start)
        return f"Discrete({int(space.n)})" if start == 0 else f"Discrete({int(space.n)}, start={start})"
    if isinstance(space, spaces.Box):

        def bound(a: np.ndarray) -> str:
            flat = a.reshape(-1)
            if flat.size and np.all(flat == flat[0]):
                return format_number(flat[0])
            return "[" + ", ".join(format_number(v) for v in flat) + "]"

        return f"Box({bound(space.low)}, {bound(space.high)}, {tuple(space.shape)}, {space.dtype})"
    if isinstance(space, spaces.MultiBinary):
        return f"MultiBinary({space.n})"
    if isinstance(space, spaces.Tuple):
        return "Tuple(" + ", ".join(format_space(s) for s in space.spaces) + ")"
    if isinstance(space, spaces.Dict):
        return "Dict(" + ", ".join(f"{k!r}: {format_space(s)}" for k, s in space.spaces.items()) + ")"
    return str(space)


def _bounds(space: Any) -> list[tuple[str, str]] | None:
    """(min, max) of each element of an observation, or None if it has no elements to list."""
    from gymnasium import spaces

    if isinstance(space, spaces.Box):
        return [
            (format_number(lo), format_number(hi))
            for lo, hi in zip(space.low.reshape(-1), space.high.reshape(-1), strict=True)
        ]
    if isinstance(space, spaces.MultiBinary):
        return [("0", "1")] * int(np.prod(space.n))
    if isinstance(space, spaces.Tuple) and all(isinstance(s, spaces.Discrete) for s in space.spaces):
        return [(format_number(s.start), format_number(s.start + s.n - 1)) for s in space.spaces]
    return None


# --------------------------------------------------------------------------------------------------
# Laying out parts over a space's elements.


@dataclass(frozen=True)
class Row:
    """One row of an element table: the elements' index or span, what they mean, their bounds."""

    index: str  # "3", "5–21", or "–" for a part that is not there
    what: str
    low: str = ""
    high: str = ""


def _present(part: Part, config: dict[str, Any]) -> bool:
    if part.when and config.get(part.when) is not True:
        return False
    return not (part.unless and config.get(part.unless) is not False)


def _span(first: int, n: int) -> str:
    return str(first) if n == 1 else f"{first}–{first + n - 1}"


def _text(what: str | tuple[str, ...]) -> str:
    return what if isinstance(what, str) else ", ".join(what)


def layout(parts: Sequence[Part], spec: EnvSpec, *, action: bool) -> tuple[list[Row], str]:
    """Rows for ``parts`` laid over the spec's action or observation; (rows, problem) with problem "" if they fit."""
    from gymnasium import spaces

    env_type = spec.task.env_type
    # A part switched by an option this task does not have is not there at all.
    mine = [
        p
        for p in parts
        if (not p.env_types or env_type in p.env_types) and all(o in spec.config for o in (p.when, p.unless) if o)
    ]
    if not mine:
        return [], ""
    space = spec.action_space if action else spec.observation_space
    if action and isinstance(space, spaces.MultiDiscrete) and len(set(space.nvec.flat)) == 1:
        space = spaces.Discrete(int(space.nvec.flat[0]))  # one per agent: the parts describe each agent's
    discrete_action = action and isinstance(space, spaces.Discrete)
    if discrete_action:
        bounds: list[tuple[str, str]] | None = [("", "")] * int(space.n)
        first_value = int(space.start)
    else:
        bounds = _bounds(space)
        first_value = 0
    if bounds is None:
        return [], f"{format_space(space)} has no elements to describe"
    total = len(bounds)
    present = [_present(p, spec.config) for p in mine]
    here = [p for p, there in zip(mine, present, strict=True) if there]
    fixed = sum(p.count for p in here)
    rest = [p for p in here if p.count == 0]
    if len(rest) > 1 or fixed > total or (not rest and fixed != total):
        return [], f"the documented parts span {fixed} elements, the space has {total}"
    rows = []
    i = 0
    for part, there in zip(mine, present, strict=True):
        if not there:
            option = part.when or part.unless
            value = part.when != ""
            rows.append(Row("–", f"{_text(part.what)} (only with `{option}={value}`)"))
            continue
        n = part.count or total - fixed
        if isinstance(part.what, tuple):
            for k, what in enumerate(part.what):
                lo, hi = bounds[i + k]
                rows.append(Row(str(first_value + i + k), what, lo, hi))
        elif n:
            lows = {b[0] for b in bounds[i : i + n]}
            highs = {b[1] for b in bounds[i : i + n]}
            lo = lows.pop() if len(lows) == 1 else "varies"
            hi = highs.pop() if len(highs) == 1 else "varies"
            rows.append(Row(_span(first_value + i, n), part.what, lo, hi))
        i += n
    return rows, ""
