// The nanobind module _rlpool_core: the Pool class (pool_binding.h), the
// registered env types and their options (env_types, each option an
// OptionInfo), what an env of a configuration writes (env_spec), the
// autoreset modes' names, and the XLA bridge's address.
// At import it arms the exit gate (exit_gate.h) and notes Python's main thread
// for the interrupt check (interrupt.h).
#include <nanobind/nanobind.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "_core/engine/autoreset.h"
#include "_core/env/env.h"
#include "_core/python/exit_gate.h"
#include "_core/python/interrupt.h"
#include "_core/python/pool_binding.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace rlpool::binding {
namespace {

nb::dict array_spec_dict(const ArraySpec& a) {
  nb::dict d;
  d["name"] = a.name;
  d["dtype"] = dtype_name(a.dtype);
  d["shape"] = nb::tuple(nb::cast(a.shape));
  d["low"] = nb::cast(a.low);
  d["high"] = nb::cast(a.high);
  return d;
}

nb::dict env_spec(const std::string& env_type, const std::map<std::string, OptionValue>& config) {
  const EnvType& type = find_env_type(env_type);
  if (!type.unavailable.empty()) throw std::runtime_error(type.unavailable);
  const EnvSpec s = type.spec(Config(config));
  check_obs_names(s, env_type);  // refused here, when a spec is made, not first when a pool is
  check_agents(s, env_type);
  nb::list obs, info;
  for (const auto& a : s.obs) obs.append(array_spec_dict(a));
  for (const auto& a : s.info) info.append(array_spec_dict(a));
  nb::dict d;
  d["obs"] = obs;
  d["obs_kind"] = obs_kind_name(s.obs_kind);
  d["has_discount"] = s.has_discount;
  d["action"] = array_spec_dict(s.action);
  d["info"] = info;
  d["render_width"] = s.render_width;
  d["render_height"] = s.render_height;
  d["render_any_size"] = s.render_any_size;
  d["render_fps"] = s.render_fps;
  d["render_cameras"] = s.render_cameras;
  d["num_agents"] = s.num_agents;
  d["turn_based"] = s.turn_based;
  return d;
}

// An option as env_types() describes it: a tuple (name, default, doc), so that
// code unpacking three items reads it as before, whose fields are also there
// by name, may_be_inf (Option::may_be_inf) by name only.
PyStructSequence_Field option_info_fields[] = {
    {"name", "the option's name"},
    {"default", "its default value, of the option's type (bool, int, float or str)"},
    {"doc", "what the option does"},
    {"may_be_inf", "True for a float option that may be +-inf; other float options must be finite"},
    {nullptr, nullptr},
};
PyStructSequence_Desc option_info_desc = {
    "rlpool._rlpool_core.OptionInfo",
    "An env type's option: (name, default, doc), and may_be_inf by name.",
    option_info_fields,
    3,  // in the tuple: name, default, doc
};
PyTypeObject* option_info_type = nullptr;  // made at import; the module holds it

void add_option_info_type(nb::module_& m) {
  option_info_type = PyStructSequence_NewType(&option_info_desc);
  if (option_info_type == nullptr) throw nb::python_error();
  m.attr("OptionInfo") = nb::steal(reinterpret_cast<PyObject*>(option_info_type));
}

nb::object option_info(const Option& o) {
  nb::object info = nb::steal(PyStructSequence_New(option_info_type));
  if (!info.is_valid()) throw nb::python_error();
  PyStructSequence_SetItem(info.ptr(), 0, nb::cast(o.name).release().ptr());
  PyStructSequence_SetItem(info.ptr(), 1, nb::cast(o.default_value).release().ptr());
  PyStructSequence_SetItem(info.ptr(), 2, nb::cast(o.doc).release().ptr());
  PyStructSequence_SetItem(info.ptr(), 3, nb::cast(o.may_be_inf).release().ptr());
  return info;
}

nb::list env_types() {
  nb::list out;
  for (const auto& name : env_type_names()) {
    const EnvType& t = find_env_type(name);
    nb::list options;
    for (const auto& o : t.options) options.append(option_info(o));
    out.append(nb::make_tuple(name, options, t.unavailable));
  }
  return out;
}

}  // namespace
}  // namespace rlpool::binding

