// MyoChallenge 2024's running track with a prosthetic leg: myosuite 2.11.6's
// RunTrack (envs/myo/myochallenge/run_track_v0.py), registered
// (envs/myo/myochallenge/__init__.py, lines 110-147) as
// myoChallengeOslRunFixed-v0 (flat track, start 14, end -15) and
// myoChallengeOslRunRandom-v0 (track of stairs, hills or rough ground, start
// 58, end -45), both on assets/leg/myoosl_runtrack.xml with frame_skip 5.
//
// The model has 54 muscles and the Open Source Leg's two motors; the policy
// drives the muscles (the action: na entries, as myosuite's action space)
// and the leg's state machine
// (osl_control.h) the motors: every step reads the leg's joints and load,
// moves the machine on and appends the torques / gear, clipped to ctrlrange
// and normalized by it (_append_osl_actions and get_osl_sens, lines
// 683-724). myosuite builds that full action as a float64 array, so the
// muscles' 1 / (1 + exp(-5 (a - 0.5))) and the fatigue model run in float64
// here (the base's controls_float64), not in float32.
//
// Observation (get_obs_dict, lines 178-208): 17 biological joints' qpos and
// qvel * dt, the left foot's two ground forces, the pelvis's orientation,
// the root's x-y position and velocity, the 54 muscles' lengths, velocities
// and forces (clipped, forces / 1000) and activations. Reward terms
// (get_reward_dict, lines 210-245): act_reg = mean(act^2), pain = the mean
// over 12 joints of |joint-limit force| / 1000 (clipped at 1); sparse =
// -root y velocity, solved = the root past end_pos; done = solved, off the
// track's width, 2 behind the start or fallen (head less than 0.2 above the
// feet's mean height or the ground).
//
// Reset (reset, lines 276-300): the track (run_track_terrain.h), then
// _get_randomized_initial_state (lines 379-400): one integer in [0, 3) picks
// keyframe 0, 1 or 2 (the leg's machine starts in early stance for 0 and 2,
// early swing for 1), one uniform in [-0.8, 0.8) the root's x, y is
// start_pos + 1; _randomize_position_orientation (lines 322-331): one
// uniform in [deg(-125), deg(-60)) the heading. A first Robot.reset places
// the body; adjust_model_height (lines 646-664) lifts it so that its lowest
// sole site is 0.005 high, and the base's reset starts from there. The
// registered ids use reset_type "random"; "init" and the keyframe-0 default
// are here too, "osl_init" (a row of the gait table) is not.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envs/myosuite/leg_challenge.h"
#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/osl_control.h"
#include "envs/myosuite/quat_math.h"
#include "envs/myosuite/run_track_terrain.h"
#include "envs/myosuite/walk.h"

