// Taxi (Dietterich 2000) as gymnasium's TaxiEnv, with its `is_rainy` and
// `fickle_passenger` variants and the `action_mask` info. Taxi-v4 is gymnasium
// 1.3+'s; Taxi-v3 keeps gymnasium 1.2's rain model (the private option
// `_rain_v3`): gymnasium 1.3 changed which sideways drifts a wall blocks and
// which way is "left". Without rain the two are the same.
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "_core/env/env.h"
#include "_core/gfx/draw.h"
#include "envs/toy_text/sprites.h"
#include "envs/toy_text/toy_text.h"

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
constexpr int kWindowW = 536, kWindowH = 456;  // gymnasium's WINDOW_SIZE

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

// How a rainy move goes: forward with probability `forward`, else to either
// side with probability `side` each.
struct Rain {
  bool v3;  // gymnasium 1.2's drift rules (Taxi-v3)
  double forward, side;
};

// The sideways drift of a rainy move. gymnasium 1.2 checked the wall
// character at `offset` (2 for the first drift, 0 for the second) whatever the
// direction; gymnasium 1.3+ checks walls only for east/west drifts, on the side
// the taxi crosses.
std::array<int, 2> sideways(int row, int col, std::array<int, 2> move, int offset, bool v3) {
  const int new_row = std::clamp(row + move[0], 0, kMaxRow);
  const int new_col = std::clamp(col + move[1], 0, kMaxCol);
  if (v3) return open(1 + new_row, 2 * new_col + offset) ? std::array{new_row, new_col} : std::array{row, col};
  if (move[1] == 1 && !open(1 + new_row, 2 * new_col)) return {row, col};
  if (move[1] == -1 && !open(1 + new_row, 2 * new_col + 2)) return {row, col};
  return {new_row, new_col};
}

Transitions rainy(int row, int col, int pass, int dest, int a, const Rain& rain) {
  // Intended move, then the two sideways ones, per movement action.
  using Moves = std::array<std::array<std::array<int, 2>, 3>, 4>;
  constexpr Moves kMovesV3 = {{
      {{{1, 0}, {0, -1}, {0, 1}}},
      {{{-1, 0}, {0, -1}, {0, 1}}},
      {{{0, 1}, {1, 0}, {-1, 0}}},
      {{{0, -1}, {1, 0}, {-1, 0}}},
  }};
  // gymnasium 1.3+: left and right as seen from the heading.
  constexpr Moves kMoves = {{
      {{{1, 0}, {0, 1}, {0, -1}}},
      {{{-1, 0}, {0, -1}, {0, 1}}},
      {{{0, 1}, {-1, 0}, {1, 0}}},
      {{{0, -1}, {1, 0}, {-1, 0}}},
  }};
  const Moves& moves = rain.v3 ? kMovesV3 : kMoves;
  std::array<int, 2> left = {row, col};
  std::array<int, 2> right = {row, col};
  int new_row = row, new_col = col, new_pass = pass;
  double reward = -1;
  bool terminated = false;
  // gymnasium 1.3+ lets a move that hits the grid's edge drift no more than one
  // that hits a wall; gymnasium 1.2 let south/north moves drift at the edge.
  const bool south = a == 0 && (rain.v3 || row < kMaxRow);
  const bool north = a == 1 && (rain.v3 || row > 0);
  if (south || north || (a == 2 && open(1 + row, 2 * col + 2)) || (a == 3 && open(1 + row, 2 * col))) {
    new_row = std::clamp(row + moves[a][0][0], 0, kMaxRow);
    new_col = std::clamp(col + moves[a][0][1], 0, kMaxCol);
    left = sideways(row, col, moves[a][1], 2, rain.v3);
    right = sideways(row, col, moves[a][2], 0, rain.v3);
  } else if (a == 4) {
    pickup(row, col, new_pass, reward);
  } else if (a == 5) {
    dropoff(row, col, new_pass, dest, reward, terminated);
  }
  Transitions t;
  const int intended = encode(new_row, new_col, new_pass, dest);
  if (a <= 3) {
    t.outcomes[t.n++] = {rain.forward, intended, -1, terminated};
    t.outcomes[t.n++] = {rain.side, encode(left[0], left[1], new_pass, dest), -1, terminated};
    t.outcomes[t.n++] = {rain.side, encode(right[0], right[1], new_pass, dest), -1, terminated};
  } else {
    t.outcomes[t.n++] = {1.0, intended, reward, terminated};
  }
  return t;
}

std::shared_ptr<const Table> build_table(const Rain* rain) {
  auto table = std::make_shared<Table>();
  for (int s = 0; s < kStates; ++s) {
    const Decoded d = decode(s);
    for (int a = 0; a < kActions; ++a) {
      (*table)[s][a] = rain != nullptr ? rainy(d.row, d.col, d.pass, d.dest, a, *rain)
                                       : dry(d.row, d.col, d.pass, d.dest, a);
    }
  }
  return table;
}

// One table per variant, shared by every env that uses it (built on first use).
std::shared_ptr<const Table> table(const Rain* rain) {
  static std::mutex mu;
  static std::map<std::pair<bool, double>, std::shared_ptr<const Table>> rainy_tables;
  static const std::shared_ptr<const Table> dry_table = build_table(nullptr);
  if (rain == nullptr) return dry_table;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = rainy_tables[{rain->v3, rain->forward}];
  if (!slot) slot = build_table(rain);
  return slot;
}

