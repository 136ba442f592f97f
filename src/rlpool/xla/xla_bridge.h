// The C interface between rlpool's engine (_rlpool_core) and its XLA FFI
// handlers (ffi_handlers.cc, a small library compiled against jaxlib's FFI
// headers; see rlpool/xla/__init__.py for when). Plain C types only, so that
// the two sides may be built by different compilers at different times: the
// handlers decode XLA's buffers into RlpoolXlaBuffer and call these functions,
// which step the pool named by the handle buffer's bytes.
#pragma once

#include <stddef.h>
#include <stdint.h>

#define RLPOOL_XLA_BRIDGE_VERSION 1u
// The handle buffer: the pool's address and its registration serial (uint64 each).
#define RLPOOL_XLA_HANDLE_BYTES 16

// Element types, in the engine's DType order; kRlpoolXlaOther for anything else.
enum RlpoolXlaDType {
  kRlpoolXlaBool = 0,
  kRlpoolXlaInt8 = 1,
  kRlpoolXlaUInt8 = 2,
  kRlpoolXlaInt32 = 3,
  kRlpoolXlaInt64 = 4,
  kRlpoolXlaFloat32 = 5,
  kRlpoolXlaFloat64 = 6,
  kRlpoolXlaOther = 255,
};

struct RlpoolXlaBuffer {
  void* data;
  int32_t dtype;     // an RlpoolXlaDType
  int64_t elements;  // number of elements (all dimensions multiplied)
};

// Each function returns 0 on success; else it writes a NUL-terminated message
// (truncated to err_size) into err and returns nonzero. None of them needs the GIL.
struct RlpoolXlaBridge {
  uint32_t version;  // RLPOOL_XLA_BRIDGE_VERSION
  // Queue `action` (one row per env in `env_id`) for those envs.
  int (*send)(const uint8_t* handle, size_t handle_bytes, const struct RlpoolXlaBuffer* action,
              const struct RlpoolXlaBuffer* env_id, char* err, size_t err_size);
  // Wait for the next batch and copy its fields (the pool's layout order) into `outs`.
  int (*recv)(const uint8_t* handle, size_t handle_bytes, const struct RlpoolXlaBuffer* outs, size_t n_outs,
              char* err, size_t err_size);
};
