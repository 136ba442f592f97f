// The result and action conventions an API layer may choose for a pool
// (pool_binding.h): the rewards' dtype, the keys of info and which field each
// one shows (an env's hidden "_..." entries only where a layer names them),
// dict actions, float actions for a discrete space, stepping a subset of a
// sync pool's envs, a first step that resets. The defaults are
// rlpool's own API; another library's layer (rlpool.compat) picks its own
// values. Nothing here knows which library asked.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "_core/python/exit_gate.h"
#include "_core/python/pool_binding.h"

namespace rlpool::binding {

std::string PyPool::reward_dtype() const { return reward32_ ? "float32" : "float64"; }

void PyPool::set_reward_dtype(const std::string& dtype) {
  if (dtype != "float32" && dtype != "float64") {
    throw nb::value_error(("reward_dtype must be 'float32' or 'float64', got '" + dtype + "'").c_str());
  }
  reward32_ = dtype == "float32";
}

std::vector<std::pair<std::string, std::string>> PyPool::info_keys() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const InfoKey& k : info_plan_) out.emplace_back(k.path, pool_->layout()->fields[k.field].name);
  return out;
}

void PyPool::set_info_keys(const std::vector<std::pair<std::string, std::string>>& keys) {
  const Layout& lay = *pool_->layout();
  std::vector<std::pair<std::string, std::size_t>> named{{"env_id", lay.env_id()},
                                                         {"elapsed_step", lay.elapsed_step()}};
  for (std::size_t i = 0; i < lay.num_info; ++i) named.emplace_back(lay.fields[lay.info(i)].name, lay.info(i));
  std::vector<InfoKey> plan;
  std::vector<std::string> seen;
  for (const auto& [path, field_name] : keys) {
    std::size_t field = lay.fields.size();
    for (const auto& [n, f] : named) {
      if (n == field_name) field = f;
    }
    if (field == lay.fields.size()) {
      std::string known;
      for (const auto& [n, f] : named) known += (known.empty() ? "" : ", ") + n;
      throw nb::value_error(("info key '" + path + "' shows '" + field_name + "', which is not a field of this "
                             "env's info (it has: " + known + ")").c_str());
    }
    const std::size_t dot = path.find('.');
    const std::string top = path.substr(0, dot);
    const std::string sub = dot == std::string::npos ? "" : path.substr(dot + 1);
    if (top.empty() || (dot != std::string::npos && (sub.empty() || sub.find('.') != std::string::npos)) ||
        top.rfind("_rlpool", 0) == 0) {
      throw nb::value_error(("info key '" + path + "' must be a name or 'name.name' (one level of nesting), "
                             "not starting with '_rlpool'").c_str());
    }
    for (const std::string& s : seen) {
      // A key may not repeat, nor be both a plain entry and a nested dict.
      if (s == path || s == top || s.substr(0, s.find('.')) == path) {
        throw nb::value_error(("info key '" + path + "' clashes with '" + s + "'").c_str());
      }
    }
    seen.push_back(path);
    plan.push_back(InfoKey{path, nb::str(top.c_str()), sub.empty() ? nb::object() : nb::str(sub.c_str()), field});
  }
  info_plan_ = std::move(plan);
}

void PyPool::default_info_keys() {
  const Layout& lay = *pool_->layout();
  std::vector<std::pair<std::string, std::string>> keys{{"env_id", "env_id"}, {"elapsed_step", "elapsed_step"}};
  for (std::size_t i = 0; i < lay.num_info; ++i) {
    const std::string& n = lay.fields[lay.info(i)].name;
    if (!hidden_info(n)) keys.emplace_back(n, n);
  }
  set_info_keys(keys);
}

bool PyPool::first_step_resets() const { return pool_->first_step_resets(); }

void PyPool::set_first_step_resets(bool on) { pool_->set_first_step_resets(on); }

std::optional<std::pair<std::string, std::vector<std::string>>> PyPool::dict_action_keys() const {
  if (dict_action_key_.empty()) return std::nullopt;
  return std::make_pair(dict_action_key_, dict_env_id_keys_);
}

void PyPool::set_dict_action_keys(const std::optional<std::pair<std::string, std::vector<std::string>>>& keys) {
  if (keys && keys->first.empty()) throw nb::value_error("dict_action_keys: the action key may not be empty");
  dict_action_key_ = keys ? keys->first : std::string();
  dict_env_id_keys_ = keys ? keys->second : std::vector<std::string>();
}

std::pair<nb::object, nb::object> PyPool::unpack_dict_action(nb::handle actions, nb::handle env_id) const {
  nb::dict flat;
  for (auto [key, value] : nb::borrow<nb::dict>(actions)) {
    if (PyDict_Check(value.ptr())) {
      for (auto [k, v] : nb::borrow<nb::dict>(value)) flat[nb::str("{}.{}").format(key, k)] = v;
    } else {
      flat[key] = value;
    }
  }
  bool ok = flat.contains(dict_action_key_.c_str());
  for (auto [key, value] : flat) {
    const auto k = nb::cast<std::string>(nb::str(key));
    bool known = k == dict_action_key_;
    for (const std::string& e : dict_env_id_keys_) known = known || k == e;
    ok = ok && known;
  }
  if (!ok) {
    std::string allowed;
    for (const std::string& e : dict_env_id_keys_) allowed += (allowed.empty() ? "'" : ", '") + e + "'";
    nb::list keys = nb::list(flat.attr("keys")());
    keys.sort();
    throw nb::value_error(("a dict action needs the key '" + dict_action_key_ + "'" +
                           (allowed.empty() ? "" : " (and may have " + allowed + ")") + ", got " +
                           nb::cast<std::string>(nb::repr(keys))).c_str());
  }
  nb::object ids = nb::borrow(env_id);
  if (ids.is_none() && !dict_env_id_keys_.empty() && flat.contains(dict_env_id_keys_[0].c_str())) {
    ids = flat[dict_env_id_keys_[0].c_str()];
  }
  return {nb::object(flat[dict_action_key_.c_str()]), ids};
}

nb::tuple PyPool::step_subset(nb::handle actions, nb::handle env_id) {
  const std::vector<int> ids = to_ids(env_id);
  nb::tuple full = step_sync_ids(actions, ids);
  if (ids == all_ids_) return full;
  nb::object index = nb::module_::import_("numpy").attr("array")(nb::cast(ids), "int64");
  return nb::borrow<nb::tuple>(pick_rows(full, index));
}

nb::object PyPool::pick_rows(nb::handle value, nb::handle index) {
  if (PyDict_Check(value.ptr())) {
    nb::dict out;
    for (auto [k, v] : nb::borrow<nb::dict>(value)) out[k] = pick_rows(v, index);
    return out;
  }
  if (PyTuple_Check(value.ptr())) {
    nb::list out;
    for (nb::handle v : nb::borrow<nb::tuple>(value)) out.append(pick_rows(v, index));
    return nb::tuple(out);
  }
  return value[index];
}

nb::tuple PyPool::step_sync_ids(nb::handle actions, const std::vector<int>& ids) {
  pool_->check_env_ids(ids, false);
  write_actions(actions, ids);
  Entry& e = acquire();
  if (ids.size() != static_cast<std::size_t>(pool_->num_envs()) && last_) e.block->copy_rows_from(*last_);
  try {
    const ReleasedGil release;
    pool_->step_into(ids, *e.block);
  } catch (const Interrupted&) {
    throw nb::python_error();
  }
  last_ = e.block;
  return result(e, true);
}

}  // namespace rlpool::binding
