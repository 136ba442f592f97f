// Actions from Python into the pool's action slots (pool_binding.h): any
// numeric array (numpy, or anything np.asarray takes) of the action space's
// shape, checked row by row -- dtype, range, finiteness -- and cast to the
// engine's int64 or float64 before a single slot is written; and env ids as
// ints, refused with the value that is out of range.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "_core/python/pool_binding.h"

namespace rlpool::binding {

namespace {

std::string describe_dtype(nb::dlpack::dtype d) {
  switch (static_cast<nb::dlpack::dtype_code>(d.code)) {
    case nb::dlpack::dtype_code::Int: return "int" + std::to_string(d.bits);
    case nb::dlpack::dtype_code::UInt: return "uint" + std::to_string(d.bits);
    case nb::dlpack::dtype_code::Float: return "float" + std::to_string(d.bits);
    case nb::dlpack::dtype_code::Bool: return "bool";
    // numpy's names: complex128 holds two float64s.
    case nb::dlpack::dtype_code::Complex: return "complex" + std::to_string(d.bits);
    case nb::dlpack::dtype_code::Bfloat: return "bfloat" + std::to_string(d.bits);
    default: return "dtype code " + std::to_string(d.code) + " with " + std::to_string(d.bits) + " bits";
  }
}

std::string shape_str(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += std::to_string(shape[i]) + (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
  return s + ")";
}

}  // namespace

Array PyPool::as_array(nb::handle h) {
  Array arr;
  if (nb::try_cast(h, arr, false)) return arr;
  // Looked up per call (a rare path): a function-static nb::object would be
  // released after the interpreter has finalized and abort the process.
  const nb::module_ np = nb::module_::import_("numpy");
  nb::object converted = np.attr("asarray")(h);
  if (nb::try_cast(converted, arr, false)) return arr;
  // Non-native byte order converts losslessly; anything else is refused by name.
  nb::object dtype = converted.attr("dtype");
  const auto order = nb::cast<std::string>(dtype.attr("byteorder"));
  if (order != "=" && order != "|") {
    converted = converted.attr("astype")(dtype.attr("newbyteorder")("="));
    if (nb::try_cast(converted, arr, false)) return arr;
  }
  // Strides that are no whole number of items (a field of a structured
  // array) have no DLPack form; a contiguous copy reads the same values.
  if (nb::cast<std::string>(dtype.attr("kind")) != "V" && dtype.attr("fields").is_none()) {
    converted = np.attr("ascontiguousarray")(converted);
    if (nb::try_cast(converted, arr, false)) return arr;
  }
  throw nb::type_error(("expected a numeric array, got dtype " + nb::cast<std::string>(nb::str(dtype))).c_str());
}

std::vector<int> PyPool::to_ids(nb::handle h) {
  if (PyLong_Check(h.ptr())) {
    throw nb::type_error("env_id must be a sequence or array of ints, not a single int");
  }
  Array arr = as_array(h);
  const auto code = static_cast<nb::dlpack::dtype_code>(arr.dtype().code);
  if ((code != nb::dlpack::dtype_code::Int && code != nb::dlpack::dtype_code::UInt) || arr.ndim() != 1) {
    throw nb::type_error(("env_id must be a 1-D array of integers, got " + describe_dtype(arr.dtype()) + " with " +
                          std::to_string(arr.ndim()) + " dimensions").c_str());
  }
  std::vector<int> ids(arr.shape(0));
  const auto* base = static_cast<const std::byte*>(arr.data());
  const std::size_t item = arr.itemsize();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::byte* p = base + static_cast<std::int64_t>(i) * arr.stride(0) * static_cast<std::int64_t>(item);
    const std::int64_t v = read_int(p, arr.dtype());
    if (v < 0 || v > std::numeric_limits<int>::max()) {
      throw nb::index_error(("env_id " + int_str(p, arr.dtype()) + " is out of range").c_str());
    }
    ids[i] = static_cast<int>(v);
  }
  return ids;
}

std::string PyPool::int_str(const std::byte* p, nb::dlpack::dtype d) {
  if (d.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt) && d.bits == 64) {
    return std::to_string(*reinterpret_cast<const std::uint64_t*>(p));
  }
  return std::to_string(read_int(p, d));
}

std::int64_t PyPool::read_int(const std::byte* p, nb::dlpack::dtype d) {
  const bool is_signed = d.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int);
  switch (d.bits) {
    case 8: return is_signed ? static_cast<std::int64_t>(*reinterpret_cast<const std::int8_t*>(p))
                             : static_cast<std::int64_t>(*reinterpret_cast<const std::uint8_t*>(p));
    case 16: return is_signed ? static_cast<std::int64_t>(*reinterpret_cast<const std::int16_t*>(p))
                              : static_cast<std::int64_t>(*reinterpret_cast<const std::uint16_t*>(p));
    case 32: return is_signed ? static_cast<std::int64_t>(*reinterpret_cast<const std::int32_t*>(p))
                              : static_cast<std::int64_t>(*reinterpret_cast<const std::uint32_t*>(p));
    default: {
      if (is_signed) return *reinterpret_cast<const std::int64_t*>(p);
      const std::uint64_t u = *reinterpret_cast<const std::uint64_t*>(p);
      return u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                 ? std::numeric_limits<std::int64_t>::max()
                 : static_cast<std::int64_t>(u);
    }
  }
}

