// BabyAI's verifier and level base: see babyai_instr.h.
#include "envs/minigrid/babyai_instr.h"

#include <algorithm>
#include <stdexcept>

namespace rlpool::minigrid::babyai {
namespace {

bool next_to(Pos a, Pos b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y) == 1; }
int dot(Pos a, Pos b) { return a.x * b.x + a.y * b.y; }
bool contains(const std::vector<std::uint8_t>& set, int id) {
  return id != 0 && std::find(set.begin(), set.end(), static_cast<std::uint8_t>(id)) != set.end();
}
int carried_id(const MiniGridEnv& env) { return env.carrying.is_none() ? 0 : env.carrying.id; }
// Where the object of this id is on the grid; (-1, -1) where it is not (carried):
// minigrid's obj.cur_pos of an object that is placed, picked up or dropped.
Pos where(const MiniGridEnv& env, int id) {
  for (int x = 0; x < env.grid.width; ++x) {
    for (int y = 0; y < env.grid.height; ++y) {
      if (env.grid.get(x, y).id == id) return {x, y};
    }
  }
  return {-1, -1};
}

}  // namespace

void ObjDesc::find_matching_objs(RoomGrid& env, bool use_location) {
  if (use_location) obj_set.clear();
  obj_poss.clear();
  const Room& agent_room = env.room_from_pos(env.agent_pos.x, env.agent_pos.y);
  const Pos d1 = env.dir_vec();
  const Pos d2{-d1.y, d1.x};
  for (int i = 0; i < env.grid.width; ++i) {
    for (int j = 0; j < env.grid.height; ++j) {
      const Obj& cell = env.grid.get(i, j);
      if (cell.is_none()) continue;
      // Objects without identity (walls: a description without a type) stay where they are: an id-0
      // member stands for every such cell that matches.
      if (!use_location && !(cell.id == 0 ? std::count(obj_set.begin(), obj_set.end(), 0) > 0
                                          : contains(obj_set, cell.id))) {
        continue;
      }
      if (type >= 0 && static_cast<int>(cell.type) != type) continue;
      if (color >= 0 && static_cast<int>(cell.color) != color) continue;
      if (use_location && loc != kNoLoc) {
        if (!agent_room.pos_inside(i, j)) continue;
        const Pos v{i - env.agent_pos.x, j - env.agent_pos.y};
        const bool match = loc == kLeft    ? dot(v, d2) < 0
                           : loc == kRight ? dot(v, d2) > 0
                           : loc == kFront ? dot(v, d1) > 0
                                           : dot(v, d1) < 0;
        if (!match) continue;
      }
      if (use_location) obj_set.push_back(cell.id);
      obj_poss.push_back({i, j});
    }
  }
}

std::string ObjDesc::surface(RoomGrid& env) {
  find_matching_objs(env);
  if (obj_set.empty()) throw std::logic_error("babyai: no object matching the description");
  std::string s = type >= 0 ? type_name(static_cast<Type>(type)) : "object";
  if (color >= 0) s = std::string(color_name(static_cast<Color>(color))) + " " + s;
  if (loc == kFront) {
    s += " in front of you";
  } else if (loc == kBehind) {
    s += " behind you";
  } else if (loc == kLeft) {
    s += " on your left";
  } else if (loc == kRight) {
    s += " on your right";
  }
  return (obj_set.size() > 1 ? "a " : "the ") + s;
}

int Instrs::add(Node node) {
  nodes.push_back(std::move(node));
  root = static_cast<int>(nodes.size()) - 1;
  return root;
}

int Instrs::action(Kind kind, const ObjDesc& desc, bool strict) {
  Node n;
  n.kind = kind;
  n.desc = desc;
  n.strict = strict;
  return add(std::move(n));
}

int Instrs::put_next(const ObjDesc& move, const ObjDesc& fixed, bool strict) {
  Node n;
  n.kind = Kind::kPutNext;
  n.desc = move;
  n.desc_fixed = fixed;
  n.strict = strict;
  return add(std::move(n));
}

int Instrs::seq(Kind kind, int a, int b, bool strict) {
  Node n;
  n.kind = kind;
  n.a = a;
  n.b = b;
  n.strict = strict;
  return add(std::move(n));
}

