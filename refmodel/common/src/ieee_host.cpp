// The probes of the host's floating-point environment.
#include "tmu/ieee_host.h"

#include <bit>
#include <limits>

namespace tmu::ieee::host {

namespace {

// Read back through volatile so that the compiler computes the probes at run time, in the
// environment of the moment.
template <typename T>
T at_run_time(T v) {
  volatile T held = v;
  return held;
}

// One and a half of ulp(1) / 2 added to +-1: to nearest gives +-(1 + ulp); toward zero gives +-1;
// toward plus infinity gets the negative one wrong, toward minus infinity the positive one.
template <typename T>
bool rounds_to_nearest() {
  const T one = at_run_time(T(1)), three_quarter_ulp = at_run_time(std::numeric_limits<T>::epsilon() * T(0.75));
  const T up = one + std::numeric_limits<T>::epsilon();
  return at_run_time(one + three_quarter_ulp) == up && at_run_time(-one - three_quarter_ulp) == -up;
}

// The smallest subnormal times one, compared as bits: DAZ reads the operand as zero, FTZ writes the
// result as zero (and either would make a float comparison of the two equal).
template <typename T, typename Bits>
bool keeps_subnormals() {
  const T tiny = at_run_time(std::numeric_limits<T>::denorm_min());
  return std::bit_cast<Bits>(at_run_time(tiny * at_run_time(T(1)))) == 1;
}

}  // namespace

bool environment_is_default() {
  return rounds_to_nearest<double>() && rounds_to_nearest<float>() && keeps_subnormals<double, uint64_t>() &&
         keeps_subnormals<float, uint32_t>();
}

}  // namespace tmu::ieee::host
