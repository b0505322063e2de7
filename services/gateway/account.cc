#include "services/gateway/account.h"

#include <algorithm>
#include <vector>

#include "services/gateway/bodies.h"

namespace metropolis::gateway {
namespace {

constexpr std::string_view kAccount = "/api/v1/account", kPassword = "/api/v1/account/password",
                           kEnd = "/api/v1/account/sessions/{}/end";

Json SessionToJson(const SessionInfo& s) {
  return {{"id", s.id}, {"created_at", s.created_unix_ms}, {"expires_at", s.expires_unix_ms}, {"current", s.current}};
}

}  // namespace

bool IsAccountPath(std::string_view path) { return !AccountRoute(path).empty(); }

std::string AccountRoute(std::string_view path) {
  std::vector<std::string> args;
  if (path == kAccount || path == kPassword) return std::string(path);
  if (MatchRoute(kEnd, path, &args)) return std::string(kEnd);
  return "";
}

std::string AccountMethods(std::string_view path) {
  const std::string route = AccountRoute(path);
  if (route.empty()) return "";
  return route == kAccount ? "GET, HEAD" : "POST";
}

HttpResponse HandleAccount(People* people, const Session& session, std::string_view path, std::string_view body,
                           const std::string& address, CookieTransport transport) {
  ApiError error;
  std::vector<std::string> args;
  if (path == kAccount) {
    std::vector<SessionInfo> sessions;
    if (!people->ListSessions(session, &sessions, &error)) return ErrorResponse(error);
    Json list = Json::array();
    for (const SessionInfo& s : sessions) list.push_back(SessionToJson(s));
    return JsonResponse(200, {{"player", {{"id", session.person.id}, {"name", session.person.name}}},
                              {"expires_at", session.expires_unix_ms},
                              {"sessions", list}});
  }
  if (path == kPassword) {
    std::string old_password, new_password;
    int ended = 0;
    if (!ReadPasswordChange(body, &old_password, &new_password, &error) ||
        !people->ChangePassword(session, old_password, new_password, address, &ended, &error)) {
      HttpResponse r = ErrorResponse(error);
      if (error.http == 429) {
        const int64_t wait_ms = people->SignInRetryAfterMs(session.person.name, address);
        r.headers.push_back({"Retry-After", std::to_string(std::max<int64_t>(1, (wait_ms + 999) / 1000))});
      }
      return r;
    }
    return JsonResponse(200, {{"sessions_ended", ended}});
  }
  if (MatchRoute(kEnd, path, &args)) {
    bool signed_out = false;
    if (!ReadNothing(body, &error) || !people->EndSession(session, args[0], &signed_out, &error))
      return ErrorResponse(error);
    HttpResponse r = JsonResponse(200, {{"signed_out", signed_out}});
    if (signed_out) r.headers.push_back({"Set-Cookie", ClearedSessionCookie(transport)});
    return r;
  }
  return ErrorResponse(NotFound("no endpoint " + std::string(path.substr(0, 200))));
}

}  // namespace metropolis::gateway
