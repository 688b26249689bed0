// tmu.engine(name, variant): any engine of the registry (tmu/engine.h) from Python, as `tmu` reaches
// it from the command line: words, programs, vector files and the generic scoreboard. Nothing here
// names an engine; what an option, a program or a location means is the engine's. The public class
// is tmu.Engine (python/tmu/_engine.py), which checks the signatures and calls these.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bindings.h"
#include "tmu/engine.h"
#include "tmu/error.h"
#include "tmu/program_error.h"
#include "tmu/rng.h"
#include "tmu/suggest.h"
#include "tmu/vector_file.h"

namespace tmu::python {

namespace {

namespace fs = std::filesystem;

struct PyEngine {
  const Engine* engine = nullptr;
  std::string variant;         // canonical
  bool variant_given = false;  // `tmu vectors` without --variant lets the engine choose (some write every variant)
};

struct PyScoreboard {
  std::unique_ptr<EngineScoreboard> model;
  std::string engine, variant;
};

std::string where(const char* method) { return fmt::format("tmu.Engine.{}", method); }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// An option's names without their dashes, '_' taken for '-' (Python spells level1-limit level1_limit).
std::string option_key(std::string_view name) {
  std::string s(name.substr(std::min(name.find_first_not_of('-'), name.size())));
  for (char& c : s)
    if (c == '_') c = '-';
  return s;
}

// A dict of the engine's own options of one subcommand ({"family": ["mvmul"], "corpus": True}) as
// the engine takes them from the command line: flags True or False, a value as a str or an int, a
// list as a comma-separated str or a list of them.
OptionValues option_values(const std::string& w, const Engine& e, const std::vector<EngineOption>& declared,
                           const char* what, const py::object& options) {
  OptionValues out;
  if (options.is_none()) return out;
  if (!py::isinstance<py::dict>(options)) type_error(w, "options", "expected a dict or None, got " + type_name(options));
  std::vector<std::string> primaries;
  std::vector<std::pair<std::string, const EngineOption*>> names;  // every spelling
  for (const EngineOption& o : declared) {
    std::string_view rest = o.names;
    primaries.push_back(option_key(rest.substr(0, rest.find(','))));
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      names.emplace_back(option_key(rest.substr(0, comma)), &o);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
  }
  for (const auto& [key_obj, value] : py::reinterpret_borrow<py::dict>(options)) {
    const std::string given = str_arg(key_obj, w, "options (a key)");
    const std::string key = option_key(given);
    const EngineOption* o = nullptr;
    for (const auto& [name, option] : names)
      if (name == key) o = option;
    if (!o) {
      if (primaries.empty()) value_error(w, "options", fmt::format("the {} engine has no {} options, got '{}'", e.name(), what, given));
      const std::vector<std::string_view> candidates(primaries.begin(), primaries.end());
      value_error(w, "options", fmt::format("the {} engine has no {} option '{}'{} (it takes {})", e.name(), what, given,
                                            did_you_mean(key, candidates), fmt::join(primaries, ", ")));
    }
    const std::string arg = fmt::format("options['{}']", given);
    const std::string primary = option_key(std::string_view(o->names).substr(0, o->names.find(',')));
    const auto scalar = [&](py::handle v) -> std::string {
      if (py::isinstance<py::str>(v)) return v.cast<std::string>();
      return std::to_string(uint_arg(v, w, arg, UINT64_MAX));
    };
    if (o->kind == EngineOption::Kind::Flag) {
      if (bool_arg(value, w, arg)) out[primary] = {"1"};
    } else if (o->kind == EngineOption::Kind::Value) {
      out[primary] = {scalar(value)};
    } else if (py::isinstance<py::str>(value)) {
      std::vector<std::string>& items = out[primary];
      std::stringstream list(value.cast<std::string>());
      for (std::string item; std::getline(list, item, ',');) items.push_back(item);
    } else if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
      std::vector<std::string>& items = out[primary];
      for (py::handle item : value) items.push_back(scalar(item));
    } else {
      type_error(w, arg, "expected a comma-separated str or a list of str, got " + type_name(value));
    }
  }
  return out;
}

}  // namespace

