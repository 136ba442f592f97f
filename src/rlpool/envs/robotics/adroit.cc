// AdroitHandDoor, AdroitHandHammer, AdroitHandPen and AdroitHandRelocate
// (-v1, dense and sparse), as gymnasium_robotics 1.4.2's envs/adroit_hand/
// adroit_door.py, adroit_hammer.py, adroit_pen.py and adroit_relocate.py, on
// gymnasium's MujocoEnv (frame_skip 5).
//
// gymnasium-robotics sets the actuators' gains once after loading (shared
// here, in a patched copy) and moves a body or site of the model at each
// reset (the door, the nail board, the pen's target, the ball and its target).
// Each env therefore steps its own view of the shared model: the same arrays
// but body_pos, body_quat and site_pos, which it owns.
#include <cmath>
#include <cstring>

#include "envs/robotics/robot_env.h"
#include "envs/robotics/rotations.h"

namespace rlpool::robotics {
namespace {

// The adroit XMLs' actuators get these gains and biases: the wrist's 10, the
// fingers' 1 (the id ranges A_WRJ1..A_WRJ0 and A_FFJ3..A_THJ0, inclusive).
void set_gains(mjModel* m) {
  const auto id = [m](const char* name) {
    const int i = api().name2id(m, mjOBJ_ACTUATOR, name);
    if (i < 0) throw std::invalid_argument(std::string("the Adroit model has no actuator ") + name);
    return i;
  };
  const auto set = [m](int first, int last, double gain) {
    for (int i = first; i <= last; ++i) {
      const double g[3] = {gain, 0.0, 0.0}, b[3] = {0.0, -gain, 0.0};
      std::memcpy(m->actuator_gainprm + static_cast<std::ptrdiff_t>(i) * mjNGAIN, g, sizeof(g));
      std::memcpy(m->actuator_biasprm + static_cast<std::ptrdiff_t>(i) * mjNBIAS, b, sizeof(b));
    }
  };
  set(id("A_WRJ1"), id("A_WRJ0"), 10.0);
  set(id("A_FFJ3"), id("A_THJ0"), 1.0);
}

// A per-env view of the shared model: its struct, with the arrays an Adroit
// reset writes replaced by this env's own copies.
struct ModelView {
  std::shared_ptr<const mjModel> shared;
  mjModel model{};
  std::vector<double> body_pos, body_quat, site_pos;

