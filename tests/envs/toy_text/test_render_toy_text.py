"""Rendering of the toy text tasks against gymnasium's own ``rgb_array`` frames, bitwise.

FrozenLake, CliffWalking and Taxi draw gymnasium's pictures from its PNG images, read from the installed
gymnasium (``rlpool.images`` decodes them into the cache) and scaled and blitted with pygame's arithmetic
(``_core/gfx/draw.h``). Each task
is stepped beside gymnasium with the same actions, gymnasium's state copied in after each step (their
random streams differ on slippery ice and in the rain), and every frame compared; FrozenLake also on maps
of other sizes (cells scaled to fit 512 pixels). Blackjack draws gymnasium's table, its images too.
"""

from __future__ import annotations

import numpy as np
import pytest
from render_reference import assert_alias_renders_as_target, assert_frames_equal, gym_rendering
from test_toy_text import blackjack_state

import rlpool
from rlpool import registry
from rlpool.compat import envpool  # noqa: F401 (registers EnvPool's aliases: tabular/CliffWalking-v0, ...)

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pygame")
from gymnasium.envs.toy_text.frozen_lake import generate_random_map  # noqa: E402

RENDERED_TYPES = ("FrozenLake", "CliffWalking", "Taxi")
TASKS = [t for t in registry.list_all_envs() if registry.task(t).env_type in RENDERED_TYPES]
STEPS = 60


def copy_state(env, g: gym.Env) -> None:
    u = g.unwrapped
    state = [u.s, int(u.fickle_step)] if hasattr(u, "fickle_step") else [u.s]  # Taxi: s and fickle_step
    env.set_state(0, np.array(state, dtype=np.int64).tobytes())


@pytest.mark.parametrize("task_id", TASKS)
def test_frames_equal_gymnasium(task_id: str) -> None:
    g = gym_rendering(task_id)
    env = rlpool.make(task_id, num_envs=1, render_mode="rgb_array")
    assert env.metadata["render_fps"] == g.metadata["render_fps"]
    g.reset(seed=1)
    env.reset()
    copy_state(env, g)
    rng = np.random.default_rng(0)
    for t in range(STEPS):
        assert_frames_equal(env.render()[0], g.render(), f"{task_id} step {t}")
        a = int(rng.integers(g.action_space.n))
        _, _, terminated, truncated, _ = g.step(a)
        env.step(np.array([a]))
        if terminated or truncated:  # rlpool resets on its next step
            g.reset(seed=t)
            env.step(np.array([a]))
        copy_state(env, g)
    env.close()
    g.close()


@pytest.mark.parametrize("task_id", ["FrozenLake-v1", "CliffWalking-v1"])
def test_every_state(task_id: str) -> None:
    g = gym_rendering(task_id)
    env = rlpool.make(task_id, num_envs=1, render_mode="rgb_array")
    g.reset(seed=0)
    env.reset()
    for s in range(g.observation_space.n):
        g.unwrapped.s = s
        copy_state(env, g)
        assert_frames_equal(env.render()[0], g.render(), f"{task_id} state {s}")


@pytest.mark.parametrize("desc", [generate_random_map(10, seed=1), generate_random_map(3, seed=2),
                                  ["SFFFFHF", "FFHFFFG"], ["SF", "FH", "FF", "HF", "FF", "FG", "FF", "FF", "FF"]])
def test_frozen_lake_maps_of_other_sizes(desc: list[str]) -> None:
    g = gym.make("FrozenLake-v1", desc=desc, render_mode="rgb_array")
    env = rlpool.make("FrozenLake-v1", desc=",".join(desc), num_envs=1, render_mode="rgb_array")
    assert env.spec.arrays.render_size == g.unwrapped.window_size
    g.reset(seed=0)
    env.reset()
    for s in range(0, g.observation_space.n, 3):
        g.unwrapped.s = s
        copy_state(env, g)
        assert_frames_equal(env.render()[0], g.render(), f"{desc} state {s}")


def test_taxi_turns_with_its_moves() -> None:
    env = rlpool.make("Taxi-v4", num_envs=1, render_mode="rgb_array")
    env.reset()
    frames = []
    for a in (0, 1, 2, 3):  # south, north, east, west: four pictures of the taxi
        env.set_state(0, np.array([2 * 100 + 2 * 20 + 0 * 4 + 1, 0], dtype=np.int64).tobytes())
        env.step(np.array([a]))
        env.set_state(0, np.array([2 * 100 + 2 * 20 + 0 * 4 + 1, 0], dtype=np.int64).tobytes())
        frames.append(env.render()[0])
    assert len({f.tobytes() for f in frames}) == 4
    env.close()


@pytest.mark.parametrize("alias", [a for a in registry.list_aliases() if registry.resolve_alias(a)[0] in TASKS])
def test_envpool_alias_renders(alias: str) -> None:
    assert_alias_renders_as_target(alias)