std::string Instrs::surface(RoomGrid& env, int n) {
  if (n < 0) n = root;

  Node& node = nodes.at(static_cast<std::size_t>(n));
  switch (node.kind) {
    case Kind::kGoTo: return "go to " + node.desc.surface(env);
    case Kind::kPickup: return "pick up " + node.desc.surface(env);
    case Kind::kOpen: return "open " + node.desc.surface(env);
    case Kind::kPutNext: {
      std::string s = "put " + node.desc.surface(env);
      return s + " next to " + nodes[static_cast<std::size_t>(n)].desc_fixed.surface(env);
    }
    case Kind::kBefore: {
      std::string s = surface(env, node.a);
      return s + ", then " + surface(env, nodes[static_cast<std::size_t>(n)].b);
    }
    case Kind::kAfter: {
      std::string s = surface(env, node.a);
      return s + " after you " + surface(env, nodes[static_cast<std::size_t>(n)].b);
    }
    case Kind::kAnd: {
      std::string s = surface(env, node.a);
      return s + " and " + surface(env, nodes[static_cast<std::size_t>(n)].b);
    }
  }
  throw std::logic_error("babyai: bad instruction kind");
}

void Instrs::reset_verifier(RoomGrid& env, int n) {
  if (n < 0) n = root;

  Node& node = nodes.at(static_cast<std::size_t>(n));
  if (node.is_seq()) {
    node.a_done = kFalse;
    node.b_done = kFalse;
    const int a = node.a, b = node.b;
    reset_verifier(env, a);
    reset_verifier(env, b);
    return;
  }
  node.pre_carrying = 0;
  node.desc.find_matching_objs(env);
  if (node.kind == Kind::kPutNext) node.desc_fixed.find_matching_objs(env);
}

void Instrs::update_objs_poss(RoomGrid& env, int n) {
  if (n < 0) n = root;

  Node& node = nodes.at(static_cast<std::size_t>(n));
  if (node.is_seq()) {
    const int a = node.a, b = node.b;
    update_objs_poss(env, a);
    update_objs_poss(env, b);
    return;
  }
  node.desc.find_matching_objs(env, false);
  if (node.kind == Kind::kPutNext) node.desc_fixed.find_matching_objs(env, false);
}

int Instrs::num_navs_needed(int n) const {
  if (n < 0) n = root;

  const Node& node = nodes.at(static_cast<std::size_t>(n));
  if (node.kind == Kind::kPutNext) return 2;
  if (!node.is_seq()) return 1;
  return num_navs_needed(node.a) + num_navs_needed(node.b);
}

bool Instrs::objs_next(RoomGrid& env, int n) const {
  const Node& node = nodes.at(static_cast<std::size_t>(n));
  for (const std::uint8_t id : node.desc.obj_set) {
    const Pos a = where(env, id);
    for (const Pos b : node.desc_fixed.obj_poss) {
      if (next_to(a, b)) return true;
    }
  }
  return false;
}

Status Instrs::verify_action(RoomGrid& env, int action, Node& node) {
  switch (node.kind) {
    case Kind::kGoTo: {
      const Pos f = env.front_pos();
      for (const Pos p : node.desc.obj_poss) {
        if (p == f) return kSuccess;
      }
      return kContinue;
    }
    case Kind::kOpen: {
      if (action != kToggle) return kContinue;
      const Obj front = env.front_cell();
      if (!front.is_none() && front.type == Type::kDoor && front.is_open() && contains(node.desc.obj_set, front.id)) {
        return kSuccess;
      }
      if (node.strict && front.type == Type::kDoor) return kFailure;
      return kContinue;
    }
    case Kind::kPickup: {
      const int pre = node.pre_carrying;
      const int now = carried_id(env);
      node.pre_carrying = now;
      if (action != kPickup) return kContinue;
      if (pre == 0 && contains(node.desc.obj_set, now)) return kSuccess;
      if (node.strict && now != 0) return kFailure;
      return kContinue;
    }
    case Kind::kPutNext: {
      const int pre = node.pre_carrying;
      node.pre_carrying = carried_id(env);
      if (node.strict && action == kPickup && carried_id(env) != 0) return kFailure;
      if (action != kDrop) return kContinue;
      if (!contains(node.desc.obj_set, pre)) return kContinue;
      const Pos a = carried_id(env) == pre ? Pos{-1, -1} : where(env, pre);
      for (const Pos b : node.desc_fixed.obj_poss) {
        if (next_to(a, b)) return kSuccess;
      }
      return kContinue;
    }
    default: break;
  }
  throw std::logic_error("babyai: verify_action of a sequence");
}

