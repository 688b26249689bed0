"""amx"""

from . import _tmu

_impl = _tmu.amx
