"""PTO elementwise tile operations (the PTO engine, refmodel/engines/pto/) on numpy arrays.

A tile is a 2-D array indexed [row, col]; its element type comes from the dtype (float32 f32,
float16 f16, int8..uint64) or is named with a Tile (bf16 travels as uint16 bit patterns, f8e4m3 and
f8e5m2 as uint8 bit patterns, and any type may travel as the unsigned integer of its width; a
torch.bfloat16 tensor is a bf16 tile). Tile also carries the layout ('row_major', 'col_major': the
order of the model's storage, which some operations' rules read) and the valid region (rows, cols)
the operation iterates over.

  execute(op, dst, srcs, variant="cpusim", cmp=None, round=None, saturation=None) -> new dst array
      variant (the profile): 'cpusim', 'a2a3' or 'a5'; a5's float lanes rest on
      A5_FLOAT_ASSUMPTION (keyword a5_ieee=False: refused instead). It was profile= before; that
      keyword still works, with a DeprecationWarning.
  a2a3_cycles(op, dst, srcs, cmp=None, round=None) -> {'cycles': N, 'steps': [(call, repeats, cycles)]}

TCMP writes one predicate bit per lane, 8 lanes to a u8 element (lane 8k + b in bit b of element k
of the row), as the engine packs them; TSEL reads its mask the same way. A refusal of the model
(an undefined shift, a type the profile has no implementation of) raises a tmu.Error subclass.

>>> import numpy as np, tmu
>>> a = np.full((1, 8), 1.5, np.float32); b = np.full((1, 8), 2.25, np.float32)
>>> float(tmu.pto.execute("TADD", np.zeros((1, 8), np.float32), [a, b])[0, 0])
3.75
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy.typing as npt

from . import _tmu
from ._api import ArrayLike, checked, renamed_variant

_impl = _tmu.pto
A5_FLOAT_ASSUMPTION: str = _impl.A5_FLOAT_ASSUMPTION


class Tile:
    """A tile argument: data (2-D array [row, col]), type (None: from the dtype), layout, valid."""

    __slots__ = ("data", "type", "layout", "valid")

    def __init__(self, data: ArrayLike, type: Optional[str] = None,  # noqa: A002 - PTO's word
                 layout: str = "row_major", valid: Optional[tuple[int, int]] = None) -> None:
        self.data = data
        self.type = type
        self.layout = layout
        self.valid = valid

    def __repr__(self) -> str:
        shape = getattr(self.data, "shape", None)
        return f"Tile(shape={shape}, type={self.type!r}, layout={self.layout!r}, valid={self.valid!r})"


TileArg = Union[Tile, ArrayLike]


@checked("tmu.pto.execute", _impl.execute)
def execute(op: str, dst: TileArg, srcs: Sequence[TileArg], variant: Optional[str] = None, cmp: Optional[str] = None,
            round: Optional[str] = None, saturation: Optional[str] = None, *,  # noqa: A002 - TCVT's word
            a5_ieee: bool = True, profile: Optional[str] = None) -> npt.NDArray[Any]:
    variant = renamed_variant("tmu.pto.execute", variant, "profile", profile)
    return _impl.execute(op, dst, srcs, variant, cmp, round, saturation, a5_ieee=a5_ieee)


@checked("tmu.pto.a2a3_cycles", _impl.a2a3_cycles)
def a2a3_cycles(op: str, dst: TileArg, srcs: Sequence[TileArg], cmp: Optional[str] = None,
                round: Optional[str] = None) -> dict[str, Any]:  # noqa: A002
    return _impl.a2a3_cycles(op, dst, srcs, cmp, round)


@checked("tmu.pto.types", _impl.types)
def types() -> list[str]:
    return _impl.types()


__all__ = ["execute", "a2a3_cycles", "types", "Tile", "A5_FLOAT_ASSUMPTION"]