// BeforeInstr (first a, then b) and AfterInstr (first b, then a): a strict
// sequence fails where the second part succeeds first.
Status Instrs::ordered(RoomGrid& env, int action, int n, int first, int second, Status& first_done,
                       Status& second_done) {
  if (first_done == kSuccess) {
    second_done = verify(env, action, second);
    return second_done == kContinue ? kContinue : second_done;
  }
  first_done = verify(env, action, first);
  if (first_done == kFailure) return kFailure;
  if (first_done == kSuccess) return verify(env, action, n);
  if (nodes[static_cast<std::size_t>(n)].strict && verify(env, action, second) == kSuccess) return kFailure;
  return kContinue;
}

Status Instrs::verify(RoomGrid& env, int action, int n) {
  if (n < 0) n = root;

  Node* node = &nodes.at(static_cast<std::size_t>(n));
  if (!node->is_seq()) return verify_action(env, action, *node);
  const int a = node->a, b = node->b;
  // Children are other elements of `nodes` (never reallocated here): node stays valid.
  switch (node->kind) {
    case Kind::kBefore: return ordered(env, action, n, a, b, node->a_done, node->b_done);
    case Kind::kAfter: return ordered(env, action, n, b, a, node->b_done, node->a_done);
    default:  // kAnd
      if (node->a_done != kSuccess) node->a_done = verify(env, action, a);
      if (node->b_done != kSuccess) node->b_done = verify(env, action, b);
      if (node->a_done == kSuccess && node->b_done == kSuccess) return kSuccess;
      return kContinue;
  }
}

// --- State: the tree as int32s --------------------------------------------------
// node: kind, strict, a_done, b_done, pre_carrying, then a sequence's two
// subtrees, or an action's description(s):
//   type, colour, loc, n, n ids, m, m x (x, y)

namespace {
void pack_desc(const ObjDesc& d, std::vector<std::int32_t>& out) {
  out.insert(out.end(), {d.type, d.color, d.loc, static_cast<std::int32_t>(d.obj_set.size())});
  for (auto id : d.obj_set) out.push_back(id);
  out.push_back(static_cast<std::int32_t>(d.obj_poss.size()));
  for (Pos p : d.obj_poss) out.insert(out.end(), {p.x, p.y});
}

[[noreturn]] void bad(const std::string& what) {
  throw std::invalid_argument("babyai state: bad instruction variables (" + what + ")");
}

std::int32_t take(const std::vector<std::int32_t>& v, std::size_t& pos, std::int32_t lo, std::int32_t hi,
                  const char* what) {
  if (pos >= v.size()) bad(std::string("ends inside ") + what);
  const std::int32_t x = v[pos++];
  if (x < lo || x > hi) bad(std::string(what) + " out of range");
  return x;
}

ObjDesc unpack_desc(const std::vector<std::int32_t>& v, std::size_t& pos) {
  ObjDesc d;
  d.type = take(v, pos, -1, static_cast<int>(Type::kAgent), "type");
  d.color = take(v, pos, -1, static_cast<int>(Color::kGrey), "colour");
  d.loc = take(v, pos, -1, kBehind, "location");
  const int n = take(v, pos, 0, 4096, "object count");
  for (int k = 0; k < n; ++k) d.obj_set.push_back(static_cast<std::uint8_t>(take(v, pos, 0, 255, "object id")));
  const int m = take(v, pos, 0, 4096, "position count");
  for (int k = 0; k < m; ++k) {
    const int x = take(v, pos, -1, 255, "x");
    d.obj_poss.push_back({x, take(v, pos, -1, 255, "y")});
  }
  return d;
}
}  // namespace

void Instrs::pack_node(int n, std::vector<std::int32_t>& out) const {
  const Node& node = nodes.at(static_cast<std::size_t>(n));
  out.insert(out.end(), {static_cast<std::int32_t>(node.kind), node.strict ? 1 : 0, node.a_done, node.b_done,
                         node.pre_carrying});
  if (node.is_seq()) {
    pack_node(node.a, out);
    pack_node(node.b, out);
    return;
  }
  pack_desc(node.desc, out);
  if (node.kind == Kind::kPutNext) pack_desc(node.desc_fixed, out);
}

std::vector<std::int32_t> Instrs::pack() const {
  std::vector<std::int32_t> out;
  if (!nodes.empty()) pack_node(root, out);
  return out;
}

