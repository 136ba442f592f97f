// Shared base of the MuJoCo envs: gymnasium's MujocoEnv (mujoco_env.py) in C++.
//
// The MuJoCo library is not linked: the `mujoco` wheel's libmujoco.so.<version>
// is opened at run time (rlpool.envs.mujoco loads it from the installed `mujoco`
// package first), and the few entry points used are looked up once (api()).
// Models are compiled once per XML file and shared read-only by every env that
// uses them (mj_step takes a const mjModel); each env owns its mjData.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <csetjmp>
#include <initializer_list>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "_core/env/env.h"
#include "envs/mujoco/renderer.h"

namespace rlpool::mujoco {

namespace detail {
// Where a MuJoCo error on this thread jumps back to (null: none armed).
std::jmp_buf*& error_jump();
// The error that jumped back, as an exception: OutOfMemory (a MemoryError in
// Python) when MuJoCo could not allocate, else std::runtime_error.
[[noreturn]] void throw_error();
}  // namespace detail

// A MuJoCo function that reports failures with mju_error (e.g. mj_step
// overflowing a model's <size memory>, mj_makeData out of memory), whose
// default handler ends the process. Called through this, the error becomes a
// C++ exception on the calling thread instead: api() installs a log handler
// that longjmps back here. Nothing with a destructor lives in this frame
// between setjmp and the call, so the jump skips no C++ cleanup.
template <class F>
struct Guarded;
template <class R, class... A>
struct Guarded<R (*)(A...)> {
  R (*fn)(A...) = nullptr;

  R operator()(A... args) const {
    std::jmp_buf jump;
    std::jmp_buf*& armed = detail::error_jump();
    std::jmp_buf* const outer = armed;
    if (setjmp(jump) != 0) {
      armed = outer;
      detail::throw_error();
    }
    armed = &jump;
    if constexpr (std::is_void_v<R>) {
      fn(args...);
      armed = outer;
    } else {
      R result = fn(args...);
      armed = outer;
      return result;
    }
  }
};

// The MuJoCo C functions the envs call, resolved from the loaded library.
// Those that compute are Guarded; the rest cannot raise a MuJoCo error.
struct Api {
  Guarded<decltype(&::mj_loadXML)> loadXML;
  decltype(&::mj_deleteModel) deleteModel;
  Guarded<decltype(&::mj_makeData)> makeData;
  decltype(&::mj_deleteData) deleteData;
  Guarded<decltype(&::mj_resetData)> resetData;
  Guarded<decltype(&::mj_forward)> forward;
  Guarded<decltype(&::mj_step)> step;
  Guarded<decltype(&::mj_rnePostConstraint)> rnePostConstraint;
  decltype(&::mj_name2id) name2id;
  decltype(&::mj_version) version;
  // Used by the DeepMind Control Suite envs (rlpool/envs/dmc).
  Guarded<decltype(&::mj_step1)> step1;
  Guarded<decltype(&::mj_step2)> step2;
  Guarded<decltype(&::mj_copyModel)> copyModel;
  Guarded<decltype(&::mj_loadModel)> loadModel;
  decltype(&::mj_id2name) id2name;
  Guarded<decltype(&::mj_kinematics)> kinematics;
  Guarded<decltype(&::mj_comPos)> comPos;
  Guarded<decltype(&::mj_subtreeVel)> subtreeVel;
  Guarded<decltype(&::mj_setConst)> setConst;
  Guarded<decltype(&::mj_contactForce)> contactForce;
  Guarded<decltype(&::mj_ray)> ray;
  Guarded<decltype(&::mj_objectVelocity)> objectVelocity;
  Guarded<decltype(&::mj_jacBody)> jacBody;
  Guarded<decltype(&::mj_resetDataKeyframe)> resetDataKeyframe;
  // A site's Jacobian (a site's velocity, as mujoco_utils.get_site_xvelp), a whole MjData copied.
  Guarded<decltype(&::mj_jacSite)> jacSite;
  Guarded<decltype(&::mj_copyData)> copyData;
  // The renderer (renderer.h): abstract visualisation and OpenGL rendering.
  decltype(&::mjv_defaultScene) defaultScene;
  Guarded<decltype(&::mjv_makeScene)> makeScene;
  decltype(&::mjv_freeScene) freeScene;
  decltype(&::mjv_defaultCamera) defaultCamera;
  decltype(&::mjv_defaultFreeCamera) defaultFreeCamera;
  decltype(&::mjv_defaultOption) defaultOption;
  decltype(&::mjv_defaultPerturb) defaultPerturb;
  Guarded<decltype(&::mjv_updateScene)> updateScene;
  decltype(&::mjr_defaultContext) defaultContext;
  Guarded<decltype(&::mjr_makeContext)> makeContext;
  decltype(&::mjr_freeContext) freeContext;
  Guarded<decltype(&::mjr_setBuffer)> setBuffer;
  Guarded<decltype(&::mjr_resizeOffscreen)> resizeOffscreen;
  Guarded<decltype(&::mjr_render)> render;
  Guarded<decltype(&::mjr_readPixels)> readPixels;
  Guarded<decltype(&::mjr_uploadHField)> uploadHField;
};

// Resolves the API on first use; throws std::runtime_error saying what to
// install if the library is not there or is another version than the headers.
const Api& api();

// mj_makeData, or an OutOfMemory exception (a MemoryError in Python) naming
// `what` where MuJoCo cannot allocate it.
mjData* make_data(const mjModel* m, const std::string& what);

// MuJoCo's warnings (e.g. "Nan, Inf or huge value in QACC"), newest last, at
// most the last 64. api() routes them here instead of MuJoCo's default, which
// appends them to MUJOCO_LOG.TXT in the working directory and prints them; the
// envs read the same events from mjData::warning.
std::vector<std::string> recent_warnings();

// The compiled model of an XML file (or of a binary model, a `.mjb` file this
// MuJoCo saved), shared by every env (and spec) using it while any of them is
// alive. Throws std::invalid_argument with MuJoCo's message if the file cannot
// be loaded.
std::shared_ptr<const mjModel> load_model(const std::string& xml_file);

// Options every MuJoCo env takes (gymnasium's MujocoEnv arguments).
std::vector<Option> base_options(std::int64_t frame_skip);

// Each task comes as gymnasium's v4 and v5: the `v5` argument of its env's
// constructor and of its spec function.
constexpr bool kV4 = false;
constexpr bool kV5 = true;

// Throws std::invalid_argument(message) unless `ok`: models given through
// `xml_file` must have what the task reads (bodies, joints, actuators).
void require(bool ok, const std::string& message);
// Id of the body called `name`; throws naming the file if there is none.
int body_id(const mjModel* m, const std::string& name, const std::string& xml_file);

// The observation (float64, unbounded, as gymnasium's Box) and action (the
// actuators' ctrlrange, as gymnasium's float32 Box) of a model, plus scalar
// float64 info entries.
EnvSpec make_spec(const mjModel* m, std::int64_t obs_size, const std::vector<std::string>& scalar_infos);

inline double square(double x) { return x * x; }
// np.sum(np.square(x)).
inline double sum_of_squares(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}
// np.linalg.norm(x) of a short vector.
inline double norm(const double* x, int n) { return std::sqrt(sum_of_squares(x, n)); }
inline double clip(double x, double low, double high) { return std::min(std::max(x, low), high); }

// Appends to one env's observation row in order (np.concatenate).
class ObsWriter {
 public:
  explicit ObsWriter(double* out) : out_(out) {}
  void put(double x) { *out_++ = x; }
  void put(const double* x, int n) {
    for (int i = 0; i < n; ++i) *out_++ = x[i];
  }
  void put_clipped(const double* x, int n, double low, double high) {
    for (int i = 0; i < n; ++i) *out_++ = clip(x[i], low, high);
  }

