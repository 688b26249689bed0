"""Exact conversions between numbers and the bit patterns of number formats.

Formats (tmu.formats.names()): 'fp32', 'bf16', 'fp16', 'tf32' (in binary32's frame, bits 12:0
zero), 'fp8_e5m2', and the integers 'int8', 'int16', 'int32'. Floats are IEEE-style (subnormals,
infinities, NaNs), computed by the models' integer IEEE code (refmodel/common/include/tmu/ieee.h);
bit patterns travel as uint8/uint16/uint32 arrays (integers as int8/16/32).

  from_float(values, fmt, rounding="exact")  -> bit patterns
  to_float(bits, fmt)                         -> float64, exact
  round(values, fmt, rounding="rne")          -> float64 values of the format
  info(fmt), names()

The Tensix block floating-point formats 'bfp8', 'bfp4', 'bfp2' (one 8-bit exponent per 16 datums,
unpacking to BF16) and 'bfp8a', 'bfp4a', 'bfp2a' (5-bit exponent, unpacking to FP16):

  to_bfp(values, fmt, rounding="exact")       -> (exponents, mantissas), uint8
  from_bfp(exponents, mantissas, fmt)         -> float64, exact
  bfp_to_src(exponents, mantissas, fmt)       -> the BF16/FP16 patterns the unpacker writes

rounding: 'exact' refuses a value the format does not hold (ValueError naming the first offending
index), 'rne' rounds to nearest with ties to even, 'truncate' rounds toward zero.

>>> import numpy as np, tmu
>>> hex(int(tmu.formats.from_float(np.array([1.5]), "bf16")[0]))
'0x3fc0'
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import _tmu
from ._api import ArrayLike, checked

_impl = _tmu.formats


@checked("tmu.formats.names", _impl.names)
def names() -> list[str]:
    return _impl.names()


@checked("tmu.formats.info", _impl.info)
def info(fmt: str) -> dict[str, Any]:
    return _impl.info(fmt)


@checked("tmu.formats.from_float", _impl.from_float)
def from_float(values: ArrayLike, fmt: str, rounding: str = "exact") -> npt.NDArray[Any]:
    return _impl.from_float(values, fmt, rounding)


@checked("tmu.formats.to_float", _impl.to_float)
def to_float(bits: ArrayLike, fmt: str) -> npt.NDArray[np.float64]:
    return _impl.to_float(bits, fmt)


@checked("tmu.formats.round", _impl.round)
def round(values: ArrayLike, fmt: str, rounding: str = "rne") -> npt.NDArray[np.float64]:  # noqa: A001 - numpy's name
    return _impl.round(values, fmt, rounding)


@checked("tmu.formats.to_bfp", _impl.to_bfp)
def to_bfp(values: ArrayLike, fmt: str, rounding: str = "exact") -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    return _impl.to_bfp(values, fmt, rounding)


@checked("tmu.formats.from_bfp", _impl.from_bfp)
def from_bfp(exponents: ArrayLike, mantissas: ArrayLike, fmt: str) -> npt.NDArray[np.float64]:
    return _impl.from_bfp(exponents, mantissas, fmt)


@checked("tmu.formats.bfp_to_src", _impl.bfp_to_src)
def bfp_to_src(exponents: ArrayLike, mantissas: ArrayLike, fmt: str) -> npt.NDArray[np.uint16]:
    return _impl.bfp_to_src(exponents, mantissas, fmt)


__all__ = ["from_float", "to_float", "round", "info", "names", "to_bfp", "from_bfp", "bfp_to_src"]
