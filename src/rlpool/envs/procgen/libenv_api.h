// The part of gym3's libenv C API that the Procgen envs call, declared here
// from its documented behaviour (procgen 0.10.7 exports libenv version 1).
// libenv.so is opened with dlopen (procgen_env.cc, checker/main.cc), so these
// are only the types, function-pointer signatures and their lookup; nothing
// links against it.
//
// What the calls do (procgen's VecGame):
// - libenv_make(num, options) builds `num` games from name/value options: a
//   string is dtype uint8 with count = its length (no terminating NUL), an int
//   is one int32, a bool one uint8 (0 or 1). An unknown option, a wrong dtype
//   or an invalid value ends the process (procgen's fatal()), so every value
//   is checked before the call.
// - libenv_set_buffers hands it the caller's buffers (structure of arrays:
//   pointer [space * num + env]); with num_threads = 0 it resets each game and
//   renders the first observation right away.
// - libenv_act steps every game with the action in its buffer (num_threads =
//   0: in the calling thread) and writes observation, reward, first (the
//   episode ended: the observation is already the next episode's) and info.
// - get_state/set_state (procgen's own exports) serialize one game.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace rlpool::procgen::libenv {

inline constexpr int kVersion = 1;
inline constexpr int kMaxNameLen = 128;
inline constexpr int kMaxNdim = 16;

enum Dtype : int { kDtypeUnused = 0, kDtypeUInt8 = 1, kDtypeInt32 = 2, kDtypeFloat32 = 3 };
enum SpaceName : int { kSpaceObservation = 1, kSpaceAction = 2, kSpaceInfo = 3 };

union Value {
  std::uint8_t uint8;
  std::int32_t int32;
  float float32;
};

struct TensorType {
  char name[kMaxNameLen];
  int scalar_type;
  int dtype;
  int shape[kMaxNdim];
  int ndim;
  Value low;
  Value high;
};

struct Option {
  char name[kMaxNameLen];
  int dtype;
  int count;
  void* data;
};

struct Options {
  Option* items;
  int count;
};

struct Buffers {
  void** ob;
  float* rew;
  std::uint8_t* first;
  void** info;
  void** ac;
};

using VersionFn = int (*)();
using MakeFn = void* (*)(int num, Options options);
using GetTensorTypesFn = int (*)(void* env, int space, TensorType* types);
using SetBuffersFn = void (*)(void* env, Buffers* buffers);
using ActFn = void (*)(void* env);
using ObserveFn = void (*)(void* env);
using CloseFn = void (*)(void* env);
using GetStateFn = int (*)(void* env, int env_idx, char* data, int length);
using SetStateFn = void (*)(void* env, int env_idx, char* data, int length);

// Points `fn` at the function `name` of the dlopen'ed libenv.so `lib`.
template <class F>
void resolve(void* lib, const char* name, F& fn) {
  void* sym = dlsym(lib, name);
  if (sym == nullptr) throw std::runtime_error(std::string("Procgen's libenv.so has no symbol ") + name);
  fn = reinterpret_cast<F>(sym);
}

}  // namespace rlpool::procgen::libenv
