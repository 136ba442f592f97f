// rlpool's Procgen state checker, a program of its own (_rlpool_procgen_check).
//
// procgen's state loader trusts its input: a crafted blob makes it end the
// process (its fassert calls exit) or read past its buffers. A Procgen env
// (procgen_env.cc) takes the states its own process wrote at once, and runs
// this program on any other: it loads the blob into a game of procgen's
// libenv.so made with the env's own options, steps it, and exits 0. A blob it
// does not survive is refused, and only this process ends.
//
// argv[1]: libenv.so's path. stdin: the options, then the blob:
//   [u32 count] count x ([u32 n][name] [i32 dtype] [u32 n][data]) [u32 n][blob]
// Exit status: 0 taken and stepped, 2 a bad request, else whatever procgen did.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envs/procgen/libenv_api.h"

namespace lib = rlpool::procgen::libenv;

namespace {

constexpr int kSteps = 32;       // steps after the load, through every action twice
constexpr int kNumActions = 15;  // procgen's get_combos()

class Reader {
 public:
  explicit Reader(std::string_view bytes) : rest_(bytes) {}
  std::uint32_t u32() {
    std::uint32_t v = 0;
    std::memcpy(&v, take(sizeof v).data(), sizeof v);
    return v;
  }
  std::string_view bytes() { return take(u32()); }
  bool done() const { return rest_.empty(); }

 private:
  std::string_view take(std::size_t n) {
    if (n > rest_.size()) throw std::runtime_error("the request ends early");
    const std::string_view out = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return out;
  }
  std::string_view rest_;
};

std::size_t dtype_size(int dtype) {
  return dtype == lib::kDtypeUInt8 ? 1 : 4;  // uint8, int32 or float32
}

std::size_t elements(const lib::TensorType& t) {
  std::size_t n = 1;
  for (int i = 0; i < t.ndim; ++i) n *= static_cast<std::size_t>(t.shape[i]);
  return n;
}

int run(const char* library, std::string_view request) {
  Reader in(request);
  const std::uint32_t count = in.u32();
  std::vector<std::string> names;
  std::vector<std::string> data;
  std::vector<int> dtypes;
  for (std::uint32_t i = 0; i < count; ++i) {
    names.emplace_back(in.bytes());
    if (names.back().size() >= static_cast<std::size_t>(lib::kMaxNameLen)) throw std::runtime_error("option name");
    dtypes.push_back(static_cast<int>(in.u32()));
    data.emplace_back(in.bytes());
  }
  std::string blob(in.bytes());
  if (!in.done()) throw std::runtime_error("bytes after the blob");

  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw std::runtime_error(std::string("cannot load ") + library + ": " + dlerror());
  lib::MakeFn make = nullptr;
  lib::GetTensorTypesFn tensortypes = nullptr;
  lib::SetBuffersFn set_buffers = nullptr;
  lib::ActFn act = nullptr;
  lib::CloseFn close = nullptr;
  lib::SetStateFn set_state = nullptr;
  lib::resolve(handle, "libenv_make", make);
  lib::resolve(handle, "libenv_get_tensortypes", tensortypes);
  lib::resolve(handle, "libenv_set_buffers", set_buffers);
  lib::resolve(handle, "libenv_act", act);
  lib::resolve(handle, "libenv_close", close);
  lib::resolve(handle, "set_state", set_state);

  std::vector<lib::Option> items(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    std::strncpy(items[i].name, names[i].c_str(), lib::kMaxNameLen - 1);
    items[i].dtype = dtypes[i];
    items[i].count = static_cast<int>(data[i].size());
    items[i].data = data[i].data();
  }
  void* env = make(1, lib::Options{items.data(), static_cast<int>(count)});
  if (env == nullptr) throw std::runtime_error("libenv_make returned no env");

  // Buffers for every tensor libenv writes, sized from its own tensor types.
  auto buffers_of = [&](int space) {
    std::vector<lib::TensorType> types(static_cast<std::size_t>(tensortypes(env, space, nullptr)));
    tensortypes(env, space, types.data());
    std::vector<std::vector<std::uint8_t>> out;
    for (const auto& t : types) out.emplace_back(elements(t) * dtype_size(t.dtype));
    return out;
  };
  auto obs = buffers_of(lib::kSpaceObservation);
  auto info = buffers_of(lib::kSpaceInfo);
  std::vector<void*> obs_ptrs, info_ptrs;
  for (auto& b : obs) obs_ptrs.push_back(b.data());
  for (auto& b : info) info_ptrs.push_back(b.data());
  std::int32_t action = 0;
  void* action_ptr = &action;
  float reward = 0;
  std::uint8_t first = 0;
  lib::Buffers buffers{obs_ptrs.data(), &reward, &first, info_ptrs.data(), &action_ptr};
  set_buffers(env, &buffers);

  set_state(env, 0, blob.data(), static_cast<int>(blob.size()));
  for (int i = 0; i < kSteps; ++i) {
    action = i % kNumActions;
    act(env);
  }
  close(env);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s LIBENV_SO < request (run by rlpool's Procgen envs)\n", argv[0]);
    return 2;
  }
  const std::string request((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  try {
    return run(argv[1], request);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
