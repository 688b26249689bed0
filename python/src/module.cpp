// tmu._tmu: the extension module. The model's refusals (tmu::Error) become tmu.Error subclasses,
// one per tmu::ErrorKind, carrying the model's reason text; the engine registry is listed by
// tmu.engines(). The submodules are defined in their own files: tmu.formats in formats*.cpp, each
// engine's in its directory (bindings.h).
#include <fmt/format.h>

#include <string>

#include "bindings.h"
#include "tmu/engine.h"
#include "tmu/error.h"
#include "tmu/program_error.h"

namespace tmu::python {

void type_error(std::string_view where, std::string_view arg, std::string_view what) {
  throw py::type_error(fmt::format("{}: {}: {}", where, arg, what));
}
void value_error(std::string_view where, std::string_view arg, std::string_view what) {
  throw py::value_error(fmt::format("{}: {}: {}", where, arg, what));
}

std::string dtype_name(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

std::string index_text(const std::vector<py::ssize_t>& shape, py::ssize_t i) {
  std::vector<py::ssize_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? i % shape[d] : 0;
    if (shape[d]) i /= shape[d];
  }
  std::string s = "(";
  for (size_t d = 0; d < idx.size(); ++d) s += fmt::format("{}{}", d ? ", " : "", idx[d]);
  return s + (idx.size() == 1 ? ",)" : ")");
}

std::vector<py::ssize_t> shape_of(const py::array& a) { return {a.shape(), a.shape() + a.ndim()}; }

Rounding parse_rounding(std::string_view where, std::string_view arg, std::string_view name) {
  if (name == "rne") return Rounding::NearestEven;
  if (name == "truncate") return Rounding::Truncate;
  value_error(where, arg, fmt::format("expected 'rne' (round to nearest, ties to even) or 'truncate' (toward zero), got '{}'", name));
}

namespace {

// tmu.Error and its subclasses, in tmu::ErrorKind's order. Created once, kept alive by the module.
struct ErrorClasses {
  PyObject* base = nullptr;
  PyObject* kinds[5] = {};
};
ErrorClasses g_errors;

PyObject* error_class(ErrorKind k) {
  const auto i = static_cast<unsigned>(k);
  return i < 5 ? g_errors.kinds[i] : g_errors.base;
}

}  // namespace

// The engine `name` of the registry, or ValueError naming the argument and the engines there are.
const Engine& engine_arg(std::string_view where, const std::string& name, std::string_view arg) {
  if (const Engine* e = find_engine(name)) return *e;
  value_error(where, arg, fmt::format("unknown engine '{}' (expected {})", name, engine_names()));
}

// The engine's canonical variant ("" -> its default), or ValueError naming the argument.
std::string variant_arg(std::string_view where, const Engine& e, const py::object& variant) {
  if (variant.is_none()) return e.variants().front().name;
  if (!py::isinstance<py::str>(variant)) type_error(where, "variant", "expected a str or None, got " + type_name(variant));
  try {
    return e.canonical_variant(variant.cast<std::string>());
  } catch (const Error& err) {
    value_error(where, "variant", err.message());
  }
}

py::object renamed_variant(std::string_view where, const py::object& variant, std::string_view old_name,
                           const py::object& old, int stacklevel) {
  if (old.is_none()) return variant;
  if (!variant.is_none())
    throw py::type_error(fmt::format("{}: variant and {} name the same thing: pass variant= only", where, old_name));
  const std::string text = fmt::format("{}: {}= is deprecated: pass variant= (the same values)", where, old_name);
  if (PyErr_WarnEx(PyExc_DeprecationWarning, text.c_str(), stacklevel) < 0) throw py::error_already_set();
  return old;
}

void bind_errors(py::module_& m) {
  const char* base_doc =
      "A refusal of the model: the case is undefined, not promised, not modelled, or not a valid\n"
      "input. str(e) is the model's reason; e.kind names the category (tmu::ErrorKind).";
  g_errors.base = PyErr_NewExceptionWithDoc("tmu.Error", base_doc, PyExc_Exception, nullptr);
  m.add_object("Error", py::handle(g_errors.base));
  py::setattr(py::handle(g_errors.base), "kind", py::none());
  const ErrorKind kinds[] = {ErrorKind::DecodeError, ErrorKind::UndefinedBehaviour, ErrorKind::NonContractualBehaviour,
                             ErrorKind::Unsupported, ErrorKind::BadInput};
  const char* docs[] = {
      "A reserved opcode, a field value not allowed, reserved bits set.",
      "The ISA defines no result for this case.",
      "The ISA describes this case but does not promise its result.",
      "tmu does not model this case.",
      "Malformed input: a program, a vector file, a value the model cannot take.",
  };
  for (unsigned i = 0; i < 5; ++i) {
    const std::string name = error_kind_name(kinds[i]);
    const std::string qualified = "tmu." + name;
    g_errors.kinds[i] = PyErr_NewExceptionWithDoc(qualified.c_str(), docs[i], g_errors.base, nullptr);
    py::setattr(py::handle(g_errors.kinds[i]), "kind", py::str(name));
    m.add_object(name.c_str(), py::handle(g_errors.kinds[i]));
  }
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(error_class(e.kind()), e.message().c_str());
    } catch (const ProgramError& e) {
      PyErr_SetString(error_class(ErrorKind::BadInput), e.what());
    }
  });
}

}  // namespace tmu::python

