// Results as Python sees them (pool_binding.h): numpy arrays that view a
// batch block's fields, made once per block and handed out again each time
// the block comes back, grouped as the env's obs kind says (a dict's
// "outer.inner" entries in nested dicts, their keys made once per pool), with
// info holding env_id, elapsed_step, the env's own entries and the entries only
// rlpool's faces read (SameStep's final rows, the env's discount).
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "_core/python/pool_binding.h"

namespace rlpool::binding {

namespace {

nb::dlpack::dtype to_dlpack(DType dtype) {
  switch (dtype) {
    case DType::kBool: return nb::dtype<bool>();
    case DType::kInt8: return nb::dtype<std::int8_t>();
    case DType::kUInt8: return nb::dtype<std::uint8_t>();
    case DType::kInt16: return nb::dtype<std::int16_t>();
    case DType::kInt32: return nb::dtype<std::int32_t>();
    case DType::kInt64: return nb::dtype<std::int64_t>();
    case DType::kFloat32: return nb::dtype<float>();
    case DType::kFloat64: return nb::dtype<double>();
  }
  return nb::dtype<std::uint8_t>();
}

// d[top] = value, or d[top][sub] = value (the nested dict made by the first of its entries).
void put(nb::dict& d, const nb::object& top, const nb::object& sub, nb::handle value) {
  if (!sub.is_valid()) {
    d[top] = value;
    return;
  }
  PyObject* nested = PyDict_GetItem(d.ptr(), top.ptr());  // borrowed
  if (nested == nullptr) {
    nb::dict inner;
    d[top] = inner;
    nested = inner.ptr();
  }
  nb::borrow<nb::dict>(nested)[sub] = value;
}

}  // namespace

void PyPool::make_result_keys() {
  const Layout& lay = *pool_->layout();
  obs_keys_.clear();
  for (std::size_t i = 0; i < lay.num_obs; ++i) {
    // check_obs_names made sure a name is "name" or "outer.inner".
    const std::string& name = lay.fields[i].name;
    const std::size_t dot = name.find('.');
    if (pool_->spec().obs_kind != ObsKind::kDict || dot == std::string::npos) {
      obs_keys_.push_back(ResultKey{nb::str(name.c_str()), nb::object()});
    } else {
      obs_keys_.push_back(ResultKey{nb::str(name.substr(0, dot).c_str()), nb::str(name.substr(dot + 1).c_str())});
    }
  }
  final_info_keys_.clear();
  if (!lay.has_final()) return;
  final_info_keys_.emplace_back(nb::str("elapsed_step"), lay.final_elapsed_step());
  for (std::size_t i = 0; i < lay.num_info; ++i) {
    const std::string& name = lay.fields[lay.final_info(i)].name;
    if (!hidden_info(name)) final_info_keys_.emplace_back(nb::str(name.c_str()), lay.final_info(i));
  }
}

Entry PyPool::make_entry(std::shared_ptr<Block> block) {
  Entry e;
  e.block = std::move(block);
  nb::object owner = nb::cast(e.block);
  const Layout& lay = *pool_->layout();
  for (std::size_t f = 0; f < lay.fields.size(); ++f) {
    const Field& field = lay.fields[f];
    std::vector<std::size_t> shape{static_cast<std::size_t>(e.block->rows())};
    for (auto d : field.shape) shape.push_back(static_cast<std::size_t>(d));
    nb::ndarray<nb::numpy> arr(e.block->field(f), shape.size(), shape.data(), owner, nullptr,
                               to_dlpack(field.dtype));
    e.arrays.push_back(arr.cast());
  }
  return e;
}

nb::object PyPool::obs_of(const Entry& e, std::size_t first) const {
  const Layout& lay = *pool_->layout();
  switch (pool_->spec().obs_kind) {
    case ObsKind::kArray: return e.arrays[first];
    case ObsKind::kTuple: {
      nb::list items;
      for (std::size_t i = 0; i < lay.num_obs; ++i) items.append(e.arrays[first + i]);
      return nb::tuple(items);
    }
    case ObsKind::kDict: break;
  }
  nb::dict d;
  for (std::size_t i = 0; i < lay.num_obs; ++i) put(d, obs_keys_[i].top, obs_keys_[i].sub, e.arrays[first + i]);
  return d;
}

nb::tuple PyPool::result(Entry& e, bool with_final) const {
  const Layout& lay = *pool_->layout();
  nb::object reward = e.arrays[lay.reward()];
  if (reward32_) {
    const int rows = e.block->rows();
    const int agents = lay.agents;  // a multi-agent env's rewards are rows x agents
    if (!e.reward32.is_valid()) {
      nb::object shape = pool_->spec().num_agents > 0 ? nb::object(nb::make_tuple(rows, agents))
                                                      : nb::object(nb::int_(rows));
      e.reward32 = nb::module_::import_("numpy").attr("empty")(shape, "float32");
      e.reward32_data = nb::cast<nb::ndarray<float, nb::device::cpu>>(e.reward32).data();
    }
    const auto* rewards = reinterpret_cast<const double*>(e.block->field(lay.reward()));
    for (int r = 0; r < rows * agents; ++r) e.reward32_data[r] = static_cast<float>(rewards[r]);
    reward = e.reward32;
  }
  nb::dict info;
  for (const InfoKey& k : info_plan_) put(info, k.top, k.sub, e.arrays[k.field]);
  add_private_entries(e, info, with_final);
  return nb::make_tuple(obs_of(e, 0), reward, e.arrays[lay.terminated()], e.arrays[lay.truncated()], info);
}

void PyPool::add_private_entries(const Entry& e, nb::dict& info, bool with_final) const {
  const Layout& lay = *pool_->layout();
  if (with_final && lay.has_final()) {
    nb::dict final_info;
    for (const auto& [key, field] : final_info_keys_) final_info[key] = e.arrays[field];
    info["_rlpool_final"] = nb::make_tuple(obs_of(e, lay.final_obs(0)), final_info);
  }
  // Only the dm adapter asks for it: gymnasium-style info does not have it.
  if (export_discount_ && lay.has_discount()) info["_rlpool_discount"] = e.arrays[lay.discount()];
}

}  // namespace rlpool::binding
