// Jumanji's BinPack (BinPack-v2): 3-D bin packing of one container with
// Empty Maximal Spaces (EMS), as jumanji 1.1.2 writes it, with its default
// generator RandomGenerator(max_num_items=20, max_num_ems=40,
// split_num_same_items=2) and DenseReward.
//
// Follows jumanji/environments/packing/bin_pack/:
// - generator.py RandomGenerator (lines 546-844): _generate_solved_instance,
//   _split_container_into_items_spaces (the while loop), _split_space_into_sub_spaces,
//   _split_along_axis, _split_item_once, _split_item_multiple_times, with the
//   same jax.random calls in the same order; Generator._unpack_items (126-133).
// - env.py BinPack: reset and step (257-337), _make_observation_and_extras,
//   _get_extras, _normalize_ems_and_items, _get_set_of_largest_ems,
//   _get_action_mask (376-511), _pack_item, _update_ems,
//   _get_intersections_dict, _add_ems (513-670).
// - space.py Space (intersection, is_empty, is_included, hyperplane) and
//   types.py (item_fits_in_item, item_volume); reward.py DenseReward.
//
// - render: viewer.py BinPackViewer (l.131-245): jumanji draws the container
//   and the placed items as 3-D boxes. The render_mode="rgb_array" picture is
//   their view from above instead, 480 x 480 on white, with the viewer's x
//   and y axes limits (the container's length less and plus 5 %) filling the
//   frame, x right, y up: the container's floor (242, 255, 255) (jumanji's
//   cyan at alpha 0.05 on white) with a black 1 px edge, then each placed
//   item's footprint with a black 1 px edge around plt.get_cmap("hsv",
//   max_num_items)(item) (jumanji_colormap.h; opaque, jumanji's alpha is
//   0.3), the items in order of their top (z + z_len), then of index, so that
//   what is seen from above is on top.
//
// The EMS bookkeeping works on fixed buffers sized once per env (no
// allocation in a step). jumanji's intersections with the half-infinite
// hyperplanes are float32 where a bound is infinite; every finite coordinate
// is an integer below 2**24, so they are the same integers here. Volumes,
// the observation's normalisation and the rewards are float32, in jumanji's
// order of operations.
//
// State bytes (after the env's key, see jumanji_env.h): jumanji's State
// fields, little-endian: container (x1, x2, y1, y2, z1, z2: 6 int32), ems
// (x1[M], x2[M], y1[M], y2[M], z1[M], z2[M] int32), ems_mask (M uint8),
// items (x_len[N], y_len[N], z_len[N] int32), items_mask (N uint8),
// items_placed (N uint8), items_location (x[N], y[N], z[N] int32), key (2
// uint32, key_data's words), with M = max_num_ems and N = max_num_items.
// The State's action_mask and sorted_ems_indexes follow from these (jumanji
// computes them from the same fields at every observation) and are rebuilt
// on load.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envs/jumanji/jumanji_colormap.h"
#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

// generator.py TWENTY_FOOT_DIMS: the 20-foot container, in millimetres.
constexpr std::array<std::int32_t, 3> kContainerDims = {5870, 2330, 2200};

// A space.py Space with int32 coordinates.
struct Box {
  std::int32_t x1 = 0, x2 = 0, y1 = 0, y2 = 0, z1 = 0, z2 = 0;

  bool is_empty() const { return x1 >= x2 || y1 >= y2 || z1 >= z2; }
  // Space.is_included: this box lies inside `o`.
  bool is_included(const Box& o) const {
    return x1 >= o.x1 && x2 <= o.x2 && y1 >= o.y1 && y2 <= o.y2 && z1 >= o.z1 && z2 <= o.z2;
  }
  // Space.intersect: the intersection is not empty.
  bool intersects(const Box& o) const {
    return std::max(x1, o.x1) < std::min(x2, o.x2) && std::max(y1, o.y1) < std::min(y2, o.y2) &&
           std::max(z1, o.z1) < std::min(z2, o.z2);
  }
  // Space.volume: float32, (x * y) * z.
  float volume() const {
    return static_cast<float>(x2 - x1) * static_cast<float>(y2 - y1) * static_cast<float>(z2 - z1);
  }
  std::int32_t lo(int axis) const { return axis == 0 ? x1 : axis == 1 ? y1 : z1; }
  std::int32_t hi(int axis) const { return axis == 0 ? x2 : axis == 1 ? y2 : z2; }
  void set_lo(int axis, std::int32_t v) { (axis == 0 ? x1 : axis == 1 ? y1 : z1) = v; }
  void set_hi(int axis, std::int32_t v) { (axis == 0 ? x2 : axis == 1 ? y2 : z2) = v; }
};

