"""Chess-v1 beside pgx 2.6.0's chess, move by move."""

from __future__ import annotations

import struct
from typing import NamedTuple

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, compiled, header, lockstep, lockstep_cycle, take, zeroed

import rlpool

pgx = pytest.importorskip("pgx")


def _white_view(board: np.ndarray, color: int) -> np.ndarray:
    """A board of pgx's (the mover's view) as white sees it: black's boards are rank-mirrored, signs swapped."""
    board = np.asarray(board).reshape(8, 8)
    return (board if color == 0 else -board[:, ::-1]).reshape(64)


HEADER = 40  # pgx_reference.header's bytes
HASH_ROWS = 513  # pgx's MAX_TERMINATION_STEPS + 1
HASH_HEAD = HEADER + 8 * HASH_ROWS + 8 * 64 + 64 + 8  # after the hashes, board history, board and two counts


class Keys(NamedTuple):
    """Zobrist keys as uint64 (pgx's two uint32 words as low | high << 32)."""

    side: int
    init: int  # the first hash history row of a game (pgx's INIT_ZOBRIST_HASH)
    board: np.ndarray  # [square * 13 + piece + 6]
    castling: np.ndarray  # [4]
    en_passant: np.ndarray  # [65], [64] (index -1): none


def _own_keys() -> Keys:
    """rlpool's keys, as chess.cc's make_zobrist_keys draws them: splitmix64 from "rlpoolCH", words cut to 31 bits."""
    mask, x = (1 << 64) - 1, 0x726C706F6F6C4348
    out = []
    for _ in range(2 + 64 * 13 + 4 + 65):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append((z ^ (z >> 31)) & 0x7FFFFFFF7FFFFFFF)
    keys = np.array(out, np.uint64)
    return Keys(int(keys[0]), int(keys[1]), keys[2:834], keys[834:838], keys[838:])


def _pgx_keys() -> Keys:
    """pgx's keys (its jax.random draws), packed as rlpool packs a hash."""
    from pgx._src.games import chess

    def packed(words) -> np.ndarray:
        return np.ascontiguousarray(np.asarray(words, np.uint32)).view("<u8").reshape(-1)

    return Keys(
        int(packed(chess.ZOBRIST_SIDE)[0]),
        int(packed(chess.INIT_ZOBRIST_HASH)[0]),
        packed(chess.ZOBRIST_BOARD),
        packed(chess.ZOBRIST_CASTLING),
        packed(chess.ZOBRIST_EN_PASSANT),
    )


OWN_KEYS = _own_keys()
PGX_KEYS = _pgx_keys()


def zobrist(x, keys: Keys) -> int:
    """pgx's _zobrist_hash of a GameState (the mover's view) under `keys`, as chess.cc's zobrist() computes it."""
    h = keys.side if int(x.color) == 0 else 0
    board = np.asarray(x.board).reshape(64).astype(np.int64)
    h ^= int(np.bitwise_xor.reduce(keys.board[np.arange(64) * 13 + board + 6]))
    rights = np.asarray(x.castling_rights, bool).reshape(4)
    h ^= int(np.bitwise_xor.reduce(keys.castling[rights], initial=np.uint64(0)))
    return h ^ int(keys.en_passant[int(x.en_passant)])  # -1: [64]


def own_hashes(x) -> np.ndarray:
    """pgx's hash history of a game's start (pgx's own start: INIT_ZOBRIST_HASH; from_fen's: the position's hash,
    then INIT_ZOBRIST_HASH; zeros after), each hash turned into rlpool's (its keys are not pgx's)."""
    rows = np.ascontiguousarray(np.asarray(x.hash_history, np.uint32)).view("<u8").reshape(-1)
    own = {0: 0, PGX_KEYS.init: OWN_KEYS.init, zobrist(x, PGX_KEYS): zobrist(x, OWN_KEYS)}
    if not all(int(h) in own for h in rows):
        raise ValueError("only a game's start can be encoded (its hash history holds earlier positions)")
    return np.array([own[int(h)] for h in rows], np.uint64)


def encode(s) -> bytes:
    """rlpool's Chess state: pgx's hash and board histories as rings (newest at slot 0, row i at slot -i), the
    board, halfmove and step counts, the ring head, castling rights, color, en passant, board head, player order.

    The hashes are rlpool's (own_hashes), the rest pgx's."""
    x = s._x
    color = int(x.color)
    hashes = own_hashes(x)
    ring = np.concatenate([hashes[:1], hashes[1:][::-1]])
    boards = np.stack([_white_view(b, color) for b in np.asarray(x.board_history)])
    board_ring = np.concatenate([boards[:1], boards[1:][::-1]]).astype(np.int8)
    return (
        header(s)
        + ring.tobytes()
        + board_ring.tobytes()
        + np.asarray(x.board, np.int8).tobytes()
        + struct.pack("<iii", int(x.halfmove_count), int(x.step_count), 0)
        + np.asarray(x.castling_rights, np.uint8).reshape(4).tobytes()
        + struct.pack("<bbbB4x", color, int(x.en_passant), 0, int(s._player_order[0]))
    )


