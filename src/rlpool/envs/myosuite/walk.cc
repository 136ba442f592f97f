// MyoSuite's standing and walking leg tasks: myosuite 2.11.6's ReachEnvV0 and
// WalkEnvV0 of envs/myo/myobase/walk_v0.py (not reach_v0.py's ReachEnvV0),
// registered there (envs/myo/myobase/__init__.py) as myoLegStandRandom-v0 and
// myoLegWalk-v0, both on the leg model myolegs.xml with its heightfield moved
// 10 below the floor.
//
// Stand: the pelvis site's target is drawn around the pelvis; the reward terms
// are reach (10 - |error| - 10 |qvel * dt|), bonus, act_reg (-100 |act| / na)
// and penalty. Its reset draws, in order: nq uniforms in joint_random_range
// (a pose whose pelvis the target is drawn around), three uniforms (the
// target's offset), nq more uniforms (the initial pose); each pose is
// keyframe 0 plus the draws at the joints' qpos addresses, clipped to the
// joints' ranges.
// Walk (walk.h): reset_type "init" (every registered id) draws nothing and
// starts from keyframe 2; "random" draws one uniform (below 0.5: keyframe 2,
// else 3) and then nq normals (0, 0.02) added to qpos.
#include "envs/myosuite/walk.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/numpy_exp.h"