// The largest max_num_items and max_num_ems.
constexpr int kMaxBuffer = 1000;

// jnp.array(x, jnp.int32) of a float32 x: truncation toward zero.
std::int32_t to_int32(float x) { return static_cast<std::int32_t>(x); }

struct Options {
  int max_num_items;
  int max_num_ems;
  float split_eps;
  float prob_split_one_item;
  int split_num_same_items;
  int obs_num_ems;
  bool normalize_dimensions;
};

Options read_options(const Config& c) {
  Options o{};
  o.max_num_items = static_cast<int>(c.get_int_in("max_num_items", 1, kMaxBuffer));
  o.max_num_ems = static_cast<int>(c.get_int_in("max_num_ems", 1, kMaxBuffer));
  o.split_eps = static_cast<float>(c.get_double_in("split_eps", 0.0, 0.5));
  o.prob_split_one_item = static_cast<float>(c.get_double_in("prob_split_one_item", 0.0, 1.0));
  o.split_num_same_items = static_cast<int>(c.get_int_in("split_num_same_items", 1, o.max_num_items));
  o.obs_num_ems = static_cast<int>(c.get_int_in("obs_num_ems", 1, o.max_num_ems));
  o.normalize_dimensions = c.get_bool("normalize_dimensions");
  return o;
}

constexpr std::array<const char*, 6> kEmsNames = {"ems.x1", "ems.x2", "ems.y1", "ems.y2", "ems.z1", "ems.z2"};
constexpr std::array<const char*, 3> kItemNames = {"items.x_len", "items.y_len", "items.z_len"};

EnvSpec bin_pack_spec(const Config& c) {
  const Options o = read_options(c);
  const double max_dim = *std::max_element(kContainerDims.begin(), kContainerDims.end());
  const DType coord = o.normalize_dimensions ? DType::kFloat32 : DType::kInt32;
  const double high = o.normalize_dimensions ? 1.0 : max_dim;
  EnvSpec spec;
  spec.obs_kind = ObsKind::kDict;
  for (const char* name : kEmsNames) {
    spec.obs.push_back({.name = name, .dtype = coord, .shape = {o.obs_num_ems}, .low = {0.0}, .high = {high}});
  }
  spec.obs.push_back({.name = "ems_mask", .dtype = DType::kBool, .shape = {o.obs_num_ems}, .low = {0}, .high = {1}});
  for (const char* name : kItemNames) {
    spec.obs.push_back({.name = name, .dtype = coord, .shape = {o.max_num_items}, .low = {0.0}, .high = {high}});
  }
  for (const char* name : {"items_mask", "items_placed"}) {
    spec.obs.push_back({.name = name, .dtype = DType::kBool, .shape = {o.max_num_items}, .low = {0}, .high = {1}});
  }
  spec.obs.push_back({.name = "action_mask",
                      .dtype = DType::kBool,
                      .shape = {o.obs_num_ems, o.max_num_items},
                      .low = {0},
                      .high = {1}});
  spec.action = {.name = "action",
                 .dtype = DType::kInt64,
                 .shape = {2},
                 .low = {0, 0},
                 .high = {double(o.obs_num_ems - 1), double(o.max_num_items - 1)}};
  spec.render_width = spec.render_height = 480;
  spec.render_fps = 5.0;
  spec.info = {{.name = "volume_utilization", .dtype = DType::kFloat32},
               {.name = "packed_items", .dtype = DType::kInt32},
               {.name = "ratio_packed_items", .dtype = DType::kFloat32},
               {.name = "active_ems", .dtype = DType::kInt32},
               {.name = "invalid_action", .dtype = DType::kBool}};
  return spec;
}

