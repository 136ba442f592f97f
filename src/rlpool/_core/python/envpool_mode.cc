// EnvPool mode (Pool.envpool_mode, which rlpool.compat.envpool turns on):
// EnvPool 1.x's behaviour where it differs from rlpool's own -- dict actions,
// a sync pool stepping a subset of its envs, float32 rewards and EnvPool's
// info layout, a first step without reset that resets. Kept apart so that the
// rest of the binding is rlpool's API alone; the leniencies in action checks
// are read from envpool_mode_ where they apply (actions.cc).
#include <string>
#include <utility>
#include <vector>

#include "_core/python/exit_gate.h"
#include "_core/python/pool_binding.h"

namespace rlpool::binding {

void PyPool::set_envpool_mode(bool on) {
  envpool_mode_ = on;
  pool_->set_first_step_resets(on);
}

std::pair<nb::object, nb::object> PyPool::unpack_dict_action(nb::handle actions, nb::handle env_id) {
  nb::dict flat;
  for (auto [key, value] : nb::borrow<nb::dict>(actions)) {
    if (PyDict_Check(value.ptr())) {
      for (auto [k, v] : nb::borrow<nb::dict>(value)) flat[nb::str("{}.{}").format(key, k)] = v;
    } else {
      flat[key] = value;
    }
  }
  bool ok = flat.contains("action");
  for (auto [key, value] : flat) {
    const auto k = nb::cast<std::string>(nb::str(key));
    ok = ok && (k == "action" || k == "env_id" || k == "players.env_id");
  }
  if (!ok) {
    nb::list keys = nb::list(flat.attr("keys")());
    keys.sort();
    throw nb::value_error(("a dict action needs the key 'action' (and may have 'env_id', 'players.env_id'), got " +
                           nb::cast<std::string>(nb::repr(keys))).c_str());
  }
  nb::object ids = env_id.is_none() && flat.contains("env_id") ? nb::object(flat["env_id"]) : nb::borrow(env_id);
  return {nb::object(flat["action"]), ids};
}

nb::tuple PyPool::envpool_step(nb::handle actions, nb::handle env_id) {
  if (env_id.is_none() || !pool_->is_sync()) {
    if (env_id.is_none() && pool_->is_sync()) return step_all_now(actions);
    send_impl(actions, env_id, false, /*then_recv=*/true);
    return recv_impl();
  }
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

nb::tuple PyPool::envpool_result(Entry& e, bool with_final) const {
  const Layout& lay = *pool_->layout();
  const int rows = e.block->rows();
  if (!e.reward32.is_valid()) {
    e.reward32 = nb::module_::import_("numpy").attr("empty")(rows, "float32");
    e.reward32_data = nb::cast<nb::ndarray<float, nb::device::cpu>>(e.reward32).data();
  }
  for (int r = 0; r < rows; ++r) e.reward32_data[r] = static_cast<float>(e.block->at<double>(lay.reward(), r));
  if (keys_.empty()) {  // the dict keys as Python strings, made once: this runs on every step
    for (const char* k : {"env_id", "players", "elapsed_step"}) keys_.push_back(nb::str(k));
    for (std::size_t i = 0; i < lay.num_info; ++i) keys_.push_back(nb::str(lay.fields[lay.info(i)].name.c_str()));
  }
  nb::dict info;
  nb::object env_id = e.arrays[lay.env_id()];
  info[keys_[0]] = env_id;
  nb::dict players;
  players[keys_[0]] = env_id;
  info[keys_[1]] = players;
  for (std::size_t i = 0; i < lay.num_info; ++i) info[keys_[3 + i]] = e.arrays[lay.info(i)];
  info[keys_[2]] = e.arrays[lay.elapsed_step()];
  add_private_entries(e, info, with_final);
  return nb::make_tuple(obs_of(e, 0), e.reward32, e.arrays[lay.terminated()], e.arrays[lay.truncated()], info);
}

}  // namespace rlpool::binding
