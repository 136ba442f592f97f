// MyoSuite's MyoDM object-manipulation tasks: myosuite 2.11.6's TrackEnv
// (envs/myo/myodm/myodm_v0.py: _setup, get_obs_dict, get_reward_dict,
// check_termination, reset), its ReferenceMotion (logger/reference_motion.py:
// load, the type rule, find_timeslot_in_reference, get_reference), the
// quaternion helpers it calls (utils/quat_math.py, quat_math.h: mat2quat, quat2euler,
// quatDiff2Vel) and its 190 ids (envs/myo/myodm/__init__.py): 90 that track a
// recorded motion (an .npz of myodm/data, 75 steps), and for each of the 50
// objects a Fixed id (one target, the object starting 0.57 m from it: done
// at the first step) and a Random id (targets drawn between two rows), 50
// steps each.
//
// The model is the hand-and-table template with the object swapped in
// (myohand_object_<object>.xml, written next to the template when the wheel
// is unpacked: myodm_models.py). A tracked motion's arrays are read from the
// .npy files that step writes from its .npz (data/<motion>/<key>.npy), with
// the object's starting Euler angles, which it computes with numpy: numpy's
// float64 arctan2 (a SIMD kernel where the CPU has AVX512F) and the C
// library's atan2 differ in the last bit for some angles, and the start state
// feeds every step after it.
//
// At every observation the reference at the current time moves the "target"
// site to its object position and runs mj_forward, as update_reference_insim.
// Draw order: a Random id draws, at EVERY observation (the reset's included;
// myosuite's _setup's too, before the first reset, which rlpool's reseeded
// generator makes irrelevant), three uniform vectors from the env's
// generator: robot (29), robot_vel (29), object (7), each element
// low + (high - low) * u in order. The tracking and Fixed ids draw nothing.
//
// The observation is qpos, qvel, the hand's joint error (qpos[:-6] - robot
// reference), its velocity error (qvel[:-6] - robot_vel reference; a single
// 0 for the motions, which have no robot_vel), the object's centre-of-mass
// error (object - target) and the muscles' activations. The reward terms are
// pose (0.35 exp(-5 |qpos error|^2) + 0.05 exp(-0.1 |qvel error|^2)), object
// (exp(-50 (|com error| + 0.1 rotation error / pi)) + exp(-40 |object -
// wrist|)), bonus (target and object above the lift height) and penalty (the
// object beyond 0.25 m of its target or of the wrist), which is also done.
// mat2quat takes the object's orientation from the largest eigenvector of a
// 4x4 matrix (numpy's eigh); here the same quaternion comes in closed form,
// equal but for the last bits. The rewards' exp and atan2 are the C
// library's, which differ from numpy's SIMD kernels in the last bit for some
// inputs: the rewards agree to about 1e-16, the observations exactly.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "_core/io/npy_file.h"
#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/numpy_exp.h"
#include "envs/myosuite/quat_math.h"