std::string word_text(std::string_view w, py::handle word) {
  if (py::isinstance<py::bool_>(word)) type_error(w, "word", "expected an int or a hex str, got bool");
  if (py::isinstance<py::str>(word)) return word.cast<std::string>();
  if (!py::isinstance<py::int_>(word)) type_error(w, "word", "expected an int or a hex str, got " + type_name(word));
  if (word.attr("__lt__")(0).cast<bool>() || word.attr("bit_length")().cast<int>() > 64) {
    value_error(w, "word", "expected a word of at most 64 bits, not negative");
  }
  return fmt::format("0x{:x}", word.cast<uint64_t>());
}

py::int_ word_value(const std::string& hex) { return py::int_(std::stoull(hex, nullptr, 16)); }

namespace {

py::list str_list(const std::vector<std::string>& items) {
  py::list out;
  for (const std::string& s : items) out.append(s);
  return out;
}

py::object parse_json(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

std::vector<std::string> parts_arg(const std::string& w, const py::object& show) {
  std::vector<std::string> parts;
  if (show.is_none()) return parts;
  if (py::isinstance<py::str>(show)) {
    std::stringstream list(show.cast<std::string>());
    for (std::string part; std::getline(list, part, ',');) parts.push_back(part);
  } else if (py::isinstance<py::list>(show) || py::isinstance<py::tuple>(show)) {
    for (py::handle p : show) parts.push_back(str_arg(p, w, "show (an item)"));
  } else {
    type_error(w, "show", "expected a comma-separated str, a list of str or None, got " + type_name(show));
  }
  return parts;
}

void raise_os_error(const std::string& w, const std::string& what) {
  PyErr_SetString(PyExc_OSError, fmt::format("{}: out: {}", w, what).c_str());
  throw py::error_already_set();
}

// tmu vectors: the files by relative path, the seed their random vectors were drawn from (None when
// none were), and the MANIFEST's text; with `out`, the files and the MANIFEST written there too.
py::tuple generate(const PyEngine& pe, const py::object& level, const py::object& random, const py::object& seed,
                   const py::object& options, const py::object& out) {
  const std::string w = where("vectors");
  const Engine& e = *pe.engine;
  VectorRequest r;
  r.level_given = !level.is_none(), r.random_given = !random.is_none(), r.seed_given = !seed.is_none();
  // `tmu vectors`'s rule: random or seed alone ask for random vectors, level 2.
  r.level = r.level_given ? static_cast<unsigned>(uint_arg(level, w, "level", UINT32_MAX))
                          : ((r.random_given || r.seed_given) ? 2 : 1);
  if (r.level < 1 || r.level > 2) value_error(w, "level", fmt::format("expected 1 or 2, got {}", r.level));
  if (r.random_given) r.random = static_cast<unsigned>(uint_arg(random, w, "random", UINT32_MAX));
  r.seed = r.seed_given ? uint_arg(seed, w, "seed", UINT64_MAX) : clock_seed();
  r.variant = pe.variant_given ? pe.variant : "";
  r.options = option_values(w, e, vectors_of(e).vector_options(), "vectors", options);
  const std::string dir = out.is_none() ? "" : py::str(py::module_::import("os").attr("fspath")(out)).cast<std::string>();

  std::vector<GeneratedFile> files;
  std::vector<ManifestEntry> manifest;
  GeneratedSet set;
  {
    py::gil_scoped_release release;
    set = vectors_of(e).generate_vectors(r, [&](GeneratedFile&& f) {
      manifest.push_back(ManifestEntry{f.path, f.vectors, f.element_cases, sha256_hex(f.text)});
      files.push_back(std::move(f));
    });
  }
  const std::string manifest_text = format_manifest(manifest, set.manifest_header);
  if (!dir.empty()) {
    const auto write = [&](const fs::path& path, const std::string& text) {
      std::error_code ec;
      fs::create_directories(path.parent_path(), ec);
      if (ec) raise_os_error(w, fmt::format("cannot create {}: {}", path.parent_path().string(), ec.message()));
      std::ofstream file(path, std::ios::binary);
      file << text;
      if (!file) raise_os_error(w, fmt::format("cannot write {}", path.string()));
    };
    for (const GeneratedFile& f : files) write(fs::path(dir) / f.path, f.text);
    write(fs::path(dir) / kVectorManifestName, manifest_text);
  }
  py::dict texts;
  for (GeneratedFile& f : files) texts[py::str(f.path)] = py::str(f.text);
  return py::make_tuple(texts, set.random ? py::object(py::int_(set.seed)) : py::object(py::none()), manifest_text);
}

// tmu check of one file of this engine: its framing names the engine (the default engine's may name
// none); a file of another engine is refused as `tmu check --engine` refuses it.
ReplayResult replay(const Engine& e, const std::string& path, const std::function<std::unique_ptr<std::istream>()>& open,
                    const ReplayRequest& r) {
  {
    const auto in = open();
    const NamedEngine named = vector_file_engine(*in, path);
    const std::string file_engine = named.name.empty() ? default_engine().name() : named.name;
    if (file_engine != e.name())
      throw ProgramError(path, static_cast<int>(named.line),
                         fmt::format("the file is a vector file of the {} engine{}, not of {} (check it with tmu.engine('{}'))",
                                     file_engine, named.name.empty() ? " (it names none)" : "", e.name(), file_engine));
  }
  const auto in = open();
  return vectors_of(e).replay_vectors(*in, path, r);
}

py::dict check(const PyEngine& pe, const py::object& source, const py::object& max_differences, const py::object& poison) {
  const std::string w = where("check");
  const Engine& e = *pe.engine;
  ReplayRequest r;
  r.max_differences = static_cast<unsigned>(uint_arg(max_differences, w, "max_differences", UINT32_MAX));
  if (!poison.is_none()) r.poison_seed = uint_arg(poison, w, "poison", UINT64_MAX);

  std::vector<std::string> paths;  // "" for text
  std::string text, dir;
  if (py::isinstance<py::str>(source) && source.cast<std::string>().starts_with(kVectorMagic)) {
    text = source.cast<std::string>();
    paths.emplace_back();
  } else {
    if (!py::isinstance<py::str>(source) && !py::hasattr(source, "__fspath__"))
      type_error(w, "source", "expected a vector file's text, a path or a directory, got " + type_name(source));
    const std::string path = py::str(py::module_::import("os").attr("fspath")(source)).cast<std::string>();
    if (fs::is_directory(path)) {
      dir = path;
      paths = vector_files_below(path);
      if (paths.empty()) value_error(w, "source", fmt::format("no {} files in the directory {}", kVectorFileExtension, path));
    } else if (fs::is_regular_file(path)) {
      paths.push_back(path);
    } else {
      value_error(w, "source", fmt::format("no such file or directory: '{}' (a vector file's text starts with '{}')", path,
                                           kVectorMagic));
    }
  }

  uint64_t vectors = 0, failed = 0;
  UnitCounts counts;
  std::vector<std::string> differences;
  {
    py::gil_scoped_release release;
    for (const std::string& path : paths) {
      const auto open = [&]() -> std::unique_ptr<std::istream> {
        if (path.empty()) return std::make_unique<std::istringstream>(text);
        return std::make_unique<std::ifstream>(path, std::ios::binary);
      };
      const ReplayResult result = replay(e, path.empty() ? "source" : path, open, r);
      vectors += result.vectors, failed += result.failed;
      for (const auto& [unit, n] : result.counts) add_count(counts, unit, n);
      differences.insert(differences.end(), result.differences.begin(), result.differences.end());
    }
    if (!dir.empty() && fs::exists(fs::path(dir) / kVectorManifestName)) {
      const ManifestCheck m = check_manifest(dir);
      if (!m.malformed.empty()) throw Error(ErrorKind::BadInput, fmt::format("{}", fmt::join(m.malformed, "; ")));
      differences.insert(differences.end(), m.differences.begin(), m.differences.end());
    }
  }
  py::dict by_unit;
  for (const auto& [unit, n] : counts) by_unit[py::str(unit)] = n;
  py::dict d;
  d["files"] = paths.size(), d["vectors"] = vectors, d["failed"] = failed, d["counts"] = by_unit;
  d["differences"] = str_list(differences);
  return d;
}

std::vector<uint32_t> words_arg(const std::string& w, py::handle words) {
  const auto a = exact_dtype<uint32_t>(words, w, "words");
  if (a.ndim() != 1) value_error(w, "words", fmt::format("expected a 1-D array, got {} dimensions", a.ndim()));
  return {a.data(), a.data() + a.size()};
}

}  // namespace

void bind_engine(py::module_& m) {
  py::class_<PyEngine>(m, "Engine", "One engine of tmu's registry at one variant (tmu.engine(name, variant)).")
      .def(py::init([](const std::string& name, const py::object& variant) {
             PyEngine pe{&engine_arg("tmu.engine", name, "name"), "", !variant.is_none()};
             pe.variant = variant_arg("tmu.engine", *pe.engine, variant);
             return pe;
           }),
           py::arg("name"), py::arg("variant"))
      .def_property_readonly("name", [](const PyEngine& pe) { return pe.engine->name(); })
      .def_property_readonly("summary", [](const PyEngine& pe) { return pe.engine->summary(); })
      .def_property_readonly("variant", [](const PyEngine& pe) { return pe.variant; })
      .def_property_readonly("variants",
                             [](const PyEngine& pe) {
                               py::list names;
                               for (const EngineVariant& v : pe.engine->variants()) names.append(v.name);
                               return names;
                             })
      .def(
          "disassemble",
          [](const PyEngine& pe, py::handle word, const py::object& options) {
            const std::string w = where("disassemble");
            const WordCodec& codec = words_of(*pe.engine, "to disassemble");
            const OptionValues o = option_values(w, *pe.engine, codec.word_options(), "word", options);
            return codec.disassemble(word_text(w, word), pe.variant, o);
          },
          "The disassembly of one instruction word (an int, or hex text) as `tmu dis` prints it; options:\n"
          "the engine's word options of `tmu dis` ({'rotated': True} for Tensix, {'word': True} for AMX).\n\n"
          ">>> tmu.engine('tensix').disassemble(0x10184000)\n"
          "'10184000  ZEROACC Imm10=0 AddrMod=1 Revert=0 UseDst32b=0 Mode=3'")
      .def(
          "assemble",
          [](const PyEngine& pe, const std::string& line, const py::object& options) {
            const WordCodec& codec = words_of(*pe.engine, "to assemble");
            const OptionValues o = option_values(where("assemble"), *pe.engine, codec.word_options(), "word", options);
            return word_value(codec.assemble(line, pe.variant, o));
          },
          "The instruction word (an int) of one line of assembly, as `tmu asm` reads it.\n\n"
          ">>> hex(tmu.engine('amx').assemble('matfp f32 z+=x*y x=0x40 y=0x80'))\n'0x100000010080'")
      .def(
          "isa",
          [](const PyEngine& pe) {
            const WordCodec* codec = pe.engine->words();
            const std::vector<std::string> lines = codec ? codec->instruction_table(pe.variant) : std::vector<std::string>{};
            if (lines.empty())
              throw Error(ErrorKind::BadInput, fmt::format("the {} engine has no instruction table{}", pe.engine->name(),
                                                           codec ? "" : " (it has no instruction words)"));
            return str_list(lines);
          },
          "Every instruction of the variant, one line each, as `tmu isa` prints them; tmu.BadInput for an\n"
          "engine without instruction words.")
      .def(
          "run",
          [](const PyEngine& pe, const std::string& program, const py::object& show, const py::object& values) {
            const std::string w = where("run");
            RunRequest r;
            r.variant = pe.variant;
            r.parts = parts_arg(w, show);
            if (!values.is_none()) r.values = lower(str_arg(values, w, "values"));
            nlohmann::ordered_json state;
            {
              py::gil_scoped_release release;
              std::istringstream in(program);
              state = programs_of(*pe.engine).run_program(in, "program", r);
            }
            return parse_json(state.dump());
          },
          "Runs a program in the engine's program format (docs/program-format.md), given as its text, from\n"
          "reset, as `tmu run` does; returns the final state (the JSON `tmu run` prints, parsed). show:\n"
          "only these parts of the state (a list, or comma-separated as --show takes them); values: also\n"
          "the data read as this type (--values). A problem is tmu.BadInput 'program:LINE: reason'.")
      .def("vectors", &generate,
           "The engine's test vector files, as `tmu vectors` writes them, {relative path: text}, with .seed\n"
           "and .manifest. level (default 1, or 2 when random or seed is given): 1 the special values\n"
           "crossed, 2 also `random` (default 16) seeded random vectors a file; seed: replays a run bit\n"
           "for bit (default: from the clock, printed to stderr as `tmu vectors` prints it); options: the\n"
           "engine's vectors options by name ({'family': ['mvmul']}); out: also write the files and their\n"
           "MANIFEST into this directory. An Engine made without a variant writes what `tmu vectors`\n"
           "writes without --variant (some engines: every variant).")
      .def("check", &check,
           "Replays a vector file of this engine (its text, or a path) against the model, as `tmu check`\n"
           "does; a directory: every .tmv file below it, and its MANIFEST verified. Returns {'files',\n"
           "'vectors', 'failed', 'counts' (by unit), 'differences' (at most max_differences a vector)};\n"
           "poison: start each vector from state seeded with it instead of reset (--poison).")
      .def(
          "scoreboard",
          [](const PyEngine& pe) {
            auto model = scoreboards_of(*pe.engine).scoreboard(pe.variant);
            return PyScoreboard{std::move(model), pe.engine->name(), pe.variant};
          },
          "A new scoreboard of the engine's variant (docs/scoreboard.md, 'Engine scoreboards'): the model\n"
          "mirrors what a testbench drives (load, execute) and compares what the design produced.")
      .def("__repr__", [](const PyEngine& pe) {
        return fmt::format("tmu.engine('{}', variant='{}')", pe.engine->name(), pe.variant);
      });

  const char* sb = "tmu.EngineScoreboard";
  py::class_<PyScoreboard>(m, "EngineScoreboard", "An engine's generic scoreboard (tmu.Engine.scoreboard()).")
      .def("declare", [](PyScoreboard& s, const std::string& text) { s.model->declare(text); },
           "Declares state the engine cannot know by itself (a PTO tile: 'a f32 1x8').")
      .def(
          "load",
          [sb](PyScoreboard& s, const std::string& location, py::handle words) {
            s.model->load(location, words_arg(fmt::format("{}.load", sb), words));
          },
          "The design's state at `location` now holds `words` (uint32, lane 0 in the low bits of word 0).")
      .def("execute", [](PyScoreboard& s, const std::string& op) { s.model->execute(op); },
           "Executes one operation on the model, as the design is asked to.")
      .def(
          "compare",
          [sb](PyScoreboard& s, const std::string& location, py::handle words) {
            return str_list(s.model->compare(location, words_arg(fmt::format("{}.compare", sb), words)));
          },
          "The design produced `words` at `location`: one line per mismatching lane, [] when all agree.")
      .def(
          "read",
          [](const PyScoreboard& s, const std::string& location) {
            const std::vector<uint32_t> words = s.model->read(location);
            return py::array_t<uint32_t>(static_cast<py::ssize_t>(words.size()), words.data());
          },
          "The model's words at `location`, a new uint32 array.")
      .def(
          "summary", [](const PyScoreboard& s) { return s.model->summary(); },
          "What every mismatch compare() has reported shares, with the cause it points to (one ulp nearer\n"
          "zero: a truncation), or '' when they differ or there are none.")
      .def("__repr__", [](const PyScoreboard& s) {
        return fmt::format("<tmu.EngineScoreboard of tmu.engine('{}', variant='{}')>", s.engine, s.variant);
      });
}

}  // namespace tmu::python
