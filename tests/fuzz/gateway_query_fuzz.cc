// What the gateway reads from a request line before anything else: the query
// string, %-escapes, the route and the ids in it (services/gateway/params.h).
// The first byte chooses what the rest is:
//
//   0   a query string: Query::Parse never crashes; a refusal has a message; an
//       accepted query gives back, for every name in it, a value without NUL,
//       and Int/Bool refuse or answer within their bounds
//   1   an escaped text: UrlDecode never crashes and never yields a NUL;
//       escaping the result again and decoding gives it back
//   2   a path: MatchRoute against the API's routes captures exactly one
//       non-empty, slash-free segment per "{}"; each id check agrees with the
//       id's definition, character by character
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/fuzz/fuzz_check.h"
#include "services/gateway/params.h"

namespace metropolis::gateway {
namespace {

void FuzzQuery(std::string_view raw) {
  Query q;
  ApiError error;
  if (!Query::Parse(raw, &q, &error)) {
    FUZZ_CHECK(!error.message.empty(), "a query refused without a message");
    return;
  }
  FUZZ_CHECK(raw.size() <= kMaxQueryLength, "accepted a query of " + std::to_string(raw.size()) + " bytes");
  for (std::string_view name : {"limit", "after", "q", "season", "ladder", "from_start", "a"}) {
    const std::string v = q.Get(name);
    FUZZ_CHECK(v.find('\0') == std::string::npos, "a value with a NUL");
    int64_t n = 0;
    ApiError e;
    if (q.Int(name, 7, -5, 100, &n, &e)) {
      FUZZ_CHECK(n >= -5 && n <= 100, "Int out of bounds: " + std::to_string(n));
      FUZZ_CHECK(q.Has(name) || n == 7, "Int without the parameter is not the fallback");
    } else {
      FUZZ_CHECK(!e.message.empty(), "Int refused without a message");
    }
    bool b = false;
    if (!q.Bool(name, true, &b, &e)) FUZZ_CHECK(!e.message.empty(), "Bool refused without a message");
  }
}

std::string Escape(std::string_view text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.') {
      out += char(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

void FuzzEscapes(std::string_view raw, bool plus_is_space) {
  std::string out;
  if (!UrlDecode(raw, plus_is_space, &out)) return;
  FUZZ_CHECK(out.find('\0') == std::string::npos, "decoded a NUL");
  std::string again;
  FUZZ_CHECK(UrlDecode(Escape(out), plus_is_space, &again), "its own escape does not decode");
  FUZZ_CHECK(again == out, "escape and decode changed the text");
}

bool AllOf(std::string_view s, std::string_view extra, bool first_lower_alnum) {
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = s[i];
    const bool ok = first_lower_alnum && i == 0 ? (std::islower(c) || std::isdigit(c))
                                                : (std::isalnum(c) || extra.find(char(c)) != std::string_view::npos);
    if (!ok || c >= 0x80) return false;
  }
  return true;
}

void FuzzPath(std::string_view path) {
  static const char* kRoutes[] = {"/api/v1/ladders/{}/leaderboard", "/api/v1/games/{}",
                                  "/api/v1/games/{}/steps/{}",      "/api/v1/players/{}",
                                  "/api/v1/tournaments/{}/games",   "/{}"};
  for (const char* route : kRoutes) {
    std::vector<std::string> captures;
    if (!MatchRoute(route, path, &captures)) continue;
    size_t holes = 0;
    for (std::string_view r = route; r.find("{}") != std::string_view::npos; r.remove_prefix(r.find("{}") + 2)) ++holes;
    FUZZ_CHECK(captures.size() == holes, std::string(route) + ": " + std::to_string(captures.size()) + " captures");
    for (const std::string& c : captures) FUZZ_CHECK(!c.empty() && c.find('/') == std::string::npos, c);
  }
  const bool lower_ascii = AllOf(path, "-_", true) && !path.empty() && path.size() <= 64;
  bool ladder_lower = lower_ascii;
  for (unsigned char c : path) ladder_lower = ladder_lower && !std::isupper(c);
  FUZZ_CHECK(ValidLadderId(path) == ladder_lower, "ValidLadderId disagrees on '" + std::string(path) + "'");
  FUZZ_CHECK(ValidGameId(path) == (!path.empty() && path.size() <= 64 && AllOf(path, "-_", false)),
             "ValidGameId disagrees on '" + std::string(path) + "'");
  FUZZ_CHECK(ValidPlayerName(path) == (!path.empty() && path.size() <= 64 && AllOf(path, "-_.", false)),
             "ValidPlayerName disagrees on '" + std::string(path) + "'");
  FUZZ_CHECK(ValidTournamentId(path) == (!path.empty() && path.size() <= 40 && AllOf(path, "-_", false)),
             "ValidTournamentId disagrees on '" + std::string(path) + "'");
}

}  // namespace
}  // namespace metropolis::gateway

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace metropolis::gateway;
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 3) {
    case 0:
      FuzzQuery(rest);
      break;
    case 1:
      FuzzEscapes(rest, data[0] & 0x80);
      break;
    default:
      FuzzPath(rest);
      break;
  }
  return 0;
}
