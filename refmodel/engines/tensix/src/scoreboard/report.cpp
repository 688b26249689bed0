// Mismatch reports: everything a DV engineer needs to act on one mismatch, as text, plus the replay
// program of the failing instruction (made once per instruction and optionally saved to a file).
#include <cctype>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "scoreboard_internal.h"

namespace tmu::tensix {

using namespace sb_detail;

namespace {

std::string file_safe(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out.empty() ? "test" : out;
}

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const size_t stop = end == std::string::npos ? text.size() : end;
    out += prefix + text.substr(start, stop - start) + "\n";
    start = stop + 1;
  }
  return out;
}

// Width of the location's values in hex digits, for the differing-bits mask.
int hex_digits_of(const MismatchLocation& where) {
  switch (where.target) {
    case Target::SrcA: case Target::SrcB: return 5;
    case Target::Dst: return where.text.rfind("Dst32b", 0) == 0 ? 8 : 4;
    default: return 8;
  }
}

}  // namespace

void Scoreboard::finish_report(Mismatch& m, RetireContext* rc, bool full) {
  const std::string& test = options_.test_name;
  const std::string head = fmt::format("tmu scoreboard MISMATCH #{} ({}) in test '{}' seed {}", mismatch_count_,
                                       mismatch_kind_name(m.kind), test, options_.seed);
  if (rc && rc->reported_in_full) {
    // The same instruction again: its header, history and replay are in the first report.
    m.report = m.expected_text.empty() && m.actual_text.empty()
                   ? fmt::format("  also       {}", m.where.text)
                   : fmt::format("  also       {}: expected {}, actual {}", m.where.text, m.expected_text, m.actual_text);
    return;
  }
  if (!full) {
    m.report = fmt::format("{}: cycle {} thread {}: {}: expected {}, actual {}", head, m.cycle, m.thread, m.where.text,
                           m.expected_text, m.actual_text);
    return;
  }
  if (rc) rc->reported_in_full = true;

  // The replay program of the failing instruction: the state it read (before_) and the word.
  if (rc && rc->insn && !rc->replay_made) {
    rc->replay_made = true;
    rc->replay_program = replay_program_text(
        before_, rc->obs.thread, rc->obs.word,
        fmt::format("test '{}' seed {}: cycle {} thread {}: {}", test, options_.seed, rc->obs.cycle, rc->obs.thread,
                    rc->disassembly));
    if (m.kind != MismatchKind::ModelError && m.kind != MismatchKind::ModelStall) {
      const std::string problem = check_replay(rc->replay_program, model_, rc->result.writes, rc->obs.thread);
      rc->replay_check = problem.empty() ? "verified: it reproduces every location the model's instruction wrote"
                                         : "CHECK FAILED: " + problem;
    }
    if (!options_.replay_dir.empty()) {
      namespace fs = std::filesystem;
      const fs::path path = fs::path(options_.replay_dir) /
                            fmt::format("{}_seed{}_cycle{}_t{}.tmu", file_safe(test), options_.seed, rc->obs.cycle, rc->obs.thread);
      std::error_code ec;
      fs::create_directories(path.parent_path(), ec);
      std::ofstream out(path);
      out << rc->replay_program;
      if (out) rc->replay_path = path.string();
      else rc->replay_check += fmt::format(" (could not write {})", path.string());
    }
  }
  if (rc) {
    m.replay_program = rc->replay_program;
    m.replay_path = rc->replay_path;
  }
  if (!options_.replay_command_template.empty())
    m.replay_command = fill_command(options_.replay_command_template, test, options_.seed, m.cycle, m.thread, m.replay_path);

  std::string t = "==== " + head + " ====\n";
  if (rc) {
    t += fmt::format("  cycle       {}   thread {}   (retired instruction #{})\n", m.cycle, m.thread, retired_);
    t += fmt::format("  instruction {}  {}\n", hex(m.word, 8), m.disassembly);
  } else {
    t += fmt::format("  when        end of test, after {} retired instructions\n", retired_);
  }
  t += fmt::format("  location    {}\n", m.where.text);
  if (!m.expected_text.empty() || !m.actual_text.empty()) {
    t += fmt::format("  expected    {}\n", m.expected_text);
    t += fmt::format("  actual      {}\n", m.actual_text);
  }
  if (m.kind == MismatchKind::ValueDiffers || (m.kind == MismatchKind::FinalState && m.expected != m.actual))
    if (m.where.target == Target::Dst || m.where.target == Target::SrcA || m.where.target == Target::SrcB ||
        m.where.target == Target::Gpr)
      t += fmt::format("  differing   {}\n",
                       differing_bits_text(m.expected, m.actual, hex_digits_of(m.where)));
  if (m.datapath) {
    const DatapathDiagnosis& d = *m.datapath;
    t += fmt::format("  datapath    {}, fidelity phase {}\n", d.operation, d.fidelity_phase);
    t += fmt::format("              SrcA slice: {}\n              SrcB slice: {}\n", d.srca_slice, d.srcb_slice);
    t += fmt::format("  diagnosis   [{}] {}\n", d.first_stage.empty() ? "unexplained" : d.first_stage, d.explanation);
    for (const std::string& other : d.also_consistent) t += "              also consistent with: " + other + "\n";
    if (!d.probe_departure.empty()) t += "  RTL stages  " + d.probe_departure + "\n";
    t += "  model stage values:\n" + indent(d.stage_values, "  ");
  }
  t += "  previous instructions (oldest first):\n";
  if (history_.empty()) t += "    (none)\n";
  for (const HistoryEntry& h : history_)
    t += fmt::format("    cycle {:>8}  t{}  {}  {}\n", h.cycle, h.thread, hex(h.word, 8), h.text);
  if (!m.replay_command.empty()) t += "  replay      " + m.replay_command + "\n";
  if (!m.replay_program.empty()) {
    if (!m.replay_path.empty()) {
      t += fmt::format("  no simulator: {} run {} --show dst\n", options_.tmu_command, m.replay_path);
      if (rc && !rc->replay_check.empty()) t += "              (replay program " + rc->replay_check + ")\n";
    } else {
      t += "  replay program (save it and run `tmu run FILE`)";
      if (rc && !rc->replay_check.empty()) t += ", " + rc->replay_check;
      t += ":\n" + indent(m.replay_program, "    | ");
    }
  }
  m.report = t;
}

}  // namespace tmu::tensix
