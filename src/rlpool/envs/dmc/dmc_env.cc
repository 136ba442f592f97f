#include "envs/dmc/dmc_env.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

#include "_core/gfx/pixels.h"

namespace rlpool::dmc {

namespace {

constexpr double kPi = 3.14159265358979323846;

double sigmoid(double x, double value_at_1, Sigmoid kind) {
  switch (kind) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2.0 * std::log(value_at_1));
      return std::exp(-0.5 * (x * scale) * (x * scale));
    }
    case Sigmoid::kHyperbolic:
      return 1.0 / std::cosh(x * std::acosh(1.0 / value_at_1));
    case Sigmoid::kLongTail: {
      const double scale = std::sqrt(1.0 / value_at_1 - 1.0);
      return 1.0 / ((x * scale) * (x * scale) + 1.0);
    }
    case Sigmoid::kReciprocal:
      return 1.0 / (std::abs(x) * (1.0 / value_at_1 - 1.0) + 1.0);
    case Sigmoid::kCosine: {
      const double scaled = x * (std::acos(2.0 * value_at_1 - 1.0) / kPi);
      return std::abs(scaled) < 1.0 ? (1.0 + std::cos(kPi * scaled)) / 2.0 : 0.0;
    }
    case Sigmoid::kLinear: {
      const double scaled = x * (1.0 - value_at_1);
      return std::abs(scaled) < 1.0 ? 1.0 - scaled : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double scaled = x * std::sqrt(1.0 - value_at_1);
      return std::abs(scaled) < 1.0 ? 1.0 - scaled * scaled : 0.0;
    }
    case Sigmoid::kTanhSquared: {
      const double t = std::tanh(x * std::atanh(std::sqrt(1.0 - value_at_1)));
      return 1.0 - t * t;
    }
  }
  return 0.0;
}

int frame_skip_of(const Config& config) { return static_cast<int>(config.get_int_in("frame_skip", 1, 1'000'000)); }

}  // namespace

double tolerance(double x, double lower, double upper, double margin, Sigmoid kind, double value_at_margin) {
  const bool in_bounds = lower <= x && x <= upper;
  if (margin == 0.0) return in_bounds ? 1.0 : 0.0;
  if (in_bounds) return 1.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return sigmoid(d, value_at_margin, kind);
}

std::shared_ptr<const mjModel> load_model(const Config& config) {
  const std::string& path = config.get_string("_model_file");
  if (path.empty()) {
    throw std::invalid_argument(
        "no dm_control model was given (the DeepMind Control Suite tasks take their models from the installed "
        "dm_control package: pip install 'dm-control==1.0.50' (rlpool's dmc extra: pip install '.[dmc]' in an "
        "rlpool checkout))");
  }
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<const mjModel>> cache;
  const auto& mj = api();
  std::lock_guard<std::mutex> lock(mu);
  std::shared_ptr<const mjModel> model = cache[path].lock();
  if (model) return model;
  mjModel* raw = mj.loadModel(path.c_str(), nullptr);
  if (raw == nullptr) {
    cache.erase(path);
    throw std::invalid_argument("MuJoCo could not load the compiled dm_control model '" + path + "'");
  }
  model = std::shared_ptr<const mjModel>(
      raw, [delete_model = mj.deleteModel](const mjModel* p) { delete_model(const_cast<mjModel*>(p)); });
  cache[path] = model;
  std::erase_if(cache, [](const auto& entry) { return entry.second.expired(); });
  return model;
}

std::vector<Option> base_options(const std::string& default_task) {
  std::vector<Option> options = {
      {"task_name", default_task, "dm_control task of the domain"},
      {"frame_skip", std::int64_t{1}, "control steps per env step (the action repeats; rewards add up)"},
      // Read in Python (rlpool.envs.dmc), where it sets the default max_episode_steps.
      {"time_limit", INFINITY,
       "episode length in seconds (dm_control's time_limit; inf: none): max_episode_steps is "
       "ceil(time_limit / (control timestep * frame_skip)) unless given", kMayBeInf},
      {"_model_file", std::string(), "dm_control's compiled model of the task, as MJB (set by rlpool.envs.dmc)"},
  };
  for (Option& o : pixel_options()) options.push_back(std::move(o));
  return options;
}

