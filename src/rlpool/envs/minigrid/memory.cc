// MiniGrid-Memory*: minigrid 3.2.0's MemoryEnv (envs/memory.py) and MiniGrid-RedBlueDoors-*
// (RedBlueDoorEnv, envs/redbluedoors.py).
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

class Memory final : public MiniGridEnv {
 public:
  explicit Memory(const Config& config)
      : MiniGridEnv(config, size_of(config), size_of(config), false), random_length_(config.get_bool("random_length")) {}

  static int size_of(const Config& config) {
    const int size = static_cast<int>(config.get_int_in("size", 7, 255));
    if (size % 2 != 1) throw std::invalid_argument("Memory: size must be odd, got " + std::to_string(size));
    return size;
  }

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    const int upper = h / 2 - 2;
    const int lower = h / 2 + 2;
    const int hallway_end = random_length_ ? rand_int(4, w - 2) : w - 3;
    for (int i = 1; i < 5; ++i) {
      grid.set(i, upper, Obj::wall());
      grid.set(i, lower, Obj::wall());
    }
    grid.set(4, upper + 1, Obj::wall());
    grid.set(4, lower - 1, Obj::wall());
    for (int i = 5; i < hallway_end; ++i) {
      grid.set(i, upper + 1, Obj::wall());
      grid.set(i, lower - 1, Obj::wall());
    }
    for (int j = 0; j < h; ++j) {
      if (j != h / 2) grid.set(hallway_end, j, Obj::wall());
      grid.set(hallway_end + 2, j, Obj::wall());
    }
    agent_pos = {rand_int(1, hallway_end + 1), h / 2};
    agent_dir = 0;
    static const std::vector<Type> kKinds = {Type::kKey, Type::kBall};
    const Type start_obj = rand_elem(kKinds);
    grid.set(1, h / 2 - 1, with_id(Obj::make(start_obj, Color::kGreen)));
    static const std::vector<std::pair<Type, Type>> kOthers = {{Type::kBall, Type::kKey}, {Type::kKey, Type::kBall}};
    const auto [other0, other1] = rand_elem(kOthers);
    const Pos pos0{hallway_end + 1, h / 2 - 2};
    const Pos pos1{hallway_end + 1, h / 2 + 2};
    grid.set(pos0, with_id(Obj::make(other0, Color::kGreen)));
    grid.set(pos1, with_id(Obj::make(other1, Color::kGreen)));
    if (start_obj == other0) {
      success_ = {pos0.x, pos0.y + 1};
      failure_ = {pos1.x, pos1.y - 1};
    } else {
      success_ = {pos1.x, pos1.y - 1};
      failure_ = {pos0.x, pos0.y + 1};
    }
    mission = "go to the matching object at the end of the hallway";
  }

  StepResult step_env(int action) override {
    if (action == kPickup) action = kToggle;
    StepResult r = base_step(action);
    if (agent_pos == success_) {
      r.reward = reward();
      r.terminated = true;
    }
    if (agent_pos == failure_) {
      r.reward = 0.0;
      r.terminated = true;
    }
    return r;
  }
  std::vector<std::int32_t> vars() const override { return {success_.x, success_.y, failure_.x, failure_.y}; }
  void set_vars(const std::vector<std::int32_t>& v) override {
    if (v.size() != 4) throw std::invalid_argument("minigrid state: Memory's variables are [success x, y, failure x, y]");
    success_ = {v[0], v[1]};
    failure_ = {v[2], v[3]};
  }

 private:
  bool random_length_;
  Pos success_, failure_;
};

class RedBlueDoors final : public MiniGridEnv {
 public:
  explicit RedBlueDoors(const Config& config)
      : MiniGridEnv(config, 2 * size_of(config), size_of(config), false), size_(size_of(config)) {}

  static int size_of(const Config& config) { return static_cast<int>(config.get_int_in("size", 4, 127)); }

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, 2 * size_, size_);
    grid.wall_rect(size_ / 2, 0, size_, size_);
    place_agent({size_ / 2, 0}, {size_, size_});
    red_ = {size_ / 2, rand_int(1, size_ - 1)};
    grid.set(red_, with_id(Obj::door(Color::kRed)));
    blue_ = {size_ / 2 + size_ - 1, rand_int(1, size_ - 1)};
    grid.set(blue_, with_id(Obj::door(Color::kBlue)));
    mission = "open the red door then the blue door";
  }

  StepResult step_env(int action) override {
    const bool red_before = grid.get(red_).is_open();
    const bool blue_before = grid.get(blue_).is_open();
    StepResult r = base_step(action);
    const bool red_after = grid.get(red_).is_open();
    const bool blue_after = grid.get(blue_).is_open();
    if (blue_after) {
      r.reward = red_before ? reward() : 0.0;
      r.terminated = true;
    } else if (red_after && blue_before) {
      r.reward = 0.0;
      r.terminated = true;
    }
    return r;
  }
  std::vector<std::int32_t> vars() const override { return {red_.x, red_.y, blue_.x, blue_.y}; }
  void set_vars(const std::vector<std::int32_t>& v) override {
    if (v.size() != 4 || !grid.in_bounds(v[0], v[1]) || !grid.in_bounds(v[2], v[3])) {
      throw std::invalid_argument("minigrid state: RedBlueDoors' variables are [red x, y, blue x, y] in the grid");
    }
    red_ = {v[0], v[1]};
    blue_ = {v[2], v[3]};
  }

 private:
  int size_;
  Pos red_, blue_;
};

}  // namespace

static const bool kMemory = register_minigrid({
    .name = "MiniGridMemory",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"size", std::int64_t{8}, "side of the square grid, walls included (odd)"});
          o.push_back({"random_length", false, "a hallway of random length"});
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<Memory>(),
});

static const bool kRedBlueDoors = register_minigrid({
    .name = "MiniGridRedBlueDoors",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"size", std::int64_t{8}, "height of the grid and side of the room (the grid is 2 * size wide)"});
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<RedBlueDoors>(),
});

}  // namespace rlpool::minigrid
