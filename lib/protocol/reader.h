// Internal to the protocol library: reading numbers out of untrusted messages
// into the engine's narrow fields. A value that does not fit is an error, never
// a silent truncation (a seat 260 must not become seat 4 as a uint8_t).
#pragma once

#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace metropolis::protocol::internal {

// The allowed values of a field and what to call them in an error:
// "9 is not a seat (-1..3)", or without a noun "7 is not one of 0..2".
struct Range {
  int64_t lo, hi;
  std::string_view noun = {};
};

inline constexpr Range kByte{0, 255};

// "code 0x0a00000000000000 names no action of rules version 1".
inline std::string UnknownCode(uint64_t code, int rules_version) {
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%016" PRIx64, code);
  return std::string("code ") + hex + " names no action of rules version " + std::to_string(rules_version);
}

// A field's path in an error message, joined only when there is an error:
// reading a view checks hundreds of fields, and building each path as a
// string would cost more than the checks.
class Path {
 public:
  Path(const char* path) : prefix_(path) {}         // NOLINT: implicit by design
  Path(const std::string& path) : prefix_(path) {}  // NOLINT
  Path(std::string_view prefix, std::string_view name) : prefix_(prefix), name_(name) {}
  std::string str() const { return std::string(prefix_) + std::string(name_); }

 private:
  std::string_view prefix_, name_;
};

// Keeps the first problem found, named by its field's path; after one, every
// further read fails at once, so a whole message can be read and checked once.
class Reader {
 public:
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  bool Fail(const Path& path, std::string_view message) { return FailWith(path.str() + ": " + std::string(message)); }
  // For a message that already names its field (the engine's own checks).
  bool FailWith(std::string message) {
    if (ok()) error_ = std::move(message);
    return false;
  }

  // *out = v if v is in `range`.
  template <typename T>
  bool Int(const Path& path, int64_t v, const Range& range, T* out) {
    if (!ok()) return false;
    if (v < range.lo || v > range.hi) return Fail(path, std::to_string(v) + " is not " + RangeText(range));
    *out = static_cast<T>(v);
    return true;
  }

  // Exactly `n` values of `list`, each in `range`, into out[0..n).
  template <typename List, typename Out>
  bool Ints(const Path& path, const List& list, size_t n, const Range& range, Out* out) {
    if (!Length(path, size_t(list.size()), n)) return false;
    for (size_t i = 0; i < n; ++i) {
      if (list[int(i)] < range.lo || list[int(i)] > range.hi)
        return Fail(path.str() + "[" + std::to_string(i) + "]",
                    std::to_string(list[int(i)]) + " is not " + RangeText(range));
      (*out)[i] = static_cast<std::remove_reference_t<decltype((*out)[i])>>(list[int(i)]);
    }
    return true;
  }

  bool Length(const Path& path, size_t size, size_t expected) {
    if (!ok()) return false;
    if (size == expected) return true;
    return Fail(path, std::to_string(size) + " values, expected " + std::to_string(expected));
  }

  bool MaxLength(const Path& path, size_t size, size_t max) {
    if (!ok()) return false;
    if (size <= max) return true;
    return Fail(path, std::to_string(size) + " values, at most " + std::to_string(max) + " allowed");
  }

 private:
  static std::string RangeText(const Range& r) {
    const std::string span = std::to_string(r.lo) + ".." + std::to_string(r.hi);
    return r.noun.empty() ? "one of " + span : std::string(r.noun) + " (" + span + ")";
  }

  std::string error_;
};

}  // namespace metropolis::protocol::internal
