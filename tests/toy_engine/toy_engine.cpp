#include "toy_engine.h"

#include <array>
#include <charconv>
#include <istream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/program_error.h"
#include "tmu/rng.h"
#include "tmu/text_lines.h"
#include "tmu/vector_file.h"

namespace tmu::toy {

namespace {

using Lanes = std::array<uint8_t, 4>;

Error bad(std::string text) { return Error(ErrorKind::BadInput, std::move(text)); }

// The whole arithmetic: a + b, clamped to 255 (the "wide" variant does not clamp: it wraps).
Lanes add(const Lanes& a, const Lanes& b, bool wrap) {
  Lanes out{};
  for (size_t i = 0; i < 4; ++i) {
    const unsigned sum = unsigned{a[i]} + b[i];
    out[i] = static_cast<uint8_t>(wrap ? sum & 0xFF : (sum > 255 ? 255 : sum));
  }
  return out;
}

Lanes lanes(const std::vector<std::string>& w, size_t first) {
  if (w.size() != first + 4) throw bad("four lane values expected");
  Lanes out{};
  for (size_t i = 0; i < 4; ++i) {
    unsigned v = 0;
    const std::string& t = w[first + i];
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size() || v > 255) throw bad(fmt::format("'{}' is not a lane value 0..255", t));
    out[i] = static_cast<uint8_t>(v);
  }
  return out;
}

std::string text(const Lanes& l) { return fmt::format("{} {} {} {}", l[0], l[1], l[2], l[3]); }

class Scoreboard final : public EngineScoreboard {
 public:
  explicit Scoreboard(bool wrap) : wrap_(wrap) {}
  void declare(std::string_view) override { throw bad("the toy engine declares nothing"); }
  void load(std::string_view location, std::span<const uint32_t> words) override { reg(location) = unpack(words); }
  void execute(std::string_view op) override {
    if (op != "add") throw bad(fmt::format("unknown operation '{}' (add)", op));
    regs_["c"] = add(regs_["a"], regs_["b"], wrap_);
  }
  std::vector<std::string> compare(std::string_view location, std::span<const uint32_t> words) override {
    const Lanes got = unpack(words), want = reg(location);
    std::vector<std::string> out;
    for (size_t i = 0; i < 4; ++i)
      if (got[i] != want[i]) out.push_back(fmt::format("{} lane {}: design {}, model {} (add)", location, i, got[i], want[i]));
    return out;
  }
  std::vector<uint32_t> read(std::string_view location) const override {
    const auto it = regs_.find(std::string(location));
    if (it == regs_.end()) throw bad(fmt::format("unknown location '{}' (a b c)", location));
    const Lanes& l = it->second;
    return {uint32_t{l[0]} | uint32_t{l[1]} << 8 | uint32_t{l[2]} << 16 | uint32_t{l[3]} << 24};
  }

 private:
  Lanes& reg(std::string_view location) {
    if (location != "a" && location != "b" && location != "c") throw bad(fmt::format("unknown location '{}' (a b c)", location));
    return regs_[std::string(location)];
  }
  static Lanes unpack(std::span<const uint32_t> words) {
    if (words.size() != 1) throw bad("one 32-bit word of four lanes expected");
    return {static_cast<uint8_t>(words[0]), static_cast<uint8_t>(words[0] >> 8), static_cast<uint8_t>(words[0] >> 16),
            static_cast<uint8_t>(words[0] >> 24)};
  }
  bool wrap_;
  std::map<std::string, Lanes> regs_;
};

class ToyPrograms final : public ProgramRunner {
 public:
  std::string state_parts() const override { return "(all of a, b, c)"; }
  // Program: "a V V V V", "b V V V V", "add": the final a, b and c as JSON.
  nlohmann::ordered_json run_program(std::istream& in, const std::string& path, const RunRequest& r) const override {
    std::map<std::string, Lanes> regs{{"a", {}}, {"b", {}}, {"c", {}}};
    for (const TextLine& l : read_text_lines(in, "#")) {
      try {
        if (l.words[0] == "add" && l.words.size() == 1) regs["c"] = add(regs["a"], regs["b"], r.variant == "wrap");
        else if (l.words[0] == "a" || l.words[0] == "b") regs[l.words[0]] = lanes(l.words, 1);
        else throw bad(fmt::format("unknown statement '{}' (a b add)", l.words[0]));
      } catch (const Error& e) {
        throw ProgramError(path, static_cast<int>(l.number), e.message());
      }
    }
    nlohmann::ordered_json state;
    state["engine"] = "toy";
    state["variant"] = r.variant;
    for (const char* reg : {"a", "b", "c"}) state[reg] = text(regs[reg]);
    return state;
  }
};

class ToyVectors final : public VectorFiles {
 public:
  explicit ToyVectors(const Engine& e) : engine_(e) {}
  std::vector<EngineOption> vector_options() const override {
    return {{"--toy-edge", "Level 1 edge values, comma-separated (default 0,1,128,255)", EngineOption::Kind::List, ""}};
  }
  GeneratedSet generate_vectors(const VectorRequest& r, const FileSink& sink) const override {
    std::vector<uint8_t> edges{0, 1, 128, 255};
    if (const auto* v = option_value(r.options, "toy-edge")) {
      edges.clear();
      for (const std::string& e : *v) edges.push_back(lanes({e, e, e, e}, 0)[0]);
    }
    const std::string variant = r.variant.empty() ? "sat" : r.variant;
    std::string body;
    size_t n = 0;
    const auto vector = [&](const std::string& name, const Lanes& a, const Lanes& b) {
      body += "\n" + vector_record(name, "") + fmt::format("a {}\nb {}\nexpect {}\nend\n", text(a), text(b),
                                                         text(add(a, b, variant == "wrap")));
      ++n;
    };
    for (uint8_t x : edges)
      for (uint8_t y : edges) vector(fmt::format("l1/{}+{}", x, y), {x, x, x, x}, {y, y, y, y});
    Rng rng(r.seed);
    if (r.level >= 2)
      for (unsigned k = 0; k < r.random; ++k) {
        Lanes a{}, b{};
        for (size_t i = 0; i < 4; ++i) a[i] = static_cast<uint8_t>(rng.next()), b[i] = static_cast<uint8_t>(rng.next());
        vector(fmt::format("l2/{}", k), a, b);
      }
    GeneratedFile f;
    f.path = fmt::format("toy/{}.tmv", variant);
    f.text = vector_file_head("toy", {"toy engine vectors"}) + "arch " + variant + "\n" + body + vector_file_tail(n);
    f.vectors = n;
    f.element_cases = 4 * n;
    sink(std::move(f));
    GeneratedSet set;
    set.manifest_header = {"generated by the unit tests' toy engine"};
    set.random = r.level >= 2;
    set.seed = r.seed;
    return set;
  }

