// The MyoSuite tasks' shared base (myo_env.h): myosuite 2.11.6's step with
// its muscle control mapping and conditions (envs/myo/base_v0.py step,
// initializeConditions), the 3CC-r fatigue model (envs/myo/fatigue.py
// CumulativeFatigue.compute_act), dm_control's legacy physics step and its
// reset on a physics error (physics/mj_sim_scene.py advance), Robot.reset
// (robot/robot.py), MujocoEnv's initial state (envs/env_base.py _setup),
// saved states and frames, and the one env type that makes every task.
#include "envs/myosuite/myo_env.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>

#include "_core/gfx/pixels.h"
#include "envs/mujoco/state_io.h"
#include "envs/myosuite/numpy_exp.h"
#include "envs/myosuite/numpy_expf.h"

namespace rlpool::myosuite {
namespace {

constexpr std::string_view kMagic = "rlpool-myosuite-v1\n";

std::map<std::string, TaskType>& task_types() {
  static std::map<std::string, TaskType> types;
  return types;
}

int find_id(const mjModel* m, mjtObj type, const char* kind, const std::string& name, const std::string& xml_file) {
  const int id = api().name2id(m, type, name.c_str());
  if (id < 0) throw std::invalid_argument("'" + xml_file + "' has no " + kind + " named '" + name + "'");
  return id;
}

// A myosuite id resolved: its base task and the variant's muscle condition.
struct Resolved {
  const TaskType* type;
  Condition condition;
};

// myobase's register_env_with_variants: myoSarc<X> and myoFati<X> for every
// myo<X>, myoReaf<X> for every myoHand<X>.
Resolved resolve(const std::string& id) {
  const auto& types = task_types();
  if (const auto it = types.find(id); it != types.end()) return {&it->second, Condition::kNone};
  const std::pair<const char*, Condition> variants[] = {
      {"myoSarc", Condition::kSarcopenia}, {"myoFati", Condition::kFatigue}, {"myoReaf", Condition::kReafferentation}};
  for (const auto& [prefix, condition] : variants) {
    if (id.rfind(prefix, 0) != 0) continue;
    const std::string base = "myo" + id.substr(7);
    const bool has_variant = condition == Condition::kReafferentation ? base.rfind("myoHand", 0) == 0 : true;
    if (const auto it = types.find(base); has_variant && it != types.end()) return {&it->second, condition};
  }
  throw std::invalid_argument("task_name: '" + id + "' is not a MyoSuite task rlpool has (" +
                              std::to_string(types.size()) + " base tasks and their muscle-condition variants)");
}

// pairwise_sum of numpy's loops_utils.h: below 8 entries in order; up to 128 in eight running sums (entry
// i to sum i % 8) combined ((0+1)+(2+3))+((4+5)+(6+7)), then the rest in order; above, the two halves (the
// first a multiple of 8 long) summed so.
double pairwise(const double* x, int n) {
  if (n < 8) {
    double s = -0.0;
    for (int i = 0; i < n; ++i) s += x[i];
    return s;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = x[j];
    int i = 8;
    for (; i < n - n % 8; i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += x[i + j];
    }
    double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) s += x[i];
    return s;
  }
  int half = n / 2;
  half -= half % 8;
  return pairwise(x, half) + pairwise(x + half, n - half);
}

}  // namespace

double numpy_sum(const double* x, int n) { return pairwise(x, n); }

double numpy_norm(const double* x, int n) {
  // np.linalg.norm(x, axis=-1): sqrt(add.reduce(x * x)).
  thread_local std::vector<double> squares;
  squares.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) squares[static_cast<std::size_t>(i)] = x[i] * x[i];
  return std::sqrt(pairwise(squares.data(), n));
}

bool register_task(const std::string& id, TaskType type) {
  task_types().emplace(id, std::move(type));
  return true;
}

