// What the binding files share: the argument checks every entry point makes before it touches data,
// and the registration function of each submodule. The model never includes pybind11; these files
// convert numpy arrays to the model's types, call it, and convert back (docs/python.md).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "arrays.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tmu::python {

namespace py = pybind11;

// Each submodule's definitions (one file per engine, plus the number formats).
void bind_errors(py::module_& m);
void bind_formats(py::module_& m);
void bind_formats_bfp(py::module_& m);  // the BFP block formats (formats_bfp.cpp), in tmu.formats
void bind_pto(py::module_& m);
void bind_amx(py::module_& m);
void bind_tensix(py::module_& m);
void bind_tensix_reduce(py::module_& m);  // tmu.tensix.reduce (tensix_reduce.cpp)
void bind_tensix_l1(py::module_& m);  // tmu.tensix.pack and unpack (tensix_l1.cpp)
void bind_tensix_machine(py::module_& m);  // tmu.tensix.Machine (tensix_machine.cpp)
void bind_engine(py::module_& m);  // tmu.Engine and tmu.EngineScoreboard over the registry (engine.cpp)

// TypeError / ValueError naming the argument: "tmu.formats.to_float: bits: expected ...".
[[noreturn]] void type_error(std::string_view where, std::string_view arg, std::string_view what);
[[noreturn]] void value_error(std::string_view where, std::string_view arg, std::string_view what);

// An instruction word as `tmu dis` takes it: an int of at most 64 bits as 0x hex, or the hex text
// given (TypeError or ValueError naming `word` otherwise).
std::string word_text(std::string_view where, py::handle word);
// The word an engine's assembler printed (hex) as an int.
py::int_ word_value(const std::string& hex);

// The numpy dtype name of an array ("uint16", "float64").
std::string dtype_name(const py::array& a);

// An array's shape as a vector.
std::vector<py::ssize_t> shape_of(const py::array& a);

// The index of flat element i of an array of `shape` as numpy prints it: "(1, 3)" or "(5,)".
std::string index_text(const std::vector<py::ssize_t>& shape, py::ssize_t i);

}  // namespace tmu::python
namespace tmu { class Engine; }
namespace tmu::python {

// The engine `name` of the registry (ValueError naming the argument otherwise), and its canonical
// variant (None: the default; ValueError with the model's reason otherwise).
const Engine& engine_arg(std::string_view where, const std::string& name, std::string_view arg = "engine");
std::string variant_arg(std::string_view where, const Engine& e, const py::object& variant);
// One keyword, variant=, for every engine: the value of `variant`, or of the engine's older keyword
// `old_name` (with a DeprecationWarning naming variant=, `stacklevel` frames up); TypeError when both
// are given. None when neither is.
py::object renamed_variant(std::string_view where, const py::object& variant, std::string_view old_name,
                           const py::object& old, int stacklevel);

// Rounding mode names shared by the conversions: "rne" (round to nearest, ties to even) and
// "truncate" (toward zero, the hardware's truncating conversions).
enum class Rounding { NearestEven, Truncate };
Rounding parse_rounding(std::string_view where, std::string_view arg, std::string_view name);

}  // namespace tmu::python
