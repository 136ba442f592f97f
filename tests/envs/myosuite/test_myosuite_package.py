"""The MyoSuite family's Python side: the pinned wheel's unpacking, the list of myosuite's ids, the registration.

The unpacking is tested without network on stand-in wheels (``stand_in_wheels.py``) whose sha256 the test
patches in: what is taken from the wheel and where, a file that differs from the wheel's RECORD, a member whose
path leaves the folder, a folder of another layout, the post-unpack steps, and what a pip that finds nothing
makes it say; then the pinned wheel itself (fetched once into the cache, as every MyoSuite task needs it),
whose Pose and Reach models MuJoCo loads from the unpacked folder. ``tasks.TASKS`` is checked against EnvPool
1.2.7's MyoSuite ids (``../shared/envpool-1.2.7-ids.json``, where there) and its horizons and entry points
(EnvPool 1.2.7's ``MYOSUITE_TASKS``, in its own virtualenv); the registry against ``registration.py``. What
every pinned wheel's fetch does (threads and processes at once, a wheel of another sha256, ...) is tested once,
in ``tests/core/test_pinned_wheel.py``; EnvPool's face in ``src/rlpool/envs/myosuite/envpool.py``'s layout
below, on plain values.
"""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest
from lane import REPO
from stand_in_wheels import left_beside, make_wheel, must_not_download, offline_cache, sha256

from rlpool import _rlpool_core, pinned_wheel, registry
from rlpool.envs import myosuite
from rlpool.envs.myosuite import registration
from rlpool.envs.myosuite.envpool import MyoSuiteLayout
from rlpool.envs.myosuite.tasks import TASKS

SHARED_IDS = REPO.parent / "shared" / "envpool-1.2.7-ids.json"
COMPILED = registration.ENV_TYPE in {name for name, _, _ in _rlpool_core.env_types()}
DIST = f"myosuite-{myosuite.VERSION}.dist-info"

STAND_IN = {
    "myosuite/simhive/myo_sim/finger/myofinger_v0.xml": "<mujoco model='finger'/>\n",
    "myosuite/simhive/myo_sim/LICENSE": "simhive's license\n",
    "myosuite/envs/myo/assets/hand/myohand_pose.xml": "<mujoco model='hand'/>\n",
    "myosuite/envs/myo/myodm/data/MyoHand_apple_lift.npz": b"PK\x03\x04 not a real npz",
    "myosuite/envs/myo/base_v0.py": "# code: not unpacked\n",
    "myosuite/simhive_notes.txt": "beside simhive: not unpacked\n",
    "myosuite_init.py": "# not unpacked\n",
    f"{DIST}/licenses/LICENSE": "myosuite's license\n",
}
UNPACKED = {
    "myosuite/simhive/myo_sim/finger/myofinger_v0.xml",
    "myosuite/simhive/myo_sim/LICENSE",
    "myosuite/envs/myo/assets/hand/myohand_pose.xml",
    "myosuite/envs/myo/myodm/data/MyoHand_apple_lift.npz",
}
"""The stand-in's files that are unpacked, at the same paths (then LICENSE and the MARKER)."""


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache and a pip that finds nothing: the cache root."""
    return offline_cache(tmp_path, monkeypatch)


def stand_in(cache: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str | bytes] | None = None,
             tamper: str | None = None) -> Path:
    """A stand-in wheel of the pinned name in the cache's root, its sha256 patched in; nothing may be fetched.

    The stand-in holds a few models only: the steps that generate files from the real wheel's are left out.
    """
    wheel = make_wheel(cache, myosuite.WHEEL, STAND_IN if files is None else files, tamper=tamper)
    monkeypatch.setattr(myosuite, "WHEEL_SHA256", sha256(wheel))
    monkeypatch.setattr(myosuite, "POST_UNPACK", ())
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    return wheel


def files_in(folder: Path) -> set[str]:
    """The files under ``folder``, as paths relative to it."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_the_models_are_unpacked_at_the_wheels_paths(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in(offline, monkeypatch)
    folder = myosuite.assets_dir()
    assert folder == offline / "myosuite" / f"myosuite-{myosuite.VERSION}" == myosuite.cache_folder()
    assert files_in(folder) == UNPACKED | {"LICENSE", myosuite.MARKER}
    for name in UNPACKED:
        expected = STAND_IN[name]
        assert (folder / name).read_bytes() == (expected.encode() if isinstance(expected, str) else expected)
    assert (folder / "LICENSE").read_text() == "myosuite's license\n"
    assert f"layout {myosuite.LAYOUT}\n" in (folder / myosuite.MARKER).read_text()
    assert myosuite.prepare({"task_name": "myoHandPoseRandom-v0"}) == {"_assets": str(folder)}
    assert left_beside(folder) == []
    monkeypatch.setattr(myosuite, "_unpack", lambda *args: pytest.fail("unpacked twice"))
    assert myosuite.assets_dir() == folder


