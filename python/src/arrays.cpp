// The bindings' array conversions (arrays.h). numpy does every conversion and copy through its own
// Python API, so its errors (MemoryError above all) surface as Python exceptions; pybind11's
// array_t::ensure is not used because it swallows the error of a failed copy and returns null.
#include "arrays.h"

#include <fmt/format.h>

#include <string>
#include <type_traits>

#include "bindings.h"

namespace tmu::python {

namespace {

py::module_ numpy() { return py::module_::import("numpy"); }

// Re-raises a MemoryError from numpy as one naming the call and the argument; anything else as it is.
template <typename F>
auto naming_memory_errors(std::string_view where, std::string_view arg, const F& f) {
  try {
    return f();
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_MemoryError)) throw;
    const std::string what = py::str(e.value()).cast<std::string>();
    PyErr_SetString(PyExc_MemoryError, fmt::format("{}: {}: cannot allocate a copy ({})", where, arg, what).c_str());
    throw py::error_already_set();
  }
}

// torch, if the program has imported it (a tensor cannot exist otherwise; importing torch here
// would cost a second on every first call).
py::object torch_module() {
  const py::dict modules = py::module_::import("sys").attr("modules");
  if (!modules.contains("torch")) return py::none();
  return modules["torch"];
}

// A CPU tensor as numpy (sharing its memory where numpy can); bfloat16, which numpy lacks, as its
// values in float32 or its patterns in uint16.
InputArray from_tensor(py::handle t, const py::object& torch, std::string_view where, std::string_view arg, Bf16As bf16) {
  const std::string device = py::str(t.attr("device").attr("type")).cast<std::string>();
  if (device != "cpu") {
    type_error(where, arg, fmt::format("a torch tensor on device '{}': move it to the CPU first (.cpu())", device));
  }
  py::object plain = t.attr("detach")().attr("resolve_conj")().attr("resolve_neg")();
  if (plain.attr("dtype").is(torch.attr("bfloat16"))) {
    if (bf16 == Bf16As::Values) return {py::array(plain.attr("float")().attr("numpy")()), false, true};
    py::array patterns = plain.attr("view")(torch.attr("int16")).attr("numpy")();
    return {py::array(patterns.attr("view")(numpy().attr("uint16"))), true, true};
  }
  try {
    return {py::array(plain.attr("numpy")()), false, true};
  } catch (py::error_already_set& e) {
    if (e.matches(PyExc_MemoryError)) throw;
    type_error(where, arg, fmt::format("a torch tensor of dtype {} has no numpy equivalent ({})",
                                       py::str(plain.attr("dtype")).cast<std::string>(), py::str(e.value()).cast<std::string>()));
  }
}

}  // namespace

bool same_dtype(const py::dtype& a, const py::dtype& b) {
  return py::detail::npy_api::get().PyArray_EquivTypes_(a.ptr(), b.ptr());
}

std::string type_name(py::handle h) { return py::str(py::type::of(h).attr("__name__")).cast<std::string>(); }

InputArray input_array(py::handle obj, std::string_view where, std::string_view arg, Bf16As bf16, bool sequences,
                       std::string_view expected) {
  InputArray in;
  const py::module_ np = numpy();
  if (py::isinstance<py::array>(obj)) {
    in.array = py::reinterpret_borrow<py::array>(obj);
  } else if (const py::object torch = torch_module(); !torch.is_none() && py::isinstance(obj, torch.attr("Tensor"))) {
    in = from_tensor(obj, torch, where, arg, bf16);
  } else if (py::isinstance(obj, np.attr("generic")) || py::hasattr(obj, "__array__") || PyObject_CheckBuffer(obj.ptr())) {
    in.array = naming_memory_errors(where, arg, [&] { return py::array(np.attr("asarray")(obj)); });
  } else if (py::hasattr(obj, "__dlpack__")) {
    in.array = naming_memory_errors(where, arg, [&] { return py::array(np.attr("from_dlpack")(obj)); });
  } else if (sequences && (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj) || py::isinstance<py::float_>(obj) ||
                           (py::isinstance<py::int_>(obj) && !py::isinstance<py::bool_>(obj)))) {
    try {
      in.array = np.attr("asarray")(obj);
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_MemoryError)) throw;
      type_error(where, arg, fmt::format("expected an array of numbers ({})", py::str(e.value()).cast<std::string>()));
    }
  } else {
    type_error(where, arg, fmt::format("expected {}, got {} (CPU torch tensors and objects with __array__ or __dlpack__ "
                                       "are taken too)", expected, type_name(obj)));
  }
  const py::object dtype = in.array.attr("dtype");
  if (!dtype.attr("isnative").cast<bool>()) {
    in.array = naming_memory_errors(where, arg, [&] {
      return py::array(in.array.attr("astype")(dtype.attr("newbyteorder")("=")));
    });
  }
  return in;
}

py::array c_contiguous(const py::array& a, std::string_view where, std::string_view arg) {
  constexpr int kWanted = py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ | py::detail::npy_api::NPY_ARRAY_ALIGNED_;
  if ((a.flags() & kWanted) == kWanted) return a;
  return naming_memory_errors(where, arg, [&] { return py::array(numpy().attr("require")(a, py::none(), "CA")); });
}