namespace rlpool::myosuite {

void own_terrain_pos(mjModel* m, std::vector<double>& geom_pos, int terrain_geom, double z) {
  geom_pos.assign(m->geom_pos, m->geom_pos + 3 * m->ngeom);
  double* pos = geom_pos.data() + 3 * terrain_geom;
  pos[0] = 0.0;
  pos[1] = 0.0;
  pos[2] = z;
  m->geom_pos = geom_pos.data();
}

void own_geom_rgba(mjModel* m, std::vector<float>& geom_rgba, int terrain_geom, float terrain_alpha, bool hide_skins) {
  geom_rgba.assign(m->geom_rgba, m->geom_rgba + 4 * m->ngeom);
  geom_rgba[static_cast<std::size_t>(4 * terrain_geom + 3)] = terrain_alpha;
  for (int g = 0; g < m->ngeom && hide_skins; ++g) {
    if (m->geom_group[g] == 1) geom_rgba[static_cast<std::size_t>(4 * g + 3)] = 0.0f;
  }
  m->geom_rgba = geom_rgba.data();
}

double blas_norm(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s = std::fma(x[i], x[i], s);
  return std::sqrt(s);
}

namespace {

// The keyframe's qpos and qvel; std::invalid_argument if the model has no such keyframe.
void keyframe(const mjModel* m, int key, const std::string& xml_file, std::vector<double>& qpos,
              std::vector<double>& qvel) {
  if (key >= m->nkey) {
    throw std::invalid_argument("'" + xml_file + "' has no keyframe " + std::to_string(key));
  }
  qpos.assign(m->key_qpos + key * m->nq, m->key_qpos + (key + 1) * m->nq);
  qvel.assign(m->key_qvel + key * m->nv, m->key_qvel + (key + 1) * m->nv);
}

int terrain_geom(const mjModel* m, const std::string& xml_file) {
  const int id = api().name2id(m, mjOBJ_GEOM, "terrain");
  if (id < 0) throw std::invalid_argument("'" + xml_file + "' has no geom named 'terrain'");
  return id;
}

}  // namespace

// ---------------------------------------------------------------- WalkEnvV0

WalkEnv::WalkEnv(const Setup& setup, const TaskBase& base, WalkParams params, double terrain_z)
    : MyoEnv(setup, base, {"vel_reward", "cyclic_hip", "ref_rot", "joint_angle_rew", "act_mag"}),
      p_(std::move(params)) {
  if (p_.hip_period == 0) throw std::invalid_argument("hip_period must not be 0");
  talus_[0] = body("talus_l");
  talus_[1] = body("talus_r");
  pelvis_ = body("pelvis");
  torso_ = body("torso");
  const auto qadr = [this](const char* name) { return m()->jnt_qposadr[joint(name)]; };
  hip_flexion_[0] = qadr("hip_flexion_l");
  hip_flexion_[1] = qadr("hip_flexion_r");
  hip_joints_[0] = qadr("hip_adduction_l");
  hip_joints_[1] = qadr("hip_adduction_r");
  hip_joints_[2] = qadr("hip_rotation_l");
  hip_joints_[3] = qadr("hip_rotation_r");
  // _setup: init_qpos is keyframe 0 (target_rot None: its root orientation is the reference).
  std::vector<double> qpos, qvel;
  keyframe(m(), 0, setup_.xml_file, qpos, qvel);
  if (m()->nq < 7) throw std::invalid_argument("'" + setup_.xml_file + "' has no free root joint");
  target_rot_.assign(qpos.begin() + 3, qpos.begin() + 7);
  keyframe(m(), 3, setup_.xml_file, qpos, qvel);  // the keyframes reset_type reads
  own_terrain_pos(m(), geom_pos_, terrain_geom(m(), setup_.xml_file), terrain_z);
  // The terrain shown where it is used (alpha 1), else hidden (alpha 0).
  own_geom_rgba(m(), geom_rgba_, terrain_geom(m(), setup_.xml_file), terrain_z < 0 ? 0.0f : 1.0f, false);
  keep(&steps_);
}

void WalkEnv::step(const Action& action, Rng& rng, const Output& out) {
  MyoEnv::step(action, rng, out);
  steps_[0] += 1.0;
}

double WalkEnv::com_height() const {
  // np.sum(mass * xipos, 0) / np.sum(mass): the column sum body after body, the mass sum pairwise.
  const mjModel* mm = m();
  const mjData* dd = d();
  double z = mm->body_mass[0] * dd->xipos[2];
  for (int b = 1; b < mm->nbody; ++b) z += mm->body_mass[b] * dd->xipos[3 * b + 2];
  return z / numpy_sum(mm->body_mass, mm->nbody);
}

void WalkEnv::com_velocity(double vel[2]) const {
  // (np.sum(mass * -cvel, 0) / np.sum(mass))[3:5]: the linear part's x and y.
  const mjModel* mm = m();
  const mjData* dd = d();
  const double total = numpy_sum(mm->body_mass, mm->nbody);
  for (int k = 0; k < 2; ++k) {
    double s = mm->body_mass[0] * -dd->cvel[3 + k];
    for (int b = 1; b < mm->nbody; ++b) s += mm->body_mass[b] * -dd->cvel[6 * b + 3 + k];
    vel[k] = s / total;
  }
}

double WalkEnv::foot_height(int side) const { return d()->xpos[3 * talus_[side] + 2]; }

void WalkEnv::observe(std::vector<double>& obs) {
  const mjModel* mm = m();
  const mjData* dd = d();
  obs.insert(obs.end(), dd->qpos + 2, dd->qpos + mm->nq);
  put_qvel_dt(obs);
  double vel[2];
  com_velocity(vel);
  obs.insert(obs.end(), vel, vel + 2);
  obs.insert(obs.end(), dd->xquat + 4 * torso_, dd->xquat + 4 * torso_ + 4);
  obs.push_back(foot_height(0));
  obs.push_back(foot_height(1));
  obs.push_back(com_height());
  for (const int foot : talus_) {
    for (int k = 0; k < 3; ++k) obs.push_back(dd->xpos[3 * foot + k] - dd->xpos[3 * pelvis_ + k]);
  }
  obs.push_back(std::fmod(steps_[0] / p_.hip_period, 1.0));
  obs.insert(obs.end(), dd->actuator_length, dd->actuator_length + mm->nu);
  for (int i = 0; i < mm->nu; ++i) obs.push_back(std::clamp(dd->actuator_velocity[i], -100.0, 100.0));
  for (int i = 0; i < mm->nu; ++i) obs.push_back(std::clamp(dd->actuator_force[i] / 1000, -100.0, 100.0));
  if (mm->na > 0) put_act(obs);
}

bool WalkEnv::fallen() const {
  if (com_height() < p_.min_height) return true;
  // _get_rot_condition: |(quat2mat(root quat) @ [1, 0, 0])[0]| > max_rot, the matrix's first entry.
  const double* q = d()->qpos + 3;
  const double nq = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
  double m00 = 1.0;
  if (nq > std::numeric_limits<double>::epsilon()) {
    const double s = 2.0 / nq;
    m00 = 1.0 - (q[2] * (q[2] * s) + q[3] * (q[3] * s));
  }
  return std::abs(m00) > p_.max_rot;
}

void WalkEnv::rewards(Rewards& r) {
  const mjModel* mm = m();
  const mjData* dd = d();
  // _get_vel_reward.
  double vel[2];
  com_velocity(vel);
  const double dy = p_.target_y_vel - vel[1], dx = p_.target_x_vel - vel[0];
  const double vel_reward = numpy_exp(-(dy * dy)) + numpy_exp(-(dx * dx));
  // _get_cyclic_rew: the desired hip angles as float32, as myosuite's array.
  const double phase = std::fmod(steps_[0] / p_.hip_period, 1.0);
  constexpr double pi = std::numbers::pi;
  const double des[2] = {static_cast<double>(static_cast<float>(0.8 * std::cos(phase * 2 * pi + pi))),
                         static_cast<double>(static_cast<float>(0.8 * std::cos(phase * 2 * pi)))};
  const double hip_err[2] = {des[0] - dd->qpos[hip_flexion_[0]], des[1] - dd->qpos[hip_flexion_[1]]};
  const double cyclic_hip = blas_norm(hip_err, 2);
  // _get_ref_rotation_rew.
  double rot_err[4];
  for (int k = 0; k < 4; ++k) rot_err[k] = 5.0 * (dd->qpos[3 + k] - target_rot_[static_cast<std::size_t>(k)]);
  const double ref_rot = numpy_exp(-blas_norm(rot_err, 4));
  // _get_joint_angle_rew: exp(-5 mean |angle|).
  double mag = std::abs(dd->qpos[hip_joints_[0]]);
  for (int k = 1; k < 4; ++k) mag += std::abs(dd->qpos[hip_joints_[k]]);
  mag /= 4;
  const double joint_angle_rew = numpy_exp(-5 * mag);
  const double act_mag = mm->na != 0 ? numpy_norm(dd->act, mm->na) / mm->na : 0.0;
  r.terms[0] = vel_reward;
  r.terms[1] = cyclic_hip;
  r.terms[2] = ref_rot;
  r.terms[3] = joint_angle_rew;
  r.terms[4] = act_mag;
  r.sparse = vel_reward;
  r.solved = vel_reward >= 1.0;
  r.done = fallen();
}

void WalkEnv::initial_state(std::vector<double>& qpos, std::vector<double>& qvel) {
  if (p_.reset_type == "random") {
    // get_randomized_initial_state: keyframe 2 or 3, then noise on every qpos entry. Only the height is put
    // back: myosuite's saved rotation is a view of the array the noise was added into.
    keyframe(m(), rng().uniform() < 0.5 ? 2 : 3, setup_.xml_file, qpos, qvel);
    const double height = qpos[2];
    for (double& q : qpos) q += rng().normal(0.0, 0.02);
    qpos[2] = height;
  } else {
    keyframe(m(), p_.reset_type == "init" ? 2 : 0, setup_.xml_file, qpos, qvel);
  }
}

void WalkEnv::reset_task(std::vector<double>& qpos, std::vector<double>& qvel) {
  steps_[0] = 0.0;
  initial_state(qpos, qvel);
}

namespace {

// ------------------------------------------------- walk_v0.py's ReachEnvV0

struct StandParams {
  // target_reach_range: the tip site and the offset's low and high.
  std::string site;
  std::array<std::array<double, 3>, 2> span{};
  std::array<double, 2> joint_random_range{};
  double far_th = 0.35;
};

class StandEnv : public MyoEnv {
 public:
  StandEnv(const Setup& setup, const TaskBase& base, StandParams params)
      : MyoEnv(setup, base, {"reach", "bonus", "act_reg", "penalty"}), p_(std::move(params)) {
    tip_ = site(p_.site);
    target_ = site(p_.site + "_target");
    // _setup: init_qpos and init_qvel are keyframe 0's; the heightfield goes 10 below.
    keyframe(m(), 0, setup_.xml_file, key_qpos_, key_qvel_);
    own_terrain_pos(m(), geom_pos_, terrain_geom(m(), setup_.xml_file), -10.0);
    // The skins (geom group 1) made transparent, the terrain hidden.
    own_geom_rgba(m(), geom_rgba_, terrain_geom(m(), setup_.xml_file), 0.0f, true);
  }

