// tmu_tb's simulator-style command line (tb/run/run_args.h): the arguments are the input's lines.
// Plusargs are refused with a tmu::Error or translated: every other argument passes in its place,
// each plusarg becomes an option and its value; a verbosity name is read or refused without throwing.
// Each argument is also read as a number: accepted exactly when it is 1 to 20 decimal digits whose
// value fits (checked here by long division of the text, not by the parser's own loop).
#include "fuzz.h"
#include "run/run_args.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmu::fuzz;
  const std::string text = as_text(data, size);
  std::vector<std::string> args;
  for (size_t start = 0; start <= text.size();) {
    const size_t nl = std::min(text.find('\n', start), text.size());
    args.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  for (const std::string& a : args) must([&] { return tmu::tb::parse_verbosity(a); }, "parse_verbosity threw");
  for (const std::string& a : args) {
    const std::string why = tmu::tb::unsigned_refusal(a);
    const bool digits = !a.empty() && a.find_first_not_of("0123456789") == std::string::npos;
    const std::string trimmed = digits ? a.substr(std::min(a.find_first_not_of('0'), a.size() - 1)) : "";
    // 18446744073709551615 is the largest: compare as equal-length strings.
    const bool fits = digits && (trimmed.size() < 20 || (trimmed.size() == 20 && trimmed <= "18446744073709551615"));
    require(why.empty() == fits, "unsigned_refusal disagrees with the digits rule", a);
    if (fits) require(std::to_string(tmu::tb::parse_unsigned("x", a)) == trimmed, "parse_unsigned's value", a);
  }
  std::vector<std::string> out;
  if (!accepts([&] { out = tmu::tb::translate_plusargs(args); }, Refusal::ErrorOnly)) return 0;
  size_t j = 0;
  for (const std::string& a : args) {
    const bool plus = a.size() >= 2 && a[0] == '+';
    require(j + (plus ? 2 : 1) <= out.size(), "translated arguments end early", a);
    if (plus) {
      require(out[j].starts_with("--") && a.ends_with("=" + out[j + 1]), "plusarg translated to something else", a);
      j += 2;
    } else {
      require(out[j] == a, "a plain argument changed", a);
      j += 1;
    }
  }
  require(j == out.size(), "translated arguments have extra words");
  return 0;
}
