// The Matrix Unit's fidelity levels and the sequence mistakes ("perturbations") its audit options
// can ask for: the audit rows' options and files, the LLK sequences (sequence.h) and the Python
// goldens all speak of them. In namespace tmu::audit, as the engines' audit rows are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tmu::audit {

// The mistakes public fidelity goldens have made (tt-llk #837, tt-metal #47239), as changes to the
// sequence. The audit's expectations never look at the perturbation.
struct Perturbation {
  enum class Kind : uint8_t {
    None,
    SkipPhase,    // the pass of `phase` is not run (the counter jumps over it): one pass fewer
    RepeatPhase,  // the counter does not advance after the pass of `phase`: it runs twice, the last phase not at all
    NegatePhase,  // the pass of `phase` runs with SrcB's signs flipped: its contribution is negated
    SwapOperands, // in0 goes to SrcA and in1 to SrcB (transposed, so the product is unchanged):
                  // SrcA's slicing is applied to in0's mantissas and SrcB's to in1's
  };
  Kind kind = Kind::None;
  unsigned phase = 0;
  friend bool operator==(const Perturbation&, const Perturbation&) = default;
};
std::string perturbation_name(const Perturbation& p);  // none skip2 repeat1 negate3 swap
std::optional<Perturbation> parse_perturbation(std::string_view text);
const char* fidelity_name(unsigned phases);  // LoFi HiFi2 HiFi3 HiFi4

}  // namespace tmu::audit
