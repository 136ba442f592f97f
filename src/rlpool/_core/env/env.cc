// The env SDK's out-of-line parts (env.h): dtype and obs kind names, the check
// of a dict observation's names, info lookups, Config's range checks, and the
// registry of env types.
#include "_core/env/env.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "_core/gfx/pixels.h"

namespace rlpool {

std::size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::kBool:
    case DType::kInt8:
    case DType::kUInt8: return 1;
    case DType::kInt16: return 2;
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
    case DType::kInt16: return "int16";
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

void check_agents(const EnvSpec& spec, const std::string& env_type) {
  const auto refuse = [&](const std::string& why) {
    throw std::logic_error("env type '" + env_type + "': " + why);
  };
  if (spec.num_agents < 0 || spec.num_agents > kMaxAgents) {
    refuse("num_agents is " + std::to_string(spec.num_agents) + ", expected 0.." + std::to_string(kMaxAgents));
  }
  if (spec.turn_based) {
    if (spec.num_agents == 0) refuse("a turn-based game declares its num_agents");
    if (!spec.action.shape.empty()) refuse("a turn-based game's action is the moving agent's: shape ()");
    const auto player = find_info(spec.info, "current_player");
    if (!player || spec.info[*player].dtype != DType::kInt32 || !spec.info[*player].shape.empty()) {
      refuse("a turn-based game writes an int32 info entry 'current_player'");
    }
    const auto mask = find_info(spec.info, "legal_action_mask");
    if (!mask || spec.info[*mask].dtype != DType::kBool || spec.info[*mask].shape.size() != 1) {
      refuse("a turn-based game writes a bool info entry 'legal_action_mask' of shape (num_actions,)");
    }
  } else if (spec.num_agents > 0 && (spec.action.shape.empty() || spec.action.shape[0] != spec.num_agents)) {
    refuse("a multi-agent env's action has the agent axis first: shape (" + std::to_string(spec.num_agents) +
           ", ...)");
  }
}

void check_obs_names(const EnvSpec& spec, const std::string& env_type) {
  if (spec.obs_kind != ObsKind::kDict) return;
  const auto refuse = [&](const std::string& name, const std::string& why) {
    throw std::invalid_argument("env type '" + env_type + "': observation entry '" + name + "' " + why);
  };
  std::vector<std::string> names, outer;  // the names seen, and the nested dicts' keys
  for (const ArraySpec& a : spec.obs) {
    const std::size_t dot = a.name.find('.');
    const std::string top = a.name.substr(0, dot);
    if (dot != std::string::npos && a.name.find('.', dot + 1) != std::string::npos) {
      refuse(a.name, "has more than one '.': an observation nests one level ('outer.inner')");
    }
    if (top.empty() || (dot != std::string::npos && dot + 1 == a.name.size())) {
      refuse(a.name, "has an empty name or part: names are 'name' or 'outer.inner'");
    }
    if (std::find(names.begin(), names.end(), a.name) != names.end()) refuse(a.name, "is declared twice");
    const bool nested = dot != std::string::npos;
    // A key may not be both an entry's array and a nested dict.
    if (nested ? std::find(names.begin(), names.end(), top) != names.end()
               : std::find(outer.begin(), outer.end(), top) != outer.end()) {
      refuse(a.name, "clashes: '" + top + "' is both an observation entry and a nested dict");
    }
    names.push_back(a.name);
    if (nested) outer.push_back(top);
  }
}

std::size_t info_index(const std::vector<ArraySpec>& info, std::string_view name) {
  if (auto i = find_info(info, name)) return *i;
  throw std::logic_error("the env's spec has no info entry named '" + std::string(name) + "'");
}

std::optional<std::size_t> find_info(const std::vector<ArraySpec>& info, std::string_view name) {
  for (std::size_t i = 0; i < info.size(); ++i) {
    if (info[i].name == name) return i;
  }
  return std::nullopt;
}

namespace {

// The shortest text that reads back as `v` (0.1, not 0.100000).
std::string number(double v) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof(text), v).ptr);
}

// "option 'n' out of range: n must be in [1, 5], got 0": the quoted name and
// the rule both, as the checks this replaced spelled their messages.
[[noreturn]] void out_of_range(const std::string& name, const std::string& low, const std::string& high,
                               const std::string& value) {
  throw std::invalid_argument("option '" + name + "' out of range: " + name + " must be in [" + low + ", " + high +
                              "], got " + value);
}

}  // namespace

std::int64_t Config::get_int_in(const std::string& name, std::int64_t low, std::int64_t high) const {
  const std::int64_t v = get_int(name);
  if (v < low || v > high) out_of_range(name, std::to_string(low), std::to_string(high), std::to_string(v));
  return v;
}

double Config::get_double_in(const std::string& name, double low, double high) const {
  const double v = get_finite(name);
  if (v < low || v > high) out_of_range(name, number(low), number(high), number(v));
  return v;
}

double Config::get_bound(const std::string& name) const {
  const double v = get_double(name);
  if (std::isnan(v)) throw std::invalid_argument("option '" + name + "' must be a number or +-inf, got nan");
  return v;
}

double Config::get_finite(const std::string& name) const {
  const double v = get_double(name);
  if (!std::isfinite(v)) throw std::invalid_argument("option '" + name + "' must be finite, got " + number(v));
  return v;
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
  type = with_pixel_observations(std::move(type));  // an identity unless it has from_pixels
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