 private:
  double* out_;
};

// The info entries that lead those of a task moving on the ground plane (Ant,
// Humanoid, Swimmer): its position, distance from the origin and velocity.
std::vector<std::string> plane_infos(std::initializer_list<std::string> then);
struct PlaneInfo {
  std::size_t x_position, y_position, distance_from_origin, x_velocity, y_velocity;
  explicit PlaneInfo(const EnvSpec& spec);
  void write(const Output& out, double x, double y, double x_velocity, double y_velocity) const;
};

// The options of a task rewarded for moving forward with no health checks
// (HalfCheetah, Swimmer), checked; the spec reads them too, so that make_spec
// refuses bad ones.
struct ForwardParams {
  double forward_reward_weight, ctrl_cost_weight, reset_noise_scale;
  bool exclude_positions;

  explicit ForwardParams(const Config& c)
      : forward_reward_weight(c.get_finite("forward_reward_weight")),
        ctrl_cost_weight(c.get_finite("ctrl_cost_weight")),
        reset_noise_scale(c.get_finite("reset_noise_scale")),
        exclude_positions(c.get_bool("exclude_current_positions_from_observation")) {}
};

class MujocoEnv : public Env {
 public:
  // The state is gymnasium's (qpos, qvel) as float64 bytes; set_state is
  // gymnasium's MujocoEnv.set_state (qpos and qvel, then mj_forward).
  std::string get_state() const override;
  void set_state(std::string_view bytes) override;
  // gymnasium's rgb_array: camera -1 is its free camera with the task's
  // default_camera_config (camera_config_), set up at the first frame.
  void render(const Frame& frame) override;

 protected:
  explicit MujocoEnv(const Config& config);

  // mj_resetData (gymnasium's reset before reset_model).
  void reset_data();
  // gymnasium's MujocoEnv.set_state.
  void set_qpos_qvel(const double* qpos, const double* qvel);
  // Noise around the initial state: qpos + U(-s, s); qvel + U(-s, s) or + s * N(0, 1).
  void reset_uniform(Rng& rng, double scale);
  void reset_uniform_normal(Rng& rng, double scale);
  // ctrl = action, frame_skip mj_steps, then mj_rnePostConstraint (cfrc_ext).
  void do_simulation(const Action& action);
  double dt() const { return m_->opt.timestep * static_cast<double>(frame_skip_); }
  // np.sum(np.square(action)).
  double action_sum_of_squares(const Action& action) const { return sum_of_squares(action.continuous(), m_->nu); }
  bool state_is_finite() const;

  const std::string xml_file_;
  const std::shared_ptr<const mjModel> model_;
  const mjModel* const m_;
  std::unique_ptr<mjData, void (*)(mjData*)> data_;
  mjData* const d_;
  const int frame_skip_;
  std::vector<double> init_qpos_;  // qpos0, as gymnasium's init_qpos
  std::vector<double> init_qvel_;  // zeros
  std::vector<double> scratch_;    // nq + nv doubles for resets
  CameraConfig camera_config_;     // the task's DEFAULT_CAMERA_CONFIG (set by its constructor)

 private:
  std::unique_ptr<Renderer> renderer_;  // made by the first render()
  mjvCamera free_camera_{};
};

// A task's spec, from the compiled model its env will use.
using ModelSpec = EnvSpec (*)(const mjModel* m, const Config& config, bool v5);
// EnvType::spec of a task: spec(model of config's xml_file, config, v5); a
// model the task cannot use raises std::invalid_argument naming the file.
std::function<EnvSpec(const Config&)> model_spec(ModelSpec spec, bool v5);

}  // namespace rlpool::mujoco
