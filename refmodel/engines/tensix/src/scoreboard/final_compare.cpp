// End-of-test compare of the RTL's whole architectural state against the model's.
#include <string_view>

#include <fmt/format.h>

#include "scoreboard_internal.h"
#include "tmu/error.h"

namespace tmu::tensix {

using namespace sb_detail;

namespace {
// The Matrix Unit's bank pointers are Global fields but are reported with the rest of the bank state.
bool is_bank_pointer(const StateField& f) {
  return std::string_view(f.name) == "SrcABank" || std::string_view(f.name) == "SrcBBank";
}
}  // namespace

std::vector<Mismatch> Scoreboard::final_compare(const TensixState& rtl) {
  std::vector<Mismatch> out;
  compare_final(rtl, out);
  return out;
}

void Scoreboard::compare_final(const TensixState& rtl, std::vector<Mismatch>& out) {
  auto add = [&](MismatchLocation where, uint32_t expected, uint32_t actual, std::string expected_text,
                 std::string actual_text) {
    Mismatch m;
    m.kind = MismatchKind::FinalState;
    m.where = std::move(where);
    m.expected = expected;
    m.actual = actual;
    m.expected_text = std::move(expected_text);
    m.actual_text = std::move(actual_text);
    record(out, std::move(m), nullptr);
  };

  if (rtl.arch != model_.arch) {
    add(MismatchLocation{Target::Config, 0, 0, 0, 0, 0, "arch", "architecture"}, 0, 0, arch_name(model_.arch),
        arch_name(rtl.arch));
  }

  // Configuration, field by field under the ISA's names.
  auto compare_scope = [&](FieldScope scope, unsigned threads, unsigned indices, const char* what) {
    for (const StateField& f : state_fields(scope))
      for (unsigned t = 0; t < threads; ++t)
        for (unsigned i = 0; i < indices; ++i) {
          const uint32_t e = f.get(model_, t, i), a = f.get(rtl, t, i);
          if (e == a || is_bank_pointer(f)) continue;
          std::string place = fmt::format("{} {}", what, f.name);
          if (scope == FieldScope::Config) place = fmt::format("Config[{}].{}", i, f.name);
          if (scope == FieldScope::ThreadConfig) place = fmt::format("ThreadConfig[{}].{}", t, f.name);
          if (scope == FieldScope::AddrMod) place = fmt::format("ThreadConfig[{}] ADDR_MOD slot {} {}", t, i, f.name);
          add(MismatchLocation{Target::Config, t, 0, 0, 0, i, f.name, place}, e, a, std::to_string(e), std::to_string(a));
        }
  };
  compare_scope(FieldScope::Config, 1, kNumConfigStates, "Config");
  compare_scope(FieldScope::ThreadConfig, kNumThreads, 1, "ThreadConfig");
  compare_scope(FieldScope::AddrMod, kNumThreads, kNumAddrMods, "ADDR_MOD");
  compare_scope(FieldScope::Global, 1, 1, "global");

  for (unsigned t = 0; t < kNumThreads; ++t) {
    std::string names;
    const std::string diff = rwc_difference(model_.RWCs[t], rtl.RWCs[t], &names);
    if (!diff.empty())
      add(MismatchLocation{Target::Rwc, t, 0, 0, 0, 0, names, fmt::format("RWCs of thread {}: {}", t, diff)}, 0, 0,
          rwc_text(model_.RWCs[t]), rwc_text(rtl.RWCs[t]));
    for (unsigned g = 0; g < kNumGprs; ++g) {
      const uint32_t e = model_.GPRs[t][g], a = rtl.GPRs[t][g];
      if (e != a)
        add(MismatchLocation{Target::Gpr, t, 0, 0, 0, g, "", fmt::format("GPR {} of thread {}", g, t)}, e, a,
            fmt::format("{} ({})", hex(e, 8), e), fmt::format("{} ({})", hex(a, 8), a));
    }
  }

  {
    std::string names;
    const ObservedBanks e = banks_of(model_), a = banks_of(rtl);
    const std::string diff = banks_difference(e, a, &names);
    if (!diff.empty())
      add(MismatchLocation{Target::Banks, 0, 0, 0, 0, 0, names, "bank state: " + diff}, 0, 0, banks_text(e), banks_text(a));
  }

  for (unsigned op = 0; op < 2; ++op) {
    const auto operand = static_cast<SrcOperand>(op);
    const Target target = op == 0 ? Target::SrcA : Target::SrcB;
    const auto& mb = op == 0 ? model_.SrcA : model_.SrcB;
    const auto& rb = op == 0 ? rtl.SrcA : rtl.SrcB;
    for (unsigned b = 0; b < kSrcBanks; ++b) {
      if (mb[b].Format != rb[b].Format)
        add(MismatchLocation{target, 0, b, 0, 0, 0, "Format", fmt::format("{} bank {} format tag", src_operand_name(operand), b)},
            static_cast<uint32_t>(mb[b].Format), static_cast<uint32_t>(rb[b].Format), data_format_name(mb[b].Format),
            data_format_name(rb[b].Format));
      const SrcStyle style = active_src_style(model_, operand, b, 0);
      for (unsigned r = 0; r < kSrcRows; ++r)
        for (unsigned c = 0; c < kSrcCols; ++c) {
          const uint32_t e = mb[b].Rows[r][c], a = rb[b].Rows[r][c];
          if (e != a)
            add(MismatchLocation{target, 0, b, r, c, 0, "",
                                 fmt::format("{} bank {} row {} col {}", src_operand_name(operand), b, r, c)},
                e, a, describe_src_datum(e, style), describe_src_datum(a, style));
        }
    }
  }

  for (unsigned row = 0; row < kDstRows; ++row) {
    const bool ev = model_.Dst.RowValid[row], av = rtl.Dst.RowValid[row];
    if (ev != av)
      add(MismatchLocation{Target::DstValidity, 0, 0, row, 0, 0, "", fmt::format("validity of DstBits row {}", row)}, ev,
          av, ev ? "valid" : "invalid", av ? "valid" : "invalid");
    if (!ev && !av && !options_.compare_invalid_dst_bits) continue;
    const DstView& view = dst_views_[row];
    const uint32_t partner = dst32_partner_row(row);
    const bool low = dst32_place_of_storage_row(row).low_half;
    for (unsigned c = 0; c < kDstCols; ++c) {
      const uint16_t e16 = model_.Dst.DstBits[row][c], a16 = rtl.Dst.DstBits[row][c];
      if (e16 == a16) continue;
      const uint32_t e = dst_element_value(e16, model_.Dst.DstBits[partner][c], low, view);
      const uint32_t a = dst_element_value(a16, rtl.Dst.DstBits[partner][c], low, view);
      add(MismatchLocation{Target::Dst, 0, 0, row, c, 0, "",
                           dst_location_text(row, c, view) + (ev ? "" : ", an invalid row")},
          e, a, describe_dst_element(e, view), describe_dst_element(a, view));
    }
  }
}

std::vector<Mismatch> Scoreboard::compare_dst_read(unsigned row, bool dst32,
                                                   const std::array<uint32_t, 8 * kDstCols>& lanes) {
  const unsigned rows_in_view = dst32 ? kDstRows / 2 : kDstRows;
  if (row >= rows_in_view || row % 8 != 0)
    throw Error(ErrorKind::BadInput, fmt::format("Dst read window at row {} of the {}-bit view: it must be a multiple "
                                                 "of 8 below {}", row, dst32 ? 32 : 16, rows_in_view));
  std::vector<Mismatch> out;
  DstView view;
  view.dst32 = dst32;
  for (unsigned k = 0; k < 8; ++k) {
    const unsigned r = row + k;
    const unsigned high = dst32 ? DstRegs::hi_row(r) : r;  // the storage row that carries validity
    for (unsigned c = 0; c < kDstCols; ++c) {
      uint32_t expected = 0;
      if (model_.Dst.RowValid[high]) {
        expected = model_.Dst.DstBits[high][c];
        if (dst32) expected = (expected << 16) | model_.Dst.DstBits[DstRegs::lo_row(r)][c];
      }
      const uint32_t actual = lanes[k * kDstCols + c];
      if (expected == actual) continue;
      Mismatch m;
      m.kind = MismatchKind::FinalState;
      m.where = MismatchLocation{Target::Dst, 0, 0, high, c, 0, "read port",
                                 fmt::format("Dst read port, {} row {} col {} (DstBits row {}{})",
                                             dst32 ? "Dst32b" : "Dst16b", r, c, high,
                                             model_.Dst.RowValid[high] ? "" : ", invalid: reads as 0")};
      m.expected = expected;
      m.actual = actual;
      m.expected_text = hex(expected, 8);
      m.actual_text = hex(actual, 8);
      record(out, std::move(m), nullptr);
    }
  }
  return out;
}

}  // namespace tmu::tensix
