// The action's two outside forms on arbitrary input: the readable text
// (ParseAction) and the 64-bit code (Decode). Neither may crash; whatever they
// accept must survive every round trip between the struct, the text and the
// code, since replays store the text and the wire carries the code.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/action.h"
#include "engine/fuzz/fuzz_check.h"

namespace metropolis {
namespace {

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Struct -> text -> struct and struct -> code -> struct.
void CheckRoundTrips(const Action& a) {
  const std::string text = ActionToString(a);
  std::string error;
  const auto parsed = ParseAction(text, &error);
  FUZZ_CHECK(parsed.has_value(), "'" + text + "' does not parse back: " + error);
  FUZZ_CHECK(*parsed == a, "'" + text + "' parses to '" + ActionToString(*parsed) + "'");
  const uint64_t code = Encode(a);
  const auto decoded = Decode(code);
  FUZZ_CHECK(decoded.has_value(), "'" + text + "' encodes to " + Hex(code) + ", which does not decode");
  FUZZ_CHECK(*decoded == a, "'" + text + "' -> " + Hex(code) + " -> '" + ActionToString(*decoded) + "'");
}

}  // namespace
}  // namespace metropolis

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace metropolis;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (const auto a = ParseAction(text, &error)) {
    CheckRoundTrips(*a);
  } else {
    FUZZ_CHECK(!error.empty(), "'" + std::string(text) + "' refused without a message");
  }

  // The same bytes as little-endian codes, eight at a time.
  for (size_t i = 0; i + 8 <= size; i += 8) {
    uint64_t code = 0;
    for (int b = 0; b < 8; ++b) code |= uint64_t(data[i + b]) << (8 * b);
    if (const auto a = Decode(code)) {
      // Decode refuses bits the type does not define, so a code it accepts is canonical.
      FUZZ_CHECK(Encode(*a) == code,
                 Hex(code) + " decodes to '" + ActionToString(*a) + "', which encodes to " + Hex(Encode(*a)));
      CheckRoundTrips(*a);
    }
  }
  return 0;
}
