"""The Tensix Matrix Unit's results for whole matrices, bit-exact, through tt-llk's LLK sequences.

  matmul(a, b, fidelity="HiFi4", src_format="BF16", dst="FP32", variant="blackhole",
         conversion=None, perturb=None, input="values", bits=False, snapshots=False, threads=None,
         route="auto")
  eltwise_binary(op, a, b, ...)          op: "ELWMUL", "ELWADD" or "ELWSUB" (a - b); b of shape
                                         (1, N), (M, 1) or (1, 1) broadcasts a row, column or scalar
  unpacker_conversion(fp32_bits, src_format)   the unpacker's FP32 -> BF16/TF32 patterns
  reduce(a, pool="sum", dim="col", scaler=None, ..., argmax=False)   tt-llk's reduce LLK
  pack(data, out_format, dst="FP32", ...)      the packer's Dst -> L1 bytes (docs/l1-formats.md)
  unpack(l1_bytes, in_format, ...)             the unpackers' L1 bytes -> Src/Dst values or datums

The sequences are the precision audit's (refmodel/engines/tensix/include/tmu/tensix/llk/sequence.h): tt-llk's
llk_math_matmul.h replay per 32x32 tile pair with the K tiles accumulating in Dst, and
llk_math_eltwise_binary.h's ELWMUL and ELWADD/ELWSUB MOPs with the SrcB broadcasts, run on the
bit-exact model. Values must be exactly numbers of the source format (no subnormals, infinities or
NaNs on the Matrix Unit) unless conversion="rne" (round to nearest even) or "unpacker" (FP32 data
truncated as the unpacker converts it, UNPACR_Regular.md) is named; input="bits" takes the format's
patterns (uint16 BF16/FP16, uint32 TF32, or uint32 FP32 with "unpacker"; a torch.bfloat16 tensor
gives its patterns); perturb names one of the audit's deliberate mistakes (skipN, repeatN, negateN,
swap) so a wrong golden can be shown. Operands may be numpy arrays or CPU torch tensors. variant
(blackhole, wormhole) was arch= before; that keyword still works, with a DeprecationWarning. threads
(None: $TMU_THREADS, else the number of cores) shares the output tiles among threads; every tile
runs its own sequence, so the bits do not depend on it. matmul's route ("auto", "instructions",
"tiles") chooses how its tiles are computed: "tiles" runs the sequence's MVMULs straight on the block
kernel, "instructions" issues them on the model; both give the same bits, and "auto" takes "tiles"
unless perturb or snapshots need the instructions.

>>> import numpy as np, tmu
>>> a = np.full((32, 32), 2.0); b = np.full((32, 32), 1.0078125)
>>> float(tmu.tensix.matmul(a, b)[0, 0]), float(tmu.tensix.matmul(a, b, fidelity="LoFi")[0, 0])
(64.5, 64.0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Union, cast, overload

import numpy as np
import numpy.typing as npt

from . import _tmu
from ._api import ArrayLike, checked, renamed_variant

_impl = _tmu.tensix

# The values as float64, or with bits=True / snapshots=True (reduce: argmax=True) a dict of arrays;
# the overloads tell a type checker which, from the flags.
Values = npt.NDArray[np.float64]
Result = Union[Values, dict[str, Any]]


@overload
def matmul(a: ArrayLike, b: ArrayLike, *, fidelity: str = ..., src_format: str = ..., dst: str = ..., variant: Optional[str] = ...,
           conversion: Optional[str] = ..., perturb: Optional[str] = ..., input: str = ...,
           bits: Literal[False] = ..., snapshots: Literal[False] = ..., arch: Optional[str] = ..., threads: Optional[int] = ...,
           in_format: Optional[str] = ..., out_format: Optional[str] = ..., route: str = ...) -> Values: ...
@overload
def matmul(a: ArrayLike, b: ArrayLike, *, fidelity: str = ..., src_format: str = ..., dst: str = ..., variant: Optional[str] = ...,
           conversion: Optional[str] = ..., perturb: Optional[str] = ..., input: str = ...,
           bits: bool = ..., snapshots: bool = ..., arch: Optional[str] = ..., threads: Optional[int] = ...,
           in_format: Optional[str] = ..., out_format: Optional[str] = ..., route: str = ...) -> Result: ...


@checked("tmu.tensix.matmul", _impl.matmul)
def matmul(a: ArrayLike, b: ArrayLike, *, fidelity: str = "HiFi4", src_format: str = "BF16", dst: str = "FP32",
           variant: Optional[str] = None, conversion: Optional[str] = None, perturb: Optional[str] = None,
           input: str = "values", bits: bool = False, snapshots: bool = False,  # noqa: A002
           arch: Optional[str] = None, threads: Optional[int] = None, in_format: Optional[str] = None,
           out_format: Optional[str] = None, route: str = "auto") -> Result:
    where = "tmu.tensix.matmul"
    variant = renamed_variant(where, variant, "arch", arch)
    a, b = _operands_through_l1(where, (a, b), in_format, input, conversion, src_format, variant)
    return _result_through_l1(
        lambda as_dict: _impl.matmul(a, b, fidelity=fidelity, src_format=src_format, dst=dst, variant=variant,
                                     conversion=conversion, perturb=perturb, input=input, bits=as_dict,
                                     snapshots=snapshots, threads=threads, route=route),
        out_format, variant, bits, snapshots)


def _through_l1_input(x: ArrayLike, in_format: str, src_format: str, variant: Optional[str]) -> Values:
    """An operand as an unpacker reads it into Src after a packer wrote it to L1 in in_format from FP32 Dst
    values (the pair's default conversion, docs/l1-formats.md)."""
    values = np.asarray(x, dtype=np.float64)
    l1 = pack(values.ravel(), in_format, dst="FP32", variant=variant)
    fmt = in_format.upper()
    out = unpack(l1, in_format, out_format=src_format if fmt == "FP32" else None, variant=variant,
                 fp8_e4m3=fmt == "FP8")
    return _as_values(out.reshape(values.shape))


def _operands_through_l1(where: str, operands: tuple[ArrayLike, ...], in_format: Optional[str], input: str,  # noqa: A002
                         conversion: Optional[str], src_format: str, variant: Optional[str]) -> tuple[ArrayLike, ...]:
    """The operands as the unpackers read them from L1 in in_format (unchanged when it is None)."""
    if in_format is None:
        return operands
    if input != "values" or conversion is not None:
        raise ValueError(f"{where}: in_format: takes FP32 values (input='values', conversion=None)")
    return tuple(_through_l1_input(x, in_format, src_format, variant) for x in operands)


def _result_through_l1(run: Callable[[bool], Any], out_format: Optional[str], variant: Optional[str], as_dict: bool,
                       snapshots: bool) -> Result:
    """run(as_dict)'s result, or with out_format that result packed to L1 and read back (_through_l1)."""
    if out_format is None:
        return cast(Result, run(as_dict))
    return _through_l1(run(True), out_format, variant, as_dict or snapshots)


def _as_values(v: npt.NDArray[Any]) -> Values:
    return v.astype(np.float64, copy=False)


def _through_l1(r: dict[str, Any], out_format: str, variant: Optional[str], as_dict: bool) -> Result:
    """Dst's result packed to out_format (the packer's default conversion for the pair), and the numbers
    L1 then holds, read back as the Matrix Unit would (FP32 through unpack-to-Dst, the rest through Src)."""
    dst_bits = r["bits"]
    l1 = pack(dst_bits.ravel(), out_format, dst=r["bits_format"], variant=variant)
    wide = out_format.upper() in ("FP32", "INT32")
    values = unpack(l1, out_format, to="dst" if wide else "src", variant=variant,
                    fp8_e4m3=out_format.upper() == "FP8").reshape(dst_bits.shape)
    if not as_dict:
        return values
    out = dict(r)
    out["dst_values"] = r["values"]
    out["values"] = values
    out["l1"] = l1
    return out


_L1_DOC = (
    "\n\nout_format (Python side): the result as L1 holds it after a packer writes Dst in that L1 format\n"
    "(tmu.tensix.pack with its default conversion for the pair, docs/l1-formats.md), read back as numbers;\n"
    "with bits=True or snapshots=True the dict's 'values' are those, 'dst_values' Dst's, and 'l1' the bytes\n"
    "(the result in row-major order, BFP blocks along rows). in_format (Python side): each operand\n"
    "(FP32 values) as a packer writes it to L1 in that format and an unpacker reads it back into Src\n"
    "(FP32 data in src_format; BFP8/BFP4/BFP2 into BF16-style Src, FP16/FP8 into FP16-style).")
matmul.__doc__ = (matmul.__doc__ or "") + _L1_DOC


@overload
def eltwise_binary(op: str, a: ArrayLike, b: ArrayLike, *, fidelity: str = ..., src_format: str = ..., dst: str = ..., variant: Optional[str] = ...,
           conversion: Optional[str] = ..., perturb: Optional[str] = ..., input: str = ...,
                   bits: Literal[False] = ..., snapshots: Literal[False] = ..., arch: Optional[str] = ..., threads: Optional[int] = ...,
                   in_format: Optional[str] = ..., out_format: Optional[str] = ...) -> Values: ...
@overload
def eltwise_binary(op: str, a: ArrayLike, b: ArrayLike, *, fidelity: str = ..., src_format: str = ..., dst: str = ..., variant: Optional[str] = ...,
           conversion: Optional[str] = ..., perturb: Optional[str] = ..., input: str = ...,
                   bits: bool = ..., snapshots: bool = ..., arch: Optional[str] = ..., threads: Optional[int] = ...,
                   in_format: Optional[str] = ..., out_format: Optional[str] = ...) -> Result: ...


@checked("tmu.tensix.eltwise_binary", _impl.eltwise_binary)
def eltwise_binary(op: str, a: ArrayLike, b: ArrayLike, *, fidelity: str = "HiFi4", src_format: str = "BF16",
                   dst: str = "FP32", variant: Optional[str] = None, conversion: Optional[str] = None,
                   perturb: Optional[str] = None, input: str = "values", bits: bool = False,  # noqa: A002
                   snapshots: bool = False, arch: Optional[str] = None, threads: Optional[int] = None,
                   in_format: Optional[str] = None, out_format: Optional[str] = None) -> Result:
    where = "tmu.tensix.eltwise_binary"
    variant = renamed_variant(where, variant, "arch", arch)
    a, b = _operands_through_l1(where, (a, b), in_format, input, conversion, src_format, variant)
    return _result_through_l1(
        lambda as_dict: _impl.eltwise_binary(op, a, b, fidelity=fidelity, src_format=src_format, dst=dst, variant=variant,
                                             conversion=conversion, perturb=perturb, input=input, bits=as_dict,
                                             snapshots=snapshots, threads=threads),
        out_format, variant, bits, snapshots)


@overload
def reduce(a: ArrayLike, pool: str = ..., dim: str = ..., *, scaler: Optional[float] = ..., fidelity: str = ..., src_format: str = ...,
           dst: str = ..., variant: Optional[str] = ..., conversion: Optional[str] = ..., input: str = ...,
           bits: Literal[False] = ..., snapshots: Literal[False] = ..., argmax: Literal[False] = ..., arch: Optional[str] = ..., threads: Optional[int] = ...,
           in_format: Optional[str] = ..., out_format: Optional[str] = ...) -> Values: ...
@overload
def reduce(a: ArrayLike, pool: str = ..., dim: str = ..., *, scaler: Optional[float] = ..., fidelity: str = ..., src_format: str = ...,
           dst: str = ..., variant: Optional[str] = ..., conversion: Optional[str] = ..., input: str = ...,
           bits: bool = ..., snapshots: bool = ..., argmax: bool = ..., arch: Optional[str] = ..., threads: Optional[int] = ...,
           in_format: Optional[str] = ..., out_format: Optional[str] = ...) -> Result: ...


@checked("tmu.tensix.reduce", _impl.reduce)
def reduce(a: ArrayLike, pool: str = "sum", dim: str = "col", *, scaler: Optional[float] = None, fidelity: str = "HiFi4",
           src_format: str = "BF16", dst: str = "FP32", variant: Optional[str] = None, conversion: Optional[str] = None,
           input: str = "values", bits: bool = False, snapshots: bool = False,  # noqa: A002
           argmax: bool = False, arch: Optional[str] = None, threads: Optional[int] = None,
           in_format: Optional[str] = None, out_format: Optional[str] = None) -> Result:
    where = "tmu.tensix.reduce"
    variant = renamed_variant(where, variant, "arch", arch)
    (a,) = _operands_through_l1(where, (a,), in_format, input, conversion, src_format, variant)
    return _result_through_l1(
        lambda as_dict: _impl.reduce(a, pool, dim, scaler=scaler, fidelity=fidelity, src_format=src_format, dst=dst,
                                     variant=variant, conversion=conversion, input=input, bits=as_dict,
                                     snapshots=snapshots, argmax=argmax, threads=threads),
        out_format, variant, bits or argmax, snapshots)


eltwise_binary.__doc__ = (eltwise_binary.__doc__ or "") + _L1_DOC
reduce.__doc__ = (reduce.__doc__ or "") + _L1_DOC


@checked("tmu.tensix.unpacker_conversion", _impl.unpacker_conversion)
def unpacker_conversion(bits: ArrayLike, src_format: str) -> npt.NDArray[Any]:
    return _impl.unpacker_conversion(bits, src_format)


@checked("tmu.tensix.pack", _impl.pack)
def pack(data: ArrayLike, out_format: str, *, dst: str = "FP32", intermediate: Optional[str] = None,
         variant: Optional[str] = None, l1: Optional[ArrayLike] = None, exp_threshold: Optional[int] = None,
         stochastic_rounding: bool = False) -> npt.NDArray[np.uint8]:
    return _impl.pack(data, out_format, dst=dst, intermediate=intermediate, variant=variant, l1=l1,
                      exp_threshold=exp_threshold, stochastic_rounding=stochastic_rounding)


@checked("tmu.tensix.unpack", _impl.unpack)
def unpack(l1_bytes: ArrayLike, in_format: str, *, out_format: Optional[str] = None, to: str = "src",
           variant: Optional[str] = None, fp8_e4m3: bool = False, bits: bool = False) -> npt.NDArray[Any]:
    return _impl.unpack(l1_bytes, in_format, out_format=out_format, to=to, variant=variant, fp8_e4m3=fp8_e4m3,
                        bits=bits)


@checked("tmu.tensix.fidelities", _impl.fidelities)
def fidelities() -> tuple[str, ...]:
    return _impl.fidelities()


if TYPE_CHECKING:
    class Machine:
        """One Tensix coprocessor's architectural state (the extension's tmu.tensix.Machine)."""

        def __init__(self, variant: Optional[str] = None, *, arch: Optional[str] = None) -> None: ...
        @property
        def variant(self) -> str: ...
        @property
        def arch(self) -> str: ...
        def reset(self) -> None: ...
        def copy(self) -> Machine: ...
        def step(self, word: int, *, thread: int = 0, rotated: bool = False) -> dict[str, Any]: ...
        def run(self, program: Union[str, ArrayLike, list[int]], *, thread: Optional[int] = None,
                rotated: bool = False) -> dict[str, Any]: ...
        def state(self, parts: Optional[list[str]] = None) -> dict[str, Any]: ...
        @property
        def srca(self) -> npt.NDArray[np.uint32]: ...
        @property
        def srcb(self) -> npt.NDArray[np.uint32]: ...
        @property
        def dst16(self) -> npt.NDArray[np.uint16]: ...
        @property
        def dst_valid(self) -> npt.NDArray[np.bool_]: ...
        @property
        def dst32(self) -> npt.NDArray[np.uint32]: ...
        @property
        def gprs(self) -> npt.NDArray[np.uint32]: ...
        @property
        def rwcs(self) -> npt.NDArray[Any]: ...
        def set_srca(self, bank: int, rows: ArrayLike, row: int = 0) -> None: ...
        def set_srcb(self, bank: int, rows: ArrayLike, row: int = 0) -> None: ...
        def set_dst16(self, rows: ArrayLike, row: int = 0) -> None: ...
        def set_dst32(self, rows: ArrayLike, row: int = 0) -> None: ...
        def set_gprs(self, values: ArrayLike, *, thread: int = 0, index: int = 0) -> None: ...
        def field(self, name: str, *, thread: int = 0, state: Optional[int] = None, slot: Optional[int] = None) -> int: ...
        def set_field(self, name: str, value: int, *, thread: int = 0, state: Optional[int] = None,
                      slot: Optional[int] = None) -> None: ...
        @staticmethod
        def fields() -> dict[str, list[str]]: ...
        def set_bank(self, operand: str, bank: int, *, owner: Optional[str] = None, format: Optional[str] = None) -> None: ...
        def set_unpacker(self, unpacker: int, bank: int) -> None: ...
        def disassemble(self, word: Union[int, str]) -> str: ...
        def assemble(self, line: str) -> int: ...
else:
    Machine = _impl.Machine  # the raw machine: state as numpy views, run()/step() on instruction words

__all__ = ["matmul", "eltwise_binary", "reduce", "fidelities", "unpacker_conversion", "pack", "unpack", "Machine"]
