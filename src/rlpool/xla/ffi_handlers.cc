// rlpool's XLA FFI handlers: the custom calls behind env.xla()'s recv and send
// on the CPU platform. They only decode XLA's buffers and call the engine
// through the C bridge (xla_bridge.h), whose address Python hands to
// rlpool_xla_init once; the pool itself is named by the handle buffer's bytes,
// which the engine checks against its registry of live pools. Compiled against
// jaxlib's own FFI headers (jax.ffi.include_dir()), either by rlpool's CMake
// build when jax is importable there, or on first use (rlpool/xla/_build.py).
#include <cstring>
#include <string>
#include <vector>

#include "xla/ffi/api/ffi.h"
#include "xla/xla_bridge.h"

namespace ffi = xla::ffi;

namespace {

const RlpoolXlaBridge* bridge = nullptr;

int32_t code(ffi::DataType t) {
  switch (t) {
    case ffi::DataType::PRED: return kRlpoolXlaBool;
    case ffi::DataType::S8: return kRlpoolXlaInt8;
    case ffi::DataType::U8: return kRlpoolXlaUInt8;
    case ffi::DataType::S32: return kRlpoolXlaInt32;
    case ffi::DataType::S64: return kRlpoolXlaInt64;
    case ffi::DataType::F32: return kRlpoolXlaFloat32;
    case ffi::DataType::F64: return kRlpoolXlaFloat64;
    default: return kRlpoolXlaOther;
  }
}

RlpoolXlaBuffer view(const ffi::AnyBuffer& b) {
  return RlpoolXlaBuffer{b.untyped_data(), code(b.element_type()), static_cast<int64_t>(b.element_count())};
}

// The handle passes through (XLA aliases the output with the input; copied if not).
ffi::Error pass_handle(const ffi::AnyBuffer& in, ffi::Result<ffi::AnyBuffer>& out) {
  if (bridge == nullptr) return ffi::Error::Internal("rlpool's XLA handlers were not initialised");
  if (out->size_bytes() != in.size_bytes()) return ffi::Error::InvalidArgument("handle output has the wrong size");
  if (out->untyped_data() != in.untyped_data()) std::memcpy(out->untyped_data(), in.untyped_data(), in.size_bytes());
  return ffi::Error::Success();
}

ffi::Error failed(const char* call, const char* message) {
  return ffi::Error::InvalidArgument(std::string("rlpool xla ") + call + ": " + message);
}

ffi::Error Send(ffi::AnyBuffer handle, ffi::AnyBuffer action, ffi::AnyBuffer env_id,
                ffi::Result<ffi::AnyBuffer> handle_out) {
  if (ffi::Error e = pass_handle(handle, handle_out); e.failure()) return e;
  const RlpoolXlaBuffer a = view(action), ids = view(env_id);
  char err[1024];
  if (bridge->send(static_cast<const uint8_t*>(handle.untyped_data()), handle.size_bytes(), &a, &ids, err,
                   sizeof(err)) != 0) {
    return failed("send", err);
  }
  return ffi::Error::Success();
}

ffi::Error receive(const ffi::AnyBuffer& handle, ffi::RemainingRets& fields) {
  // Up to 16 obs and 128 info entries (_core/engine/episode.h), twice with
  // SameStep, plus 6 fixed fields.
  RlpoolXlaBuffer outs[(16 + 128) * 2 + 6];
  const size_t n = fields.size();
  if (n > sizeof(outs) / sizeof(outs[0])) return failed("recv", "too many outputs");
  for (size_t i = 0; i < n; ++i) {
    auto r = fields.get<ffi::AnyBuffer>(i);
    if (r.has_error()) return r.error();
    outs[i] = view(**r);
  }
  char err[1024];
  if (bridge->recv(static_cast<const uint8_t*>(handle.untyped_data()), handle.size_bytes(), outs, n, err,
                   sizeof(err)) != 0) {
    return failed("recv", err);
  }
  return ffi::Error::Success();
}

ffi::Error Recv(ffi::AnyBuffer handle, ffi::Result<ffi::AnyBuffer> handle_out, ffi::RemainingRets fields) {
  if (ffi::Error e = pass_handle(handle, handle_out); e.failure()) return e;
  return receive(handle, fields);
}

// step = send then recv in one custom call (half the per-step call overhead).
ffi::Error Step(ffi::AnyBuffer handle, ffi::AnyBuffer action, ffi::AnyBuffer env_id,
                ffi::Result<ffi::AnyBuffer> handle_out, ffi::RemainingRets fields) {
  if (ffi::Error e = Send(handle, action, env_id, handle_out); e.failure()) return e;
  return receive(handle, fields);
}

}  // namespace

extern "C" {

// Returns 0 once `b` is the bridge the handlers call; nonzero if its version is not this file's.
__attribute__((visibility("default"))) int rlpool_xla_init(const RlpoolXlaBridge* b) {
  if (b == nullptr || b->version != RLPOOL_XLA_BRIDGE_VERSION) return 1;
  bridge = b;
  return 0;
}

__attribute__((visibility("default"))) unsigned rlpool_xla_bridge_version() { return RLPOOL_XLA_BRIDGE_VERSION; }

}  // extern "C"

// The handlers are the library's other exported symbols (it is built with -fvisibility=hidden).
#pragma GCC visibility push(default)
XLA_FFI_DEFINE_HANDLER_SYMBOL(RlpoolXlaSend, Send,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()  // handle
                                  .Arg<ffi::AnyBuffer>()  // action
                                  .Arg<ffi::AnyBuffer>()  // env_id
                                  .Ret<ffi::AnyBuffer>()  // handle
);

XLA_FFI_DEFINE_HANDLER_SYMBOL(RlpoolXlaRecv, Recv,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()  // handle
                                  .Ret<ffi::AnyBuffer>()  // handle
                                  .RemainingRets()        // the batch's fields, in layout order
);
XLA_FFI_DEFINE_HANDLER_SYMBOL(RlpoolXlaStep, Step,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()  // handle
                                  .Arg<ffi::AnyBuffer>()  // action
                                  .Arg<ffi::AnyBuffer>()  // env_id
                                  .Ret<ffi::AnyBuffer>()  // handle
                                  .RemainingRets()        // the batch's fields, in layout order
);
#pragma GCC visibility pop
