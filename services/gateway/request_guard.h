// What every answer and every state-changing request of the gateway must carry,
// whatever the endpoint: the response headers that keep browsers from sniffing,
// framing or loading foreign content, and the checks that keep another site's
// page from posting to the gateway in a visitor's browser (cross-site sign-ups,
// login CSRF). The civetweb wiring (server.cc) applies them to every answer and
// every POST; the rules live here, where they are tested.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "services/gateway/params.h"

namespace metropolis::gateway {

// The headers every answer carries (pages, API answers, files, event streams).
const std::vector<std::pair<const char*, const char*>>& SecurityHeaders();

// A request that changes something (a POST of the play API). Its body must be
// JSON, declared as application/json: a form or text/plain is what another
// site's page can send without asking (no CORS preflight), and the gateway
// never answers a preflight. When the browser says where the request comes from
// (Origin), that must be this gateway's own host (Host). False with a 415 or 403.
struct PostHeaders {
  std::string_view content_type;  // empty: none
  std::string_view origin;        // empty: none (not a browser, or a same-origin GET)
  std::string_view host;          // the Host header
  bool has_body = false;
};
bool CheckPost(const PostHeaders& headers, ApiError* error);

}  // namespace metropolis::gateway
