"""``rlpool.compat.install()``: make ``import envpool`` give rlpool's EnvPool layer, for code one cannot edit.

After ``install()``, third-party code that imports ``envpool`` (a library's EnvPool wrapper, a training
script) gets ``rlpool.compat.envpool`` (or ``rlpool.compat.envpool_legacy``, the 4-tuple ``step`` of EnvPool with
gym < 0.26) instead, even where the real EnvPool is installed. A ``sys.meta_path`` finder placed first
serves these modules, built lazily on first import from the layer's own objects:

* ``envpool``: the layer's names (``make``, ``make_gymnasium``, ``make_gym``, ``make_dm``, ``make_spec``,
  ``list_all_envs``, ``register``, the pool and spec classes, ``__version__`` where the layer has one);
  any other attribute is looked up on the layer.
* ``envpool.registration``: the same functions and ``registry`` (``list_all_envs``, ``make*``,
  ``register``, ``specs``).
* ``envpool.python`` and ``envpool.python.protocol`` (``EnvSpec``, ``ArraySpec``, ``EnvPool``,
  ``DMEnvPool``, ``GymnasiumEnvPool``), and the modules whose base classes libraries test pools against:
  ``envpool.python.envpool.EnvPoolMixin``, ``envpool.python.gymnasium_envpool.GymnasiumEnvPoolMixin``,
  ``envpool.python.dm_envpool.DMEnvPoolMixin``, ``envpool.python.env_spec.EnvSpecMixin``.

Any other ``envpool.*`` (EnvPool's per-family modules) is missing: importing it raises ``ModuleNotFoundError``
and ``importlib.util.find_spec`` gives None, as for any module that is not there.
``install()`` refuses (``RuntimeError``) when the real EnvPool is already imported in the process, as the
modules holding it cannot be swapped; ``uninstall()`` removes the finder and the modules it served.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import re
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

__all__ = ["EnvRegistry", "install", "installed_api", "uninstall"]

Api = Literal["auto", "modern", "legacy"]

_LAYERS = {"modern": "rlpool.compat.envpool", "legacy": "rlpool.compat.envpool_legacy"}
_PACKAGES = frozenset({"envpool", "envpool.python"})
# The classes each served module under envpool.python holds: (name there, name in rlpool.compat.envpool).
_CLASSES: dict[str, tuple[tuple[str, str], ...]] = {
    "envpool.python": (
        ("DMEnvPool", "DMEnvPool"),
        ("EnvPool", "EnvPool"),
        ("EnvSpec", "EnvSpec"),
        ("GymnasiumEnvPool", "GymnasiumEnvPool"),
    ),
    "envpool.python.protocol": (
        ("ArraySpec", "ArraySpec"),
        ("DMEnvPool", "DMEnvPool"),
        ("EnvPool", "EnvPool"),
        ("EnvSpec", "EnvSpec"),
        ("GymnasiumEnvPool", "GymnasiumEnvPool"),
    ),
    "envpool.python.envpool": (("EnvPoolMixin", "EnvPool"),),
    "envpool.python.gymnasium_envpool": (("GymnasiumEnvPoolMixin", "GymnasiumEnvPool"),),
    "envpool.python.dm_envpool": (("DMEnvPoolMixin", "DMEnvPool"),),
    "envpool.python.env_spec": (("EnvSpecMixin", "EnvSpec"),),
}
_SERVED = ("envpool", "envpool.registration", *_CLASSES)
_MARK = "__rlpool_envpool_layer__"  # set on every module the finder serves: the layer's module name


class EnvRegistry:
    """``envpool.registration.registry`` over rlpool's layer: ids, ``make*``, ``register``, ``specs``."""

    def __init__(self, layer: types.ModuleType) -> None:
        self._layer = layer

    def list_all_envs(self) -> list[str]:
        """Every id the layer makes, EnvPool's aliases included."""
        return list(self._layer.list_all_envs())

    def make(self, task_id: str, env_type: str, **kwargs: Any) -> Any:
        """``envpool.make``: a "gym", "gymnasium" or "dm" pool."""
        return self._layer.make(task_id, env_type, **kwargs)

    def make_gym(self, task_id: str, **kwargs: Any) -> Any:
        """``envpool.make_gym``."""
        return self._layer.make_gym(task_id, **kwargs)

    def make_gymnasium(self, task_id: str, **kwargs: Any) -> Any:
        """``envpool.make_gymnasium``."""
        return self._layer.make_gymnasium(task_id, **kwargs)

    def make_dm(self, task_id: str, **kwargs: Any) -> Any:
        """``envpool.make_dm``."""
        return self._layer.make_dm(task_id, **kwargs)

    def make_spec(self, task_id: str, **kwargs: Any) -> Any:
        """``envpool.make_spec``."""
        return self._layer.make_spec(task_id, **kwargs)

    def register(self, task_id: str, *args: Any, **kwargs: Any) -> None:
        """``envpool.register``: the layer's (a variant of an rlpool task, ``base=...``)."""
        self._layer.register(task_id, *args, **kwargs)

    @property
    def specs(self) -> Mapping[str, tuple[str, str, dict[str, Any]]]:
        """Every id, read-only, as EnvPool's ``registry.specs`` is keyed.

        The values are rlpool's, not EnvPool's import paths: ``(layer module, rlpool task id the id runs,
        the options the id sets)``.
        """
        from rlpool.registry import resolve_alias

        name = self._layer.__name__
        return types.MappingProxyType(
            {task_id: (name, *resolve_alias(task_id)) for task_id in self._layer.list_all_envs()}
        )