namespace py = pybind11;
using namespace tmu;
using namespace tmu::python;

PYBIND11_MODULE(_tmu, m) {
  // The public functions are Python functions (python/tmu/) with real signatures that lend these
  // docstrings; pybind11's generated signature line would only repeat them worse.
  py::options options;
  options.disable_function_signatures();
  m.doc() = "tmu's bit-exact reference models (the extension module; import tmu instead).";
  m.attr("__version__") = TMU_VERSION;
  tmu::register_builtin_engines();
  bind_errors(m);
  m.def(
      "engines",
      [] {
        py::list out;
        for (const tmu::Engine* e : tmu::engines()) {
          py::list variants;
          for (const auto& v : e->variants()) variants.append(v.name);
          py::dict d;
          d["name"] = e->name();
          d["summary"] = e->summary();
          d["variants"] = variants;
          out.append(d);
        }
        return out;
      },
      "The engines in tmu's registry, in registration order (the first is the default engine):\n"
      "a list of dicts {'name', 'summary', 'variants'}, each variant list with its default first.\n\n"
      ">>> [e['name'] for e in tmu.engines()]\n['tensix', 'amx', 'pto']");
  m.def(
      "disassemble",
      [](const py::object& word, const std::string& engine, const py::object& variant) {
        const char* where = "tmu.disassemble";
        const Engine& e = engine_arg(where, engine);
        const std::string v = variant_arg(where, e, variant);
        return words_of(e, "to disassemble").disassemble(word_text(where, word), v, {});
      },
      py::arg("word"), py::arg("engine"), py::arg("variant"),
      "The disassembly of one instruction word (an int, or hex text as `tmu dis` takes it) of the\n"
      "engine's variant (None: its default), as `tmu dis` prints it (the word, then its fields).\n\n"
      ">>> tmu.disassemble(0x10184000)\n'10184000  ZEROACC Imm10=0 AddrMod=1 Revert=0 UseDst32b=0 Mode=3'");
  m.def(
      "assemble",
      [](const std::string& line, const std::string& engine, const py::object& variant) {
        const char* where = "tmu.assemble";
        const Engine& e = engine_arg(where, engine);
        const std::string v = variant_arg(where, e, variant);
        return word_value(words_of(e, "to assemble").assemble(line, v, {}));
      },
      py::arg("line"), py::arg("engine"), py::arg("variant"),
      "The instruction word (an int) of one line of assembly, as `tmu asm` reads it.\n\n"
      ">>> hex(tmu.assemble('ZEROACC Mode=3 AddrMod=1'))\n'0x10184000'");
  m.def(
      "renamed_variant",
      [](const std::string& where, const py::object& variant, const std::string& old_name, const py::object& old,
         int stacklevel) { return renamed_variant(where, variant, old_name, old, stacklevel); },
      "The variant of a call that may still spell it with its engine's older keyword (the public\n"
      "modules' functions; their callers are `stacklevel` frames up).");
  auto formats = m.def_submodule("formats", "Exact conversions between numbers and bit patterns.");
  bind_formats(formats);
  bind_formats_bfp(formats);
  bind_engine_submodules(m);
  bind_engine(m);
}