MyoEnv::MyoEnv(const Setup& setup, const TaskBase& base, std::vector<std::string> terms)
    : setup_(setup),
      base_(base),
      shared_(mujoco::load_model(setup.xml_file)),
      model_view_(*shared_),
      site_pos_(shared_->site_pos, shared_->site_pos + 3 * shared_->nsite),
      body_mass_(shared_->body_mass, shared_->body_mass + shared_->nbody),
      geom_size_(shared_->geom_size, shared_->geom_size + 3 * shared_->ngeom),
      gainprm_(shared_->actuator_gainprm, shared_->actuator_gainprm + mjNGAIN * shared_->nu),
      m_(&model_view_),
      data_(mujoco::make_data(shared_.get(), "'" + setup.xml_file + "'"), api().deleteData),
      d_(data_.get()),
      terms_(std::move(terms)) {
  point_view();
  if (base_.frame_skip < 1) throw std::invalid_argument("frame_skip must be at least 1");
  // BaseV0.initializeConditions: sarcopenia halves every actuator's force (gainprm[:, 2]).
  if (setup_.condition == Condition::kSarcopenia) {
    for (int i = 0; i < m_->nu; ++i) gainprm_[static_cast<std::size_t>(i * mjNGAIN + 2)] *= 0.5;
  }
  for (int i = 0; i < m_->nu; ++i) {
    if (m_->actuator_dyntype[i] == mjDYN_MUSCLE) muscles_.push_back(i);
  }
  if (setup_.condition == Condition::kReafferentation) {
    epl_ = actuator("EPL");
    eip_ = actuator("EIP");
  }
  if (setup_.condition == Condition::kFatigue) {
    for (const int i : muscles_) {
      tauact_.push_back(m_->actuator_dynprm[i * mjNDYN]);
      taudeact_.push_back(m_->actuator_dynprm[i * mjNDYN + 1]);
    }
    ma_.assign(muscles_.size(), 0.0);
    mr_.assign(muscles_.size(), 1.0);
    mf_.assign(muscles_.size(), 0.0);
  }
  action_.resize(static_cast<std::size_t>(m_->nu));
  action_size_ = m_->nu;
  // MujocoEnv: dt = timestep * frame_skip; Robot.step runs int(dt / timestep) substeps.
  dt_ = m_->opt.timestep * base_.frame_skip;
  substeps_ = static_cast<int>(dt_ / m_->opt.timestep);
  // MujocoEnv.__init__ and _setup: init_qpos is qpos after mj_forward, with every hinge or slide joint an
  // actuator drives (joint transmission) at the middle of its range; init_qvel is zero.
  forward();
  init_qpos_.assign(d_->qpos, d_->qpos + m_->nq);
  init_qvel_.assign(d_->qvel, d_->qvel + m_->nv);
  for (int i = 0; i < m_->nu; ++i) {
    if (m_->actuator_trntype[i] != mjTRN_JOINT) continue;
    const int j = m_->actuator_trnid[2 * i];
    if (m_->jnt_type[j] != mjJNT_HINGE && m_->jnt_type[j] != mjJNT_SLIDE) continue;
    init_qpos_[static_cast<std::size_t>(m_->jnt_qposadr[j])] = (m_->jnt_range[2 * j] + m_->jnt_range[2 * j + 1]) / 2.0;
  }
  for (const auto& [name, weight] : base_.weights) {
    const auto it = std::find(terms_.begin(), terms_.end(), name);
    if (it != terms_.end()) {
      weight_terms_.push_back(static_cast<int>(it - terms_.begin()));
    } else if (name == "sparse" || name == "solved" || name == "done") {
      weight_terms_.push_back(name == "sparse" ? -1 : name == "solved" ? -2 : -3);
    } else {
      throw std::logic_error(setup_.id + ": reward weight for an unknown term '" + name + "'");
    }
  }
  rewards_.terms.resize(terms_.size());
  // MujocoEnv._setup's step(zeros) moves the fatigue model once before any reset (a task whose reset keeps the
  // fatigue state starts from there). Its action is float64 zeros: the muscles' load is 1 / (1 + exp(2.5)) in
  // float64.
  target_load_.assign(muscles_.size(), 1.0 / (1.0 + numpy_exp(-5.0 * (0.0 - 0.5))));
  if (setup_.condition == Condition::kFatigue) fatigue_update();
  if (setup_.renders) mujoco::load_gl();
}

