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

from . import _tmu

_impl = _tmu.formats
from_float = _impl.from_float
to_float = _impl.to_float
round = _impl.round  # noqa: A001 - the numpy-style name of the operation
info = _impl.info
names = _impl.names
to_bfp = _impl.to_bfp
from_bfp = _impl.from_bfp
bfp_to_src = _impl.bfp_to_src

__all__ = ["from_float", "to_float", "round", "info", "names", "to_bfp", "from_bfp", "bfp_to_src"]
