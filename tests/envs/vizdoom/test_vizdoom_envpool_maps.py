"""EnvPool's D1-D4 ViZDoom tasks: their maps, fetched from ``envpool-assets``, and the tasks against vizdoom's DoomGame.

The tasks against vizdoom's own ``DoomGame`` loading the same fetched cfg and wad, step by step as
``test_vizdoom.py`` compares the other scenarios (same engine, seeds and actions; screens, rewards, ends
and game variables equal at every step), with a check that a changed action makes that comparison fail;
EnvPool's reward and info against the formula ``test_vizdoom_envpool_options.py`` checks; spaces and
config as EnvPool 1.2.7 gives them (its values written here). The maps are fetched once into the cache
(``rlpool.envs.vizdoom.assets``): where that is impossible (offline) these tests skip, naming
``envpool-assets``; in CI they fail instead. The fetch itself is tested without network (a stand-in wheel
whose pins the test patches in): what a pip that finds nothing makes it say, maps that differ from their
pins, a damaged cache. What every pinned wheel's fetch does (a wheel of another sha256, no pip, threads and
processes at once, ...) is tested once, in ``tests/core/test_pinned_wheel.py``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from lane import require, vizdoom_missing
from stand_in_wheels import left_beside, make_wheel, must_not_download, offline_cache, sha256
from test_vizdoom import STEPS, lockstep
from test_vizdoom_envpool_options import reward_config_against

import rlpool
from rlpool import pinned_wheel
from rlpool.envs.vizdoom import assets
from rlpool.envs.vizdoom.registration import ENVPOOL_INFO, doomgame, task_name

vzd = pytest.importorskip("vizdoom")
require(vizdoom_missing())  # rlpool built without the controller library: the package to install

TASKS = [f"{task_name(s)}-v1" for s in assets.SCENARIOS]
# EnvPool 1.2.7's spaces (make_spec(...).observation_space / action_space): observation, buttons, and the
# combined action counts without and with force_speed.
ENVPOOL_SPACES = {
    "D1Basic-v1": ((4, 84, 84), 3, 6, 6),
    "D2Navigation-v1": ((4, 84, 84), 3, 6, 6),
    "D3Battle-v1": ((4, 84, 84), 8, 108, 54),
    "D4Battle2-v1": ((4, 84, 84), 8, 108, 54),
}


@pytest.fixture(scope="module")
def maps() -> Path:
    """The fetched maps' folder; skips (fails in CI) where envpool-assets cannot be fetched."""
    try:
        return assets.maps_folder()
    except assets.MapsUnavailableError as e:
        require(f"needs {assets.PACKAGE}=={assets.VERSION}'s maps: {e}")
        raise


@pytest.fixture(autouse=True)
def _engines_write_into_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """vizdoom's own engines write _vizdoom.ini and a _vizdoom/ folder into the working folder: tmp_path."""
    monkeypatch.chdir(tmp_path)


def test_registered_without_fetching() -> None:
    """The four ids are registered, in rlpool and its EnvPool layer, with paths into the cache; nothing fetched."""
    import rlpool.compat.envpool as compat

    assert set(TASKS) <= set(rlpool.list_all_envs()) & set(compat.list_all_envs())
    script = ("import os, rlpool; from rlpool.registry import task; "
              "print(task('D1Basic-v1').env_defaults['cfg_path']); "
              "print(os.path.exists(os.environ['RLPOOL_CACHE_DIR']))")
    env = {**os.environ, "RLPOOL_CACHE_DIR": "/nonexistent/rlpool-cache"}
    env.pop(assets.ENV_VAR, None)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["/nonexistent/rlpool-cache/vizdoom/envpool_assets-0.4.1/D1_basic.cfg", "False"]


# --- the tasks, against vizdoom's DoomGame and EnvPool 1.2.7 -------------------------------------------------


@pytest.mark.parametrize("task", TASKS)
def test_lockstep_with_doomgame(task: str, maps: Path) -> None:
    lockstep(doomgame(task), task, STEPS)


@pytest.mark.parametrize(("task", "change", "match"), [
    ("D3Battle-v1", {"changed_step": 4}, "step 4"),  # noticed at that step's screen
    ("D1Basic-v1", {"reference_seed": 6}, "Arrays are not equal"),  # the first screens differ (health kits)
])
def test_lockstep_can_fail(task: str, change: dict[str, int], match: str, maps: Path) -> None:
    """The reference given another action or another seed: the comparison fails."""
    with pytest.raises(AssertionError, match=match):
        lockstep(doomgame(task), task, 12, **change)


@pytest.mark.parametrize("task", ["D1Basic-v1", "D3Battle-v1"])
def test_envpool_reward_against_doomgame(task: str, maps: Path) -> None:
    """EnvPool's reward and info (``use_reward_config``, ``envpool_info``) against its formula on DoomGame."""
    reward_config_against(doomgame(task), task)


def task_name_stem(task: str) -> str:
    """The scenario file name of a D task (``D3Battle-v1`` -> ``D3_battle``)."""
    return next(s for s in assets.SCENARIOS if f"{task_name(s)}-v1" == task)


