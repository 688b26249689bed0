"""Apple AMX matfp (the AMX engine, refmodel/engines/amx/) from Python.

  State(variant="M1")  .x .y (uint8 (8, 64) views)  .z (uint8 (64, 64) view)  .matfp(operand)
  matfp_operand(x_offset=0, y_offset=0, z_row=0, lane_width="f32", alu="add",
                x_enable=(0, 0), y_enable=(0, 0), x_shuffle=0, y_shuffle=0, variant=None) -> int
  decode_matfp(operand) -> dict of fields

The views share the model's bytes: s.z.view(np.float32) is Z's f32 lanes, s.x.view(np.float16)
X's f16 lanes (bf16 lanes: s.x.view(np.uint16), with tmu.formats for their values). The bf16 lane
widths exist from M2 on (on M1 their codes mean f16), so matfp_operand takes them only with a
variant='M2'..'M4'. (variant= was version= before; that keyword still works, with a
DeprecationWarning.)

>>> import numpy as np, tmu
>>> s = tmu.amx.State()
>>> s.x.view(np.float32)[0, :] = 2.0; s.y.view(np.float32)[0, :] = 3.0
>>> rows = s.matfp(tmu.amx.matfp_operand(lane_width="f32"))
>>> float(s.z.view(np.float32)[0, 0])
6.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np
import numpy.typing as npt

from . import _tmu
from ._api import ArrayLike, checked, renamed_variant

_impl = _tmu.amx

if TYPE_CHECKING:
    class State:
        """AMX architectural state of one generation (the extension's tmu.amx.State)."""

        def __init__(self, variant: Optional[str] = None, *, version: Optional[str] = None) -> None: ...
        @property
        def variant(self) -> str: ...
        @property
        def version(self) -> str: ...
        @property
        def x(self) -> npt.NDArray[np.uint8]: ...
        @x.setter
        def x(self, value: ArrayLike) -> None: ...
        @property
        def y(self) -> npt.NDArray[np.uint8]: ...
        @y.setter
        def y(self, value: ArrayLike) -> None: ...
        @property
        def z(self) -> npt.NDArray[np.uint8]: ...
        @z.setter
        def z(self, value: ArrayLike) -> None: ...
        def matfp(self, operand: int) -> tuple[int, ...]: ...
else:
    State = _impl.State


@checked("tmu.amx.matfp_operand", _impl.matfp_operand)
def matfp_operand(*, x_offset: int = 0, y_offset: int = 0, z_row: int = 0, lane_width: str = "f32", alu: str = "add",
                  x_enable: tuple[int, int] = (0, 0), y_enable: tuple[int, int] = (0, 0), x_shuffle: int = 0,
                  y_shuffle: int = 0, variant: Optional[str] = None, version: Optional[str] = None) -> int:
    variant = renamed_variant("tmu.amx.matfp_operand", variant, "version", version)
    return _impl.matfp_operand(x_offset=x_offset, y_offset=y_offset, z_row=z_row, lane_width=lane_width, alu=alu,
                               x_enable=x_enable, y_enable=y_enable, x_shuffle=x_shuffle, y_shuffle=y_shuffle,
                               variant=variant)


@checked("tmu.amx.decode_matfp", _impl.decode_matfp)
def decode_matfp(operand: int) -> dict[str, Any]:
    return _impl.decode_matfp(operand)


__all__ = ["State", "matfp_operand", "decode_matfp"]
