// Taxi-v3, matching gymnasium 1.2.2 TaxiEnv (Dietterich 2000), including its
// `is_rainy` and `fickle_passenger` variants and the `action_mask` info.
#include <algorithm>
#include <array>
#include <memory>

#include "env.h"
#include "toy_text.h"

namespace rlpool::toy_text {
namespace {

constexpr const char* kMap[7] = {
    "+---------+", "|R: | : :G|", "| : | : : |", "| : : : : |", "| | : | : |", "|Y| : |B: |", "+---------+",
};
constexpr int kStates = 500;
constexpr int kActions = 6;
constexpr int kMaxRow = 4;
constexpr int kMaxCol = 4;
constexpr std::array<std::array<int, 2>, 4> kLocs = {{{0, 0}, {0, 4}, {4, 0}, {4, 3}}};
constexpr int kInTaxi = 4;  // passenger index meaning "in the taxi"

bool open(int map_row, int map_col) { return kMap[map_row][map_col] == ':'; }

int encode(int row, int col, int pass, int dest) { return ((row * 5 + col) * 5 + pass) * 4 + dest; }

struct Decoded {
  int row, col, pass, dest;
};
Decoded decode(int s) { return {s / 100, s / 20 % 5, s / 4 % 5, s % 4}; }

int loc_index(int row, int col) {
  for (int i = 0; i < 4; ++i) {
    if (kLocs[i][0] == row && kLocs[i][1] == col) return i;
  }
  return -1;
}

struct Outcome {
  double p;
  int s;
  double reward;
  bool terminated;
};
struct Transitions {
  std::array<Outcome, 3> outcomes;
  int n = 0;
};
// gymnasium's P[s][a], built the way gymnasium builds it.
using Table = std::array<std::array<Transitions, kActions>, kStates>;

// Pickup / dropoff: gymnasium's _pickup and _dropoff.
void pickup(int row, int col, int& pass, double& reward) {
  if (pass < kInTaxi && loc_index(row, col) == pass) {
    pass = kInTaxi;
  } else {
    reward = -10;
  }
}
void dropoff(int row, int col, int& pass, int dest, double& reward, bool& terminated) {
  const int at = loc_index(row, col);
  if (at == dest && pass == kInTaxi) {
    pass = dest;
    terminated = true;
    reward = 20;
  } else if (at >= 0 && pass == kInTaxi) {
    pass = at;
  } else {
    reward = -10;
  }
}

Transitions dry(int row, int col, int pass, int dest, int a) {
  int new_row = row, new_col = col, new_pass = pass;
  double reward = -1;
  bool terminated = false;
  if (a == 0) {
    new_row = std::min(row + 1, kMaxRow);
  } else if (a == 1) {
    new_row = std::max(row - 1, 0);
  }
  if (a == 2 && open(1 + row, 2 * col + 2)) {
    new_col = std::min(col + 1, kMaxCol);
  } else if (a == 3 && open(1 + row, 2 * col)) {
    new_col = std::max(col - 1, 0);
  } else if (a == 4) {
    pickup(row, col, new_pass, reward);
  } else if (a == 5) {
    dropoff(row, col, new_pass, dest, reward, terminated);
  }
  Transitions t;
  t.outcomes[t.n++] = {1.0, encode(new_row, new_col, new_pass, dest), reward, terminated};
  return t;
}

// gymnasium's _calc_new_position: the sideways move, checked against the wall
// character at `offset` (gymnasium's choice, kept as is).
std::array<int, 2> sideways(int row, int col, std::array<int, 2> move, int offset) {
  const int new_row = std::clamp(row + move[0], 0, kMaxRow);
  const int new_col = std::clamp(col + move[1], 0, kMaxCol);
  if (open(1 + new_row, 2 * new_col + offset)) return {new_row, new_col};
  return {row, col};
}

Transitions rainy(int row, int col, int pass, int dest, int a) {
  // Intended move, then the two sideways ones, per movement action.
  constexpr std::array<std::array<std::array<int, 2>, 3>, 4> kMoves = {{
      {{{1, 0}, {0, -1}, {0, 1}}},
      {{{-1, 0}, {0, -1}, {0, 1}}},
      {{{0, 1}, {1, 0}, {-1, 0}}},
      {{{0, -1}, {1, 0}, {-1, 0}}},
  }};
  std::array<int, 2> left = {row, col};
  std::array<int, 2> right = {row, col};
  int new_row = row, new_col = col, new_pass = pass;
  double reward = -1;
  bool terminated = false;
  if (a == 0 || a == 1 || (a == 2 && open(1 + row, 2 * col + 2)) || (a == 3 && open(1 + row, 2 * col))) {
    new_row = std::clamp(row + kMoves[a][0][0], 0, kMaxRow);
    new_col = std::clamp(col + kMoves[a][0][1], 0, kMaxCol);
    left = sideways(row, col, kMoves[a][1], 2);
    right = sideways(row, col, kMoves[a][2], 0);
  } else if (a == 4) {
    pickup(row, col, new_pass, reward);
  } else if (a == 5) {
    dropoff(row, col, new_pass, dest, reward, terminated);
  }
  Transitions t;
  const int intended = encode(new_row, new_col, new_pass, dest);
  if (a <= 3) {
    t.outcomes[t.n++] = {0.8, intended, -1, terminated};
    t.outcomes[t.n++] = {0.1, encode(left[0], left[1], new_pass, dest), -1, terminated};
    t.outcomes[t.n++] = {0.1, encode(right[0], right[1], new_pass, dest), -1, terminated};
  } else {
    t.outcomes[t.n++] = {1.0, intended, reward, terminated};
  }
  return t;
}

std::unique_ptr<const Table> build_table(bool is_rainy) {
  auto table = std::make_unique<Table>();
  for (int s = 0; s < kStates; ++s) {
    const Decoded d = decode(s);
    for (int a = 0; a < kActions; ++a) {
      (*table)[s][a] = is_rainy ? rainy(d.row, d.col, d.pass, d.dest, a) : dry(d.row, d.col, d.pass, d.dest, a);
    }
  }
  return table;
}

// Built once per variant, shared by every env (thread-safe static init).
const Table& table(bool is_rainy) {
  static const std::unique_ptr<const Table> dry_table = build_table(false);
  static const std::unique_ptr<const Table> rainy_table = build_table(true);
  return is_rainy ? *rainy_table : *dry_table;
}

// gymnasium's initial_state_distrib: uniform over passenger at one of the four
// locations and a different destination (300 states), in state order.
const std::array<int, 300>& start_states() {
  static const std::array<int, 300> starts = [] {
    std::array<int, 300> out{};
    int n = 0;
    for (int s = 0; s < kStates; ++s) {
      const Decoded d = decode(s);
      if (d.pass < kInTaxi && d.pass != d.dest) out[n++] = s;
    }
    return out;
  }();
  return starts;
}

EnvSpec make_spec(const Config& /*config*/) {
  return EnvSpec{
      .obs = {discrete("obs", kStates)},
      .action = discrete("action", kActions),
      .info = {prob_info(),
               ArraySpec{.name = "action_mask", .dtype = DType::kInt8, .shape = {kActions}, .low = {0}, .high = {1}}},
  };
}

class Taxi final : public Env {
 public:
  explicit Taxi(const Config& config)
      : table_(table(config.get_bool("is_rainy"))),
        fickle_passenger_(config.get_bool("fickle_passenger")),
        info_(make_spec(config)) {}