namespace rlpool::myosuite {
namespace {

struct RunParams {
  TrackSpec track;
  double start_pos = 14;
  double end_pos = -15;
  double real_width = 1;
  std::string reset_type = "random";  // "random", "init", or anything else: keyframe 0
  int max_episode_steps = 36000;      // _setup's, for maxTime (the registry passes its horizon)
};

constexpr const char* kBiologicalJoints[] = {
    "hip_adduction_l", "hip_flexion_l", "hip_rotation_l", "hip_adduction_r", "hip_flexion_r", "hip_rotation_r",
    "knee_angle_l", "knee_angle_l_beta_rotation1", "knee_angle_l_beta_translation1",
    "knee_angle_l_beta_translation2", "knee_angle_l_rotation2", "knee_angle_l_rotation3",
    "knee_angle_l_translation1", "knee_angle_l_translation2", "mtp_angle_l", "ankle_angle_l", "subtalar_angle_l"};

constexpr const char* kBiologicalActuators[] = {
    "addbrev_l", "addbrev_r", "addlong_l", "addlong_r", "addmagDist_l", "addmagIsch_l", "addmagMid_l",
    "addmagProx_l", "bflh_l", "bfsh_l", "edl_l", "ehl_l", "fdl_l", "fhl_l", "gaslat_l", "gasmed_l",
    "glmax1_l", "glmax1_r", "glmax2_l", "glmax2_r", "glmax3_l", "glmax3_r", "glmed1_l", "glmed1_r",
    "glmed2_l", "glmed2_r", "glmed3_l", "glmed3_r", "glmin1_l", "glmin1_r", "glmin2_l", "glmin2_r",
    "glmin3_l", "glmin3_r", "grac_l", "iliacus_l", "iliacus_r", "perbrev_l", "perlong_l", "piri_l",
    "piri_r", "psoas_l", "psoas_r", "recfem_l", "sart_l", "semimem_l", "semiten_l", "soleus_l",
    "tfl_l", "tibant_l", "tibpost_l", "vasint_l", "vaslat_l", "vasmed_l"};

constexpr const char* kPainJoints[] = {"hip_adduction_l", "hip_adduction_r", "hip_flexion_l", "hip_flexion_r",
                                       "hip_rotation_l", "hip_rotation_r", "knee_angle_l", "knee_angle_l_rotation2",
                                       "knee_angle_l_rotation3", "mtp_angle_l", "ankle_angle_l", "subtalar_angle_l"};

constexpr const char* kSoleSites[] = {"r_heel_btm", "r_toe_btm", "l_heel_btm", "l_toe_btm"};

double deg(double x) { return x * (std::numbers::pi / 180.0); }

class RunTrackEnv : public MyoEnv {
 public:
  RunTrackEnv(const Setup& setup, const TaskBase& base, RunParams params)
      : MyoEnv(setup, base, {"act_reg", "pain"}),
        p_(std::move(params)),
        gait_(read_gait_cycle(gait_file(setup.xml_file))),
        osl_(numpy_sum(m()->body_mass, m()->nbody)) {
    const mjModel* mm = m();
    if (mm->nkey < 3) throw std::invalid_argument("'" + setup_.xml_file + "' has fewer than 3 keyframes");
    for (const char* name : kBiologicalJoints) {
      const int j = joint(name);
      bio_qpos_.push_back(mm->jnt_qposadr[j]);
      bio_dof_.push_back(mm->jnt_dofadr[j]);
    }
    for (const char* name : kBiologicalActuators) bio_act_.push_back(actuator(name));
    for (const char* name : kPainJoints) pain_dof_.push_back(mm->jnt_dofadr[joint(name)]);
    for (const char* name : kSoleSites) soles_.push_back(site(name));
    grf_[0] = sensor_adr("l_foot");
    grf_[1] = sensor_adr("l_toes");
    load_ = sensor_adr("r_osl_load");
    if (mm->sensor_dim[api().name2id(mm, mjOBJ_SENSOR, "r_osl_load")] < 2) {
      throw std::invalid_argument("'" + setup_.xml_file + "': sensor 'r_osl_load' has no vertical component");
    }
    pelvis_ = body("pelvis");
    head_ = site("head");
    foot_l_ = body("talus_l");
    foot_r_ = body("osl_foot_assembly");
    const char* osl_joints[2] = {"osl_knee_angle_r", "osl_ankle_angle_r"};
    const char* osl_motors[2] = {"osl_knee_torque_actuator", "osl_ankle_torque_actuator"};
    for (int k = 0; k < 2; ++k) {
      const int j = joint(osl_joints[k]);
      osl_qpos_[k] = mm->jnt_qposadr[j];
      osl_dof_[k] = mm->jnt_dofadr[j];
      osl_act_[k] = actuator(osl_motors[k]);
    }
    // RunTrack's action space is the muscles' (na); the leg's two motors take the controller's torques.
    set_action_size(mm->na);
    // The terrain: this env's own heights (hfield_data, float32), raised to 0.005 and shown (reset's
    // _maybe_sample_terrain writes the same every time).
    const int hf = api().name2id(mm, mjOBJ_HFIELD, "terrain");
    const int g = api().name2id(mm, mjOBJ_GEOM, "terrain");
    if (hf < 0 || g < 0) throw std::invalid_argument("'" + setup_.xml_file + "' has no heightfield geom 'terrain'");
    nrow_ = mm->hfield_nrow[hf];
    ncol_ = mm->hfield_ncol[hf];
    hfield_adr_ = mm->hfield_adr[hf];
    hfield_.assign(mm->hfield_data, mm->hfield_data + mm->nhfielddata);
    heights_.assign(static_cast<std::size_t>(nrow_) * static_cast<std::size_t>(ncol_), 0.0);
    m()->hfield_data = hfield_.data();
    own_terrain_pos(m(), geom_pos_, g, 0.005);
    geom_rgba_.assign(mm->geom_rgba, mm->geom_rgba + 4 * mm->ngeom);
    geom_rgba_[static_cast<std::size_t>(4 * g + 3)] = 1.0f;
    m()->geom_rgba = geom_rgba_.data();
    keep(&heights_);
    keep(&osl_state_);
  }

