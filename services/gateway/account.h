// The account page's endpoints (docs/GATEWAY.md, "Your account"), for the
// person signed in: their sessions, a new password that signs out every other
// session, and ending a session by its id. Passwords and sessions are the
// Accounts service's (People's ChangePassword, ListSessions and EndSession,
// proto/metropolis/v1/people.proto), reached through People (people.h), which
// checks the fields and counts wrong passwords as failed sign-ins. This is the
// logic only: unit-tested over the fake store (tests/play_api_test.cc).
#pragma once

#include <string>
#include <string_view>

#include "services/gateway/api.h"
#include "services/gateway/people.h"

namespace metropolis::gateway {

// Whether `path` is one of the endpoints below (any method).
bool IsAccountPath(std::string_view path);
// The route `path` is counted under in the metrics ("/api/v1/account/sessions/{}/end").
std::string AccountRoute(std::string_view path);
// The methods `path` takes ("GET, HEAD" or "POST"); empty for a path not of these.
std::string AccountMethods(std::string_view path);

// Answers a request of the person signed in with `session`:
//   GET  /api/v1/account                              the person and their sessions, newest first
//   POST /api/v1/account/password {"old_password", "new_password"}
//                                                     200 {"sessions_ended"}: the other sessions, signed out
//   POST /api/v1/account/sessions/{id}/end            200 {"signed_out"}: true when it was this one,
//                                                     whose cookie is then cleared, as at sign-out
// The method is checked by the caller. `address` is the client's, for the
// count of wrong passwords. Errors: 400 naming the field, 401 a wrong old
// password (parameter old_password), 404 a session not the person's, 429 too
// many wrong passwords, 503 the accounts unreachable.
HttpResponse HandleAccount(People* people, const Session& session, std::string_view path, std::string_view body,
                           const std::string& address, CookieTransport transport);

}  // namespace metropolis::gateway
