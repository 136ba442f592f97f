"""The generator of rlpool's env reference pages ``docs/envs/<family>.md``, built from the registry.

A page combines the text that each family writes next to its tasks (the ``reference_doc()``
function of ``rlpool/envs/<family>/docs.py``, which returns a ``FamilyDoc`` of
``rlpool.tools.docpage``) with what the registry computes: task ids, spaces, time limits, reward
thresholds, and every option with its default and the doc string from the C++
``register_env_type`` call. ``describe(spec)``, one task as plain text, is ``rlpool.tools.describe``'s.

The pages are generated; after changing tasks, options or their text, rewrite them::

    python -m rlpool.tools.docgen --write docs/envs

``python -m rlpool.tools.docgen --check docs/envs`` exits with status 1 when a page
is out of date; ``tests/tools/test_docgen.py`` makes the same check.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from rlpool.options import AUTORESET_MODES, POOL_OPTIONS
from rlpool.registry import list_all_envs, option_docs, task, unknown_task_message
from rlpool.spec import EnvSpec
from rlpool.tools.describe import describe
from rlpool.tools.docformat import (
    NO_LIMIT,
    UNDOCUMENTED_ENV_TYPES,
    Row,
    env_docs,
    family_docs,
    format_number,
    format_space,
    format_value,
    layout,
)
from rlpool.tools.docpage import EnvDoc, FamilyDoc

__all__ = [
    "POOL_OPTION_DOCS",
    "UNDOCUMENTED_ENV_TYPES",
    "check_coverage",
    "describe",
    "family_docs",
    "format_value",
    "main",
    "pages",
    "render_page",
    "stale_pages",
    "write_pages",
]

POOL_OPTION_DOCS: dict[str, str] = {
    "num_envs": "Number of envs in the pool.",
    "batch_size": "Envs per batch that `step`/`recv` returns; less than `num_envs` steps asynchronously "
    "(None: `num_envs`).",
    "num_threads": "Worker threads (None: min(`batch_size`, CPU cores)).",
    "seed": "An int gives env i the seed `seed + i`; a list gives one seed per env.",
    "max_episode_steps": "Steps after which an episode is truncated (None: the task's own limit).",
    "autoreset_mode": "When a finished env resets: " + ", ".join(f"`{m!r}`" for m in AUTORESET_MODES) + ".",
    "thread_affinity_offset": "Pin worker thread w to CPU core `offset + w` (-1: no pinning).",
    "max_num_players": "EnvPool's option: the players of an env (None: all of them; rlpool steps every player).",
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
# Task lookups and cells.


def _tasks_of(env: EnvDoc) -> list[EnvSpec]:
    types = set(env.env_types)
    return [EnvSpec(t) for t in list_all_envs() if task(t).env_type in types]


def _steps(n: int) -> str:
    return f"{n} (no limit)" if n == NO_LIMIT else str(n)


def _threshold(t: float | None) -> str:
    return "—" if t is None else format_number(t)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _md_rows(rows: list[Row], discrete_action: bool) -> str:
    if discrete_action:
        return _md_table(["Action", "Meaning"], [[r.index, r.what] for r in rows])
    return _md_table(["Index", "Meaning", "Min", "Max"], [[r.index, r.what, r.low, r.high] for r in rows])


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
        merged: list[tuple[Row, list[str]]] = []
        discrete = False
        for s in specs:
            rows, problem = layout(parts, s, action=action)
            if problem:
                raise ValueError(f"{s.id}: the {name.lower()} parts of {env.title!r} do not fit: {problem}")
            space = s.action_space if action else s.observation_space
            discrete = action and isinstance(space, spaces.Discrete)
            merged = _merge_rows(merged, rows, s.id)
        every = [s.id for s in specs]
        rows = [
            r if ids == every else Row(r.index, f"{r.what} (in {_ids(ids)} only)", r.low, r.high) for r, ids in merged
        ]
        if rows:
            out += [_md_rows(rows, discrete), ""]
    text = env.action_text if action else env.observation_text
    if text:
        out += [text.strip(), ""]
    return out


def _merge_rows(merged: list[tuple[Row, list[str]]], rows: list[Row], task_id: str) -> list[tuple[Row, list[str]]]:
    """Merge one task's rows into the rows of the tasks before it, keeping the rows' order; rows carry their tasks."""
    matcher = difflib.SequenceMatcher(a=[r for r, _ in merged], b=rows, autojunk=False)
    out: list[tuple[Row, list[str]]] = []
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
        f"src/rlpool/envs/{family.name}/docs.py (reference_doc) and the option docs of the C++ envs. -->",
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
    documented = env_docs()
    used = {task(t).env_type for t in list_all_envs()}
    missing = sorted(used - set(documented) - set(UNDOCUMENTED_ENV_TYPES))
    if missing:
        raise ValueError(
            f"env types {missing} have no reference text: add an EnvDoc for them to the "
            f"reference_doc() of their family's docs.py"
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
        print(describe(EnvSpec(args.describe)), end="")
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
    sys.exit(main())
