// Lower-case hexadecimal of raw bytes: how digests, seeds, commitments,
// tokens, secrets and ids print everywhere in the project. In the engine, the
// bottom layer, so that every library and service shares this one copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace metropolis {

inline void AppendHex(std::string* out, const uint8_t* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out->reserve(out->size() + 2 * n);
  for (size_t i = 0; i < n; ++i) {
    out->push_back(kDigits[bytes[i] >> 4]);
    out->push_back(kDigits[bytes[i] & 15]);
  }
}

inline std::string HexOf(const uint8_t* bytes, size_t n) {
  std::string out;
  AppendHex(&out, bytes, n);
  return out;
}

inline std::string HexOf(std::string_view bytes) {
  return HexOf(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

// Whether `text` is nothing but lower-case hex digits (upper case is another
// spelling of the same bytes, which a digest compared as text must not have).
inline bool IsLowerHex(std::string_view text) {
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace metropolis