  explicit ModelView(std::shared_ptr<const mjModel> base) : shared(std::move(base)), model(*shared) {
    body_pos.assign(shared->body_pos, shared->body_pos + 3 * shared->nbody);
    body_quat.assign(shared->body_quat, shared->body_quat + 4 * shared->nbody);
    site_pos.assign(shared->site_pos, shared->site_pos + 3 * shared->nsite);
    model.body_pos = body_pos.data();
    model.body_quat = body_quat.data();
    model.site_pos = site_pos.data();
  }
};

std::shared_ptr<ModelView> view_of(const Config& c) {
  return std::make_shared<ModelView>(patched_model(c.get_string("_xml_file"), "adroit gains", set_gains));
}

double norm3(const double* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
double dist3(const double* a, const double* b) {
  const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return norm3(d);
}

struct Task {
  const char* name;
  int obs_size;
  double distance, azimuth;  // DEFAULT_CAMERA_CONFIG
};

class Adroit : public RobotEnv {
 public:
  void reset(Rng& rng, const Output& out) override {
    begin_episode(rng);
    // MujocoEnv.reset: mj_resetData, then the task's reset_model.
    api().resetData(m_, d_);
    reset_model();
    write_obs(out);
    *out.info_as<bool>(0) = success();
    out.put_info(1, goal_measure());
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    for (int i = 0; i < m_->nu; ++i) {
      const double lo = m_->actuator_ctrlrange[2 * i], hi = m_->actuator_ctrlrange[2 * i + 1];
      const double a = static_cast<double>(f32(mujoco::clip(action.continuous()[i], -1.0, 1.0)));
      d_->ctrl[i] = (lo + hi) / 2 + a * (0.5 * (hi - lo));
    }
    for (int i = 0; i < 5; ++i) api().step(m_, d_);
    api().rnePostConstraint(m_, d_);
    write_obs(out);
    const bool achieved = success();
    *out.reward = sparse_ ? (achieved ? 10.0 : -0.1) : dense_reward();
    *out.info_as<bool>(0) = achieved;
    out.put_info(1, goal_measure());
  }

 protected:
  Adroit(const Config& c, const Task& task, std::shared_ptr<ModelView> view)
      : RobotEnv(c, std::shared_ptr<const mjModel>(view, &view->model), c.get_string("_xml_file"), task.name, 0,
                 camera(task)),
        view_(std::move(view)),
        sparse_(sparse_reward(c)) {}

  virtual void reset_model() = 0;
  virtual void write_obs(const Output& out) const = 0;
  virtual bool success() const = 0;
  // What success is judged by (the door's angle, the nail's or the object's distance to its goal).
  virtual double goal_measure() const = 0;
  virtual double dense_reward() const = 0;

  // MujocoEnv.set_state(init_qpos, init_qvel): qpos0 and zeros.
  void set_initial_state() {
    std::copy(m_->qpos0, m_->qpos0 + m_->nq, d_->qpos);
    std::fill(d_->qvel, d_->qvel + m_->nv, 0.0);
    api().forward(m_, d_);
  }

  void save_extra(std::string& out) const override {
    for (const auto* values : {&view_->body_pos, &view_->body_quat, &view_->site_pos}) {
      out.append(reinterpret_cast<const char*>(values->data()), sizeof(double) * values->size());
    }
  }

  std::string_view load_extra(std::string_view in) override {
    std::vector<double>* parts[3] = {&view_->body_pos, &view_->body_quat, &view_->site_pos};
    std::size_t need = 0;
    for (auto* p : parts) need += sizeof(double) * p->size();
    if (in.size() < need) throw std::invalid_argument("Adroit env state ends inside its model fields");
    std::vector<double> loaded(need / sizeof(double));
    std::memcpy(loaded.data(), in.data(), need);
    check_finite_state(loaded.data(), loaded.size(), [](std::size_t i) { return "model field " + std::to_string(i); });
    std::size_t at = 0;
    for (auto* p : parts) {
      std::copy(loaded.begin() + static_cast<std::ptrdiff_t>(at),
                loaded.begin() + static_cast<std::ptrdiff_t>(at + p->size()), p->begin());
      at += p->size();
    }
    return in.substr(need);
  }

  double* body_pos(int body) { return view_->body_pos.data() + 3 * body; }
  double* body_quat(int body) { return view_->body_quat.data() + 4 * body; }
  double* site_pos(int site) { return view_->site_pos.data() + 3 * site; }
  const double* site(int id) const { return d_->site_xpos + 3 * id; }
  const double* xpos(int body) const { return d_->xpos + 3 * body; }

  const std::shared_ptr<ModelView> view_;
  const bool sparse_;

 private:
  static CameraConfig camera(const Task& task) {
    CameraConfig camera;
    camera.distance = task.distance;
    camera.azimuth = task.azimuth;
    return camera;
  }
};

EnvSpec adroit_spec(const Config& c, int obs_size) {
  sparse_reward(c);
  const auto model = patched_model(c.get_string("_xml_file"), "adroit gains", set_gains);
  EnvSpec s;
  s.obs.push_back(ArraySpec{.name = "obs", .dtype = DType::kFloat64, .shape = {obs_size}});
  s.action = ArraySpec{.name = "action", .dtype = DType::kFloat32, .shape = {model->nu}, .low = {-1.0}, .high = {1.0}};
  s.info.push_back(ArraySpec{.name = "success", .dtype = DType::kBool, .shape = {}});
  s.info.push_back(ArraySpec{.name = "_distance", .dtype = DType::kFloat64, .shape = {}});
  s.render_width = 480;
  s.render_height = 480;
  s.render_any_size = true;
  s.render_fps = 100.0;
  s.render_cameras = model->ncam;
  return s;
}

// ------------------------------------------------------------------- Door

const Task kDoor{"AdroitHandDoor", 39, 1.5, 90.0};

class Door final : public Adroit {
 public:
  explicit Door(const Config& c) : Door(c, view_of(c)) {}

 private:
  Door(const Config& c, std::shared_ptr<ModelView> view)
      : Adroit(c, kDoor, std::move(view)),
        hinge_(m_->jnt_dofadr[joint_id(m_, "door_hinge", xml_file_)]),
        grasp_(site_id(m_, "S_grasp", xml_file_)),
        handle_(site_id(m_, "S_handle", xml_file_)),
        frame_(body_id(m_, "frame", xml_file_)) {}

  void reset_model() override {
    body_pos(frame_)[0] = rng_.uniform(-0.3, -0.2);
    body_pos(frame_)[1] = rng_.uniform(0.25, 0.35);
    body_pos(frame_)[2] = rng_.uniform(0.252, 0.35);
    set_initial_state();
  }

  // The door's angle: qpos at the hinge's dof address, as upstream reads it.
  double door() const { return d_->qpos[hinge_]; }

  void write_obs(const Output& out) const override {
    ObsWriter w(out.obs_as<double>());
    w.put(d_->qpos + 1, m_->nq - 3);
    w.put(d_->qpos[m_->nq - 1]);
    w.put(door());
    w.put(site(grasp_), 3);
    w.put(site(handle_), 3);
    for (int k = 0; k < 3; ++k) w.put(site(grasp_)[k] - site(handle_)[k]);
    w.put(door() > 1.0 ? 1.0 : -1.0);
  }

  bool success() const override { return door() >= 1.35; }
  double goal_measure() const override { return door(); }

  double dense_reward() const override {
    const double g = door();
    double reward = 0.1 * dist3(site(grasp_), site(handle_));
    reward += -0.1 * (g - 1.57) * (g - 1.57);
    reward += -1e-5 * mujoco::sum_of_squares(d_->qvel, m_->nv);
    if (g > 0.2) reward += 2;
    if (g > 1.0) reward += 8;
    if (g > 1.35) reward += 10;
    return reward;
  }

  const int hinge_, grasp_, handle_, frame_;
};

// ----------------------------------------------------------------- Hammer

const Task kHammer{"AdroitHandHammer", 46, 2.0, 45.0};

class Hammer final : public Adroit {
 public:
  explicit Hammer(const Config& c) : Hammer(c, view_of(c)) {}

 private:
  Hammer(const Config& c, std::shared_ptr<ModelView> view)
      : Adroit(c, kHammer, std::move(view)),
        nail_(site_id(m_, "S_target", xml_file_)),
        grasp_(site_id(m_, "S_grasp", xml_file_)),
        object_(body_id(m_, "Object", xml_file_)),
        tool_(site_id(m_, "tool", xml_file_)),
        goal_site_(site_id(m_, "nail_goal", xml_file_)),
        board_(body_id(m_, "nail_board", xml_file_)),
        sensor_(api().name2id(m_, mjOBJ_SENSOR, "S_nail")) {
    mujoco::require(sensor_ >= 0, "'" + xml_file_ + "' has no sensor named 'S_nail'");
  }

  void reset_model() override {
    body_pos(board_)[2] = rng_.uniform(0.1, 0.25);
    set_initial_state();
  }

  double goal_distance() const { return dist3(site(nail_), site(goal_site_)); }

  void write_obs(const Output& out) const override {
    ObsWriter w(out.obs_as<double>());
    w.put(d_->qpos, m_->nq - 6);
    w.put_clipped(d_->qvel + m_->nv - 6, 6, -1.0, 1.0);
    w.put(site(grasp_), 3);
    w.put(xpos(object_), 3);
    double euler[3];
    quat2euler(d_->xquat + 4 * object_, euler);
    w.put(euler, 3);
    w.put(site(nail_), 3);
    // sensordata indexed by the sensor's id, as upstream does.
    w.put(mujoco::clip(d_->sensordata[sensor_], -1.0, 1.0));
  }

  bool success() const override { return goal_distance() < 0.01; }
  double goal_measure() const override { return goal_distance(); }

  double dense_reward() const override {
    const double* hammer = xpos(object_);
    const double* head = site(tool_);
    const double gd = goal_distance();
    double reward = 0.1 * dist3(site(grasp_), hammer);
    reward -= dist3(head, site(nail_));
    reward -= 10 * gd;
    reward -= 1e-2 * mujoco::norm(d_->qvel, m_->nv);
    if (hammer[2] > 0.04 && head[2] > 0.04) reward += 2;
    if (gd < 0.020) reward += 25;
    if (gd < 0.010) reward += 75;
    return reward;
  }

  const int nail_, grasp_, object_, tool_, goal_site_, board_, sensor_;
};

// -------------------------------------------------------------------- Pen

const Task kPen{"AdroitHandPen", 45, 1.0, -45.0};

class Pen final : public Adroit {
 public:
  explicit Pen(const Config& c) : Pen(c, view_of(c)) {}

 private:
  Pen(const Config& c, std::shared_ptr<ModelView> view)
      : Adroit(c, kPen, std::move(view)),
        target_(body_id(m_, "target", xml_file_)),
        object_(body_id(m_, "Object", xml_file_)),
        ball_(site_id(m_, "eps_ball", xml_file_)),
        object_top_(site_id(m_, "object_top", xml_file_)),
        object_bottom_(site_id(m_, "object_bottom", xml_file_)),
        target_top_(site_id(m_, "target_top", xml_file_)),
        target_bottom_(site_id(m_, "target_bottom", xml_file_)) {}

  void reset_model() override {
    double euler[3] = {rng_.uniform(-1.0, 1.0), rng_.uniform(-1.0, 1.0), 0.0};
    euler2quat(euler, body_quat(target_));
    set_initial_state();
    pen_length_ = dist3(site(object_top_), site(object_bottom_));
    target_length_ = dist3(site(target_top_), site(target_bottom_));
  }

  void orientations(double* object, double* desired) const {
    for (int k = 0; k < 3; ++k) {
      object[k] = (site(object_top_)[k] - site(object_bottom_)[k]) / pen_length_;
      desired[k] = (site(target_top_)[k] - site(target_bottom_)[k]) / target_length_;
    }
  }

  void write_obs(const Output& out) const override {
    ObsWriter w(out.obs_as<double>());
    double object[3], desired[3];
    orientations(object, desired);
    w.put(d_->qpos, m_->nq - 6);
    w.put(xpos(object_), 3);
    w.put(d_->qvel + m_->nv - 6, 6);
    w.put(object, 3);
    w.put(desired, 3);
    for (int k = 0; k < 3; ++k) w.put(xpos(object_)[k] - site(ball_)[k]);
    for (int k = 0; k < 3; ++k) w.put(object[k] - desired[k]);
  }

  std::pair<double, double> measures() const {
    double object[3], desired[3];
    orientations(object, desired);
    return {dist3(xpos(object_), site(ball_)), object[0] * desired[0] + object[1] * desired[1] + object[2] * desired[2]};
  }

  bool success() const override {
    const auto [gd, similarity] = measures();
    return gd < 0.075 && similarity > 0.95;
  }
  double goal_measure() const override { return measures().first; }

  double dense_reward() const override {
    const auto [gd, similarity] = measures();
    double reward = -gd + similarity;
    if (gd < 0.075 && similarity > 0.9) reward += 10;
    if (gd < 0.075 && similarity > 0.95) reward += 50;
    if (xpos(object_)[2] < 0.075) reward -= 5;
    return reward;
  }

  void save_extra(std::string& out) const override {
    Adroit::save_extra(out);
    const double lengths[2] = {pen_length_, target_length_};
    out.append(reinterpret_cast<const char*>(lengths), sizeof(lengths));
  }

  std::string_view load_extra(std::string_view in) override {
    in = Adroit::load_extra(in);
    double lengths[2];
    if (in.size() < sizeof(lengths)) throw std::invalid_argument("Adroit pen state ends inside its lengths");
    std::memcpy(lengths, in.data(), sizeof(lengths));
    for (double l : lengths) {
      if (!(std::isfinite(l) && l > 0)) throw std::invalid_argument("Adroit pen state: a pen length is not > 0");
    }
    pen_length_ = lengths[0];
    target_length_ = lengths[1];
    return in.substr(sizeof(lengths));
  }

  const int target_, object_, ball_, object_top_, object_bottom_, target_top_, target_bottom_;
  double pen_length_ = 1.0, target_length_ = 1.0;
};

// --------------------------------------------------------------- Relocate

const Task kRelocate{"AdroitHandRelocate", 39, 1.5, 90.0};

class Relocate final : public Adroit {
 public:
  explicit Relocate(const Config& c) : Relocate(c, view_of(c)) {}

 private:
  Relocate(const Config& c, std::shared_ptr<ModelView> view)
      : Adroit(c, kRelocate, std::move(view)),
        target_(site_id(m_, "target", xml_file_)),
        grasp_(site_id(m_, "S_grasp", xml_file_)),
        object_(body_id(m_, "Object", xml_file_)) {}

  void reset_model() override {
    body_pos(object_)[0] = rng_.uniform(-0.15, 0.15);
    body_pos(object_)[1] = rng_.uniform(-0.15, 0.3);
    site_pos(target_)[0] = rng_.uniform(-0.2, 0.2);
    site_pos(target_)[1] = rng_.uniform(-0.2, 0.2);
    site_pos(target_)[2] = rng_.uniform(0.15, 0.35);
    set_initial_state();
  }

  void write_obs(const Output& out) const override {
    ObsWriter w(out.obs_as<double>());
    w.put(d_->qpos, m_->nq - 6);
    for (int k = 0; k < 3; ++k) w.put(site(grasp_)[k] - xpos(object_)[k]);
    for (int k = 0; k < 3; ++k) w.put(site(grasp_)[k] - site(target_)[k]);
    for (int k = 0; k < 3; ++k) w.put(xpos(object_)[k] - site(target_)[k]);
  }

  bool success() const override { return dist3(xpos(object_), site(target_)) < 0.1; }
  double goal_measure() const override { return dist3(xpos(object_), site(target_)); }

  double dense_reward() const override {
    const double* object = xpos(object_);
    const double gd = dist3(object, site(target_));
    double reward = 0.1 * dist3(site(grasp_), object);
    if (object[2] > 0.04) {
      reward += 1.0;
      reward += -0.5 * dist3(site(grasp_), site(target_));
      reward += -0.5 * dist3(object, site(target_));
    }
    if (gd < 0.1) reward += 10.0;
    if (gd < 0.05) reward += 20.0;
    return reward;
  }

  const int target_, grasp_, object_;
};

std::vector<Option> adroit_options() {
  return {
      {"_xml_file", std::string(), "gymnasium-robotics' model of the task (set by rlpool.envs.robotics)"},
      {"reward_type", std::string("dense"), "'dense' (shaped towards the goal) or 'sparse' (10 on success, else -0.1)"},
  };
}

std::function<EnvSpec(const Config&)> spec_of(const Task& task) {
  const int size = task.obs_size;
  return [size](const Config& c) { return adroit_spec(c, size); };
}

}  // namespace

static const bool kRegistered =
    register_env_type({.name = kDoor.name, .options = with_pixels(adroit_options()), .spec = spec_of(kDoor),
                       .create = make_env<Door>()}) &&
    register_env_type({.name = kHammer.name, .options = with_pixels(adroit_options()), .spec = spec_of(kHammer),
                       .create = make_env<Hammer>()}) &&
    register_env_type({.name = kPen.name, .options = with_pixels(adroit_options()), .spec = spec_of(kPen),
                       .create = make_env<Pen>()}) &&
    register_env_type({.name = kRelocate.name, .options = with_pixels(adroit_options()), .spec = spec_of(kRelocate),
                       .create = make_env<Relocate>()});

}  // namespace rlpool::robotics
