// The observation Humanoid and HumanoidStandup share: qpos (maybe without x, y),
// qvel, then the bodies' inertia, velocity, actuator forces and external forces.
// v4 takes every body and dof; v5 leaves out the world body and the free
// joint's 6 dofs, and lets each part be switched off.
#pragma once

#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {

struct HumanoidObs {
  bool v5 = false;
  bool exclude_positions = true;
  bool cinert = true, cvel = true, qfrc_actuator = true, cfrc_ext = true;

  static HumanoidObs from(const Config& c, bool v5, bool has_exclude_option = true) {
    HumanoidObs o;
    o.v5 = v5;
    o.exclude_positions = !has_exclude_option || c.get_bool("exclude_current_positions_from_observation");
    if (v5) {
      o.cinert = c.get_bool("include_cinert_in_observation");
      o.cvel = c.get_bool("include_cvel_in_observation");
      o.qfrc_actuator = c.get_bool("include_qfrc_actuator_in_observation");
      o.cfrc_ext = c.get_bool("include_cfrc_ext_in_observation");
    }
    return o;
  }

  static std::vector<Option> include_options() {
    return {
        {"include_cinert_in_observation", true, "add the bodies' com-based inertia (cinert[1:])"},
        {"include_cvel_in_observation", true, "add the bodies' com-based velocity (cvel[1:])"},
        {"include_qfrc_actuator_in_observation", true, "add the actuator forces (qfrc_actuator[6:])"},
        {"include_cfrc_ext_in_observation", true, "add the external contact forces (cfrc_ext[1:])"},
    };
  }

  int first_body() const { return v5 ? 1 : 0; }
  int first_dof() const { return v5 ? 6 : 0; }

  std::int64_t size(const mjModel* m) const {
    const int bodies = m->nbody - first_body();
    return (m->nq - (exclude_positions ? 2 : 0)) + m->nv + (cinert ? 10 * bodies : 0) + (cvel ? 6 * bodies : 0) +
           (qfrc_actuator ? m->nv - first_dof() : 0) + (cfrc_ext ? 6 * bodies : 0);
  }

  void write(const mjModel* m, const mjData* d, double* out) const {
    ObsWriter w(out);
    const int skip = exclude_positions ? 2 : 0;
    const int b0 = first_body();
    const int bodies = m->nbody - b0;
    w.put(d->qpos + skip, m->nq - skip);
    w.put(d->qvel, m->nv);
    if (cinert) w.put(d->cinert + 10 * b0, 10 * bodies);
    if (cvel) w.put(d->cvel + 6 * b0, 6 * bodies);
    if (qfrc_actuator) w.put(d->qfrc_actuator + first_dof(), m->nv - first_dof());
    if (cfrc_ext) w.put(d->cfrc_ext + 6 * b0, 6 * bodies);
  }
};

}  // namespace rlpool::mujoco
