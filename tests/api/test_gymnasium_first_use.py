"""A gymnasium user's first steps with rlpool: ids in gymnasium's registry, ``check_env``, vector wrappers.

- ``gymnasium.make("rlpool:rlpool/<TaskId>")`` in a fresh interpreter (gymnasium imports rlpool first:
  gymnasium 1.x has no plugin entry points), and registering twice is silent.
- ``check_env`` passes on a headless machine (no display, an OpenCV without a GUI), for a task that renders
  pictures and one that renders Atari screens.
- An async pool stepped without ``env_id`` (gymnasium's vector wrappers do) says what to do, naming the wrapper.
- Another library's id that looks like an rlpool one (``ALE/Pong-v5``) says how rlpool's task differs.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rlpool
from rlpool.api.gymnasium_ids import register_all_with_gymnasium


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-W", "error", "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )


def test_gymnasium_make_with_the_module_prefix_in_a_fresh_interpreter() -> None:
    """``rlpool:`` before the id makes gymnasium import rlpool (which registers its ids), without warnings."""
    proc = run_python("""
        import sys
        import gymnasium
        assert "rlpool" not in sys.modules
        env = gymnasium.make("rlpool:rlpool/CartPole-v1")
        obs, _ = env.reset(seed=0)
        assert obs.shape == (4,)
        envs = gymnasium.make_vec("rlpool:rlpool/CartPole-v1", num_envs=3, vectorization_mode="vector_entry_point")
        assert envs.reset(seed=0)[0].shape == (3, 4)
        import rlpool  # already imported: registers nothing twice
        from rlpool.api.gymnasium_ids import register_all_with_gymnasium
        register_all_with_gymnasium()
        assert gymnasium.make("rlpool/CartPole-v1").reset(seed=0)[0].shape == (4,)
        print("ok")
    """)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_registering_twice_is_silent() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register_all_with_gymnasium()
        register_all_with_gymnasium()
    assert "rlpool/CartPole-v1" in gymnasium.registry


def test_installed_gymnasium_loads_no_plugins() -> None:
    """Why the ``rlpool:`` prefix: gymnasium 1.x dropped the ``gymnasium.envs`` entry-point plugins, so no
    package can register its ids before it is imported. Should a gymnasium bring them back, rlpool would
    declare one in pyproject.toml."""
    from gymnasium.envs import registration

    assert not hasattr(registration, "load_plugin_envs") and not hasattr(registration, "load_env_plugins")


@pytest.fixture
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    """No display; an OpenCV without a GUI (opencv-python-headless) raises on imshow."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    cv2 = pytest.importorskip("cv2")

    def no_gui(name: str, image: np.ndarray) -> None:
        raise cv2.error("The function is not implemented. Rebuild the library with Windows, GTK+ 2.x or Cocoa")

    monkeypatch.setattr(cv2, "imshow", no_gui)


@pytest.mark.usefixtures("headless")
@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pendulum-v1", "Pong-v5"])
def test_check_env_passes_headless(task_id: str) -> None:
    """gymnasium's check_env makes the env in every render mode it offers ("rgb_array", "human") and renders."""
    if task_id == "Pong-v5":
        pytest.importorskip("ale_py")
    env = gymnasium.make(f"rlpool/{task_id}")
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium's own advice (unbounded Boxes) and "shows no window"
        check_env(env.unwrapped)
        check_env(env)
        human = gymnasium.make(f"rlpool/{task_id}", render_mode="human")
        human.reset(seed=0)
        assert human.render() is None
    human.close()
    env.close()


# --- async pools and gymnasium's vector wrappers -----------------------------------------------------------