namespace rlpool::myosuite {
namespace {

constexpr int kObjectDim = 7;  // position and quaternion
constexpr int kObjectJoints = 6;

// ReferenceType: FIXED (one row), RANDOM (two rows: low, high), TRACK (more).
enum class RefType { kFixed, kRandom, kTrack };

// A float64 array of a .npy file, shared by the envs reading it.
struct Array {
  std::vector<std::int64_t> shape;
  std::vector<double> values;
};

[[noreturn]] void bad_reference(const std::string& path, const std::string& why) {
  throw std::invalid_argument("MyoDM reference motion file '" + path + "' " + why);
}

std::shared_ptr<const Array> read_array(const std::string& path) {
  NpyBytes npy = read_npy(path, {"<f8"}, bad_reference);
  auto out = std::make_shared<Array>();
  out->shape = std::move(npy.shape);
  out->values = float64_values(npy);
  return out;
}

// The array `key` of a motion's folder, which must have `shape` (-1: any length).
std::shared_ptr<const Array> motion_array(const std::string& folder, const std::string& key,
                                          const std::vector<std::int64_t>& shape) {
  const std::string path = folder + "/" + key + ".npy";
  auto array = shared_copy(path, read_array);
  bool fits = array->shape.size() == shape.size();
  for (std::size_t i = 0; fits && i < shape.size(); ++i) fits = shape[i] < 0 || array->shape[i] == shape[i];
  if (!fits) bad_reference(path, "has shape " + shape_text(array->shape) + ", not " + shape_text(shape));
  return array;
}

// np.around(t, 4): rint(t * 10^4) / 10^4.
double round4(double t) { return std::nearbyint(t * 10000.0) / 10000.0; }

// A reference as ReferenceMotion holds it: `rows` rows of robot (robot_dim), robot_vel (robot_dim, or none)
// and object (7) values, with time (rounded) for a tracked motion.
struct Reference {
  RefType type = RefType::kFixed;
  int rows = 1;
  std::vector<double> time, robot, robot_vel, object, robot_init, object_init;
  std::vector<double> object_init_euler;  // quat2euler(object_init[3:]), as numpy computes it (a motion's)
};

// The registered dict references (__init__.py register_MyoHand_object).
Reference fixed_reference(int robot_dim) {
  Reference r;
  r.type = RefType::kFixed;
  r.rows = 1;
  r.robot.assign(static_cast<std::size_t>(robot_dim), 0.0);
  r.robot_vel = r.robot;
  r.object = {0.2, 0.2, 0.1, 1.0, 0.0, 0.0, 0.1};
  r.robot_init = r.robot;  // load: robot[0]
  r.object_init = {-0.2, -0.2, 0.1, 1.0, 0.0, 0.0, 0.0};
  return r;
}

Reference random_reference(int robot_dim) {
  Reference r;
  r.type = RefType::kRandom;
  r.rows = 2;
  r.robot.assign(2 * static_cast<std::size_t>(robot_dim), 0.0);
  r.robot_vel = r.robot;
  r.object = {-0.2, -0.2, 0.1, 1.0, 0.0, 0.0, -1.0, 0.2, 0.2, 0.1, 1.0, 0.0, 0.0, 1.0};
  r.robot_init.assign(static_cast<std::size_t>(robot_dim), 0.0);  // load: robot[0]
  r.object_init = {0.0, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0};
  return r;
}

// A recorded motion: the arrays of its .npz (time, robot, object, robot_init, object_init; none of the
// registered ones has robot_vel) and object_init_euler, from the .npy files of `folder`.
Reference track_reference(const std::string& folder, int robot_dim) {
  const auto time = motion_array(folder, "time", {-1});
  const std::int64_t frames = time->shape[0];
  if (frames <= 2) {
    bad_reference(folder + "/time.npy", "has " + std::to_string(frames) + " frames: a motion has more than 2");
  }
  const auto robot = motion_array(folder, "robot", {frames, robot_dim});
  const auto object = motion_array(folder, "object", {frames, kObjectDim});
  const auto robot_init = motion_array(folder, "robot_init", {robot_dim});
  const auto object_init = motion_array(folder, "object_init", {kObjectDim});
  const auto euler = motion_array(folder, "object_init_euler", {3});
  Reference r;
  r.type = RefType::kTrack;
  r.rows = static_cast<int>(frames);
  r.time.reserve(time->values.size());
  for (const double t : time->values) r.time.push_back(round4(t));
  r.robot = robot->values;
  r.object = object->values;
  r.robot_init = robot_init->values;
  r.object_init = object_init->values;
  r.object_init_euler = euler->values;
  return r;
}

double norm2(const double* x, int n) {
  thread_local std::vector<double> squares;
  squares.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) squares[static_cast<std::size_t>(i)] = x[i] * x[i];
  return numpy_sum(squares.data(), n);
}

struct TrackParams {
  std::string object;  // the object's body name
  RefType type = RefType::kTrack;
  std::string motion;  // a tracked motion's file name without ".npz"
};

class TrackEnv : public MyoEnv {
 public:
  TrackEnv(const Setup& setup, const TaskBase& base, TrackParams params)
      : MyoEnv(setup, base, {"pose", "object", "bonus", "penalty"}), p_(std::move(params)) {
    const mjModel* mm = m();
    robot_dim_ = mm->nq - kObjectJoints;
    if (robot_dim_ <= 0 || mm->nv != mm->nq) {
      throw std::invalid_argument(setup.id + ": '" + setup.xml_file + "' is not a hand with a free-floating object");
    }
    // The wheel's myosuite/ folder: the model's path less the task's relative one.
    const std::string myosuite = setup.xml_file.substr(0, setup.xml_file.size() - base.model.size());
    switch (p_.type) {
      case RefType::kFixed: ref_ = fixed_reference(robot_dim_); break;
      case RefType::kRandom: ref_ = random_reference(robot_dim_); break;
      case RefType::kTrack: ref_ = track_reference(myosuite + "envs/myo/myodm/data/" + p_.motion, robot_dim_); break;
    }
    target_sid_ = site("target");
    object_bid_ = body(p_.object);
    wrist_bid_ = body("lunate");
    // The skeleton's "body" geom is hidden (its alpha 0), in this env's own copy of geom_rgba.
    geom_rgba_.assign(mm->geom_rgba, mm->geom_rgba + 4 * mm->ngeom);
    geom_rgba_[4 * static_cast<std::size_t>(find_geom("body", setup)) + 3] = 0.0f;
    m()->geom_rgba = geom_rgba_.data();
    // _setup, before BaseV0's: the lift height from the object's initial centre of mass.
    lift_z_ = d()->xipos[3 * object_bid_ + 2] + 0.02;
    // _setup, after: init_qpos takes robot_init, object_init's position and its quaternion as Euler angles.
    // A motion's angles come computed by numpy (its arctan2 and the C library's differ in the last bit).
    std::array<double, 3> euler = quat2euler(ref_.object_init.data() + 3);
    if (!ref_.object_init_euler.empty()) std::copy_n(ref_.object_init_euler.begin(), 3, euler.begin());
    init_.assign(ref_.robot_init.begin(), ref_.robot_init.end());
    init_.insert(init_.end(), ref_.object_init.begin(), ref_.object_init.begin() + 3);
    init_.insert(init_.end(), euler.begin(), euler.end());
    const std::size_t robot = static_cast<std::size_t>(robot_dim_);
    robot_ref_.resize(robot);
    robot_vel_ref_.resize(ref_.robot_vel.empty() ? 0 : robot);
    object_ref_.resize(kObjectDim);
    keep(&index_cache_);
  }

