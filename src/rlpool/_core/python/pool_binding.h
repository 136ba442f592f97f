// The Pool class Python holds (rlpool._rlpool_core.Pool): the thin layer
// between a Python call and the engine (_core/engine/pool.h).
//
// It checks and converts actions into the pool's action slots (actions.cc),
// releases the GIL while the engine works (pool_binding.cc), and hands back
// numpy arrays that view batch blocks (results.cc). Each block's arrays are
// made once and reused: a block whose arrays nobody but this cache references
// is free to be written again, so results Python still holds are never
// overwritten and a steady loop allocates nothing. The conventions an API
// layer may choose (reward dtype, info keys, ...) are in conventions.cc, the
// XLA bridge's calls in xla_bridge.cc.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "_core/engine/pool.h"
#include "xla/xla_bridge.h"

namespace rlpool::binding {

namespace nb = nanobind;

using Array = nb::ndarray<nb::ro, nb::device::cpu>;

// A block and the numpy arrays that view it, made once.
struct Entry {
  std::shared_ptr<Block> block;
  std::vector<nb::object> arrays;  // one per layout field
  nb::object reward32;              // reward_dtype float32: the rewards as float32, made on first use
  float* reward32_data = nullptr;

  bool free() const {
    if (block->owned_by_pool) return false;
    for (const auto& a : arrays) {
      if (Py_REFCNT(a.ptr()) != 1) return false;
    }
    return !reward32.is_valid() || Py_REFCNT(reward32.ptr()) == 1;
  }
};

// The bridge the XLA FFI handlers call (xla_bridge.cc).
extern const RlpoolXlaBridge xla_bridge;

// An env's info entry named "_..." is hidden: rlpool's own faces leave it out (the default info keys,
// SameStep's final info); an API layer may show it with info_keys.
inline bool hidden_info(const std::string& name) { return !name.empty() && name[0] == '_'; }

class PyPool {
 public:
  PyPool(const std::string& env_type, const std::map<std::string, OptionValue>& config, int num_envs, int batch_size,
         int num_threads, int thread_affinity_offset, const std::vector<std::uint64_t>& seeds, int max_episode_steps,
         const std::string& autoreset_mode);
  ~PyPool();

  nb::tuple step(nb::handle actions, nb::handle env_id);
  void send(nb::handle actions, nb::handle env_id);
  nb::tuple recv();
  void async_reset();
  // Sync mode: reset `env_id` (None: all) and return (obs, info) for all envs;
  // rows of envs not reset repeat their last results. Async mode: send resets
  // and return the next batch.
  nb::tuple reset(nb::handle env_id, const std::vector<int>& seed_ids, const std::vector<std::uint64_t>& seeds);
  void seed(nb::handle env_id, const std::vector<std::uint64_t>& seeds);
  nb::bytes get_state(int env_id);
  void set_state(int env_id, nb::bytes state);
  // Frames of `env_ids` as a new (len, height, width, 3) uint8 array.
  nb::object render(const std::vector<int>& env_ids, int width, int height, int camera_id);
  void close();
  // Every field of a batch in the engine's layout order: (name, dtype, per-env shape).
  nb::list fields() const;

  bool closed() const { return pool_->closed(); }
  int num_envs() const { return pool_->num_envs(); }
  int batch_size() const { return pool_->batch_size(); }
  int num_threads() const { return pool_->options().num_threads; }
  int max_episode_steps() const { return pool_->options().max_episode_steps; }
  bool export_discount() const { return export_discount_; }
  void set_export_discount(bool on) { export_discount_ = on; }