@pytest.mark.parametrize("task", TASKS)
def test_spaces_and_config_are_envpools(task: str, maps: Path) -> None:
    import rlpool.compat.envpool as compat

    obs, buttons, combined, fast = ENVPOOL_SPACES[task]
    spec = compat.make_spec(task)
    assert spec.observation_space.shape == obs and spec.observation_space.dtype == np.uint8
    assert spec.action_space.shape == (buttons,) and spec.action_space.dtype == np.float64
    assert compat.make_spec(task, use_combined_action=True).action_space.n == combined
    assert compat.make_spec(task, use_combined_action=True, force_speed=True).action_space.n == fast
    stem = task_name_stem(task)
    assert (spec.config.cfg_path, spec.config.wad_path) == (str(maps / f"{stem}.cfg"), str(maps / f"{stem}.wad"))
    assert (spec.config.max_episode_steps, spec.config.frame_skip, spec.config.game_args) == (525, 4, "")
    assert spec.config.map_id == "map01"
    env = compat.make(task, env_type="gymnasium", num_envs=2, seed=3)
    try:
        env.reset()
        _, reward, *_, info = env.step(np.zeros((2, buttons)))
        assert list(info) == ["env_id", "players", *ENVPOOL_INFO, "elapsed_step"]
        assert reward.dtype == np.float32
    finally:
        env.close()


def test_own_cfg_needs_nothing_fetched(maps: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller's own cfg_path and wad_path for a D task: nothing is fetched (the cache may be empty)."""
    mine = tmp_path / "mine"
    shutil.copytree(maps, mine)
    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(tmp_path / "empty"))
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    spec = rlpool.make_spec("D1Basic-v1", cfg_path=str(mine / "D1_basic.cfg"), wad_path=str(mine / "D1_basic.wad"))
    assert spec.config["cfg_path"] == str(mine / "D1_basic.cfg")
    assert not (tmp_path / "empty").exists()


def test_maps_folder_from_the_environment(maps: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$RLPOOL_VIZDOOM_MAPS: the files from there (checked), nothing fetched; a changed file is refused."""
    mine = tmp_path / "mine"
    shutil.copytree(maps, mine)
    monkeypatch.setenv(assets.ENV_VAR, str(mine))
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    assert rlpool.make_spec("D4Battle2-v1").config["wad_path"] == str(mine / "D4_battle2.wad")
    with open(mine / "D4_battle2.wad", "ab") as f:
        f.write(b"\0")
    with pytest.raises(assets.MapsUnavailableError, match=r"RLPOOL_VIZDOOM_MAPS=.*\['D4_battle2.wad'\].*sha256"):
        rlpool.make_spec("D4Battle2-v1")


# --- the fetch, without network ------------------------------------------------------------------------------


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache and a pip that finds nothing (no index; links only where a test adds them): the cache root."""
    monkeypatch.delenv(assets.ENV_VAR, raising=False)
    return offline_cache(tmp_path, monkeypatch)


def leftovers(cache: Path) -> list[str]:
    """What a failed or finished fetch left in the cache's vizdoom folder besides the maps and the lock."""
    return left_beside(cache / "vizdoom" / "envpool_assets-0.4.1")


def test_unfetchable_maps_raise_a_clear_error(offline: Path) -> None:
    with pytest.raises(assets.MapsUnavailableError) as e:
        rlpool.make_spec("D2Navigation-v1")
    message = str(e.value)
    for part in ("envpool-assets==0.4.1", "could not be fetched", "No matching distribution", "pip download",
                 assets.ENV_VAR, "D2_navigation.wad"):
        assert part in message, part
    assert not (offline / "vizdoom" / "envpool_assets-0.4.1").exists() and leftovers(offline) == []


def stand_in_wheel(folder: Path, content: bytes = b"stand-in") -> Path:
    """A wheel named as the pinned one, its eight map files holding ``content`` (and their names)."""
    files = {assets.WHEEL_FOLDER + name: content + name.encode() for name in assets.MAPS}
    return make_wheel(folder, assets.WHEEL, files)


def pins_of(wheel: Path) -> tuple[str, dict[str, str]]:
    """The sha256 of ``wheel`` and of its eight map files: pins that make it the one rlpool accepts."""
    with zipfile.ZipFile(wheel) as z:
        files = {name: hashlib.sha256(z.read(assets.WHEEL_FOLDER + name)).hexdigest() for name in assets.MAPS}
    return sha256(wheel), files


def test_a_wheel_in_the_cache_is_unpacked_and_a_damaged_cache_replaced(offline: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    wheel = stand_in_wheel(offline)
    sha, files = pins_of(wheel)
    monkeypatch.setattr(assets, "WHEEL_SHA256", sha)
    monkeypatch.setattr(assets, "MAPS", files)
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    folder = assets.maps_folder()
    assert folder == offline / "vizdoom" / "envpool_assets-0.4.1"
    assert sorted(p.name for p in folder.iterdir()) == sorted(files)
    (folder / "D1_basic.cfg").write_bytes(b"damaged")
    (folder / "D3_battle.wad").unlink()
    assert assets.maps_folder() == folder
    assert assets.bad_files(folder) == [] and leftovers(offline) == []


def test_maps_that_differ_from_their_pins_are_refused(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The wheel has the pinned sha256 but its maps are not the pinned ones: refused, nothing cached."""
    sha, _ = pins_of(stand_in_wheel(offline))
    monkeypatch.setattr(assets, "WHEEL_SHA256", sha)
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    with pytest.raises(assets.MapsUnavailableError, match=r"\['D1_basic.cfg', .*'D4_battle2.wad'\] differ from "
                       r"envpool-assets==0\.4\.1's: refusing to use them"):
        assets.maps_folder()
    assert not (offline / "vizdoom" / "envpool_assets-0.4.1").exists() and leftovers(offline) == []
