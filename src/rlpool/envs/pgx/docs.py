"""The hand-written reference text of the PGX family (``docs/envs/pgx.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc

_START = "pgx's initial position; who moves first is drawn at random (pgx's `init`), as is any chance the game has."
_END = "Terminates when the game ends by its rules, or at once on an illegal move (see the family's notes)."
_ZERO_SUM = "+1 to the winner and -1 to the loser when the game ends, 0 to both for a draw; 0 before the end."


def _game(title: str, env_type: str, summary: str, observation: str, reward: str = _ZERO_SUM,
          starting_state: str = _START, termination: str = _END) -> EnvDoc:
    return EnvDoc(
        title=title,
        env_types=(env_type,),
        summary=summary,
        observation_text=observation,
        reward=reward,
        starting_state=starting_state,
        termination=termination,
    )


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/pgx.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(
        name="pgx",
        title="PGX board and card games",
        intro="""
pgx 2.6.0's games (sotetsuk/pgx, JAX), ported to C++ by EnvPool 1.2.7's ids: turn-based games on rlpool's
multi-agent API (docs/multi_agent.md). Observations are pgx's feature planes for every player, each from
its own side (`[num_envs, num_players, ...]`); the action is the move of `info["current_player"]`;
`info["legal_action_mask"]` marks the legal moves; rewards, `terminated` and `truncated` are per player.
Play2048 has one player and is a plain single-agent task with the same info.

Like pgx: an illegal move ends the game at once, the mover getting the game's penalty (-1; Backgammon -3)
and every other player `-penalty * (num_players - 1)`; once a game is over every action is legal (the mask
is all true). rlpool's own draws (first player, dice, cards, tiles, walls) follow pgx's distributions from
the env's seeded generator; JAX's PRNG is not reproduced, so the same seed gives other games than pgx's.
Every game is compared with pgx move by move from pgx's own states (`tests/envs/pgx`), chance events
driven from pgx's draws. The ChineseGo ids are EnvPool 1.2.7's (pgx has no such variant).
""",
        envs=(
            _game("TicTacToe", "TicTacToe", "Three in a row on a 3 x 3 board.",
                  "3 x 3 x 2 bool: the player's marks, the opponent's."),
            _game("ConnectFour", "ConnectFour", "Four in a row on a 6 x 7 board; a move drops a disc into a column.",
                  "pgx's planes (6 x 7 x 2 bool): the player's discs, the opponent's."),
            _game("Hex", "Hex", "Connect your two sides of an 11 x 11 rhombus; the second player may swap.",
                  "pgx's planes (11 x 11 x 4 bool)."),
            _game("Othello", "Othello", "Reversi on 8 x 8; a player without a move passes.",
                  "pgx's planes (8 x 8 x 2 bool)."),
            _game("Go", "Go", """
Go on a 9, 13 or 19 board (`board_size`), area scoring with `komi`, positional superko; the game also ends
after `max_terminal_steps` moves (0: pgx's `board_size**2 * 2`). `rules="chinese"` are EnvPool's ChineseGo.
""", "pgx's planes: `history_length` steps of both players' stones and the colour to play (17 for 8 steps)."),
            _game("KuhnPoker", "KuhnPoker", "Kuhn poker: three cards, one betting round.",
                  "pgx's encoding (7 bool): the player's card and the bets so far.",
                  reward="The chips won or lost at the end."),
            _game("LeducHoldem", "LeducHoldem", "Leduc hold'em: six cards, two betting rounds, a public card.",
                  "pgx's encoding (34 bool).", reward="The chips won or lost at the end."),
            _game("Play2048", "Play2048", "2048 on a 4 x 4 board: slide, merge, a new tile after every move.",
                  "4 x 4 x 31 bool: one plane per tile exponent.",
                  reward="The sum of the tiles merged by the move.",
                  starting_state="Two tiles (2 with probability 0.9, else 4) on random cells, as pgx draws them.",
                  termination="Terminates when no move changes the board, or at once on an illegal move."),
            _game("Backgammon", "Backgammon", """
Backgammon with pgx's 6 x 26 action encoding (a checker's source point and die); the dice are rolled after
every turn. pgx's rules, looser than tournament backgammon's: no rule to use both dice or the larger one.""",
                  "pgx's encoding (34 int32).",
                  reward="1, 2 or 3 (single game, gammon, backgammon) to the winner, the negative to the loser."),
            _game("AnimalShogi", "AnimalShogi", "Dobutsu shogi on 3 x 4.", "pgx's planes (4 x 3 x 194 float32)."),
            _game("Chess", "Chess", "Chess with AlphaZero's 4672-move encoding, as pgx has it.",
                  "pgx's 8 x 8 x 119 float32 planes: 8 positions, repetitions, colour, move counts, castling."),
            _game("GardnerChess", "GardnerChess", "Gardner's 5 x 5 minichess.", "pgx's 5 x 5 x 115 float32 planes."),
            _game("Shogi", "Shogi", "Shogi on 9 x 9 with drops, as pgx has it.", "pgx's 9 x 9 x 119 bool planes."),
            _game("SparrowMahjong", "SparrowMahjong", "Sparrow mahjong for three players (bamboo tiles only).",
                  "pgx's encoding (11 x 15 bool).", reward="pgx's scores at the end of a hand."),
        ),
    )
