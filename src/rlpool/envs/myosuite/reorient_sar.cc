// MyoSuite's SAR reorientation tasks: myosuite 2.11.6's ProprioceptiveEnvV0
// and its four classes Geometries8EnvV0, Geometries100EnvV0, InDistribution
// and OutofDistribution (envs/myo/myobase/reorient_sar_v0.py: _setup,
// get_obs_dict, get_reward_dict and each class's reset), with their
// registered ids (envs/myo/myobase/__init__.py: myoHandReorient8-v0,
// myoHandReorient100-v0, myoHandReorientID-v0, myoHandReorientOOD-v0; model
// myohand_sar.xml, frame_skip 5).
//
// The hand starts fully open and palm up (init_qpos zero for the hand but for
// qpos[0] = -1.5). The observation is the hand's qpos, the object body's
// position, its six velocities * dt, the object's and the target's unit axes
// (geom "top" minus geom "bot", and "t_top" minus "t_bot", over the lengths
// those geoms had in the model as loaded), the object's offset from the
// eps_ball site, the axes' difference, the actuators' lengths, velocities and
// forces, and the muscles' activations. The reward terms are pen_v0's:
// pos_align (-|offset|), rot_align (the axes' cosine as
// vector_math.calculate_cosine computes it), act_reg, drop (offset beyond
// 0.075, which also ends the episode) and bonus.
//
// A reset draws, from the env's generator: the geom type, choice([3, 4, 5,
// 6]) (capsule, ellipsoid, cylinder, box); from that type's table, one index
// (Geometries8EnvV0: size and colour from the same entry) or two (the other
// classes: the size's entry, then the colour's); then the target's x and y
// Euler angles, uniform(-1, 1) and uniform(-0.8, 1.2). Each choice is one
// Rng::integer(n), as numpy's Generator.choice of a sequence. The object's
// and the target's geoms take the type, size and colour (Geometries8EnvV0
// shows yellow, InDistribution green and OutofDistribution maroon whatever
// was drawn), their top and bottom geoms move to +-(1.3 size[1]) (capsule),
// +-size[1] (cylinder) or +-size[2], the object's mass becomes 1.2 and, but
// for Geometries8EnvV0, its contact dimension 3; the target body turns to the
// angles (quat_math.euler2quat, z angle 0) and the success site shows red
// until a step finds the task solved (green from then on, until the reset).
//
// The tables are myosuite's, which rlpool does not carry: sar_tables.py
// writes them from the unpacked wheel's reorient_sar_v0.py as
// <_assets>/rlpool-data/sar/<class>-<table>.npy ((n, 7) float64: size, rgba),
// read here once per file and shared.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "_core/io/npy_file.h"
#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/pen.h"
#include "envs/myosuite/quat_math.h"

