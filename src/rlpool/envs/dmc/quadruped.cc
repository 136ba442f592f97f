// Quadruped domain (tasks: walk, run, escape, fetch), as dm_control 1.0.50's suite/quadruped.py.
//
// dm_control builds a different model per task (terrain and rangefinders for
// escape, walls, ball and target for fetch), so every object is looked up by
// name in the task's own model and only where the task uses it.
#include <cmath>
#include <stdexcept>
#include <vector>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kRunSpeed = 5.0;
constexpr double kWalkSpeed = 0.5;
constexpr int kHeightfieldId = 0;         // _HEIGHTFIELD_ID
constexpr double kTerrainSmoothness = 0.15;
constexpr double kTerrainBumpScale = 2.0;  // metres
const std::vector<std::string> kTasks = {"walk", "run", "escape", "fetch"};

enum class Task { kMove, kEscape, kFetch };

Task task_of(const std::string& name) {
  if (name == "escape") return Task::kEscape;
  if (name == "fetch") return Task::kFetch;
  return Task::kMove;
}

// Ids of the sensors whose type is one of `types`, in id order (Physics._get_sensor_names).
std::vector<int> sensors_of_type(const mjModel* m, std::initializer_list<int> types) {
  std::vector<int> ids;
  for (int i = 0; i < m->nsensor; ++i) {
    for (int t : types) {
      if (m->sensor_type[i] == t) ids.push_back(i);
    }
  }
  return ids;
}

int sensor_dims(const mjModel* m, const std::vector<int>& ids) {
  int n = 0;
  for (int i : ids) n += m->sensor_dim[i];
  return n;
}

std::vector<int> hinge_joints(const mjModel* m) {
  std::vector<int> ids;
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] == mjJNT_HINGE) ids.push_back(j);
  }
  return ids;
}