EnvSpec make_spec(const mjModel* m, const std::vector<ObsEntry>& obs, const std::vector<std::string>& scalar_infos) {
  EnvSpec spec;
  spec.obs_kind = ObsKind::kDict;
  for (const auto& entry : obs) {
    spec.obs.push_back(ArraySpec{.name = entry.name, .dtype = DType::kFloat64, .shape = entry.shape, .low = {}, .high = {}});
  }
  ArraySpec action{.name = "action", .dtype = DType::kFloat64, .shape = {m->nu}, .low = {}, .high = {}};
  for (int i = 0; i < m->nu; ++i) {
    const bool limited = m->actuator_ctrllimited[i] != 0;
    action.low.push_back(limited ? m->actuator_ctrlrange[2 * i] : -mjMAXVAL);
    action.high.push_back(limited ? m->actuator_ctrlrange[2 * i + 1] : mjMAXVAL);
  }
  spec.action = std::move(action);
  for (const auto& name : scalar_infos) {
    spec.info.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {}, .low = {}, .high = {}});
  }
  spec.has_discount = true;
  return spec;
}

std::string task_name(const Config& config, const std::vector<std::string>& tasks) {
  const std::string& name = config.get_string("task_name");
  if (std::find(tasks.begin(), tasks.end(), name) != tasks.end()) return name;
  std::string known;
  for (const auto& t : tasks) known += (known.empty() ? "'" : ", '") + t + "'";
  throw std::invalid_argument("task_name '" + name + "' is not a task of this domain; known: " + known);
}

std::function<EnvSpec(const Config&)> model_spec(ModelSpec spec) {
  return [spec](const Config& config) {
    frame_skip_of(config);
    const auto model = load_model(config);
    EnvSpec s = spec(model.get(), config);
    // dm_control's Physics.render: 320 x 240 by default, any size on request.
    s.render_width = 320;
    s.render_height = 240;
    s.render_any_size = true;
    s.render_cameras = model->ncam;
    return s;
  };
}

void DmcEnv::render(const Frame& frame) {
  if (!renderer_) {
    renderer_ = std::make_unique<mujoco::Renderer>(m_, /*show_rangefinders=*/false);
    api().defaultFreeCamera(m_, &free_camera_);  // dm_control's camera_id=-1
    rendered_episode_ = episodes_;
  }
  // A task with a model of its own may have reshaped its terrain at reset
  // (quadruped escape): dm_control uploads it again then, so does this.
  if (own_model_ && m_->nhfield > 0 && rendered_episode_ != episodes_) {
    renderer_->upload_hfields(m_);
    rendered_episode_ = episodes_;
  }
  const mjvCamera camera = mujoco::camera_for(m_, frame.camera_id, free_camera_);
  try {
    renderer_->draw(m_, d_, camera, frame);
  } catch (...) {
    renderer_.reset();  // a MuJoCo error may have left its render context half made: the next frame starts anew
    throw;
  }
}

namespace {

mjModel* own_copy(const mjModel* shared, std::unique_ptr<mjModel, void (*)(mjModel*)>& own) {
  own.reset(api().copyModel(nullptr, shared));
  if (!own) throw std::runtime_error("MuJoCo could not copy the dm_control model");
  return own.get();
}

}  // namespace

