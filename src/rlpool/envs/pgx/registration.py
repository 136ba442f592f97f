"""PGX's games, by EnvPool 1.2.7's ids (``envpool.pgx``).

pgx ends every game by its own rules (no time limit of its own), so these tasks have none either:
EnvPool's 2**31 - 1 steps.
"""

from __future__ import annotations

from rlpool.registry import register

NO_LIMIT = 2**31 - 1

GAMES: dict[str, tuple[str, dict]] = {
    "TicTacToe-v1": ("TicTacToe", {}),
    "ConnectFour-v1": ("ConnectFour", {}),
    "Hex-v1": ("Hex", {}),
    "Othello-v1": ("Othello", {}),
    "KuhnPoker-v1": ("KuhnPoker", {}),
    "LeducHoldem-v1": ("LeducHoldem", {}),
    "Play2048-v1": ("Play2048", {}),
    "Backgammon-v1": ("Backgammon", {}),
    "AnimalShogi-v1": ("AnimalShogi", {}),
    "Chess-v1": ("Chess", {}),
    "GardnerChess-v1": ("GardnerChess", {}),
    "Shogi-v1": ("Shogi", {}),
    "SparrowMahjong-v1": ("SparrowMahjong", {}),
    "Go9x9-v1": ("Go", {"board_size": 9}),
    "Go13x13-v1": ("Go", {"board_size": 13}),
    "Go19x19-v1": ("Go", {"board_size": 19}),
    "ChineseGo9x9-v1": ("Go", {"board_size": 9, "rules": "chinese"}),
    "ChineseGo13x13-v1": ("Go", {"board_size": 13, "rules": "chinese"}),
    "ChineseGo19x19-v1": ("Go", {"board_size": 19, "rules": "chinese"}),
}

for _task_id, (_env_type, _options) in GAMES.items():
    register(_task_id, _env_type, max_episode_steps=NO_LIMIT, **_options)