std::shared_ptr<const Table> table_for(const Config& config) {
  if (!config.get_bool("is_rainy")) return table(nullptr);
  const double forward = config.get_double_in("rainy_probability", 0.0, 1.0);
  Rain rain{config.get_bool("_rain_v3"), forward, (1.0 - forward) / 2.0};
  // gymnasium 1.2 wrote the side probability as the literal 0.1 (info["prob"]
  // shows it); (1 - 0.8) / 2 is 0.09999999999999998.
  if (rain.v3 && forward == 0.8) rain.side = 0.1;
  return table(&rain);
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

EnvSpec make_spec(const Config& config) {
  config.get_double_in("rainy_probability", 0.0, 1.0);
  config.get_double_in("fickle_probability", 0.0, 1.0);
  return EnvSpec{
      .obs = {discrete("obs", kStates)},
      .action = discrete("action", kActions),
      .info = {prob_info(),
               ArraySpec{.name = "action_mask", .dtype = DType::kInt8, .shape = {kActions}, .low = {0}, .high = {1}}},
      .render_width = kWindowW,
      .render_height = kWindowH,
      .render_fps = 4,
  };
}

class Taxi final : public Env {
 public:
  explicit Taxi(const Config& config)
      : table_(table_for(config)),
        fickle_passenger_(config.get_bool("fickle_passenger")),
        fickle_probability_(config.get_double_in("fickle_probability", 0.0, 1.0)),
        info_(make_spec(config)),
        images_(config.get_string("_images")) {}

  void reset(Rng& rng, const Output& out) override {
    state_.s = start_states()[rng.integer(300)];
    state_.fickle_step = fickle_passenger_ && rng.uniform() < fickle_probability_;
    orientation_ = 0;
    write(out, 1.0);
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    const Transitions& t = (*table_)[state_.s][action.discrete()];
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
    if (action.discrete() < 4) orientation_ = static_cast<int>(action.discrete());
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

  // gymnasium's TaxiEnv._render_gui (its images: sprites.h). gymnasium turns
  // the taxi to the last move when it renders; here it turns when it moves,
  // the same for frames drawn after every step.
  void render(const Frame& frame) override {
    constexpr int kOriginX = 48, kOriginY = 128, kCellW = 88, kCellH = 56;
    const auto at = [](int row, int col) { return std::pair{kOriginX + col * kCellW, kOriginY + row * kCellH}; };
    draw::Image img(kWindowW, kWindowH);
    img.fill(draw::rgb(250, 250, 246));
    draw::blit(img, draw::load(images_, sprites::kTaxiBackground), 0, 80);
    draw::blit(img, draw::load(images_, sprites::kTaxiHouse), 403, 36);
    const Decoded d = decode(static_cast<int>(state_.s));
    const auto [dx, dy] = at(kLocs[d.dest][0], kLocs[d.dest][1]);
    draw::blit(img, draw::load(images_, sprites::kTaxiDestination), dx, dy);
    if (d.pass < kInTaxi) {
      const auto [px, py] = at(kLocs[d.pass][0], kLocs[d.pass][1]);
      draw::blit(img, draw::load(images_, sprites::kTaxiPassenger), px + 35, py + 19);
    }
    const bool full = d.pass == kInTaxi;
    const bool vertical = orientation_ < 2;  // south, north; then east, west
    const draw::Pixels& taxi = draw::load(images_, vertical ? (full ? sprites::kTaxiVFull : sprites::kTaxiV)
                                                    : (full ? sprites::kTaxiHFull : sprites::kTaxiH));
    const auto [tx, ty] = at(d.row, d.col);
    draw::blit(img, draw::flip(taxi, orientation_ == 3, orientation_ == 0), tx + (vertical ? 25 : 15),
               ty + (vertical ? 0 : 9));
    img.write_rgb(frame.rgb);
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
  std::shared_ptr<const Table> table_;
  bool fickle_passenger_;
  double fickle_probability_;
  // Positions of the info entries.
  struct Info {
    std::size_t prob, action_mask;
    explicit Info(const EnvSpec& spec)
        : prob(info_index(spec.info, "prob")), action_mask(info_index(spec.info, "action_mask")) {}
  };
  const Info info_;
  State state_;
  int orientation_ = 0;  // gymnasium's taxi_orientation: the last move (0 south, 1 north, 2 east, 3 west)
  std::string images_;  // the _images option: where draw::load finds gymnasium's images
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "Taxi",
    .options =
        {
            {"is_rainy", false,
             "moves succeed with probability rainy_probability, else drift to either side (half the rest each)"},
            {"fickle_passenger", false,
             "with probability fickle_probability per episode, the passenger changes destination once after "
             "boarding"},
            {"rainy_probability", 0.8, "with is_rainy, the probability that a move goes where it was meant to"},
            {"fickle_probability", 0.3, "with fickle_passenger, the probability per episode of a change of mind"},
            {"_rain_v3", false, "gymnasium 1.2's rain model (Taxi-v3)"},
            {"_images", std::string(), "gymnasium's images, decoded (set by rlpool.images)"},
        },
    .spec = make_spec,
    .create = make_env<Taxi>(),
});

}  // namespace rlpool::toy_text