// env.py _get_intersections_dict's directions, in its order: x lower, x upper, y lower, ...
constexpr int kDirections = 6;

class BinPack final : public JumanjiEnv {
 public:
  explicit BinPack(const Config& config)
      : o_(read_options(config)),
        n_(static_cast<std::size_t>(o_.max_num_items)),
        m_(static_cast<std::size_t>(o_.max_num_ems)),
        obs_(static_cast<std::size_t>(o_.obs_num_ems)),
        ems_(m_),
        ems_mask_(m_),
        items_(n_),
        items_mask_(n_),
        placed_(n_),
        location_(n_),
        sorted_(m_),
        action_mask_(obs_ * n_),
        inter_(kDirections * m_),
        inter_mask_(kDirections * m_),
        kept_(m_),
        active_(kDirections * m_),
        removed_at_(kDirections * m_),
        piece_volume_(kDirections * m_),
        sort_key_(m_),
        spaces_(n_) {
    container_ = Box{0, kContainerDims[0], 0, kContainerDims[1], 0, kContainerDims[2]};
  }

 protected:
  void new_episode(Key key) override {
    // _generate_solved_instance: key, split_key = split(key); the State keeps `key`.
    const auto [next, split_key] = jax_random::split2(key);
    state_key_ = next;
    split_container(split_key);
    for (std::size_t i = 0; i < n_; ++i) {
      const Box& s = spaces_[i];
      items_[i] = {s.x2 - s.x1, s.y2 - s.y1, s.z2 - s.z1};
      placed_[i] = 0;  // _unpack_items
      location_[i] = {0, 0, 0};
    }
    std::fill(ems_.begin(), ems_.end(), Box{});
    ems_[0] = container_;
    std::fill(ems_mask_.begin(), ems_mask_.end(), std::uint8_t{0});
    ems_mask_[0] = 1;
    invalid_ = false;
    refresh();
  }

  Outcome play(const Action& action, double* rewards) override {
    const std::int64_t obs_ems_id = action.discrete(0);
    const std::int64_t item_id = action.discrete(1);
    if (obs_ems_id < 0 || obs_ems_id >= o_.obs_num_ems || item_id < 0 || item_id >= o_.max_num_items) {
      throw std::invalid_argument("BinPack's action [" + std::to_string(obs_ems_id) + ", " + std::to_string(item_id) +
                                  "] is out of range");
    }
    const auto e = static_cast<std::size_t>(obs_ems_id);
    const auto i = static_cast<std::size_t>(item_id);
    const bool valid = action_mask_[e * n_ + i] != 0;
    if (valid) {  // _pack_item: at the chosen EMS's bottom-left corner
      const Box& ems = ems_[static_cast<std::size_t>(sorted_[e])];
      location_[i] = {ems.x1, ems.y1, ems.z1};
      placed_[i] = 1;
      update_ems(i);
    }
    refresh();
    const bool any = std::memchr(action_mask_.data(), 1, action_mask_.size()) != nullptr;
    invalid_ = !valid;
    // DenseReward: the packed item's volume over the container's, 0 for an invalid action.
    const float reward = valid ? item_volume(i) / container_.volume() : 0.0f;
    rewards[0] = reward;
    return Outcome{.terminated = !any || !valid, .truncated = false};
  }

