"""Sokoban-v0 (src/rlpool/envs/jumanji/sokoban.cc, sokoban_data.py) beside jumanji 1.1.2's Sokoban, bit for bit.

Levels: jumanji's ToyGenerator and SimpleSolveGenerator (rlpool reads them from jumanji's generator.py), and
Boxoban-format level files written here (random levels: walled or open-edged 10 x 10 grids with 4 boxes, 4
targets and an agent, a third of them one push from solved), which jumanji's HuggingFaceDeepMindGenerator reads
through a patched ``hf_hub_download`` and rlpool through ``levels_file`` or a Hugging Face cache folder. Whole
episodes in lockstep (observations, rewards, flags and the extras), the saved state against jumanji's State,
``proportion_of_files`` and ``level_index``, the missing-dataset error, bad level files and state blobs refused,
a planted difference caught, and the rendered picture decoded square by square.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402
from stand_in_wheels import make_wheel, must_not_download, offline_cache, sha256  # noqa: E402

import rlpool  # noqa: E402
from rlpool import pinned_wheel  # noqa: E402
from rlpool.envs.jumanji import sokoban_data, wheel_files  # noqa: E402

TASK = "Sokoban-v0"
MOVES = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
SOLVE_SIMPLE = [0, 2, 1, 0, 2, 1, 0, 2, 1, 0]  # SimpleSolveGenerator's level: push each box up onto its target
IMAGE_NAMES = list(sokoban_data.IMAGES)


def _generators() -> Any:
    from jumanji.environments.routing.sokoban import generator

    return generator


_SHIPPED: dict[str, Any] = {}


def ref_shipped(name: str = "ToyGenerator") -> jr.Reference:
    """jumanji's Sokoban with its ToyGenerator or SimpleSolveGenerator (one generator object per class, so the
    jitted functions are reused)."""
    if name not in _SHIPPED:
        _SHIPPED[name] = getattr(_generators(), name)()
    return jr.Reference(TASK, {"generator": _SHIPPED[name]})


def ref_toy() -> jr.Reference:
    """jumanji's Sokoban with its ToyGenerator."""
    return ref_shipped("ToyGenerator")


def random_levels(n: int, seed: int) -> np.ndarray:
    """``n`` random levels in the Boxoban file's format: uint8 (n, 10, 10, 2), [..., 0] fixed, [..., 1] variable."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 10, 10, 2), np.uint8)
    for k in range(n):
        fixed = np.zeros((10, 10), np.uint8)
        variable = np.zeros((10, 10), np.uint8)
        lo, hi = (1, 9) if k % 4 else (0, 10)  # every fourth level has no wall round its edge
        if k % 4:
            fixed[[0, -1], :] = 1
            fixed[:, [0, -1]] = 1
        inner = [(r, c) for r in range(lo, hi) for c in range(lo, hi)]
        for r, c in inner:
            if rng.random() < 0.12:
                fixed[r, c] = 1
        cells = [inner[i] for i in rng.permutation(len(inner))]
        if k % 3 == 0:  # one push from solved: three boxes on targets, the fourth a push from its target
            d = MOVES[rng.integers(4)]
            line = next(((r, c) for r, c in cells
                         if all(lo <= r + j * d[0] < hi and lo <= c + j * d[1] < hi for j in range(3))), None)
            assert line is not None
            target, box, agent = [(line[0] + j * d[0], line[1] + j * d[1]) for j in range(3)]
            for cell in (target, box, agent):
                fixed[cell] = 0
            fixed[target] = 2
            variable[box] = 4
            variable[agent] = 3
            rest = [cell for cell in cells if cell not in (target, box, agent)][:3]
            for cell in rest:
                fixed[cell] = 2
                variable[cell] = 4
        else:
            for cell in cells[:4]:
                fixed[cell] = 2
            for cell in cells[4:8]:
                fixed[cell] = 0
                variable[cell] = 4
            fixed[cells[8]] = 0
            variable[cells[8]] = 3
        out[k, ..., 0] = fixed
        out[k, ..., 1] = variable
    return out


LEVELS = random_levels(300, seed=2024)


@pytest.fixture(scope="module")
def levels_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("boxoban") / "levels.npy"
    np.save(path, LEVELS)
    return path


_HF: dict[tuple[str, float], Any] = {}


def ref_hf(path: Path, proportion: float = 1.0) -> jr.Reference:
    """jumanji's Sokoban with HuggingFaceDeepMindGenerator reading ``path`` (its hf_hub_download patched)."""
    key = (str(path), proportion)
    if key not in _HF:
        module = _generators()
        calls: list[dict[str, Any]] = []

        def download(**kwargs: Any) -> str:
            calls.append(kwargs)
            return str(path)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(module, "hf_hub_download", download)
            _HF[key] = module.HuggingFaceDeepMindGenerator("unfiltered-train", proportion_of_files=proportion)
        assert calls == [{"repo_id": sokoban_data.HUB_REPO, "filename": "unfiltered-train.npy"}]
    return jr.Reference(TASK, {"generator": _HF[key]})


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's Sokoban ``State`` as the env's state bytes: the env's key, then sokoban.cc's layout."""
    return jr.state_blob(env_key, (state.fixed_grid, "u1"), (state.variable_grid, "u1"),
                         (state.agent_location, "<i4"), (state.step_count, "<i4"), (state.key, "key"))


def any_move(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Uniform over the four moves, per env."""
    return rng.integers(0, 4, len(obs["step_count"])).astype(np.int64)


