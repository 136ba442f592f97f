"""Reference documentation of rlpool's tasks, built from the registry.

Two things live here:

* ``describe(spec)``: a plain-text description of one task as configured, which
  ``EnvSpec.describe()`` returns and ``rlpool list --options TASK`` prints.
* The generator of the family reference pages ``docs/envs/<family>.md``. A page
  combines the text that each family writes next to its tasks (the
  ``reference_doc()`` function of ``rlpool/envs/<family>/registration.py``,
  which returns a ``FamilyDoc``) with what the registry computes: task ids,
  spaces, time limits, reward thresholds, and every option with its default
  and the doc string from the C++ ``register_env_type`` call.

The pages are generated; after changing tasks, options or their text, rewrite them::

    python -m rlpool.tools.docgen --write docs/envs

``python -m rlpool.tools.docgen --check docs/envs`` exits with status 1 when a page
is out of date; ``tests/test_reference.py`` makes the same check.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import importlib
import math
import pkgutil
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rlpool.options import AUTORESET_MODES, POOL_OPTIONS
from rlpool.registry import list_all_envs, option_docs, task, unknown_task_message
from rlpool.spec import EnvSpec

NO_LIMIT = 2**31 - 1
"""``max_episode_steps`` of tasks without a time limit (EnvPool's value)."""

UNDOCUMENTED_ENV_TYPES: dict[str, str] = {
    "NumbaEnv": "A task written in Python (rlpool.python_env): see docs/python_envs.md",
}
"""Env types that have no reference page, and why."""

POOL_OPTION_DOCS: dict[str, str] = {
    "num_envs": "Number of envs in the pool.",
    "batch_size": "Envs per batch that `step`/`recv` returns; less than `num_envs` steps asynchronously "
    "(None: `num_envs`).",
    "num_threads": "Worker threads (None: min(`batch_size`, CPU cores)).",
    "seed": "An int gives env i the seed `seed + i`; a list gives one seed per env.",
    "max_episode_steps": "Steps after which an episode is truncated (None: the task's own limit).",
    "autoreset_mode": "When a finished env resets: " + ", ".join(f"`{m!r}`" for m in AUTORESET_MODES) + ".",
    "thread_affinity_offset": "Pin worker thread w to CPU core `offset + w` (-1: no pinning).",
    "max_num_players": "EnvPool's option; always 1 (rlpool's envs are single-player).",
    "gym_reset_return_info": "EnvPool's option: whether the old gym API's `reset()` also returns `info` "
    "(see `rlpool.compat.envpool_legacy`).",
    "reward_threshold": "The return at which the task counts as solved (None: the task's own).",
    "render_mode": "None, `'rgb_array'` (`render()` returns frames) or `'human'` (`render()` shows one in an "
    "OpenCV window; the gymnasium face also after every step).",
    "render_env_id": "The env (or a sequence of envs) `render()` draws when it is given no `env_ids`.",
    "render_width": "Width of a rendered frame, fixed at creation (None: the task's own size).",
    "render_height": "Height of a rendered frame, fixed at creation (None: the task's own size).",
    "render_camera_id": "The camera `render()` draws from when it is given none (-1: the task's default view).",
}
"""One line per pool option (``rlpool.options.POOL_OPTIONS``), which every task takes."""

_PAGE_DIR = "docs/envs"
_COMMAND = f"python -m rlpool.tools.docgen --write {_PAGE_DIR}"
_MANY_SPACES = 3  # more distinct spaces than this in one env's tasks: a task-table column


# --------------------------------------------------------------------------------------------------
# The hand-written part: what each family's registration.py returns from reference_doc().


@dataclass(frozen=True)
class Part:
    """A run of observation elements, or of action elements or values, and what they mean.

    ``what`` is one text per element (a tuple), or one text for ``size``
    elements (a string; ``size=0`` takes the elements the other parts leave).
    ``when`` / ``unless`` name a bool option: the part is there only while that
    option is true / false. ``env_types`` limits the part to those env types
    (e.g. one version of a task); empty means all of the env's types.
    """

    what: str | tuple[str, ...]
    size: int = 1
    when: str = ""
    unless: str = ""
    env_types: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.what, tuple) and self.size != 1:
            raise ValueError(f"Part {self.what!r}: give one text per element or one text and a size, not both")
        if self.size < 0:
            raise ValueError(f"Part {self.what!r}: size must be >= 0")

    @property
    def count(self) -> int:
        """How many elements the part spans (0: the rest)."""
        return len(self.what) if isinstance(self.what, tuple) else self.size


