#include "services/gateway/params.h"

#include <algorithm>
#include <cctype>

#include "lib/flags/flags.h"

namespace metropolis::gateway {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

bool IdChars(std::string_view s, size_t max, std::string_view extra) {
  if (s.empty() || s.size() > max) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || extra.find(c) != std::string_view::npos;
  });
}

// What a client sees of a value in an error: short and printable.
std::string Shown(std::string_view v) {
  std::string out;
  for (char c : v.substr(0, 40)) out.push_back(std::isprint(static_cast<unsigned char>(c)) ? c : '?');
  if (v.size() > 40) out += "...";
  return out;
}

}  // namespace

ApiError MakeError(int http, std::string status, std::string message) {
  ApiError e;
  e.http = http;
  e.status = std::move(status);
  e.message = std::move(message);
  return e;
}

ApiError BadParameter(std::string parameter, std::string message) {
  ApiError e;
  e.http = 400;
  e.status = "INVALID_ARGUMENT";
  e.message = parameter + ": " + message;
  e.parameter = std::move(parameter);
  return e;
}

ApiError NotFound(std::string message) {
  ApiError e;
  e.http = 404;
  e.status = "NOT_FOUND";
  e.message = std::move(message);
  return e;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool UrlDecode(std::string_view in, bool plus_is_space, std::string* out) {
  out->clear();
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = HexValue(in[i + 1]);
      const int lo = HexValue(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      const char decoded = char(hi * 16 + lo);
      if (decoded == '\0') return false;
      out->push_back(decoded);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out->push_back(' ');
    } else if (c == '\0') {
      return false;  // as a decoded one: a NUL would cut the text short further on
    } else {
      out->push_back(c);
    }
  }
  return true;
}

bool Query::Parse(std::string_view raw, Query* out, ApiError* error) {
  out->values_.clear();
  if (raw.size() > kMaxQueryLength) {
    *error = BadParameter("query", "longer than " + std::to_string(kMaxQueryLength) + " bytes");
    error->http = 414;
    return false;
  }
  if (raw.empty()) return true;
  for (std::string_view pair : Split(raw, '&')) {
    if (pair.empty()) continue;  // "a=1&&b=2", or a trailing '&'
    const size_t eq = pair.find('=');
    std::string name, value;
    if (!UrlDecode(pair.substr(0, eq), true, &name) || name.empty()) {
      *error = BadParameter("query", "malformed parameter name '" + Shown(pair.substr(0, eq)) + "'");
      return false;
    }
    if (eq != std::string_view::npos && !UrlDecode(pair.substr(eq + 1), true, &value)) {
      *error = BadParameter(name, "malformed %-escape in '" + Shown(pair.substr(eq + 1)) + "'");
      return false;
    }
    if (!out->values_.emplace(name, std::move(value)).second) {
      *error = BadParameter(name, "given more than once");
      return false;
    }
  }
  return true;
}

bool Query::OnlyThese(std::initializer_list<std::string_view> allowed, ApiError* error) const {
  for (const auto& [name, value] : values_) {
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
    std::string known;
    for (std::string_view a : allowed) known += (known.empty() ? "" : ", ") + std::string(a);
    *error =
        BadParameter(Shown(name), "unknown parameter (this endpoint reads " + (known.empty() ? "none" : known) + ")");
    return false;
  }
  return true;
}

std::string Query::Get(std::string_view name, std::string fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

bool Query::Int(std::string_view name, int64_t fallback, int64_t min, int64_t max, int64_t* out,
                ApiError* error) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    *out = fallback;
    return true;
  }
  if (!cli::ParseInt(it->second, min, max, out)) {
    *error = BadParameter(std::string(name), "'" + Shown(it->second) + "' is not an integer in " + std::to_string(min) +
                                                 ".." + std::to_string(max));
    return false;
  }
  return true;
}

bool Query::Bool(std::string_view name, bool fallback, bool* out, ApiError* error) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    *out = fallback;
    return true;
  }
  if (it->second == "1" || it->second == "true") {
    *out = true;
  } else if (it->second == "0" || it->second == "false") {
    *out = false;
  } else {
    *error = BadParameter(std::string(name), "'" + Shown(it->second) + "' is not 1, true, 0 or false");
    return false;
  }
  return true;
}

bool MatchRoute(std::string_view pattern, std::string_view path, std::vector<std::string>* captures) {
  captures->clear();
  const std::vector<std::string_view> want = Split(pattern, '/');
  const std::vector<std::string_view> have = Split(path, '/');
  if (want.size() != have.size()) return false;
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] == "{}") {
      if (have[i].empty()) return false;
      captures->emplace_back(have[i]);
    } else if (want[i] != have[i]) {
      return false;
    }
  }
  return true;
}

bool ValidLadderId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!lower_or_digit(id[0])) return false;
  return std::all_of(id.begin(), id.end(), [&](char c) { return lower_or_digit(c) || c == '_' || c == '-'; });
}

bool ValidGameId(std::string_view id) { return IdChars(id, 64, "-_"); }

bool ValidPlayerName(std::string_view name) { return IdChars(name, 64, "-_."); }

bool ValidTournamentId(std::string_view id) { return IdChars(id, 40, "-_"); }

}  // namespace metropolis::gateway