# Positions that random play from the start seldom reaches, mixed into the games (pgx's from_fen):
POSITIONS = (
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",  # 218 moves: pgx keeps the first 200
    "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1",  # castling
    "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
    "4k3/8/8/K2Pp2r/8/8/8/8 w - e6 0 1",  # en passant would uncover a check
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant
    "1k6/PPPP4/8/8/8/8/4pppp/6K1 w - - 0 1",  # promotions
    "8/8/4k3/8/8/3QK3/8/8 w - - 90 1",  # the fifty-move rule, mates
    "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1",  # repetitions
    "k7/8/1Q6/8/8/8/8/7K w - - 0 1",  # stalemates
    "8/8/3bk3/8/8/4K3/3B4/8 w - - 0 1",  # insufficient material from the start
    "4k3/3n4/8/8/8/8/3N4/4K3 w - - 0 1",  # insufficient material after a capture
    "8/8/8/3q4/8/8/8/4K3 b - - 0 1",  # the mover has no king (only illegal moves make one): pgx's own rule
    "8/8/8/8/3k4/8/8/K3K3 w - - 0 1",  # two kings
)


START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


class Positions:
    """pgx's chess starting one game in `share` from pgx's own start, the others from `fens` (and `fens[late]`
    also at step 505, near pgx's 512-step limit), for lockstep (which calls init, step, _observe, num_players)."""

    def __init__(self, env, share: float = 0.5, fens: tuple[str, ...] = POSITIONS, late: int | None = 1) -> None:
        import jax
        import jax.numpy as jnp
        from pgx.experimental.chess import from_fen

        self._env, self._share = env, share
        self._fens, self._late = "|".join(fens), late  # (plain values: lockstep's compile cache tells envs apart)
        self.num_players = env.num_players
        self.step, self._observe = env.step, env._observe
        states = [from_fen(fen) for fen in fens]
        if late is not None:
            states.append(states[late].replace(_x=states[late]._x._replace(step_count=jnp.int32(505))))
        self._states = jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *states)
        self._count = len(states)

    def init(self, key):
        import jax
        import jax.numpy as jnp

        k1, k2, k3 = jax.random.split(key, 3)
        start = self._env.init(k1)
        i = jax.random.randint(k2, (), 0, self._count)
        other = jax.tree_util.tree_map(lambda a: a[i], self._states)
        pick = jax.random.uniform(k3) < self._share
        return jax.tree_util.tree_map(lambda a, b: jnp.where(pick, a, b), start, other)


def test_chess_matches_pgx() -> None:
    """Random play (and now and then an illegal move, which pgx plays out before its penalty) beside pgx."""
    games = 1000 if FULL else 100
    env = Positions(pgx.make("chess"), share=0.75 if FULL else 0.5)
    rate = 0.002 if FULL else 0.005  # the default lane's games end sooner
    stats = lockstep("Chess-v1", env, encode, games=games, batch=256 if FULL else 128, seed=7, illegal_rate=rate)
    assert stats.games >= games and stats.illegal > 0
    assert set(stats.terminal_rewards) == {0.0, 1.0}  # draws, and wins (mates or illegal moves)


def test_new_game_is_pgx_start() -> None:
    """A reset's state is pgx's initial state byte for byte, either player moving first."""
    import jax

    env = pgx.make("chess")
    starts = jax.device_get(jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 16)))
    by_player = {int(starts.current_player[i]): encode(take(starts, i)) for i in range(16)}
    pool = rlpool.make_gymnasium("Chess-v1", num_envs=16, seed=1)
    try:
        pool.reset()
        seen = set()
        for i in range(16):
            state = pool.get_state(i)
            player = struct.unpack_from("<i", state, 32)[0]
            assert state == by_player[player]
            seen.add(player)
    finally:
        pool.close()
    assert seen == {0, 1}