def test_vector_wrapper_on_an_async_pool_names_the_wrapper_and_the_fix() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(rlpool.make("CartPole-v1", num_envs=4, batch_size=2))
    envs.reset(seed=0)
    with pytest.raises(ValueError) as info:
        envs.step(np.zeros(2, dtype=np.int64))
    message = str(info.value)
    for part in ("async (batch_size=2 < num_envs=4)", "env_id=info['env_id']", "send(actions, env_id)",
                 "vector wrapper RecordEpisodeStatistics", "assume a sync pool", "batch_size=num_envs (4)"):
        assert part in message, (part, message)
    envs.close()
    sync = RecordEpisodeStatistics(rlpool.make("CartPole-v1", num_envs=4))
    sync.reset(seed=0)
    for _ in range(30):
        *_, info_ = sync.step(np.ones(4, dtype=np.int64))
    assert "episode" in info_
    sync.close()


def test_async_step_without_env_id_says_what_to_pass() -> None:
    envs = rlpool.make("CartPole-v1", num_envs=4, batch_size=2)
    _, info = envs.reset(seed=0)
    with pytest.raises(ValueError, match=r"async \(batch_size=2 < num_envs=4\).*env_id=info\['env_id'\]") as e:
        envs.step(np.zeros(2, dtype=np.int64))
    assert "wrapper" not in str(e.value)
    _, _, _, _, info = envs.step(np.zeros(2, dtype=np.int64), info["env_id"])  # the way it works
    assert info["env_id"].shape == (2,)
    envs.close()
    gym_face = rlpool.make_gym("CartPole-v1", num_envs=4, batch_size=2)
    gym_face.reset()
    with pytest.raises(ValueError, match=r"async \(batch_size=2 < num_envs=4\)"):
        gym_face.step(np.zeros(2, dtype=np.int64))
    gym_face.close()


def test_dm_face_names_its_env_ids() -> None:
    pytest.importorskip("dm_env")
    envs = rlpool.make_dm("CartPole-v1", num_envs=4, batch_size=2)
    envs.reset()
    with pytest.raises(ValueError, match=r"env_id=timestep\.observation\.env_id"):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.close()


def test_other_step_errors_are_unchanged() -> None:
    """Only the missing env_id of an async pool is explained; a sync pool's bad actions keep their error."""
    envs = rlpool.make("CartPole-v1", num_envs=4)
    envs.reset(seed=0)
    with pytest.raises(ValueError) as e:
        envs.step(np.zeros(3, dtype=np.int64))
    assert "async" not in str(e.value)
    envs.close()


# --- another library's ids ---------------------------------------------------------------------------------


def test_ale_v5_id_says_rlpool_task_is_envpools_and_names_ale_options() -> None:
    with pytest.raises(ValueError) as e:
        rlpool.make("ALE/Pong-v5")
    message = str(e.value)
    assert "did you mean 'Pong-v5'" in message
    assert "EnvPool's preprocessed Atari env" in message and "repeat_action_probability=0.25" in message
    options = message.split("rlpool.make('Pong-v5', ")[1].split(")")[0]
    kwargs = dict(pair.split("=") for pair in options.split(", "))
    envs = rlpool.make("Pong-v5", **{k: eval(v) for k, v in kwargs.items()})  # the options it names work
    assert envs.single_observation_space.shape == (3, 210, 160)
    assert envs.config["repeat_action_probability"] == 0.25 and envs.config["stack_num"] == 1
    envs.close()


def test_id_notes_join_the_unknown_id_message(monkeypatch: pytest.MonkeyPatch) -> None:
    from rlpool import registry

    monkeypatch.setattr(registry, "_ID_NOTES", [lambda t: "(Other/CartPole-v1 is another library's.)"
                                                if t.startswith("Other/") else None])
    message = registry.unknown_task_message("Other/CartPole-v1")
    assert message.startswith("unknown task id 'Other/CartPole-v1'; did you mean 'CartPole-v1'")
    assert "? (Other/CartPole-v1 is another library's.) (rlpool.list_all_envs()" in message
    assert "another library's" not in registry.unknown_task_message("Cartpole-v1")
