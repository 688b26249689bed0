#include "l1_access.h"

#include <algorithm>

#include <fmt/format.h>

namespace tmu::tensix::insn {

namespace {

void check_range(const ExecContext& ctx, uint64_t addr, uint64_t n, const char* what) {
  const uint64_t size = l1_size(ctx.arch());
  if (addr > size || n > size - addr)
    ctx.fail(ErrorKind::BadInput, fmt::format("{}: L1 bytes 0x{:x}..0x{:x} leave L1 (0x{:x} bytes on {})", what, addr,
                                              addr + n - (n ? 1 : 0), size, arch_name(ctx.arch())));
}

}  // namespace

std::vector<uint8_t> read_l1(const ExecContext& ctx, uint64_t addr, uint64_t n, const char* what) {
  check_range(ctx, addr, n, what);
  std::vector<uint8_t> out(n, 0);
  if (!ctx.s.L1.empty()) std::copy_n(ctx.s.L1.begin() + static_cast<ptrdiff_t>(addr), n, out.begin());
  return out;
}

void write_l1(ExecContext& ctx, uint64_t addr, std::span<const uint8_t> bytes, const char* what) {
  check_range(ctx, addr, bytes.size(), what);
  if (bytes.empty()) return;
  if (ctx.s.L1.empty()) ctx.s.L1.assign(l1_size(ctx.arch()), 0);
  std::copy(bytes.begin(), bytes.end(), ctx.s.L1.begin() + static_cast<ptrdiff_t>(addr));
  ctx.result.writes.note_l1_bytes(addr, bytes.size());
}

}  // namespace tmu::tensix::insn
