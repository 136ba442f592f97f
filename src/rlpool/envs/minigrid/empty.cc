// MiniGrid-Empty-*: minigrid 3.2.0's EmptyEnv (envs/empty.py).
#include "minigrid_env.h"

namespace rlpool::minigrid {
namespace {

class Empty final : public MiniGridEnv {
 public:
  explicit Empty(const Config& config)
      : MiniGridEnv(config, size_of(config), size_of(config), /*see_through_walls=*/true),
        start_x_(static_cast<int>(config.get_int("agent_start_x"))),
        start_y_(static_cast<int>(config.get_int("agent_start_y"))),
        start_dir_(static_cast<int>(config.get_int_in("agent_start_dir", 0, 3))) {
    if ((start_x_ < 0) != (start_y_ < 0)) {
      throw std::invalid_argument("Empty: agent_start_x and agent_start_y must both be >= 0 or both -1 (random)");
    }
    if (start_x_ >= 0 && (start_x_ >= width - 1 || start_y_ >= height - 1 || start_x_ < 1 || start_y_ < 1)) {
      throw std::invalid_argument("Empty: the agent's start must be inside the walls");
    }
  }

  static int size_of(const Config& config) { return static_cast<int>(config.get_int_in("size", 3, 255)); }

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    put_obj(Obj::goal(), w - 2, h - 2);
    if (start_x_ >= 0) {
      agent_pos = {start_x_, start_y_};
      agent_dir = start_dir_;
    } else {
      place_agent();
    }
    mission = "get to the green goal square";
  }

 private:
  int start_x_, start_y_, start_dir_;
};

std::vector<Option> options() {
  auto o = common_options();
  o.push_back({"size", std::int64_t{8}, "side of the square grid, walls included"});
  o.push_back({"agent_start_x", std::int64_t{1}, "the agent's start column; -1 (with agent_start_y -1): random"});
  o.push_back({"agent_start_y", std::int64_t{1}, "the agent's start row; -1: random"});
  o.push_back({"agent_start_dir", std::int64_t{0}, "the agent's start direction (0 right, 1 down, 2 left, 3 up)"});
  return o;
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "MiniGridEmpty",
    .options = options(),
    .spec = minigrid_spec,
    .create = make_env<Empty>(),
});

}  // namespace rlpool::minigrid
