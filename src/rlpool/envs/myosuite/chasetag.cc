// MyoSuite's chase-tag challenge: myosuite 2.11.6's ChaseTagEnvV0 with its
// opponents ChallengeOpponent and RepellerChallengeOpponent
// (envs/myo/myochallenge/chasetag_v0.py), registered in
// envs/myo/myochallenge/__init__.py as myoChallengeChaseTagP1-v0, -P2-v0 and
// -P2eval-v0 on the leg model envs/myo/assets/leg/myolegs_chasetag.xml.
//
// The observation is qpos[7:35], qvel[6:34] * dt, the four foot touch
// sensors, the pelvis's orientation, the opponent's pose (x, y, yaw) and
// velocity, the root's x-y position and velocity, the actuators' lengths,
// velocities and forces (clipped, forces / 1000) and the activations. Reward
// terms: act_reg, distance (root to opponent), lose; sparse is the score on a
// win (CHASE: 1 - t / 20, EVADE: t / 20, t rounded to 0.01), the episode ends
// on a win or a loss (caught or tagging, 20 s, out of the 6.5 m square, or
// fallen while chasing).
//
// A reset draws, in order: P2's terrain (heightfield.h: every patch, then the
// relief); the task (P2: choice of CHASE, EVADE); the start (P1: keyframe 2;
// P2: one uniform picking keyframe 2 or 3, nq normals (0, 0.02) on qpos but
// its height, two uniforms in [-5, 5) for x-y, one in [0, 2 pi) for the
// heading); then the start's patch is made flat, and the model is reset and
// observed -- the opponent is still at the model's origin and its velocity
// the last step's. Then the opponent is reset: a new noise process
// (pink_noise.h: 2 x 1001 normals twice), its policy (CHASE: one uniform
// against the probabilities; EVADE: it chases), spawn draws (three uniforms
// until x-y is at least min_spawn_distance from the root), its chase speed
// (one uniform). Each step first moves the opponent by its policy (random:
// the next noise sample; repeller: a uniform for each coordinate within 0.1
// of its repellers' centre), then the model. The opponent's numbers and the
// terrain are part of a saved state. No draw uses numpy's global generator.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/heightfield.h"
#include "envs/myosuite/leg_challenge.h"
#include "envs/myosuite/pink_noise.h"
#include "envs/myosuite/quat_math.h"
#include "envs/myosuite/walk.h"

namespace rlpool::myosuite {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kMaxTime = 20.0;

enum Policy { kStaticStationary = 0, kStationary = 1, kRandom = 2, kRepeller = 3, kChasePlayer = 4 };
enum TaskKind { kChase = 0, kEvade = 1 };

struct ChaseTagParams {
  bool random_reset = false;    // reset_type "random" (else "init": keyframe 2)
  bool terrain = false;         // terrain "random" (else "FLAT": no heightfield)
  bool random_task = false;     // task_choice "random" (else "CHASE")
  FieldRanges ranges;
  bool repeller = false;
  std::array<double, 2> chase_vel_range{1.0, 1.0};
  std::array<double, 2> random_vel_range{1.0, 1.0};
  std::array<double, 2> repeller_vel_range{1.0, 1.0};
  std::vector<double> probabilities{0.1, 0.45, 0.45};
  double win_distance = 0.5;
  double min_spawn_distance = 2.0;
};

// _calc_angular_vel: 1 to turn one way, -1 the other, both angles first brought into [0, 2 pi].
double angular_vel(double current, double desired) {
  const auto wrap = [](double a) {
    if (a > 2 * kPi) {
      while (a > 2 * kPi) a = a - 2 * kPi;
    } else if (a < 0) {
      while (a < 0) a = a + 2 * kPi;
    }
    return a;
  };
  current = wrap(current);
  desired = wrap(desired);
  const double clock = std::abs(0 - current) + (2 * kPi - desired);
  const double anticlock = (2 * kPi - current) + (0 + desired);
  return clock < anticlock ? 1.0 : -1.0;
}

double numpy_sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }

class ChaseTagEnv : public OpponentEnv {
 public:
  ChaseTagEnv(const Setup& setup, const TaskBase& base, ChaseTagParams params)
      : OpponentEnv(setup, base, {"act_reg", "distance", "lose"}, "opponent"),
        p_(std::move(params)),
        noise_(2, 2000, 2.0) {
    const mjModel* mm = m();
    const std::size_t n_prob = p_.repeller ? 4 : 3;
    if (p_.probabilities.size() != n_prob) {
      throw std::invalid_argument(setup_.id + ": opponent_probabilities needs " + std::to_string(n_prob) + " values");
    }
    if (mm->nq < 35 || mm->nv < 34 || mm->nkey < 4) {
      throw std::invalid_argument("'" + setup_.xml_file + "' is not the chase-tag leg model (qpos, qvel, keyframes)");
    }
    pelvis_ = body("pelvis");
    root_ = body("root");
    talus_[0] = body("talus_l");
    talus_[1] = body("talus_r");
    head_ = site("head");
    grf_ = foot_touch_sensors(mm, setup_.xml_file);
    const int terrain = terrain_geom_id(mm, setup_.xml_file);
    // _maybe_sample_terrain: the heightfield at the origin, or 10 below when the terrain is flat.
    own_terrain_pos(m(), geom_pos_, terrain, p_.terrain ? 0.0 : -10.0);
    if (p_.terrain) {
      const int h = mm->geom_dataid[terrain];
      if (h != 0 || mm->nhfield != 1) {
        throw std::invalid_argument("'" + setup_.xml_file + "': expected one heightfield");
      }
      const std::string dir = setup_.xml_file.substr(0, setup_.xml_file.find_last_of('/'));
      field_.emplace(mm->hfield_nrow[0], mm->hfield_ncol[0], p_.ranges, dir + "/../myo_relief.npy");
      hfield_.assign(mm->hfield_data, mm->hfield_data + mm->nhfielddata);
      heights_.assign(hfield_.begin(), hfield_.end());
      m()->hfield_data = hfield_.data();
      keep(&heights_);
    }
    keep(&opponent_);
    keep(noise_.buffer());
    keep(noise_.position());
  }