int Instrs::unpack_node(const std::vector<std::int32_t>& v, std::size_t& pos, int depth) {
  if (depth > 16) bad("nested too deep");
  Node node;
  node.kind = static_cast<Kind>(take(v, pos, 0, 6, "kind"));
  node.strict = take(v, pos, 0, 1, "strict") != 0;
  node.a_done = static_cast<Status>(take(v, pos, 0, 3, "a_done"));
  node.b_done = static_cast<Status>(take(v, pos, 0, 3, "b_done"));
  node.pre_carrying = take(v, pos, 0, 255, "pre_carrying");
  const int n = add(node);
  if (node.is_seq()) {
    const int a = unpack_node(v, pos, depth + 1);
    const int b = unpack_node(v, pos, depth + 1);
    nodes[static_cast<std::size_t>(n)].a = a;
    nodes[static_cast<std::size_t>(n)].b = b;
  } else {
    ObjDesc d = unpack_desc(v, pos);
    nodes[static_cast<std::size_t>(n)].desc = std::move(d);
    if (node.kind == Kind::kPutNext) {
      ObjDesc f = unpack_desc(v, pos);
      nodes[static_cast<std::size_t>(n)].desc_fixed = std::move(f);
    }
  }
  return n;
}

Instrs Instrs::unpack(const std::vector<std::int32_t>& v) {
  Instrs out;
  std::size_t pos = 0;
  out.unpack_node(v, pos, 0);
  out.root = 0;
  if (pos != v.size()) bad("trailing values");
  return out;
}

// --- Level ------------------------------------------------------------------------

std::vector<Option> level_options() {
  auto o = common_options();
  o.push_back({"per_episode_max_steps", false,
               "max_steps from each episode's instruction (BabyAI's default: navigations needed x room area x "
               "rooms); set when max_steps is not given"});
  return o;
}

std::vector<Option> level_options(std::vector<Option> extra) {
  auto o = level_options();
  o.insert(o.end(), extra.begin(), extra.end());
  return o;
}

int int_opt(const Config& c, const char* name, int low, int high) {
  return static_cast<int>(c.get_int_in(name, low, high));
}

int color_opt(const Config& c, const char* name) {
  const std::string& v = c.get_string(name);
  if (v.empty()) return -1;
  for (Color k : kColorNames) {
    if (v == color_name(k)) return static_cast<int>(k);
  }
  throw std::invalid_argument(std::string("option '") + name + "' must be '' or a colour name, got '" + v + "'");
}

std::vector<Obj> room_doors(Level& level) {
  std::vector<Obj> doors;
  for (int i = 0; i < level.num_cols; ++i) {
    for (int j = 0; j < level.num_rows; ++j) {
      const Room& room = level.get_room(i, j);
      for (std::size_t k = 0; k < 4; ++k) {
        if (room.doors[k] == Room::kDoorLink) doors.push_back(level.grid.get(*room.door_pos[k]));
      }
    }
  }
  return doors;
}

Level::Level(const Config& config, int room_size, int num_rows, int num_cols)
    : RoomGrid(config, room_size, num_rows, num_cols),
      per_episode_max_steps_(config.get_bool("per_episode_max_steps")) {}

void Level::gen_grid(int w, int h) {
  RoomGrid::gen_grid(w, h);
  instrs.clear();
  gen_mission();
  validate_instrs();
  mission = instrs.surface(*this);
}

void Level::after_reset() {
  mission_id = -1;  // EnvPool's BabyAI tasks have no mission index
  instrs.reset_verifier(*this);
  if (per_episode_max_steps_) max_steps = instrs.num_navs_needed() * room_size * room_size * num_rows * num_cols;
  after_verifier();
}

MiniGridEnv::StepResult Level::step_env(int action) {
  StepResult r = base_step(action);
  if (action == kDrop) instrs.update_objs_poss(*this);
  const Status status = instrs.verify(*this, action);
  if (status == kSuccess) {
    r.terminated = true;
    r.reward = reward();
  } else if (status == kFailure) {
    r.terminated = true;
    r.reward = 0.0;
  }
  return r;
}

void Level::set_vars(const std::vector<std::int32_t>& v) { instrs = Instrs::unpack(v); }

