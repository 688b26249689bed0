"""tensix"""

from . import _tmu

_impl = _tmu.tensix
