// MiniGrid-GoToDoor-* (minigrid 3.2.0's GoToDoorEnv, envs/gotodoor.py), MiniGrid-GoToObject-*
// (GoToObjectEnv, envs/gotoobject.py) and MiniGrid-PutNear-* (PutNearEnv, envs/putnear.py).
#include <cstdlib>

#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

int size_of(const Config& config, int low) { return static_cast<int>(config.get_int_in("size", low, 255)); }

// The variables of an env whose only one is a position.
std::vector<std::int32_t> pos_vars(Pos p) { return {p.x, p.y}; }
Pos load_pos_vars(const std::vector<std::int32_t>& v, const Grid& grid, const char* env) {
  if (v.size() != 2 || !grid.in_bounds(v[0], v[1])) {
    throw std::invalid_argument(std::string("minigrid state: ") + env + "'s variables are [target x, target y]");
  }
  return {v[0], v[1]};
}

// GoToDoor / GoToObject's step: toggle ends the episode; done ends it, with the reward next to the target.
MiniGridEnv::StepResult goto_step(MiniGridEnv& env, int action, Pos target) {
  MiniGridEnv::StepResult r = env.base_step(action);
  const Pos a = env.agent_pos;
  if (action == kToggle) r.terminated = true;
  if (action == kDone) {
    if ((a.x == target.x && std::abs(a.y - target.y) == 1) || (a.y == target.y && std::abs(a.x - target.x) == 1)) {
      r.reward = env.reward();
    }
    r.terminated = true;
  }
  return r;
}

class GoToDoor final : public MiniGridEnv {
 public:
  explicit GoToDoor(const Config& config) : MiniGridEnv(config, size_of(config, 5), size_of(config, 5), true) {}

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    const int rw = rand_int(5, w + 1);
    const int rh = rand_int(5, h + 1);
    grid.wall_rect(0, 0, rw, rh);
    std::vector<Pos> door_pos;
    door_pos.push_back({rand_int(2, rw - 2), 0});
    door_pos.push_back({rand_int(2, rw - 2), rh - 1});
    door_pos.push_back({0, rand_int(2, rh - 2)});
    door_pos.push_back({rw - 1, rand_int(2, rh - 2)});
    std::vector<Color> colors;
    while (colors.size() < door_pos.size()) {
      const Color c = rand_elem(kColorNames);
      if (std::find(colors.begin(), colors.end(), c) == colors.end()) colors.push_back(c);
    }
    for (std::size_t i = 0; i < door_pos.size(); ++i) grid.set(door_pos[i], with_id(Obj::door(colors[i])));
    place_agent({0, 0}, {rw, rh});
    const auto idx = static_cast<std::size_t>(rand_int(0, static_cast<int>(door_pos.size())));
    target_ = door_pos[idx];
    mission_id = static_cast<int>(colors[idx]);
    mission = std::string("go to the ") + color_name(colors[idx]) + " door";
  }
  StepResult step_env(int action) override { return goto_step(*this, action, target_); }
  std::vector<std::int32_t> vars() const override { return pos_vars(target_); }
  void set_vars(const std::vector<std::int32_t>& v) override { target_ = load_pos_vars(v, grid, "GoToDoor"); }

 private:
  Pos target_;
};

const std::vector<Type> kObjTypes = {Type::kKey, Type::kBall, Type::kBox};
// The object's index in minigrid's ["key", "ball", "box"] (EnvPool's mission_id).
int type_index(Type t) { return static_cast<int>(t) - static_cast<int>(Type::kKey); }

class GoToObject final : public MiniGridEnv {
 public:
  explicit GoToObject(const Config& config)
      : MiniGridEnv(config, size_of(config, 4), size_of(config, 4), true),
        num_objs_(static_cast<int>(config.get_int_in("numObjs", 1, 18))) {
    if (num_objs_ + 1 > (width - 2) * (height - 2)) throw std::invalid_argument("GoToObject: numObjs does not fit");
  }

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    std::vector<Obj> objs;
    std::vector<Pos> pos;
    while (static_cast<int>(objs.size()) < num_objs_) {
      const Obj obj = Obj::make(rand_elem(kObjTypes), rand_elem(kColorNames));
      if (std::any_of(objs.begin(), objs.end(), [&](const Obj& o) { return o.is(obj.type, obj.color); })) continue;
      pos.push_back(place_obj(obj));
      objs.push_back(obj);
    }
    place_agent();
    const auto idx = static_cast<std::size_t>(rand_int(0, static_cast<int>(objs.size())));
    target_ = pos[idx];
    mission_id = static_cast<int>(objs[idx].color) * 3 + type_index(objs[idx].type);
    mission = std::string("go to the ") + color_name(objs[idx].color) + " " + type_name(objs[idx].type);
  }
  StepResult step_env(int action) override { return goto_step(*this, action, target_); }
  std::vector<std::int32_t> vars() const override { return pos_vars(target_); }
  void set_vars(const std::vector<std::int32_t>& v) override { target_ = load_pos_vars(v, grid, "GoToObject"); }

 private:
  int num_objs_;
  Pos target_;
};