  // Conventions an API layer may choose (conventions.cc); the defaults are rlpool's own API.
  // The rewards' dtype: "float64" (default) or "float32" (a converted copy).
  std::string reward_dtype() const;
  void set_reward_dtype(const std::string& dtype);
  // info's entries in order, each (key, the field it shows): a key "a.b" is entry b of a nested dict a.
  // Default: env_id, elapsed_step, then the env's own entries under their names, hidden ("_...") ones left out;
  // a field is named by its name, hidden or not.
  std::vector<std::pair<std::string, std::string>> info_keys() const;
  void set_info_keys(const std::vector<std::pair<std::string, std::string>>& keys);
  // Whether a step of a never-reset env resets it instead of being refused.
  bool first_step_resets() const;
  void set_first_step_resets(bool on);
  // None (default) or (action key, env id keys): step()/send() also take a dict action holding the
  // actions under the action key and maybe the env ids under the first env id key; nested dicts are
  // read as "outer.inner" keys.
  std::optional<std::pair<std::string, std::vector<std::string>>> dict_action_keys() const;
  void set_dict_action_keys(const std::optional<std::pair<std::string, std::vector<std::string>>>& keys);
  // A discrete space's step() takes float actions, truncated toward zero (default: refused).
  bool float_discrete_actions() const { return float_discrete_actions_; }
  void set_float_discrete_actions(bool on) { float_discrete_actions_ = on; }
  // A sync pool's step(actions, env_id) steps only those envs and returns their rows in env_id's
  // order (default: a sync pool steps all its envs at once).
  bool subset_steps() const { return subset_steps_; }
  void set_subset_steps(bool on) { subset_steps_ = on; }

  // The XLA bridge's calls (xla_bridge.cc).
  // The bytes of this pool's XLA handle: its address and serial.
  nb::bytes xla_handle() const;
  // The pool a handle names, with its API lock held; throws if there is none.
  static std::pair<PyPool*, std::unique_lock<std::mutex>> from_handle(const std::uint8_t* h, std::size_t n);
  // XLA send: the actions of `env_id`'s envs, checked as step() checks them.
  void xla_send(const RlpoolXlaBuffer& action, const RlpoolXlaBuffer& env_id);
  // XLA recv: the next batch, every layout field copied (and narrowed where jax
  // wants 32 bits) into the output buffers. Blocks the pool hands back are kept
  // for XLA alone (xla_free_) unless Python's cache knows them.
  void xla_recv(const RlpoolXlaBuffer* outs, std::size_t n_outs);

 private:
  // One Python thread at a time: a second concurrent caller gets an error, not a race.
  struct Guard {
    explicit Guard(PyPool* p) {
      if (p->pool_->forked()) {
        throw std::runtime_error(
            "this pool was made in process " + std::to_string(p->pool_->owner_pid()) +
            " and the current process (" + std::to_string(getpid()) +
            ") is a fork of it: its worker threads do not exist here. Make a new env in this process "
            "(or use multiprocessing's 'spawn' or 'forkserver' start method)");
      }
      p->refuse_from_env_code("this call");
      lock = std::unique_lock<std::mutex>(p->api_mu_, std::try_to_lock);
      if (!lock.owns_lock()) throw std::runtime_error("the pool is being used by another thread");
      if (p->pool_->closed()) throw std::runtime_error("the pool is closed");
    }
    std::unique_lock<std::mutex> lock;
  };

  // An env's own reset()/step() (a Python env reaching its pool from an
  // objmode block) runs on a thread the pool owns, maybe the caller's own
  // while it holds api_mu_: refused before any lock is tried.
  void refuse_from_env_code(const std::string& call) const;
  // step() and async reset() are send + recv: refuse up front what recv() would
  // refuse, so that a rejected call queues nothing.
  void check_can_recv_after(std::size_t sending, const char* call) const;
  void send_impl(nb::handle actions, nb::handle env_id, bool reset, bool then_recv);
  nb::tuple recv_impl();
  nb::tuple step_all_now(nb::handle actions);
  // A free block with its arrays, from the cache or newly made.
  Entry& acquire();

