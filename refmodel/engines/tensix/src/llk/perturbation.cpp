// Names of the fidelity levels and of the perturbations (perturbation.h).
#include "tmu/tensix/llk/perturbation.h"

#include <cctype>
#include <utility>

#include <fmt/format.h>

namespace tmu::audit {

std::string perturbation_name(const Perturbation& p) {
  switch (p.kind) {
    case Perturbation::Kind::None: return "none";
    case Perturbation::Kind::SkipPhase: return fmt::format("skip{}", p.phase);
    case Perturbation::Kind::RepeatPhase: return fmt::format("repeat{}", p.phase);
    case Perturbation::Kind::NegatePhase: return fmt::format("negate{}", p.phase);
    case Perturbation::Kind::SwapOperands: return "swap";
  }
  return "?";
}

std::optional<Perturbation> parse_perturbation(std::string_view text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "none") return Perturbation{};
  if (t == "swap") return Perturbation{Perturbation::Kind::SwapOperands, 0};
  const std::pair<const char*, Perturbation::Kind> kinds[] = {{"skip", Perturbation::Kind::SkipPhase},
                                                              {"repeat", Perturbation::Kind::RepeatPhase},
                                                              {"negate", Perturbation::Kind::NegatePhase}};
  for (const auto& [name, kind] : kinds) {
    const std::string n = name;
    // The phase counter starts at 0, so the first pass cannot be jumped over: skip takes 1..3.
    const char lowest = kind == Perturbation::Kind::SkipPhase ? '1' : '0';
    if (t.size() == n.size() + 1 && t.rfind(n, 0) == 0 && t.back() >= lowest && t.back() <= '3')
      return Perturbation{kind, static_cast<unsigned>(t.back() - '0')};
  }
  return std::nullopt;
}

const char* fidelity_name(unsigned phases) {
  switch (phases) {
    case 1: return "LoFi";
    case 2: return "HiFi2";
    case 3: return "HiFi3";
    case 4: return "HiFi4";
  }
  return "?";
}

}  // namespace tmu::audit
