// Jumanji's Knapsack (jumanji 1.1.2, Knapsack-v1) in C++: num_items items,
// each with a weight and a value; each step packs one into a bag of
// total_budget. Follows jumanji/environments/packing/knapsack/:
// - generator.py RandomGenerator.__call__ (l.64-84): key, sample_key =
//   split(key); weights, values = jax.random.uniform(sample_key,
//   (2, num_items)) (the first row the weights); nothing packed; the
//   remaining budget is total_budget as float32; the State keeps `key`.
// - env.py Knapsack.step (l.141-178): an action is valid on an item not
//   packed whose weight fits the remaining budget; an invalid one leaves the
//   State as it was. _update_state (l.273-289) packs the item and takes its
//   weight off the budget (float32). The episode terminates when no item is
//   left to pack (the next observation's action mask is empty) or on an
//   invalid action; there is no time limit of the game's own.
// - reward.py DenseReward (l.64-84, the default): the packed item's value, 0
//   for an invalid action.
// - env.py observation_spec (l.180-226) and _state_to_observation
//   (l.291-305): weights, values, packed_items, action_mask (not packed and
//   weight <= remaining budget).
// - render: viewer.py KnapsackViewer (l.28-70, 111-118): jumanji shows a
//   picture of a knapsack titled with the total value packed and the budget
//   used (the packed weights' sum), both to 2 decimals. The
//   render_mode="rgb_array" picture, 480 x 480 on white, shows those and the
//   items: item i a bar over columns [i * 480 / n, (i + 1) * 480 / n) (less
//   its last column when 3 px wide or more), standing on row 400, round(value
//   * 320) px tall, green (44, 160, 44) when packed, grey (190, 190, 190)
//   when not; the budget gauge, rows [420, 460) from column 20 to 460, blue
//   (31, 119, 180) over its first round(440 * used / total_budget) px (at
//   most 440), light grey (220, 220, 220) after; at the top, the total value
//   in green centred on (120, 40) and the budget used in blue centred on
//   (360, 40), to 2 decimals in a block font 4 px a block.
// - info: the State's remaining_budget (float32), as EnvPool 1.2.7's info.
//
// State bytes (after the env's key), in jumanji's State order: weights
// (num_items float32), values (num_items float32), packed_items (num_items
// bytes, 0 or 1), remaining_budget (float32), the State's key (two uint32).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

// Bounds on the options (jumanji sets none): an item index stays in int32, the budget a finite float32.
constexpr std::int64_t kMaxItems = 100000;
constexpr double kMaxBudget = 1e9;

class Knapsack final : public JumanjiEnv {
 public:
  explicit Knapsack(const Config& config)
      : n_(static_cast<int>(config.get_int("num_items"))),
        total_budget_(static_cast<float>(config.get_double("total_budget"))),
        items_(static_cast<std::size_t>(2 * n_)),
        packed_(static_cast<std::size_t>(n_), 0) {}

 protected:
  void new_episode(Key key) override {
    auto [next, sample_key] = jax_random::split2(key);
    state_key_ = next;
    jax_random::uniform(sample_key, items_.data(), items_.size());
    std::fill(packed_.begin(), packed_.end(), 0);
    remaining_budget_ = total_budget_;
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto item = static_cast<std::size_t>(action.discrete());
    const bool valid = remaining_budget_ >= weight(item) && packed_[item] == 0;
    if (valid) {
      packed_[item] = 1;
      remaining_budget_ = remaining_budget_ - weight(item);
    }
    rewards[0] = valid ? value(item) : 0.0f;
    bool any_available = false;
    for (std::size_t i = 0; i < packed_.size() && !any_available; ++i) any_available = available(i);
    return Outcome{.terminated = !any_available || !valid};
  }

  void observe(const Output& out) const override {
    std::copy(items_.begin(), items_.begin() + n_, out.obs_as<float>(0));
    std::copy(items_.begin() + n_, items_.end(), out.obs_as<float>(1));
    bool* packed = out.obs_as<bool>(2);
    bool* mask = out.obs_as<bool>(3);
    for (std::size_t i = 0; i < packed_.size(); ++i) {
      packed[i] = packed_[i] != 0;
      mask[i] = available(i);
    }
    *out.info_as<float>(0) = remaining_budget_;
  }

