"""tmu: bit-exact reference models of matrix engines, from Python.

The models are C++ (the extension module tmu._tmu); this package names their entry points.
tmu.engine(name, variant) reaches any engine of the registry the way the `tmu` command does
(words, programs, vector files, the scoreboard). Submodules: tmu.formats (number formats and bit patterns), tmu.tensix (the Tensix Matrix Unit
through tt-llk's LLK sequences), tmu.pto (PTO elementwise tile operations), tmu.amx (Apple AMX
matfp). Arrays may be numpy arrays of any layout and byte order, numpy scalars, CPU torch tensors
or anything with __array__ or __dlpack__. A refusal of a model raises a tmu.Error subclass carrying
the model's reason; a wrong argument raises TypeError or ValueError naming the function and the
argument. See docs/python.md.

>>> import tmu
>>> [e["name"] for e in tmu.engines()]
['tensix', 'amx', 'pto']
"""

from __future__ import annotations

from typing import Any, Optional, Union

from . import _tmu
from ._api import checked
from ._tmu import (
    BadInput,
    DecodeError,
    Error,
    NonContractualBehaviour,
    UndefinedBehaviour,
    Unsupported,
)

__version__: str = _tmu.__version__


@checked("tmu.engines", _tmu.engines)
def engines() -> list[dict[str, Any]]:
    return _tmu.engines()


@checked("tmu.disassemble", _tmu.disassemble)
def disassemble(word: Union[int, str], engine: str = "tensix", variant: Optional[str] = None) -> str:
    return _tmu.disassemble(word, engine, variant)


@checked("tmu.assemble", _tmu.assemble)
def assemble(line: str, engine: str = "tensix", variant: Optional[str] = None) -> int:
    return _tmu.assemble(line, engine, variant)


from ._engine import Engine, EngineScoreboard, VectorSet, engine  # noqa: E402
from . import amx, formats, pto, tensix  # noqa: E402 - the submodules use the names above

__all__ = [
    "Error", "DecodeError", "UndefinedBehaviour", "NonContractualBehaviour", "Unsupported", "BadInput",
    "engines", "engine", "Engine", "EngineScoreboard", "VectorSet", "disassemble", "assemble", "formats", "pto", "amx", "tensix", "__version__",
]