def test_a_file_that_differs_from_the_record_is_refused(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in(offline, monkeypatch, tamper="myosuite/envs/myo/assets/hand/myohand_pose.xml")
    with pytest.raises(myosuite.MyoSuiteUnavailableError,
                       match=r"myohand_pose\.xml differs from its sha256 in the wheel's RECORD: refusing"):
        myosuite.assets_dir()
    assert not myosuite.cache_folder().exists() and left_beside(myosuite.cache_folder()) == []


def test_a_path_that_leaves_the_folder_is_refused(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # From the staged folder <cache>/myosuite/.<tmp>/unpacked, five levels up is the cache's root.
    escaping = "myosuite/simhive/../../../../../escaped.txt"
    stand_in(offline, monkeypatch, files={**STAND_IN, escaping: "out\n"})
    with pytest.raises(myosuite.MyoSuiteUnavailableError, match=r"refusing to unpack .*escaped\.txt"):
        myosuite.assets_dir()
    assert not (offline / "escaped.txt").exists()
    assert not myosuite.cache_folder().exists() and left_beside(myosuite.cache_folder()) == []


def test_a_folder_of_another_layout_or_damaged_is_unpacked_again(offline: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in(offline, monkeypatch)
    folder = myosuite.assets_dir()
    marker = (folder / myosuite.MARKER).read_text()
    (folder / myosuite.MARKER).write_text(marker.replace(f"layout {myosuite.LAYOUT}", "layout 0"))
    (folder / "myosuite/envs/myo/assets/hand/myohand_pose.xml").unlink()
    assert myosuite.assets_dir() == folder
    assert files_in(folder) == UNPACKED | {"LICENSE", myosuite.MARKER}
    assert (folder / myosuite.MARKER).read_text() == marker and left_beside(folder) == []
    monkeypatch.setattr(myosuite, "LAYOUT", myosuite.LAYOUT + 1)  # a new layout: the folder is stale
    assert not myosuite._complete(folder)
    assert myosuite.assets_dir() == folder and myosuite._complete(folder)


def test_post_unpack_steps_run_after_the_files_and_before_the_marker(offline: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in(offline, monkeypatch)
    seen = []

    def generate(folder: Path) -> None:
        assert files_in(folder) == UNPACKED | {"LICENSE"}  # every file, no marker yet
        (folder / "myosuite/envs/myo/assets/hand/generated.xml").write_text("<mujoco/>\n")
        seen.append(folder)

    monkeypatch.setattr(myosuite, "POST_UNPACK", (("generate", generate),))
    folder = myosuite.assets_dir()
    assert len(seen) == 1 and (folder / "myosuite/envs/myo/assets/hand/generated.xml").is_file()
    assert "steps generate\n" in (folder / myosuite.MARKER).read_text()
    # A step added later makes the folder stale; a step that fails keeps nothing.
    def fail(folder: Path) -> None:
        raise myosuite.MyoSuiteUnavailableError("the step failed")

    monkeypatch.setattr(myosuite, "POST_UNPACK", (("generate", generate), ("fail", fail)))
    assert not myosuite._complete(folder)
    with pytest.raises(myosuite.MyoSuiteUnavailableError, match="the step failed"):
        myosuite.assets_dir()
    assert left_beside(folder) == []


def test_an_unfetchable_wheel_raises_naming_what_to_do(offline: Path) -> None:
    with pytest.raises(ImportError) as e:
        myosuite.assets_dir()
    assert isinstance(e.value, myosuite.MyoSuiteUnavailableError)
    message = str(e.value)
    for part in (f"myosuite {myosuite.VERSION}", f"myosuite=={myosuite.VERSION}", "could not be fetched",
                 myosuite.WHEEL, myosuite.WHEEL_SHA256, str(offline)):
        assert part in message, part
    assert not myosuite.cache_folder().exists() and left_beside(myosuite.cache_folder()) == []


MODELS = (
    # model file, (nq, nu, na): the models of the registered Pose and Reach ids, with EnvPool 1.2.7's sizes.
    ("myosuite/envs/myo/assets/hand/myohand_pose.xml", (23, 39, 39)),
    ("myosuite/simhive/myo_sim/finger/myofinger_v0.xml", (4, 5, 5)),
    ("myosuite/simhive/myo_sim/finger/motorfinger_v0.xml", (4, 5, 0)),
    ("myosuite/envs/myo/assets/elbow/myoelbow_1dof6muscles.xml", (1, 6, 6)),
    ("myosuite/envs/myo/assets/elbow/myoelbow_1dof6muscles_1dofexo.xml", (1, 7, 6)),
)


def test_the_pinned_wheels_models_load_from_the_unpacked_folder() -> None:
    import mujoco

    folder = myosuite.assets_dir()  # the pinned wheel, fetched and unpacked once into the cache
    assert (folder / myosuite.MARKER).read_text() == myosuite._marker_text()
    files = files_in(folder)
    wheel = pinned_wheel.in_cache_root(myosuite.wheel())
    if wheel is not None:  # the wheel's files under FOLDERS are all there; the others are generated next to them
        with zipfile.ZipFile(wheel) as z:
            members = {n for n in z.namelist() if n.startswith(myosuite.FOLDERS) and not n.endswith("/")}
        assert len(members) == 1251 and members <= files
    # The generated files lie next to the models or under rlpool-data/ (tables read from the wheel's sources).
    assert all(name.startswith(("myosuite/", "rlpool-data/")) for name in files - {"LICENSE", myosuite.MARKER})
    assert sum(name.startswith("myosuite/envs/myo/myodm/data/") and name.endswith(".npz") for name in files) == 95
    for path, sizes in MODELS:
        model = mujoco.MjModel.from_xml_path(str(folder / path))
        assert (model.nq, model.nu, model.na) == sizes, path


def test_the_ids_are_envpool_127s() -> None:
    ids = [t.id for t in TASKS]
    assert len(ids) == len(set(ids)) == 398 and ids == sorted(ids)
    assert all(t.horizon > 0 and ":" in t.cls for t in TASKS)
    if not SHARED_IDS.is_file():
        pytest.skip(f"{SHARED_IDS} is not there")
    envpool = {k for k, v in json.loads(SHARED_IDS.read_text()).items() if v == "envpool.mujoco.myosuite"}
    assert envpool == set(ids) | {registration.ALIAS_PREFIX + i for i in ids}


def test_the_horizons_and_classes_are_envpool_127s() -> None:
    from envpool127 import envpool_python

    script = ("import json; from envpool.mujoco.myosuite.tasks import MYOSUITE_TASKS as T; "
              "print(json.dumps([[t['id'], t['max_episode_steps'], t['entry_point']] for t in T]))")
    result = subprocess.run([str(envpool_python()), "-c", script], capture_output=True, text=True, check=True)
    theirs = {i: (h, e.rsplit(".", 1)[1]) for i, h, e in json.loads(result.stdout.splitlines()[-1])}
    assert theirs == {t.id: (t.horizon, t.cls) for t in TASKS}


def test_registration_takes_the_implemented_classes() -> None:
    done = registration.registered_tasks()
    assert {t.cls for t in done} == registration.IMPLEMENTED
    by_id = {t.id: t for t in TASKS}
    assert registration.NOT_YET <= set(by_id) and all(by_id[i].cls in registration.IMPLEMENTED
                                                     for i in registration.NOT_YET)
    assert not {t.id for t in done} & registration.NOT_YET
    assert [t for t in TASKS if t.cls in registration.IMPLEMENTED and t.id not in registration.NOT_YET] == list(done)


def test_this_build_has_the_env_type() -> None:
    assert COMPILED, f"this build of rlpool has no {registration.ENV_TYPE!r} env type"


@pytest.mark.skipif(not COMPILED, reason="this build has no MyoSuite env type (test_this_build_has_the_env_type)")
def test_every_id_and_its_alias_are_registered() -> None:
    expected = {}
    for t in registration.registered_tasks():
        expected[t.id] = expected[registration.ALIAS_PREFIX + t.id] = t
    assert {i for i in registry.list_all_envs() if registry.task(i).env_type == registration.ENV_TYPE} == set(expected)
    for task_id, t in expected.items():
        spec = registry.task(task_id)
        assert spec.max_episode_steps == t.horizon, task_id
        assert spec.env_defaults == {"task_name": t.id}, task_id
        assert spec.prepare is myosuite.prepare and spec.family == "myosuite", task_id


def test_the_envpool_layout_gives_envpool_127s_config_and_spaces() -> None:
    from gymnasium import spaces

    layout = MyoSuiteLayout()
    pool = {"num_envs": 2, "batch_size": 2, "num_threads": 0, "max_num_players": 1, "thread_affinity_offset": -1,
            "base_path": "/x", "seed": 42, "env_seed": [42, 43], "gym_reset_return_info": True,
            "max_episode_steps": 100}
    config = {**pool, "reward_threshold": None, "task_name": "myoHandPoseRandom-v0", "from_pixels": False,
              "frame_stack": 1, "autoreset_mode": "NextStep"}
    assert list(layout.config(config).items()) == [
        *pool.items(), ("frame_stack", 1), ("task_name", "myoHandPoseRandom-v0"), ("autoreset_mode", "NextStep")]
    pixels = {**config, "from_pixels": True, "frame_stack": 2}
    assert list(layout.config(pixels).items()) == [
        *pool.items(), ("frame_stack", 2), ("task_name", "myoHandPoseRandom-v0"), ("from_pixels", True),
        ("autoreset_mode", "NextStep")]
    assert layout.stacks_frames({}) and not layout.stacks_frames({"from_pixels": True})
    space = layout.observation_space(spaces.Box(-10, 10, (108,), np.float32))
    assert space == spaces.Box(-np.inf, np.inf, (108,), np.float64)
    frames = spaces.Box(0, 255, (6, 84, 84), np.uint8)
    assert layout.observation_space(frames) is frames
    obs = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    assert layout.obs(obs).dtype == np.float64 and np.array_equal(layout.obs(obs), obs)
    image = np.zeros((2, 6, 84, 84), np.uint8)
    assert layout.obs(image) is image
    assert layout.info_fields == {"sparse": "rwd_sparse"} and layout.info_dtypes == {"solved": np.float64}
