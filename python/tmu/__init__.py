"""tmu: bit-exact reference models of matrix engines, from Python.

The models are C++ (the extension module tmu._tmu); this package names their entry points.
Submodules: tmu.formats (number formats and bit patterns), tmu.tensix (the Tensix Matrix Unit
through tt-llk's LLK sequences), tmu.pto (PTO elementwise tile operations), tmu.amx (Apple AMX
matfp). A refusal of a model raises a tmu.Error subclass carrying the model's reason; a wrong
argument raises TypeError or ValueError naming it. See docs/python.md.

>>> import tmu
>>> [e["name"] for e in tmu.engines()]
['tensix', 'amx', 'pto']
"""

from . import _tmu
from ._tmu import (
    BadInput,
    DecodeError,
    Error,
    NonContractualBehaviour,
    UndefinedBehaviour,
    Unsupported,
    assemble,
    disassemble,
    engines,
)
from . import formats, pto, amx, tensix

__version__ = _tmu.__version__
__all__ = [
    "Error", "DecodeError", "UndefinedBehaviour", "NonContractualBehaviour", "Unsupported", "BadInput",
    "engines", "disassemble", "assemble", "formats", "pto", "amx", "tensix",
]
