"""``describe(spec)``: a plain-text description of one configured task.

What ``EnvSpec.describe()`` returns and ``rlpool list --options TASK`` prints: the family's
hand-written text (``rlpool.tools.docformat.env_doc``) with the spec's spaces, limits and option
values, as wrapped plain text. ``rlpool.spec`` imports this module, so it imports ``EnvSpec``
for type checking only.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rlpool.options import POOL_OPTIONS
from rlpool.registry import option_docs
from rlpool.tools.docformat import (
    NO_LIMIT,
    UNDOCUMENTED_ENV_TYPES,
    env_doc,
    format_number,
    format_space,
    format_value,
    layout,
)

if TYPE_CHECKING:
    from rlpool.spec import EnvSpec

__all__ = ["describe"]


def describe(spec: EnvSpec) -> str:
    """A readable description of one task as ``spec`` configures it.

    Id and env type, action and observation spaces (with what each element
    means, where the family documents it), reward, starting state, episode end,
    every env option with its current value, default and doc, then the pool options.
    """
    from gymnasium import spaces

    doc = env_doc(spec.task.env_type)
    lines = [f"{spec.id}  (env type {spec.task.env_type})"]
    if doc is not None:
        lines += _wrap(doc.summary, "  ")
    elif spec.task.env_type in UNDOCUMENTED_ENV_TYPES:
        lines += _wrap(UNDOCUMENTED_ENV_TYPES[spec.task.env_type] + ".", "  ")

    for action in (True, False):
        space = spec.action_space if action else spec.observation_space
        lines += ["", f"{'Action' if action else 'Observation'} space: {format_space(space)}"]
        if doc is None:
            continue
        rows, problem = layout(doc.actions if action else doc.observation, spec, action=action)
        rows = [r for r in rows if r.index != "–"]
        if problem:
            lines.append(f"  (element meanings not shown: {problem})")
        elif rows:
            if action and isinstance(space, spaces.Discrete):
                lines += _text_table([["action", "meaning"]] + [[r.index, r.what] for r in rows])
            else:
                lines += _text_table(
                    [["index", "meaning", "min", "max"]] + [[r.index, r.what, r.low, r.high] for r in rows]
                )
        text = doc.action_text if action else doc.observation_text
        if text:
            lines += _wrap(text, "  ")

    if doc is not None:
        lines += ["", "Reward:"] + _wrap(doc.reward, "  ")
        lines += ["", "Starting state:"] + _wrap(doc.starting_state, "  ")
        lines += ["", "Episode end:"] + _wrap(doc.termination, "  ")
    else:
        lines += ["", "Episode end:"]
    lines += _wrap(f"Truncation: {_truncation(spec.max_episode_steps)}.", "  ")
    threshold = spec.reward_threshold
    lines += ["", f"Reward threshold: {'none' if threshold is None else format_number(threshold)}"]

    options = option_docs(spec.id)
    lines += [
        "",
        "Options (current value, and the default where it differs):"
        if options
        else "Options: none besides the pool's.",
    ]
    for o in options:
        value = spec.config[o.name]
        default = "(default)" if _same(value, o.default) else f"(default: {format_value(o.default)})"
        lines.append(f"  {o.name} = {format_value(value)}  {default}")
        lines += _wrap(o.doc or "(no description)", "      ")

    pool = ", ".join(f"{name}={format_value(spec.config[name])}" for name in POOL_OPTIONS)
    lines += ["", "Pool options:"] + _wrap(pool, "  ")
    return "\n".join(lines) + "\n"


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and (a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b)))


def _truncation(steps: int) -> str:
    if steps == NO_LIMIT:
        return "none (max_episode_steps is 2**31 - 1, EnvPool's value for tasks without a time limit)"
    return f"after max_episode_steps = {steps} steps"


def _text_table(rows: Sequence[Sequence[str]], indent: str = "  ", width: int = 60) -> list[str]:
    """Rows as aligned plain-text columns; cells lose their backticks and wrap at ``width`` characters."""
    cells = [[textwrap.wrap(c.replace("`", ""), width) or [""] for c in row] for row in rows]
    widths = [max(len(line) for row in cells for line in row[c]) for c in range(len(rows[0]))]
    out = []
    for row in cells:
        for k in range(max(len(c) for c in row)):
            parts = [(c[k] if k < len(c) else "").ljust(w) for c, w in zip(row, widths, strict=True)]
            out.append((indent + "  ".join(parts)).rstrip())
    return out


def _wrap(text: str, indent: str) -> list[str]:
    """Markdown prose as plain text lines: paragraphs wrapped, code blocks kept, backticks dropped."""
    lines: list[str] = []
    paragraph: list[str] = []
    code = False

    def flush() -> None:
        if paragraph:
            words = " ".join(paragraph).replace("`", "")
            lines.extend(textwrap.wrap(words, width=100, initial_indent=indent, subsequent_indent=indent))
            paragraph.clear()

    for line in text.strip().splitlines():
        if line.startswith("```"):
            flush()
            code = not code
        elif code:
            lines.append((indent + "  " + line).rstrip())
        elif not line.strip() or line.lstrip()[:2] in ("1.", "2.", "3.", "4.", "- "):
            flush()
            if line.strip():
                paragraph.append(line.strip())
        else:
            paragraph.append(line.strip())
    flush()
    return lines