// scipy.ndimage.zoom(input, zoom) of a 2-D float64 array with scipy's
// defaults (order=3, mode='constant', cval=0, prefilter=True,
// grid_mode=False), as scipy 1.x's ni_splines.c / ni_interpolation.c do it.
namespace spline {

// spline_filter1d of one line, order 3 (one pole), with the mirror boundary
// scipy's prefilter uses for mode 'constant' (apply_filter).
void filter_line(double* c, int n, int stride) {
  if (n < 2) return;
  const double z = std::sqrt(3.0) - 2.0;
  const double gain = (1.0 - z) * (1.0 - 1.0 / z);
  auto at = [c, stride](int i) -> double& { return c[static_cast<std::ptrdiff_t>(i) * stride]; };
  for (int i = 0; i < n; ++i) at(i) *= gain;
  // _init_causal_mirror.
  const double z_n_1 = std::pow(z, n - 1);
  double c0 = at(0) + z_n_1 * at(n - 1);
  double z_i = z;
  for (int i = 1; i < n - 1; ++i) {
    c0 += z_i * (at(i) + z_n_1 * at(n - 1 - i));
    z_i *= z;
  }
  at(0) = c0 / (1.0 - z_n_1 * z_n_1);
  for (int i = 1; i < n; ++i) at(i) += z * at(i - 1);
  // _init_anticausal_mirror.
  at(n - 1) = (z * at(n - 2) + at(n - 1)) * z / (z * z - 1.0);
  for (int i = n - 2; i >= 0; --i) at(i) = z * (at(i + 1) - at(i));
}

// Taps of one output coordinate along one axis: the 4 input indices (out-of-range
// ones mirrored as NI_ZoomShift does) and the cubic B-spline weights; none if
// the coordinate lies outside the input (mode 'constant': cval, no interpolation).
struct Taps {
  bool inside = false;
  int idx[4] = {};
  double w[4] = {};
};

Taps taps_at(double x, int len) {
  Taps t;
  // map_coordinate for mode 'constant': outside [0, len - 1] gives cval.
  if (x < 0.0 || x > len - 1) return t;
  t.inside = true;
  const int start = static_cast<int>(std::floor(x)) - 1;
  for (int h = 0; h < 4; ++h) {
    int idx = start + h;
    if (len <= 1) {
      idx = 0;
    } else {
      const int s2 = 2 * len - 2;
      if (idx < 0) {
        idx = s2 * (-idx / s2) + idx;
        idx = idx <= 1 - len ? idx + s2 : -idx;
      } else if (idx >= len) {
        idx -= s2 * (idx / s2);
        if (idx >= len) idx = s2 - idx;
      }
    }
    t.idx[h] = idx;
  }
  // spline_interpolation_weights, order 3.
  const double y = x - std::floor(x);
  const double zz = 1.0 - y;
  t.w[0] = zz * zz * zz / 6.0;
  t.w[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
  t.w[2] = (zz * zz * (zz - 2.0) * 3.0 + 4.0) / 6.0;
  t.w[3] = 1.0 - t.w[0] - t.w[1] - t.w[2];
  return t;
}

// Output length of one axis: int(round(len * zoom)) (round half to even, as Python).
int zoomed_length(int len, double zoom) { return static_cast<int>(std::nearbyint(len * zoom)); }

// zoom of a rows x cols row-major array by `zoom` on both axes; the result is out_rows x out_cols.
std::vector<double> zoom2d(std::vector<double> c, int rows, int cols, double zoom, int& out_rows, int& out_cols) {
  out_rows = zoomed_length(rows, zoom);
  out_cols = zoomed_length(cols, zoom);
  // Prefilter along axis 0, then axis 1 (spline_filter).
  for (int j = 0; j < cols; ++j) filter_line(c.data() + j, rows, cols);
  for (int i = 0; i < rows; ++i) filter_line(c.data() + static_cast<std::ptrdiff_t>(i) * cols, cols, 1);
  // grid_mode=False: input coordinate = output index * (len - 1) / (out_len - 1).
  auto axis_taps = [](int len, int out_len) {
    const double z = out_len > 1 ? static_cast<double>(len - 1) / static_cast<double>(out_len - 1) : 1.0;
    std::vector<Taps> taps;
    taps.reserve(static_cast<std::size_t>(out_len));
    for (int k = 0; k < out_len; ++k) taps.push_back(taps_at(static_cast<double>(k) * z, len));
    return taps;
  };
  const std::vector<Taps> tr = axis_taps(rows, out_rows);
  const std::vector<Taps> tc = axis_taps(cols, out_cols);
  std::vector<double> out(static_cast<std::size_t>(out_rows) * static_cast<std::size_t>(out_cols), 0.0);
  for (int i = 0; i < out_rows; ++i) {
    const Taps& a = tr[static_cast<std::size_t>(i)];
    if (!a.inside) continue;
    for (int j = 0; j < out_cols; ++j) {
      const Taps& b = tc[static_cast<std::size_t>(j)];
      if (!b.inside) continue;
      // Summed tap by tap, row-major, coefficient * row weight * column weight.
      double t = 0.0;
      for (int h = 0; h < 4; ++h) {
        for (int k = 0; k < 4; ++k) t += c[static_cast<std::size_t>(a.idx[h] * cols + b.idx[k])] * a.w[h] * b.w[k];
      }
      out[static_cast<std::size_t>(i * out_cols + j)] = t;
    }
  }
  return out;
}

}  // namespace spline

EnvSpec spec(const mjModel* m, const Config& c) {
  const Task task = task_of(task_name(c, kTasks));
  const auto dims = [m](std::initializer_list<int> types) {
    return static_cast<std::int64_t>(sensor_dims(m, sensors_of_type(m, types)));
  };
  std::vector<ObsEntry> obs = {
      {"egocentric_state", {static_cast<std::int64_t>(2 * hinge_joints(m).size()) + m->na}},
      {"torso_velocity", {3}},
      {"torso_upright", {}},
      {"imu", {dims({mjSENS_GYRO, mjSENS_ACCELEROMETER})}},
      {"force_torque", {dims({mjSENS_FORCE, mjSENS_TORQUE})}},
  };
  if (task == Task::kEscape) {
    obs.push_back({"origin", {3}});
    obs.push_back({"rangefinder", {dims({mjSENS_RANGEFINDER})}});
  } else if (task == Task::kFetch) {
    obs.push_back({"ball_state", {9}});
    obs.push_back({"target_position", {3}});
  }
  return make_spec(m, obs);
}

class Quadruped final : public DmcEnv {
 public:
  explicit Quadruped(const Config& c)
      : DmcEnv(c, 4, kWritesModel),
        name_(task_name(c, kTasks)),
        task_(task_of(name_)),
        desired_speed_(name_ == "run" ? kRunSpeed : kWalkSpeed),
        hinges_(hinge_joints(m_)),
        imu_(sensors_of_type(m_, {mjSENS_GYRO, mjSENS_ACCELEROMETER})),
        force_torque_(sensors_of_type(m_, {mjSENS_FORCE, mjSENS_TORQUE})),
        rangefinders_(sensors_of_type(m_, {mjSENS_RANGEFINDER})),
        torso_(id(mjOBJ_BODY, "torso")),
        root_(id(mjOBJ_JOINT, "root")),
        velocimeter_(id(mjOBJ_SENSOR, "velocimeter")),
        workspace_(id(mjOBJ_SITE, "workspace")) {
    // The heightfield asset is in every task's model (only escape keeps the
    // terrain geom); its data is the task state of the domain.
    if (m_->nhfield > kHeightfieldId) {
      add_task_state(m_->hfield_data + m_->hfield_adr[kHeightfieldId],
                     m_->hfield_nrow[kHeightfieldId] * m_->hfield_ncol[kHeightfieldId]);
    } else if (task_ == Task::kEscape) {
      throw std::invalid_argument("the quadruped escape model has no heightfield");
    }
    if (task_ == Task::kFetch) {
      floor_ = id(mjOBJ_GEOM, "floor");
      ball_ = id(mjOBJ_BODY, "ball");
      ball_geom_ = id(mjOBJ_GEOM, "ball");
      ball_root_ = id(mjOBJ_JOINT, "ball_root");
      target_ = id(mjOBJ_SITE, "target");
    }
  }

