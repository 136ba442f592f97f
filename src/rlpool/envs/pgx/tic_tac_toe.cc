// TicTacToe, as pgx 2.6.0 plays it (pgx/tic_tac_toe.py, pgx/_src/games/tic_tac_toe.py):
// the first player is drawn at random and plays X; cells 0..8 row by row; the
// observation is 3 x 3 x 2 (the player's own marks, the opponent's); +1/-1 to
// the winner/loser at the end, 0 each for a draw.
#include <array>
#include <cstdint>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr std::array<std::array<int, 3>, 8> kLines = {{
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
}};

class TicTacToe final : public PgxEnv {
 public:
  explicit TicTacToe(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() { return {.num_players = 2, .num_actions = 9, .obs_dtype = DType::kBool, .obs_shape = {3, 3, 2}}; }

 protected:
  void new_game(Rng& rng) override {
    s_ = State{};
    current_player_ = draw_first_player(rng);
  }

  void play(int action, Rng& /*rng*/) override {
    const int mover = current_player_;
    s_.board[action] = s_.color;
    bool won = false;
    for (const auto& line : kLines) {
      won = won || (s_.board[line[0]] == s_.color && s_.board[line[1]] == s_.color && s_.board[line[2]] == s_.color);
    }
    if (won) s_.winner = s_.color;
    s_.color = static_cast<std::int8_t>(1 - s_.color);
    current_player_ = 1 - current_player_;
    bool full = true;
    for (auto cell : s_.board) full = full && cell >= 0;
    terminated_ = won || full;
    if (won) set_winner(mover);
  }

  // pgx's _step marks the cell whatever is on it: the mark replaces the one there.
  void play_illegal(int action, Rng& rng) override { play(action, rng); }

  void legal_actions(bool* mask) const override {
    for (int i = 0; i < 9; ++i) mask[i] = s_.board[i] < 0;
  }

  void observe(int player, void* dst) const override {
    const int mine = color_of(player, s_.color);
    auto* out = static_cast<bool*>(dst);
    for (int i = 0; i < 9; ++i) {
      out[2 * i] = s_.board[i] == mine;
      out[2 * i + 1] = s_.board[i] == 1 - mine;
    }
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    for (auto cell : s.board) {
      if (cell < -1 || cell > 1) throw std::invalid_argument("state's board holds " + std::to_string(cell) + ", expected -1, 0 or 1");
    }
    if (s.color < 0 || s.color > 1) throw std::invalid_argument("state's color is " + std::to_string(s.color) + ", expected 0 or 1");
    if (s.winner < -1 || s.winner > 1) throw std::invalid_argument("state's winner is " + std::to_string(s.winner) + ", expected -1, 0 or 1");
    s_ = s;
  }

 private:
  struct State {
    std::array<std::int8_t, 9> board{-1, -1, -1, -1, -1, -1, -1, -1, -1};  // -1 empty, else the mark's color
    std::int8_t color = 0;    // the color to move: 0 (X, moves first) or 1 (O)
    std::int8_t winner = -1;  // the winning color, -1 while none
  };
  State s_;
};

const bool registered = register_game<TicTacToe>("TicTacToe");

}  // namespace

}  // namespace rlpool::pgx
