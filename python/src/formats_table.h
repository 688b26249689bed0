// tmu.formats' table of number formats, shared with the engine bindings that take values in them.
#pragma once

#include <string_view>

#include "bindings.h"
#include "tmu/ieee.h"

namespace tmu::python {

struct NumberFormat {
  const char* name;    // "bf16": the name the Python calls take
  ieee::Format ieee;   // the IEEE format of a float (unused for integers)
  unsigned width;      // bits of the numpy dtype the patterns travel in: 8, 16 or 32
  unsigned shift;      // the pattern's position in that dtype (TF32: 13, binary32's frame)
  bool is_int;         // two's complement integer of `width` bits
  const char* summary;
};

// The format named by `name` (a str), or TypeError/ValueError naming `arg` and the formats there are.
const NumberFormat& number_format(std::string_view where, std::string_view arg, const py::object& name);
// rounding: "exact", "rne" or "truncate" (formats.cpp documents them).
py::array from_float(const NumberFormat& f, py::handle values, const std::string& rounding, const char* where);
py::array_t<double> to_float(const NumberFormat& f, py::handle bits, const char* where);

}  // namespace tmu::python