class PutNear final : public MiniGridEnv {
 public:
  explicit PutNear(const Config& config)
      : MiniGridEnv(config, size_of(config, 4), size_of(config, 4), true),
        num_objs_(static_cast<int>(config.get_int_in("numObjs", 2, 18))) {}

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    std::vector<Obj> objs;
    std::vector<Pos> pos;
    const RejectFn near_obj = [&pos](const MiniGridEnv&, Pos p) {
      return std::any_of(pos.begin(), pos.end(),
                         [p](Pos q) { return std::abs(p.x - q.x) <= 1 && std::abs(p.y - q.y) <= 1; });
    };
    while (static_cast<int>(objs.size()) < num_objs_) {
      const Obj obj = Obj::make(rand_elem(kObjTypes), rand_elem(kColorNames));
      if (std::any_of(objs.begin(), objs.end(), [&](const Obj& o) { return o.is(obj.type, obj.color); })) continue;
      pos.push_back(place_obj(obj, {0, 0}, {0, 0}, near_obj, 100000));
      objs.push_back(obj);
    }
    place_agent();
    const int n = static_cast<int>(objs.size());
    const int obj_idx = rand_int(0, n);
    int target_idx;
    do {
      target_idx = rand_int(0, n);
    } while (target_idx == obj_idx);
    const Obj& move = objs[static_cast<std::size_t>(obj_idx)];
    const Obj& target = objs[static_cast<std::size_t>(target_idx)];
    move_type_ = move.type;
    move_color_ = move.color;
    target_ = pos[static_cast<std::size_t>(target_idx)];
    mission_id = ((static_cast<int>(move.color) * 3 + type_index(move.type)) * 6 + static_cast<int>(target.color)) * 3 +
                 type_index(target.type);
    mission = std::string("put the ") + color_name(move.color) + " " + type_name(move.type) + " near the " +
              color_name(target.color) + " " + type_name(target.type);
  }

  StepResult step_env(int action) override {
    const Obj pre_carrying = carrying;
    StepResult r = base_step(action);
    const Pos o = front_pos();
    if (action == kPickup && !carrying.is_none() && !carrying.is(move_type_, move_color_)) r.terminated = true;
    if (action == kDrop && !pre_carrying.is_none()) {
      // minigrid: `grid.get(front) is preCarrying`, i.e. the drop happened.
      if (carrying.is_none() && grid.in_bounds(o) && std::abs(o.x - target_.x) <= 1 && std::abs(o.y - target_.y) <= 1) {
        r.reward = reward();
      }
      r.terminated = true;
    }
    return r;
  }
  std::vector<std::int32_t> vars() const override {
    return {static_cast<std::int32_t>(move_type_), static_cast<std::int32_t>(move_color_), target_.x, target_.y};
  }
  void set_vars(const std::vector<std::int32_t>& v) override {
    if (v.size() != 4 || v[0] < 5 || v[0] > 7 || v[1] < 0 || v[1] > 5 || !grid.in_bounds(v[2], v[3])) {
      throw std::invalid_argument("minigrid state: PutNear's variables are [move type, move colour, target x, target y]");
    }
    move_type_ = static_cast<Type>(v[0]);
    move_color_ = static_cast<Color>(v[1]);
    target_ = {v[2], v[3]};
  }

 private:
  int num_objs_;
  Type move_type_ = Type::kKey;
  Color move_color_ = Color::kRed;
  Pos target_;
};

std::vector<Option> size_options(int size, int num_objs) {
  auto o = common_options();
  o.push_back({"size", std::int64_t{size}, "side of the square grid, walls included"});
  if (num_objs > 0) o.push_back({"numObjs", std::int64_t{num_objs}, "objects placed"});
  return o;
}

}  // namespace

static const bool kGoToDoor = register_minigrid(
    {.name = "MiniGridGoToDoor", .options = size_options(5, 0), .spec = minigrid_spec, .create = make_env<GoToDoor>()});
static const bool kGoToObject = register_minigrid({.name = "MiniGridGoToObject",
                                                   .options = size_options(6, 2),
                                                   .spec = minigrid_spec,
                                                   .create = make_env<GoToObject>()});
static const bool kPutNear = register_minigrid(
    {.name = "MiniGridPutNear", .options = size_options(6, 2), .spec = minigrid_spec, .create = make_env<PutNear>()});

}  // namespace rlpool::minigrid
