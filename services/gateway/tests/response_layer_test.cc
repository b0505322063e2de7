// Every kind of response carries the security headers and the CORS policy
// (response_layer.h); the server takes every header from here.
#include "services/gateway/response_layer.h"

#include <gtest/gtest.h>

#include <map>

#include "services/gateway/request_guard.h"

namespace metropolis::gateway {
namespace {

std::multimap<std::string, std::string> AsMap(const HeaderList& headers) { return {headers.begin(), headers.end()}; }

void ExpectSecurityHeadersOnce(const HeaderList& headers) {
  const auto map = AsMap(headers);
  for (const auto& [name, value] : SecurityHeaders()) {
    EXPECT_EQ(map.count(name), 1u) << name;
    if (map.count(name)) {
      EXPECT_EQ(map.find(name)->second, value) << name;
    }
  }
  EXPECT_EQ(map.count("Cache-Control"), 1u);
}

TEST(ResponseLayer, EveryKindCarriesTheSecurityHeaders) {
  HttpResponse file;
  file.content_type = "text/html; charset=utf-8";
  file.headers = {{"ETag", "\"abc\""}, {"Cache-Control", "no-cache"}};
  const HttpResponse error = ErrorResponse(MakeError(404, "NOT_FOUND", "no such game"));
  const HttpResponse answer = JsonResponse(200, {{"ok", true}});
  for (const auto& [kind, path, response] : std::vector<std::tuple<ResponseKind, std::string, HttpResponse>>{
           {ResponseKind::kFile, "/index.html", file},
           {ResponseKind::kNotModified, "/index.html", file},
           {ResponseKind::kAnswer, "/api/v1/ladders", answer},
           {ResponseKind::kAnswer, "/api/v1/games/nope", error},
           {ResponseKind::kAnswer, "/api/v1/session", error},
           {ResponseKind::kAnswer, "/nothing-here", error},
           {ResponseKind::kEventStream, "/api/v1/live/g1/events", {}},
           {ResponseKind::kEventStream, "/api/v1/play/g1/events", {}},
       }) {
    SCOPED_TRACE(path);
    ExpectSecurityHeadersOnce(ResponseHeaders(kind, path, response));
  }
}

TEST(ResponseLayer, PublicReadsAreOpenToAnySitePeoplesEndpointsToNone) {
  auto cors = [](ResponseKind kind, std::string_view path) {
    const auto map = AsMap(ResponseHeaders(kind, path, JsonResponse(200, {})));
    const auto it = map.find("Access-Control-Allow-Origin");
    return it == map.end() ? std::string("(none)") : it->second;
  };
  EXPECT_EQ(cors(ResponseKind::kAnswer, "/api/v1/ladders"), "*");
  EXPECT_EQ(cors(ResponseKind::kAnswer, "/api/v1/ladders/main/leaderboard"), "*");
  EXPECT_EQ(cors(ResponseKind::kEventStream, "/api/v1/live/g1/events"), "*");
  // Never a credentialed CORS answer: no site reads a person's data.
  EXPECT_EQ(cors(ResponseKind::kAnswer, "/api/v1/session"), "(none)");
  EXPECT_EQ(cors(ResponseKind::kAnswer, "/api/v1/session/signin"), "(none)");
  EXPECT_EQ(cors(ResponseKind::kAnswer, "/api/v1/queue"), "(none)");
  EXPECT_EQ(cors(ResponseKind::kAnswer, "/api/v1/practice"), "(none)");
  EXPECT_EQ(cors(ResponseKind::kEventStream, "/api/v1/play/g1/events"), "(none)");
  EXPECT_EQ(cors(ResponseKind::kFile, "/index.html"), "(none)");
  for (const auto& [name, value] : ResponseHeaders(ResponseKind::kAnswer, "/api/v1/ladders", {}))
    EXPECT_NE(name, "Access-Control-Allow-Credentials");
}

TEST(ResponseLayer, TypesAndCachingByKind) {
  const auto stream = AsMap(ResponseHeaders(ResponseKind::kEventStream, "/api/v1/live/g/events", {}));
  EXPECT_EQ(stream.find("Content-Type")->second, "text/event-stream");
  EXPECT_EQ(stream.find("Cache-Control")->second, "no-store");
  EXPECT_EQ(stream.count("X-Accel-Buffering"), 1u);

  // An answer that says nothing of caching is not cached; a file keeps its own.
  const auto answer = AsMap(ResponseHeaders(ResponseKind::kAnswer, "/api/v1/ladders", JsonResponse(200, {})));
  EXPECT_EQ(answer.find("Cache-Control")->second, "no-store");
  EXPECT_EQ(answer.find("Content-Type")->second, "application/json");
  HttpResponse file;
  file.content_type = "text/css";
  file.headers = {{"ETag", "\"e\""}, {"Cache-Control", "public, max-age=60"}};
  const auto css = AsMap(ResponseHeaders(ResponseKind::kFile, "/app.css", file));
  EXPECT_EQ(css.find("Cache-Control")->second, "public, max-age=60");
  EXPECT_EQ(css.find("ETag")->second, "\"e\"");
  // 304 carries no body, so no type.
  const auto not_modified = AsMap(ResponseHeaders(ResponseKind::kNotModified, "/app.css", file));
  EXPECT_EQ(not_modified.count("Content-Type"), 0u);
  EXPECT_EQ(not_modified.find("ETag")->second, "\"e\"");
}

}  // namespace
}  // namespace metropolis::gateway
