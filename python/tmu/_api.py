"""What every public function of tmu shares: its signature checked the same way.

The extension module (tmu._tmu) does the work and checks array arguments and values; the public
functions are Python functions with real signatures (inspect.signature, IDEs and mypy read them),
wrapped by `checked`, which refuses a misspelt keyword with a suggestion and an argument of the wrong
type with the function's and the argument's names, so that no caller ever sees pybind11's list of
overloads. An allocation failure becomes a MemoryError naming the function.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import numbers
import operator
import types
import typing
from typing import Any, Callable, Optional, TypeVar, Union

import numpy as np
import numpy.typing as npt

from . import _tmu

# Anything tmu takes as an array: a numpy array of any byte order and layout, a numpy scalar, a CPU
# torch tensor, or any object with __array__ or __dlpack__ (docs/python.md, "What an array may be").
ArrayLike = Union[npt.ArrayLike, Any]

F = TypeVar("F", bound=Callable[..., Any])

_Check = Callable[[str, str, Any], Any]


def _fail(where: str, name: str, expected: str, value: Any) -> typing.NoReturn:
    raise TypeError(f"{where}: {name}: expected {expected}, got {type(value).__name__}")


def _check_str(where: str, name: str, value: Any) -> Any:
    if not isinstance(value, str):
        _fail(where, name, "a str", value)
    return str(value)


def _check_bool(where: str, name: str, value: Any) -> Any:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    _fail(where, name, "True or False", value)


def _check_int(where: str, name: str, value: Any) -> Any:
    if isinstance(value, (bool, np.bool_)):
        _fail(where, name, "an int", value)
    try:
        return operator.index(value)
    except TypeError:
        _fail(where, name, "an int", value)


def _check_float(where: str, name: str, value: Any) -> Any:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        _fail(where, name, "a real number", value)
    return float(value)


_SIMPLE: dict[Any, tuple[_Check, str]] = {
    str: (_check_str, "a str"),
    bool: (_check_bool, "True or False"),
    int: (_check_int, "an int"),
    float: (_check_float, "a real number"),
}


def _checker(annotation: Any) -> Optional[_Check]:
    """The check of one annotated parameter: str, bool, int or float, or a union of them and None.
    Other annotations (arrays, sequences) are the extension's to check."""
    if annotation in _SIMPLE:
        return _SIMPLE[annotation][0]
    if typing.get_origin(annotation) not in (Union, types.UnionType):
        return None
    members = typing.get_args(annotation)
    allow_none = type(None) in members
    simple = [m for m in members if m is not type(None)]
    if not simple or any(m not in _SIMPLE for m in simple):
        return None
    # str before the numbers, so that a str is never offered to int's check.
    simple.sort(key=lambda m: m is not str)
    text = " or ".join([_SIMPLE[m][1] for m in simple] + (["None"] if allow_none else []))

    def union(where: str, name: str, value: Any) -> Any:
        if value is None and allow_none:
            return None
        for m in simple:
            try:
                return _SIMPLE[m][0](where, name, value)
            except TypeError:
                pass
        _fail(where, name, text, value)

    return union


def renamed_variant(where: str, variant: Optional[str], old_name: str, old: Optional[str]) -> Optional[str]:
    """The variant a `checked` function was given, as `variant=` or as its engine's older keyword
    (a DeprecationWarning pointing at the caller), or None; TypeError when both were given."""
    # The caller is 4 frames up: this function, the public function's body, checked's wrapper.
    return typing.cast(Optional[str], _tmu.renamed_variant(where, variant, old_name, old, 4))


def checked(where: str, impl: Any = None) -> Callable[[F], F]:
    """Wraps a public function so that its arguments are checked against its signature first.

    `impl`, the extension's function the wrapper calls, lends it its docstring: the text is written
    once, beside the C++ that does the work.
    """

    def wrap(fn: F) -> F:
        signature = inspect.signature(fn)
        hints = typing.get_type_hints(fn)
        checks = {name: c for name in signature.parameters if (c := _checker(hints.get(name))) is not None}
        names = list(signature.parameters)

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            for key in kwargs:
                if key not in signature.parameters:
                    near = difflib.get_close_matches(key, names, n=1)
                    hint = f" (did you mean '{near[0]}'?)" if near else f" (it takes {', '.join(names)})"
                    raise TypeError(f"{where}: unexpected keyword argument '{key}'{hint}")
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as e:
                raise TypeError(f"{where}: {e}") from None
            for name, check in checks.items():
                if name in bound.arguments:
                    bound.arguments[name] = check(where, name, bound.arguments[name])
            try:
                return fn(*bound.args, **bound.kwargs)
            except MemoryError as e:
                text = str(e)
                if text.startswith(where):
                    raise
                raise MemoryError(f"{where}: out of memory ({text or 'an allocation failed'})") from None

        if impl is not None and impl.__doc__:
            call.__doc__ = impl.__doc__
        return typing.cast(F, call)

    return wrap
