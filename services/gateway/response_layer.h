// Every response of the gateway goes through here: static files, API answers,
// errors, not-modified answers and event streams get their headers from this
// one function, so that the security headers and the CORS policy cannot be
// missed by a handler (the server adds only what HTTP itself needs: Date, the
// length or chunking, Connection).
//
// CORS: the public reads (ladders, leaderboards, games, replays, live games)
// may be read by any site's page, without credentials: the data is public,
// and a browser sends no cookie with a request that "*" answers. People's
// endpoints (sign-in, queue, play) carry no CORS header, so another site's
// page can neither read their answers nor send them JSON (that needs a
// preflight, which the gateway never answers: request_guard.h).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "services/gateway/api.h"

namespace metropolis::gateway {

enum class ResponseKind {
  kAnswer,       // an API answer or an error: `r` is the whole answer
  kFile,         // a file of the web app: `r` has its type, ETag and Cache-Control
  kNotModified,  // 304 for a file: `r` has its ETag and Cache-Control
  kEventStream,  // a live game's or a seat's server-sent events
};

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// Whether any site's page may read the answer for `path`.
bool IsPublicRead(std::string_view path);

// The headers of a response of `kind` for `path`.
HeaderList ResponseHeaders(ResponseKind kind, std::string_view path, const HttpResponse& r);

}  // namespace metropolis::gateway
