#include "bindings.h"

namespace tmu::python {

void bind_tensix(py::module_&) {}

}  // namespace tmu::python