void MyoEnv::point_view() {
  model_view_.site_pos = site_pos_.data();
  model_view_.body_mass = body_mass_.data();
  model_view_.geom_size = geom_size_.data();
  model_view_.actuator_gainprm = gainprm_.data();
}

int MyoEnv::site(const std::string& name) const { return find_id(m_, mjOBJ_SITE, "site", name, setup_.xml_file); }
int MyoEnv::joint(const std::string& name) const { return find_id(m_, mjOBJ_JOINT, "joint", name, setup_.xml_file); }
int MyoEnv::body(const std::string& name) const { return find_id(m_, mjOBJ_BODY, "body", name, setup_.xml_file); }
int MyoEnv::actuator(const std::string& name) const {
  return find_id(m_, mjOBJ_ACTUATOR, "actuator", name, setup_.xml_file);
}

void MyoEnv::put_qvel_dt(std::vector<double>& obs) const {
  for (int i = 0; i < m_->nv; ++i) obs.push_back(d_->qvel[i] * dt_);
}

double MyoEnv::dense(const Rewards& r) const {
  // np.sum([wt * rwd_dict[key] for key, wt in rwd_keys_wt.items()], axis=0): in order from the first.
  double sum = 0.0;
  for (std::size_t k = 0; k < weight_terms_.size(); ++k) {
    const int t = weight_terms_[k];
    const double value = t >= 0    ? r.terms[static_cast<std::size_t>(t)]
                         : t == -1 ? r.sparse
                         : t == -2 ? static_cast<double>(r.solved)
                                   : static_cast<double>(r.done);
    const double term = base_.weights[k].second * value;
    sum = k == 0 ? term : sum + term;
  }
  return sum;
}

void MyoEnv::fatigue_step(float* muscle_a) {
  for (std::size_t k = 0; k < muscles_.size(); ++k) target_load_[k] = static_cast<double>(muscle_a[muscles_[k]]);
  fatigue_update();
  // The controls become MA, cast to float32 as myosuite's assignment into its float32 array does.
  for (std::size_t k = 0; k < muscles_.size(); ++k) muscle_a[muscles_[k]] = static_cast<float>(ma_[k]);
}

void MyoEnv::fatigue_update() {
  // CumulativeFatigue.compute_act on the muscles' target loads (TL), in float64.
  constexpr double kF = 0.00912, kR = 0.1 * 0.00094, kRR = 150 * kR;
  const double dt = dt_;
  for (std::size_t k = 0; k < muscles_.size(); ++k) {
    const double tl = target_load_[k];
    double& ma = ma_[k];
    double& mr = mr_[k];
    double& mf = mf_[k];
    const double ld = 1.0 / tauact_[k] * (0.5 + 1.5 * ma);
    const double lr = (0.5 + 1.5 * ma) / taudeact_[k];
    double c = 0.0;
    if (ma < tl && mr > tl - ma) {
      c = ld * (tl - ma);
    } else if (ma < tl) {
      c = ld * mr;
    } else {
      c = lr * (tl - ma);
    }
    const double rr = ma >= tl ? kRR : kR;
    const double lo = std::max(-ma / dt + kF * ma, (mr - 1) / dt + rr * mf);
    const double hi = std::min((1 - ma) / dt + kF * ma, mr / dt + rr * mf);
    c = std::min(std::max(c, lo), hi);
    const double dma = (c - kF * ma) * dt;
    const double dmr = (-c + rr * mf) * dt;
    const double dmf = (kF * ma - rr * mf) * dt;
    ma += dma;
    mr += dmr;
    mf += dmf;
  }
}

