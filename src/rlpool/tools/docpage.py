"""The hand-written part of a reference page: the data types a family fills in.

A family's ``docs.py`` (``rlpool/envs/<family>/docs.py``) returns a ``FamilyDoc`` from its
``reference_doc()``: an intro and one ``EnvDoc`` per env, whose observation and action elements
are ``Part``s. ``rlpool.tools.describe`` and the page generator ``rlpool.tools.docgen`` add what
the registry computes. Plain data: this module imports nothing of rlpool's.
"""

from __future__ import annotations

from dataclasses import dataclass


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