def _layer_getattr(module: str, layer: types.ModuleType) -> Callable[[str], Any]:
    def __getattr__(name: str) -> Any:  # noqa: N807 - a module's attribute hook (PEP 562)
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        try:
            return getattr(layer, name)
        except AttributeError:
            raise AttributeError(
                f"module {module!r} (rlpool's EnvPool layer, {layer.__name__}) has no attribute {name!r}"
            ) from None

    return __getattr__


def _fill(module: types.ModuleType, layer_name: str) -> None:
    """Give a served module its contents, taken from the layer ``layer_name``."""
    name = module.__name__
    layer = importlib.import_module(layer_name)
    module.__dict__[_MARK] = layer_name
    if name == "envpool":
        module.__doc__ = f"rlpool's EnvPool layer ({layer_name}), served as ``envpool`` by rlpool.compat.install()."
        public = list(getattr(layer, "__all__", ()))
        for key in public:
            setattr(module, key, getattr(layer, key))
        if hasattr(layer, "__version__"):
            module.__version__ = layer.__version__  # type: ignore[attr-defined]
        module.__all__ = public  # type: ignore[attr-defined]
        module.__getattr__ = _layer_getattr(name, layer)  # type: ignore[method-assign]
        # As EnvPool's __init__ does: the submodules are attributes after a bare ``import envpool``.
        for sub in ("envpool.registration", *_CLASSES):
            importlib.import_module(sub)
        return
    if name == "envpool.registration":
        module.__doc__ = f"EnvPool's registration module over rlpool's layer ({layer_name})."
        registry = EnvRegistry(layer)
        module.EnvRegistry = EnvRegistry  # type: ignore[attr-defined]
        module.registry = registry  # type: ignore[attr-defined]
        module.register = registry.register  # type: ignore[attr-defined]
        for key in ("make", "make_dm", "make_gym", "make_gymnasium", "make_spec", "list_all_envs"):
            setattr(module, key, getattr(layer, key))
        return
    classes = importlib.import_module(_LAYERS["modern"])  # the legacy layer builds on these classes
    module.__doc__ = f"EnvPool's {name} over rlpool's layer ({layer_name}): its classes are rlpool's."
    for key, source in _CLASSES[name]:
        setattr(module, key, getattr(classes, source))
    module.__all__ = [key for key, _ in _CLASSES[name]]  # type: ignore[attr-defined]


class _Loader(importlib.abc.Loader):
    def __init__(self, layer_name: str) -> None:
        self.layer_name = layer_name

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # the default module object

    def exec_module(self, module: types.ModuleType) -> None:
        _fill(module, self.layer_name)


