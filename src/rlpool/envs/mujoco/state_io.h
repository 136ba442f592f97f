// Saved states of the MuJoCo envs that carry a generator of their own (the
// Gymnasium-Robotics and MetaWorld families), as bytes.
//
// A state opens with its family's magic line, the configuration it belongs to
// (a state of another one is refused), the four words the env seeded its
// generator with at its last reset and the generator itself, then the
// simulation (time, qpos, qvel, act, ctrl, qacc_warmstart, mocap_pos,
// mocap_quat), then the env's own numbers. put() appends; StateReader reads
// front to back, refusing a short state or a non-finite number by name.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "_core/env/env.h"

namespace rlpool::mujoco {

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}
inline void put(std::string& out, const double* values, int n) {
  out.append(reinterpret_cast<const char*>(values), sizeof(double) * static_cast<std::size_t>(n));
}

class StateReader {
 public:
  // `family` names the family in messages ("MetaWorld env state ends inside its qpos").
  StateReader(std::string_view bytes, std::string family) : bytes_(bytes), family_(std::move(family)) {}
  std::string_view take(std::size_t n, const std::string& what);
  template <class T>
  T get(const std::string& what) {
    T value;
    std::memcpy(&value, take(sizeof(T), what).data(), sizeof(T));
    return value;
  }
  // n float64 numbers, each finite.
  std::vector<double> doubles(int n, const std::string& what);
  std::string_view rest() const { return bytes_.substr(pos_); }
  // Throws unless every byte was read.
  void expect_end() const;
  const std::string& family() const { return family_; }

 private:
  std::string_view bytes_;
  std::string family_;
  std::size_t pos_ = 0;
};

// The generator's part of a state.
struct StateHead {
  std::array<std::uint64_t, 4> words{};
  Rng rng;
};
void put_head(std::string& out, std::string_view magic, const std::string& config_key, const StateHead& head);
// Reads the magic line (refusing other bytes), the configuration (refusing another than `config_key`) and
// the generator.
StateHead read_head(StateReader& in, std::string_view magic, const std::string& config_key);

// The simulation's part of a state.
struct Simulation {
  double time = 0.0;
  std::vector<double> qpos, qvel, act, ctrl, warmstart, mocap_pos, mocap_quat;
};
void put_simulation(std::string& out, const mjModel* m, const mjData* d);
Simulation read_simulation(StateReader& in, const mjModel* m);
// Writes all but the warm start into `d` (a caller runs mj_forward, then restore_warmstart).
void apply(const Simulation& s, mjData* d);
void restore_warmstart(const Simulation& s, mjData* d);

}  // namespace rlpool::mujoco
