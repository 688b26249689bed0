"""The Tensix Matrix Unit's results for whole matrices, bit-exact, through tt-llk's LLK sequences.

  matmul(a, b, fidelity="HiFi4", src_format="BF16", dst="FP32", arch="blackhole",
         conversion=None, perturb=None, bits=False, snapshots=False)
  eltwise_binary(op, a, b, ...)          op: "ELWMUL", "ELWADD" or "ELWSUB" (a - b); b of shape
                                         (1, N), (M, 1) or (1, 1) broadcasts a row, column or scalar
  unpacker_conversion(fp32_bits, src_format)   the unpacker's FP32 -> BF16/TF32 patterns
  reduce(a, pool="sum", dim="col", scaler=None, ..., argmax=False)   tt-llk's reduce LLK

The sequences are the precision audit's (refmodel/audit/include/tmu/audit/sequence.h): tt-llk's
llk_math_matmul.h replay per 32x32 tile pair with the K tiles accumulating in Dst, and
llk_math_eltwise_binary.h's ELWMUL and ELWADD/ELWSUB MOPs with the SrcB broadcasts, run on the
bit-exact model. Values must be exactly numbers of the source format (no subnormals, infinities or
NaNs on the Matrix Unit) unless conversion="rne" (round to nearest even) or "unpacker" (FP32 data
truncated as the unpacker converts it, UNPACR_Regular.md) is named; input="bits" takes the format's
patterns (uint16 BF16/FP16, uint32 TF32, or uint32 FP32 with "unpacker"); perturb names one of the audit's deliberate mistakes (skipN, repeatN,
negateN, swap) so a wrong golden can be shown.

>>> import numpy as np, tmu
>>> a = np.full((32, 32), 2.0); b = np.full((32, 32), 1.0078125)
>>> float(tmu.tensix.matmul(a, b)[0, 0]), float(tmu.tensix.matmul(a, b, fidelity="LoFi")[0, 0])
(64.5, 64.0)
"""

from . import _tmu

_impl = _tmu.tensix
matmul = _impl.matmul
eltwise_binary = _impl.eltwise_binary
reduce = _impl.reduce  # GAPOOL / GMPOOL through tt-llk's reduce LLK
fidelities = _impl.fidelities
unpacker_conversion = _impl.unpacker_conversion
Machine = _impl.Machine  # the raw machine: state as numpy views, run()/step() on instruction words

__all__ = ["matmul", "eltwise_binary", "reduce", "fidelities", "unpacker_conversion", "Machine"]