  ReplayResult replay_vectors(std::istream& in, const std::string& path, const ReplayRequest& req) const override {
    ReplayResult out;
    bool wrap = false;
    Lanes a{}, b{}, expect{};
    uint64_t lanes_compared = 0;
    VectorRecordHandler h;
    h.header = arch_header("sat|wrap", [&](const std::string& v) { wrap = engine_.canonical_variant(v) == "wrap"; });
    h.record = [&](const TextLine& l) {
      if (l.words[0] == "a") a = lanes(l.words, 1);
      else if (l.words[0] == "b") b = lanes(l.words, 1);
      else if (l.words[0] == "expect") expect = lanes(l.words, 1);
      else throw bad(fmt::format("unknown record '{}' (a b expect)", l.words[0]));
    };
    h.end = [&](const VectorBlock& v) {
      ++out.vectors;
      lanes_compared += 4;
      const Lanes got = add(a, b, wrap);
      if (got != expect) {
        ++out.failed;
        if (out.differences.size() < req.max_differences)
          out.differences.push_back(fmt::format("{}:{}: vector {}: expected {}, got {}", path, v.line, v.name, text(expect), text(got)));
      }
    };
    read_vector_frame(in, path, "toy", h);
    out.counts = {{"toy lanes", lanes_compared}};
    return out;
  }

 private:
  const Engine& engine_;
};

class ToyAudit final : public AuditTables {
 public:
  std::vector<EngineOption> audit_options() const override {
    return {{"--toy-limit", "Largest operand the toy audit enumerates (default 255)", EngineOption::Kind::Value, ""}};
  }
  // Every pair of operands up to the limit, against the sum computed in int (an independent path).
  AuditTable audit(const AuditRequest& r) const override {
    unsigned limit = 255;
    if (const auto* v = option_value(r.options, "toy-limit")) limit = lanes({v->front(), "0", "0", "0"}, 0)[0];
    uint64_t cases = 0, saturated = 0, wrong = 0;
    for (unsigned x = 0; x <= limit; ++x)
      for (unsigned y = 0; y <= limit; ++y) {
        const int exact = static_cast<int>(x + y);
        const Lanes got = add({static_cast<uint8_t>(x)}, {static_cast<uint8_t>(y)}, r.variant == "wrap");
        const int want = r.variant == "wrap" ? exact % 256 : std::min(exact, 255);
        ++cases;
        saturated += exact > 255;
        wrong += got[0] != want;
      }
    AuditTable t;
    t.csv_name = "toy.csv";
    t.csv = fmt::format("variant,cases,saturated,wrong\n{},{},{},{}\n", r.variant, cases, saturated, wrong);
    t.markdown = fmt::format("## Toy engine\n\n| variant | cases | saturated | wrong |\n|---|---|---|---|\n| {} | {} | {} | {} |\n",
                             r.variant, cases, saturated, wrong);
    t.checks_passed = wrong == 0;
    return t;
  }
};

class ToyEngine final : public Engine {
 public:
  std::string name() const override { return "toy"; }
  std::string summary() const override { return "a four-lane u8 saturating adder (unit tests only)"; }
  std::vector<EngineVariant> variants() const override { return {{"sat", "saturating"}, {"wrap", "wrapping"}}; }

  const ProgramRunner* programs() const override { return &programs_; }
  const VectorFiles* vectors() const override { return &vectors_; }
  const ScoreboardFactory* scoreboards() const override { return &scoreboards_; }
  const AuditTables* audit_tables() const override { return &audit_; }

 private:
  class Scoreboards final : public ScoreboardFactory {
   public:
    explicit Scoreboards(const Engine& e) : engine_(e) {}
    std::unique_ptr<EngineScoreboard> scoreboard(const std::string& variant) const override {
      return std::make_unique<Scoreboard>(engine_.canonical_variant(variant) == "wrap");
    }

   private:
    const Engine& engine_;
  };
  ToyPrograms programs_;
  ToyVectors vectors_{*this};
  ToyAudit audit_;
  Scoreboards scoreboards_{*this};
};

}  // namespace

std::unique_ptr<Engine> make_engine() { return std::make_unique<ToyEngine>(); }

}  // namespace tmu::toy