 private:
  // --- initialize_episode -------------------------------------------------

  void initialize_episode(Rng& rng) override {
    switch (task_) {
      case Task::kMove: {
        double q[4];
        random_orientation(rng, q);
        find_non_contacting_height(q, 0.0, 0.0);
        break;
      }
      case Task::kEscape: {
        make_terrain(rng);
        double q[4];
        random_orientation(rng, q);
        find_non_contacting_height(q, 0.0, 0.0);
        break;
      }
      case Task::kFetch:
        initialize_fetch(rng);
        break;
    }
  }

  // orientation = randn(4); orientation /= norm(orientation).
  static void random_orientation(Rng& rng, double q[4]) {
    for (int i = 0; i < 4; ++i) q[i] = rng.normal();
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; ++i) q[i] /= n;
  }

  // _find_non_contacting_height: from z = 0, rise in 1 cm steps until the
  // reset pose has no contacts. Each try is a reset_context (mj_resetData,
  // forward, pose, forward); dm_control ignores PhysicsErrors there, so
  // MuJoCo warnings are ignored here too.
  void find_non_contacting_height(const double orientation[4], double x, double y) {
    double* root = d_->qpos + m_->jnt_qposadr[root_];
    double z = 0.0;
    int num_contacts = 1;
    int num_attempts = 0;
    while (num_contacts > 0) {
      api().resetData(m_, d_);
      after_reset();
      root[0] = x;
      root[1] = y;
      root[2] = z;
      for (int i = 0; i < 4; ++i) root[3 + i] = orientation[i];
      after_reset();
      num_contacts = d_->ncon;
      z += 0.01;
      ++num_attempts;
      if (num_attempts > 10000) {
        throw std::runtime_error("quadruped: failed to find a non-contacting configuration after 10000 attempts");
      }
    }
  }

