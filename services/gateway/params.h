// The gateway's request side, as plain functions: query strings, typed
// parameters with errors that name the parameter, path routes, and the ids the
// API accepts. Nothing here knows HTTP servers or gRPC.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace metropolis::gateway {

// What a client is told when a request fails: the HTTP status, a status name
// (the gRPC one when a backend answered), the message, and, when one is to
// blame, the parameter or the backend.
struct ApiError {
  int http = 400;
  std::string status = "INVALID_ARGUMENT";
  std::string message;
  std::string parameter;    // e.g. "limit"
  std::string backend;      // e.g. "ratings", for 502 and 503
  std::string grpc_status;  // the backend's status, e.g. "UNAVAILABLE"
};

ApiError MakeError(int http, std::string status, std::string message);
ApiError BadParameter(std::string parameter, std::string message);
ApiError NotFound(std::string message);

// The longest query string the API reads; browsers never need more.
inline constexpr size_t kMaxQueryLength = 2048;

// Decodes %XX escapes and, in query strings, '+' as a space. False for a
// malformed escape or a NUL, decoded or raw.
bool UrlDecode(std::string_view in, bool plus_is_space, std::string* out);

// `s` without the spaces and tabs around it (HTTP's optional whitespace).
std::string_view Trim(std::string_view s);

class Query {
 public:
  // "a=1&b=x%20y": every name at most once, each decoded. An empty value
  // ("a=" or "a") counts as given.
  static bool Parse(std::string_view raw, Query* out, ApiError* error);

  // Refuses a parameter the endpoint does not read, so a typo ("limt") is an
  // error rather than silently ignored.
  bool OnlyThese(std::initializer_list<std::string_view> allowed, ApiError* error) const;

  bool Has(std::string_view name) const { return values_.count(std::string(name)) > 0; }
  std::string Get(std::string_view name, std::string fallback = "") const;

  // An integer in [min, max], or `fallback` when absent.
  bool Int(std::string_view name, int64_t fallback, int64_t min, int64_t max, int64_t* out, ApiError* error) const;
  // "1", "true", "0", "false", or `fallback` when absent.
  bool Bool(std::string_view name, bool fallback, bool* out, ApiError* error) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

// Matches "/api/v1/ladders/{}/leaderboard" against a path: the same number of
// segments, literal segments equal, each "{}" one non-empty segment, captured
// in order. A trailing slash on the path is not accepted.
bool MatchRoute(std::string_view pattern, std::string_view path, std::vector<std::string>* captures);

// The ids of the API, as the services define them: a ladder (^[a-z0-9][a-z0-9_-]{0,63}$),
// a game (1 to 64 letters, digits, '-' or '_'), a player's name (1 to 64 letters,
// digits, '-', '_' or '.'), a tournament (1 to 40 letters, digits, '-' or '_', as the
// matchmaker's tournament store accepts them).
bool ValidLadderId(std::string_view id);
bool ValidGameId(std::string_view id);
bool ValidPlayerName(std::string_view name);
bool ValidTournamentId(std::string_view id);

}  // namespace metropolis::gateway