  void render(const Frame& frame) override { draw(Canvas(frame)); }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, items_);
    append_values(bytes, packed_);
    append(bytes, remaining_budget_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "Knapsack");
    std::vector<float> items(items_.size());
    reader.read(items.data(), static_cast<std::size_t>(n_) * sizeof(float), "weights");
    reader.read(items.data() + n_, static_cast<std::size_t>(n_) * sizeof(float), "values");
    std::vector<std::uint8_t> packed = read_values<std::uint8_t>(reader, packed_.size(), "packed_items");
    const auto remaining_budget = reader.read<float>("remaining_budget");
    const Key key = read_key(reader);
    reader.done();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!(items[i] >= 0.0f && items[i] <= 1.0f)) {
        throw std::invalid_argument(std::string("state's ") + (i < packed.size() ? "weights" : "values") + " hold " +
                                    std::to_string(items[i]) + ", expected 0..1");
      }
    }
    check_all(packed, 0, 1, "packed_items entry");
    if (!(remaining_budget >= 0.0f && remaining_budget <= total_budget_)) {
      throw std::invalid_argument("state's remaining_budget is " + std::to_string(remaining_budget) +
                                  ", expected 0.." + std::to_string(total_budget_));
    }
    items_ = std::move(items);
    packed_ = std::move(packed);
    remaining_budget_ = remaining_budget;
    state_key_ = key;
  }

 private:
  void draw(const Canvas& canvas) const {
    constexpr Rgb kGreen{44, 160, 44};
    constexpr Rgb kBlue{31, 119, 180};
    canvas.fill(Rgb{255, 255, 255});
    float used = 0.0f;
    float total_value = 0.0f;
    for (std::size_t i = 0; i < packed_.size(); ++i) {
      if (packed_[i] != 0) {
        used += weight(i);
        total_value += value(i);
      }
    }
    const double column = static_cast<double>(canvas.width()) / n_;
    for (int i = 0; i < n_; ++i) {
      const int x0 = static_cast<int>(i * column);
      int x1 = static_cast<int>((i + 1) * column);
      if (x1 - x0 >= 3) --x1;
      const int top = 400 - static_cast<int>(std::lround(value(static_cast<std::size_t>(i)) * 320.0));
      canvas.rect(x0, top, x1, 400, packed_[static_cast<std::size_t>(i)] != 0 ? kGreen : Rgb{190, 190, 190});
    }
    const double fraction = total_budget_ > 0.0f ? std::clamp(used / total_budget_, 0.0f, 1.0f) : 0.0;
    const int filled = static_cast<int>(std::lround(440.0 * fraction));
    canvas.rect(20, 420, 460, 460, Rgb{220, 220, 220});
    canvas.rect(20, 420, 20 + filled, 460, kBlue);
    decimal(canvas, 120, 40, total_value, kGreen);
    decimal(canvas, 360, 40, used, kBlue);
  }

  // `v` to 2 decimals, centred on (cx, cy), the point a block wide: a local addition to Canvas::number.
  static void decimal(const Canvas& canvas, int cx, int cy, float v, Rgb colour) {
    constexpr int kScale = 4;
    char text[48];
    const int n = std::clamp(std::snprintf(text, sizeof(text), "%.2f", static_cast<double>(v)), 0,
                             static_cast<int>(sizeof(text)) - 1);
    int width = -kScale;
    for (int i = 0; i < n; ++i) width += (text[i] == '.' ? 2 : 4) * kScale;
    int x = cx - width / 2;
    const int y = cy - 5 * kScale / 2;
    for (int i = 0; i < n; ++i) {
      if (text[i] == '.') {
        canvas.rect(x, y + 4 * kScale, x + kScale, y + 5 * kScale, colour);
        x += 2 * kScale;
      } else if (text[i] >= '0' && text[i] <= '9') {
        canvas.digit(x, y, text[i] - '0', kScale, colour);
        x += 4 * kScale;
      }
    }
  }

  float weight(std::size_t i) const { return items_[i]; }
  float value(std::size_t i) const { return items_[static_cast<std::size_t>(n_) + i]; }
  // The action mask's entry: not packed, and the weight fits the remaining budget.
  bool available(std::size_t i) const { return packed_[i] == 0 && weight(i) <= remaining_budget_; }

  int n_;
  float total_budget_;
  std::vector<float> items_;  // (2, num_items): the weights, then the values
  std::vector<std::uint8_t> packed_;
  float remaining_budget_ = 0.0f;
  Key state_key_{};
};

EnvSpec knapsack_spec(const Config& config) {
  const std::int64_t n = config.get_int_in("num_items", 1, kMaxItems);
  config.get_double_in("total_budget", 0.0, kMaxBudget);
  return EnvSpec{
      .obs =
          {
              ArraySpec{.name = "weights", .dtype = DType::kFloat32, .shape = {n}, .low = {0}, .high = {1}},
              ArraySpec{.name = "values", .dtype = DType::kFloat32, .shape = {n}, .low = {0}, .high = {1}},
              ArraySpec{.name = "packed_items", .dtype = DType::kBool, .shape = {n}, .low = {0}, .high = {1}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {n}, .low = {0}, .high = {1}},
          },
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0},
                          .high = {static_cast<double>(n - 1)}},
      .info = {ArraySpec{.name = "remaining_budget", .dtype = DType::kFloat32}},  // the State's, as EnvPool's info
      .render_width = 480,
      .render_height = 480,
      .render_fps = 5.0,
  };
}

std::unique_ptr<Env> make_knapsack(const Config& config) {
  knapsack_spec(config);  // checks the options
  return std::make_unique<Knapsack>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiKnapsack",
    .options =
        {
            {"num_items", std::int64_t{50}, "How many items (the default generator's num_items), 1..100000."},
            {"total_budget", 12.5, "The bag's capacity (the generator's total_budget, float32 in the env), "
                                   "0..1e9."},
        },
    .spec = knapsack_spec,
    .create = make_knapsack,
});

}  // namespace rlpool::jumanji
