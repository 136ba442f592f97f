#include "env.h"

#include <algorithm>

namespace rlpool {

std::size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::kBool:
    case DType::kInt8:
    case DType::kUInt8: return 1;
    case DType::kInt32:
    case DType::kFloat32: return 4;
    case DType::kInt64:
    case DType::kFloat64: return 8;
  }
  return 0;
}

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kBool: return "bool";
    case DType::kInt8: return "int8";
    case DType::kUInt8: return "uint8";
    case DType::kInt32: return "int32";
    case DType::kInt64: return "int64";
    case DType::kFloat32: return "float32";
    case DType::kFloat64: return "float64";
  }
  return "?";
}

const char* obs_kind_name(ObsKind kind) {
  switch (kind) {
    case ObsKind::kArray: return "array";
    case ObsKind::kDict: return "dict";
    case ObsKind::kTuple: return "tuple";
  }
  return "?";
}

namespace {
// Function-local so that registration from other files' static initialisers
// never runs before the map exists.
std::map<std::string, EnvType>& registry() {
  static std::map<std::string, EnvType> types;
  return types;
}
}  // namespace

bool register_env_type(EnvType type) {
  auto name = type.name;
  if (!registry().emplace(name, std::move(type)).second) {
    throw std::logic_error("env type '" + name + "' registered twice");
  }
  return true;
}

const EnvType& find_env_type(const std::string& name) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& [key, _] : registry()) known += (known.empty() ? "" : ", ") + key;
    throw std::invalid_argument("unknown env type '" + name + "'; known: " + known);
  }
  return it->second;
}

std::vector<std::string> env_type_names() {
  std::vector<std::string> names;
  for (const auto& [key, _] : registry()) names.push_back(key);
  return names;
}

}  // namespace rlpool