DmcEnv::DmcEnv(const Config& config, int n_sub_steps, bool writes_model)
    : shared_model_(load_model(config)),
      own_model_(nullptr, api().deleteModel),
      model_struct_(*shared_model_),  // pointers into the shared model's arrays
      m_(writes_model ? own_copy(shared_model_.get(), own_model_) : &model_struct_),
      data_(nullptr, api().deleteData),
      d_(nullptr),
      n_sub_steps_(n_sub_steps),
      frame_skip_(frame_skip_of(config)) {
  data_.reset(mujoco::make_data(m_, "the dm_control model"));
  const_cast<mjData*&>(d_) = data_.get();
  warnings_before_.resize(mjNWARNING);
  if (mujoco::renders(config)) mujoco::load_gl();
}

int DmcEnv::id(mjtObj type, const char* name) const {
  const int i = api().name2id(m_, type, name);
  if (i < 0) throw std::invalid_argument(std::string("the dm_control model has no object named '") + name + "'");
  return i;
}

void DmcEnv::add_task_state(double* first, int count) {
  if (!own_model_) throw std::logic_error("a DMC task with model state must construct DmcEnv with writes_model");
  task_state_.emplace_back(first, count);
}

void DmcEnv::add_task_state(float* first, int count) {
  if (!own_model_) throw std::logic_error("a DMC task with model state must construct DmcEnv with writes_model");
  task_state_f32_.emplace_back(first, count);
}

void DmcEnv::forward() { api().forward(m_, d_); }

void DmcEnv::after_reset() {
  // dm_control: `with physics.model.disable('actuation'): physics.forward()`.
  const int flags = m_->opt.disableflags;
  m_->opt.disableflags = flags | mjDSBL_ACTUATION;
  api().forward(m_, d_);
  m_->opt.disableflags = flags;
}

void DmcEnv::physics_step(int nstep) {
  const auto& mj = api();
  if (m_->opt.integrator != mjINT_RK4) {
    mj.step2(m_, d_);
    for (int i = 1; i < nstep; ++i) mj.step(m_, d_);
  } else {
    for (int i = 0; i < nstep; ++i) mj.step(m_, d_);
  }
  mj.step1(m_, d_);
}

void DmcEnv::before_step(const Action& action) {
  std::memcpy(d_->ctrl, action.continuous(), sizeof(double) * static_cast<std::size_t>(m_->nu));
}

void DmcEnv::reset(Rng& rng, const Output& out) {
  // Physics.reset_context(): reset, then the task's initialisation, then after_reset.
  api().resetData(m_, d_);
  after_reset();
  initialize_episode(rng);
  after_reset();
  ++episodes_;
  ObsWriter w(out);
  get_observation(w);
  write_info(out);
}

bool DmcEnv::physics_failed() {
  // Physics.check_invalid_state: any MuJoCo warning raised during the step.
  bool failed = false;
  for (int i = 0; i < mjNWARNING; ++i) {
    if (d_->warning[i].number > warnings_before_[static_cast<std::size_t>(i)]) failed = true;
  }
  return failed;
}

void DmcEnv::step(const Action& action, Rng& /*rng*/, const Output& out) {
  for (int i = 0; i < mjNWARNING; ++i) warnings_before_[static_cast<std::size_t>(i)] = d_->warning[i].number;
  double reward = 0.0;
  std::optional<double> discount;
  for (int k = 0; k < frame_skip_ && !discount; ++k) {
    before_step(action);
    physics_step(n_sub_steps_);
    after_step();
    reward += get_reward();
    discount = get_termination();
  }
  // dm_control raises PhysicsError on a divergent state; here the episode ends with discount 0.
  if (physics_failed()) discount = 0.0;
  *out.reward = reward;
  *out.terminated = discount.has_value();
  if (discount) *out.discount = static_cast<float>(*discount);
  ObsWriter w(out);
  get_observation(w);
  write_info(out);
}

