// For test programs that call libtmu_dpi.so's C functions as a simulator does, with no simulator:
// the tmu_eng_* prototypes (tb/dpi/tmu_dpi.svh declares them to SystemVerilog) and the three svdpi
// open-array calls the library takes from its host, here over a std::vector<uint32_t> passed as the
// handle. Include it in one file of the program; link with ENABLE_EXPORTS or -rdynamic so that the
// library finds the sv* calls.
#pragma once

#include <cstdint>
#include <vector>

extern "C" {
using svOpenArrayHandle = void*;
void* tmu_eng_create(const char* engine, const char* variant, const char* test_name, unsigned long long seed);
int tmu_eng_declare(void* h, const char* text);
int tmu_eng_load(void* h, const char* location, const svOpenArrayHandle words);
int tmu_eng_execute(void* h, const char* operation);
int tmu_eng_compare(void* h, const char* location, const svOpenArrayHandle words);
unsigned long long tmu_eng_mismatch_count(void* h);
const char* tmu_eng_report(void* h);
const char* tmu_eng_last_error(void* h);
void tmu_eng_destroy(void* h);

int svLow(const svOpenArrayHandle, int) { return 0; }
int svSize(const svOpenArrayHandle h, int) { return static_cast<int>(static_cast<std::vector<uint32_t>*>(h)->size()); }
void* svGetArrElemPtr1(const svOpenArrayHandle h, int i) { return static_cast<std::vector<uint32_t>*>(h)->data() + i; }
}