 protected:
  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    // get_reference at the current time, then update_reference_insim.
    reference_at(dd->time);
    std::copy(object_ref_.begin(), object_ref_.begin() + 3, site_pos(target_sid_));
    forward();
    obs.insert(obs.end(), dd->qpos, dd->qpos + mm->nq);
    obs.insert(obs.end(), dd->qvel, dd->qvel + mm->nv);
    const auto robot = static_cast<std::size_t>(robot_dim_);
    qpos_err_.resize(robot);
    for (std::size_t i = 0; i < robot; ++i) qpos_err_[i] = dd->qpos[i] - robot_ref_[i];
    obs.insert(obs.end(), qpos_err_.begin(), qpos_err_.end());
    qvel_err_.assign(1, 0.0);  // np.array([0]) without a robot_vel reference
    if (!robot_vel_ref_.empty()) {
      qvel_err_.resize(robot);
      for (std::size_t i = 0; i < robot; ++i) qvel_err_[i] = dd->qvel[i] - robot_vel_ref_[i];
    }
    obs.insert(obs.end(), qvel_err_.begin(), qvel_err_.end());
    const double* com = dd->xipos + 3 * object_bid_;
    const double* wrist = dd->xipos + 3 * wrist_bid_;
    for (int k = 0; k < 3; ++k) {
      com_err_[static_cast<std::size_t>(k)] = com[k] - object_ref_[static_cast<std::size_t>(k)];
      base_err_[static_cast<std::size_t>(k)] = com[k] - wrist[k];
    }
    obs.insert(obs.end(), com_err_.begin(), com_err_.end());
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjData* dd = d();
    const double* com = dd->xipos + 3 * object_bid_;
    // tgt - obj squares as obj - tgt.
    const double obj_com_err = std::sqrt(norm2(com_err_.data(), 3));
    const std::array<double, 4> obj_rot = mat2quat(dd->ximat + 9 * object_bid_);
    const double obj_rot_err = quat_diff_angle(obj_rot.data(), object_ref_.data() + 3) / std::numbers::pi;
    const double obj_reward = numpy_exp(-50.0 * (obj_com_err + 0.1 * obj_rot_err));
    const bool lift_bonus = object_ref_[2] >= lift_z_ && com[2] >= lift_z_;
    const double qpos_reward = numpy_exp(-5.0 * norm2(qpos_err_.data(), robot_dim_));
    const double qvel_reward = numpy_exp(-0.1 * norm2(qvel_err_.data(), static_cast<int>(qvel_err_.size())));
    const double base_reward = numpy_exp(-40.0 * std::sqrt(norm2(base_err_.data(), 3)));
    // check_termination: the object too far from its target, or from the wrist (0.25 m).
    const bool fail = norm2(com_err_.data(), 3) >= 0.0625 || norm2(base_err_.data(), 3) >= 0.0625;
    r.terms[0] = 0.35 * qpos_reward + 0.05 * qvel_reward;
    r.terms[1] = obj_reward + base_reward;
    r.terms[2] = lift_bonus ? 1.0 : 0.0;
    r.terms[3] = fail ? 1.0 : 0.0;
    r.sparse = 0.0;
    r.solved = false;
    r.done = fail;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& /*qvel*/) override {
    index_cache_[0] = 0.0;  // ReferenceMotion.reset
    std::copy(init_.begin(), init_.begin() + robot_dim_ + 3, qpos.begin());
    std::copy(init_.end() - 3, init_.end(), qpos.end() - 3);
  }