 protected:
  // The float heightfield from its kept heights, before set_state's mj_forward.
  void restore_model() override {
    if (field_) write_hfield();
  }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    obs.insert(obs.end(), dd->qpos + 7, dd->qpos + 35);
    for (int i = 6; i < 34; ++i) obs.push_back(dd->qvel[i] * dt());
    for (const int adr : grf_) obs.push_back(dd->sensordata[adr]);
    obs.insert(obs.end(), dd->xquat + 4 * pelvis_, dd->xquat + 4 * pelvis_ + 4);
    const std::array<double, 3> pose = opponent_pose();
    obs.insert(obs.end(), pose.begin(), pose.end());
    obs.push_back(opponent_[2]);
    obs.push_back(opponent_[3]);
    obs.insert(obs.end(), dd->qpos, dd->qpos + 2);
    obs.insert(obs.end(), dd->qvel, dd->qvel + 2);
    put_actuator_state(mm, dd, obs);
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    const double act_mag = mm->na != 0 ? numpy_norm(dd->act, mm->na) / mm->na : 0.0;
    const bool chase = opponent_[4] == kChase;
    const double* pelvis = dd->xpos + 3 * pelvis_;
    const double* opp = dd->mocap_pos + 3 * mocap_;
    const double diff[2] = {pelvis[0] - opp[0], pelvis[1] - opp[1]};
    const bool caught = blas_norm(diff, 2) <= p_.win_distance;
    const bool out_of_bounds = std::abs(pelvis[0]) > 6.5 || std::abs(pelvis[1]) > 6.5;
    const double time = dd->time;
    const bool win = chase ? caught : time >= kMaxTime;
    const bool lose = chase ? (fallen() || time >= kMaxTime || out_of_bounds) : (caught || out_of_bounds);
    double score = 0.0;
    if (chase ? win : (win || lose)) {
      const double t = std::nearbyint(time * 100) / 100;
      score = chase ? 1 - t / kMaxTime : t / kMaxTime;
    }
    const double root_diff[2] = {dd->qpos[0] - opp[0], dd->qpos[1] - opp[1]};
    r.terms[0] = act_mag;
    r.terms[1] = blas_norm(root_diff, 2);
    r.terms[2] = lose ? 1.0 : 0.0;
    r.sparse = score;
    r.solved = win;
    r.done = lose || win;
    // A lost chase sets obs_dict["time"] (the info's time) to maxTime.
    if (chase && lose) r.time = kMaxTime;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) override {
    if (field_) field_->sample(rng(), heights_.data());
    // _sample_task: choice(Task).
    opponent_[4] = p_.random_task ? static_cast<double>(rng().integer(2)) : kChase;
    const mjModel* mm = m();
    const auto key = [&](int k) {
      qpos.assign(mm->key_qpos + k * mm->nq, mm->key_qpos + (k + 1) * mm->nq);
      qvel.assign(mm->key_qvel + k * mm->nv, mm->key_qvel + (k + 1) * mm->nv);
    };
    if (p_.random_reset) {
      // _get_randomized_initial_state (the rotation saved is a view, so only the height is put back), then
      // _randomize_position_orientation.
      key(rng().uniform() < 0.5 ? 2 : 3);
      const double height = qpos[2];
      for (double& q : qpos) q += rng().normal(0.0, 0.02);
      qpos[2] = height;
      randomize_position_orientation(rng(), qpos, qvel);
    } else {
      key(2);
    }
    if (field_) {
      field_->flatten_patch_at(qpos[0], qpos[1], heights_.data());
      write_hfield();
    }
  }

 private:
  // _get_fallen_condition: the pelvis below 0.5 on flat ground, else the head less than 0.2 above the feet.
  bool fallen() const {
    const mjData* dd = d();
    if (!p_.terrain) return dd->xpos[3 * pelvis_ + 2] < 0.5;
    const double mean = (dd->xpos[3 * talus_[0] + 2] + dd->xpos[3 * talus_[1] + 2]) / 2;
    return dd->site_xpos[3 * head_ + 2] - mean < 0.2;
  }

  std::array<double, 3> opponent_pose() const {
    const double* pos = d()->mocap_pos + 3 * mocap_;
    return {pos[0], pos[1], opponent_yaw()};
  }

  // ChallengeOpponent.reset_opponent(player_task, rng), after ChaseTagEnvV0.reset's base reset.
  void reset_opponent() override {
    noise_.start(rng(), 10.0);
    opponent_[2] = 0.0;
    opponent_[3] = 0.0;
    if (opponent_[4] == kChase) {
      // sample_opponent_policy: past the last probability the policy stays (the repeller's: repeller).
      const double u = rng().uniform();
      const auto& pr = p_.probabilities;
      if (u < pr[0]) {
        opponent_[0] = kStaticStationary;
      } else if (u < pr[0] + pr[1]) {
        opponent_[0] = kStationary;
      } else if (u < pr[0] + pr[1] + pr[2]) {
        opponent_[0] = kRandom;
      } else if (p_.repeller) {
        opponent_[0] = kRepeller;
      }
    } else {
      opponent_[0] = kChasePlayer;
    }
    const double* root = d()->xpos + 3 * root_;
    std::array<double, 3> pose{};
    double dist = 0.0;
    while (dist < p_.min_spawn_distance) {
      pose[0] = rng().uniform(-5.0, 5.0);
      pose[1] = rng().uniform(-5.0, 5.0);
      pose[2] = rng().uniform(-2 * kPi, 2 * kPi);
      const double diff[2] = {pose[0] - root[0], pose[1] - root[1]};
      dist = blas_norm(diff, 2);
    }
    if (opponent_[0] == kStaticStationary) pose = {0.0, -5.0, 0.0};
    set_opponent_pose(pose[0], pose[1], pose[2]);
    opponent_[1] = rng().uniform(p_.chase_vel_range[0], p_.chase_vel_range[1]);
  }

  // RepellerChallengeOpponent.repeller_stochastic.
  std::array<double, 2> repel() {
    const mjData* dd = d();
    const std::array<double, 3> opp = opponent_pose();
    // get_repellers: the pelvis, then the walls x = 8.7, x = -8.7, y = 8.7, y = -8.7 at 25 points each.
    std::vector<std::array<double, 2>> obstacles{{dd->xpos[3 * pelvis_], dd->xpos[3 * pelvis_ + 1]}};
    constexpr double kBound = 8.7;
    constexpr int kPoints = 25;
    const double step = (kBound - -kBound) / (kPoints - 1);
    std::array<double, kPoints> line{};
    for (int i = 0; i < kPoints; ++i) {
      line[static_cast<std::size_t>(i)] = i == kPoints - 1 ? kBound : i * step + -kBound;
    }
    for (const double b : line) obstacles.push_back({kBound, b});
    for (const double b : line) obstacles.push_back({-kBound, b});
    for (const double b : line) obstacles.push_back({b, kBound});
    for (const double b : line) obstacles.push_back({b, -kBound});
    constexpr double kInfluence = 3.5, kEta = 20.0;
    std::vector<double> forces;
    double com[2] = {0.0, 0.0};
    for (const auto& o : obstacles) {
      const double diff[2] = {o[0] - opp[0], o[1] - opp[1]};
      const double distance = blas_norm(diff, 2);
      if (!(distance < kInfluence)) continue;
      const double f = 1 / std::max(distance, 0.00001) - 1 / kInfluence;
      forces.push_back(0.5 * kEta * (f * f));
      com[0] = forces.size() == 1 ? o[0] : com[0] + o[0];
      com[1] = forces.size() == 1 ? o[1] : com[1] + o[1];
    }
    const auto& range = p_.repeller_vel_range;
    if (forces.empty()) {
      double sample[2];
      noise_.sample(rng(), sample);
      return {std::clamp(sample[0], range[0], range[1]), angular_vel(opp[2], sample[1])};
    }
    const auto k = static_cast<double>(forces.size());
    com[0] /= k;
    com[1] /= k;
    const double mean_force = numpy_sum(forces.data(), static_cast<int>(forces.size())) / k;
    const double linear = std::clamp(mean_force, range[0], range[1]);
    double escape[2] = {opp[0] - com[0], opp[1] - com[1]};
    for (double& e : escape) {
      if (std::abs(e) <= 0.1) e = -1 * numpy_sign(e) * rng().uniform(0.3, 0.9);
    }
    const double direction = std::atan2(escape[1], escape[0]) + 1.57;
    return {linear, angular_vel(opp[2], direction)};
  }

  // update_opponent_state, then move_opponent.
  void update_opponent() override {
    std::array<double, 2> vel{0.0, 0.0};
    const auto policy = static_cast<int>(opponent_[0]);
    if (policy == kRandom) {
      double sample[2];
      noise_.sample(rng(), sample);
      const auto& range = p_.random_vel_range;
      for (std::size_t k = 0; k < 2; ++k) vel[k] = std::clamp(sample[k], range[0], range[1]);
    } else if (policy == kRepeller) {
      vel = repel();
    } else if (policy == kChasePlayer) {
      // chase_player: the chase speed, turning by the heading's dot product with the way to the pelvis.
      const std::array<double, 3> pose = opponent_pose();
      const double* pel = d()->xpos + 3 * pelvis_;
      const double heading[2] = {std::cos(pose[2]), std::sin(pose[2])};
      const double to_pelvis[2] = {pel[0] - pose[0], pel[1] - pose[1]};
      vel = {opponent_[1], blas_dot2(heading, to_pelvis)};
    }
    // move_opponent: the velocity kept (its speed made positive), clipped to [-2, 2] to move by dt.
    vel[0] = std::abs(vel[0]);
    opponent_[2] = vel[0];
    opponent_[3] = vel[1];
    const double v0 = std::clamp(vel[0], -2.0, 2.0), v1 = std::clamp(vel[1], -2.0, 2.0);
    std::array<double, 3> pose = opponent_pose();
    const double x_vel = v0 * std::cos(pose[2] + 0.5 * kPi);
    const double y_vel = v0 * std::sin(pose[2] + 0.5 * kPi);
    pose[0] -= dt() * x_vel;
    pose[1] -= dt() * y_vel;
    pose[2] += dt() * v1;
    pose[0] = std::clamp(pose[0], -5.5, 5.5);
    pose[1] = std::clamp(pose[1], -5.5, 5.5);
    set_opponent_pose(pose[0], pose[1], pose[2]);
  }

  void write_hfield() {
    std::transform(heights_.begin(), heights_.end(), hfield_.begin(), [](double h) { return static_cast<float>(h); });
  }

  const ChaseTagParams p_;
  ColoredNoise noise_;
  std::optional<ChaseTagField> field_;
  // The opponent: policy, chase speed, velocity (2) as observed, and the player's task.
  std::vector<double> opponent_{kStationary, 1.0, 0.0, 0.0, kChase};
  std::vector<float> hfield_;
  std::vector<double> heights_, geom_pos_;
  int pelvis_ = -1, root_ = -1, head_ = -1;
  int talus_[2] = {-1, -1};
  std::array<int, 4> grf_{};
};