void MyoEnv::muscle_controls() {
  for (const int i : muscles_) {
    float& x = action_[static_cast<std::size_t>(i)];
    x = 1.0f / (1.0f + numpy_expf(-5.0f * (x - 0.5f)));
  }
}

void MyoEnv::physics_step() {
  // Physics.step(substeps) with legacy_step, inside check_invalid_state: a MuJoCo warning raised on the way
  // is a PhysicsError, which SimScene.advance answers with Physics.reset.
  const auto& mj = api();
  for (int i = 0; i < mjNWARNING; ++i) warnings_before_[static_cast<std::size_t>(i)] = d_->warning[i].number;
  if (m_->opt.integrator != mjINT_RK4) {
    mj.step2(m_, d_);
    for (int i = 1; i < substeps_; ++i) mj.step(m_, d_);
  } else {
    for (int i = 0; i < substeps_; ++i) mj.step(m_, d_);
  }
  mj.step1(m_, d_);
  bool failed = false;
  for (int i = 0; i < mjNWARNING; ++i) failed = failed || d_->warning[i].number > warnings_before_[static_cast<std::size_t>(i)];
  if (failed) {
    mj.resetData(m_, d_);
    const int flags = m_->opt.disableflags;
    m_->opt.disableflags = flags | mjDSBL_ACTUATION;
    mj.forward(m_, d_);
    m_->opt.disableflags = flags;
  }
}

void MyoEnv::robot_reset(const std::vector<double>& qpos, const std::vector<double>& qvel) {
  // Robot.reset: Physics.reset (mj_resetData, mj_forward without actuation), then qpos and qvel, mj_forward.
  const auto& mj = api();
  mj.resetData(m_, d_);
  const int flags = m_->opt.disableflags;
  m_->opt.disableflags = flags | mjDSBL_ACTUATION;
  mj.forward(m_, d_);
  m_->opt.disableflags = flags;
  std::copy(qpos.begin(), qpos.end(), d_->qpos);
  std::copy(qvel.begin(), qvel.end(), d_->qvel);
  forward();
}

void MyoEnv::write(const Output& out, bool with_reward) {
  obs_.clear();
  observe(obs_);
  if (obs_size_ == 0) obs_size_ = static_cast<int>(obs_.size());
  if (static_cast<int>(obs_.size()) != obs_size_) throw std::logic_error(setup_.id + ": observation size changed");
  rewards_.time.reset();
  rewards(rewards_);
  if (out.obs == nullptr) return;  // sizing the observation (finish_setup)
  float* o = out.obs_as<float>(0);
  for (std::size_t i = 0; i < obs_.size(); ++i) o[i] = static_cast<float>(obs_[i]);
  const double dense_reward = dense(rewards_);
  const std::size_t n = terms_.size();
  for (std::size_t i = 0; i < n; ++i) out.put_info(i, rewards_.terms[i]);
  out.put_info(n, dense_reward);
  out.put_info(n + 1, rewards_.sparse);
  *out.info_as<bool>(n + 2) = rewards_.solved;
  out.put_info(n + 3, rewards_.time.value_or(d_->time));
  *out.reward = with_reward ? dense_reward : 0.0;
  *out.terminated = with_reward && rewards_.done;
}

void MyoEnv::finish_setup() {
  // MujocoEnv._setup's step(zeros) fixes the observation's keys; here its size, from the initial state.
  const Output none{};
  write(none, false);
}