 private:
  int find_geom(const char* name, const Setup& setup) const {
    const int id = api().name2id(m(), mjOBJ_GEOM, name);
    if (id < 0) throw std::invalid_argument("'" + setup.xml_file + "' has no geom named '" + name + "'");
    return id;
  }

  // find_timeslot_in_reference (motion_extrapolation on, as every id has it): the frames around `time`.
  std::pair<int, int> timeslot(double time) {
    const std::vector<double>& t = ref_.time;
    const int last = ref_.rows - 1;
    if (time >= t.back()) return {last, last};
    int cache = static_cast<int>(index_cache_[0]);
    const auto at = [&](int i) { return t[static_cast<std::size_t>(i)]; };
    std::pair<int, int> slot{-1, -1};
    if (time == at(cache)) {
      slot = {cache, cache};
    } else if (cache < last && time == at(cache + 1)) {
      ++cache;
      slot = {cache, cache};
    } else if (cache < last && time > at(cache) && time < at(cache + 1)) {
      slot = {cache, cache + 1};
    } else if (cache < last) {
      // np.searchsorted(time, t, side="right") - 1.
      cache = static_cast<int>(std::upper_bound(t.begin(), t.end(), time) - t.begin()) - 1;
      if (cache >= 0 && time == at(cache)) {
        slot = {cache, cache};
      } else if (cache >= 0 && time > at(cache) && time < at(cache + 1)) {
        slot = {cache, cache + 1};
      }
    }
    if (slot.first < 0) throw std::runtime_error(setup_.id + ": no reference frame for time " + std::to_string(time));
    index_cache_[0] = static_cast<double>(cache);
    return slot;
  }

  // get_reference: robot_ref_, robot_vel_ref_ and object_ref_ at `time`.
  void reference_at(double time) {
    const auto row = [](const std::vector<double>& v, int i, std::size_t n) {
      return v.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(i) * n);
    };
    const std::size_t nr = robot_ref_.size();
    if (ref_.type == RefType::kFixed) {
      std::copy_n(ref_.robot.begin(), nr, robot_ref_.begin());
      std::copy_n(ref_.robot_vel.begin(), nr, robot_vel_ref_.begin());
      std::copy_n(ref_.object.begin(), kObjectDim, object_ref_.begin());
    } else if (ref_.type == RefType::kRandom) {
      const auto draw = [this](const std::vector<double>& rows, std::vector<double>& out) {
        const std::size_t n = out.size();
        for (std::size_t i = 0; i < n; ++i) out[i] = rng().uniform(rows[i], rows[n + i]);
      };
      draw(ref_.robot, robot_ref_);
      draw(ref_.robot_vel, robot_vel_ref_);
      draw(ref_.object, object_ref_);
    } else {
      const double t = round4(time);
      const auto [ind, next] = timeslot(t);
      if (ind == next) {
        std::copy_n(row(ref_.robot, ind, nr), nr, robot_ref_.begin());
        std::copy_n(row(ref_.object, ind, kObjectDim), kObjectDim, object_ref_.begin());
      } else {
        // Between two frames, with myosuite's blend as it writes it: blend = t - t0 / (t1 - t0), the robot
        // (1 - blend) ** robot[ind] + blend * robot[next], the object (1 - blend) * object[ind] + ...
        const double t0 = ref_.time[static_cast<std::size_t>(ind)], t1 = ref_.time[static_cast<std::size_t>(next)];
        const double blend = t - t0 / (t1 - t0);
        for (std::size_t i = 0; i < nr; ++i) {
          robot_ref_[i] = std::pow(1.0 - blend, *(row(ref_.robot, ind, nr) + static_cast<std::ptrdiff_t>(i))) +
                          blend * *(row(ref_.robot, next, nr) + static_cast<std::ptrdiff_t>(i));
        }
        for (std::size_t i = 0; i < kObjectDim; ++i) {
          object_ref_[i] = (1.0 - blend) * *(row(ref_.object, ind, kObjectDim) + static_cast<std::ptrdiff_t>(i)) +
                           blend * *(row(ref_.object, next, kObjectDim) + static_cast<std::ptrdiff_t>(i));
        }
      }
    }
  }

  const TrackParams p_;
  Reference ref_;
  int robot_dim_ = 0;
  int target_sid_ = -1, object_bid_ = -1, wrist_bid_ = -1;
  double lift_z_ = 0.0;
  std::vector<float> geom_rgba_;
  std::vector<double> init_;  // robot_init, object_init[:3], quat2euler(object_init[3:])
  std::vector<double> index_cache_ = {0.0};
  std::vector<double> robot_ref_, robot_vel_ref_, object_ref_;
  std::vector<double> qpos_err_, qvel_err_;
  std::array<double, 3> com_err_{}, base_err_{};
};