@dataclass(frozen=True)
class EnvDoc:
    """The hand-written reference text of one env; its tasks are the registered tasks of ``env_types``.

    Text is Markdown. Spaces, task ids, time limits, reward thresholds and
    options come from the registry and are not written here. ``termination``
    says when an episode terminates; the time limit is added from the registry.
    """

    title: str
    env_types: tuple[str, ...]
    summary: str
    reward: str
    starting_state: str
    termination: str
    actions: tuple[Part, ...] = ()
    action_text: str = ""
    observation: tuple[Part, ...] = ()
    observation_text: str = ""
    notes: str = ""
    version_history: tuple[str, ...] = ()


@dataclass(frozen=True)
class FamilyDoc:
    """The hand-written text of one family's reference page ``docs/envs/<name>.md``.

    ``paths`` maps machine-specific folders that option defaults contain (e.g.
    an installed package's assets) to the label the page shows instead.
    """

    name: str
    title: str
    intro: str
    envs: tuple[EnvDoc, ...]
    paths: tuple[tuple[str, str], ...] = ()


# --------------------------------------------------------------------------------------------------
# Registry lookups.


@functools.cache
def family_docs() -> tuple[FamilyDoc, ...]:
    """Every family's ``FamilyDoc``, from the ``reference_doc()`` of each ``rlpool/envs/<family>/registration.py``."""
    import rlpool.envs

    docs = []
    for info in sorted(pkgutil.iter_modules(rlpool.envs.__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"rlpool.envs.{info.name}.registration")
        make_doc = getattr(module, "reference_doc", None)
        if make_doc is not None:
            doc = make_doc()
            if doc.name != info.name:
                raise ValueError(f"rlpool.envs.{info.name}: reference_doc() names its family {doc.name!r}")
            docs.append(doc)
    return tuple(docs)


@functools.cache
def _env_docs() -> dict[str, tuple[FamilyDoc, EnvDoc]]:
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
    entry = _env_docs().get(env_type)
    return None if entry is None else entry[1]


def _spec(task_id: str) -> EnvSpec:
    return EnvSpec(task_id)


def _tasks_of(env: EnvDoc) -> list[EnvSpec]:
    types = set(env.env_types)
    return [_spec(t) for t in list_all_envs() if task(t).env_type in types]


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


def _num(x: Any) -> str:
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
                return _num(flat[0])
            return "[" + ", ".join(_num(v) for v in flat) + "]"

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
        return [(_num(lo), _num(hi)) for lo, hi in zip(space.low.reshape(-1), space.high.reshape(-1), strict=True)]
    if isinstance(space, spaces.MultiBinary):
        return [("0", "1")] * int(np.prod(space.n))
    if isinstance(space, spaces.Tuple) and all(isinstance(s, spaces.Discrete) for s in space.spaces):
        return [(_num(s.start), _num(s.start + s.n - 1)) for s in space.spaces]
    return None


def _steps(n: int) -> str:
    return f"{n} (no limit)" if n == NO_LIMIT else str(n)


def _threshold(t: float | None) -> str:
    return "—" if t is None else _num(t)


# --------------------------------------------------------------------------------------------------
# Laying out parts over a space's elements.


@dataclass(frozen=True)
class _Row:
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


def _layout(parts: Sequence[Part], spec: EnvSpec, *, action: bool) -> tuple[list[_Row], str]:
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
            rows.append(_Row("–", f"{_text(part.what)} (only with `{option}={value}`)"))
            continue
        n = part.count or total - fixed
        if isinstance(part.what, tuple):
            for k, what in enumerate(part.what):
                lo, hi = bounds[i + k]
                rows.append(_Row(str(first_value + i + k), what, lo, hi))
        elif n:
            lows = {b[0] for b in bounds[i : i + n]}
            highs = {b[1] for b in bounds[i : i + n]}
            lo = lows.pop() if len(lows) == 1 else "varies"
            hi = highs.pop() if len(highs) == 1 else "varies"
            rows.append(_Row(_span(first_value + i, n), part.what, lo, hi))
        i += n
    return rows, ""


def _text(what: str | tuple[str, ...]) -> str:
    return what if isinstance(what, str) else ", ".join(what)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _md_rows(rows: list[_Row], discrete_action: bool) -> str:
    if discrete_action:
        return _md_table(["Action", "Meaning"], [[r.index, r.what] for r in rows])
    return _md_table(["Index", "Meaning", "Min", "Max"], [[r.index, r.what, r.low, r.high] for r in rows])


def _text_table(rows: Sequence[Sequence[str]], indent: str = "  ", width: int = 60) -> list[str]:
    """Rows as aligned plain-text columns; cells lose their backticks and wrap at ``width`` characters."""
    import textwrap

    cells = [[textwrap.wrap(c.replace("`", ""), width) or [""] for c in row] for row in rows]
    widths = [max(len(line) for row in cells for line in row[c]) for c in range(len(rows[0]))]
    out = []
    for row in cells:
        for k in range(max(len(c) for c in row)):
            parts = [(c[k] if k < len(c) else "").ljust(w) for c, w in zip(row, widths, strict=True)]
            out.append((indent + "  ".join(parts)).rstrip())
    return out


# --------------------------------------------------------------------------------------------------
# describe(spec): one task as configured, as plain text.


def _wrap(text: str, indent: str) -> list[str]:
    """Markdown prose as plain text lines: paragraphs wrapped, code blocks kept, backticks dropped."""
    import textwrap

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


def _truncation(steps: int) -> str:
    if steps == NO_LIMIT:
        return "none (max_episode_steps is 2**31 - 1, EnvPool's value for tasks without a time limit)"
    return f"after max_episode_steps = {steps} steps"


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
        rows, problem = _layout(doc.actions if action else doc.observation, spec, action=action)
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
    lines += ["", f"Reward threshold: {'none' if threshold is None else _num(threshold)}"]

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


# --------------------------------------------------------------------------------------------------
# The family pages.


def _anchor(title: str) -> str:
    return "".join(c for c in title.lower().replace(" ", "-") if c.isalnum() or c in "-_")


def _group(items: Iterable[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """(key, task id) pairs grouped by key, in first-seen order: [(key, [task ids])]."""
    groups: dict[str, list[str]] = {}
    for key, task_id in items:
        groups.setdefault(key, []).append(task_id)
    return list(groups.items())


def _ids(task_ids: Sequence[str]) -> str:
    return ", ".join(f"`{t}`" for t in task_ids)


def _space_section(env: EnvDoc, specs: list[EnvSpec], *, action: bool, in_table: bool) -> list[str]:
    from gymnasium import spaces

    name = "Action" if action else "Observation"
    out = [f"### {name} space", ""]
    space_groups = _group((format_space(s.action_space if action else s.observation_space), s.id) for s in specs)
    if in_table:
        out.append("Per task: see the task table above.")
    elif len(space_groups) == 1:
        out.append(f"`{space_groups[0][0]}`")
    else:
        out += [f"- `{space}`: {_ids(ids)}" for space, ids in space_groups]
    out.append("")

    parts = env.actions if action else env.observation
    if parts:
        merged: list[tuple[_Row, list[str]]] = []
        discrete = False
        for s in specs:
            rows, problem = _layout(parts, s, action=action)
            if problem:
                raise ValueError(f"{s.id}: the {name.lower()} parts of {env.title!r} do not fit: {problem}")
            space = s.action_space if action else s.observation_space
            discrete = action and isinstance(space, spaces.Discrete)
            merged = _merge_rows(merged, rows, s.id)
        every = [s.id for s in specs]
        rows = [
            r if ids == every else _Row(r.index, f"{r.what} (in {_ids(ids)} only)", r.low, r.high) for r, ids in merged
        ]
        if rows:
            out += [_md_rows(rows, discrete), ""]
    text = env.action_text if action else env.observation_text
    if text:
        out += [text.strip(), ""]
    return out


def _merge_rows(merged: list[tuple[_Row, list[str]]], rows: list[_Row], task_id: str) -> list[tuple[_Row, list[str]]]:
    """Merge one task's rows into the rows of the tasks before it, keeping the rows' order; rows carry their tasks."""
    matcher = difflib.SequenceMatcher(a=[r for r, _ in merged], b=rows, autojunk=False)
    out: list[tuple[_Row, list[str]]] = []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            out += [(r, [*ids, task_id]) for r, ids in merged[a0:a1]]
            continue
        out += merged[a0:a1]
        out += [(r, [task_id]) for r in rows[b0:b1]]
    return out


def _option_rows(specs: list[EnvSpec], varying: list[str]) -> list[list[str]]:
    names: dict[str, None] = {}
    per_task = {s.id: {o.name: o for o in option_docs(s.id)} for s in specs}
    for opts in per_task.values():
        names.update(dict.fromkeys(opts))
    rows = []
    for name in names:
        having = [s.id for s in specs if name in per_task[s.id]]
        docs = list(dict.fromkeys(per_task[t][name].doc for t in having))
        doc = " / ".join(d for d in docs if d) or "(no description)"
        if name in varying:
            default = "per task (see the task table)"
        else:
            default = f"`{format_value(per_task[having[0]][name].default, page=True)}`"
        if len(having) < len(specs):
            doc += f" (only in {_ids(having)})"
        rows.append([f"`{name}`", default, doc])
    return rows


def _varying_options(specs: list[EnvSpec]) -> list[str]:
    """Options whose default differs between the tasks that have them."""
    values: dict[str, set[str]] = {}
    for s in specs:
        for o in option_docs(s.id):
            values.setdefault(o.name, set()).add(format_value(o.default, page=True))
    return [name for name, vs in values.items() if len(vs) > 1]


def _space_column(specs: list[EnvSpec], action: bool) -> tuple[str, dict[str, str]] | None:
    """A task-table column for the action/observation space when the tasks have many different ones."""
    from gymnasium import spaces

    got = {s.id: (s.action_space if action else s.observation_space) for s in specs}
    if len({format_space(v) for v in got.values()}) <= _MANY_SPACES:
        return None
    if action and all(isinstance(v, spaces.Discrete) and int(v.start) == 0 for v in got.values()):
        return "Actions", {t: str(int(v.n)) for t, v in got.items()}
    return ("Action space" if action else "Observation space"), {t: f"`{format_space(v)}`" for t, v in got.items()}


def _env_section(env: EnvDoc) -> list[str]:
    specs = _tasks_of(env)
    if not specs:
        raise ValueError(f"{env.title!r} documents env types {env.env_types} but no task of them is registered")
    out = [f"## {env.title}", "", env.summary.strip(), ""]

    # The task table: ids, what differs between them, limits.
    varying = _varying_options(specs)
    action_col = _space_column(specs, action=True)
    obs_col = _space_column(specs, action=False)
    header = ["Task id"]
    if len(env.env_types) > 1:
        header.append("Env type")
    header += [f"`{name}`" for name in varying]
    header += [col[0] for col in (action_col, obs_col) if col]
    header.append("Max episode steps")
    thresholds = any(s.reward_threshold is not None for s in specs)
    if thresholds:
        header.append("Reward threshold")
    rows = []
    for s in specs:
        defaults = {o.name: o.default for o in option_docs(s.id)}
        row = [f"`{s.id}`"]
        if len(env.env_types) > 1:
            row.append(s.task.env_type)
        row += [f"`{format_value(defaults[n], page=True)}`" if n in defaults else "—" for n in varying]
        row += [col[1][s.id] for col in (action_col, obs_col) if col]
        row.append(_steps(s.max_episode_steps))
        if thresholds:
            row.append(_threshold(s.reward_threshold))
        rows.append(row)
    out += [_md_table(header, rows), ""]
    if not thresholds:
        out += ["No reward threshold is registered for these tasks.", ""]

    out += _space_section(env, specs, action=True, in_table=action_col is not None)
    out += _space_section(env, specs, action=False, in_table=obs_col is not None)
    out += ["### Reward", "", env.reward.strip(), ""]
    out += ["### Starting state", "", env.starting_state.strip(), ""]
    steps = sorted({s.max_episode_steps for s in specs})
    if steps == [NO_LIMIT]:
        limit = (
            "There is no time limit: `max_episode_steps` is 2**31 - 1 (EnvPool's value for tasks "
            "without one); set it to truncate episodes."
        )
    elif len(steps) == 1:
        limit = f"Truncation: after `max_episode_steps` = {steps[0]} steps (a pool option)."
    else:
        limit = "Truncation: after `max_episode_steps` steps (a pool option), per task as the task table gives it."
    out += ["### Episode end", "", env.termination.strip(), "", limit, ""]
    out += ["### Options", ""]
    option_rows = _option_rows(specs, varying)
    if option_rows:
        out += [_md_table(["Option", "Default", "Description"], option_rows), ""]
    else:
        out += ["None besides the pool options.", ""]
    if env.notes:
        out += ["### Notes", "", env.notes.strip(), ""]
    if env.version_history:
        out += ["### Version history", ""] + [f"- {v.strip()}" for v in env.version_history] + [""]
    return out


def _pool_section() -> list[str]:
    rows = [[f"`{name}`", f"`{default!r}`", POOL_OPTION_DOCS.get(name, "")] for name, default in POOL_OPTIONS.items()]
    return [
        "## Pool options",
        "",
        "Every task also takes these options of the pool (EnvPool's names), e.g. "
        "`rlpool.make(task_id, num_envs=8, seed=0)`.",
        "",
        _md_table(["Option", "Default", "Description"], rows),
        "",
    ]


def render_page(family: FamilyDoc) -> str:
    """The Markdown reference page of one family."""
    out = [
        f"<!-- Generated by `{_COMMAND}`: do not edit. The text comes from "
        f"src/rlpool/envs/{family.name}/registration.py (reference_doc) and the option docs of the C++ envs. -->",
        "",
        f"# {family.title}",
        "",
        family.intro.strip(),
        "",
        "`rlpool list --options TASK` prints the same for one task, with the values of a configured "
        "task: `rlpool.make_spec(TASK, **options).describe()`.",
        "",
    ]
    if len(family.envs) > 1:
        out += [f"- [{env.title}](#{_anchor(env.title)})" for env in family.envs]
        out += ["- [Pool options](#pool-options)", ""]
    for env in family.envs:
        out += _env_section(env)
    out += _pool_section()
    return "\n".join(out).rstrip("\n") + "\n"


def check_coverage() -> None:
    """Raise if a registered task's env type has no reference text, or a doc names an unknown env type."""
    documented = _env_docs()
    used = {task(t).env_type for t in list_all_envs()}
    missing = sorted(used - set(documented) - set(UNDOCUMENTED_ENV_TYPES))
    if missing:
        raise ValueError(
            f"env types {missing} have no reference text: add an EnvDoc for them to the "
            f"reference_doc() of their family's registration.py"
        )
    for env_type, (family, env) in documented.items():
        if env_type not in used:
            raise ValueError(f"{family.name}: {env.title!r} documents {env_type!r}, which no registered task uses")


def pages() -> dict[str, str]:
    """Every family page: file name (``<family>.md``) -> Markdown text."""
    check_coverage()
    return {f"{family.name}.md": render_page(family) for family in family_docs()}


def write_pages(folder: str | Path) -> list[Path]:
    """Write every family page into ``folder``; returns the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pages().items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def stale_pages(folder: str | Path) -> list[str]:
    """File names of the pages in ``folder`` that are missing or differ from what the registry generates."""
    folder = Path(folder)
    return [
        name
        for name, text in pages().items()
        if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != text
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """Write or check the family pages, or print one task's description; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m rlpool.tools.docgen", description="Generate rlpool's env reference pages from the registry."
    )
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", metavar="DIR", help=f"write every page into DIR (the repository's: {_PAGE_DIR})")
    what.add_argument("--check", metavar="DIR", help="exit with status 1 if a page in DIR is missing or out of date")
    what.add_argument("--describe", metavar="TASK", help="print one task's description")
    args = parser.parse_args(argv)
    if args.describe:
        if args.describe not in list_all_envs():
            parser.error(unknown_task_message(args.describe))
        print(describe(_spec(args.describe)), end="")
        return 0
    if args.write:
        for path in write_pages(args.write):
            print(f"wrote {path}")
        return 0
    stale = stale_pages(args.check)
    for name in stale:
        print(f"{Path(args.check) / name} is out of date; regenerate it with: {_COMMAND}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    # Run the imported module's main: the families' reference_doc() import rlpool.tools.docgen, not __main__.
    from rlpool.tools.docgen import main as _main

    sys.exit(_main())
