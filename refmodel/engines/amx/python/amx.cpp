// tmu.amx: Apple AMX state and matfp (refmodel/engines/amx). State.x, .y and .z are writable numpy
// views of the model's bytes (x, y: 8 registers of 64 bytes; z: 64 rows of 64 bytes), so
// s.z.view(np.float32) reads Z's f32 lanes without a copy; matfp(operand) executes one instruction
// on them. Operands are built from named fields by matfp_operand (encode_matfp) and taken apart by
// decode_matfp.
#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <string>

#include "bindings.h"
#include "tmu/amx/matfp.h"
#include "tmu/amx/state.h"

namespace tmu::python {

namespace {

struct PyState {
  amx::State state;
  amx::Version version = amx::Version::M1;
};

amx::Version version_arg(std::string_view where, const std::string& name) {
  const char* names[] = {"M1", "M2", "M3", "M4"};
  for (unsigned i = 0; i < 4; ++i) {
    if (name == names[i] || (name.size() == 2 && (name[0] == 'm') && name[1] == names[i][1])) return static_cast<amx::Version>(i);
  }
  value_error(where, "variant", fmt::format("unknown AMX version '{}' (expected M1, M2, M3 or M4)", name));
}

// A writable view of `bytes` bytes at `data`, shaped (rows, 64), kept alive by `owner`.
py::array view(uint8_t* data, py::ssize_t rows, py::handle owner) {
  return py::array(py::dtype::of<uint8_t>(), std::vector<py::ssize_t>{rows, 64}, std::vector<py::ssize_t>{64, 1}, data, owner);
}

// Copies any numeric array of exactly `bytes` bytes into `dest` (its bytes, as numpy lays them out
// in C order in the host's byte order: float32 lanes are their bit patterns).
void assign(uint8_t* dest, size_t bytes, py::handle value, const char* arg) {
  const char* where = "tmu.amx.State";
  const py::array a = input_array(value, where, arg, Bf16As::Bits, false).array;
  const char k = a.dtype().kind();
  if (k != 'f' && k != 'i' && k != 'u') type_error(where, arg, "expected a numeric array, got dtype " + dtype_name(a));
  if (static_cast<size_t>(a.nbytes()) != bytes) {
    value_error(where, arg, fmt::format("expected {} bytes (e.g. {} float32 lanes), got {} bytes", bytes, bytes / 4, a.nbytes()));
  }
  const py::array c = c_contiguous(a, where, arg);
  std::memcpy(dest, c.data(), bytes);
}

// The lane-width code of a name. The bf16 names exist from M2 on, where codes 0 and 1 mean them;
// on M1 the same codes are f16, so naming bf16 without a generation that has it is refused rather
// than encoded into an operand an M1 state would read as f16.
unsigned lane_width_code(const std::string& name, const py::object& version) {
  const char* where = "tmu.amx.matfp_operand";
  if (name == "f16") return 2;
  if (name == "f32") return 4;
  if (name == "f64") return 7;
  if (name == "f16f32") return 3;
  if (name == "bf16" || name == "bf16f32") {
    if (version.is_none()) {
      value_error(where, "lane_width", fmt::format("'{}' exists from M2 on and its code means f16 on M1: pass variant='M2', "
                                                   "'M3' or 'M4' to say which generation the operand is for", name));
    }
    if (version_arg(where, str_arg(version, where, "variant")) == amx::Version::M1) {
      value_error(where, "lane_width", fmt::format("'{}' does not exist on M1 (codes 0 and 1 are f16 there); bf16 lanes "
                                                   "exist from M2 on", name));
    }
    return name == "bf16" ? 0 : 1;
  }
  value_error(where, "lane_width",
              fmt::format("unknown lane width '{}' (expected f16, f32, f64, f16f32, bf16 or bf16f32)", name));
}

unsigned alu_code(const std::string& name) {
  if (name == "add" || name == "z+=x*y") return amx::kAluAdd;
  if (name == "sub" || name == "z-=x*y") return amx::kAluSub;
  if (name == "select" || name == "z=x<=0?0:y") return amx::kAluSelect;
  value_error("tmu.amx.matfp_operand", "alu", fmt::format("unknown ALU mode '{}' (expected add, sub or select)", name));
}

std::pair<unsigned, unsigned> enable_arg(const py::object& v, const char* arg) {
  const char* where = "tmu.amx.matfp_operand";
  if (!py::isinstance<py::tuple>(v) && !py::isinstance<py::list>(v)) {
    type_error(where, arg, "expected (mode, value), e.g. (0, 0) for all lanes, got " + type_name(v));
  }
  const auto seq = py::reinterpret_borrow<py::sequence>(v);
  if (seq.size() != 2) type_error(where, arg, fmt::format("expected (mode, value), e.g. (0, 0) for all lanes, got {} items", seq.size()));
  const std::string a(arg);
  return {static_cast<unsigned>(uint_arg(seq[0], where, a + "[0]", UINT32_MAX)),
          static_cast<unsigned>(uint_arg(seq[1], where, a + "[1]", UINT32_MAX))};
}

uint64_t operand_arg(const py::handle& op, const char* where) {
  return uint_arg(op, where, "operand", UINT64_MAX);
}

}  // namespace

void bind_engine_amx(py::module_& parent) {
  auto m = parent.def_submodule("amx", "Apple AMX matfp.");
  py::options signatures;  // the class's methods are the extension's own: show their signatures
  signatures.enable_function_signatures();
  py::class_<PyState>(m, "State",
                      "AMX architectural state (X, Y, Z all zero) of one generation (variant 'M1'..'M4').\n"
                      "x, y: uint8 views shaped (8, 64), one row per register (the 512-byte pools);\n"
                      "z: uint8 view shaped (64, 64). Assign any numeric array of the same byte count\n"
                      "(its bytes are copied), or write through a view: s.x.view(np.float32)[0] = ...\n\n"
                      ">>> s = tmu.amx.State()\n"
                      ">>> s.x.view(np.float32)[0] = 2.0; s.y.view(np.float32)[0] = 3.0\n"
                      ">>> s.matfp(tmu.amx.matfp_operand(lane_width='f32'))\n"
                      "(0, 4, 8, ..., 60)\n"
                      ">>> s.z.view(np.float32)[0, 0]\n6.0")
      .def(py::init([](const py::object& variant, const py::object& version) {
             const char* where = "tmu.amx.State";
             const py::object v = renamed_variant(where, variant, "version", version, 1);
             auto s = std::make_unique<PyState>();
             s->version = version_arg(where, v.is_none() ? "M1" : str_arg(v, where, "variant"));
             return s;
           }),
           py::arg("variant") = py::none(), py::kw_only(), py::arg("version") = py::none())
      .def_property_readonly("variant", [](const PyState& s) { return std::string(amx::version_name(s.version)); })
      .def_property_readonly("version", [](const PyState& s) { return std::string(amx::version_name(s.version)); })
      .def_property(
          "x", [](py::object self) { return view(self.cast<PyState&>().state.x.data(), 8, self); },
          [](PyState& s, py::handle v) { assign(s.state.x.data(), amx::kPoolBytes, v, "x"); })
      .def_property(
          "y", [](py::object self) { return view(self.cast<PyState&>().state.y.data(), 8, self); },
          [](PyState& s, py::handle v) { assign(s.state.y.data(), amx::kPoolBytes, v, "y"); })
      .def_property(
          "z", [](py::object self) { return view(self.cast<PyState&>().state.z[0].data(), 64, self); },
          [](PyState& s, py::handle v) { assign(s.state.z[0].data(), amx::kZRows * amx::kRowBytes, v, "z"); })
      .def(
          "matfp",
          [](PyState& s, py::handle operand) {
            const uint64_t op = operand_arg(operand, "tmu.amx.State.matfp");
            amx::WriteSet w;
            {
              py::gil_scoped_release release;
              w = amx::execute_matfp(s.state, op, s.version);
            }
            py::list rows;
            for (unsigned r = 0; r < amx::kZRows; ++r) {
              if (w.has_row(r)) rows.append(r);
            }
            return py::tuple(rows);
          },
          py::arg("operand"),
          "Executes matfp with the 64-bit operand; returns the Z rows it wrote, in order.");
  signatures.disable_function_signatures();
  m.def(
      "matfp_operand",
      [](py::handle x_offset, py::handle y_offset, py::handle z_row, const std::string& lane_width, const std::string& alu,
         const py::object& x_enable, const py::object& y_enable, py::handle x_shuffle, py::handle y_shuffle,
         const py::object& version) {
        const char* where = "tmu.amx.matfp_operand";
        auto field = [&](py::handle h, const char* name) { return static_cast<unsigned>(uint_arg(h, where, name, UINT32_MAX)); };
        amx::MatfpOperand op;
        op.x_offset = field(x_offset, "x_offset"), op.y_offset = field(y_offset, "y_offset"), op.z_row = field(z_row, "z_row");
        op.lane_width = lane_width_code(lane_width, version);
        op.alu_mode = alu_code(alu);
        std::tie(op.x_enable_mode, op.x_enable_value) = enable_arg(x_enable, "x_enable");
        std::tie(op.y_enable_mode, op.y_enable_value) = enable_arg(y_enable, "y_enable");
        op.x_shuffle = field(x_shuffle, "x_shuffle"), op.y_shuffle = field(y_shuffle, "y_shuffle");
        return amx::encode_matfp(op);  // tmu.BadInput naming a field that does not fit its bits
      },
      py::kw_only(), py::arg("x_offset"), py::arg("y_offset"), py::arg("z_row"), py::arg("lane_width"),
      py::arg("alu"), py::arg("x_enable"), py::arg("y_enable"),
      py::arg("x_shuffle"), py::arg("y_shuffle"), py::arg("variant"),
      "The 64-bit matfp operand from named fields (corsix/amx matfp.md): byte offsets into the X and Y\n"
      "pools, the Z row, the lane width (f16 f32 f64 f16f32 bf16 bf16f32), the ALU ('add': z+=x*y,\n"
      "'sub': z-=x*y, 'select': z = x<=0 ? 0 : y), the enables as (mode, value) and the shuffles.\n\n"
      ">>> hex(tmu.amx.matfp_operand(x_offset=0x40, y_offset=0x80, lane_width='f32'))\n'0x100000010080'");
  m.def(
      "decode_matfp",
      [](py::handle operand) {
        const amx::MatfpOperand op = amx::decode_matfp(operand_arg(operand, "tmu.amx.decode_matfp"));
        py::dict d;
        d["x_offset"] = op.x_offset, d["y_offset"] = op.y_offset, d["z_row"] = op.z_row;
        d["lane_width"] = op.lane_width, d["alu_mode"] = op.alu_mode, d["indexed"] = op.indexed;
        d["x_enable"] = py::make_tuple(op.x_enable_mode, op.x_enable_value);
        d["y_enable"] = py::make_tuple(op.y_enable_mode, op.y_enable_value);
        d["x_shuffle"] = op.x_shuffle, d["y_shuffle"] = op.y_shuffle, d["must_be_zero"] = op.must_be_zero;
        d["ignored"] = op.ignored;
        return d;
      },
      py::arg("operand"), "Every field of a matfp operand, by its name in tmu/amx/matfp.h (lane_width as the code).");
}

}  // namespace tmu::python