const std::vector<std::pair<std::string, double>> kWeights = {
    {"pose", 0.0}, {"object", 1.0}, {"bonus", 1.0}, {"penalty", -2.0}};

std::string model_of(const std::string& object) { return "envs/myo/assets/hand/myohand_object_" + object + ".xml"; }

bool add(const std::string& id, TrackParams params) {
  const std::string model = model_of(params.object);
  return register_task(id, {{model, 10, kWeights}, make_task<TrackEnv>(std::move(params))});
}

// register_myohand_object_trackref's ids: (id, object, motion file without ".npz"), in __init__.py's order.
// MyoHandPiggybankPass-v0 moves the wineglass along the piggybank's motion, as myosuite registers it.
constexpr const char* kTracks[][3] = {
    {"MyoHandAirplaneFly-v0", "airplane", "MyoHand_airplane_fly1"},
    {"MyoHandAirplaneLift-v0", "airplane", "MyoHand_airplane_lift"},
    {"MyoHandAirplanePass-v0", "airplane", "MyoHand_airplane_pass1"},
    {"MyoHandAlarmclockLift-v0", "alarmclock", "MyoHand_alarmclock_lift"},
    {"MyoHandAlarmclockSee-v0", "alarmclock", "MyoHand_alarmclock_see1"},
    {"MyoHandAppleLift-v0", "apple", "MyoHand_apple_lift"},
    {"MyoHandApplePass-v0", "apple", "MyoHand_apple_pass1"},
    {"MyoHandBananaPass-v0", "banana", "MyoHand_banana_pass1"},
    {"MyoHandCupDrink-v0", "cup", "MyoHand_cup_drink1"},
    {"MyoHandCupPass-v0", "cup", "MyoHand_cup_pass1"},
    {"MyoHandCupPour-v0", "cup", "MyoHand_cup_pour1"},
    {"MyoHandDuckInspect-v0", "duck", "MyoHand_duck_inspect1"},
    {"MyoHandDuckLift-v0", "duck", "MyoHand_duck_lift"},
    {"MyoHandElephantLift-v0", "elephant", "MyoHand_elephant_lift"},
    {"MyoHandElephantPass-v0", "elephant", "MyoHand_elephant_pass1"},
    {"MyoHandFlashlightLift-v0", "flashlight", "MyoHand_flashlight_lift"},
    {"MyoHandFlashlight1On-v0", "flashlight", "MyoHand_flashlight_on1"},
    {"MyoHandFlashlight2On-v0", "flashlight", "MyoHand_flashlight_on2"},
    {"MyoHandHammerUse-v0", "hammer", "MyoHand_hammer_use1"},
    {"MyoHandMouseLift-v0", "mouse", "MyoHand_mouse_lift"},
    {"MyoHandMugDrink3-v0", "mug", "MyoHand_mug_drink3"},
    {"MyoHandScissorsUse-v0", "scissors", "MyoHand_scissors_use1"},
    {"MyoHandSpheremediumLift-v0", "spheremedium", "MyoHand_spheremedium_lift"},
    {"MyoHandStampStamp-v0", "stamp", "MyoHand_stamp_stamp1"},
    {"MyoHandStanfordbunnyInspect-v0", "stanfordbunny", "MyoHand_stanfordbunny_inspect1"},
    {"MyoHandStaplerLift-v0", "stapler", "MyoHand_stapler_lift"},
    {"MyoHandToothpasteLift-v0", "toothpaste", "MyoHand_toothpaste_lift"},
    {"MyoHandToruslargeInspect-v0", "toruslarge", "MyoHand_toruslarge_inspect1"},
    {"MyoHandTrainPlay-v0", "train", "MyoHand_train_play1"},
    {"MyoHandWatchLift-v0", "watch", "MyoHand_watch_lift"},
    {"MyoHandWaterbottleShake-v0", "waterbottle", "MyoHand_waterbottle_shake1"},
    {"MyoHandWineglassDrink2-v0", "wineglass", "MyoHand_wineglass_drink2"},
    {"MyoHandWineglassLift-v0", "wineglass", "MyoHand_wineglass_lift"},
    {"MyoHandStampLift-v0", "stamp", "MyoHand_stamp_lift"},
    {"MyoHandStaplerStaple1-v0", "stapler", "MyoHand_stapler_staple1"},
    {"MyoHandStaplerStaple2-v0", "stapler", "MyoHand_stapler_staple2"},
    {"MyoHandTeapotPour2-v0", "teapot", "MyoHand_teapot_pour2"},
    {"MyoHandToothbrushBrush1-v0", "toothbrush", "MyoHand_toothbrush_brush1"},
    {"MyoHandBowlDrink2-v0", "bowl", "MyoHand_bowl_drink2"},
    {"MyoHandBowlPass-v0", "bowl", "MyoHand_bowl_pass1"},
    {"MyoHandToothpasteSqueeze1-v0", "toothpaste", "MyoHand_toothpaste_squeeze1"},
    {"MyoHandToruslargeLift-v0", "toruslarge", "MyoHand_toruslarge_lift"},
    {"MyoHandTorusmediumLift-v0", "torusmedium", "MyoHand_torusmedium_lift"},
    {"MyoHandCubesmallPass-v0", "cubesmall", "MyoHand_cubesmall_pass1"},
    {"MyoHandTorussmallLift-v0", "torussmall", "MyoHand_torussmall_lift"},
    {"MyoHandMugLift-v0", "mug", "MyoHand_mug_lift"},
    {"MyoHandTorussmallPass-v0", "torussmall", "MyoHand_torussmall_pass1"},
    {"MyoHandPhoneLift-v0", "phone", "MyoHand_phone_lift"},
    {"MyoHandCylindermediumLift-v0", "cylindermedium", "MyoHand_cylindermedium_lift"},
    {"MyoHandWatchPass-v0", "watch", "MyoHand_watch_pass1"},
    {"MyoHandCylindersmallInspect-v0", "cylindersmall", "MyoHand_cylindersmall_inspect1"},
    {"MyoHandCylindersmallPass-v0", "cylindersmall", "MyoHand_cylindersmall_pass1"},
    {"MyoHandPyramidsmallInspect-v0", "pyramidsmall", "MyoHand_pyramidsmall_inspect1"},
    {"MyoHandWineglassToast1-v0", "wineglass", "MyoHand_wineglass_toast1"},
    {"MyoHandSpheresmallInspect-v0", "spheresmall", "MyoHand_spheresmall_inspect1"},
    {"MyoHandSpheresmallLift-v0", "spheresmall", "MyoHand_spheresmall_lift"},
    {"MyoHandSpheresmallPass-v0", "spheresmall", "MyoHand_spheresmall_pass1"},
    {"MyoHandAlarmclockPass-v0", "alarmclock", "MyoHand_alarmclock_pass1"},
    {"MyoHandBinocularsPass-v0", "binoculars", "MyoHand_binoculars_pass1"},
    {"MyoHandDuckPass-v0", "duck", "MyoHand_duck_pass1"},
    {"MyoHandEyeglassesPass-v0", "eyeglasses", "MyoHand_eyeglasses_pass1"},
    {"MyoHandFlashlightPass-v0", "flashlight", "MyoHand_flashlight_pass1"},
    {"MyoHandFlutePass-v0", "flute", "MyoHand_flute_pass1"},
    {"MyoHandHammerPass-v0", "hammer", "MyoHand_hammer_pass1"},
    {"MyoHandHandInspect-v0", "hand", "MyoHand_hand_inspect1"},
    {"MyoHandHeadphonesPass-v0", "headphones", "MyoHand_headphones_pass1"},
    {"MyoHandKnifeChop-v0", "knife", "MyoHand_knife_chop1"},
    {"MyoHandLightbulbPass-v0", "lightbulb", "MyoHand_lightbulb_pass1"},
    {"MyoHandMouseUse-v0", "mouse", "MyoHand_mouse_use1"},
    {"MyoHandPiggybankUse-v0", "piggybank", "MyoHand_piggybank_use1"},
    {"MyoHandToothbrushLift-v0", "toothbrush", "MyoHand_toothbrush_lift"},
    {"MyoHandWaterbottleLift-v0", "waterbottle", "MyoHand_waterbottle_lift"},
    {"MyoHandWineglassPass-v0", "wineglass", "MyoHand_wineglass_pass1"},
    {"MyoHandStanfordbunnyPass-v0", "stanfordbunny", "MyoHand_stanfordbunny_pass1"},
    {"MyoHandCameraPass-v0", "camera", "MyoHand_camera_pass1"},
    {"MyoHandCubelargePass-v0", "cubelarge", "MyoHand_cubelarge_pass1"},
    {"MyoHandCubemediumLInspect-v0", "cubemedium", "MyoHand_cubemedium_inspect1"},
    {"MyoHandMousePass-v0", "mouse", "MyoHand_mouse_pass1"},
    {"MyoHandCubesmallLift-v0", "cubesmall", "MyoHand_cubesmall_lift"},
    {"MyoHandTorusmediumPass-v0", "torusmedium", "MyoHand_torusmedium_pass1"},
    {"MyoHandMugPass-v0", "mug", "MyoHand_mug_pass1"},
    {"MyoHandPiggybankPass-v0", "wineglass", "MyoHand_piggybank_pass1"},
    {"MyoHandCylindermediumPass-v0", "cylindermedium", "MyoHand_cylindermedium_pass1"},
    {"MyoHandPyramidlargePass-v0", "pyramidlarge", "MyoHand_pyramidlarge_pass1"},
    {"MyoHandWaterbottlePass-v0", "waterbottle", "MyoHand_waterbottle_pass1"},
    {"MyoHandPyramidmediumPass-v0", "pyramidmedium", "MyoHand_pyramidmedium_pass1"},
    {"MyoHandSpherelargePass-v0", "spherelarge", "MyoHand_spherelarge_pass1"},
    {"MyoHandSpheremediumInspect-v0", "spheremedium", "MyoHand_spheremedium_inspect1"},
    {"MyoHandCylinderlargeInspect-v0", "cylinderlarge", "MyoHand_cylinderlarge_inspect1"},
    {"MyoHandGamecontrollerPass-v0", "gamecontroller", "MyoHand_gamecontroller_pass1"},
};

