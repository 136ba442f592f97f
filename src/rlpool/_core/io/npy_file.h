// The .npy files envs take their data from (puzzle databases, level sets,
// recorded motions, tables): numpy's format (numpy/lib/format.py, versions 1.0-3.0) read whole and
// checked -- a dtype the env names, C order, the data as long as the shape
// and the dtype's item size say -- and one shared copy of a file's contents
// for every env reading it. What is wrong with a file is passed to the env's
// `refuse`, which throws its own std::invalid_argument.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace rlpool {

// An env's error for its data file: throws, naming the file and what is wrong with it.
using Refuse = void (*)(const std::string& path, const std::string& why);

struct NpyBytes {
  std::vector<std::int64_t> shape;
  std::string descr;               // the file's dtype, one of those asked for (e.g. "<f8")
  std::vector<std::uint8_t> data;  // the values' bytes, C order
};

// The file at `path`, whose dtype must be one of `dtypes` (numpy's descr strings that end in their item
// size in bytes, e.g. "|i1", "<f8").
NpyBytes read_npy(const std::string& path, std::initializer_list<std::string_view> dtypes, Refuse refuse);

// The values of a little-endian float64 ("<f8") file, in C order (on a little-endian host).
std::vector<double> float64_values(const NpyBytes& npy);

// A shape as numpy prints it: "(3, 9, 9)".
std::string shape_text(const std::vector<std::int64_t>& shape);

// The file's identity for sharing: its path, size and modification time (a rewritten file is read again).
std::string file_identity(const std::string& path);

// One copy of what `read(path)` makes of a file, shared by every env that asks while one holds it.
template <class T>
std::shared_ptr<const T> shared_copy(const std::string& path, std::shared_ptr<const T> (*read)(const std::string&)) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const T>> loaded;
  const std::string key = file_identity(path);
  const std::lock_guard lock(mutex);
  if (auto held = loaded[key].lock()) return held;
  std::erase_if(loaded, [](const auto& entry) { return entry.second.expired(); });
  auto made = read(path);
  loaded[key] = made;
  return made;
}

}  // namespace rlpool
