#include "bindings.h"

namespace tmu::python {

void bind_formats(py::module_&) {}

}  // namespace tmu::python
