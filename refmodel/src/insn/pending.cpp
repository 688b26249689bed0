// Instructions whose execution model is being written: each reports Unsupported by name instead of
// doing anything. This file shrinks to nothing as the families land.
#include "handlers.h"

namespace tmu::insn {

namespace {
[[noreturn]] void not_modelled(ExecContext& ctx) { ctx.fail(ErrorKind::Unsupported, "execution model not written yet"); }
}  // namespace

void exec_mova2d(ExecContext& ctx) { not_modelled(ctx); }
void exec_movb2d(ExecContext& ctx) { not_modelled(ctx); }
void exec_movd2a(ExecContext& ctx) { not_modelled(ctx); }
void exec_movd2b(ExecContext& ctx) { not_modelled(ctx); }
void exec_movb2a(ExecContext& ctx) { not_modelled(ctx); }

}  // namespace tmu::insn
