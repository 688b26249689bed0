#include "bindings.h"

namespace tmu::python {

void bind_amx(py::module_&) {}

}  // namespace tmu::python