  // Escape: a sinusoidal bowl times smooth random bumps, written into the heightfield.
  void make_terrain(Rng& rng) {
    const int res = m_->hfield_nrow[kHeightfieldId];
    if (res != m_->hfield_ncol[kHeightfieldId]) throw std::runtime_error("quadruped escape: heightfield is not square");
    const double terrain_size = 2.0 * m_->hfield_size[4 * kHeightfieldId];
    const int bump_res = static_cast<int>(terrain_size / kTerrainBumpScale);
    std::vector<double> bumps(static_cast<std::size_t>(bump_res) * static_cast<std::size_t>(bump_res));
    for (double& b : bumps) b = rng.uniform(kTerrainSmoothness, 1.0);
    int rows = 0;
    int cols = 0;
    const std::vector<double> smooth =
        spline::zoom2d(std::move(bumps), bump_res, bump_res, res / static_cast<double>(bump_res), rows, cols);
    if (rows != res || cols != res) throw std::runtime_error("quadruped escape: zoomed bumps do not fit the heightfield");
    // np.ogrid[-1:1:res*1j]: k * step + start.
    const double step = 2.0 / static_cast<double>(res - 1);
    float* data = m_->hfield_data + m_->hfield_adr[kHeightfieldId];
    for (int i = 0; i < res; ++i) {
      const double r = i * step - 1.0;
      for (int j = 0; j < res; ++j) {
        const double c = j * step - 1.0;
        const double radius = std::min(std::max(std::sqrt(c * c + r * r), 0.04), 1.0);
        const double bowl = 0.5 - std::cos(2.0 * kPi * radius) / 2.0;
        const std::size_t k = static_cast<std::size_t>(i * res + j);
        data[k] = static_cast<float>(bowl * smooth[k]);
      }
    }
  }

  void initialize_fetch(Rng& rng) {
    // Random azimuth and horizontal position.
    const double azimuth = rng.uniform(0.0, 2.0 * kPi);
    const double orientation[4] = {std::cos(azimuth / 2.0), 0.0, 0.0, std::sin(azimuth / 2.0)};
    const double spawn_radius = 0.9 * m_->geom_size[3 * floor_];
    const double x = rng.uniform(-spawn_radius, spawn_radius);
    const double y = rng.uniform(-spawn_radius, spawn_radius);
    find_non_contacting_height(orientation, x, y);
    // Initial ball state.
    double* ball_q = d_->qpos + m_->jnt_qposadr[ball_root_];
    ball_q[0] = rng.uniform(-spawn_radius, spawn_radius);
    ball_q[1] = rng.uniform(-spawn_radius, spawn_radius);
    ball_q[2] = 2.0;
    double* ball_v = d_->qvel + m_->jnt_dofadr[ball_root_];
    ball_v[0] = 5.0 * rng.normal();
    ball_v[1] = 5.0 * rng.normal();
  }

  // --- Physics helpers -----------------------------------------------------

  double torso_upright() const { return xmat(torso_)[8]; }

  // v.dot(torso_frame): v expressed in the torso frame.
  void to_torso_frame(const double v[3], double out[3]) const {
    const double* r = xmat(torso_);
    for (int j = 0; j < 3; ++j) out[j] = v[0] * r[j] + v[1] * r[3 + j] + v[2] * r[6 + j];
  }

  const double* site_xpos(int site) const { return d_->site_xpos + 3 * site; }

