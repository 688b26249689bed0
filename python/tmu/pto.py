"""pto"""

from . import _tmu

_impl = _tmu.pto
