"""Apple AMX matfp (the AMX engine, refmodel/engines/amx/) from Python.

  State(version="M1")  .x .y (uint8 (8, 64) views)  .z (uint8 (64, 64) view)  .matfp(operand)
  matfp_operand(x_offset=0, y_offset=0, z_row=0, lane_width="f32", alu="add",
                x_enable=(0, 0), y_enable=(0, 0), x_shuffle=0, y_shuffle=0) -> int
  decode_matfp(operand) -> dict of fields

The views share the model's bytes: s.z.view(np.float32) is Z's f32 lanes, s.x.view(np.float16)
X's f16 lanes (bf16 lanes: s.x.view(np.uint16), with tmu.formats for their values).

>>> import numpy as np, tmu
>>> s = tmu.amx.State()
>>> s.x.view(np.float32)[0, :] = 2.0; s.y.view(np.float32)[0, :] = 3.0
>>> rows = s.matfp(tmu.amx.matfp_operand(lane_width="f32"))
>>> float(s.z.view(np.float32)[0, 0])
6.0
"""

from . import _tmu

_impl = _tmu.amx
State = _impl.State
matfp_operand = _impl.matfp_operand
decode_matfp = _impl.decode_matfp

__all__ = ["State", "matfp_operand", "decode_matfp"]