  // RunTrack.step: the muscles' action plus the leg's torques, through BaseV0.step in float64.
  void controls(const double* a) override {
    mjModel* mm = m();
    full_.assign(static_cast<std::size_t>(mm->nu), 0.0);
    for (int i = 0; i < mm->na && i < mm->nu; ++i) {
      full_[static_cast<std::size_t>(i)] = static_cast<double>(static_cast<float>(a[i]));
    }
    const OslSensors s = osl_sensors();
    osl_.reset(static_cast<OslState>(static_cast<int>(osl_state_[0])));
    osl_.update(s);
    osl_state_[0] = static_cast<double>(static_cast<int>(osl_.state()));
    const std::array<double, 2> torque = osl_.torques(s);
    for (int k = 0; k < 2; ++k) {
      const int id = osl_act_[k];
      const double lo = mm->actuator_ctrlrange[2 * id], hi = mm->actuator_ctrlrange[2 * id + 1];
      const double ctrl = std::min(std::max(torque[static_cast<std::size_t>(k)] / mm->actuator_gear[6 * id], lo), hi);
      const double mean = (lo + hi) / 2.0, range = (hi - lo) / 2.0;
      full_[static_cast<std::size_t>(id)] = (ctrl - mean) / range;
    }
    controls_float64(full_);
  }

  void set_state(std::string_view bytes) override {
    // A state whose leg state is not one of the four is refused, the env put back as it was.
    std::string previous;
    try {
      previous = MyoEnv::get_state();
    } catch (const std::logic_error&) {
      previous.clear();  // never reset: nothing to put back
    }
    restore(bytes);
    const double s = osl_state_[0];
    if (!(s == 0.0 || s == 1.0 || s == 2.0 || s == 3.0)) {
      if (previous.empty()) {
        osl_state_[0] = 0.0;
      } else {
        restore(previous);
      }
      throw std::invalid_argument("MyoSuite env state: the OSL state machine's state is not 0, 1, 2 or 3");
    }
  }