// __init__.py's OBJECTS: each has a Fixed and a Random id.
constexpr const char* kObjects[] = {
    "airplane",      "alarmclock",  "apple",        "banana",       "binoculars",    "bowl",           "camera",
    "coffeemug",     "cubelarge",   "cubemedium",   "cubesmall",    "cup",           "cylinderlarge",  "cylindermedium",
    "cylindersmall", "duck",        "elephant",     "eyeglasses",   "flashlight",    "flute",          "gamecontroller",
    "hammer",        "hand",        "headphones",   "knife",        "lightbulb",     "mouse",          "mug",
    "phone",         "piggybank",   "pyramidlarge", "pyramidmedium", "pyramidsmall", "scissors",       "spherelarge",
    "spheremedium",  "spheresmall", "stamp",        "stanfordbunny", "stapler",      "teapot",         "toothbrush",
    "toothpaste",    "toruslarge",  "torusmedium",  "torussmall",   "train",         "watch",          "waterbottle",
    "wineglass"};

bool register_all() {
  for (const auto& [id, object, motion] : kTracks) add(id, {object, RefType::kTrack, motion});
  for (const char* object : kObjects) {
    // 'MyoHand{}Fixed-v0'.format(object_name.title()): the names are lower-case words.
    std::string title = object;
    title[0] = static_cast<char>(title[0] - 'a' + 'A');
    add("MyoHand" + title + "Fixed-v0", {object, RefType::kFixed, ""});
    add("MyoHand" + title + "Random-v0", {object, RefType::kRandom, ""});
  }
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
