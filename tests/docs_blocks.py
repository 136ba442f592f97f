"""The fenced code blocks of the README and docs/, and the ``docs-test`` markers that say how to run them.

``tests/docs/test_docs_code.py`` runs every block this finds; this module only reads Markdown. A block is a
fenced code block (three or more backticks or tildes, indented or not, e.g. inside a list item; its text is
dedented by the fence's indentation). A marker is an HTML comment on the line(s) directly before the opening
fence, no blank line between::

    <!-- docs-test: skip: <reason> -->           not run here; the reason says why (it must not be empty)
    <!-- docs-test: needs jax, torch -->         run only where these Python modules import (CI: must import)
    <!-- docs-test: timeout 90 -->               a longer limit than the default, in seconds

Directives combine in one comment, separated by ``;`` (``<!-- docs-test: needs jax; timeout 90 -->``), or
sit in several comments on consecutive lines; a ``skip``'s reason runs to the end of its comment (``;``
included). Problems (a marker that does not parse, a ``skip`` without a reason, a marker followed by no
fence, a fence never closed) are collected, not raised, so that one test can list them all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

RUN_LANGUAGES = frozenset({"python", "py", "bash", "sh", "shell", "console"})
"""Languages whose blocks are code to run; blocks in any other language (text, toml, none...) are ignored."""
PYTHON_LANGUAGES = frozenset({"python", "py"})

_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})\s*(?P<info>.*?)\s*$")
_MARKER_START = re.compile(r"<!--\s*docs-test\b", re.IGNORECASE)
_MARKER = re.compile(r"^<!--\s*docs-test:(?P<body>.*?)-->$", re.DOTALL)
_MODULE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_TIMEOUT = re.compile(r"^\d+(\.\d+)?$")


@dataclass(frozen=True)
class Markers:
    """What a block's marker comments say; the defaults are a block with no marker."""

    skip: str | None = None
    """Why the block is not run here (never empty when set)."""
    needs: tuple[str, ...] = ()
    """Python modules that must import for the block to run."""
    timeout: float | None = None
    """The block's own time limit in seconds, where it has one."""


@dataclass(frozen=True)
class Problem:
    """A marker or fence that is wrong, at ``path:line``."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Block:
    """One fenced code block."""

    path: str
    """The Markdown file, relative to the repository root (``docs/envs/atari.md``)."""
    line: int
    """The 1-based line of the opening fence."""
    language: str
    """The first word of the info string, lower-cased; ``""`` for a fence without one."""
    text: str
    """The block's content, dedented by the fence's indentation, ending in a newline unless empty."""
    markers: Markers = field(default_factory=Markers)
    problems: tuple[str, ...] = ()
    """What is wrong with the block's markers (each also a :class:`Problem` of the file)."""

    @property
    def id(self) -> str:
        """A stable test id naming the place, such as ``README.md:L123``."""
        return f"{self.path}:L{self.line}"

    @property
    def runs(self) -> bool:
        """Whether the block is code to run (or to mark as not runnable)."""
        return self.language in RUN_LANGUAGES


@dataclass(frozen=True)
class _Comment:
    first: int
    last: int
    body: str


def parse_markers(comment: str) -> tuple[Markers, list[str]]:
    """The directives of one ``<!-- docs-test: ... -->`` comment, and what is wrong with it (empty if nothing)."""
    match = _MARKER.match(comment.strip())
    if match is None:
        return Markers(), [f"not a docs-test marker (write <!-- docs-test: <directives> -->): {comment.strip()!r}"]
    errors: list[str] = []
    skip: str | None = None
    needs: list[str] = []
    timeout: float | None = None
    directives = [part.strip() for part in match.group("body").split(";")]
    for at, directive in enumerate(directives):  # a skip's reason is the rest of the comment, ';' included
        if directive.startswith("skip"):
            directives[at:] = ["; ".join(directives[at:]).strip("; ")]
            break
    if not any(directives):
        errors.append("empty marker: say skip: <reason>, needs <module>, or timeout <seconds>")
    for directive in filter(None, directives):
        word, _, rest = directive.partition(" ")
        if directive.startswith("skip"):
            head, colon, reason = directive.partition(":")
            if head.strip() != "skip" or not colon:
                errors.append(f"write 'skip: <reason>': {directive!r}")
            elif not reason.strip():
                errors.append("a skip needs a reason: skip: <why this block is not run here>")
            elif skip is not None:
                errors.append("two skips in one block's markers")
            else:
                skip = " ".join(reason.split())
        elif word == "needs":
            names = [name.strip() for name in rest.split(",")]
            bad = [name for name in names if not _MODULE.match(name)]
            if bad or not names:
                errors.append(f"write 'needs <module>[, <module>...]' with Python module names: {directive!r}")
            else:
                needs.extend(name for name in names if name not in needs)
        elif word == "timeout":
            if not _TIMEOUT.match(rest.strip()) or float(rest) <= 0:
                errors.append(f"write 'timeout <seconds>' with a positive number: {directive!r}")
            elif timeout is not None:
                errors.append("two timeouts in one block's markers")
            else:
                timeout = float(rest)
        else:
            errors.append(f"unknown directive {directive!r} (known: skip: <reason>, needs <modules>, timeout <s>)")
    return Markers(skip=skip, needs=tuple(needs), timeout=timeout), errors