std::string DmcEnv::get_state() const {
  std::vector<double> s;
  s.push_back(d_->time);
  s.insert(s.end(), d_->qpos, d_->qpos + m_->nq);
  s.insert(s.end(), d_->qvel, d_->qvel + m_->nv);
  s.insert(s.end(), d_->act, d_->act + m_->na);
  s.insert(s.end(), d_->qacc_warmstart, d_->qacc_warmstart + m_->nv);
  s.insert(s.end(), d_->ctrl, d_->ctrl + m_->nu);
  for (const auto& [p, n] : task_state_) s.insert(s.end(), p, p + n);
  for (const auto& [p, n] : task_state_f32_) s.insert(s.end(), p, p + n);
  return std::string(reinterpret_cast<const char*>(s.data()), s.size() * sizeof(double));
}

void DmcEnv::set_state(std::string_view bytes) {
  ++episodes_;  // the task state may hold new terrain
  std::size_t n = 1 + static_cast<std::size_t>(m_->nq + 2 * m_->nv + m_->na + m_->nu);
  for (const auto& part : task_state_) n += static_cast<std::size_t>(part.second);
  for (const auto& part : task_state_f32_) n += static_cast<std::size_t>(part.second);
  if (bytes.size() != n * sizeof(double)) {
    throw std::invalid_argument("state has " + std::to_string(bytes.size()) + " bytes, expected " +
                                std::to_string(n * sizeof(double)) +
                                " (float64 time, qpos, qvel, act, qacc_warmstart, ctrl and the task's state)");
  }
  std::vector<double> s(n);
  std::memcpy(s.data(), bytes.data(), bytes.size());
  for (double x : s) {
    if (!std::isfinite(x)) throw std::invalid_argument("state holds a non-finite number");
  }
  const double* p = s.data();
  auto take = [&p](auto* dst, int count) {
    for (int i = 0; i < count; ++i) dst[i] = static_cast<std::remove_pointer_t<decltype(dst)>>(*p++);
  };
  d_->time = *p++;
  take(d_->qpos, m_->nq);
  take(d_->qvel, m_->nv);
  take(d_->act, m_->na);
  take(d_->qacc_warmstart, m_->nv);
  take(d_->ctrl, m_->nu);
  for (const auto& [dst, count] : task_state_) take(dst, count);
  for (const auto& [dst, count] : task_state_f32_) take(dst, count);
  after_reset();
}

void axis_angle_to_quat(double quat[4], const double axis[3], double angle) {
  // mju_axisAngle2Quat.
  if (angle == 0.0) {
    quat[0] = 1.0;
    quat[1] = quat[2] = quat[3] = 0.0;
    return;
  }
  const double s = std::sin(angle * 0.5);
  quat[0] = std::cos(angle * 0.5);
  for (int i = 0; i < 3; ++i) quat[i + 1] = axis[i] * s;
}

void randomize_limited_and_rotational_joints(const mjModel* m, mjData* d, Rng& rng) {
  for (int j = 0; j < m->njnt; ++j) {
    double* q = d->qpos + m->jnt_qposadr[j];
    const int type = m->jnt_type[j];
    const double lo = m->jnt_range[2 * j];
    const double hi = m->jnt_range[2 * j + 1];
    if (m->jnt_limited[j]) {
      if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
        q[0] = rng.uniform(lo, hi);
      } else if (type == mjJNT_BALL) {
        double axis[3] = {rng.normal(), rng.normal(), rng.normal()};
        const double norm = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        for (double& a : axis) a /= norm;
        axis_angle_to_quat(q, axis, rng.uniform() * hi);
      }
    } else if (type == mjJNT_HINGE) {
      q[0] = rng.uniform(-kPi, kPi);
    } else if (type == mjJNT_BALL || type == mjJNT_FREE) {
      // dm_control: randn for ball joints, rand (uniform [0, 1)) for free joints.
      double quat[4];
      for (double& x : quat) x = type == mjJNT_BALL ? rng.normal() : rng.uniform();
      const double norm = std::sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3]);
      double* dst = type == mjJNT_BALL ? q : q + 3;
      for (int i = 0; i < 4; ++i) dst[i] = quat[i] / norm;
    }
  }
}

}  // namespace rlpool::dmc
