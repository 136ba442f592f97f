// Batch buffers: one contiguous allocation holding a batch of results, one
// array per field (observation entries, reward, flags, infos). Python views
// each field as a numpy array without copying; a block handed to Python is
// never written again while Python holds it (see _core/python/results.cc).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "_core/engine/autoreset.h"
#include "_core/env/env.h"

namespace rlpool {

struct Field {
  std::string name;
  DType dtype;
  std::vector<std::int64_t> shape;  // per-row shape
  std::size_t row_bytes;
  std::size_t offset;  // of row 0 within a block of `rows` rows (set per block size)
};

// Which fields a batch carries and where they sit. Field order:
// obs..., reward, terminated, truncated, env_id, elapsed_step, info...,
// with SameStep autoreset: final_obs..., final_elapsed_step, final_info...,
// and for envs with EnvSpec::has_discount: discount.
class Layout {
 public:
  Layout(const EnvSpec& spec, AutoresetMode mode) {
    for (const auto& a : spec.obs) add(a.name, a.dtype, a.shape);
    // A multi-agent env's reward and flags have an agent axis.
    agents = spec.agents_per_row();
    const std::vector<std::int64_t> per_agent =
        spec.num_agents > 0 ? std::vector<std::int64_t>{spec.num_agents} : std::vector<std::int64_t>{};
    add("reward", DType::kFloat64, per_agent);
    add("terminated", DType::kBool, per_agent);
    add("truncated", DType::kBool, per_agent);
    add("env_id", DType::kInt32, {});
    add("elapsed_step", DType::kInt32, {});
    for (const auto& a : spec.info) add(a.name, a.dtype, a.shape);
    num_obs = spec.obs.size();
    num_info = spec.info.size();
    if (mode == AutoresetMode::kSameStep) {
      has_final_ = true;
      for (const auto& a : spec.obs) add(a.name, a.dtype, a.shape);
      add("elapsed_step", DType::kInt32, {});
      for (const auto& a : spec.info) add(a.name, a.dtype, a.shape);
    }
    if (spec.has_discount) {
      discount_ = fields.size();
      add("discount", DType::kFloat32, {});
    }
  }

  std::vector<Field> fields;
  int agents = 1;  // rewards and flags per row (EnvSpec::agents_per_row)
  std::size_t num_obs = 0;
  std::size_t num_info = 0;

  std::size_t reward() const { return num_obs; }
  std::size_t terminated() const { return num_obs + 1; }
  std::size_t truncated() const { return num_obs + 2; }
  std::size_t env_id() const { return num_obs + 3; }
  std::size_t elapsed_step() const { return num_obs + 4; }
  std::size_t info(std::size_t i) const { return num_obs + 5 + i; }
  // SameStep only: where the finished episode's last obs and info go.
  bool has_final() const { return has_final_; }
  std::size_t final_obs(std::size_t i) const { return num_obs + 5 + num_info + i; }
  std::size_t final_elapsed_step() const { return 2 * num_obs + 5 + num_info; }
  std::size_t final_info(std::size_t i) const { return 2 * num_obs + 6 + num_info + i; }
  bool has_discount() const { return discount_ != 0; }
  std::size_t discount() const { return discount_; }

 private:
  bool has_final_ = false;
  std::size_t discount_ = 0;  // 0: none (field 0 is always an observation)
  void add(const std::string& name, DType dtype, std::vector<std::int64_t> shape) {
    std::size_t n = dtype_size(dtype);
    for (auto d : shape) n *= static_cast<std::size_t>(d);
    fields.push_back(Field{name, dtype, std::move(shape), n, 0});
  }
};

// `rows` rows of every field of a layout, each field a C-contiguous array.
class Block {
 public:
  Block(std::shared_ptr<const Layout> layout_ptr, int rows) : layout_(std::move(layout_ptr)), rows_(rows) {
    const Layout& layout = *layout_;
    std::size_t total = 0;
    std::vector<std::size_t> offsets;
    offsets.reserve(layout.fields.size());
    for (const auto& f : layout.fields) {
      offsets.push_back(total);
      total += align(f.row_bytes * static_cast<std::size_t>(rows));
    }
    // Zeroed so that rows never written (e.g. final_obs of live envs) are defined.
    bytes_ = total == 0 ? 1 : total;
    data_ = std::make_unique<std::byte[]>(bytes_);
    // Every step finds a dozen rows: two loads each from here.
    spans_.reserve(offsets.size());
    for (std::size_t f = 0; f < offsets.size(); ++f) spans_.push_back({data_.get() + offsets[f], layout.fields[f].row_bytes});
  }

  int rows() const { return rows_; }
  const Layout& layout() const { return *layout_; }
  std::byte* field(std::size_t f) { return spans_[f].base; }
  std::byte* row(std::size_t f, int r) { return spans_[f].base + spans_[f].row_bytes * static_cast<std::size_t>(r); }
  template <class T>
  T& at(std::size_t f, int r) { return *reinterpret_cast<T*>(row(f, r)); }

  // Copies all fields of row `from_row` of `from` into row `to_row` here.
  void copy_row(int to_row, Block& from, int from_row) {
    for (std::size_t f = 0; f < spans_.size(); ++f) {
      std::memcpy(row(f, to_row), from.row(f, from_row), spans_[f].row_bytes);
    }
  }

  // Copies everything from a block of the same layout and size.
  void copy_rows_from(const Block& other) { std::memcpy(data_.get(), other.data_.get(), bytes_); }

  // Rows written so far in the current fill (async completion counting).
  std::atomic<int> filled{0};
  // True while the pool may still write into this block.
  bool owned_by_pool = false;

 private:
  static std::size_t align(std::size_t n) { return (n + 63) & ~static_cast<std::size_t>(63); }
  std::shared_ptr<const Layout> layout_;
  int rows_;
  struct Span {
    std::byte* base;        // row 0 of the field
    std::size_t row_bytes;  // the field's Field::row_bytes
  };
  std::size_t bytes_ = 0;
  std::unique_ptr<std::byte[]> data_;
  std::vector<Span> spans_;  // by field, into data_
};

}  // namespace rlpool