def test_bad_state_is_refused() -> None:
    pool = rlpool.make_gymnasium("Chess-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        good = pool.get_state(0)
        board = 40 + 8 * 513 + 8 * 64  # header, hashes, board history
        flags = board + 64 + 12 + 4  # board, counts, castling
        for at, value, field in ((board + 3, 7, "board"), (flags + 1, 64, "en_passant"), (flags, 2, "color")):
            with pytest.raises(ValueError, match=field):
                pool.set_state(0, good[:at] + bytes([value]) + good[at + 1 :])
        pool.set_state(0, good)
    finally:
        pool.close()


def test_comparison_can_fail() -> None:
    """Games started without the opponent's king-side castling right are caught (the castling planes)."""

    def wrong(s) -> bytes:
        rights = np.array(s._x.castling_rights)
        rights[1, 1] = False
        return encode(s.replace(_x=s._x._replace(castling_rights=rights)))

    with pytest.raises(Mismatch):
        lockstep("Chess-v1", pgx.make("chess"), wrong, games=8, batch=8, seed=4)


def test_hashes_are_rlpool_own() -> None:
    """rlpool's hash rings, step by step from every position, are pgx's with each hash turned into rlpool's: the
    keys ported here are chess.cc's, and a position is hashed here as there (board, side, castling, en passant)."""
    import jax
    import jax.numpy as jnp
    from pgx.experimental.chess import from_fen

    env = pgx.make("chess")
    _, v_step, _ = compiled(env)
    starts = [from_fen(fen) for fen in (START_FEN, *POSITIONS)]
    states = jax.device_get(jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *starts))
    n = len(starts)
    rng = np.random.default_rng(3)
    pool = rlpool.make_gymnasium("Chess-v1", num_envs=n, seed=0)
    own: dict[int, int] = {0: 0, PGX_KEYS.init: OWN_KEYS.init}  # pgx's hash -> rlpool's, of every position seen
    try:
        pool.reset()
        for i in range(n):
            start = take(states, i)
            own[zobrist(start._x, PGX_KEYS)] = zobrist(start._x, OWN_KEYS)
            pool.set_state(i, encode(start))
        live = ~np.asarray(states.terminated)
        keys, checked = jax.random.split(jax.random.PRNGKey(0), n), 0
        for _ in range(40):
            mask = np.asarray(states.legal_action_mask)
            actions = (rng.random(mask.shape) + mask).argmax(axis=1)
            states = jax.device_get(v_step(states, jnp.asarray(actions, jnp.int32), keys))
            pool.step(actions)
            for i in np.flatnonzero(live):
                x = take(states, i)._x
                own[zobrist(x, PGX_KEYS)] = zobrist(x, OWN_KEYS)
                rows = np.ascontiguousarray(np.asarray(x.hash_history, np.uint32)).view("<u8").reshape(-1)
                state = pool.get_state(i)
                ring = np.frombuffer(state, np.uint64, HASH_ROWS, HEADER)
                head = struct.unpack_from("<i", state, HASH_HEAD)[0]
                ours = ring[(head - np.arange(HASH_ROWS)) % HASH_ROWS]  # row i at slot head - i
                assert [int(h) for h in ours] == [own[int(h)] for h in rows], f"position {i}"
                checked += 1
            live &= ~np.asarray(states.terminated)
    finally:
        pool.close()
    assert checked > 20 * n


def _knight_shuffle() -> tuple[int, ...]:
    """g1-f3 and back for each side (black's in its view, which is the same labels): the start repeats."""
    from pgx._src.games.chess import TO_PLANE

    g1, f3 = 6 * 8 + 0, 5 * 8 + 2
    out, back = g1 * 73 + int(TO_PLANE[g1, f3]), f3 * 73 + int(TO_PLANE[f3, g1])
    return (out, out, back, back)


def test_repetition_matches_pgx_and_bad_hashes_are_caught() -> None:
    """Knights shuffling: from pgx's start (history: INIT_ZOBRIST_HASH), the position after the first move is the
    first to occur thrice (step 9); from the start position's FEN (history: its hash, INIT_ZOBRIST_HASH), the start
    itself (step 8). A FEN start with zeroed hashes, or pgx's own, is caught at the start's second occurrence (its
    repetition planes, step 4). (Zeroed hashes of pgx's own start are not wrong in effect: nothing repeats it.)"""
    env = pgx.make("chess")
    moves = _knight_shuffle()
    stats = lockstep_cycle("Chess-v1", env, encode, moves)
    assert stats.steps == 9 * 64 and stats.terminal_rewards == {0.0: 64}

    fen_start = Positions(env, share=0.0, fens=(START_FEN,), late=None)
    stats = lockstep_cycle("Chess-v1", fen_start, encode, moves)
    assert stats.steps == 8 * 64 and stats.terminal_rewards == {0.0: 64}

    hashes = slice(HEADER, HEADER + 8 * HASH_ROWS)

    def pgx_own(s) -> bytes:
        good = encode(s)
        rows = np.asarray(s._x.hash_history, np.uint32).reshape(HASH_ROWS, 2)
        ring = np.concatenate([rows[:1], rows[1:][::-1]])
        return good[: hashes.start] + ring.tobytes() + good[hashes.stop :]

    for wrong in (zeroed(encode, hashes), pgx_own):  # (lockstep counts the steps of all games)
        with pytest.raises(Mismatch, match=f"step {3 * 64}, .*observation differs"):
            lockstep_cycle("Chess-v1", fen_start, wrong, moves)