 protected:
  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    for (const int a : bio_qpos_) obs.push_back(dd->qpos[a]);
    for (const int v : bio_dof_) obs.push_back(dd->qvel[v] * dt());
    obs.push_back(dd->sensordata[grf_[0]]);
    obs.push_back(dd->sensordata[grf_[1]]);
    obs.insert(obs.end(), dd->xquat + 4 * pelvis_, dd->xquat + 4 * pelvis_ + 4);
    obs.push_back(dd->qpos[0]);
    obs.push_back(dd->qpos[1]);
    obs.push_back(dd->qvel[0]);
    obs.push_back(dd->qvel[1]);
    for (const int i : bio_act_) obs.push_back(dd->actuator_length[i]);
    for (const int i : bio_act_) obs.push_back(std::clamp(dd->actuator_velocity[i], -100.0, 100.0));
    for (const int i : bio_act_) obs.push_back(std::clamp(dd->actuator_force[i] / 1000, -100.0, 100.0));
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    const double act_mag = mean_square_act(mm, dd, squares_);
    const double pain = joint_limit_pain(mm, dd, pain_dof_, joint_force_);
    const double x = dd->qpos[0], y = dd->qpos[1];
    const bool win = y < p_.end_pos;
    const bool lose = x > p_.real_width || x < -p_.real_width || y > p_.start_pos + 2 || fallen();
    r.terms[0] = act_mag;
    r.terms[1] = pain;
    r.sparse = -dd->qvel[1];
    r.solved = win;
    r.done = lose || win;
    // A lost run sets obs_dict["time"] (the info's time) to maxTime: dt times _setup's max_episode_steps.
    if (lose) r.time = dt() * p_.max_episode_steps;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) override {
    const mjModel* mm = m();
    // _maybe_sample_terrain.
    sample_track(p_.track, nrow_, ncol_, rng(), heights_);
    write_hfield();
    // _get_reset_state.
    int key = 0;
    OslState state = OslState::kEarlyStance;
    if (p_.reset_type == "random") {
      key = static_cast<int>(rng().integer(3));
      if (key == 1) state = OslState::kEarlySwing;
    }
    qpos.assign(mm->key_qpos + key * mm->nq, mm->key_qpos + (key + 1) * mm->nq);
    qvel.assign(mm->key_qvel + key * mm->nv, mm->key_qvel + (key + 1) * mm->nv);
    osl_state_[0] = static_cast<double>(static_cast<int>(state));
    if (p_.reset_type == "random") {
      qpos[0] = rng().uniform(-p_.real_width * 0.8, p_.real_width * 0.8);
      qpos[1] = p_.start_pos + 1;
      randomize_heading(qpos, qvel);
    }
    if (p_.reset_type == "init") return;
    // The first reset (Robot.reset), then adjust_model_height from its sole sites.
    robot_reset(qpos, qvel);
    double lowest = 100;
    for (const int s : soles_) {
      const double z = d()->site_xpos[3 * s + 2];
      if (lowest > z) lowest = z;
    }
    qpos.assign(d()->qpos, d()->qpos + mm->nq);
    qvel.assign(d()->qvel, d()->qvel + mm->nv);
    qpos[2] = qpos[2] + (0.005 - lowest);
  }

 private:
  // The base's restore (the heights are kept, so restored too; it runs mj_forward over the old terrain),
  // then the restored heights written and mj_forward run again, the warm start put back as the base leaves it.
  void restore(std::string_view bytes) {
    MyoEnv::set_state(bytes);
    write_hfield();
    warmstart_.assign(d()->qacc_warmstart, d()->qacc_warmstart + m()->nv);
    forward();
    std::copy(warmstart_.begin(), warmstart_.end(), d()->qacc_warmstart);
  }

  static std::string gait_file(const std::string& xml_file) {
    const auto slash = xml_file.find_last_of('/');
    return (slash == std::string::npos ? std::string() : xml_file.substr(0, slash + 1)) + "sample_gait_cycle.csv";
  }

  int sensor_adr(const char* name) const {
    const int id = api().name2id(m(), mjOBJ_SENSOR, name);
    if (id < 0) throw std::invalid_argument("'" + setup_.xml_file + "' has no sensor named '" + name + "'");
    return m()->sensor_adr[id];
  }

  OslSensors osl_sensors() const {
    const mjData* dd = d();
    return {.knee_angle = dd->qpos[osl_qpos_[0]],
            .knee_vel = dd->qvel[osl_dof_[0]],
            .ankle_angle = dd->qpos[osl_qpos_[1]],
            .ankle_vel = dd->qvel[osl_dof_[1]],
            .load = -1 * dd->sensordata[load_ + 1]};
  }

  // _randomize_position_orientation: the yaw of the intrinsic roll-pitch-yaw angles drawn, and the
  // root's x-y speed turned to it.
  void randomize_heading(std::vector<double>& qpos, std::vector<double>& qvel) {
    const double orientation = rng().uniform(deg(-125), deg(-60));
    std::array<double, 3> euler = quat2euler_intrinsic(qpos.data() + 3);
    euler[2] = orientation;
    const std::array<double, 4> quat = intrinsic_euler2quat(euler);
    std::copy(quat.begin(), quat.end(), qpos.begin() + 3);
    turn_planar_velocity(orientation, qvel);
  }

