// The one place where Python objects become arrays the models read, and where result arrays are
// made. Every binding takes its array arguments through these functions, so every entry point
// accepts the same kinds of input (numpy arrays of either byte order, any strides, read-only or
// zero-stride; numpy scalars and 0-d arrays; anything with __array__ or __dlpack__; CPU torch
// tensors, bfloat16 ones included) and refuses the same things with the same words. Copies are made
// by numpy, so a failed copy is a MemoryError naming the call, never a null array.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace tmu::python {

namespace py = pybind11;

// What a torch.bfloat16 tensor becomes: its values (as float32, exact) or its bit patterns (uint16).
enum class Bf16As { Values, Bits };

struct InputArray {
  py::array array;    // native byte order, any strides
  bool bf16 = false;   // came from a torch.bfloat16 tensor (array holds its uint16 patterns)
  bool torch = false;  // came from a torch tensor
};

// `obj` as a numpy array in the host's byte order (no copy where it already is one). Python lists,
// tuples and numbers are taken only with `sequences`; anything else that is not array-like is a
// TypeError naming `where` and `arg` and saying what was `expected` ("a numpy array of dtype uint16").
InputArray input_array(py::handle obj, std::string_view where, std::string_view arg, Bf16As bf16, bool sequences,
                       std::string_view expected = "a numpy array");

// `a` C-contiguous and aligned, copied only when it is not (MemoryError naming the call on failure).
py::array c_contiguous(const py::array& a, std::string_view where, std::string_view arg);

// Whether two dtypes describe the same data (numpy's equivalence; not object identity, which a
// converted array's dtype does not share with the cached native one).
bool same_dtype(const py::dtype& a, const py::dtype& b);

// The numpy name of T's dtype ("uint16").
template <typename T>
std::string dtype_text() {
  return py::str(py::dtype::of<T>()).cast<std::string>();
}

// `obj` as a C-contiguous array of exactly dtype T, refusing (TypeError naming `arg`) any other
// dtype rather than converting it: bit patterns must arrive as the unsigned type of their width, so
// that a float array passed by mistake is never read as bits. Byte order and layout are converted.
// torch has no uint16 or uint32, so a torch tensor of the signed integer of T's width is taken as
// the patterns it holds.
template <typename T>
py::array_t<T, py::array::c_style> exact_dtype(py::handle obj, std::string_view where, std::string_view arg);

// A float64 array from any real numeric input (ints and floats convert exactly where float64 holds
// the value; an int64/uint64 beyond 2^53 is refused). Refuses complex, object, bool and non-numbers
// with TypeError naming `arg`.
py::array_t<double, py::array::c_style> as_float64(py::handle obj, std::string_view where, std::string_view arg);

// An array dimension as the model's 32-bit count, refusing (ValueError naming `arg`) one above `max`.
unsigned dimension(py::ssize_t n, uint64_t max, std::string_view where, std::string_view arg);

// A non-negative integer (anything with __index__ but bool: int, numpy integers) at most `max`;
// TypeError or ValueError naming `arg` and the range.
uint64_t uint_arg(py::handle h, std::string_view where, std::string_view arg, uint64_t max);

// A str, or TypeError naming `arg`.
std::string str_arg(py::handle h, std::string_view where, std::string_view arg);
// True or False (a numpy bool too), or TypeError naming `arg`: an int is not taken for a bool.
bool bool_arg(py::handle h, std::string_view where, std::string_view arg);

// The name of an object's type, for messages ("list", "Tensor").
std::string type_name(py::handle h);

}  // namespace tmu::python