void Level::validate_instrs(int n) {
  if (n < 0) n = instrs.root;

  std::vector<int> locked_colors;
  if (unblocking) {
    for (int i = 0; i < num_cols; ++i) {
      for (int j = 0; j < num_rows; ++j) {
        const Room& room = get_room(i, j);
        for (std::size_t k = 0; k < 4; ++k) {
          if (room.doors[k] == Room::kDoorLink && grid.get(*room.door_pos[k]).is_locked()) {
            locked_colors.push_back(static_cast<int>(grid.get(*room.door_pos[k]).color));
          }
        }
      }
    }
  }
  Node& node = instrs.nodes.at(static_cast<std::size_t>(n));
  if (node.is_seq()) {
    const int a = node.a, b = node.b;
    validate_instrs(a);
    validate_instrs(b);
    return;
  }
  if (node.kind == Kind::kPutNext) {
    instrs.reset_verifier(*this, n);
    for (auto id : node.desc.obj_set) {
      if (contains(node.desc_fixed.obj_set, id)) throw RejectSampling("objects match both sides of PutNext");
    }
    if (instrs.objs_next(*this, n)) throw RejectSampling("objs already next to each other");
  }
  if (!unblocking) return;
  const auto key_of_locked = [&](const ObjDesc& d) {
    return d.type == static_cast<int>(Type::kKey) &&
           std::find(locked_colors.begin(), locked_colors.end(), d.color) != locked_colors.end();
  };
  if (key_of_locked(node.desc) || (node.kind == Kind::kPutNext && key_of_locked(node.desc_fixed))) {
    throw RejectSampling("cannot do anything with/to a key that can be used to open a door");
  }
}

void Level::open_all_doors() {
  for (int i = 0; i < num_cols; ++i) {
    for (int j = 0; j < num_rows; ++j) {
      const Room& room = get_room(i, j);
      for (std::size_t k = 0; k < 4; ++k) {
        if (room.doors[k] == Room::kDoorLink) grid.at(*room.door_pos[k]).state = kOpen;
      }
    }
  }
}

bool Level::check_objs_reachable(bool raise_exc) {
  std::vector<char> reach(static_cast<std::size_t>(grid.width * grid.height), 0);
  std::vector<Pos> stack = {agent_pos};
  while (!stack.empty()) {
    const Pos p = stack.back();
    stack.pop_back();
    if (!grid.in_bounds(p)) continue;
    char& seen = reach[static_cast<std::size_t>(p.y * grid.width + p.x)];
    if (seen) continue;
    seen = 1;
    const Obj& cell = grid.get(p);
    if (!cell.is_none() && cell.type != Type::kDoor) continue;
    stack.insert(stack.end(), {{p.x + 1, p.y}, {p.x - 1, p.y}, {p.x, p.y + 1}, {p.x, p.y - 1}});
  }
  for (int x = 0; x < grid.width; ++x) {
    for (int y = 0; y < grid.height; ++y) {
      const Obj& cell = grid.get(x, y);
      if (cell.is_none() || cell.type == Type::kWall) continue;
      if (!reach[static_cast<std::size_t>(y * grid.width + x)]) {
        if (!raise_exc) return false;
        throw RejectSampling("unreachable object");
      }
    }
  }
  return true;
}

Pos Level::place_agent_in_room(std::optional<int> i, std::optional<int> j, bool rand_dir) {
  const int ii = i ? *i : rand_int(0, num_cols);
  const int jj = j ? *j : rand_int(0, num_rows);
  const Room room = get_room(ii, jj);
  for (int tries = 0;; ++tries) {
    if (tries >= 10000) throw RejectSampling("every free cell of the agent's room faces an object");
    MiniGridEnv::place_agent(room.top, room.size, rand_dir, 1000);
    const Obj front = front_cell();
    if (front.is_none() || front.type == Type::kWall) return agent_pos;
  }
}

std::pair<Obj, int> Level::add_locked_room_with_key() {
  const int id = rand_int(0, num_cols);
  const int jd = rand_int(0, num_rows);
  const Obj door = add_door(id, jd, std::nullopt, std::nullopt, true).first;
  while (true) {
    const int ik = rand_int(0, num_cols);
    const int jk = rand_int(0, num_rows);
    if (ik == id && jk == jd) continue;
    add_object(ik, jk, Type::kKey, door.color);
    break;
  }
  return {door, room_index(get_room(id, jd))};
}

void Level::place_agent_outside(int room) {
  while (true) {
    place_agent_in_room();
    if (room_index(room_from_pos(agent_pos.x, agent_pos.y)) != room) break;
  }
}

Obj& Level::obj_by_id(std::uint8_t id) {
  for (Obj& o : grid.cells()) {
    if (o.id == id && !o.is_none()) return o;
  }
  throw std::logic_error("babyai: no object of that id on the grid");
}

}  // namespace rlpool::minigrid::babyai