namespace rlpool::myosuite {
namespace {

struct SarParams {
  const char* cls = "";  // myosuite's class, which names its table files
  bool one_pick = false;  // Geometries8EnvV0: one index for the size and the colour
  bool table_colour = false;  // Geometries100EnvV0 shows the drawn colour; the others `colour`
  std::array<double, 4> colour{};
  bool sets_condim = false;  // geom_condim[obj] = 3 (all but Geometries8EnvV0)
};

// The tables of a class's reset, in choice([3, 4, 5, 6])'s order: capsule, ellipsoid, cylinder, box.
constexpr std::array<const char*, 4> kTables = {"caps", "ellips", "cyl", "box"};
constexpr std::array<int, 4> kTypes = {mjGEOM_CAPSULE, mjGEOM_ELLIPSOID, mjGEOM_CYLINDER, mjGEOM_BOX};
constexpr int kColumns = 7;  // size (3), rgba (4)

[[noreturn]] void bad_table(const std::string& path, const std::string& why) {
  throw std::invalid_argument("MyoSuite SAR geometry table '" + path + "' " + why +
                              " (written from myosuite's reorient_sar_v0.py by rlpool.envs.myosuite.sar_tables)");
}

// A table: `rows` entries of size (3) and rgba (4).
struct Table {
  int rows = 0;
  std::vector<double> values;
};

std::shared_ptr<const Table> read_table(const std::string& path) {
  const NpyBytes npy = read_npy(path, {"<f8"}, bad_table);
  if (npy.shape.size() != 2 || npy.shape[0] < 1 || npy.shape[1] != kColumns) {
    bad_table(path, "has shape " + shape_text(npy.shape) + ", not (n, 7)");
  }
  auto out = std::make_shared<Table>();
  out->rows = static_cast<int>(npy.shape[0]);
  out->values = float64_values(npy);
  for (const double v : out->values) {
    if (!std::isfinite(v)) bad_table(path, "holds a number that is not finite");
  }
  return out;
}

// The folder the wheel is unpacked in (_assets), from the model's path <_assets>/myosuite/<model>.
std::string assets_of(const Setup& setup, const TaskBase& base) {
  const std::string tail = "/myosuite/" + base.model;
  const std::string& xml = setup.xml_file;
  if (xml.size() < tail.size() || xml.compare(xml.size() - tail.size(), tail.size(), tail) != 0) {
    throw std::invalid_argument(setup.id + ": the model '" + xml + "' is not under <_assets>/myosuite/");
  }
  return xml.substr(0, xml.size() - tail.size());
}

class SarEnv : public PenTwirlBase {
 public:
  // The axes' ends are geoms, their lengths _setup's, from the model's geom_pos (a reset moves the geoms; the
  // lengths stay).
  SarEnv(const Setup& setup, const TaskBase& base, SarParams params)
      : PenTwirlBase(setup, base, {mjOBJ_GEOM, "top", "bot", "t_top", "t_bot"}),
        p_(params),
        success_(site("success")),
        obj_(geom("obj")),
        tar_(geom("target")) {
    mjModel* mm = m();
    if (mm->nq < 6 || mm->nv < 6) throw std::invalid_argument(setup.id + ": the model has no six object joints");
    const std::string folder = assets_of(setup, base) + "/rlpool-data/sar/";
    for (std::size_t k = 0; k < kTables.size(); ++k) {
      tables_[k] = shared_copy(folder + p_.cls + "-" + kTables[k] + ".npy", read_table);
    }
    // The model fields a reset writes besides the base's: this env's own copies. The double ones are saved
    // with the state as they are; the int and float ones (types, contact dimension, colours) through
    // `looks_`, from which apply_looks rewrites them.
    geom_pos_.assign(mm->geom_pos, mm->geom_pos + 3 * mm->ngeom);
    body_quat_.assign(mm->body_quat, mm->body_quat + 4 * mm->nbody);
    geom_type_.assign(mm->geom_type, mm->geom_type + mm->ngeom);
    geom_condim_.assign(mm->geom_condim, mm->geom_condim + mm->ngeom);
    geom_rgba_.assign(mm->geom_rgba, mm->geom_rgba + 4 * mm->ngeom);
    site_rgba_.assign(mm->site_rgba, mm->site_rgba + 4 * mm->nsite);
    mm->geom_pos = geom_pos_.data();
    mm->body_quat = body_quat_.data();
    mm->geom_type = geom_type_.data();
    mm->geom_condim = geom_condim_.data();
    mm->geom_rgba = geom_rgba_.data();
    mm->site_rgba = site_rgba_.data();
    looks_.assign(kLooks, 0.0);
    looks_[kType] = geom_type_[static_cast<std::size_t>(obj_)];
    looks_[kTargetType] = geom_type_[static_cast<std::size_t>(tar_)];
    looks_[kCondim] = geom_condim_[static_cast<std::size_t>(obj_)];
    for (std::size_t k = 0; k < 4; ++k) {
      looks_[kObjRgba + k] = geom_rgba_[4 * static_cast<std::size_t>(obj_) + k];
      looks_[kTarRgba + k] = geom_rgba_[4 * static_cast<std::size_t>(tar_) + k];
    }
    for (std::size_t k = 0; k < 2; ++k) looks_[kSuccessRg + k] = site_rgba_[4 * static_cast<std::size_t>(success_) + k];
    keep(&geom_pos_);
    keep(&body_quat_);
    keep(&looks_);
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    MyoEnv::step(action, rng, out);
    // get_reward_dict's success indicator: once green ([0, 2]) it stays; else green if solved, red if not.
    if (!(looks_[kSuccessRg] == 0.0 && looks_[kSuccessRg + 1] == 2.0)) {
      looks_[kSuccessRg] = solved_ ? 0.0 : 2.0;
      looks_[kSuccessRg + 1] = solved_ ? 2.0 : 0.0;
    }
    apply_looks();
  }

 protected:
  // The geom types, contact dimensions and colours from their kept mirrors, before set_state's mj_forward.
  void restore_model() override { apply_looks(); }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    observe_pen(obs);
    if (mm->na > 0) {
      obs.insert(obs.end(), dd->actuator_length, dd->actuator_length + mm->nu);
      obs.insert(obs.end(), dd->actuator_velocity, dd->actuator_velocity + mm->nu);
      obs.insert(obs.end(), dd->actuator_force, dd->actuator_force + mm->nu);
      put_act(obs);
    }
  }