template <typename T>
py::array_t<T, py::array::c_style> exact_dtype(py::handle obj, std::string_view where, std::string_view arg) {
  const InputArray in = input_array(obj, where, arg, Bf16As::Bits, false, "a numpy array of dtype " + dtype_text<T>());
  py::array a = in.array;
  if (in.torch && std::is_unsigned_v<T> && a.dtype().kind() == 'i' && a.dtype().itemsize() == sizeof(T)) {
    a = a.attr("view")(py::dtype::of<T>());
  }
  if (!same_dtype(a.dtype(), py::dtype::of<T>())) {
    type_error(where, arg, fmt::format("expected dtype {}, got {}", dtype_text<T>(), dtype_name(a)));
  }
  return py::reinterpret_borrow<py::array_t<T, py::array::c_style>>(c_contiguous(a, where, arg));
}

template py::array_t<uint8_t, py::array::c_style> exact_dtype<uint8_t>(py::handle, std::string_view, std::string_view);
template py::array_t<uint16_t, py::array::c_style> exact_dtype<uint16_t>(py::handle, std::string_view, std::string_view);
template py::array_t<uint32_t, py::array::c_style> exact_dtype<uint32_t>(py::handle, std::string_view, std::string_view);
template py::array_t<int8_t, py::array::c_style> exact_dtype<int8_t>(py::handle, std::string_view, std::string_view);
template py::array_t<int16_t, py::array::c_style> exact_dtype<int16_t>(py::handle, std::string_view, std::string_view);
template py::array_t<int32_t, py::array::c_style> exact_dtype<int32_t>(py::handle, std::string_view, std::string_view);

py::array_t<double, py::array::c_style> as_float64(py::handle obj, std::string_view where, std::string_view arg) {
  const py::array a = input_array(obj, where, arg, Bf16As::Values, true, "a numpy array of real numbers").array;
  const char kind = a.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u') {
    type_error(where, arg, "expected real numbers (a float or integer dtype), got dtype " + dtype_name(a));
  }
  if (kind == 'f' && a.dtype().itemsize() > 8) {
    type_error(where, arg, "expected float16, float32 or float64, got dtype " + dtype_name(a));
  }
  // float64 holds every integer up to 2^53 exactly; a larger int64/uint64 would be rounded on the way in.
  if ((kind == 'i' || kind == 'u') && a.dtype().itemsize() == 8) {
    constexpr uint64_t kLimit = uint64_t{1} << 53;
    const py::array c = c_contiguous(a, where, arg);
    const auto n = c.size();
    for (py::ssize_t i = 0; i < n; ++i) {
      uint64_t mag;
      if (kind == 'i') {
        const int64_t v = static_cast<const int64_t*>(c.data())[i];
        mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
      } else {
        mag = static_cast<const uint64_t*>(c.data())[i];
      }
      if (mag > kLimit) {
        value_error(where, arg,
                    fmt::format("element {} is beyond 2^53 in magnitude: float64 would round it", index_text(shape_of(c), i)));
      }
    }
  }
  py::array c = a;
  if (!same_dtype(a.dtype(), py::dtype::of<double>())) {
    c = naming_memory_errors(where, arg, [&] { return py::array(a.attr("astype")(numpy().attr("float64"))); });
  }
  return py::reinterpret_borrow<py::array_t<double, py::array::c_style>>(c_contiguous(c, where, arg));
}

unsigned dimension(py::ssize_t n, uint64_t max, std::string_view where, std::string_view arg) {
  if (n < 0 || static_cast<uint64_t>(n) > max) {
    value_error(where, arg, fmt::format("a dimension of {} is beyond what the model takes (at most {})", n, max));
  }
  return static_cast<unsigned>(n);
}

uint64_t uint_arg(py::handle h, std::string_view where, std::string_view arg, uint64_t max) {
  if (py::isinstance<py::bool_>(h)) type_error(where, arg, "expected an int, got bool");
  PyObject* index = PyNumber_Index(h.ptr());
  if (!index) {
    PyErr_Clear();
    type_error(where, arg, "expected an int, got " + type_name(h));
  }
  const auto v = py::reinterpret_steal<py::int_>(index);
  const unsigned long long x = PyLong_AsUnsignedLongLong(v.ptr());
  const bool failed = x == static_cast<unsigned long long>(-1) && PyErr_Occurred();
  if (failed) PyErr_Clear();
  if (failed || x > max) {
    const std::string range = max == UINT64_MAX ? "0..2**64-1, a 64-bit unsigned value" : fmt::format("0..{}", max);
    value_error(where, arg, fmt::format("{} is out of range (expected {})", py::repr(v).cast<std::string>(), range));
  }
  return x;
}

std::string str_arg(py::handle h, std::string_view where, std::string_view arg) {
  if (!py::isinstance<py::str>(h)) type_error(where, arg, "expected a str, got " + type_name(h));
  return h.cast<std::string>();
}

bool bool_arg(py::handle h, std::string_view where, std::string_view arg) {
  if (py::isinstance<py::bool_>(h)) return h.cast<bool>();
  if (py::isinstance(h, numpy().attr("bool_"))) return py::bool_(py::reinterpret_borrow<py::object>(h)).cast<bool>();
  type_error(where, arg, "expected True or False, got " + type_name(h));
}

}  // namespace tmu::python