void MyoEnv::reset(Rng& pool_rng, const Output& out) {
  start_words_ = {pool_rng.next(), pool_rng.next(), pool_rng.next(), pool_rng.next()};
  rng_.set_words(start_words_);
  started_ = true;
  reset_qpos_ = init_qpos_;
  reset_qvel_ = init_qvel_;
  reset_task(reset_qpos_, reset_qvel_);
  // BaseV0.reset: the fatigue state back to rested (fatigue_reset_random is False for every id), unless the
  // task's reset passes fatigue_reset=False.
  if (fatigue_resets_) {
    std::fill(ma_.begin(), ma_.end(), 0.0);
    std::fill(mr_.begin(), mr_.end(), 1.0);
    std::fill(mf_.begin(), mf_.end(), 0.0);
  }
  robot_reset(reset_qpos_, reset_qvel_);
  // get_obs: Robot.sensor2sim writes the state back and runs mj_forward (sim_obsd is the sim).
  forward();
  write(out, false);
}

void MyoEnv::controls(const double* a) {
  const int nu = m_->nu;
  // The action as myosuite's float32 array; BaseV0.step does not clip it.
  for (int i = 0; i < nu; ++i) action_[static_cast<std::size_t>(i)] = static_cast<float>(a[i]);
  if (m_->na > 0) {
    // Muscles take 1 / (1 + exp(-5 (a - 0.5))), in float32 with numpy's float32 exp; the other actuators the
    // action as it is.
    muscle_controls();
    if (setup_.condition == Condition::kFatigue) fatigue_step(action_.data());
    if (setup_.condition == Condition::kReafferentation) {
      action_[static_cast<std::size_t>(epl_)] = action_[static_cast<std::size_t>(eip_)];
      action_[static_cast<std::size_t>(eip_)] = 0.0f;
    }
    for (int i = 0; i < nu; ++i) d_->ctrl[i] = static_cast<double>(action_[static_cast<std::size_t>(i)]);
  } else {
    // Robot.process_actuator of a normalized action: the middle of ctrlrange plus a * (high - low) / 2.
    for (int i = 0; i < nu; ++i) {
      const double lo = m_->actuator_ctrlrange[2 * i], hi = m_->actuator_ctrlrange[2 * i + 1];
      d_->ctrl[i] = (lo + hi) / 2.0 + static_cast<double>(action_[static_cast<std::size_t>(i)]) * (hi - lo) / 2.0;
    }
  }
}

void MyoEnv::controls_float64(std::vector<double>& a) {
  // BaseV0.step on a float64 array of nu controls (a task that builds its action itself): the muscles'
  // 1 / (1 + exp(-5 (a - 0.5))) with numpy's float64 exp and the fatigue model in float64, MA taken as it is.
  for (const int i : muscles_) {
    double& x = a[static_cast<std::size_t>(i)];
    x = 1.0 / (1.0 + numpy_exp(-5.0 * (x - 0.5)));
  }
  if (setup_.condition == Condition::kFatigue) {
    for (std::size_t k = 0; k < muscles_.size(); ++k) target_load_[k] = a[static_cast<std::size_t>(muscles_[k])];
    fatigue_update();
    for (std::size_t k = 0; k < muscles_.size(); ++k) a[static_cast<std::size_t>(muscles_[k])] = ma_[k];
  }
  if (setup_.condition == Condition::kReafferentation) {
    a[static_cast<std::size_t>(epl_)] = a[static_cast<std::size_t>(eip_)];
    a[static_cast<std::size_t>(eip_)] = 0.0;
  }
  std::copy(a.begin(), a.end(), d_->ctrl);
}

void MyoEnv::step(const Action& action, Rng& /*rng*/, const Output& out) {
  controls(action.continuous());
  physics_step();
  forward();  // get_obs's sensor2sim
  write(out, true);
}