  static double horizontal_distance(const double* a, const double* b) {
    return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]));
  }

  // _upright_reward.
  double upright_reward(double deviation_angle) const {
    const double deviation = std::cos(deviation_angle * (kPi / 180.0));
    return tolerance(torso_upright(), deviation, INFINITY, 1.0 + deviation, Sigmoid::kLinear, 0.0);
  }

  // --- Task methods ----------------------------------------------------------

  double get_reward() override {
    switch (task_) {
      case Task::kMove: {
        const double move = tolerance(sensor(velocimeter_)[0], desired_speed_, INFINITY, desired_speed_,
                                      Sigmoid::kLinear, 0.5);
        return upright_reward(0.0) * move;
      }
      case Task::kEscape: {
        const double terrain_size = m_->hfield_size[4 * kHeightfieldId];
        const double* w = site_xpos(workspace_);
        const double origin_distance = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        const double escape =
            tolerance(origin_distance, terrain_size, INFINITY, terrain_size, Sigmoid::kLinear, 0.0);
        return upright_reward(20.0) * escape;
      }
      case Task::kFetch: {
        const double arena_radius = m_->geom_size[3 * floor_] * std::sqrt(2.0);
        const double workspace_radius = m_->site_size[3 * workspace_];
        const double ball_radius = m_->geom_size[3 * ball_geom_];
        const double reach = tolerance(horizontal_distance(site_xpos(workspace_), xpos(ball_)), 0.0,
                                       workspace_radius + ball_radius, arena_radius, Sigmoid::kLinear, 0.0);
        const double target_radius = m_->site_size[3 * target_];
        const double fetch = tolerance(horizontal_distance(site_xpos(target_), xpos(ball_)), 0.0, target_radius,
                                       arena_radius, Sigmoid::kLinear, 0.0);
        return upright_reward(0.0) * (reach * (0.5 + 0.5 * fetch));
      }
    }
    return 0.0;
  }

  void get_observation(ObsWriter& w) override {
    // _common_observations.
    w.next();
    for (int j : hinges_) w.put(d_->qpos[m_->jnt_qposadr[j]]);
    for (int j : hinges_) w.put(d_->qvel[m_->jnt_dofadr[j]]);
    w.put(d_->act, m_->na);
    w.next().put(sensor(velocimeter_), 3);
    w.next().put(torso_upright());
    w.next();
    for (int s : imu_) w.put(sensor(s), m_->sensor_dim[s]);
    w.next();
    for (int s : force_torque_) {
      const double* v = sensor(s);
      for (int k = 0; k < m_->sensor_dim[s]; ++k) w.put(std::asinh(v[k]));
    }
    const double* torso_pos = xpos(torso_);
    if (task_ == Task::kEscape) {
      // origin: -torso_pos.dot(torso_frame).
      double o[3];
      to_torso_frame(torso_pos, o);
      w.next().put(-o[0]).put(-o[1]).put(-o[2]);
      // rangefinder: no intersection (-1) reads 1, otherwise tanh.
      w.next();
      for (int s : rangefinders_) {
        const double* v = sensor(s);
        for (int k = 0; k < m_->sensor_dim[s]; ++k) w.put(v[k] == -1.0 ? 1.0 : std::tanh(v[k]));
      }
    } else if (task_ == Task::kFetch) {
      // ball_state: relative position, relative velocity, angular velocity, each in the torso frame.
      const double* ball_v = d_->qvel + m_->jnt_dofadr[ball_root_];
      const double* root_v = d_->qvel + m_->jnt_dofadr[root_];
      const double* ball_pos = xpos(ball_);
      const double rows[3][3] = {{ball_pos[0] - torso_pos[0], ball_pos[1] - torso_pos[1], ball_pos[2] - torso_pos[2]},
                                 {ball_v[0] - root_v[0], ball_v[1] - root_v[1], ball_v[2] - root_v[2]},
                                 {ball_v[3], ball_v[4], ball_v[5]}};
      w.next();
      for (const auto& row : rows) {
        double o[3];
        to_torso_frame(row, o);
        w.put(o, 3);
      }
      // target_position.
      const double* t = site_xpos(target_);
      const double rel[3] = {t[0] - torso_pos[0], t[1] - torso_pos[1], t[2] - torso_pos[2]};
      double o[3];
      to_torso_frame(rel, o);
      w.next().put(o, 3);
    }
  }

  const std::string name_;
  const Task task_;
  const double desired_speed_;
  const std::vector<int> hinges_;
  const std::vector<int> imu_;
  const std::vector<int> force_torque_;
  const std::vector<int> rangefinders_;
  const int torso_;
  const int root_;
  const int velocimeter_;
  const int workspace_;
  // Fetch only (the other models have no ball, walls or target).
  int floor_ = -1;
  int ball_ = -1;
  int ball_geom_ = -1;
  int ball_root_ = -1;
  int target_ = -1;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcQuadruped",
                                                   .options = base_options("walk"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<Quadruped>()});

}  // namespace rlpool::dmc
