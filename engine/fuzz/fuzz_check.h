// A check for fuzz targets: unlike assert it stays on in every build type, and it
// prints what was being checked before aborting so that libFuzzer records the input
// as a crash with a readable reason.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace metropolis::fuzz {

[[noreturn]] inline void Fail(const char* file, int line, const char* condition, const std::string& detail) {
  std::fprintf(stderr, "%s:%d: check failed: %s\n%s\n", file, line, condition, detail.c_str());
  std::abort();
}

}  // namespace metropolis::fuzz

// FUZZ_CHECK(condition, detail): detail is any expression convertible to std::string,
// evaluated only on failure.
#define FUZZ_CHECK(condition, detail)                                                                \
  do {                                                                                               \
    if (!(condition)) ::metropolis::fuzz::Fail(__FILE__, __LINE__, #condition, std::string(detail)); \
  } while (0)