 protected:
  void reach_err(double err[3]) const {
    const double* x = d()->site_xpos;
    for (int k = 0; k < 3; ++k) err[k] = x[3 * target_ + k] - x[3 * tip_ + k];
  }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    obs.insert(obs.end(), dd->qpos, dd->qpos + mm->nq);
    put_qvel_dt(obs);
    obs.insert(obs.end(), dd->site_xpos + 3 * tip_, dd->site_xpos + 3 * tip_ + 3);
    double err[3];
    reach_err(err);
    obs.insert(obs.end(), err, err + 3);
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    double err[3];
    reach_err(err);
    const double reach_dist = numpy_norm(err, 3);
    qvel_dt_.assign(dd->qvel, dd->qvel + mm->nv);
    for (double& v : qvel_dt_) v *= dt();
    const double vel_dist = numpy_norm(qvel_dt_.data(), mm->nv);
    const double act_mag = mm->na != 0 ? numpy_norm(dd->act, mm->na) / mm->na : 0.0;
    const double far_th = dd->time > 2 * dt() ? p_.far_th * 1 : std::numeric_limits<double>::infinity();
    const double near_th = 1 * 0.050;
    r.terms[0] = 10.0 - 1.0 * reach_dist - 10.0 * vel_dist;
    r.terms[1] = 1.0 * (reach_dist < 2 * near_th) + 1.0 * (reach_dist < near_th);
    r.terms[2] = -100.0 * act_mag;
    r.terms[3] = -1.0 * (reach_dist > far_th);
    r.sparse = -1.0 * reach_dist;
    r.solved = reach_dist < near_th;
    r.done = reach_dist > far_th;
  }