  void reset(Rng& rng, const Output& out) override {
    state_.s = start_states()[rng.integer(300)];
    state_.fickle_step = fickle_passenger_ && rng.uniform() < 0.3;
    write(out, 1.0);
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    const Transitions& t = table_[state_.s][action.discrete()];
    std::size_t i = 0;
    if (t.n > 1) {
      double probs[3];
      for (int k = 0; k < t.n; ++k) probs[k] = t.outcomes[k].p;
      i = categorical(probs, static_cast<std::size_t>(t.n), rng.uniform());
    }
    const Outcome& o = t.outcomes[i];
    int s = o.s;
    if (fickle_passenger_ && state_.fickle_step) {
      // gymnasium: once per episode, with the passenger aboard and the taxi
      // moved, the passenger picks one of the other three destinations.
      const Decoded before = decode(static_cast<int>(state_.s));
      const Decoded after = decode(s);
      if (before.pass == kInTaxi && (after.row != before.row || after.col != before.col)) {
        state_.fickle_step = 0;
        int k = static_cast<int>(rng.integer(3));
        const int dest = k >= before.dest ? k + 1 : k;
        s = encode(after.row, after.col, after.pass, dest);
      }
    }
    state_.s = s;
    *out.reward = o.reward;
    *out.terminated = o.terminated;
    write(out, o.p);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override {
    State state;
    load_pod_state(bytes, state);
    if (state.s < 0 || state.s >= kStates) {
      throw std::invalid_argument("Taxi state " + std::to_string(state.s) + " is out of range [0, 499]");
    }
    if (state.fickle_step != 0 && state.fickle_step != 1) {
      throw std::invalid_argument("Taxi fickle_step must be 0 or 1, got " + std::to_string(state.fickle_step));
    }
    state_ = state;
  }

 private:
  // The observation, the prob info, and gymnasium's action_mask(s) as 0/1 bytes.
  void write(const Output& out, double p) const {
    *out.obs_as<std::int64_t>() = state_.s;
    *out.info_as<double>(info_.prob) = p;
    auto* mask = out.info_as<std::int8_t>(info_.action_mask);
    const Decoded d = decode(static_cast<int>(state_.s));
    const int at = loc_index(d.row, d.col);
    mask[0] = d.row < kMaxRow;
    mask[1] = d.row > 0;
    mask[2] = d.col < kMaxCol && open(d.row + 1, 2 * d.col + 2);
    mask[3] = d.col > 0 && open(d.row + 1, 2 * d.col);
    mask[4] = d.pass < kInTaxi && at == d.pass;
    mask[5] = d.pass == kInTaxi && at >= 0;
  }

  // gymnasium's env.unwrapped.s and .fickle_step.
  struct State {
    std::int64_t s = 0;
    std::int64_t fickle_step = 0;
  };
  const Table& table_;
  bool fickle_passenger_;
  // Positions of the info entries.
  struct Info {
    std::size_t prob, action_mask;
    explicit Info(const EnvSpec& spec)
        : prob(info_index(spec.info, "prob")), action_mask(info_index(spec.info, "action_mask")) {}
  };
  const Info info_;
  State state_;
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "Taxi",
    .options =
        {
            {"is_rainy", false, "moves succeed with probability 0.8, else go sideways (0.1 each)"},
            {"fickle_passenger", false,
             "with probability 0.3 per episode, the passenger changes destination once after boarding"},
        },
    .spec = make_spec,
    .create = make_env<Taxi>(),
});

}  // namespace rlpool::toy_text