NB_MODULE(_rlpool_core, m) {
  using rlpool::binding::PyPool;
  m.doc() = "rlpool's C++ engine: a pool of environments stepped by worker threads.";
  nb::module_::import_("atexit").attr("register")(nb::cpp_function([] { rlpool::binding::exit_gate::close(); }));
  Py_AtExit(rlpool::binding::exit_gate::quiet_leaks);
  rlpool::binding::main_thread_ident =
      nb::cast<unsigned long>(nb::module_::import_("threading").attr("main_thread")().attr("ident"));
  {
    nb::list modes;
    for (const char* name : rlpool::kAutoresetModeNames) modes.append(name);
    m.attr("AUTORESET_MODES") = nb::tuple(modes);
  }
  rlpool::binding::add_option_info_type(m);
  nb::class_<rlpool::Block>(m, "_Block");
  m.def("env_spec", &rlpool::binding::env_spec, "env_type"_a, "config"_a,
        "The arrays an env type writes and its action, for a configuration.");
  m.def("_xla_bridge_address", [] { return reinterpret_cast<std::uintptr_t>(&rlpool::binding::xla_bridge); },
        "Address of the RlpoolXlaBridge the XLA FFI handlers call (rlpool/xla/xla_bridge.h).");
  m.def("env_types", &rlpool::binding::env_types,
        "Registered C++ env types: (name, options, why this build cannot make it or ''); each option an "
        "OptionInfo, a tuple (name, default, doc) with the field may_be_inf (by name only): whether a float "
        "option may be +-inf.");
  nb::class_<PyPool>(m, "Pool")
      .def(nb::init<const std::string&, const std::map<std::string, rlpool::OptionValue>&, int, int, int, int,
                    const std::vector<std::uint64_t>&, int, const std::string&>(),
           "env_type"_a, "config"_a, "num_envs"_a, "batch_size"_a, "num_threads"_a, "thread_affinity_offset"_a,
           "seeds"_a, "max_episode_steps"_a, "autoreset_mode"_a)
      // "action": an API layer may hand this method out as its own step().
      .def("step", &PyPool::step, "action"_a, "env_id"_a = nb::none())
      .def("send", &PyPool::send, "action"_a, "env_id"_a = nb::none())
      .def("recv", &PyPool::recv)
      .def("reset", &PyPool::reset, "env_id"_a = nb::none(), "seed_ids"_a = std::vector<int>{},
           "seeds"_a = std::vector<std::uint64_t>{})
      .def("async_reset", &PyPool::async_reset)
      .def("seed", &PyPool::seed, "env_id"_a, "seeds"_a)
      .def("get_state", &PyPool::get_state, "env_id"_a)
      .def("set_state", &PyPool::set_state, "env_id"_a, "state"_a)
      .def("render", &PyPool::render, "env_ids"_a, "width"_a, "height"_a, "camera_id"_a,
           "Frames of env_ids as a new (len(env_ids), height, width, 3) uint8 array.")
      .def("close", &PyPool::close)
      .def("xla_handle", &PyPool::xla_handle, "The bytes of this pool's XLA handle (see rlpool.xla).")
      .def("fields", &PyPool::fields, "A batch's fields in layout order: (name, dtype, per-env shape).")
      .def_prop_ro("closed", &PyPool::closed)
      .def_prop_ro("num_envs", &PyPool::num_envs)
      .def_prop_ro("batch_size", &PyPool::batch_size)
      .def_prop_ro("num_threads", &PyPool::num_threads)
      .def_prop_ro("max_episode_steps", &PyPool::max_episode_steps)
      .def_prop_rw("export_discount", &PyPool::export_discount, &PyPool::set_export_discount,
                   "Put the env's own discount (if it has one) in info['_rlpool_discount'] (for dm_env).")
      .def_prop_rw("reward_dtype", &PyPool::reward_dtype, &PyPool::set_reward_dtype,
                   "The rewards' dtype: 'float64' (default) or 'float32'.")
      .def_prop_rw("info_keys", &PyPool::info_keys, &PyPool::set_info_keys,
                   "info's entries in order, each (key, the field it shows); a key 'a.b' is entry b of a "
                   "nested dict a. Default: env_id, elapsed_step, then the env's own entries but its hidden "
                   "('_...') ones, which a key may show by their field name.")
      .def_prop_rw("first_step_resets", &PyPool::first_step_resets, &PyPool::set_first_step_resets,
                   "Whether a step of a never-reset env resets it (default: refused).")
      .def_prop_rw("dict_action_keys", &PyPool::dict_action_keys, &PyPool::set_dict_action_keys,
                   "None (default) or (action key, [env id keys]): step() and send() also take a dict of "
                   "the actions and maybe the env ids; nested dicts are read as 'outer.inner' keys.")
      .def_prop_rw("float_discrete_actions", &PyPool::float_discrete_actions, &PyPool::set_float_discrete_actions,
                   "A discrete space takes float actions, truncated toward zero (default: refused).")
      .def_prop_rw("subset_steps", &PyPool::subset_steps, &PyPool::set_subset_steps,
                   "A sync pool's step(actions, env_id) steps only those envs and returns their rows in "
                   "env_id's order (default: a sync pool steps all its envs at once).");
}
