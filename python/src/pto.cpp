#include "bindings.h"

namespace tmu::python {

void bind_pto(py::module_&) {}

}  // namespace tmu::python
