"""formats"""

from . import _tmu

_impl = _tmu.formats
