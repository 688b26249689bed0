// The parts of the submodule tmu.tensix, one file each; bind_engine_tensix (tensix.cpp) creates the
// submodule and calls them.
#pragma once

#include "bindings.h"

namespace tmu::python {

void bind_tensix(py::module_& m);          // matmul, eltwise_binary (tensix.cpp)
void bind_tensix_reduce(py::module_& m);   // tmu.tensix.reduce (tensix_reduce.cpp)
void bind_tensix_l1(py::module_& m);       // tmu.tensix.pack and unpack (tensix_l1.cpp)
void bind_tensix_machine(py::module_& m);  // tmu.tensix.Machine (tensix_machine.cpp)

}  // namespace tmu::python