  void rewards(Rewards& r) override {
    pen_rewards(r);
    solved_ = r.solved;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& /*qvel*/) override {
    open_hand(qpos);
    const auto pick = static_cast<std::size_t>(rng().integer(kTypes.size()));
    const Table& table = *tables_[pick];
    const auto n = static_cast<std::uint64_t>(table.rows);
    const auto size_row = static_cast<std::size_t>(rng().integer(n));
    const std::size_t colour_row = p_.one_pick ? size_row : static_cast<std::size_t>(rng().integer(n));
    const double* size = table.values.data() + kColumns * size_row;
    const double* rgba = table.values.data() + kColumns * colour_row + 3;
    const int type = kTypes[pick];
    const double z = type == mjGEOM_CAPSULE ? 1.3 * size[1] : type == mjGEOM_CYLINDER ? size[1] : size[2];
    const double bottom_z = type == mjGEOM_CAPSULE ? 1.3 * -size[1] : -z;
    for (const int g : {obj_, tar_}) std::copy(size, size + 3, geom_size(g));
    for (const int g : {obj_t_, tar_t_}) set_geom_pos(g, {0.0, 0.0, z});
    for (const int g : {obj_b_, tar_b_}) set_geom_pos(g, {0.0, 0.0, bottom_z});
    set_body_mass(object_, 1.2);
    looks_[kType] = type;
    looks_[kTargetType] = type;
    if (p_.sets_condim) looks_[kCondim] = 3;
    for (std::size_t k = 0; k < 4; ++k) {
      const double c = p_.table_colour ? rgba[k] : p_.colour[k];
      looks_[kObjRgba + k] = c;
      looks_[kTarRgba + k] = c;
    }
    Vec3 desired{0.0, 0.0, 0.0};
    desired[0] = rng().uniform(-1, 1);
    desired[1] = rng().uniform(-0.8, 1.2);
    looks_[kSuccessRg] = 2.0;
    looks_[kSuccessRg + 1] = 0.0;
    const auto quat = euler2quat(desired);
    std::copy(quat.begin(), quat.end(), body_quat_.data() + 4 * target_);
    apply_looks();
    // Upstream's sync_sims then runs mj_forward on the same sim; Robot.reset's mj_resetData follows, so it
    // leaves nothing behind.
  }

 private:
  // looks_'s entries: the object's and the target's geom types, the object's contact dimension, their rgba,
  // the success site's red and green.
  static constexpr std::size_t kType = 0, kTargetType = 1, kCondim = 2, kObjRgba = 3, kTarRgba = 7, kSuccessRg = 11,
                               kLooks = 13;

  void set_geom_pos(int g, const Vec3& pos) { std::copy(pos.begin(), pos.end(), geom_pos_.data() + 3 * g); }

  // The int and float model fields from looks_ (myosuite's float64 values cast into MuJoCo's types).
  void apply_looks() {
    geom_type_[static_cast<std::size_t>(obj_)] = static_cast<int>(looks_[kType]);
    geom_type_[static_cast<std::size_t>(tar_)] = static_cast<int>(looks_[kTargetType]);
    geom_condim_[static_cast<std::size_t>(obj_)] = static_cast<int>(looks_[kCondim]);
    for (std::size_t k = 0; k < 4; ++k) {
      geom_rgba_[4 * static_cast<std::size_t>(obj_) + k] = static_cast<float>(looks_[kObjRgba + k]);
      geom_rgba_[4 * static_cast<std::size_t>(tar_) + k] = static_cast<float>(looks_[kTarRgba + k]);
    }
    for (std::size_t k = 0; k < 2; ++k) {
      site_rgba_[4 * static_cast<std::size_t>(success_) + k] = static_cast<float>(looks_[kSuccessRg + k]);
    }
  }

  const SarParams p_;
  const int success_, obj_, tar_;
  std::array<std::shared_ptr<const Table>, 4> tables_;
  std::vector<double> geom_pos_, body_quat_, looks_;
  std::vector<int> geom_type_, geom_condim_;
  std::vector<float> geom_rgba_, site_rgba_;
  bool solved_ = false;
};

constexpr const char* kModel = "envs/myo/assets/hand/myohand_sar.xml";

bool register_all() {
  const TaskBase base{kModel, 5, pen_weights()};
  const SarParams geometries8{.cls = "Geometries8EnvV0", .one_pick = true, .colour = {1.0, 0.9, 0.0, 1.0}};
  const SarParams geometries100{.cls = "Geometries100EnvV0", .table_colour = true, .sets_condim = true};
  const SarParams in_distribution{
      .cls = "InDistribution", .colour = {38 / 255.0, 194 / 255.0, 129 / 255.0, 255 / 255.0}, .sets_condim = true};
  const SarParams out_of_distribution{
      .cls = "OutofDistribution", .colour = {128 / 255.0, 0 / 255.0, 0 / 255.0, 255 / 255.0}, .sets_condim = true};
  register_task("myoHandReorient8-v0", {base, make_task<SarEnv>(geometries8)});
  register_task("myoHandReorient100-v0", {base, make_task<SarEnv>(geometries100)});
  register_task("myoHandReorientID-v0", {base, make_task<SarEnv>(in_distribution)});
  register_task("myoHandReorientOOD-v0", {base, make_task<SarEnv>(out_of_distribution)});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