  // Actions and env ids from Python (actions.cc).
  static Array as_array(nb::handle h);
  static std::vector<int> to_ids(nb::handle h);
  // The exact value, for messages (read_int clamps huge unsigned values).
  static std::string int_str(const std::byte* p, nb::dlpack::dtype d);
  static std::int64_t read_int(const std::byte* p, nb::dlpack::dtype d);
  // Checks `actions` against the action spec and copies them into the action
  // slots of `ids` (row i of actions -> env ids[i]). Nothing is written unless
  // every row is valid.
  void write_actions(nb::handle actions, const std::vector<int>& ids);

  // Results as numpy views (results.cc).
  // The Python keys of the results' dicts, made once per pool: a dict observation's (per entry, its key
  // and, for an "outer.inner" name, its key in the nested dict) and SameStep's final info's.
  void make_result_keys();
  Entry make_entry(std::shared_ptr<Block> block);
  nb::object obs_of(const Entry& e, std::size_t first) const;
  nb::tuple result(Entry& e, bool with_final) const;
  // The entries the Python faces take out of info: SameStep's final rows, the env's own discount.
  void add_private_entries(const Entry& e, nb::dict& info, bool with_final) const;

  // A key of a result dict: `top`, or for a nested entry `sub` of the dict at `top`.
  struct ResultKey {
    nb::object top;  // a Python str
    nb::object sub;  // a Python str; invalid for a plain entry
  };

  // The conventions' work (conventions.cc).
  struct InfoKey {
    std::string path;  // "key" or "key.sub"
    nb::object top;    // key as a Python str
    nb::object sub;    // sub as a Python str; invalid for a plain entry
    std::size_t field;
  };
  void default_info_keys();
  // A dict action -> (actions, env ids); an explicit `env_id` wins over the dict's.
  std::pair<nb::object, nb::object> unpack_dict_action(nb::handle actions, nb::handle env_id) const;
  // subset_steps, sync: step only env_id's envs and return their rows, in env_id's order.
  nb::tuple step_subset(nb::handle actions, nb::handle env_id);
  // The rows `index` of every array in a (nested) result.
  static nb::object pick_rows(nb::handle value, nb::handle index);
  // Step only `ids`; the result has every env's row (the others repeat their latest results, as a
  // partial reset's do).
  nb::tuple step_sync_ids(nb::handle actions, const std::vector<int>& ids);

  // XLA (xla_bridge.cc).
  void xla_register();
  void xla_unregister();
  // A block only XLA calls use: from xla_free_, or new (the first few calls).
  std::shared_ptr<Block> take_xla_block();
  void refuse_xla_pending(const char* call) const {
    if (xla_pending_) {
      throw std::logic_error(std::string(call) + ": an XLA send stepped the envs and its batch has not been "
                             "received: call recv() (or the XLA recv) first");
    }
  }

  std::unique_ptr<Pool> pool_;
  std::vector<int> all_ids_;
  std::vector<Entry> cache_;
  std::size_t next_ = 0;
  std::shared_ptr<Block> last_;  // sync: the latest full result, for partial resets
  bool export_discount_ = false;  // results carry info["_rlpool_discount"] (envs with their own discount)
  bool reward32_ = false;
  bool float_discrete_actions_ = false;
  bool subset_steps_ = false;
  std::string dict_action_key_;  // empty: dict actions are refused
  std::vector<std::string> dict_env_id_keys_;
  std::vector<InfoKey> info_plan_;
  std::vector<ResultKey> obs_keys_;  // per observation entry (obs_kind dict)
  std::vector<std::pair<nb::object, std::size_t>> final_info_keys_;  // SameStep: (key, field) of shown entries
  std::mutex api_mu_;
  std::vector<std::int64_t> scratch_int_;
  std::vector<double> scratch_float_;
  std::uint64_t serial_ = 0;  // this pool's entry in the XLA registry
  std::vector<std::shared_ptr<Block>> xla_free_;  // blocks XLA calls may give the ring
  std::shared_ptr<Block> xla_pending_;  // sync: the batch an XLA send stepped, until its recv
  std::vector<int> xla_ids_;
};

}  // namespace rlpool::binding
