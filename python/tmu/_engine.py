"""tmu.engine(name, variant): every engine of the registry through one interface (tmu/engine.h).

The work is the extension's (python/src/engine.cpp), which asks the registry and never names an
engine; these classes give its methods real, checked signatures.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _tmu
from ._api import ArrayLike, checked

_impl = _tmu.Engine
_scoreboard_impl = _tmu.EngineScoreboard

# An engine's own options of a subcommand by name: a flag True/False, a value a str or an int, a list
# a comma-separated str or a list (tmu vectors --family mvmul,elwmul is {"family": ["mvmul", "elwmul"]}).
Options = Optional[Mapping[str, Any]]
Path = Union[str, os.PathLike[str]]


class VectorSet(dict[str, str]):
    """The files of Engine.vectors, {relative path: text}, as `tmu vectors` writes them.

    seed: the seed the random vectors were drawn from (pass it back as seed= to replay the run), None
    when none were drawn; manifest: the text of the MANIFEST `tmu vectors` writes beside them.
    """

    seed: Optional[int]
    manifest: str

    def __init__(self, files: dict[str, str], seed: Optional[int], manifest: str) -> None:
        super().__init__(files)
        self.seed = seed
        self.manifest = manifest


class EngineScoreboard:
    """An engine's generic scoreboard (docs/scoreboard.md): locations, declarations and operations
    are the engine's text; data travels as uint32 words, lane 0 in the low bits of word 0."""

    __slots__ = ("_sb",)

    def __init__(self, impl: Any) -> None:
        self._sb = impl

    @checked("tmu.EngineScoreboard.declare", _scoreboard_impl.declare)
    def declare(self, text: str) -> None:
        self._sb.declare(text)

    @checked("tmu.EngineScoreboard.load", _scoreboard_impl.load)
    def load(self, location: str, words: ArrayLike) -> None:
        self._sb.load(location, words)

    @checked("tmu.EngineScoreboard.execute", _scoreboard_impl.execute)
    def execute(self, op: str) -> None:
        self._sb.execute(op)

    @checked("tmu.EngineScoreboard.compare", _scoreboard_impl.compare)
    def compare(self, location: str, words: ArrayLike) -> list[str]:
        return self._sb.compare(location, words)

    @checked("tmu.EngineScoreboard.read", _scoreboard_impl.read)
    def read(self, location: str) -> npt.NDArray[np.uint32]:
        return self._sb.read(location)

    @checked("tmu.EngineScoreboard.summary", _scoreboard_impl.summary)
    def summary(self) -> str:
        return self._sb.summary()

    def __repr__(self) -> str:
        return repr(self._sb)


class Engine:
    """One engine of tmu's registry at one variant: tmu.engine(name, variant)."""

    __slots__ = ("_e",)

    def __init__(self, impl: Any) -> None:
        self._e = impl

    @property
    def name(self) -> str:
        return str(self._e.name)

    @property
    def summary(self) -> str:
        return str(self._e.summary)

    @property
    def variant(self) -> str:
        """The variant, canonical (the engine's default when none was named)."""
        return str(self._e.variant)

    @property
    def variants(self) -> list[str]:
        """The engine's variants, its default first."""
        return list(self._e.variants)

    @checked("tmu.Engine.disassemble", _impl.disassemble)
    def disassemble(self, word: Union[int, str], options: Options = None) -> str:
        return self._e.disassemble(word, options)

    @checked("tmu.Engine.assemble", _impl.assemble)
    def assemble(self, line: str, options: Options = None) -> int:
        return self._e.assemble(line, options)

    @checked("tmu.Engine.isa", _impl.isa)
    def isa(self) -> list[str]:
        return self._e.isa()

    @checked("tmu.Engine.run", _impl.run)
    def run(self, program: str, show: Union[str, Sequence[str], None] = None, values: Optional[str] = None) -> dict[str, Any]:
        return self._e.run(program, show, values)

    @checked("tmu.Engine.vectors", _impl.vectors)
    def vectors(self, level: Optional[int] = None, random: Optional[int] = None, seed: Optional[int] = None,
                options: Options = None, out: Optional[Path] = None) -> VectorSet:
        files, drawn, manifest = self._e.vectors(level, random, seed, options, out)
        if drawn is not None:
            # As `tmu vectors` prints it: a run drawn from the clock can be replayed only from this line.
            print(f"tmu.Engine.vectors: seed {drawn} (replay with seed={drawn})", file=sys.stderr)
        return VectorSet(files, drawn, manifest)

    @checked("tmu.Engine.check", _impl.check)
    def check(self, source: Path, *, max_differences: int = 16, poison: Optional[int] = None) -> dict[str, Any]:
        return self._e.check(source, max_differences, poison)

    @checked("tmu.Engine.scoreboard", _impl.scoreboard)
    def scoreboard(self) -> EngineScoreboard:
        return EngineScoreboard(self._e.scoreboard())

    def __repr__(self) -> str:
        return repr(self._e)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Engine) and (self.name, self.variant) == (other.name, other.variant)

    def __hash__(self) -> int:
        return hash((self.name, self.variant))


@checked("tmu.engine")
def engine(name: str, variant: Optional[str] = None) -> Engine:
    """One engine of tmu's registry (tmu.engines() lists them) at a variant (None: its default, the
    first of Engine.variants), for words, programs, vector files and the scoreboard.

    >>> e = tmu.engine("amx", "m2")
    >>> e.name, e.variant, e.variants
    ('amx', 'M2', ['M1', 'M2', 'M3', 'M4'])
    """
    return Engine(_impl(name, variant))


__all__ = ["engine", "Engine", "EngineScoreboard", "VectorSet"]
