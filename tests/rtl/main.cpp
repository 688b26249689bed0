// Block-level RTL tests against the refmodel: tmu_rtl_blocks <block> [--seed N] [--cases N | --depth D]
// Blocks: fidelity_slice align_group_sum accum_normalize int8_sat_acc mvmul_element gpr_unit rwc mvmul_block src_regs
// dst_regs gmpool_unit all.
// Every run prints its seed; a mismatch is reproduced by passing that seed back.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "harness.h"

namespace {

struct Block {
  const char* name;
  int (*run)(tmu_rtl::Sim&, const tmu_rtl::Options&);
};

constexpr Block kBlocks[] = {
    {"fidelity_slice", tmu_rtl::test_fidelity_slice},
    {"align_group_sum", tmu_rtl::test_align_group_sum},
    {"accum_normalize", tmu_rtl::test_accum_normalize},
    {"int8_sat_acc", tmu_rtl::test_int8_sat_acc},
    {"mvmul_element", tmu_rtl::test_mvmul_element},
    {"gpr_unit", tmu_rtl::test_gpr_unit},
    {"rwc", tmu_rtl::test_rwc},
    {"mvmul_block", tmu_rtl::test_mvmul_block},
    {"src_regs", tmu_rtl::test_src_regs},
    {"dst_regs", tmu_rtl::test_dst_regs},
    {"gmpool_unit", tmu_rtl::test_gmpool_unit},
    {"mov_unit", tmu_rtl::test_mov_unit},
    {"elw_unit", tmu_rtl::test_elw_unit},
};

int usage(const char* argv0) {
  std::fprintf(stderr, "usage: %s <block|all> [--seed N] [--cases N | --depth D] [--verbose]\n"
               "  --depth D: 1/D of each random sweep's full count (exhaustive parts stay whole)\nblocks:", argv0);
  for (const Block& b : kBlocks) std::fprintf(stderr, " %s", b.name);
  std::fprintf(stderr, "\n");
  return 2;
}

bool parse_number(const char* text, uint64_t* out) {
  char* end = nullptr;
  *out = std::strtoull(text, &end, 0);
  return end && *end == '\0' && end != text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage(argv[0]);
  const std::string which = argv[1];
  tmu_rtl::Options opt;
  opt.seed = tmu::clock_seed();  // unless --seed gives one; printed either way
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--seed" || arg == "--cases" || arg == "--depth") && i + 1 < argc) {
      uint64_t v = 0;
      if (!parse_number(argv[++i], &v) || (arg == "--depth" && v == 0)) return usage(argv[0]);
      (arg == "--seed" ? opt.seed : arg == "--cases" ? opt.cases : opt.depth) = v;
    } else if (arg == "--verbose") {
      opt.verbose = true;
    } else {
      return usage(argv[0]);
    }
  }

  int status = 0;
  bool found = false;
  for (const Block& b : kBlocks) {
    if (which != "all" && which != b.name) continue;
    found = true;
    std::printf("%s: seed %llu (replay with --seed %llu)\n", b.name, static_cast<unsigned long long>(opt.seed),
                static_cast<unsigned long long>(opt.seed));
    if (opt.depth > 1 && !opt.cases)
      std::printf("%s: random sweeps at 1/%llu of their full depth (scripts/nightly.sh runs them whole)\n", b.name,
                  static_cast<unsigned long long>(opt.depth));
    std::fflush(stdout);
    const auto start = std::chrono::steady_clock::now();
    tmu_rtl::Sim sim;  // a fresh model per block
    status |= b.run(sim, opt);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::printf("%s: %.2f s\n", b.name, took.count());
  }
  if (!found) return usage(argv[0]);
  return status;
}