void PyPool::write_actions(nb::handle actions, const std::vector<int>& ids) {
  const ArraySpec& spec = pool_->spec().action;
  Array arr = as_array(actions);
  const std::size_t n = ids.size();
  std::vector<std::int64_t> expected{static_cast<std::int64_t>(n)};
  expected.insert(expected.end(), spec.shape.begin(), spec.shape.end());
  bool shape_ok = arr.ndim() == expected.size();
  for (std::size_t i = 0; shape_ok && i < expected.size(); ++i) {
    shape_ok = static_cast<std::int64_t>(arr.shape(i)) == expected[i];
  }
  if (!shape_ok) {
    std::vector<std::int64_t> got;
    for (std::size_t i = 0; i < arr.ndim(); ++i) got.push_back(static_cast<std::int64_t>(arr.shape(i)));
    throw nb::value_error(("actions must have shape " + shape_str(expected) + ", got " + shape_str(got)).c_str());
  }
  const auto d = arr.dtype();
  const auto code = static_cast<nb::dlpack::dtype_code>(d.code);
  const auto* base = static_cast<const std::byte*>(arr.data());
  const auto item = static_cast<std::int64_t>(arr.itemsize());
  if (pool_->spec().discrete_action()) {
    const bool is_float = code == nb::dlpack::dtype_code::Float && (d.bits == 32 || d.bits == 64);
    // float_discrete_actions: float actions are truncated toward zero; by default they are refused.
    if (code != nb::dlpack::dtype_code::Int && code != nb::dlpack::dtype_code::UInt &&
        !(float_discrete_actions_ && is_float)) {
      throw nb::type_error(("discrete actions must be integers, got dtype " + describe_dtype(d)).c_str());
    }
    // One integer per env, or `dim` of them per row (one per agent, or a MultiDiscrete's choices), each
    // element within its own bound (one bound for all where the spec declares one).
    const std::size_t dim = static_cast<std::size_t>(spec.num_elements());
    const auto high_of = [&](std::size_t j) {
      return static_cast<std::int64_t>(spec.high.size() == dim ? spec.high[j] : spec.high.at(0));
    };
    const auto where = [&](std::size_t i, std::size_t j) {
      const char* part = pool_->spec().num_agents > 0 ? ", agent " : ", element ";
      return "for env " + std::to_string(ids[i]) + (dim > 1 ? part + std::to_string(j) : std::string());
    };
    scratch_int_.resize(n * dim);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < dim; ++j) {
        const std::int64_t offset = static_cast<std::int64_t>(i) * arr.stride(0) +
                                    (dim > 1 ? static_cast<std::int64_t>(j) * arr.stride(1) : 0);
        const std::byte* p = base + offset * item;
        const std::int64_t high = high_of(j);
        if (is_float) {
          const double f = d.bits == 32 ? static_cast<double>(*reinterpret_cast<const float*>(p))
                                        : *reinterpret_cast<const double*>(p);
          if (!(f > -1.0 && f < static_cast<double>(high) + 1.0)) {  // NaN fails too
            throw nb::value_error(("action " + std::to_string(f) + " " + where(i, j) + " is out of range [0, " +
                                   std::to_string(high) + "]")
                                      .c_str());
          }
          scratch_int_[i * dim + j] = static_cast<std::int64_t>(f);
          continue;
        }
        const std::int64_t v = read_int(p, d);
        if (v < 0 || v > high) {
          throw nb::value_error(("action " + int_str(p, d) + " " + where(i, j) + " is out of range [0, " +
                                 std::to_string(high) + "]")
                                    .c_str());
        }
        scratch_int_[i * dim + j] = v;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      std::memcpy(pool_->action_slot(ids[i]), scratch_int_.data() + i * dim, dim * sizeof(std::int64_t));
    }
    return;
  }
  if (code != nb::dlpack::dtype_code::Float || (d.bits != 32 && d.bits != 64)) {
    throw nb::type_error(("continuous actions must be float32 or float64, got dtype " + describe_dtype(d)).c_str());
  }
  const std::size_t dim = static_cast<std::size_t>(spec.num_elements());
  scratch_float_.resize(n * dim);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < dim; ++j) {
      // Flat index j over the trailing dims, honouring strides.
      std::int64_t offset = static_cast<std::int64_t>(i) * arr.stride(0);
      std::size_t rest = j;
      for (std::size_t k = arr.ndim(); k-- > 1;) {
        offset += static_cast<std::int64_t>(rest % arr.shape(k)) * arr.stride(k);
        rest /= arr.shape(k);
      }
      const std::byte* p = base + offset * item;
      const double v = d.bits == 32 ? static_cast<double>(*reinterpret_cast<const float*>(p))
                                    : *reinterpret_cast<const double*>(p);
      if (!std::isfinite(v)) {
        throw nb::value_error(("action for env " + std::to_string(ids[i]) + " is not finite (" +
                               std::to_string(v) + ")")
                                  .c_str());
      }
      scratch_float_[i * dim + j] = v;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::memcpy(pool_->action_slot(ids[i]), scratch_float_.data() + i * dim, dim * sizeof(double));
  }
}

}  // namespace rlpool::binding