  // generate_qpos: keyframe 0 plus nq uniforms, at the joints' qpos addresses only, clipped to their ranges.
  void generate_qpos(std::vector<double>& qpos) {
    const mjModel* mm = m();
    rand_.resize(static_cast<std::size_t>(mm->nq));
    for (double& x : rand_) x = rng().uniform(p_.joint_random_range[0], p_.joint_random_range[1]);
    qpos = key_qpos_;
    for (int j = 0; j < mm->njnt; ++j) {
      const auto a = static_cast<std::size_t>(mm->jnt_qposadr[j]);
      qpos[a] = std::min(std::max(qpos[a] + rand_[a], mm->jnt_range[2 * j]), mm->jnt_range[2 * j + 1]);
    }
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) override {
    const bool random_joints = p_.joint_random_range[1] - p_.joint_random_range[0] > 0;
    if (random_joints) {
      generate_qpos(qpos);
      std::copy(qpos.begin(), qpos.end(), d()->qpos);
    }
    forward();
    // generate_targets: the target site at the tip's position plus the drawn offset.
    double* target = site_pos(target_);
    for (int k = 0; k < 3; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      target[k] = d()->site_xpos[3 * tip_ + k] + rng().uniform(p_.span[0][kk], p_.span[1][kk]);
    }
    if (random_joints) {
      generate_qpos(qpos);
    } else {
      qpos = key_qpos_;
    }
    qvel = key_qvel_;
  }

 private:
  const StandParams p_;
  int tip_ = -1, target_ = -1;
  std::vector<double> key_qpos_, key_qvel_, geom_pos_, rand_, qvel_dt_;
  std::vector<float> geom_rgba_;
};

constexpr const char* kLegs = "simhive/myo_sim/leg/myolegs.xml";

bool register_all() {
  register_task("myoLegStandRandom-v0",
                {{kLegs, 10, {{"reach", 1.0}, {"bonus", 4.0}, {"penalty", 50}, {"act_reg", 1}}},
                 make_task<StandEnv>(StandParams{.site = "pelvis",
                                                 .span = {{{-0.05, -0.05, 0.0}, {0.05, 0.05, 0.0}}},
                                                 .joint_random_range = {-0.2, 0.2},
                                                 .far_th = 0.44})});
  // WalkEnv's last argument: the heightfield's height (10 below the floor).
  const auto walk = [](const Setup& s, const TaskBase& b) -> std::unique_ptr<MyoEnv> {
    return std::make_unique<WalkEnv>(s, b, WalkParams{}, -10.0);
  };
  register_task("myoLegWalk-v0", {{kLegs, 10, walk_weights()}, walk});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