  bool fallen() const {
    const mjData* dd = d();
    const double head = dd->site_xpos[3 * head_ + 2];
    const double mean = (dd->xpos[3 * foot_l_ + 2] + dd->xpos[3 * foot_r_ + 2]) / 2;
    return head - mean < 0.2 || head < 0.2;
  }

  // hfield_data's terrain rows from the kept heights (float32 values).
  void write_hfield() {
    std::transform(heights_.begin(), heights_.end(), hfield_.begin() + hfield_adr_,
                   [](double h) { return static_cast<float>(h); });
  }

  const RunParams p_;
  const GaitCycle gait_;  // sample_gait_cycle.csv (read by RunTrack._setup; reset_type "osl_init" only)
  OslController osl_;
  std::vector<int> bio_qpos_, bio_dof_, bio_act_, pain_dof_, soles_;
  int grf_[2] = {-1, -1};
  int load_ = -1, pelvis_ = -1, head_ = -1, foot_l_ = -1, foot_r_ = -1;
  int osl_qpos_[2] = {-1, -1}, osl_dof_[2] = {-1, -1}, osl_act_[2] = {-1, -1};
  int nrow_ = 0, ncol_ = 0, hfield_adr_ = 0;
  std::vector<float> hfield_, geom_rgba_;
  std::vector<double> heights_, geom_pos_, warmstart_;
  std::vector<double> osl_state_{0.0};
  std::vector<double> full_, squares_, joint_force_;
};

constexpr const char* kModel = "envs/myo/assets/leg/myoosl_runtrack.xml";

bool add(const std::string& id, RunParams params) {
  const std::vector<std::pair<std::string, double>> weights = {{"sparse", 1.0}, {"solved", 10.0}};
  return register_task(id, {{kModel, 5, weights}, make_task<RunTrackEnv>(std::move(params))});
}

const bool kRegistered =
    add("myoChallengeOslRunFixed-v0",
        RunParams{.track = {.reset_type = "flat",
                            .rough = {0.0, 0.1, 0.0, 0.15, 0.0, 0.2, 0.0, 0.3},
                            .hills = {0.0, 0.1, 0.0, 0.5, 0.0, 0.8, 0.0, 1.0},
                            .stairs = {0.0, 0.05, 0.0, 0.1, 0.0, 0.2, 0.0, 0.3}},
                  .start_pos = 14,
                  .end_pos = -15,
                  .max_episode_steps = 1000}) &&
    add("myoChallengeOslRunRandom-v0",
        RunParams{.track = {.reset_type = "random",
                            .rough = {0.0, 0.0, 0.0, 0.0, 0.0, 0.03, 0.0, 0.06, 0.0, 0.09, 0.0, 0.12,
                                      0.0, 0.15, 0.0, 0.18, 0.0, 0.21, 0.0, 0.24, 0.0, 0.0, 0.0, 0.0},
                            .hills = {0.0, 0.0, 0.0, 0.0, 0.0, 0.03, 0.0, 0.06, 0.0, 0.09, 0.0, 0.12,
                                      0.0, 0.15, 0.0, 0.18, 0.0, 0.21, 0.0, 0.24, 0.0, 0.0, 0.0, 0.0},
                            .stairs = {0.0, 0.0, 0.0, 0.0, 0.0, 0.03, 0.0, 0.06, 0.0, 0.09, 0.0, 0.12,
                                       0.0, 0.15, 0.0, 0.18, 0.0, 0.21, 0.0, 0.24, 0.0, 0.0, 0.0, 0.0}},
                  .start_pos = 58,
                  .end_pos = -45,
                  .max_episode_steps = 60000});

}  // namespace
}  // namespace rlpool::myosuite