constexpr const char* kModel = "envs/myo/assets/leg/myolegs_chasetag.xml";

bool add(const std::string& id, ChaseTagParams params) {
  return register_task(id, {{kModel, 10, {{"distance", -0.1}, {"lose", -1000}}},
                            make_task<ChaseTagEnv>(std::move(params))});
}

ChaseTagParams level2(bool eval) {
  ChaseTagParams p{.random_reset = true,
                   .terrain = true,
                   .random_task = true,
                   .ranges = {.rough = {0.05, 0.1}, .hills = {0.03, 0.23}, .relief = {0.1, 0.3}},
                   .repeller = eval,
                   .chase_vel_range = {1.0, 1.0},
                   .random_vel_range = {-2.0, 2.0},
                   .repeller_vel_range = {1.0, 1.0},
                   .probabilities = {0.1, 0.45, 0.45}};
  if (eval) {
    p.chase_vel_range = {1.0, 5.0};
    p.repeller_vel_range = {0.3, 1.0};
    p.probabilities = {0.1, 0.35, 0.35, 0.2};
  }
  return p;
}

const bool kRegistered = add("myoChallengeChaseTagP1-v0", ChaseTagParams{}) &&
                         add("myoChallengeChaseTagP2-v0", level2(false)) &&
                         add("myoChallengeChaseTagP2eval-v0", level2(true));

}  // namespace
}  // namespace rlpool::myosuite