std::string MyoEnv::get_state() const {
  if (!started_) throw std::logic_error("get_state before the first reset");
  std::string out;
  mujoco::put_head(out, kMagic, setup_.id, {start_words_, rng_});
  mujoco::put_simulation(out, m_, d_);
  mujoco::put(out, site_pos_.data(), static_cast<int>(site_pos_.size()));
  mujoco::put(out, body_mass_.data(), static_cast<int>(body_mass_.size()));
  mujoco::put(out, geom_size_.data(), static_cast<int>(geom_size_.size()));
  mujoco::put(out, ma_.data(), static_cast<int>(ma_.size()));
  mujoco::put(out, mr_.data(), static_cast<int>(mr_.size()));
  mujoco::put(out, mf_.data(), static_cast<int>(mf_.size()));
  for (const std::vector<double>* v : kept_) mujoco::put(out, v->data(), static_cast<int>(v->size()));
  return out;
}

void MyoEnv::set_state(std::string_view bytes) {
  mujoco::StateReader in(bytes, "MyoSuite");
  const mujoco::StateHead head = mujoco::read_head(in, kMagic, setup_.id);
  const mujoco::Simulation sim = mujoco::read_simulation(in, m_);
  auto site_pos = in.doubles(static_cast<int>(site_pos_.size()), "site_pos");
  auto body_mass = in.doubles(static_cast<int>(body_mass_.size()), "body_mass");
  auto geom_size = in.doubles(static_cast<int>(geom_size_.size()), "geom_size");
  auto ma = in.doubles(static_cast<int>(ma_.size()), "fatigue MA");
  auto mr = in.doubles(static_cast<int>(mr_.size()), "fatigue MR");
  auto mf = in.doubles(static_cast<int>(mf_.size()), "fatigue MF");
  std::vector<std::vector<double>> kept;
  for (const std::vector<double>* v : kept_) kept.push_back(in.doubles(static_cast<int>(v->size()), "task state"));
  in.expect_end();
  start_words_ = head.words;
  rng_ = head.rng;
  mujoco::apply(sim, d_);
  site_pos_ = std::move(site_pos);
  body_mass_ = std::move(body_mass);
  geom_size_ = std::move(geom_size);
  point_view();
  ma_ = std::move(ma);
  mr_ = std::move(mr);
  mf_ = std::move(mf);
  // In place: a task may have pointed a model field at its kept vector.
  for (std::size_t i = 0; i < kept_.size(); ++i) std::copy(kept[i].begin(), kept[i].end(), kept_[i]->begin());
  restore_model();
  forward();
  mujoco::restore_warmstart(sim, d_);
  started_ = true;
}

void MyoEnv::render(const Frame& frame) {
  if (!renderer_) {
    // myosuite's Renderer.render_offscreen: mujoco.Renderer's free camera (mjv_defaultFreeCamera) and an
    // MjvOption with the muscles' actuation and activation shown (viewer_setup's render_actuator=True).
    renderer_ = std::make_unique<mujoco::Renderer>(m_, /*show_rangefinders=*/true);
    renderer_->option().flags[mjVIS_ACTUATOR] = 1;
    renderer_->option().flags[mjVIS_ACTIVATION] = 1;
    api().defaultFreeCamera(m_, &free_camera_);
  }
  const mjvCamera camera = mujoco::camera_for(m_, frame.camera_id, free_camera_);
  try {
    // The walking, chase and running tasks draw new terrain at resets: the GPU's copy follows.
    if (m_->nhfield > 0) renderer_->upload_hfields(m_);
    renderer_->draw(m_, d_, camera, frame);
  } catch (...) {
    renderer_.reset();
    throw;
  }
}

