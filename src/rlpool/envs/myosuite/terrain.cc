// MyoSuite's walking over terrain: myosuite 2.11.6's TerrainEnvV0
// (envs/myo/myobase/walk_v0.py, class TerrainEnvV0: reset and
// _get_knee_condition), registered (envs/myo/myobase/__init__.py) as
// myoLegRoughTerrainWalk-v0, myoLegHillyTerrainWalk-v0 and
// myoLegStairTerrainWalk-v0: WalkEnvV0 (walk.h) on the leg model with its
// heightfield raised to the floor, and a fall also when the centre of mass is
// less than 0.61 above the feet's mean height.
//
// A reset writes the heightfield's 10000 heights (the model's hfield_data,
// of which each env holds its own copy, saved with its state) and then draws
// what reset_type asks (walk.h; nothing for "init", every registered id). Its
// draws, in order: rough: 10000 uniforms in [-0.5, 0.5), rescaled to
// [-0.02, 0.06]; hilly and stairs: none for variant "fixed" (every
// registered id), else one uniform, the terrain's height scale. The draws are
// the env's generator's (myosuite's np_random); no global np.random.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/walk.h"

namespace rlpool::myosuite {
namespace {

enum class Terrain { kRough, kHilly, kStairs };

struct TerrainParams {
  WalkParams walk;
  Terrain terrain = Terrain::kRough;
  bool fixed = false;  // variant "fixed": the hills' or stairs' scale is not drawn
};

constexpr int kCells = 10000;  // myosuite writes 10000 heights (a 100 x 100 field)

// The hills' heights before their scale: 3000 flat cells, then a cosine over 1.5 periods, normalized to
// [0, 1] and reversed (np.flip of the 100 x 100 field over both axes).
std::vector<double> hills() {
  constexpr int flat = 3000, n = kCells - flat;
  constexpr double pi = std::numbers::pi;
  const double stop = 3 * pi;  // frequency * np.pi
  const double step = stop / (n - 1);
  std::vector<double> c(kCells, -2.0);
  for (int i = 0; i < n; ++i) {
    const double x = i == n - 1 ? stop : i * step;  // np.linspace(0, stop, n)
    c[static_cast<std::size_t>(flat + i)] = -2 + 0.5 * (std::sin(x + pi / 2) - 1);
  }
  const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
  const double min = *lo, range = *hi - *lo;
  std::vector<double> out(kCells);
  for (std::size_t i = 0; i < c.size(); ++i) out[c.size() - 1 - i] = (c[i] - min) / range;
  return out;
}

// The stairs' heights before their scale: 12 stairs of 0.1 after a flat part, each (height + 2) / 3.2,
// reversed as the hills.
std::vector<double> stairs() {
  constexpr int num_stairs = 12;
  constexpr double stair_height = 0.1;
  const double flat = 5200 - std::fmod(1e4 - 5200, num_stairs);
  const double width = std::floor((1e4 - flat) / num_stairs);
  const int flat_rows = static_cast<int>(std::floor(flat / 100));
  const int stair_rows = static_cast<int>(std::floor(width / 100));
  std::vector<double> data;
  data.insert(data.end(), static_cast<std::size_t>(flat_rows * 100), -2.0);
  for (int j = 0; j < num_stairs; ++j) {
    data.insert(data.end(), static_cast<std::size_t>(stair_rows * 100), -2 + stair_height * j);
  }
  if (static_cast<int>(data.size()) != kCells) throw std::logic_error("stairs: the field is not 100 x 100");
  std::vector<double> out(kCells);
  const double top = 2 + stair_height * num_stairs;
  for (std::size_t i = 0; i < data.size(); ++i) out[data.size() - 1 - i] = (data[i] + 2) / top;
  return out;
}

class TerrainEnv : public WalkEnv {
 public:
  TerrainEnv(const Setup& setup, const TaskBase& base, TerrainParams params)
      : WalkEnv(setup, base, std::move(params.walk), 0.0), terrain_(params.terrain), fixed_(params.fixed) {
    const mjModel* mm = m();
    if (mm->nhfielddata != kCells) {
      throw std::invalid_argument("'" + setup_.xml_file + "': the terrain tasks write " + std::to_string(kCells) +
                                  " heightfield values, the model has " + std::to_string(mm->nhfielddata));
    }
    // reset's geom edits: the terrain at the origin (own_terrain_pos) and colliding; the model's terrain
    // geom already has contype and conaffinity 1.
    const int g = api().name2id(mm, mjOBJ_GEOM, "terrain");
    if (mm->geom_contype[g] != 1 || mm->geom_conaffinity[g] != 1) {
      throw std::invalid_argument("'" + setup_.xml_file + "': the terrain geom does not collide (contype 1)");
    }
    hfield_.assign(mm->hfield_data, mm->hfield_data + kCells);
    heights_.assign(hfield_.begin(), hfield_.end());
    m()->hfield_data = hfield_.data();
    keep(&heights_);
    if (terrain_ == Terrain::kHilly) shape_ = hills();
    if (terrain_ == Terrain::kStairs) shape_ = stairs();
  }

 protected:
  // The float heightfield from its kept heights, before set_state's mj_forward.
  void restore_model() override { write_hfield(); }

  bool fallen() const override {
    if (WalkEnv::fallen()) return true;
    // _get_knee_condition.
    return com_height() - (foot_height(0) + foot_height(1)) / 2 < 0.61;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) override {
    if (terrain_ == Terrain::kRough) {
      for (double& h : heights_) h = rng().uniform(-0.5, 0.5);
      const auto [lo, hi] = std::minmax_element(heights_.begin(), heights_.end());
      const double min = *lo, range = *hi - *lo;
      constexpr double scalar = 0.08, offset = 0.02;
      for (double& h : heights_) h = static_cast<float>((h - min) / range * scalar - offset);
    } else {
      const bool hilly = terrain_ == Terrain::kHilly;
      double scalar = hilly ? 0.63 : 2.5;
      if (!fixed_) scalar = hilly ? rng().uniform(0.53, 0.73) : rng().uniform(1.5, 3.5);
      for (std::size_t i = 0; i < heights_.size(); ++i) heights_[i] = static_cast<float>(shape_[i] * scalar);
    }
    write_hfield();
    WalkEnv::reset_task(qpos, qvel);
  }

 private:
  // hfield_data (float32) from the kept heights, which hold float32 values.
  void write_hfield() {
    std::transform(heights_.begin(), heights_.end(), hfield_.begin(), [](double h) { return static_cast<float>(h); });
  }

  const Terrain terrain_;
  const bool fixed_;
  std::vector<float> hfield_;
  std::vector<double> heights_, shape_;
};

bool add(const std::string& id, Terrain terrain, bool fixed) {
  return register_task(id, {{"simhive/myo_sim/leg/myolegs.xml", 10, walk_weights()},
                            make_task<TerrainEnv>(TerrainParams{.walk = {}, .terrain = terrain, .fixed = fixed})});
}

const bool kRegistered = add("myoLegRoughTerrainWalk-v0", Terrain::kRough, false) &&
                         add("myoLegHillyTerrainWalk-v0", Terrain::kHilly, true) &&
                         add("myoLegStairTerrainWalk-v0", Terrain::kStairs, true);

}  // namespace
}  // namespace rlpool::myosuite