  void observe(const Output& out) const override {
    const std::array<std::int32_t, 3> dims = {container_.x2 - container_.x1, container_.y2 - container_.y1,
                                              container_.z2 - container_.z1};
    std::array<std::int32_t, kMaxBuffer> row;  // one entry's values, staged
    for (int f = 0; f < 6; ++f) {
      const int axis = f / 2;
      const auto entry = static_cast<std::size_t>(f);
      const std::int32_t dim = dims[static_cast<std::size_t>(axis)];
      for (std::size_t e = 0; e < obs_; ++e) {
        const Box& b = ems_[static_cast<std::size_t>(sorted_[e])];
        row[e] = f % 2 == 0 ? b.lo(axis) : b.hi(axis);
      }
      put_coords(out, entry, row.data(), obs_, dim);
    }
    bool* ems_mask = out.obs_as<bool>(6);
    for (std::size_t e = 0; e < obs_; ++e) ems_mask[e] = ems_mask_[static_cast<std::size_t>(sorted_[e])] != 0;
    for (std::size_t a = 0; a < 3; ++a) {
      for (std::size_t i = 0; i < n_; ++i) row[i] = items_[i][a];
      put_coords(out, 7 + a, row.data(), n_, dims[a]);
    }
    // The flags are bytes 0 or 1, as a bool's.
    std::memcpy(out.obs_as<bool>(10), items_mask_.data(), n_);
    std::memcpy(out.obs_as<bool>(11), placed_.data(), n_);
    std::memcpy(out.obs_as<bool>(12), action_mask_.data(), action_mask_.size());

    // _get_extras
    float items_volume = 0.0f;
    std::int32_t packed = 0, valid_items = 0, active = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      items_volume += item_volume(i) * (placed_[i] ? 1.0f : 0.0f);
      packed += placed_[i];
      valid_items += items_mask_[i];
    }
    for (std::uint8_t m : ems_mask_) active += m;
    *out.info_as<float>(0) = items_volume / container_.volume();
    *out.info_as<std::int32_t>(1) = packed;
    *out.info_as<float>(2) = static_cast<float>(packed) / static_cast<float>(valid_items);
    *out.info_as<std::int32_t>(3) = active;
    *out.info_as<bool>(4) = invalid_;
  }

  void render(const Frame& frame) override { draw(Canvas(frame)); }

  std::string save() const override {
    std::string bytes;
    const std::array<std::int32_t, 6> container = {container_.x1, container_.x2, container_.y1,
                                                   container_.y2, container_.z1, container_.z2};
    append(bytes, container.data(), sizeof(container));
    for (int f = 0; f < 6; ++f) {
      for (const Box& b : ems_) append(bytes, f % 2 == 0 ? b.lo(f / 2) : b.hi(f / 2));
    }
    append(bytes, ems_mask_.data(), m_);
    for (std::size_t a = 0; a < 3; ++a) {
      for (const auto& item : items_) append(bytes, item[a]);
    }
    append(bytes, items_mask_.data(), n_);
    append(bytes, placed_.data(), n_);
    for (std::size_t a = 0; a < 3; ++a) {
      for (const auto& loc : location_) append(bytes, loc[a]);
    }
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader r(bytes, "BinPack");
    std::array<std::int32_t, 6> container{};
    r.read(container.data(), sizeof(container), "container");
    const std::array<std::int32_t, 6> expected = {container_.x1, container_.x2, container_.y1,
                                                  container_.y2, container_.z1, container_.z2};
    if (container != expected) {
      throw std::invalid_argument("state's container is not this env's (0..5870, 0..2330, 0..2200)");
    }
    const std::array<std::int32_t, 3> dims = {container_.x2, container_.y2, container_.z2};
    std::vector<Box> ems(m_);
    for (int f = 0; f < 6; ++f) {
      for (Box& b : ems) {
        const auto v = r.read<std::int32_t>("ems");
        check_range(v, 0, dims[static_cast<std::size_t>(f / 2)], kEmsNames[static_cast<std::size_t>(f)]);
        if (f % 2 == 0) {
          b.set_lo(f / 2, v);
        } else {
          b.set_hi(f / 2, v);
        }
      }
    }
    for (std::size_t j = 0; j < m_; ++j) {
      const Box& b = ems[j];
      if (b.x1 > b.x2 || b.y1 > b.y2 || b.z1 > b.z2) {
        throw std::invalid_argument("state's ems " + std::to_string(j) + " has a lower corner above its upper one");
      }
    }
    std::vector<std::uint8_t> ems_mask(m_);
    read_flags(r, ems_mask, "ems_mask");
    std::vector<std::array<std::int32_t, 3>> items(n_);
    for (std::size_t a = 0; a < 3; ++a) {
      for (auto& item : items) {
        item[a] = r.read<std::int32_t>("items");
        check_range(item[a], 0, dims[a], kItemNames[a]);
      }
    }
    std::vector<std::uint8_t> items_mask(n_), placed(n_);
    read_flags(r, items_mask, "items_mask");
    read_flags(r, placed, "items_placed");
    std::vector<std::array<std::int32_t, 3>> location(n_);
    constexpr std::array<const char*, 3> kLocationNames = {"items_location.x", "items_location.y",
                                                           "items_location.z"};
    for (std::size_t a = 0; a < 3; ++a) {
      for (auto& loc : location) {
        loc[a] = r.read<std::int32_t>(kLocationNames[a]);
        check_range(loc[a], 0, dims[a], kLocationNames[a]);
      }
    }
    const Key key = read_key(r);
    r.done();
    std::copy(ems.begin(), ems.end(), ems_.begin());
    ems_mask_ = std::move(ems_mask);
    items_ = std::move(items);
    items_mask_ = std::move(items_mask);
    placed_ = std::move(placed);
    location_ = std::move(location);
    state_key_ = key;
    invalid_ = false;
    refresh();
  }

 private:
  static void read_flags(StateReader& r, std::vector<std::uint8_t>& flags, const char* field) {
    r.read(flags.data(), flags.size(), field);
    for (std::uint8_t f : flags) check_range(f, 0, 1, field);
  }

  // Coordinates (or lengths) into an observation entry: as they are, or as fractions of the
  // container's side; XLA divides an array by a broadcast scalar as a product with the
  // scalar's reciprocal.
  void put_coords(const Output& out, std::size_t entry, const std::int32_t* v, std::size_t count,
                  std::int32_t dim) const {
    if (o_.normalize_dimensions) {
      float* dst = out.obs_as<float>(entry);
      const float scale = 1.0f / static_cast<float>(dim);
      for (std::size_t k = 0; k < count; ++k) dst[k] = static_cast<float>(v[k]) * scale;
    } else {
      std::memcpy(out.obs_as<std::int32_t>(entry), v, count * sizeof(std::int32_t));
    }
  }

  // types.py item_volume: float32, (x * y) * z.
  float item_volume(std::size_t i) const {
    return static_cast<float>(items_[i][0]) * static_cast<float>(items_[i][1]) * static_cast<float>(items_[i][2]);
  }

  // ------------------------------------------------------------ the generator

  // _split_container_into_items_spaces: split spaces until enough items.
  void split_container(Key key) {
    std::fill(spaces_.begin(), spaces_.end(), container_);
    std::fill(items_mask_.begin(), items_mask_.end(), std::uint8_t{0});
    items_mask_[0] = 1;
    const int target = o_.max_num_items - o_.split_num_same_items + 1;
    while (count(items_mask_) < target) {
      const auto [next, sub] = jax_random::split2(key);
      key = next;
      // _split_space_into_sub_spaces
      const auto [axis_key, split_key] = jax_random::split2(sub);
      const int axis = jax_random::randint1(axis_key, 0, 3);
      split_along_axis(axis, split_key);
      for (std::size_t i = 0; i < n_; ++i) {
        if (spaces_[i].is_empty()) items_mask_[i] = 0;
      }
    }
  }

  static int count(const std::vector<std::uint8_t>& flags) {
    int c = 0;
    for (std::uint8_t f : flags) c += f;
    return c;
  }

  // jnp.argmin of a bool mask: the first free slot, 0 when there is none.
  static std::size_t first_free(const std::vector<std::uint8_t>& mask) {
    for (std::size_t i = 0; i < mask.size(); ++i) {
      if (mask[i] == 0) return i;
    }
    return 0;
  }

  // _split_along_axis
  void split_along_axis(int axis, Key key) {
    std::array<Key, 3> keys{};
    jax_random::split(key, keys.data(), 3);
    const std::size_t item_id = choose_by_length(keys[0], axis);
    const Box item = spaces_[item_id];
    const std::int32_t axis_len = item.hi(axis) - item.lo(axis);
    if (jax_random::uniform1(keys[2]) < o_.prob_split_one_item) {
      split_once(item, axis, axis_len, item_id, keys[1]);
    } else {
      split_multiple_times(item, axis, axis_len, item_id, keys[1]);
    }
  }

  // jax.random.choice(key, arange(n), (), p=where(items_mask, length on `axis`, 0)): p's
  // cumulative sum is float32, exact here (integers whose sum is below 2**24, so in
  // any order), r = total * (1 - uniform), and the index is the count of sums below r.
  std::size_t choose_by_length(Key key, int axis) const {
    float total = 0.0f;
    for (std::size_t i = 0; i < n_; ++i) {
      if (items_mask_[i]) total += static_cast<float>(spaces_[i].hi(axis) - spaces_[i].lo(axis));
    }
    const float r = total * (1.0f - jax_random::uniform1(key));
    float c = 0.0f;
    for (std::size_t i = 0; i < n_; ++i) {
      if (items_mask_[i]) c += static_cast<float>(spaces_[i].hi(axis) - spaces_[i].lo(axis));
      if (!(c < r)) return i;
    }
    return n_ - 1;  // r <= total: not reached
  }

  // _split_item_once: two spaces, cut at a uniform point away from the edges.
  void split_once(const Box& item, int axis, std::int32_t axis_len, std::size_t item_id, Key key) {
    const std::int32_t pad = to_int32(o_.split_eps * static_cast<float>(axis_len));
    const std::int32_t axis_min = item.lo(axis) + pad;
    const std::int32_t axis_max = item.hi(axis) - pad;
    const std::int32_t cut = jax_random::randint1(key, axis_min, axis_max);
    const std::size_t free = first_free(items_mask_);
    spaces_[free] = spaces_[item_id];
    spaces_[item_id].set_hi(axis, cut);
    spaces_[free].set_lo(axis, cut);
    items_mask_[free] = 1;
  }

  // _split_item_multiple_times: 1..split_num_same_items equal spaces.
  void split_multiple_times(const Box& item, int axis, std::int32_t axis_len, std::size_t item_id, Key key) {
    const std::int32_t start = item.lo(axis);
    const std::int32_t num_split = jax_random::randint1(key, 1, o_.split_num_same_items + 1);
    const auto part = [&](std::int32_t i) {  // jnp.array(i * axis_len / num_split, int32)
      return to_int32(static_cast<float>(i * axis_len) / static_cast<float>(num_split));
    };
    spaces_[item_id].set_hi(axis, start + part(1));
    for (std::int32_t i = 1; i < num_split; ++i) {
      const std::size_t free = first_free(items_mask_);
      spaces_[free] = spaces_[item_id];
      spaces_[free].set_lo(axis, start + part(i));
      spaces_[free].set_hi(axis, start + part(i + 1));
      items_mask_[free] = 1;
    }
  }

  // ------------------------------------------------------------ the EMS bookkeeping

  // _update_ems: drop the EMSs the new item cuts, add the pieces of them around it.
  void update_ems(std::size_t item_id) {
    const auto& len = items_[item_id];
    const auto& loc = location_[item_id];
    const Box item{loc[0], loc[0] + len[0], loc[1], loc[1] + len[1], loc[2], loc[2] + len[2]};

    // _get_intersections_dict: each EMS cut by each of the item's six hyperplanes.
    for (std::size_t j = 0; j < m_; ++j) {
      const Box& e = ems_[j];
      const bool kept = ems_mask_[j] && !item.intersects(e);
      for (int d = 0; d < kDirections; ++d) {
        Box h = e;
        switch (d) {
          case 0: h.x2 = std::min(item.x1, e.x2); break;
          case 1: h.x1 = std::max(item.x2, e.x1); break;
          case 2: h.y2 = std::min(item.y1, e.y2); break;
          case 3: h.y1 = std::max(item.y2, e.y1); break;
          case 4: h.z2 = std::min(item.z1, e.z2); break;
          default: h.z1 = std::max(item.z2, e.z1); break;
        }
        const std::size_t at = static_cast<std::size_t>(d) * m_ + j;
        inter_[at] = h;
        inter_mask_[at] = ems_mask_[j] && !h.is_empty() && !(h.is_included(e) && kept);
      }
      kept_[j] = kept;
    }
    std::copy(kept_.begin(), kept_.end(), ems_mask_.begin());  // the EMSs the item does not cut

    // Drop the pieces strictly inside another piece. jumanji goes direction by direction,
    // each pass against the pieces the passes before it kept; since strict inclusion is
    // transitive, that drops exactly the pieces strictly inside some piece of the first
    // set (the largest such piece is never dropped, so the pass against its direction
    // drops the smaller one, if nothing did before). A piece strictly inside another has
    // a smaller volume (integers, no rounding): each piece is compared with the larger ones.
    std::size_t total = 0;
    for (std::size_t at = 0; at < kDirections * m_; ++at) {
      if (!inter_mask_[at]) continue;
      const Box& b = inter_[at];
      piece_volume_[at] = static_cast<std::int64_t>(b.x2 - b.x1) * (b.y2 - b.y1) * (b.z2 - b.z1);
      active_[total++] = static_cast<std::int32_t>(at);
    }
    std::sort(active_.begin(), active_.begin() + static_cast<std::ptrdiff_t>(total),
              [this](std::int32_t a, std::int32_t b) {
                return piece_volume_[static_cast<std::size_t>(a)] > piece_volume_[static_cast<std::size_t>(b)];
              });
    std::size_t removed = 0;
    std::size_t larger = 0;  // active_[0..larger) are the pieces larger than the current one
    for (std::size_t p = 0; p < total; ++p) {
      const auto at = static_cast<std::size_t>(active_[p]);
      const std::int64_t volume = piece_volume_[at];
      while (piece_volume_[static_cast<std::size_t>(active_[larger])] > volume) ++larger;
      const Box& piece = inter_[at];
      for (std::size_t q = 0; q < larger; ++q) {
        if (piece.is_included(inter_[static_cast<std::size_t>(active_[q])])) {
          removed_at_[removed++] = static_cast<std::int32_t>(at);
          break;
        }
      }
    }
    for (std::size_t r = 0; r < removed; ++r) inter_mask_[static_cast<std::size_t>(removed_at_[r])] = 0;

    // _add_ems: each remaining piece not inside a current EMS takes the first free slot.
    for (int d = 0; d < kDirections; ++d) {
      for (std::size_t j = 0; j < m_; ++j) {
        const std::size_t at = static_cast<std::size_t>(d) * m_ + j;
        if (!inter_mask_[at]) continue;
        const Box& piece = inter_[at];
        bool inside = false;
        for (std::size_t i = 0; i < m_ && !inside; ++i) inside = ems_mask_[i] && piece.is_included(ems_[i]);
        if (inside) continue;
        const std::size_t slot = first_free(ems_mask_);
        ems_[slot] = piece;
        ems_mask_[slot] = 1;
      }
    }
  }

  // _get_set_of_largest_ems and _get_action_mask: the EMSs by decreasing volume (a
  // stable order, the lower index first among equals) and the legal (ems, item) pairs.
  void refresh() {
    for (std::size_t j = 0; j < m_; ++j) {
      sort_key_[j] = -(ems_[j].volume() * (ems_mask_[j] ? 1.0f : 0.0f));
      std::int32_t v = static_cast<std::int32_t>(j);
      std::size_t at = j;  // insertion sort: stable, no allocation
      while (at > 0 && sort_key_[j] < sort_key_[static_cast<std::size_t>(sorted_[at - 1])]) {
        sorted_[at] = sorted_[at - 1];
        --at;
      }
      sorted_[at] = v;
    }
    // Locals, so that the byte stores below are not taken to alias the members.
    const std::size_t n = n_;
    std::uint8_t* mask = action_mask_.data();
    const std::uint8_t* ems_mask = ems_mask_.data();
    const std::uint8_t* items_mask = items_mask_.data();
    const std::uint8_t* placed = placed_.data();
    const std::array<std::int32_t, 3>* items = items_.data();
    for (std::size_t e = 0; e < obs_; ++e, mask += n) {
      const auto j = static_cast<std::size_t>(sorted_[e]);
      if (!ems_mask[j]) {
        std::fill(mask, mask + n, std::uint8_t{0});
        continue;
      }
      const Box b = ems_[j];
      const std::int32_t dx = b.x2 - b.x1, dy = b.y2 - b.y1, dz = b.z2 - b.z1;
      for (std::size_t i = 0; i < n; ++i) {
        mask[i] = static_cast<std::uint8_t>((items_mask[i] & (placed[i] ^ 1)) & (items[i][0] <= dx) &
                                            (items[i][1] <= dy) & (items[i][2] <= dz));
      }
    }
  }

  void draw(const Canvas& canvas) const {
    const double lx = container_.x2 - container_.x1;
    const double ly = container_.y2 - container_.y1;
    const auto px = [&](double x) {
      return static_cast<int>(std::lround((x - container_.x1 + 0.05 * lx) / (1.1 * lx) * canvas.width()));
    };
    const auto py = [&](double y) {
      return static_cast<int>(std::lround((1.0 - (y - container_.y1 + 0.05 * ly) / (1.1 * ly)) * canvas.height()));
    };
    // A footprint [x0, x1) x [y0, y1) with a black edge 1 px wide.
    const auto box = [&](double x0, double y0, double x1, double y1, Rgb fill) {
      canvas.rect(px(x0), py(y1), px(x1) + 1, py(y0) + 1, Rgb{0, 0, 0});
      canvas.rect(px(x0) + 1, py(y1) + 1, px(x1), py(y0), fill);
    };
    canvas.fill(Rgb{255, 255, 255});
    box(container_.x1, container_.y1, container_.x2, container_.y2, Rgb{242, 255, 255});
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < n_; ++i) {
      if (placed_[i] != 0) order.push_back(i);
    }
    const auto top = [&](std::size_t i) { return std::int64_t{location_[i][2]} + items_[i][2]; };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return top(a) < top(b); });
    for (const std::size_t i : order) {
      box(location_[i][0], location_[i][1], location_[i][0] + items_[i][0], location_[i][1] + items_[i][1],
          hsv_entry(static_cast<int>(n_), static_cast<int>(i)));
    }
  }

  const Options o_;
  const std::size_t n_, m_, obs_;

  // jumanji's State
  Box container_;
  std::vector<Box> ems_;
  std::vector<std::uint8_t> ems_mask_;
  std::vector<std::array<std::int32_t, 3>> items_;  // x_len, y_len, z_len
  std::vector<std::uint8_t> items_mask_;
  std::vector<std::uint8_t> placed_;
  std::vector<std::array<std::int32_t, 3>> location_;
  Key state_key_{};
  // Derived from the above (State.sorted_ems_indexes, State.action_mask)
  std::vector<std::int32_t> sorted_;
  std::vector<std::uint8_t> action_mask_;
  bool invalid_ = false;  // the last action was invalid (extras' invalid_action)

  // Scratch buffers, sized once
  std::vector<Box> inter_;                 // [direction][ems]
  std::vector<std::uint8_t> inter_mask_;   // [direction][ems]
  std::vector<std::uint8_t> kept_;
  std::vector<std::int32_t> active_;       // the pieces whose mask is set, largest first
  std::vector<std::int32_t> removed_at_;
  std::vector<std::int64_t> piece_volume_; // [direction][ems]
  std::vector<float> sort_key_;
  std::vector<Box> spaces_;                // the generator's item spaces
};

const bool registered = register_env_type({
    .name = "JumanjiBinPack",
    .options = {{"max_num_items", std::int64_t{20}, "RandomGenerator's max_num_items: the item buffer, 1..1000"},
                {"max_num_ems", std::int64_t{40}, "RandomGenerator's max_num_ems: the EMS buffer, 1..1000"},
                {"split_eps", 0.3, "RandomGenerator's split_eps: the edge fraction no cut falls in, 0..0.5"},
                {"prob_split_one_item", 0.7, "RandomGenerator's prob_split_one_item: a cut into two, 0..1"},
                {"split_num_same_items", std::int64_t{2},
                 "RandomGenerator's split_num_same_items: the most equal parts of one split, 1..max_num_items"},
                {"obs_num_ems", std::int64_t{40}, "the largest EMSs observed, 1..max_num_ems"},
                {"normalize_dimensions", true, "coordinates as fractions of the container (float32), else int32 mm"}},
    .spec = bin_pack_spec,
    .create = make_env<BinPack>(),
});

}  // namespace

}  // namespace rlpool::jumanji