def _blackjack_state(g: gym.Env) -> bytes:
    """rlpool's Blackjack state bytes for gymnasium's env: both hands and the look of the dealer's card."""
    u = g.unwrapped
    face = "JQK".index(u.dealer_top_card_value_str) if u.dealer[0] == 10 else 0
    return blackjack_state(u.player, u.dealer, suit="CDHS".index(u.dealer_top_card_suit), face=face)


@pytest.mark.parametrize("seed", range(12))
def test_blackjack_frames_equal_gymnasium(seed: int) -> None:
    """gymnasium draws the table from its images: the dealer's card (its suit and face), the sums, the ace."""
    g = gym_rendering("Blackjack-v1")
    env = rlpool.make("Blackjack-v1", num_envs=1, render_mode="rgb_array", autoreset_mode="Disabled")
    g.reset(seed=seed)
    env.reset()
    env.set_state(0, _blackjack_state(g))
    assert_frames_equal(env.render()[0], g.render(), f"seed {seed} reset")
    rng = np.random.default_rng(seed)
    for t in range(4):
        _, _, terminated, _, _ = g.step(int(rng.integers(0, 2)))
        env.set_state(0, _blackjack_state(g))  # the cards drawn differ (other random streams): copied
        assert_frames_equal(env.render()[0], g.render(), f"seed {seed} step {t}")
        if terminated:
            break
    assert env.metadata["render_fps"] == g.metadata["render_fps"]
    g.close()
    env.close()


def test_gymnasiums_images_decode_as_pygame_loads_them():
    """rlpool.images' PNG reader gives, for every image gymnasium ships, the pixels pygame loads."""
    import os

    import pygame

    from rlpool.images import read_png

    package = os.path.dirname(gym.__file__)
    paths = sorted(
        os.path.join(root, f)
        for folder in ("envs/toy_text/img", "envs/classic_control/assets")
        for root, _, files in os.walk(os.path.join(package, folder))
        for f in files
        if f.endswith(".png")
    )
    assert len(paths) > 30
    for path in paths:
        image = pygame.image.load(path)
        rgb = pygame.surfarray.pixels3d(image).transpose(1, 0, 2)
        alpha = pygame.surfarray.pixels_alpha(image).T
        np.testing.assert_array_equal(read_png(path), np.dstack([rgb, alpha]), err_msg=path)


def test_bad_image_files_are_refused(tmp_path, monkeypatch):
    from rlpool import images

    (tmp_path / "not.png").write_bytes(b"GIF89a....")
    with pytest.raises(ValueError, match="is not a PNG file"):
        images.read_png(tmp_path / "not.png")
    # A cache whose image went missing after make(): render() names the file it could not read.
    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(images, "_READY", {})
    env = rlpool.make("FrozenLake-v1", num_envs=1, render_mode="rgb_array")
    env.reset()
    (ice,) = (tmp_path / "cache").rglob("tile_ice.png.argb")
    ice.write_bytes(b"RLPIMG01\x00")
    with pytest.raises(RuntimeError, match="cannot read image .*tile_ice.png.argb: not an rlpool image file"):
        env.render()
    env.close()


@pytest.mark.parametrize("options", [{}, {"rows": 6, "columns": 9}, {"height": 40, "width": 3}])
def test_catch_picture_is_its_board(options) -> None:
    """Catch (bsuite draws nothing): its board, each cell a white or black square."""
    env = rlpool.make("Catch-v0", num_envs=1, render_mode="rgb_array", **options)
    obs, _ = env.reset(seed=1)
    rows, cols = obs.shape[1:]
    cell = min(32, max(1, 512 // max(rows, cols)))
    for t in range(rows + 2):
        expected = np.kron(obs[0], np.ones((cell, cell))).astype(np.uint8) * 255
        frame = env.render()[0]
        assert frame.shape == (rows * cell, cols * cell, 3), options
        for c in range(3):
            np.testing.assert_array_equal(frame[..., c], expected, err_msg=f"{options} step {t}")
        obs, *_ = env.step(np.array([t % 3]))
    env.close()


def test_nchain_picture_shows_the_agents_state() -> None:
    env = rlpool.make("NChain-v0", num_envs=1, render_mode="rgb_array", slip=0.0)
    obs, _ = env.reset(seed=0)
    for t in range(7):
        frame = env.render()[0]
        assert frame.shape == (64, 5 * 64, 3)
        blue = np.all(frame == (65, 105, 225), axis=-1)
        columns = np.flatnonzero(blue.any(axis=0))
        assert columns.min() // 64 == columns.max() // 64 == obs[0], (t, obs[0])
        obs, *_ = env.step(np.array([0]))  # forward: along the chain, then staying at its end
    env.close()
    with pytest.raises(ValueError, match="does not render"):
        rlpool.make("NChain-v0", num_envs=1, render_mode="rgb_array", n=5000)
