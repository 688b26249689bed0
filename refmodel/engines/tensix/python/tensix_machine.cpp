// tmu.tensix.Machine: one Tensix coprocessor's architectural state (refmodel/engines/tensix/include/tmu/tensix/state.h) and
// the instruction words that change it, for DV users who drive the Matrix Unit directly instead of
// through an LLK sequence. The state is read through numpy views of the model's own storage (no copy,
// read-only, kept alive by the Machine they came from) and written through setters that check what
// the model assumes: 19-bit Src datums, Dst rows becoming valid when written, fields within their
// width. run() and step() execute on a copy-on-failure basis: a refusal leaves the state as it was.
#include <fmt/format.h>

#include <cctype>
#include <cstddef>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "tensix_bindings.h"
#include "tmu/tensix/decode.h"
#include "tmu/error.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/program.h"
#include "tmu/tensix/state.h"
#include "tmu/tensix/state_fields.h"
#include "tmu/tensix/state_json.h"

namespace tmu::python {
using namespace tmu::tensix;

namespace {

constexpr const char* kClass = "tmu.tensix.Machine";

struct Machine {
  TensixState state;
};

std::string where(const char* method) { return fmt::format("{}.{}", kClass, method); }

Arch arch_arg(const std::string& w, const std::string& name) {
  if (auto a = parse_arch(name)) return *a;
  value_error(w, "variant", fmt::format("unknown arch '{}' (expected blackhole or wormhole)", name));
}

unsigned thread_arg(py::handle h, const std::string& w) { return static_cast<unsigned>(uint_arg(h, w, "thread", kNumThreads - 1)); }

// The instruction words of `words`: a 1-D uint32 array-like (no other dtype: words are bit patterns)
// or a list/tuple of ints.
std::vector<uint32_t> words_arg(py::handle words, const std::string& w) {
  std::vector<uint32_t> out;
  if (py::hasattr(words, "__array__") || py::hasattr(words, "__dlpack__")) {
    const auto a = exact_dtype<uint32_t>(words, w, "words");
    if (a.ndim() != 1) value_error(w, "words", fmt::format("expected a 1-D array, got {} dimensions", a.ndim()));
    out.assign(a.data(), a.data() + a.size());
  } else if (py::isinstance<py::list>(words) || py::isinstance<py::tuple>(words)) {
    const auto seq = py::reinterpret_borrow<py::sequence>(words);
    out.reserve(seq.size());
    for (size_t i = 0; i < seq.size(); ++i)
      out.push_back(static_cast<uint32_t>(uint_arg(seq[i], w, fmt::format("words[{}]", i), 0xFFFFFFFFu)));
  } else {
    type_error(w, "words", "expected program text (str), a uint32 array or a list of ints, got " + type_name(words));
  }
  return out;
}

WordForm form_arg(bool rotated) { return rotated ? WordForm::Rotated : WordForm::Raw; }

// Runs `body` on the state; if it throws, the state is put back as it was, so a refusal part-way
// through leaves nothing half-done.
template <typename Body>
auto transactional(TensixState& s, Body body) {
  const TensixState before = s;
  try {
    return body();
  } catch (...) {
    s = before;
    throw;
  }
}

// One word on `thread`; a stall is an error, since nothing else in a Machine hands a bank over.
struct Executed {
  ExecResult result;
  Unit unit;
};
Executed execute_one(TensixState& s, uint32_t word, unsigned thread, WordForm form) {
  const Insn insn = decode(to_raw(word, form), s.arch);
  ExecResult r = execute(s, insn, thread);
  if (r.status == ExecResult::Status::Stalled) {
    throw Error(ErrorKind::BadInput,
                fmt::format("{} stalls: {}; nothing in a Machine can hand the bank over, so it would wait forever "
                            "(give it to the Matrix Unit with set_bank(..., owner='matrix'))",
                            insn.mnemonic(), r.stall_reason));
  }
  return {std::move(r), insn.spec->unit};
}

py::dict writes_dict(const WriteSet& w) {
  py::list dst, srca, srcb, gprs;
  for (auto r : w.dst_rows) dst.append(r);
  for (const auto& r : w.srca_rows) srca.append(py::make_tuple(r.bank, r.row));
  for (const auto& r : w.srcb_rows) srcb.append(py::make_tuple(r.bank, r.row));
  for (auto g : w.gprs) gprs.append(g);
  py::dict d;
  d["dst_rows"] = dst;
  d["srca_rows"] = srca;
  d["srcb_rows"] = srcb;
  d["gprs"] = gprs;
  d["rwcs"] = w.rwcs;
  d["banks"] = w.banks;
  d["matrix_unit"] = w.matrix_unit;
  return d;
}

py::dict counts_dict(uint64_t instructions, uint64_t mu_cycles, uint64_t su_cycles) {
  py::dict d;
  d["instructions"] = instructions;
  d["matrix_unit_cycles"] = mu_cycles;
  d["scalar_unit_cycles"] = su_cycles;
  return d;
}

py::dict run_words(TensixState& s, const std::vector<uint32_t>& words, unsigned thread, WordForm form) {
  uint64_t mu = 0, su = 0;
  transactional(s, [&] {
    for (size_t i = 0; i < words.size(); ++i) {
      try {
        const Executed x = execute_one(s, words[i], thread, form);
        if (x.unit == Unit::MatrixUnit) mu += x.result.cycles;
        else if (x.unit == Unit::ScalarUnit) su += x.result.cycles;
      } catch (const Error& e) {
        throw Error(e.kind(), fmt::format("words[{}] = 0x{:08x}: {}", i, words[i], e.message()));
      }
    }
    return 0;
  });
  return counts_dict(words.size(), mu, su);
}

py::dict run_text(TensixState& s, const std::string& text) {
  std::istringstream in(text);
  ProgramOptions options;
  options.initial = &s;
  ProgramRun run;
  try {
    run = run_program(in, "<program>", options);
  } catch (const ProgramRefusal& e) {
    // The kind of the model's refusal survives the program's line prefix.
    throw Error(e.kind, fmt::format("{}:{}: {}", e.file, e.line, e.message));
  }
  s = run.state;
  return counts_dict(run.instructions, run.matrix_unit_cycles, run.scalar_unit_cycles);
}

// A read-only view of the Machine's storage (numpy cannot make it writable again: the base is not a
// buffer). `self` is the base, so the Machine lives as long as the view.
py::array view(py::dtype dt, std::vector<py::ssize_t> shape, std::vector<py::ssize_t> strides, const void* data,
               py::handle self) {
  py::array a(std::move(dt), std::move(shape), std::move(strides), data, self);
  py::setattr(a.attr("flags"), "writeable", py::bool_(false));
  return a;
}

py::array src_view(const std::array<SrcBank, kSrcBanks>& banks, py::handle self) {
  return view(py::dtype::of<uint32_t>(), {kSrcBanks, kSrcRows, kSrcCols},
              {static_cast<py::ssize_t>(sizeof(SrcBank)), kSrcCols * 4, 4}, banks[0].Rows.data(), self);
}

// The RWCs as a structured array with the ISA's field names, laid over std::array<Rwc, 3>.
py::array rwc_view(const TensixState& s, py::handle self) {
  py::list names, formats, offsets;
  auto field = [&](const char* name, const char* fmt_, size_t offset) {
    names.append(name), formats.append(fmt_), offsets.append(offset);
  };
  field("Dst", "u2", offsetof(Rwc, Dst));
  field("Dst_Cr", "u2", offsetof(Rwc, Dst_Cr));
  field("SrcA", "u1", offsetof(Rwc, SrcA));
  field("SrcA_Cr", "u1", offsetof(Rwc, SrcA_Cr));
  field("SrcB", "u1", offsetof(Rwc, SrcB));
  field("SrcB_Cr", "u1", offsetof(Rwc, SrcB_Cr));
  field("FidelityPhase", "u1", offsetof(Rwc, FidelityPhase));
  field("ExtraAddrModBit", "u1", offsetof(Rwc, ExtraAddrModBit));
  py::dict spec;
  spec["names"] = names, spec["formats"] = formats, spec["offsets"] = offsets, spec["itemsize"] = sizeof(Rwc);
  return view(py::dtype::from_args(spec), {kNumThreads}, {static_cast<py::ssize_t>(sizeof(Rwc))}, s.RWCs.data(), self);
}

// `rows` as a (n, 16) C-contiguous array of exactly T (a 1-D array of 16 is one row), fitting from
// `first` within `limit` rows.
template <typename T>
py::array_t<T, py::array::c_style> rows_arg(py::handle rows, const std::string& w, size_t first, size_t limit,
                                            const char* what) {
  auto a = exact_dtype<T>(rows, w, "rows");
  if (a.ndim() == 1 && a.shape(0) == kDstCols) {
    // A reshape of a C-contiguous array is a view, never a copy.
    a = py::reinterpret_borrow<py::array_t<T, py::array::c_style>>(a.reshape({py::ssize_t{1}, py::ssize_t{kDstCols}}));
  }
  if (a.ndim() != 2 || a.shape(1) != kDstCols || a.shape(0) == 0) {
    std::string shape;
    for (py::ssize_t d = 0; d < a.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(a.shape(d));
    value_error(w, "rows", fmt::format("expected shape (n, 16) or (16,), got ({}{})", shape, a.ndim() == 1 ? "," : ""));
  }
  if (first + static_cast<size_t>(a.shape(0)) > limit) {
    value_error(w, "rows", fmt::format("{} rows from {} row {} run past its last row {}", a.shape(0), what, first, limit - 1));
  }
  return a;
}

// Writes rows of Dst from `row` through one of its views (write(row, col, value) marks them valid).
template <typename T, typename Write>
void set_dst_rows(const char* method, py::handle rows, py::handle row_obj, size_t limit, const char* what, Write write) {
  const std::string w = where(method);
  const auto first = uint_arg(row_obj, w, "row", limit - 1);
  const auto r = rows_arg<T>(rows, w, first, limit, what).template unchecked<2>();
  for (py::ssize_t i = 0; i < r.shape(0); ++i)
    for (py::ssize_t c = 0; c < r.shape(1); ++c) write(first + i, c, r(i, c));
}

void set_src(std::array<SrcBank, kSrcBanks>& banks, const char* method, py::handle bank_obj, py::handle rows,
             py::handle row_obj) {
  const std::string w = where(method);
  const auto bank = uint_arg(bank_obj, w, "bank", kSrcBanks - 1);
  const auto first = uint_arg(row_obj, w, "row", kSrcRows - 1);
  const auto a = rows_arg<uint32_t>(rows, w, first, kSrcRows, "Src");
  const auto r = a.unchecked<2>();
  for (py::ssize_t i = 0; i < r.shape(0); ++i)
    for (py::ssize_t c = 0; c < r.shape(1); ++c)
      if (r(i, c) > kSrcDatumMask)
        value_error(w, "rows", fmt::format("element ({}, {}) = 0x{:x} is wider than a 19-bit Src datum (at most 0x7ffff)", i, c, r(i, c)));
  for (py::ssize_t i = 0; i < r.shape(0); ++i)
    for (py::ssize_t c = 0; c < r.shape(1); ++c) banks[bank].Rows[first + i][c] = r(i, c);
}

// The state field `name` (any scope; state_fields.h) and the index its scope needs: the config
// state (default: the thread's CFG_STATE_ID_StateID, as a program's .config), or the ADDR_MOD slot.
struct FieldRef {
  const StateField* field;
  unsigned thread, index;
};

FieldRef field_arg(const TensixState& s, const std::string& w, const std::string& name, py::handle thread_obj,
                   py::handle state_obj, py::handle slot_obj) {
  const StateField* f = nullptr;
  for (auto scope : {FieldScope::Config, FieldScope::ThreadConfig, FieldScope::AddrMod, FieldScope::Rwc, FieldScope::Global})
    if (!f) f = find_state_field(scope, name);
  if (!f) value_error(w, "name", fmt::format("no state field '{}' (Machine.fields() lists them)", name));
  const unsigned thread = thread_arg(thread_obj, w);
  unsigned index = 0;
  if (f->scope == FieldScope::Config) {
    index = state_obj.is_none() ? s.ThreadConfig[thread].CFG_STATE_ID_StateID & 1
                                : static_cast<unsigned>(uint_arg(state_obj, w, "state", kNumConfigStates - 1));
  } else if (!state_obj.is_none()) {
    value_error(w, "state", fmt::format("'{}' is not a Config field (only those have a config state)", f->name));
  }
  if (f->scope == FieldScope::AddrMod) {
    if (slot_obj.is_none()) value_error(w, "slot", fmt::format("'{}' is an ADDR_MOD field: name its slot (0..7)", f->name));
    index = static_cast<unsigned>(uint_arg(slot_obj, w, "slot", kNumAddrMods - 1));
  } else if (!slot_obj.is_none()) {
    value_error(w, "slot", fmt::format("'{}' is not an ADDR_MOD field (only those have a slot)", f->name));
  }
  return {f, thread, index};
}

const char* scope_name(FieldScope s) {
  switch (s) {
    case FieldScope::Config: return "config";
    case FieldScope::ThreadConfig: return "threadconfig";
    case FieldScope::AddrMod: return "addrmod";
    case FieldScope::Rwc: return "rwc";
    case FieldScope::Global: return "global";
  }
  return "";
}

}  // namespace

void bind_tensix_machine(py::module_& m) {
  py::options signatures;  // the class's methods are the extension's own: show their signatures
  signatures.enable_function_signatures();
  py::class_<Machine>(m, "Machine",
                      "One Tensix coprocessor's architectural state (reset: everything zero, Src banks owned\n"
                      "by the Unpackers) on which instruction words execute; see docs/python.md.")
      .def(py::init([](const py::object& variant, const py::object& arch) {
             const py::object v = renamed_variant(kClass, variant, "arch", arch, 1);
             auto mc = std::make_unique<Machine>();
             mc->state.arch = arch_arg(kClass, v.is_none() ? "blackhole" : str_arg(v, kClass, "variant"));
             return mc;
           }),
           py::arg("variant") = py::none(), py::kw_only(), py::arg("arch") = py::none())
      .def_property_readonly("variant", [](const Machine& mc) { return std::string(arch_name(mc.state.arch)); })
      .def_property_readonly("arch", [](const Machine& mc) { return std::string(arch_name(mc.state.arch)); })
      .def("__repr__", [](const Machine& mc) { return fmt::format("{}(variant='{}')", kClass, arch_name(mc.state.arch)); })
      .def(
          "reset", [](Machine& mc) { mc.state = TensixState{.arch = mc.state.arch}; },
          "Back to the reset state (views taken before stay valid and show it).")
      .def(
          "copy", [](const Machine& mc) { return Machine{mc.state}; }, "An independent Machine with a copy of this state.")
      .def(
          "step",
          [](Machine& mc, py::handle word, py::handle thread, py::handle rotated_obj) {
            const bool rotated = bool_arg(rotated_obj, where("step"), "rotated");
            const std::string w = where("step");
            const auto raw = static_cast<uint32_t>(uint_arg(word, w, "word", 0xFFFFFFFFu));
            const unsigned t = thread_arg(thread, w);
            const ExecResult r = transactional(mc.state, [&] { return execute_one(mc.state, raw, t, form_arg(rotated)); }).result;
            py::dict d;
            d["cycles"] = r.cycles;
            d["latency"] = r.latency;
            d["writes"] = writes_dict(r.writes);
            return d;
          },
          py::arg("word"), py::kw_only(), py::arg("thread") = 0, py::arg("rotated") = false,
          "Executes one instruction word (rotated=True: as embedded in kernel binaries, rotated left by 2)\n"
          "on `thread` (0..2). Returns {'cycles', 'latency', 'writes'}: writes lists the DstBits rows, the\n"
          "(bank, row) Src rows and the GPRs written, and whether RWCs, banks or other Matrix Unit state\n"
          "changed. A refusal raises the tmu.Error subclass of its kind with the model's reason, and a\n"
          "stall (a bank still owned by the Unpackers) tmu.BadInput; the state is then unchanged.")
      .def(
          "run",
          [](Machine& mc, py::handle program, py::handle thread, py::handle rotated_obj) {
            const bool rotated = bool_arg(rotated_obj, where("run"), "rotated");
            const std::string w = where("run");
            if (py::isinstance<py::str>(program)) {
              if (!thread.is_none()) value_error(w, "thread", "program text chooses its thread with '.thread N'");
              if (rotated) value_error(w, "rotated", "program text marks rotated words with '.word HEX rotated'");
              return run_text(mc.state, program.cast<std::string>());
            }
            const std::vector<uint32_t> words = words_arg(program, w);
            const unsigned t = thread.is_none() ? 0 : thread_arg(thread, w);
            return run_words(mc.state, words, t, form_arg(rotated));
          },
          py::arg("program"), py::kw_only(), py::arg("thread") = py::none(), py::arg("rotated") = false,
          "Runs instruction words (a 1-D uint32 array or a list of ints, on `thread`, default 0) or\n"
          "program text as `tmu run` reads it (docs/program-format.md: instructions and directives),\n"
          "starting from this Machine's state. Returns {'instructions', 'matrix_unit_cycles',\n"
          "'scalar_unit_cycles'}. A refusal raises the tmu.Error subclass of its kind, its message\n"
          "naming the word (words[i] = 0x...) or the line (<program>:N); the state is then as before\n"
          "the call. An '.arch' line must name this Machine's arch.")
      .def(
          "state",
          [](const Machine& mc, const py::object& parts) {
            std::vector<std::string> p;
            if (!parts.is_none()) {
              if (py::isinstance<py::str>(parts)) type_error(where("state"), "parts", "expected a list of part names, got str");
              for (py::handle h : parts) {
                if (!py::isinstance<py::str>(h)) type_error(where("state"), "parts", "expected part names (str)");
                p.push_back(h.cast<std::string>());
                if (!is_state_part(p.back())) {
                  value_error(where("state"), "parts", fmt::format("unknown part '{}' (expected rwcs, gprs, config, threadconfig, "
                                                                   "banks, srca, srcb, dst or dst32)", p.back()));
                }
              }
            }
            return py::module_::import("json").attr("loads")(state_to_json(mc.state, p).dump());
          },
          py::arg("parts") = py::none(),
          "The state as a dict, exactly the JSON `tmu run` prints (parts as its --show; None: all but\n"
          "dst32), so json.loads of `tmu run FILE` compares equal to Machine.run(text).state().")
      .def_property_readonly(
          "srca", [](py::object self) { return src_view(self.cast<Machine&>().state.SrcA, self); },
          "SrcA: uint32 (2, 64, 16), [bank, row, column], 19-bit datums (read-only live view).")
      .def_property_readonly(
          "srcb", [](py::object self) { return src_view(self.cast<Machine&>().state.SrcB, self); },
          "SrcB: uint32 (2, 64, 16), [bank, row, column], 19-bit datums (read-only live view).")
      .def_property_readonly(
          "dst16",
          [](py::object self) {
            const auto& d = self.cast<Machine&>().state.Dst;
            return view(py::dtype::of<uint16_t>(), {kDstRows, kDstCols}, {kDstCols * 2, 2}, d.DstBits.data(), self);
          },
          "DstBits, the storage: uint16 (1024, 16), as Dst16b addresses it with DbgFeatureDisableBit11\n"
          "clear (read-only live view; the JSON's 'dst').")
      .def_property_readonly(
          "dst_valid",
          [](py::object self) {
            const auto& d = self.cast<Machine&>().state.Dst;
            return view(py::dtype::of<bool>(), {kDstRows}, {1}, d.RowValid.data(), self);
          },
          "Validity of each DstBits row: bool (1024,) (read-only live view). An invalid row reads as the\n"
          "reading instruction's identity whatever its bits; Dst32b rows take the validity of their high half.")
      .def_property_readonly(
          "dst32",
          [](const Machine& mc) {
            py::array_t<uint32_t> out({kDst32Rows, kDstCols});
            auto o = out.mutable_unchecked<2>();
            for (unsigned r = 0; r < kDst32Rows; ++r)
              for (unsigned c = 0; c < kDstCols; ++c)
                o(r, c) = (uint32_t{mc.state.Dst.DstBits[DstRegs::hi_row(r)][c]} << 16) | mc.state.Dst.DstBits[DstRegs::lo_row(r)][c];
            return out;
          },
          "Dst32b: uint32 (512, 16), row r = DstBits[Adj32(r)] << 16 | DstBits[Adj32(r) + 8] (a copy:\n"
          "the halves are not adjacent in storage).")
      .def_property_readonly(
          "gprs",
          [](py::object self) {
            const auto& g = self.cast<Machine&>().state.GPRs;
            return view(py::dtype::of<uint32_t>(), {kNumThreads, kNumGprs}, {kNumGprs * 4, 4}, g.data(), self);
          },
          "GPRs: uint32 (3, 64), [thread, index] (read-only live view).")
      .def_property_readonly(
          "rwcs", [](py::object self) { return rwc_view(self.cast<Machine&>().state, self); },
          "The RWCs of the three threads: a structured (3,) array with fields Dst Dst_Cr SrcA SrcA_Cr\n"
          "SrcB SrcB_Cr FidelityPhase ExtraAddrModBit, e.g. m.rwcs['Dst'][0] (read-only live view).")
      .def(
          "set_srca", [](Machine& mc, py::handle bank, py::handle rows, py::handle row) { set_src(mc.state.SrcA, "set_srca", bank, rows, row); },
          py::arg("bank"), py::arg("rows"), py::arg("row") = 0,
          "Writes SrcA bank rows from `row`: rows is uint32 (n, 16) or (16,) of 19-bit datums.")
      .def(
          "set_srcb", [](Machine& mc, py::handle bank, py::handle rows, py::handle row) { set_src(mc.state.SrcB, "set_srcb", bank, rows, row); },
          py::arg("bank"), py::arg("rows"), py::arg("row") = 0, "As set_srca, for SrcB.")
      .def(
          "set_dst16",
          [](Machine& mc, py::handle rows, py::handle row) {
            set_dst_rows<uint16_t>("set_dst16", rows, row, kDstRows, "DstBits",
                                   [&](size_t r, size_t c, uint16_t v) { mc.state.Dst.write16(r, c, v); });
          },
          py::arg("rows"), py::arg("row") = 0,
          "Writes DstBits rows from `row` (uint16 (n, 16) or (16,)) and marks them valid, as .dst16.")
      .def(
          "set_dst32",
          [](Machine& mc, py::handle rows, py::handle row) {
            set_dst_rows<uint32_t>("set_dst32", rows, row, kDst32Rows, "Dst32b",
                                   [&](size_t r, size_t c, uint32_t v) { mc.state.Dst.write32(r, c, v); });
          },
          py::arg("rows"), py::arg("row") = 0,
          "Writes Dst32b rows from `row` (uint32 (n, 16) or (16,); both halves through Adj32) and marks\n"
          "them valid, as .dst32.")
      .def(
          "set_gprs",
          [](Machine& mc, py::handle values, py::handle thread, py::handle index) {
            const std::string w = where("set_gprs");
            const unsigned t = thread_arg(thread, w);
            const auto first = uint_arg(index, w, "index", kNumGprs - 1);
            const auto a = exact_dtype<uint32_t>(values, w, "values");
            if (a.ndim() != 1) value_error(w, "values", fmt::format("expected a 1-D array, got {} dimensions", a.ndim()));
            if (first + a.size() > kNumGprs)
              value_error(w, "values", fmt::format("{} values from GPR {} run past GPR {}", a.size(), first, kNumGprs - 1));
            std::copy(a.data(), a.data() + a.size(), mc.state.GPRs[t].begin() + first);
          },
          py::arg("values"), py::kw_only(), py::arg("thread") = 0, py::arg("index") = 0,
          "Writes a thread's GPRs from `index`: values is a 1-D uint32 array.")
      .def(
          "field",
          [](const Machine& mc, py::handle name_obj, py::handle thread, py::handle state, py::handle slot) {
            const std::string name = str_arg(name_obj, where("field"), "name");
            const FieldRef f = field_arg(mc.state, where("field"), name, thread, state, slot);
            return f.field->get(mc.state, f.thread, f.index);
          },
          py::arg("name"), py::kw_only(), py::arg("thread") = 0, py::arg("state") = py::none(), py::arg("slot") = py::none(),
          "A state field by its name in state_fields.h (case-insensitive; fields() lists them): Config\n"
          "fields of `state` (default: the thread's CFG_STATE_ID_StateID), ThreadConfig and RWC fields of\n"
          "`thread`, ADDR_MOD fields of `slot` (required) of `thread`, global fields.")
      .def(
          "set_field",
          [](Machine& mc, py::handle name_obj, py::handle value, py::handle thread, py::handle state, py::handle slot) {
            const std::string name = str_arg(name_obj, where("set_field"), "name");
            const std::string w = where("set_field");
            const FieldRef f = field_arg(mc.state, w, name, thread, state, slot);
            const auto v = uint_arg(value, w, fmt::format("value ({} is {} bits)", f.field->name, f.field->width),
                                    (uint64_t{1} << f.field->width) - 1);
            f.field->set(mc.state, f.thread, f.index, static_cast<uint32_t>(v));
          },
          py::arg("name"), py::arg("value"), py::kw_only(), py::arg("thread") = 0, py::arg("state") = py::none(),
          py::arg("slot") = py::none(), "Sets a state field (as field()); a value wider than the field is refused.")
      .def_static(
          "fields",
          [] {
            py::dict d;
            for (auto scope : {FieldScope::Config, FieldScope::ThreadConfig, FieldScope::AddrMod, FieldScope::Rwc, FieldScope::Global}) {
              py::list names;
              for (const StateField& f : state_fields(scope)) names.append(f.name);
              d[scope_name(scope)] = names;
            }
            return d;
          },
          "The state fields by scope: {'config', 'threadconfig', 'addrmod', 'rwc', 'global'} -> names.")
      .def(
          "set_bank",
          [](Machine& mc, py::handle operand_obj, py::handle bank_obj, const py::object& owner, const py::object& format) {
            const std::string operand = str_arg(operand_obj, where("set_bank"), "operand");
            const std::string w = where("set_bank");
            if (operand != "srca" && operand != "srcb") value_error(w, "operand", fmt::format("expected 'srca' or 'srcb', got '{}'", operand));
            const auto bank = uint_arg(bank_obj, w, "bank", kSrcBanks - 1);
            SrcBank& b = (operand == "srca" ? mc.state.SrcA : mc.state.SrcB)[bank];
            SrcBank next = b;
            if (!owner.is_none()) {
              const std::string o = py::str(owner).cast<std::string>();
              if (o == "matrix" || o == "MatrixUnit") next.AllowedClient = SrcClient::MatrixUnit;
              else if (o == "unpackers" || o == "Unpackers") next.AllowedClient = SrcClient::Unpackers;
              else value_error(w, "owner", fmt::format("expected 'matrix' or 'unpackers', got '{}'", o));
            }
            if (!format.is_none()) {
              const std::string f = py::str(format).cast<std::string>();
              auto df = parse_data_format(f);
              if (!df) value_error(w, "format", fmt::format("unknown data format '{}' (expected FP32, FP16, BF16, TF32, BFP8, ... INT32)", f));
              next.Format = *df;
            }
            b.AllowedClient = next.AllowedClient, b.Format = next.Format;
          },
          py::arg("operand"), py::arg("bank"), py::kw_only(), py::arg("owner") = py::none(), py::arg("format") = py::none(),
          "A Src bank's AllowedClient (owner 'matrix' or 'unpackers') and, on Blackhole, the data format\n"
          "tag written with its data, as a program's .bank. The Matrix Unit's bank pointers are fields:\n"
          "set_field('SrcABank', 1).")
      .def(
          "set_unpacker",
          [](Machine& mc, py::handle which, py::handle bank) {
            const std::string w = where("set_unpacker");
            const auto u = uint_arg(which, w, "unpacker", 1);
            mc.state.Unpackers[u].SrcBank = static_cast<uint8_t>(uint_arg(bank, w, "bank", kSrcBanks - 1));
          },
          py::arg("unpacker"), py::arg("bank"),
          "The bank unpacker 0 (SrcA) or 1 (SrcB) writes next, as a program's .unpacker.")
      .def(
          "disassemble",
          [](const Machine& mc, py::handle word) {
            return py::module_::import("tmu._tmu").attr("disassemble")(word, "tensix", arch_name(mc.state.arch));
          },
          py::arg("word"), "tmu.disassemble(word) for this Machine's arch.")
      .def(
          "assemble",
          [](const Machine& mc, py::handle line) {
            return py::module_::import("tmu._tmu").attr("assemble")(line, "tensix", arch_name(mc.state.arch));
          },
          py::arg("line"), "tmu.assemble(line) for this Machine's arch.");
}

}  // namespace tmu::python
