# The extension module's types as the public modules (tmu/*.py) use them. Its functions are reached
# only through those modules, which carry the full signatures; here they are Any.
from typing import Any

__version__: str

class Error(Exception):
    kind: str | None

class DecodeError(Error): ...
class UndefinedBehaviour(Error): ...
class NonContractualBehaviour(Error): ...
class Unsupported(Error): ...
class BadInput(Error): ...

engines: Any
disassemble: Any
assemble: Any
renamed_variant: Any
Engine: Any
EngineScoreboard: Any
formats: Any
pto: Any
amx: Any
tensix: Any
