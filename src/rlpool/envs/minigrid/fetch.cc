// MiniGrid-Fetch-*: minigrid 3.2.0's FetchEnv (envs/fetch.py). Picking anything up ends the
// episode; the reward only for an object of the mission's colour and kind.
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

int size_of(const Config& config) { return static_cast<int>(config.get_int_in("size", 4, 255)); }

class Fetch final : public MiniGridEnv {
 public:
  explicit Fetch(const Config& config)
      : MiniGridEnv(config, size_of(config), size_of(config), true),
        num_objs_(static_cast<int>(config.get_int_in("numObjs", 1, 1 << 16))) {
    if (num_objs_ + 1 > (width - 2) * (height - 2)) throw std::invalid_argument("Fetch: numObjs does not fit the grid");
  }

  void gen_grid(int w, int h) override {
    static const std::vector<Type> kTypes = {Type::kKey, Type::kBall};
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    std::vector<Obj> objs;
    while (static_cast<int>(objs.size()) < num_objs_) {
      const Type t = rand_elem(kTypes);
      const Color c = rand_elem(kColorNames);
      const Obj obj = Obj::make(t, c);
      place_obj(obj);
      objs.push_back(obj);
    }
    place_agent();
    const Obj& target = objs[static_cast<std::size_t>(rand_int(0, static_cast<int>(objs.size())))];
    target_type_ = target.type;
    target_color_ = target.color;
    static constexpr const char* kSyntax[] = {"get a", "go get a", "fetch a", "go fetch a", "you must fetch a"};
    const int syntax = rand_int(0, 5);
    mission_id = (syntax * 6 + static_cast<int>(target_color_)) * 2 + (target_type_ == Type::kBall ? 1 : 0);
    mission = std::string(kSyntax[syntax]) + " " + color_name(target_color_) + " " + type_name(target_type_);
  }

  StepResult step_env(int action) override {
    StepResult r = base_step(action);
    if (!carrying.is_none()) {
      r.reward = carrying.is(target_type_, target_color_) ? reward() : 0.0;
      r.terminated = true;
    }
    return r;
  }

  std::vector<std::int32_t> vars() const override {
    return {static_cast<std::int32_t>(target_type_), static_cast<std::int32_t>(target_color_)};
  }
  void set_vars(const std::vector<std::int32_t>& v) override {
    if (v.size() != 2 || (v[0] != 5 && v[0] != 6) || v[1] < 0 || v[1] > 5) {
      throw std::invalid_argument("minigrid state: Fetch's variables are [target type (5 key, 6 ball), colour]");
    }
    target_type_ = static_cast<Type>(v[0]);
    target_color_ = static_cast<Color>(v[1]);
  }

 private:
  int num_objs_;
  Type target_type_ = Type::kKey;
  Color target_color_ = Color::kRed;
};

}  // namespace

static const bool kRegistered = register_minigrid({
    .name = "MiniGridFetch",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"size", std::int64_t{8}, "side of the square grid, walls included"});
          o.push_back({"numObjs", std::int64_t{3}, "keys and balls placed"});
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<Fetch>(),
});

}  // namespace rlpool::minigrid
