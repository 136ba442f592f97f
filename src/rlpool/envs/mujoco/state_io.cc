// Saved states of the MuJoCo envs with a generator of their own (state_io.h).
#include "envs/mujoco/state_io.h"

#include <stdexcept>

namespace rlpool::mujoco {
namespace {

void copy(double* to, const std::vector<double>& from) {
  if (!from.empty()) std::memcpy(to, from.data(), sizeof(double) * from.size());
}

}  // namespace

std::string_view StateReader::take(std::size_t n, const std::string& what) {
  if (bytes_.size() - pos_ < n) {
    throw std::invalid_argument(family_ + " env state ends inside its " + what +
                                " (it is shorter than a state of this env)");
  }
  const std::string_view part = bytes_.substr(pos_, n);
  pos_ += n;
  return part;
}

std::vector<double> StateReader::doubles(int n, const std::string& what) {
  std::vector<double> values(static_cast<std::size_t>(n));
  const auto part = take(sizeof(double) * values.size(), what);
  if (!part.empty()) std::memcpy(values.data(), part.data(), part.size());
  check_finite_state(values.data(), values.size(),
                     [&what](std::size_t i) { return what + "[" + std::to_string(i) + "]"; });
  return values;
}

void StateReader::expect_end() const {
  if (pos_ != bytes_.size()) {
    throw std::invalid_argument(family_ + " env state has " + std::to_string(bytes_.size() - pos_) +
                                " bytes more than a state of this env");
  }
}

void put_head(std::string& out, std::string_view magic, const std::string& config_key, const StateHead& head) {
  out.append(magic);
  put(out, static_cast<std::uint32_t>(config_key.size()));
  out.append(config_key);
  for (auto word : head.words) put(out, word);
  out.append(pod_state(head.rng));
}

StateHead read_head(StateReader& in, std::string_view magic, const std::string& config_key) {
  if (!in.rest().starts_with(magic)) {
    throw std::invalid_argument("not a " + in.family() + " env state (it does not start with '" +
                                std::string(magic.substr(0, magic.size() - 1)) + "')");
  }
  in.take(magic.size(), "header");
  const auto key_size = in.get<std::uint32_t>("configuration");
  const auto key = in.take(key_size, "configuration");
  if (key != config_key) {
    throw std::invalid_argument(in.family() + " env state is from an env made as '" + std::string(key) +
                                "', but this env is '" + config_key + "'");
  }
  StateHead head;
  for (auto& word : head.words) word = in.get<std::uint64_t>("generator");
  load_pod_state(in.take(sizeof(Rng), "generator"), head.rng);
  return head;
}

void put_simulation(std::string& out, const mjModel* m, const mjData* d) {
  put(out, d->time);
  put(out, d->qpos, m->nq);
  put(out, d->qvel, m->nv);
  put(out, d->act, m->na);
  put(out, d->ctrl, m->nu);
  put(out, d->qacc_warmstart, m->nv);
  put(out, d->mocap_pos, 3 * m->nmocap);
  put(out, d->mocap_quat, 4 * m->nmocap);
}

Simulation read_simulation(StateReader& in, const mjModel* m) {
  Simulation s;
  s.time = in.doubles(1, "time")[0];
  s.qpos = in.doubles(m->nq, "qpos");
  s.qvel = in.doubles(m->nv, "qvel");
  s.act = in.doubles(m->na, "act");
  s.ctrl = in.doubles(m->nu, "ctrl");
  s.warmstart = in.doubles(m->nv, "qacc_warmstart");
  s.mocap_pos = in.doubles(3 * m->nmocap, "mocap_pos");
  s.mocap_quat = in.doubles(4 * m->nmocap, "mocap_quat");
  return s;
}

void apply(const Simulation& s, mjData* d) {
  d->time = s.time;
  copy(d->qpos, s.qpos);
  copy(d->qvel, s.qvel);
  copy(d->act, s.act);
  copy(d->ctrl, s.ctrl);
  copy(d->mocap_pos, s.mocap_pos);
  copy(d->mocap_quat, s.mocap_quat);
  copy(d->qacc_warmstart, s.warmstart);
}

void restore_warmstart(const Simulation& s, mjData* d) { copy(d->qacc_warmstart, s.warmstart); }

}  // namespace rlpool::mujoco
