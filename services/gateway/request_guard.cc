#include "services/gateway/request_guard.h"

#include <cctype>
#include <string>

namespace metropolis::gateway {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "application/json", "application/json; charset=utf-8": the media type alone.
bool IsJson(std::string_view content_type) {
  const size_t semicolon = content_type.find(';');
  return Lower(Trim(content_type.substr(0, semicolon))) == "application/json";
}

// "https://play.example:8443" → "play.example:8443"; "" for anything else ("null").
std::string_view OriginHost(std::string_view origin) {
  for (std::string_view scheme : {"http://", "https://"})
    if (origin.substr(0, scheme.size()) == scheme) return origin.substr(scheme.size());
  return {};
}

}  // namespace

const std::vector<std::pair<const char*, const char*>>& SecurityHeaders() {
  // The web app is its own files only: no inline script, no foreign origin, and
  // never inside another site's frame. Inline styles stay allowed: the board's
  // SVG sets some.
  static const std::vector<std::pair<const char*, const char*>> headers = {
      {"X-Content-Type-Options", "nosniff"},
      {"X-Frame-Options", "DENY"},
      {"Content-Security-Policy",
       "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
      {"Referrer-Policy", "same-origin"},
  };
  return headers;
}

bool CheckPost(const PostHeaders& headers, ApiError* error) {
  if (!headers.origin.empty()) {
    const std::string_view from = OriginHost(headers.origin);
    if (from.empty() || Lower(from) != Lower(Trim(headers.host))) {
      *error = MakeError(403, "PERMISSION_DENIED",
                         "a request from another site (Origin " + std::string(headers.origin.substr(0, 80)) +
                             ") may not change anything here");
      return false;
    }
  }
  if (headers.has_body && !IsJson(headers.content_type)) {
    *error = MakeError(415, "UNSUPPORTED_MEDIA_TYPE",
                       "the body must be JSON, sent as Content-Type: application/json (not '" +
                           std::string(headers.content_type.substr(0, 80)) + "')");
    return false;
  }
  return true;
}

}  // namespace metropolis::gateway