def solve_simple(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Env 0 and 2 play SimpleSolveGenerator's solution, the others wander (and env 1 after a few steps solves)."""
    actions = rng.integers(0, 4, len(obs["step_count"])).astype(np.int64)
    for i, t in enumerate(np.asarray(obs["step_count"])):
        if i % 2 == 0 and t < len(SOLVE_SIMPLE):
            actions[i] = SOLVE_SIMPLE[t]
    return actions


def test_lockstep_toy_levels() -> None:
    stats, seen = jr.lockstep_extras(TASK, ref_toy(), ["prop_correct_boxes", "solved"], seed=0, num_envs=4,
                                     steps=260, policy=any_move, generator="toy")
    assert stats.steps >= 1000 and stats.episodes >= 8


def test_lockstep_boxoban_levels_file(levels_path: Path) -> None:
    stats, seen = jr.lockstep_extras(TASK, ref_hf(levels_path), ["prop_correct_boxes", "solved"], seed=3,
                                     num_envs=6, steps=250, policy=any_move, levels_file=str(levels_path))
    assert stats.steps >= 1400 and any(seen["solved"]) and stats.episodes > stats.truncations > 0
    assert {0.0, 0.75, 1.0} <= set(seen["prop_correct_boxes"])


def test_boxoban_levels_from_the_hugging_face_cache(levels_path: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """With no levels_file, the dataset is found where hf_hub_download caches it (HF_HUB_CACHE)."""
    snapshot = tmp_path / "models--InstaDeepAI--boxoban-levels" / "snapshots" / "0123abcd"
    snapshot.mkdir(parents=True)
    (snapshot / "unfiltered-train.npy").write_bytes(levels_path.read_bytes())
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    stats = jr.lockstep(TASK, ref_hf(levels_path), seed=11, num_envs=2, steps=130, policy=any_move)
    assert stats.episodes >= 2
    monkeypatch.delenv("HF_HUB_CACHE")
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "hub").symlink_to(tmp_path, target_is_directory=True)
    found = sokoban_data.cached_dataset("unfiltered-train")
    assert found == tmp_path / "home" / "hub" / snapshot.relative_to(tmp_path) / "unfiltered-train.npy"
    assert sokoban_data.cached_dataset("hard") is None


def test_missing_dataset_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Making a pool without the dataset says how to supply it; the task's spec needs no levels."""
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    assert rlpool.make_spec(TASK).observation_space["grid"].shape[-3:] == (10, 10, 2)
    for name in ("unfiltered-train", "medium-test"):
        with pytest.raises(ValueError, match=name) as info:
            rlpool.make(TASK, num_envs=1, dataset_name=name)
        for part in ("levels_file", sokoban_data.HUB_REPO, "toy"):
            assert part in str(info.value)
    with pytest.raises(ValueError, match="dataset_name"):
        rlpool.make(TASK, num_envs=1, dataset_name="easy")
    with pytest.raises(ValueError, match="generator"):
        rlpool.make(TASK, num_envs=1, generator="deepmind")


def test_simple_solve_levels_solved() -> None:
    reference = ref_shipped("SimpleSolveGenerator")
    stats, seen = jr.lockstep_extras(TASK, reference, ["solved"], seed=1, num_envs=4, steps=60, policy=solve_simple,
                                     generator="simple_solve")
    assert stats.episodes >= 10 and any(seen["solved"])


def test_saved_state_is_jumanjis_state(levels_path: Path) -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    jr.check_saved_states(TASK, ref_toy(), encode, seed=7, generator="toy")
    jr.check_saved_states(TASK, ref_hf(levels_path), encode, seed=70, num_envs=4, levels_file=str(levels_path))


def test_proportion_of_files(levels_path: Path) -> None:
    """The first int(p * N) levels are drawn from, as jumanji's generator takes them."""
    reference = ref_hf(levels_path, 0.35)
    pool = rlpool.make(TASK, num_envs=40, seed=500, levels_file=str(levels_path), proportion_of_files=0.35)
    try:
        obs, _ = pool.reset()
        for i in range(40):
            _, ts = reference.reset(jr.prng_key(500 + i))
            assert np.array_equal(obs["grid"][i], np.asarray(ts.observation.grid)), i
    finally:
        pool.close()
    with pytest.raises(ValueError, match="proportion_of_files"):
        rlpool.make(TASK, num_envs=1, levels_file=str(levels_path), proportion_of_files=0.001)
    with pytest.raises(ValueError, match="proportion_of_files"):
        rlpool.make(TASK, num_envs=1, levels_file=str(levels_path), proportion_of_files=1.5)


def test_level_index(levels_path: Path) -> None:
    """level_index k plays level k of the set at every reset; out of range is refused."""
    pool = rlpool.make(TASK, num_envs=3, seed=4, levels_file=str(levels_path), level_index=123, time_limit=5)
    try:
        want = np.stack([LEVELS[123, ..., 1], LEVELS[123, ..., 0]], axis=-1)
        obs, _ = pool.reset()
        assert all(np.array_equal(obs["grid"][i], want) for i in range(3))
        for _ in range(6):  # to the time limit, then the next episode's reset (NextStep autoreset)
            obs, *_ = pool.step(np.zeros(3, np.int64))
        assert all(np.array_equal(obs["grid"][i], want) for i in range(3)) and not obs["step_count"].any()
    finally:
        pool.close()
    toy = rlpool.make(TASK, num_envs=2, seed=0, generator="toy", level_index=1)
    assert all(np.array_equal(toy.reset()[0]["grid"][i], toy.reset()[0]["grid"][0]) for i in range(2))
    toy.close()
    for options, pattern in [({"levels_file": str(levels_path), "level_index": 300}, "level_index 300"),
                             ({"generator": "toy", "level_index": 2}, "level_index 2"),
                             ({"generator": "simple_solve", "level_index": 1}, "level_index 1"),
                             ({"generator": "toy", "level_index": -2}, "level_index")]:
        with pytest.raises(ValueError, match=pattern):
            rlpool.make(TASK, num_envs=1, **options)


def _npy(tmp_path: Path, name: str, array: np.ndarray, **save: Any) -> str:
    path = tmp_path / f"{name}.npy"
    with open(path, "wb") as f:
        np.lib.format.write_array(f, array, **save)
    return str(path)


def test_bad_level_files_are_refused(tmp_path: Path) -> None:
    good = LEVELS[:5].copy()
    two_agents = good.copy()
    two_agents[2, ..., 1].reshape(-1)[np.flatnonzero(two_agents[2, ..., 1].reshape(-1) == 0)[0]] = 3
    no_agent = good.copy()
    no_agent[1, ..., 1][no_agent[1, ..., 1] == 3] = 0
    code = good.copy()
    code[4, 3, 3, 0] = 5
    not_npy = tmp_path / "text.npy"
    not_npy.write_text("##########\n")
    whole = Path(_npy(tmp_path, "full", good)).read_bytes()
    short, header, version = tmp_path / "short.npy", tmp_path / "header.npy", tmp_path / "version.npy"
    short.write_bytes(whole[:-7])
    header.write_bytes(whole[:20])
    version.write_bytes(whole[:6] + b"\x09" + whole[7:])
    cases = {
        _npy(tmp_path, "shape", np.zeros((3, 10, 10, 3), np.uint8)): r"shape \(3, 10, 10, 3\)",
        _npy(tmp_path, "small", np.zeros((3, 8, 8, 2), np.uint8)): "shape",
        _npy(tmp_path, "dtype", good.astype(np.int32)): "dtype '<i4'",
        _npy(tmp_path, "empty", good[:0]): "holds no level",
        _npy(tmp_path, "two", two_agents): "2 agents in level 2",
        _npy(tmp_path, "none", no_agent): "0 agents in level 1",
        _npy(tmp_path, "code", code): "the code 5 in level 4",
        _npy(tmp_path, "fortran", np.asfortranarray(good)): "Fortran order",
        str(not_npy): "not a .npy file",
        str(short): "bytes of data",
        str(header): "truncated in its header",
        str(version): "format version 9",
        str(tmp_path): "not a .npy file",
        str(tmp_path / "missing.npy"): "could not be opened",
    }
    for path, pattern in cases.items():
        with pytest.raises(ValueError, match=pattern):
            rlpool.make(TASK, num_envs=1, levels_file=path)
    pool = rlpool.make(TASK, num_envs=1, levels_file=_npy(tmp_path, "good", good))  # the good one is taken
    pool.close()


def test_pools_share_a_level_file_until_it_is_rewritten(tmp_path: Path) -> None:
    """Pools reading one level file see its levels; a file rewritten at the same path is read again."""
    path = _npy(tmp_path, "levels", LEVELS[:4])
    first = rlpool.make(TASK, num_envs=1, levels_file=path, level_index=0)
    second = rlpool.make(TASK, num_envs=1, levels_file=path, level_index=0)
    _npy(tmp_path, "levels", LEVELS[7:9])  # another size: another file to the cache
    third = rlpool.make(TASK, num_envs=1, levels_file=path, level_index=0)
    try:
        grids = [pool.reset()[0]["grid"][0] for pool in (first, second, third)]
        np.testing.assert_array_equal(grids[0][..., 1], LEVELS[0][..., 0])
        np.testing.assert_array_equal(grids[1], grids[0])
        np.testing.assert_array_equal(grids[2][..., 1], LEVELS[7][..., 0])
    finally:
        for pool in (first, second, third):
            pool.close()


def test_a_planted_difference_is_caught() -> None:
    reference = ref_toy()
    state, _ = reference.reset(jr.prng_key(2))
    rng = np.random.default_rng(0)
    for move in rng.integers(0, 4, 6):
        state, _ = reference.step(state, np.int32(move))
    moves = [int(a) for a in rng.integers(0, 4, 40)]
    assert jr.run_from_state(TASK, reference, state, encode(state), moves, generator="toy") == 40
    blob = encode(state)
    variable = np.asarray(state.variable_grid).reshape(-1)
    box = int(np.flatnonzero(variable == 4)[0])
    free = int(np.flatnonzero((variable == 0) & (np.asarray(state.fixed_grid).reshape(-1) == 0))[0])
    moved = jr.patched(jr.patched(blob, 8 + 100 + box, b"\x00"), 8 + 100 + free, b"\x04")  # a box elsewhere
    jr.check_caught(TASK, reference, state, moved, moves, match="grid", generator="toy")


@pytest.mark.parametrize(("offset", "data", "field"), [
    (8 + 17, b"\x05", "fixed_grid"),
    (8 + 100 + 42, b"\xff", "variable_grid"),
    (8 + 200, np.int32(10).tobytes(), "agent_location.row"),
    (8 + 204, np.int32(-1).tobytes(), "agent_location.col"),
    (8 + 200, np.int32(0).tobytes(), "no agent at agent_location"),  # in range, but the agent is elsewhere
    (8 + 208, np.int32(121).tobytes(), "step_count"),
])
def test_bad_state_fields_are_refused(offset: int, data: bytes, field: str) -> None:
    good = jr.reset_state(TASK, generator="toy")
    assert len(good) == 8 + 200 + 12 + 8
    jr.check_refused_blobs(TASK, good, {field: jr.patched(good, offset, data), "key": good[:-1],
                                        "221 bytes": good + b"\x00"}, generator="toy")


def _images() -> list[np.ndarray]:
    """BoxViewer's images, RGB, decoded by PIL from jumanji's installed package."""
    from importlib import resources

    from PIL import Image

    folder = resources.files("jumanji.environments.routing.sokoban") / "imgs"
    return [np.asarray(Image.open(str(folder / f"{name}.png")).convert("RGB")) for name in IMAGE_NAMES]


def _expected_frame(grid: np.ndarray, images: list[np.ndarray]) -> np.ndarray:
    """The documented picture of an observation's grid: grid_combine's code of each square, its image 3x."""
    variable, fixed = grid[..., 0].astype(int), grid[..., 1].astype(int)
    code = np.where((fixed == 2) & (variable == 3), 5, np.where((fixed == 2) & (variable == 4), 6,
                                                                np.maximum(variable, fixed)))
    rows = [np.concatenate([images[code[r, c]].repeat(3, 0).repeat(3, 1) for c in range(10)], axis=1)
            for r in range(10)]
    return np.concatenate(rows, axis=0)


def test_render_shows_the_state(levels_path: Path) -> None:
    pytest.importorskip("PIL")
    images = _images()
    options = {"levels_file": str(levels_path)}
    pool = rlpool.make(TASK, num_envs=2, seed=8, render_mode="rgb_array", **options)
    plain = rlpool.make(TASK, num_envs=2, seed=8, **options)
    rng = np.random.default_rng(3)
    try:
        obs, _ = pool.reset()
        same, _ = plain.reset()
        codes: set[int] = set()
        for t in range(40):
            frame = np.asarray(pool.render())[0]
            assert frame.shape == (480, 480, 3) and frame.dtype == np.uint8
            assert np.array_equal(frame, _expected_frame(obs["grid"][0], images)), t
            g = obs["grid"][0]
            codes |= set(np.where((g[..., 1] == 2) & (g[..., 0] >= 3), g[..., 0] + 2,
                                  np.maximum(g[..., 0], g[..., 1])).reshape(-1).tolist())
            actions = rng.integers(0, 4, 2)
            obs, *_ = pool.step(actions)
            same, *_ = plain.step(actions)
            assert all(np.array_equal(obs[k], same[k]) for k in obs)
        assert {0, 1, 2, 3, 4, 6} <= codes
        changed = obs["grid"][0].copy()
        changed[..., 0][changed[..., 0] == 3] = 0  # the agent gone
        assert not np.array_equal(np.asarray(pool.render())[0], _expected_frame(changed, images))
    finally:
        pool.close()
        plain.close()


def test_toy_levels_are_jumanjis() -> None:
    """The levels read from generator.py with ast are those jumanji's generators build."""
    for generator, name, seeds in (("toy", "ToyGenerator", 8), ("simple_solve", "SimpleSolveGenerator", 1)):
        levels = np.load(sokoban_data.generated_levels_file(generator))
        reference = ref_shipped(name)
        seen = set()
        for seed in range(seeds):
            state, _ = reference.reset(jr.prng_key(seed))
            pair = np.stack([np.asarray(state.fixed_grid), np.asarray(state.variable_grid)], axis=-1)
            seen |= {k for k in range(len(levels)) if np.array_equal(levels[k], pair)}
        assert seen == set(range(len(levels)))


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache, a pip that finds nothing and no installed jumanji to take files from: the cache root."""
    monkeypatch.setattr(wheel_files, "installed_file", lambda member, sha: None)
    return offline_cache(tmp_path, monkeypatch)


def test_unfetchable_levels_raise_a_clear_error(offline: Path, levels_path: Path) -> None:
    with pytest.raises(sokoban_data.SokobanDataUnavailableError, match="jumanji==1.1.2"):
        rlpool.make_spec(TASK, generator="toy")
    rlpool.make_spec(TASK, levels_file=str(levels_path))  # a level file of the user's needs nothing of jumanji's


def test_a_wheel_in_the_cache_is_unpacked(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy levels come from the wheel's generator.py, unrun (here with its two levels swapped), the pictures
    from its images."""
    source = Path(_generators().__file__).read_text()
    for old, new in (("level1 = [", "levelX = ["), ("level2 = [", "level1 = ["), ("levelX = [", "level2 = [")):
        source = source.replace(old, new)
    source = "raise RuntimeError('run')\n" + source
    folder = Path(_generators().__file__).parent / "imgs"
    files: dict[str, str | bytes] = {sokoban_data.GENERATOR: source, wheel_files.LICENSE: "licence"}
    files.update({f"{sokoban_data.FOLDER}imgs/{n}.png": (folder / f"{n}.png").read_bytes() for n in IMAGE_NAMES})
    wheel = make_wheel(offline, wheel_files.WHEEL, files)
    monkeypatch.setattr(sokoban_data, "WHEEL_SHA256", sha256(wheel))
    with zipfile.ZipFile(wheel) as z:
        record = pinned_wheel.record_hashes(z, "jumanji-1.1.2.dist-info")
    monkeypatch.setattr(sokoban_data, "GENERATOR_SHA256", record[sokoban_data.GENERATOR])
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    config = rlpool.make_spec(TASK, generator="toy", render_mode="rgb_array").env_config
    real = Path(_generators().__file__)
    assert np.array_equal(np.load(config["_levels_file"]),
                          sokoban_data.parse_levels(real.read_bytes(), str(real), "toy")[::-1])
    assert sorted(p.name for p in Path(config["_images"]).iterdir()) == sorted(f"{n}.argb" for n in IMAGE_NAMES)
    assert (sokoban_data._files().folder() / "LICENSE").read_text() == "licence"


@pytest.mark.skipif(not FULL, reason="full lane")
def test_lockstep_full(levels_path: Path) -> None:
    stats = jr.lockstep(TASK, ref_hf(levels_path), seed=1000, num_envs=8, steps=600, policy=any_move,
                        levels_file=str(levels_path))
    assert stats.episodes >= 30
    stats = jr.lockstep(TASK, ref_toy(), seed=2000, num_envs=4, steps=400, policy=any_move, generator="toy")
    assert stats.episodes >= 12


@pytest.mark.skipif(not FULL, reason="full lane")
def test_states_a_random_policy_rarely_reaches(levels_path: Path) -> None:
    """From jumanji states with boxes against the edge, next to each other, and the last step before the limit."""
    reference = ref_hf(levels_path)
    rng = np.random.default_rng(5)
    for k in range(0, 300, 25):
        state, _ = reference.reset(jr.prng_key(k))
        state = state.replace(step_count=state.step_count + int(rng.integers(0, 120)))
        moves = [int(a) for a in rng.integers(0, 4, 130)]
        assert jr.run_from_state(TASK, reference, state, encode(state), moves, levels_file=str(levels_path)) >= 1
