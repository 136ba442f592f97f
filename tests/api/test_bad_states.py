"""Bad blobs and files: env states (flipped bits, crafted fields, huge lengths, non-finite numbers), ROM paths
that are FIFOs or far too large, a simulator running out of memory or failing inside a step, an env that
closes its own pool: each a clear Python exception, never an exit, a hang or a changed env."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from bad_input import assert_same_result, child_env, make, run_out_of_memory, run_script
from lane import DAY, FULL

import rlpool

# atari_env.cc's state checksum, written again from its definition (the header's fields at their
# offsets, then the frame ring, then ALE's part), to make blobs that pass it: what ALE itself does
# with a bad field is then what is tested.
ATARI_CHECKSUM = textwrap.dedent(
    """
    import struct

    def sign(blob):
        M = 2**64 - 1
        x = 0xCBF29CE484222325
        def mix(b):
            nonlocal x
            n8 = len(b) // 8 * 8
            for i in range(0, n8, 8):
                x = ((x ^ int.from_bytes(b[i:i + 8], "little")) * 0x100000001B3) & M
            w = len(b) - n8
            for c in b[n8:]:
                w = ((w << 8) | c) & M
            x = ((x ^ w) * 0x100000001B3) & M
            x ^= x >> 29
        ring = struct.unpack_from("<Q", blob, 40)[0]
        for a, b in [(0, 8), (8, 40), (40, 48), (48, 56), (64, 68), (68, 72), (72, 73)]:
            mix(bytes(blob[a:b]))
        mix(bytes(blob[80:80 + ring]))
        mix(bytes(blob[80 + ring:]))
        struct.pack_into("<Q", blob, 56, x)
    """
)


@pytest.mark.timeout(300)
def test_atari_state_with_flipped_bits_is_refused_and_changes_nothing():
    """Random bit flips anywhere in a Ms. Pac-Man or Pitfall state (they used to crash ALE with
    SIGSEGV or a heap error within a few thousand trials; a bank number of 0xFFFF did at once) are
    each a ValueError, and the env goes on exactly as it was. CI: 150 blobs per game;
    RLPOOL_FULL_REFERENCE=1: 3000."""
    pytest.importorskip("ale_py")
    trials = 3000 if FULL else 150
    proc = run_script(
        ATARI_CHECKSUM + textwrap.dedent(f"""
        import numpy as np
        import rlpool
        rng = np.random.default_rng(23)
        for game in ("MsPacman", "Pitfall"):
            env = rlpool.make(f"{{game}}-v5", num_envs=1, num_threads=1, seed=1)
            env.reset()
            for _ in range(20):
                env.step(np.array([1]))
            good = env.get_state(0)
            twin = rlpool.make(f"{{game}}-v5", num_envs=1, num_threads=1, seed=1)
            twin.reset()
            twin.set_state(0, good)
            refused = 0
            for _ in range({trials}):
                blob = bytearray(good)
                for bit in rng.integers(0, 8 * len(blob), int(rng.integers(1, 9))):
                    blob[bit // 8] ^= 1 << (bit % 8)
                if bytes(blob) == good:
                    continue
                try:
                    env.set_state(0, bytes(blob))
                except ValueError:
                    refused += 1
                assert env.get_state(0) == good, "a refused state changed the env"
            a = env.step(np.array([2]))[0]
            b = twin.step(np.array([2]))[0]
            assert np.array_equal(a, b), "the env does not step on as before"
            print(game, "refused", refused)
        """),
        timeout=280,
    )
    assert proc.returncode == 0, f"exit code {proc.returncode}:\n{proc.stderr[-3000:]}"
    for game in ("MsPacman", "Pitfall"):
        assert f"{game} refused {trials}" in proc.stdout, proc.stdout


# One game per cartridge type the registered ROMs use (F8, 4K, E0, DPC, F6SC, F8SC, FE, 2K, F6).
CRAFTED_STATE_GAMES = ("MsPacman", "Pitfall", "MontezumaRevenge", "Pitfall2", "Darkchambers",
                       "ElevatorAction", "Robotank", "Bowling", "RoadRunner")


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", CRAFTED_STATE_GAMES if FULL else CRAFTED_STATE_GAMES[::3])
def test_atari_state_with_a_crafted_field_is_refused_or_harmless(game):
    """An edited state that carries a valid checksum (as anyone who reads atari_env.cc can make
    one): at every byte offset of ALE's console snapshot in turn, a 4-byte field is overwritten with
    a hostile value (a bank of 0xFFFF used to crash Ms. Pac-Man at the next step; an array length
    of 2**31 - 1 made ALE's loader write past its buffers). Each blob is either refused with a
    ValueError that leaves the env exactly as it was, or accepted and stepped without harm; the
    child process must end cleanly. Default: every third game, every 8th offset (a different eighth per
    game); RLPOOL_FULL_REFERENCE=1 (CI): every game, every second offset (the other half the next day)."""
    pytest.importorskip("ale_py")
    stride = 2 if FULL else 8
    first = (CRAFTED_STATE_GAMES.index(game) + (DAY if FULL else 0)) % stride
    proc = run_script(
        ATARI_CHECKSUM + textwrap.dedent(f"""
        import struct
        import numpy as np
        import rlpool
        # A small frame ring keeps the blob (and the Python checksum) short: ALE's part is the same.
        env = rlpool.make("{game}-v5", num_envs=1, num_threads=1, seed=1, stack_num=1, img_height=8, img_width=8)
        env.reset()
        for _ in range(30):
            env.step(np.array([1]))
        good = env.get_state(0)
        emu_bytes = struct.unpack_from("<Q", good, 48)[0]
        start = len(good) - emu_bytes
        values = (-1, 0xFFFF, 2**31 - 1, -(2**31), 160, 16, 4096, 0x800)
        # Most of ALE's part is the text of its two generators' states (digits and spaces), which
        # ALE parses as text: only their first bytes are tried.
        text = set(b"0123456789 ")
        inside_text, run = set(), []
        for i in range(start, len(good)):
            if good[i] in text:
                run.append(i)
                continue
            if len(run) > 64:
                inside_text.update(run[8:])
            run = []
        refused = accepted = 0
        for at in range(start + {first}, len(good) - 3, {stride}):
            if at in inside_text:
                continue
            for v in values:
                blob = bytearray(good)
                struct.pack_into("<i", blob, at, v)
                sign(blob)
                if bytes(blob) == good:
                    continue
                try:
                    env.set_state(0, bytes(blob))
                except ValueError as e:
                    assert str(e), "empty message"
                    refused += 1
                    assert env.get_state(0) == good, f"a refused state changed the env (offset {{at}})"
                    continue
                accepted += 1
                for _ in range(3):
                    env.step(np.array([1]))
                env.set_state(0, good)
        print("DONE refused", refused, "accepted", accepted)
        """),
        timeout=580,
    )
    assert proc.returncode == 0, f"exit code {proc.returncode}:\n{proc.stderr[-3000:]}"
    assert "DONE refused" in proc.stdout, proc.stdout
    refused = int(proc.stdout.split("DONE refused")[1].split()[0])
    assert refused > 0


def test_atari_state_check_names_the_field():
    """A signed state with one field out of range is refused by a message that names the field."""
    pytest.importorskip("ale_py")
    import struct

    namespace: dict = {}
    exec(ATARI_CHECKSUM, namespace)
    env = rlpool.make("MsPacman-v5", num_envs=1, num_threads=1, seed=1)
    env.reset()
    good = env.get_state(0)
    emu = good[len(good) - struct.unpack_from("<Q", good, 48)[0]:]
    # The F8 cartridge section is its name, then its bank; the game's fields follow it.
    name = b"CartridgeF8"
    at = len(good) - len(emu) + emu.index(struct.pack("<i", len(name)) + name) + 4 + len(name)
    assert struct.unpack_from("<i", good, at)[0] in (0, 1)
    blob = bytearray(good)
    struct.pack_into("<i", blob, at, 0xFFFF)
    namespace["sign"](blob)
    with pytest.raises(ValueError, match=r"cartridge bank is 65535 \(valid: 0 to 1\)"):
        env.set_state(0, bytes(blob))
    assert env.get_state(0) == good
    env.close()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (0, -5, r"left paddle is -5 \(valid: 27450 to 790196\)"),
        (4, 2**31 - 1, r"right paddle is 2147483647 \(valid: 27450 to 790196\)"),
        (8, -1, r"frame number is -1 \(valid: 0 to "),
        (12, 2**30, r"episode frame number is 1073741824 \(valid: 0 to \d+\)"),
        (16, 7, r"taken in game mode 7, difficulty 0; this env plays mode 0, difficulty 0"),
        (20, 3, r"taken in game mode 0, difficulty 3"),
        (-8, 0, r"its paddle range is not this env's"),
    ],
)
def test_atari_state_settings_are_the_envs(field, value, message):
    """The fields ALE keeps outside the console: its paddles (a resistance is computed from each,
    within the paddle range), its frame counters (ALE adds to them in int arithmetic) and the game
    mode and difficulty (a mode the game lacks makes every later reset throw). A signed state may
    not change the env's settings or put a paddle outside its range."""
    pytest.importorskip("ale_py")
    import struct

    namespace: dict = {}
    exec(ATARI_CHECKSUM, namespace)
    env = rlpool.make("Pong-v5", num_envs=1, num_threads=1, seed=1, stack_num=1, img_height=8, img_width=8)
    env.reset()
    good = env.get_state(0)
    # ALE's part: six ints (paddles, frame counters, mode, difficulty), the console, two ints
    # (the paddle range).
    at = len(good) - struct.unpack_from("<Q", good, 48)[0] + field if field >= 0 else len(good) + field
    blob = bytearray(good)
    struct.pack_into("<i", blob, at, value)
    namespace["sign"](blob)
    with pytest.raises(ValueError, match=message):
        env.set_state(0, bytes(blob))
    assert env.get_state(0) == good
    env.close()


def test_atari_state_of_another_game_mode_is_refused():
    """A genuine state of Freeway in mode 1 does not go into an env made for mode 0."""
    pytest.importorskip("ale_py")
    kw = dict(num_envs=1, num_threads=1, stack_num=1, img_height=8, img_width=8)
    other = rlpool.make("Freeway-v5", mode=1, **kw)
    other.reset()
    env = rlpool.make("Freeway-v5", **kw)
    env.reset()
    with pytest.raises(ValueError, match=r"taken in game mode 1, difficulty 0; this env plays mode 0"):
        env.set_state(0, other.get_state(0))
    other.close()
    env.close()


@pytest.mark.timeout(300)
def test_atari_state_loaded_mid_frame_plays_on_as_in_a_fresh_env():
    """A console left in the middle of a frame (here by a signed state whose CPU runs a loop in
    RAM, which first maps slice 0 into an E0 cartridge's three segments) and then given a genuine
    state plays on exactly as a twin that only loaded the genuine state. ALE's TIA kept its frame
    pointer where the open frame had left it (the next frame was drawn from there, past the end of
    the buffer), and its E0 cartridge kept the slices mapped before the load. One game per
    cartridge type in use."""
    pytest.importorskip("ale_py")
    games = CRAFTED_STATE_GAMES + ("Tutankham",)
    proc = run_script(
        ATARI_CHECKSUM + textwrap.dedent(f"""
        import struct
        import numpy as np
        import rlpool

        def cpu_pc_and_riot_ram(blob):
            # Offsets in a state, by ALE 0.12.1's layout: its six ints and the console's length,
            # then the ROM checksum, the System (name, cycles, generator), the CPU, the RIOT.
            p = len(blob) - struct.unpack_from("<Q", blob, 48)[0] + 24 + 4
            def past_string(p):
                return p + 4 + struct.unpack_from("<i", blob, p)[0]
            p = past_string(past_string(p))
            p = past_string(p + 4)
            high = blob[p + 4:p + 13] == b"M6502High"
            p = past_string(p)
            pc = p + 20  # after A, X, Y, SP, IR
            p = past_string(p + 24 + 7 * 4 + 4 + (8 if high else 0))
            assert blob[p - 5:p] == b"M6532" and struct.unpack_from("<i", blob, p)[0] == 128
            return pc, p + 4

        # LDA $1FE0; LDA $1FE8; LDA $1FF0 (E0's hotspots; no other type in use switches there);
        # then JMP to itself: the frame never ends.
        code = (0xAD, 0xE0, 0x1F, 0xAD, 0xE8, 0x1F, 0xAD, 0xF0, 0x1F, 0x4C, 0x89, 0x00)
        for game in {games!r}:
            env = rlpool.make(f"{{game}}-v5", num_envs=1, num_threads=1, seed=1)
            twin = rlpool.make(f"{{game}}-v5", num_envs=1, num_threads=1, seed=1)
            env.reset()
            twin.reset()
            for _ in range(30):
                env.step(np.array([1]))
            good = env.get_state(0)
            twin.set_state(0, good)
            pc, ram = cpu_pc_and_riot_ram(good)
            stuck = bytearray(good)
            struct.pack_into("<i", stuck, pc, 0x80)
            for i, byte in enumerate(code):
                struct.pack_into("<i", stuck, ram + 4 * i, byte)
            sign(stuck)
            env.set_state(0, bytes(stuck))
            for _ in range(3):
                env.step(np.array([0]))
            env.set_state(0, good)
            rng = np.random.default_rng(0)
            for t in range(40):
                a = rng.integers(0, int(env.action_space.nvec[0]), 1)
                x, y = env.step(a), twin.step(a)
                assert np.array_equal(x[0], y[0]) and x[1][0] == y[1][0], f"{{game}}: step {{t}} differs"
            print("SAME", game)
        """),
        timeout=280,
    )
    assert proc.returncode == 0, f"exit code {proc.returncode}:\n{proc.stderr[-3000:]}"
    for game in games:
        assert f"SAME {game}" in proc.stdout, proc.stdout


@pytest.mark.timeout(120)
def test_atari_state_with_a_huge_embedded_length_is_refused_without_allocating():
    """ALE's state holds length-prefixed strings: a length of 2**31 - 1 in a 42 KB blob must be a
    ValueError, not a 2 GiB allocation (the child runs with 1 GiB of address space to spare), and
    the env steps on from where it was."""
    pytest.importorskip("ale_py")
    proc = run_script(
        ATARI_CHECKSUM + textwrap.dedent("""
        import resource, struct
        import numpy as np
        import rlpool
        env = rlpool.make("Pong-v5", num_envs=1, num_threads=1)
        env.reset()
        state = bytearray(env.get_state(0))
        # Header: magic[8], md5[32], ring_bytes, emu_bytes (uint64 each), ...; ALE's part is last and
        # starts with 6 int32s, then its console state as a length-prefixed string.
        emu_bytes = struct.unpack_from("<Q", state, 48)[0]
        struct.pack_into("<i", state, len(state) - emu_bytes + 24, 2**31 - 1)
        sign(state)  # past the checksum, down to ALE's own reader
        with open("/proc/self/status") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (vm + (1 << 30), vm + (1 << 30)))
        try:
            env.set_state(0, bytes(state))
        except ValueError as e:
            print("REFUSED", e)
        except BaseException as e:
            print("OTHER", type(e).__name__, e)
        env.step(np.zeros(1, np.int64))
        print("STEPPED", len(state))
        """)
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # rlpool's own check of the snapshot refuses it first (ALE's reader, patched, would too).
    assert "REFUSED not a valid Atari env state: the length of the console snapshot is wrong" in proc.stdout, (
        proc.stdout
    )
    assert "STEPPED" in proc.stdout


@pytest.mark.timeout(120)
def test_running_out_of_memory_in_an_env_is_a_memory_error():
    """A std::bad_alloc while envs reset (each Atari env allocates its emulator then) is a
    MemoryError naming the env, not a RuntimeError."""
    pytest.importorskip("ale_py")
    proc = run_out_of_memory(
        'envs = rlpool.make("Pong-v5", num_envs=2000, num_threads=1)', "envs.reset()", spare_mib=128
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "MEMORYERROR env " in proc.stdout, proc.stdout


@pytest.mark.timeout(60)
def test_rom_path_that_is_a_fifo_is_refused_without_blocking(tmp_path):
    pytest.importorskip("ale_py")
    fifo = tmp_path / "pong.bin"
    os.mkfifo(fifo)
    proc = run_script(
        f"""
        import rlpool
        try:
            rlpool.make("Pong-v5", rom_path={str(fifo)!r})
        except ValueError as e:
            print("REFUSED", e)
        """,
        timeout=50,
    )
    assert f"REFUSED rom_path '{fifo}' is not a file" in proc.stdout, proc.stdout + proc.stderr[-3000:]


@pytest.mark.timeout(60)
def test_rom_path_far_larger_than_any_rom_is_refused_unread(tmp_path):
    pytest.importorskip("ale_py")
    big = tmp_path / "huge.bin"
    with open(big, "wb") as f:
        f.truncate(2**31)  # sparse: 2 GiB that reading would have to go through
    with pytest.raises(ValueError, match=r"rom_path '.*huge\.bin' has 2147483648 bytes, more than any Atari ROM"):
        rlpool.make_spec("Pong-v5", rom_path=str(big))


@pytest.mark.timeout(120)
def test_mujoco_warnings_write_no_log_file_in_the_working_directory(tmp_path):
    """MuJoCo's default warning handler appends to MUJOCO_LOG.TXT in the cwd; rlpool's records them."""
    pytest.importorskip("mujoco")
    proc = run_script(
        """
        import numpy as np
        import rlpool
        env = rlpool.make("InvertedPendulum-v5", num_envs=1)
        env.reset()
        state = np.full(len(env.get_state(0)) // 8, 1e300)  # "Nan, Inf or huge value in QPOS"
        env.set_state(0, state.tobytes())
        env.step(np.zeros((1, 1), np.float32))
        print("STEPPED")
        """,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "STEPPED" in proc.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    assert "WARNING" not in proc.stdout


_SELF_CLOSING_ENV = """
import numba
import numpy as np
from bad_input import register_one_number_task

import rlpool

POOL = []
REFUSALS = []  # printed by the main thread: prints from several worker threads interleave


def close_pool():
    try:
        POOL[0].close()
    except RuntimeError as e:
        REFUSALS.append(f"CLOSE REFUSED {e}")
        raise


def step_pool():
    try:
        POOL[0].step(np.zeros(4, np.int64))
    except RuntimeError as e:
        REFUSALS.append(f"STEP REFUSED {e}")
        raise


def step(state, action, obs):
    with numba.objmode():
        close_pool() if action == 0 else step_pool()
    obs[0] = state[0]
    return 1.0, False


register_one_number_task("SelfClosing-v0", step, obs_dtype=np.float32, max_episode_steps=100)


for batch_size, action in ((4, 0), (2, 0), (2, 1)):
    env = rlpool.make("SelfClosing-v0", num_envs=4, batch_size=batch_size, num_threads=2)
    POOL[:] = [env]
    if batch_size == 4:
        env.reset()
    else:
        env.async_reset()
        env.recv()
        env.recv()  # every reset received: the next recv() is the step sent below
    try:
        if batch_size == 4:
            env.step(np.full(4, action, np.int64))
        else:
            env.send(np.full(2, action, np.int64), np.array([0, 1]))
            env.recv()
    except RuntimeError as e:
        print("CALLER GOT", batch_size, e, flush=True)
    else:
        print("NOT REFUSED", batch_size, flush=True)
    assert not env.closed
    env.close()
    POOL.clear()
for refusal in REFUSALS:
    print(refusal)
print("DONE", flush=True)
"""


@pytest.mark.timeout(180)
def test_an_env_closing_its_own_pool_is_refused(tmp_path):
    """A Python-written env reaching its own pool from step() (an objmode block) runs on a thread
    the pool owns: close() there would join that thread itself (a joinable thread left, abort at
    exit). It is refused with a RuntimeError, which reaches the caller as the env's error, and the
    process exits cleanly."""
    pytest.importorskip("numba")
    script = tmp_path / "self_closing.py"
    script.write_text(_SELF_CLOSING_ENV)
    proc = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=170,
        env=child_env(RLPOOL_CACHE_DIR=str(tmp_path / "cache")),
    )
    assert proc.returncode == 0, f"returncode {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert "CLOSE REFUSED close() on a pool from inside one of its own envs" in proc.stdout, proc.stdout
    assert "STEP REFUSED this call on a pool from inside one of its own envs" in proc.stdout, proc.stdout
    assert proc.stdout.count("CALLER GOT") == 3, proc.stdout
    # The refusal's own text reaches the caller, also from a worker thread (numba's objmode used to
    # drop it there: the caller saw only "raised an exception").
    caller = [line for line in proc.stdout.splitlines() if line.startswith("CALLER GOT")]
    for line, what in zip(caller, ("close()", "close()", "this call"), strict=True):
        assert f"step() raised RuntimeError: {what} on a pool from inside one of its own envs" in line, line
    assert "NOT REFUSED" not in proc.stdout and "DONE" in proc.stdout


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("task", "spare_mib"), [("Hopper-v5", 200), ("HopperHop-v1", 300)])
def test_mujoco_running_out_of_memory_is_a_memory_error_not_an_exit(task, spare_mib, tmp_path):
    """mj_makeData reports running out of memory with mju_error, whose default handler prints, writes
    MUJOCO_LOG.TXT into the working directory and ends the process: it must be a MemoryError naming
    the model, with no file left behind."""
    pytest.importorskip("mujoco")
    proc = run_out_of_memory(
        f"rlpool.make({task!r}, num_envs=1).close()",
        f"rlpool.make({task!r}, num_envs=20000, num_threads=1)",
        spare_mib=spare_mib,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, f"returncode {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert "MEMORYERROR MuJoCo could not allocate mjData for " in proc.stdout, proc.stdout
    assert "Could not allocate memory" in proc.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == []


_TINY_STACK_MODEL = """
<mujoco>
  <size memory="2K"/>
  <worldbody>
    <body pos="0 0 1"><freejoint/><geom size="0.1"/></body>
    <body pos="0.05 0 1.1"><freejoint/><geom size="0.1"/></body>
    <geom type="plane" size="5 5 0.1"/>
  </worldbody>
</mujoco>
"""


@pytest.mark.timeout(120)
def test_mujoco_error_inside_a_step_is_an_exception_not_an_exit(tmp_path):
    """A model whose <size memory> is too small for mj_forward makes MuJoCo call mju_error, whose
    default handler prints, appends to MUJOCO_LOG.TXT in the working directory and ends the process:
    it must be a RuntimeError with MuJoCo's message, every time, and leave no file behind."""
    pytest.importorskip("mujoco")
    model = tmp_path / "model" / "tiny_stack.xml"
    model.parent.mkdir()
    model.write_text(_TINY_STACK_MODEL)
    work = tmp_path / "work"
    work.mkdir()
    proc = run_script(
        f"""
        import rlpool
        env = rlpool.make("InvertedPendulum-v5", xml_file={str(model)!r}, num_envs=2)
        for _ in range(2):
            try:
                env.reset()
            except RuntimeError as e:
                print("RUNTIMEERROR", e)
        print("ALIVE")
        """,
        cwd=work,
    )
    assert proc.returncode == 0, f"returncode {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert proc.stdout.count("RUNTIMEERROR env ") == 2, proc.stdout
    assert "MuJoCo error: mj_stackAlloc: out of memory" in proc.stdout
    assert "ALIVE" in proc.stdout
    assert sorted(p.name for p in work.iterdir()) == []


@pytest.mark.parametrize(
    ("task", "names"),
    [
        ("CartPole-v1", ["0", "1", "2", "3"]),
        ("Acrobot-v1", ["0", "1", "2", "3"]),
        ("Pendulum-v1", ["0", "1"]),
        ("MountainCar-v0", ["0", "1"]),
        ("MountainCarContinuous-v0", ["0", "1"]),
        ("Hopper-v5", [f"qpos[{i}]" for i in range(6)] + [f"qvel[{i}]" for i in range(6)]),
    ],
)
def test_a_state_with_a_non_finite_number_is_refused_and_changes_nothing(task, names):
    """A state whose numbers are NaN or infinite is refused by name, whichever entry it is, and the env
    steps on as a twin that was never given it (gymnasium's envs never hold such a state)."""
    if task.startswith("Hopper"):
        pytest.importorskip("mujoco")
    env, twin = make(task, num_envs=1), make(task, num_envs=1)
    env.reset()
    twin.reset()
    action = np.zeros(env.action_space.shape, env.action_space.dtype)
    state = np.frombuffer(env.get_state(0), np.float64)
    assert len(state) == len(names)
    for i, name in enumerate(names):
        for bad in (np.nan, np.inf, -np.inf):
            crafted = state.copy()
            crafted[i] = bad
            message = rf"state entry {re.escape(name)} is -?(nan|inf): a state holds finite"
            with pytest.raises(ValueError, match=message):
                env.set_state(0, crafted.tobytes())
            assert env.get_state(0) == twin.get_state(0)
    for _ in range(5):
        assert_same_result(env.step(action), twin.step(action))
    env.set_state(0, state.tobytes())  # the same numbers, finite: accepted