def _merge(markers: list[Markers]) -> tuple[Markers, list[str]]:
    """The markers of several comments before one fence, as one."""
    skips = [m.skip for m in markers if m.skip is not None]
    timeouts = [m.timeout for m in markers if m.timeout is not None]
    needs: list[str] = []
    for m in markers:
        needs.extend(name for name in m.needs if name not in needs)
    errors = []
    if len(skips) > 1:
        errors.append("two skips in one block's markers")
    if len(timeouts) > 1:
        errors.append("two timeouts in one block's markers")
    merged = Markers(skip=skips[0] if skips else None, needs=tuple(needs), timeout=timeouts[0] if timeouts else None)
    return merged, errors


def _dedent(line: str, indent: int) -> str:
    """``line`` less up to ``indent`` leading spaces (CommonMark's rule for an indented fence's content)."""
    stripped = len(line) - len(line.lstrip(" "))
    return line[min(stripped, indent) :]


def parse(text: str, path: str) -> tuple[list[Block], list[Problem]]:
    """Every fenced code block of a Markdown document, each with its markers, and every problem found."""
    lines = text.splitlines()
    blocks: list[Block] = []
    problems: list[Problem] = []
    comments: dict[int, _Comment] = {}  # by last line
    attached: set[int] = set()  # first lines of the comments that precede a fence
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence is not None and not (fence.group("fence")[0] == "`" and "`" in fence.group("info")):
            indent = len(fence.group("indent"))
            char, length = fence.group("fence")[0], len(fence.group("fence"))
            info = fence.group("info")
            language = info.split()[0].lower().strip("{}.") if info else ""
            closing = re.compile(rf"^ *{re.escape(char)}{{{length},}}\s*$")
            end = i + 1
            while end < len(lines) and not closing.match(lines[end]):
                end += 1
            content = [_dedent(body, indent) for body in lines[i + 1 : end]]
            found: list[Markers] = []
            errors: list[str] = ["a code fence that is never closed"] if end == len(lines) else []
            above = i - 1
            while above in comments:
                comment = comments[above]
                attached.add(comment.first)
                markers, comment_errors = parse_markers(comment.body)
                found.append(markers)
                errors.extend(comment_errors)
                above = comment.first - 1
            found.reverse()
            markers, merge_errors = _merge(found)
            errors.extend(merge_errors)
            if found and language not in RUN_LANGUAGES:
                errors.append(f"a docs-test marker on a {language or 'plain'} block, which is not run anyway")
            text_of_block = "".join(f"{body}\n" for body in content)
            blocks.append(Block(path, i + 1, language, text_of_block, markers, tuple(errors)))
            problems.extend(Problem(path, i + 1, error) for error in errors)
            i = end + 1
            continue
        if _MARKER_START.search(line):
            stripped = line.strip()
            if not stripped.startswith("<!--"):
                problems.append(Problem(path, i + 1, "a docs-test marker must be alone on its line(s)"))
                i += 1
                continue
            last = i
            while "-->" not in lines[last] and last + 1 < len(lines):
                last += 1
            body = "\n".join(part.strip() for part in lines[i : last + 1])
            if not body.endswith("-->"):
                problems.append(Problem(path, i + 1, "a docs-test marker must be alone on its line(s)"))
            else:
                comments[last] = _Comment(i, last, body)
            i = last + 1
            continue
        i += 1
    for comment in comments.values():
        if comment.first not in attached:
            problems.append(
                Problem(path, comment.first + 1, "a docs-test marker not directly followed by a code fence (orphan)")
            )
            problems.extend(Problem(path, comment.first + 1, error) for error in parse_markers(comment.body)[1])
    problems.sort(key=lambda problem: problem.line)
    return blocks, problems


def markdown_files(root: Path) -> list[Path]:
    """The README and every Markdown file under ``docs/``, in a stable order."""
    files = [root / "README.md"] if (root / "README.md").exists() else []
    docs = root / "docs"
    if docs.is_dir():
        files.extend(sorted(docs.rglob("*.md")))
    return files


def collect(root: Path) -> tuple[list[Block], list[Problem]]:
    """Every block of :func:`markdown_files` and every problem found in them."""
    blocks: list[Block] = []
    problems: list[Problem] = []
    for file in markdown_files(root):
        found, wrong = parse(file.read_text(encoding="utf-8"), file.relative_to(root).as_posix())
        blocks.extend(found)
        problems.extend(wrong)
    return blocks, problems