namespace {

std::string assets_folder(const Config& c) {
  const std::string& assets = c.get_string("_assets");
  if (assets.empty()) {
    throw std::invalid_argument("MyoSuite tasks need myosuite 2.11.6's models (_assets, set by rlpool.envs.myosuite)");
  }
  return assets;
}

std::unique_ptr<MyoEnv> make_myo(const Config& c) {
  const std::string& id = c.get_string("task_name");
  const Resolved r = resolve(id);
  const Setup setup{.id = id,
                    .xml_file = assets_folder(c) + "/myosuite/" + r.type->base.model,
                    .condition = r.condition,
                    .renders = mujoco::renders(c)};
  auto env = r.type->create(setup, r.type->base);
  env->finish_setup();
  return env;
}

EnvSpec build_spec(const Config& c) {
  const auto env = make_myo(c);
  const mjModel* m = env->model();
  // The last few models stay compiled: ids are asked for in runs that share a model (an object's MyoDM tasks,
  // the hand's poses), and a model no env holds would be compiled again for each.
  static std::mutex mu;
  static std::deque<std::shared_ptr<const mjModel>> recent;
  {
    std::lock_guard<std::mutex> lock(mu);
    recent.push_back(env->shared_model());
    if (recent.size() > 4) recent.pop_front();
  }
  EnvSpec spec;
  // MujocoEnv._setup: observation_space Box(obs_range = (-10, 10)), action_space Box(-1, 1), both float32.
  spec.obs.push_back(ArraySpec{.name = "obs", .dtype = DType::kFloat32, .shape = {env->obs_size()},
                               .low = {-10.0}, .high = {10.0}});
  spec.action = ArraySpec{.name = "action", .dtype = DType::kFloat32, .shape = {env->action_size()}, .low = {-1.0},
                          .high = {1.0}};
  for (const std::string& term : env->terms()) {
    spec.info.push_back(ArraySpec{.name = "rwd_" + term, .dtype = DType::kFloat64, .shape = {}});
  }
  spec.info.push_back(ArraySpec{.name = "rwd_dense", .dtype = DType::kFloat64, .shape = {}});
  spec.info.push_back(ArraySpec{.name = "rwd_sparse", .dtype = DType::kFloat64, .shape = {}});
  spec.info.push_back(ArraySpec{.name = "solved", .dtype = DType::kBool, .shape = {}});
  spec.info.push_back(ArraySpec{.name = "time", .dtype = DType::kFloat64, .shape = {}});
  spec.render_width = 480;
  spec.render_height = 480;
  spec.render_any_size = true;
  spec.render_fps = std::round(1.0 / env->dt());
  spec.render_cameras = m->ncam;
  return spec;
}

// A task's spec is built by making one env (its model compiled, its observation sized); it depends on the
// task and the models' folder only, and a pool asks for it more than once (so does each of an id's two
// spellings): it is kept, per task and folder, for the process's life (a few hundred small specs at most).
EnvSpec myo_spec(const Config& c) {
  static std::mutex mu;
  static std::map<std::string, EnvSpec> specs;
  const std::string key = c.get_string("_assets") + '\0' + c.get_string("task_name");
  {
    std::lock_guard<std::mutex> lock(mu);
    if (const auto it = specs.find(key); it != specs.end()) return it->second;
  }
  EnvSpec spec = build_spec(c);
  std::lock_guard<std::mutex> lock(mu);
  return specs.emplace(key, std::move(spec)).first->second;
}

std::vector<Option> myo_options() {
  std::vector<Option> options = {
      {"_assets", std::string(), "the folder myosuite 2.11.6's wheel is unpacked in (set by rlpool.envs.myosuite)"},
      {"task_name", std::string("myoHandPoseRandom-v0"),
       "myosuite's id of the task ('myoHandPoseRandom-v0', 'myoSarcFingerReachFixed-v0', ...)"},
  };
  for (Option& o : pixel_options()) options.push_back(std::move(o));
  return options;
}

const bool kRegistered = register_env_type({.name = "MyoSuite",
                                            .options = myo_options(),
                                            .spec = myo_spec,
                                            .create = [](const Config& c) -> std::unique_ptr<Env> { return make_myo(c); },
                                            .create_at = [](const Config& c, int) -> std::unique_ptr<Env> {
                                              return make_myo(c);
                                            }});

}  // namespace

}  // namespace rlpool::myosuite
