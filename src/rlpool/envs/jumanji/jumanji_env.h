// The base of Jumanji's environments (jumanji 1.1.2, instadeepai/jumanji:
// jumanji/env.py Environment, jumanji/types.py TimeStep): what every one
// shares -- the JAX key an episode is generated from, the TimeStep's
// termination and truncation, per-agent rewards, the key in saved states --
// so that an env file holds only its game.
//
// Keys, as rlpool's Craftax envs key theirs (EnvPool's seeds):
// - env i of a pool seeded with s starts from jax.random.PRNGKey(s + i): its
//   first reset is jumanji's env.reset(PRNGKey(s + i)), and that key is the
//   env's key. A reset with a new seed (gymnasium's reset(seed=...)) starts
//   from PRNGKey(seed) again; PRNGKey keeps the low 32 bits of a seed.
// - a later reset: key, k = split(key); env.reset(k).
// - jumanji's step takes no key (an env that draws during an episode keeps
//   its own key in its State, as jumanji does), so neither does a step here.
// So the same seed gives jumanji's own episodes, bit for bit, where the game
// draws with jax_random.h's samplers in jumanji's order.
//
// A step's TimeStep maps onto rlpool's flags: termination (discount 0) is
// `terminated`, truncation (the env's own time limit, discount 1) is
// `truncated` (Output::truncated); the registrations' max_episode_steps is
// that limit too (EnvPool's), so the engine's limit agrees with jumanji's.
// A multi-agent env (EnvSpec::num_agents = A) writes A rewards (jumanji's
// per-agent reward, or its one shared reward repeated), and its episode ends
// for every agent at once, as jumanji's do.
//
// State (get_state/set_state): the env's key (two little-endian uint32, as
// jax.random.key_data gives them) followed by the game's own bytes, which
// the game checks when it loads them (a bad blob is a ValueError naming the
// field, and leaves the env as it was).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "_core/env/env.h"
#include "_core/env/jax_random.h"

namespace rlpool::jumanji {

using jax_random::Key;

// How a step ended: jumanji's termination (game over) or truncation (its time limit).
struct Outcome {
  bool terminated = false;
  bool truncated = false;
};

class JumanjiEnv : public Env {
 public:
  // `agents`: 0 for a single-agent env, else EnvSpec::num_agents.
  explicit JumanjiEnv(int agents = 0) : agents_(agents > 0 ? agents : 1) {}

  void reset(Rng& rng, const Output& out) final;
  void step(const Action& action, Rng& rng, const Output& out) final;
  std::string get_state() const final;
  void set_state(std::string_view bytes) final;

 protected:
  // jumanji's env.reset(key): a new episode's State.
  virtual void new_episode(Key key) = 0;
  // jumanji's env.step(state, action): the next State; `rewards` holds one
  // value per agent (one for a single-agent env), zeroed before the call.
  virtual Outcome play(const Action& action, double* rewards) = 0;
  // The TimeStep's observation and extras, from the current State: every
  // obs entry and the info entries of the env's spec.
  virtual void observe(const Output& out) const = 0;
  // The State as bytes, and back: load checks every field and throws
  // std::invalid_argument naming the first bad one, changing nothing then.
  virtual std::string save() const = 0;
  virtual void load(std::string_view bytes) = 0;

  int agents() const { return agents_; }

 private:
  int agents_;
  Key key_{};
};

// A load check of one field: throws std::invalid_argument ("state's <field> is
// <value>, expected <low>..<high>") unless low <= value <= high.
void check_range(long long value, long long low, long long high, const char* field);

// Reads a game's saved bytes field by field: each read checks that the bytes
// hold it (std::invalid_argument naming the field otherwise); done() checks
// that nothing is left over.
class StateReader {
 public:
  StateReader(std::string_view bytes, const char* what) : bytes_(bytes), what_(what) {}
  void read(void* dst, std::size_t size, const char* field);
  template <class T>
  T read(const char* field) {
    T value{};
    read(&value, sizeof(T), field);
    return value;
  }
  void done() const;

 private:
  std::string_view bytes_;
  const char* what_;
  std::size_t at_ = 0;
};

// Appends plain values to a game's saved bytes.
template <class T>
void append(std::string& bytes, const T& value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
}
inline void append(std::string& bytes, const void* data, std::size_t size) {
  bytes.append(static_cast<const char*>(data), size);
}

// Appends a contiguous container's values (a std::vector or std::array of
// plain values) to a game's saved bytes.
template <class Values>
void append_values(std::string& bytes, const Values& values) {
  append(bytes, values.data(), values.size() * sizeof(typename Values::value_type));
}

// Reads `count` values of type T, the bytes of `field`.
template <class T>
std::vector<T> read_values(StateReader& reader, std::size_t count, const char* field) {
  std::vector<T> values(count);
  reader.read(values.data(), count * sizeof(T), field);
  return values;
}

// The State's own key in a game's saved bytes: its two words (hi, lo), as
// jax.random.key_data gives them; read_key names the field "key".
void append_key(std::string& bytes, const Key& key);
Key read_key(StateReader& reader);

// check_range of every value of a container.
template <class Values>
void check_all(const Values& values, long long low, long long high, const char* field) {
  for (const auto v : values) check_range(static_cast<long long>(v), low, high, field);
}

// A load check of points in the unit square (routing envs' coordinates):
// throws std::invalid_argument ("state's <field> hold <value>, expected
// 0..1") unless every value is in 0..1 (NaN is not).
void check_unit_interval(const std::vector<float>& values, const char* field);

// jnp.linalg.norm(p - q) of two 2-d float32 points as XLA computes it on the
// CPU: sqrt(fma(dx, dx, dy * dy)) (routing envs' distance_between_two_cities).
float planar_distance(const float* p, const float* q);

// The action of a multi-agent env whose agents each pick one of `actions`
// moves (jumanji's MultiDiscreteArray of shape (agents,)): "action", int64,
// shape {agents}, low 0 and high actions - 1 per agent.
ArraySpec agents_action(std::int64_t agents, int actions);

}  // namespace rlpool::jumanji
