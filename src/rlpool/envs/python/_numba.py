"""numba pieces the compiled wrappers of Python-written envs use (imported only when numba is installed).

- ``Rng``: the numba type of the ``rng`` argument, a view of the env's engine
  ``Rng`` (src/rlpool/_core/env/rng.h) through the C functions numba_env.cc passes,
  with numpy-Generator-like methods ``random``, ``uniform``, ``normal``,
  ``integers`` and ``bits``.
- ``guarded_call``: calls a jitted function and, if it raises, hands the
  exception's text to the C++ env instead of letting it escape compiled code.
- ``store_step_result`` / ``check_reset_result`` / ``check_render_result``:
  type-check what the user's functions return, with messages that say what
  was expected.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic, models, overload, overload_method, register_model

# Order of the function pointers in numba_env.cc's kRngFunctions.
_NEXT, _UNIFORM, _NORMAL, _INTEGER = range(4)


class RngType(types.Type):
    """An env's random number generator: its engine ``Rng*`` and the table of C functions over it."""

    def __init__(self) -> None:
        super().__init__(name="rlpool.Rng")


rng_type = RngType()


@register_model(RngType)
class _RngModel(models.StructModel):
    def __init__(self, dmm: Any, fe_type: Any) -> None:
        super().__init__(dmm, fe_type, [("rng", types.voidptr), ("api", types.voidptr)])


@intrinsic
def make_rng(typingctx: Any, rng: Any, api: Any) -> Any:
    """``Rng`` value from the env's ``Rng*`` and the function table (both ``void*``)."""
    if rng != types.voidptr or api != types.voidptr:
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        value = cgutils.create_struct_proxy(rng_type)(context, builder)
        value.rng, value.api = args
        return value._getvalue()

    return rng_type(types.voidptr, types.voidptr), codegen


def _rng_function(builder: Any, api: Any, index: int, fnty: ir.FunctionType) -> Any:
    table = builder.bitcast(api, cgutils.voidptr_t.as_pointer())
    pointer = builder.load(builder.gep(table, [ir.Constant(ir.IntType(32), index)]))
    return builder.bitcast(pointer, fnty.as_pointer())


def _call_rng(builder: Any, context: Any, args: Any, index: int, fnty: ir.FunctionType) -> Any:
    value = cgutils.create_struct_proxy(rng_type)(context, builder, value=args[0])
    return builder.call(_rng_function(builder, value.api, index, fnty), [value.rng, *args[1:]])


_F64_FN = ir.FunctionType(ir.DoubleType(), [cgutils.voidptr_t])
_U64_FN = ir.FunctionType(ir.IntType(64), [cgutils.voidptr_t])
_U64_N_FN = ir.FunctionType(ir.IntType(64), [cgutils.voidptr_t, ir.IntType(64)])


@intrinsic
def _rng_next(typingctx: Any, rng: Any) -> Any:
    if isinstance(rng, RngType):
        return types.uint64(rng), lambda context, builder, sig, args: _call_rng(builder, context, args, _NEXT, _U64_FN)
    return None


@intrinsic
def _rng_uniform(typingctx: Any, rng: Any) -> Any:
    if isinstance(rng, RngType):
        return types.float64(rng), lambda context, builder, sig, args: _call_rng(
            builder, context, args, _UNIFORM, _F64_FN
        )
    return None


@intrinsic
def _rng_normal(typingctx: Any, rng: Any) -> Any:
    if isinstance(rng, RngType):
        return types.float64(rng), lambda context, builder, sig, args: _call_rng(
            builder, context, args, _NORMAL, _F64_FN
        )
    return None


@intrinsic
def _rng_integer(typingctx: Any, rng: Any, n: Any) -> Any:
    """Uniform integer in [0, n) for n > 0 (n = 0 is undefined in rng.h, so callers check)."""
    if isinstance(rng, RngType) and n == types.uint64:
        return types.uint64(rng, n), lambda context, builder, sig, args: _call_rng(
            builder, context, args, _INTEGER, _U64_N_FN
        )
    return None


@overload_method(RngType, "bits")
def _bits(rng: Any) -> Any:
    def impl(rng: Any) -> Any:
        return _rng_next(rng)

    return impl


@overload_method(RngType, "random")
def _random(rng: Any) -> Any:
    def impl(rng: Any) -> Any:
        return _rng_uniform(rng)

    return impl


@overload_method(RngType, "uniform")
def _uniform(rng: Any, low: Any = 0.0, high: Any = 1.0) -> Any:
    def impl(rng: Any, low: Any = 0.0, high: Any = 1.0) -> Any:
        # The engine's formula (rng.h), so draws match C++ envs bit for bit.
        return low + (high - low) * _rng_uniform(rng)

    return impl


