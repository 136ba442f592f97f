// MiniGrid-Empty-*: minigrid 3.2.0's EmptyEnv (envs/empty.py).
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

class Empty final : public MiniGridEnv {
 public:
  explicit Empty(const Config& config)
      : MiniGridEnv(config, size_of(config), size_of(config), /*see_through_walls=*/true), start_(config) {
    start_.check(width, height);
  }

  static int size_of(const Config& config) { return static_cast<int>(config.get_int_in("size", 3, 255)); }

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    put_obj(Obj::goal(), w - 2, h - 2);
    start_.place(*this);
    mission = "get to the green goal square";
  }

 private:
  StartPos start_;
};

std::vector<Option> options() {
  auto o = common_options();
  o.push_back({"size", std::int64_t{8}, "side of the square grid, walls included"});
  for (auto& s : StartPos::options()) o.push_back(s);
  return o;
}

}  // namespace

static const bool kRegistered = register_minigrid({
    .name = "MiniGridEmpty",
    .options = options(),
    .spec = minigrid_spec,
    .create = make_env<Empty>(),
});

}  // namespace rlpool::minigrid
