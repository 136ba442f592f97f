// The base of pgx's games (pgx 2.6.0, sotetsuk/pgx: pgx/core.py): what every
// game shares -- players, turns, the legal-action mask, the illegal-move
// penalty, the per-player observations and rewards -- so that a game file
// holds only its rules.
//
// A game is turn-based (EnvSpec::turn_based): one player moves per step; the
// action is that player's. Like pgx's Env.step:
// - an illegal move ends the game at once: the mover gets the game's penalty
//   (pgx's _illegal_action_penalty, -1 unless the game says otherwise) and
//   every other player -penalty * (num_players - 1). pgx first plays the move
//   as if it were legal (its _step runs on any action) and shows the state
//   that makes; a game does the same in play_illegal where that is well
//   defined, and by default keeps the state as it was (its docs say which);
// - once the game is over every action is legal (pgx sets the whole mask, so
//   that normalising a policy over it never divides by zero);
// - rewards are per player, written when the game gives them (at its end for
//   most games), and every player's `terminated` is the game's.
// Observations are pgx's feature planes, one per player from that player's
// side (pgx's observe(state, player_id)), stacked on the agent axis. A
// one-player game (2048) is a plain single-agent env with the same info.
//
// Info: current_player (int32; pgx's state.current_player, which a game keeps
// after its end) and legal_action_mask (bool, one per action), and the
// game's own entries after those.
//
// State (get_state/set_state): a header (current player, terminated, the
// rewards of the last step) followed by the game's own bytes, which the game
// checks when it loads them (a bad blob is a ValueError, never a crash).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "_core/env/env.h"

namespace rlpool::pgx {

inline constexpr int kMaxPlayers = 4;

// splitmix64: the next of a sequence of well-mixed words from `state`, usable at
// compile time -- where a game's hash keys come from (rlpool's own, not pgx's).
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A hash key laid out as pgx's are: two 31-bit words, low | high << 32.
constexpr std::uint64_t pgx_hash_key(std::uint64_t& state) { return splitmix64(state) & 0x7fffffff'7fffffffULL; }

// Two bitboards (bit i: cell i) as bool planes, cell by cell [a's, b's], for the first `cells` cells
// (at most 64) into `dst` (2 * cells bytes): a player's own stones and the opponent's.
inline void write_bitboard_planes(std::uint64_t a, std::uint64_t b, int cells, void* dst) {
  auto* out = static_cast<unsigned char*>(dst);
  static_assert(std::endian::native == std::endian::little, "the plane writer assumes little-endian bytes");
  // Four bits (cells) -> four 16-bit lanes holding 0 or 1 in their low byte.
  auto spread4 = [](std::uint64_t x) { return ((x & 0xF) * 0x0000200040008001ULL) & 0x0001000100010001ULL; };
  for (int i = 0; i < cells / 4; ++i, a >>= 4, b >>= 4) {  // cells 4i..4i+3
    const std::uint64_t word = spread4(a) | (spread4(b) << 8);
    std::memcpy(out + 8 * i, &word, 8);
  }
  if (cells % 4 != 0) {  // the last one to three cells
    const std::uint64_t word = spread4(a) | (spread4(b) << 8);
    std::memcpy(out + 8 * (cells / 4), &word, static_cast<std::size_t>(2 * (cells % 4)));
  }
}

// A load check of one field: throws std::invalid_argument ("state's <field> <verb> <value>, expected
// <low>..<high>") unless low <= value <= high.
void check_range(long long value, long long low, long long high, const char* field, const char* verb = "is");

// What a game looks like: EnvSpec fields the base fills in for it.
struct GameShape {
  int num_players;                       // 1: a single-agent env
  int num_actions;
  DType obs_dtype;                       // pgx's dtype (bool for most games)
  std::vector<std::int64_t> obs_shape;   // one player's planes
  std::vector<ArraySpec> extra_info = {};  // the game's own info entries, after the two shared ones
};

// The EnvSpec of a game of this shape: obs "obs" of shape {players, ...}
// (without the agent axis for one player), a discrete action, info
// current_player and legal_action_mask, then the extra entries.
EnvSpec game_spec(const GameShape& shape);

class PgxEnv : public Env {
 public:
  explicit PgxEnv(GameShape shape);

  void reset(Rng& rng, const Output& out) final;
  void step(const Action& action, Rng& rng, const Output& out) final;
  std::string get_state() const final;
  void set_state(std::string_view state) final;

 protected:
  // A new game: the game's state and current_player_ (pgx's _init).
  virtual void new_game(Rng& rng) = 0;
  // A legal move of current_player_ (pgx's _step): the new state, rewards_
  // (zeroed before the call), terminated_ and current_player_.
  virtual void play(int action, Rng& rng) = 0;
  // An illegal move (one the mask refuses), before the base ends the game with
  // the penalty: what pgx's _step makes of it, where the game follows it (see
  // above). rewards_ and terminated_ are overwritten afterwards.
  virtual void play_illegal(int /*action*/, Rng& /*rng*/) {}
  // The legal moves now (pgx's legal_action_mask before the terminal override),
  // one bool per action; called after new_game, play and load.
  virtual void legal_actions(bool* mask) const = 0;
  // One player's observation (pgx's _observe(state, player)), into `dst`.
  virtual void observe(int player, void* dst) const = 0;
  // The game's own info entries (GameShape::extra_info), by their positions in
  // the spec's info (after current_player and legal_action_mask).
  virtual void write_info(const Output& /*out*/) const {}
  // The game's state as bytes, and back: load checks every field, throwing
  // std::invalid_argument naming the first bad one, and changes nothing then.
  virtual std::string save() const = 0;
  virtual void load(std::string_view bytes) = 0;
  // pgx's _illegal_action_penalty.
  virtual double illegal_action_penalty() const { return -1.0; }

  int num_players() const { return shape_.num_players; }
  int num_actions() const { return shape_.num_actions; }

  // A two-player game's first player: a fair coin (pgx: jax.random.bernoulli(key)).
  static int draw_first_player(Rng& rng) { return static_cast<int>(rng.integer(2)); }
  // In a two-player game: the colour (0 or 1) of `player` when the player to move has `to_move`.
  int color_of(int player, int to_move) const { return player == current_player_ ? to_move : 1 - to_move; }
  // A two-player game's result: `winner` gets +points, the other player -points.
  void set_winner(int winner, double points = 1.0) {
    rewards_[winner] = points;
    rewards_[1 - winner] = -points;
  }

  int current_player_ = 0;
  bool terminated_ = false;
  bool truncated_ = false;  // a game that ends by a step limit of its own
  std::array<double, kMaxPlayers> rewards_{};

 private:
  void refresh_mask();
  void write(const Output& out) const;

  GameShape shape_;
  std::size_t obs_player_bytes_;
  std::unique_ptr<bool[]> legal_;  // the mask of the current state
};

// Registers a game without options as env type `name` (a file's
// `const bool registered = register_game<Game>("Name");`).
template <class Game>
bool register_game(const char* name) {
  return register_env_type({
      .name = name,
      .options = {},
      .spec = [](const Config&) { return game_spec(Game::shape()); },
      .create = make_env<Game>(),
  });
}

}  // namespace rlpool::pgx
