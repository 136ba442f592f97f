// The leg challenges' shared helpers (leg_challenge.h): myosuite 2.11.6's
// myochallenge/chasetag_v0.py _randomize_position_orientation, soccer_v0.py
// and run_track_v0.py get_limitfrc with their pain terms, and the mocap
// opponent of chasetag_v0.py and soccer_v0.py.
#include "envs/myosuite/leg_challenge.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "envs/myosuite/quat_math.h"
#include "envs/myosuite/walk.h"

namespace rlpool::myosuite {

double blas_dot2(const double* a, const double* b) { return std::fma(a[1], b[1], std::fma(a[0], b[0], 0.0)); }

void randomize_position_orientation(Rng& rng, std::vector<double>& qpos, std::vector<double>& qvel) {
  qpos[0] = rng.uniform(-5.0, 5.0);
  qpos[1] = rng.uniform(-5.0, 5.0);
  const double orientation = rng.uniform(0.0, 2 * std::numbers::pi);
  std::array<double, 3> euler = quat2euler(qpos.data() + 3);
  euler[2] = orientation;
  const std::array<double, 4> quat = euler2quat(euler);
  for (int k = 0; k < 4; ++k) qpos[static_cast<std::size_t>(3 + k)] = quat[static_cast<std::size_t>(k)];
  turn_planar_velocity(orientation, qvel);
}

void turn_planar_velocity(double heading, std::vector<double>& qvel) {
  const double speed = blas_norm(qvel.data(), 2);
  qvel[0] = std::cos(heading) * speed;
  qvel[1] = std::sin(heading) * speed;
}

double joint_limit_pain(const mjModel* m, const mjData* d, const std::vector<int>& dofs,
                        std::vector<double>& joint_force) {
  joint_force.assign(static_cast<std::size_t>(m->nv), 0.0);
  const bool sparse = m->opt.jacobian == mjJAC_SPARSE || (m->opt.jacobian == mjJAC_AUTO && m->nv >= 60);
  for (int i = 0; i < d->nefc; ++i) {
    if (d->efc_type[i] != mjCNSTR_LIMIT_JOINT) continue;
    const double f = d->efc_force[i];
    if (f == 0) continue;
    if (sparse) {
      const int adr = d->efc_J_rowadr[i];
      for (int k = 0; k < d->efc_J_rownnz[i]; ++k) {
        joint_force[static_cast<std::size_t>(d->efc_J_colind[adr + k])] += d->efc_J[adr + k] * f;
      }
    } else {
      for (int j = 0; j < m->nv; ++j) joint_force[static_cast<std::size_t>(j)] += d->efc_J[i * m->nv + j] * f;
    }
  }
  double pain = 0.0;
  for (const int dof : dofs) {
    pain += std::min(std::max(std::abs(joint_force[static_cast<std::size_t>(dof)]), -1000.0), 1000.0) / 1000;
  }
  return pain / static_cast<double>(dofs.size());
}

double mean_square_act(const mjModel* m, const mjData* d, std::vector<double>& squares) {
  if (m->na == 0) return 0.0;
  squares.resize(static_cast<std::size_t>(m->na));
  for (int i = 0; i < m->na; ++i) squares[static_cast<std::size_t>(i)] = d->act[i] * d->act[i];
  return numpy_sum(squares.data(), m->na) / m->na;
}

std::array<int, 4> foot_touch_sensors(const mjModel* m, const std::string& xml_file) {
  std::array<int, 4> adr{};
  for (std::size_t k = 0; k < 4; ++k) {
    const char* name = std::array{"r_foot", "r_toes", "l_foot", "l_toes"}[k];
    const int id = api().name2id(m, mjOBJ_SENSOR, name);
    if (id < 0) throw std::invalid_argument("'" + xml_file + "' has no sensor named '" + name + "'");
    adr[k] = m->sensor_adr[id];
  }
  return adr;
}

int terrain_geom_id(const mjModel* m, const std::string& xml_file) {
  const int id = api().name2id(m, mjOBJ_GEOM, "terrain");
  if (id < 0) throw std::invalid_argument("'" + xml_file + "' has no geom named 'terrain'");
  return id;
}

void put_actuator_state(const mjModel* m, const mjData* d, std::vector<double>& obs) {
  obs.insert(obs.end(), d->actuator_length, d->actuator_length + m->nu);
  for (int i = 0; i < m->nu; ++i) obs.push_back(std::clamp(d->actuator_velocity[i], -100.0, 100.0));
  for (int i = 0; i < m->nu; ++i) obs.push_back(std::clamp(d->actuator_force[i] / 1000, -100.0, 100.0));
}

OpponentEnv::OpponentEnv(const Setup& setup, const TaskBase& base, std::vector<std::string> terms,
                         const char* opponent)
    : MyoEnv(setup, base, std::move(terms)), mocap_(m()->body_mocapid[body(opponent)]) {
  if (mocap_ < 0) {
    throw std::invalid_argument("'" + setup_.xml_file + "': the body '" + opponent + "' is not a mocap body");
  }
}

void OpponentEnv::reset(Rng& pool_rng, const Output& out) {
  MyoEnv::reset(pool_rng, out);
  reset_opponent();
  forward();
}

void OpponentEnv::step(const Action& action, Rng& rng, const Output& out) {
  update_opponent();
  MyoEnv::step(action, rng, out);
}

double OpponentEnv::opponent_yaw() const { return quat2euler(d()->mocap_quat + 4 * mocap_)[2]; }

void OpponentEnv::set_opponent_pose(double x, double y, double yaw) {
  mjData* dd = d();
  dd->mocap_pos[3 * mocap_] = x;
  dd->mocap_pos[3 * mocap_ + 1] = y;
  const std::array<double, 4> q = euler2quat({0.0, 0.0, yaw});
  std::copy(q.begin(), q.end(), dd->mocap_quat + 4 * mocap_);
}

}  // namespace rlpool::myosuite