@overload_method(RngType, "normal")
def _normal(rng: Any, loc: Any = 0.0, scale: Any = 1.0) -> Any:
    def impl(rng: Any, loc: Any = 0.0, scale: Any = 1.0) -> Any:
        return loc + scale * _rng_normal(rng)

    return impl


def _is_none(t: Any) -> bool:
    return t is None or isinstance(t, (types.NoneType, types.Omitted))


@overload_method(RngType, "integers")
def _integers(rng: Any, low: Any, high: Any = None) -> Any:
    if _is_none(high):

        def impl_n(rng: Any, low: Any, high: Any = None) -> Any:
            if low <= 0:
                raise ValueError("rng.integers(n) needs n > 0")
            return np.int64(_rng_integer(rng, np.uint64(low)))

        return impl_n

    def impl(rng: Any, low: Any, high: Any = None) -> Any:
        if high <= low:
            raise ValueError("rng.integers(low, high) needs high > low")
        return np.int64(low) + np.int64(_rng_integer(rng, np.uint64(np.int64(high) - np.int64(low))))

    return impl


@intrinsic
def guarded_call(typingctx: Any, fn: Any, error_fn: Any, error_ctx: Any, args: Any) -> Any:
    """Call the jitted ``fn(*args)``; return 1, or 0 if it raised, after ``error_fn(error_ctx)`` took its text.

    On an exception the GIL is taken, the exception is raised as a Python
    exception and ``error_fn`` (numba_env.cc's capture_python_error) moves its
    text to the C++ env and clears it; nothing escapes compiled code.
    """
    if not isinstance(fn, types.Dispatcher) or not isinstance(args, types.BaseTuple):
        return None
    _, _, folded, _ = fn.dispatcher.get_call_template(tuple(args.types), {})
    cres = fn.dispatcher.overloads[tuple(folded)]

    def codegen(context: Any, builder: Any, sig: Any, llargs: Any) -> Any:
        context.add_linking_libs([cres.library])
        values = [builder.extract_value(llargs[3], i) for i in range(len(args.types))]
        status, _ = context.call_internal_no_propagate(builder, cres.fndesc, cres.signature, values)
        ok = cgutils.alloca_once_value(builder, ir.Constant(ir.IntType(32), 1))
        with builder.if_then(status.is_error, likely=False):
            pyapi = context.get_python_api(builder)
            gil = pyapi.gil_ensure()
            context.call_conv.raise_error(builder, pyapi, status)
            capture = builder.bitcast(llargs[1], ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t]).as_pointer())
            builder.call(capture, [llargs[2]])
            pyapi.gil_release(gil)
            builder.store(ir.Constant(ir.IntType(32), 0), ok)
        return builder.load(ok)

    return types.int32(fn, error_fn, error_ctx, args), codegen


def _is_flag(t: Any) -> bool:
    return isinstance(t, (types.Boolean, types.Integer))


def store_step_result(result: Any, reward: Any, terminated: Any) -> None:
    """Write step's ``(reward, terminated)`` into the env's reward and terminated slots (compiled only)."""
    raise NotImplementedError("store_step_result runs in compiled code only")


@overload(store_step_result)
def _store_step_result(result: Any, reward: Any, terminated: Any) -> Any:
    ok = (
        isinstance(result, types.BaseTuple)
        and len(result) == 2
        and isinstance(result[0], (types.Float, types.Integer, types.Boolean))
        and _is_flag(result[1])
    )
    if not ok:
        raise TypingError(f"step() must return (reward, terminated): a number and a bool; it returns {result}")

    def impl(result: Any, reward: Any, terminated: Any) -> None:
        reward[0] = np.float64(result[0])
        terminated[0] = bool(result[1])

    return impl


def check_reset_result(result: Any) -> None:
    """Nothing at run time; at compile time, reset() must return None (compiled only)."""
    raise NotImplementedError("check_reset_result runs in compiled code only")


@overload(check_reset_result)
def _check_reset_result(result: Any) -> Any:
    if not isinstance(result, (types.NoneType, types.Omitted)) and result is not None:
        raise TypingError(f"reset() must return nothing (it writes obs); it returns {result}")

    def impl(result: Any) -> None:
        return None

    return impl


def check_render_result(result: Any) -> None:
    """Nothing at run time; at compile time, render() must return None (compiled only)."""
    raise NotImplementedError("check_render_result runs in compiled code only")


@overload(check_render_result)
def _check_render_result(result: Any) -> Any:
    if not isinstance(result, (types.NoneType, types.Omitted)) and result is not None:
        raise TypingError(f"render() must return nothing (it writes frame); it returns {result}")

    def impl(result: Any) -> None:
        return None

    return impl
