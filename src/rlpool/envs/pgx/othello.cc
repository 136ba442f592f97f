// Othello, as pgx 2.6.0 plays it (pgx/othello.py): an 8 x 8 board (cells
// r * 8 + c), d4/e5 the second player's and e4/d5 the first's; the first player
// is drawn at random (pgx: jax.random.bernoulli(key); here rng.integer(2), the
// same fair coin). Actions 0..63 place a disc, flipping the opponent's lines it
// closes; action 64 passes, legal only when no placement is. The game ends when
// the board is full, when the mover leaves the opponent no disc, or on a pass
// right after a pass: +1/-1 by disc count (0 each for equal counts). The
// observation is 8 x 8 x 2 (the player's own discs, the opponent's).
//
// An illegal move: pgx's _step runs anyway -- the flips the cell would make
// (whatever is on it), `mover ^= cell | flips`, `opponent ^= flips`, a cell in
// both counting as the opponent's -- and play_illegal does the same; an illegal
// pass (a placement was legal) only passes.
//
// Bitboards in pgx's order (bit r * 8 + c); pgx's jnp.roll shifts with its
// edge masks are plain shifts here (what a roll wraps lands on a masked cell).
#include <array>
#include <bit>
#include <cstdint>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kPass = 64;
constexpr std::uint64_t kNotLeftRight = 0x7E7E7E7E7E7E7E7EULL;  // pgx's LR_MASK: columns 1..6
constexpr std::uint64_t kNotTopBottom = 0x00FFFFFFFFFFFF00ULL;  // pgx's UD_MASK: rows 1..6
constexpr std::uint64_t kInner = kNotLeftRight & kNotTopBottom;  // pgx's SIDE_MASK

struct Direction {
  int shift;  // pgx's jnp.roll shift: bit i moves to i + shift
  std::uint64_t mask;
};
constexpr std::array<Direction, 8> kDirections = {{
    {1, kNotLeftRight}, {-1, kNotLeftRight}, {8, kNotTopBottom}, {-8, kNotTopBottom},
    {7, kInner}, {-7, kInner}, {9, kInner}, {-9, kInner},
}};

constexpr std::uint64_t roll(std::uint64_t x, int shift) { return shift > 0 ? x << shift : x >> -shift; }

// pgx's _check_line: the run of `line` discs (within `mask`) next to `from` in the direction.
constexpr std::uint64_t run(std::uint64_t from, std::uint64_t line, const Direction& d) {
  const std::uint64_t l = line & d.mask;
  std::uint64_t r = l & roll(from, d.shift);
  for (int k = 0; k < 5; ++k) r |= l & roll(r, d.shift);
  return r;
}

// The discs of `opp` that a disc at `pos` flips for `own`.
constexpr std::uint64_t flips(std::uint64_t pos, std::uint64_t own, std::uint64_t opp) {
  std::uint64_t rev = 0;
  for (const auto& d : kDirections) {
    const std::uint64_t r = run(pos, opp, d);
    if ((roll(r, d.shift) & own) != 0) rev |= r;
  }
  return rev;
}

// The empty cells where `own` may play.
constexpr std::uint64_t moves(std::uint64_t own, std::uint64_t opp) {
  const std::uint64_t empty = ~(own | opp);
  std::uint64_t legal = 0;
  for (const auto& d : kDirections) legal |= roll(run(own, opp, d), d.shift) & empty;
  return legal;
}

class Othello final : public PgxEnv {
 public:
  explicit Othello(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() { return {.num_players = 2, .num_actions = 65, .obs_dtype = DType::kBool, .obs_shape = {8, 8, 2}}; }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    current_player_ = draw_first_player(rng);
  }

  void play(int action, Rng& /*rng*/) override {
    const int mover = current_player_;
    const std::uint64_t pos = action < kPass ? std::uint64_t{1} << action : 0;
    const std::uint64_t rev = flips(pos, s_.own, s_.opp);
    const std::uint64_t own = s_.own ^ (pos | rev);
    const std::uint64_t opp = s_.opp ^ rev;
    const bool passed_twice = s_.passed != 0 && action == kPass;
    // The next player's view: a cell in both is theirs (pgx's jnp.where(opp, ...)).
    s_.own = opp;
    s_.opp = own & ~opp;
    s_.passed = action == kPass ? 1 : 0;
    s_.turn = static_cast<std::uint8_t>(1 - s_.turn);
    current_player_ = 1 - current_player_;
    terminated_ = std::popcount(own | opp) == 64 || opp == 0 || passed_twice;
    if (terminated_) {
      const int mine = std::popcount(own);
      const int theirs = std::popcount(opp);
      if (mine != theirs) {
        set_winner(mine > theirs ? mover : 1 - mover);
      }
    }
  }

  // pgx's _step on any action (see the header).
  void play_illegal(int action, Rng& rng) override { play(action, rng); }

  void legal_actions(bool* mask) const override {
    const std::uint64_t legal = moves(s_.own, s_.opp);
    for (int i = 0; i < 64; ++i) mask[i] = ((legal >> i) & 1) != 0;
    mask[kPass] = legal == 0;
  }

  void observe(int player, void* dst) const override {
    const bool to_move = player == current_player_;
    write_bitboard_planes(to_move ? s_.own : s_.opp, to_move ? s_.opp : s_.own, 64, dst);
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    if ((s.own & s.opp) != 0) throw std::invalid_argument("state's own and opp discs share a cell");
    if (s.passed > 1) throw std::invalid_argument("state's passed is " + std::to_string(s.passed) + ", expected 0 or 1");
    if (s.turn > 1) throw std::invalid_argument("state's turn is " + std::to_string(s.turn) + ", expected 0 or 1");
    s_ = s;
  }

 private:
  struct State {
    std::uint64_t own = 0x0000000810000000ULL;  // the discs of the player to move (pgx's board > 0): 28, 35
    std::uint64_t opp = 0x0000001008000000ULL;  // the other player's (board < 0): 27, 36
    std::uint8_t passed = 0;                    // the last move was a pass
    std::uint8_t turn = 0;                      // pgx's turn: 0 while the first player is to move
    std::array<std::uint8_t, 6> unused{};
  };
  static_assert(sizeof(State) == 24);
  State s_;
};

const bool registered = register_game<Othello>("Othello");

}  // namespace

}  // namespace rlpool::pgx