class _Finder(importlib.abc.MetaPathFinder):
    """Serves ``envpool`` and the submodules in ``_SERVED`` from one rlpool layer."""

    def __init__(self, api: str) -> None:
        self.api = api
        self.loader = _Loader(_LAYERS[api])

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "envpool" and not fullname.startswith("envpool."):
            return None
        if fullname not in _SERVED:
            # Not served: no spec (the served packages' __path__ is empty, so nothing else finds one either):
            # importing it raises ModuleNotFoundError, and find_spec() probes get None as for a missing module.
            return None
        return importlib.util.spec_from_loader(
            fullname, self.loader, origin=_LAYERS[self.api], is_package=fullname in _PACKAGES
        )


def _finder() -> _Finder | None:
    return next((f for f in sys.meta_path if isinstance(f, _Finder)), None)


def _envpool_modules() -> dict[str, types.ModuleType]:
    return {
        name: module
        for name, module in list(sys.modules.items())
        if (name == "envpool" or name.startswith("envpool.")) and module is not None
    }


def _gym_version() -> tuple[int, ...] | None:
    """The importable ``gym``'s (major, minor), or None without gym.

    Read from its distribution's metadata; where there is none (a bare ``gym`` folder on the path),
    from ``gym.__version__`` as the legacy layer reads it.
    """
    try:
        if importlib.util.find_spec("gym") is None:
            return None
    except ValueError:  # a "gym" in sys.modules without a spec: read its version below
        pass
    try:
        version = importlib.metadata.version("gym")
    except importlib.metadata.PackageNotFoundError:
        version = str(getattr(importlib.import_module("gym"), "__version__", "0"))
    return tuple(int(n) for n in re.findall(r"\d+", version)[:2])


def _resolve(api: str) -> str:
    if api not in ("auto", "modern", "legacy"):
        raise ValueError(f"api must be 'auto', 'modern' or 'legacy', got {api!r}")
    if api != "auto":
        return api
    version = _gym_version()
    return "legacy" if version is not None and version < (0, 26) else "modern"


def install(api: Api = "auto") -> str:
    """Make ``import envpool`` (and its submodules) give rlpool's EnvPool layer in this process.

    ``api="modern"`` serves ``rlpool.compat.envpool`` (EnvPool 1.x), ``"legacy"``
    ``rlpool.compat.envpool_legacy`` (EnvPool with gym < 0.26: 4-tuple ``step``); ``"auto"`` picks legacy
    when the importable ``gym`` is older than 0.26, else modern. Call it before anything imports
    ``envpool``: first thing in the entry script, or in ``sitecustomize.py``/``conftest.py``. Returns the
    api served ("modern" or "legacy"). A second call with the same api does nothing.

    Raises:
        RuntimeError: the real EnvPool is already imported in this process, or another api is already
            installed and imported.
        ValueError: ``api`` is not "auto", "modern" or "legacy".

    """
    chosen = _resolve(api)
    loaded = _envpool_modules()
    foreign = sorted(name for name, module in loaded.items() if _MARK not in module.__dict__)
    if foreign:
        where = getattr(loaded[foreign[0]], "__file__", None) or "?"
        raise RuntimeError(
            f"rlpool.compat.install(): the real EnvPool is already imported in this process ({foreign[0]} from "
            f"{where}); its modules cannot be swapped once imported. Call rlpool.compat.install() before "
            "anything imports envpool (first thing in the entry script, or in sitecustomize.py/conftest.py), "
            "or use `import rlpool.compat.envpool as envpool` directly"
        )
    current = _finder()
    if current is not None and current.api != chosen:
        if loaded:
            raise RuntimeError(
                f"rlpool.compat.install(api={api!r}): envpool is already imported as rlpool's {current.api} "
                f"layer; call rlpool.compat.uninstall() first (modules holding the old envpool keep it)"
            )
        sys.meta_path.remove(current)
        current = None
    if current is None:
        sys.meta_path.insert(0, _Finder(chosen))
    return chosen


def uninstall() -> None:
    """Undo ``install()``: remove the finder and the ``envpool`` modules it served (for tests).

    Objects already taken from them (pools, the ``envpool`` names other modules hold) keep working.
    """
    current = _finder()
    if current is not None:
        sys.meta_path.remove(current)
    for name, module in _envpool_modules().items():
        if _MARK in module.__dict__:
            del sys.modules[name]


def installed_api() -> str | None:
    """The api ``install()`` serves ("modern" or "legacy"), or None when it is not installed."""
    current = _finder()
    return None if current is None else current.api
