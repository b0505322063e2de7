#include "services/gateway/people.h"

#include <stdexcept>

#include "engine/hex.h"
#include "lib/auth/token.h"
#include "lib/common/secret.h"
#include "services/gateway/json.h"

namespace metropolis::gateway {
namespace {

// One message for an unknown name and a wrong password: the answer must not
// tell which names exist.
constexpr char kWrongNameOrPassword[] = "wrong name or password";
// The People service's answer to a wrong old password (ChangePassword).
constexpr char kWrongPassword[] = "wrong password";

bool Fail(ApiError* error, ApiError e) {
  *error = std::move(e);
  return false;
}

ApiError NotSignedIn() { return MakeError(401, "UNAUTHENTICATED", "not signed in"); }

// Names compare in any letter case, so "Alice" and "alice" share a count.
std::string LimiterKey(const std::string& name, const std::string& address) {
  std::string key;
  for (char c : name) key += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return key + "|" + address;
}

}  // namespace

std::string NewSessionToken() { return services::RandomSecretHex(32); }

ApiError StoreError(const grpc::Status& status) { return BackendError(status, "accounts"); }

int64_t SignInLimiter::RetryAfterMs(const std::string& key, int64_t now) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return 0;
  const int64_t window_end = it->second.window_start + options_.window.count();
  if (now >= window_end) {
    entries_.erase(it);
    return 0;
  }
  return it->second.failures >= options_.max_failures ? window_end - now : 0;
}

void SignInLimiter::Failed(const std::string& key, int64_t now) {
  std::lock_guard lock(mutex_);
  if (entries_.size() >= options_.max_entries && !entries_.count(key)) entries_.clear();
  Entry& e = entries_[key];
  if (e.failures == 0 || now >= e.window_start + options_.window.count()) e = {now, 0};
  ++e.failures;
}

void SignInLimiter::Succeeded(const std::string& key) {
  std::lock_guard lock(mutex_);
  entries_.erase(key);
}

People::People(PeopleStore* store, const services::Clock* clock, TokenSource tokens, PeopleOptions options)
    : store_(store), clock_(clock), tokens_(std::move(tokens)), options_(options), limiter_(options.limiter) {}

bool People::SignUp(const std::string& name, const std::string& password, Session* out, std::string* cookie_token,
                    ApiError* error) {
  if (!ValidPlayerName(name))
    return Fail(error, BadParameter("name", "'" + name.substr(0, 80) +
                                                "' is not a name (1 to 64 letters, digits, '-', '_' or '.')"));
  if (password.size() < kMinPasswordBytes || password.size() > kMaxPasswordBytes)
    return Fail(error, BadParameter("password", "must be " + std::to_string(kMinPasswordBytes) + " to " +
                                                    std::to_string(kMaxPasswordBytes) + " bytes, not " +
                                                    std::to_string(password.size())));
  Person person;
  const grpc::Status s = store_->CreatePerson(name, password, &person);
  if (s.error_code() == grpc::StatusCode::ALREADY_EXISTS) {
    ApiError e = MakeError(409, "ALREADY_EXISTS", "name: '" + name + "' is taken");
    e.parameter = "name";
    return Fail(error, e);
  }
  if (!s.ok()) return Fail(error, StoreError(s));
  return StartSession(person, out, cookie_token, error);
}

bool People::SignIn(const std::string& name, const std::string& password, const std::string& address, Session* out,
                    std::string* cookie_token, ApiError* error) {
  const std::string key = LimiterKey(name, address);
  if (const int64_t wait = limiter_.RetryAfterMs(key, clock_->UnixMillis()); wait > 0) {
    return Fail(error, MakeError(429, "RESOURCE_EXHAUSTED",
                                 "too many failed sign-ins for this name from this address; try again in " +
                                     std::to_string((wait + 999) / 1000) + " s"));
  }
  Person person;
  // The People service answers an unknown name and a wrong password alike, at
  // the same cost (its hashes never come here). Its other UNAUTHENTICATED, a
  // gateway token it does not know, is the gateway's fault, not the person's.
  const grpc::Status s = store_->CheckPassword(name, password, &person);
  const bool wrong = s.error_code() == grpc::StatusCode::UNAUTHENTICATED && s.error_message() == kWrongNameOrPassword;
  if (!s.ok() && !wrong) return Fail(error, StoreError(s));
  if (wrong) {
    limiter_.Failed(key, clock_->UnixMillis());
    return Fail(error, MakeError(401, "UNAUTHENTICATED", kWrongNameOrPassword));
  }
  limiter_.Succeeded(key);
  return StartSession(person, out, cookie_token, error);
}

int64_t People::SignInRetryAfterMs(const std::string& name, const std::string& address) {
  return limiter_.RetryAfterMs(LimiterKey(name, address), clock_->UnixMillis());
}

bool People::StartSession(const Person& person, Session* out, std::string* cookie_token, ApiError* error) {
  const std::string token = tokens_();
  Session session{person, auth::Sha256(token), clock_->UnixMillis() + options_.session_ttl.count()};
  const grpc::Status s = store_->CreateSession(session.token_sha256, person.id, session.expires_unix_ms);
  if (!s.ok()) return Fail(error, StoreError(s));
  *out = std::move(session);
  *cookie_token = token;
  return true;
}

bool People::Authenticate(std::string_view cookie_token, Session* out, ApiError* error) {
  // A cookie of another shape was never issued: no lookup needed.
  if (cookie_token.size() != 64 || !IsLowerHex(cookie_token)) return Fail(error, NotSignedIn());
  const grpc::Status s = store_->FindSession(auth::Sha256(cookie_token), clock_->UnixMillis(), out);
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) return Fail(error, NotSignedIn());
  if (!s.ok()) return Fail(error, StoreError(s));
  return true;
}

bool People::SignOut(const Session& session, ApiError* error) {
  const grpc::Status s = store_->DeleteSession(session.token_sha256);
  if (!s.ok() && s.error_code() != grpc::StatusCode::NOT_FOUND) return Fail(error, StoreError(s));
  return true;
}

bool People::ChangePassword(const Session& session, const std::string& old_password, const std::string& new_password,
                            const std::string& address, int* ended, ApiError* error) {
  if (old_password.empty()) return Fail(error, BadParameter("old_password", "required"));
  if (new_password.size() < kMinPasswordBytes || new_password.size() > kMaxPasswordBytes)
    return Fail(error, BadParameter("new_password", "must be " + std::to_string(kMinPasswordBytes) + " to " +
                                                        std::to_string(kMaxPasswordBytes) + " bytes, not " +
                                                        std::to_string(new_password.size())));
  // Guessing the password here is guessing it at sign-in: one count for both.
  const std::string key = LimiterKey(session.person.name, address);
  if (const int64_t wait = limiter_.RetryAfterMs(key, clock_->UnixMillis()); wait > 0) {
    return Fail(error, MakeError(429, "RESOURCE_EXHAUSTED",
                                 "too many wrong passwords for this name from this address; try again in " +
                                     std::to_string((wait + 999) / 1000) + " s"));
  }
  const grpc::Status s =
      store_->ChangePassword(session.person.id, old_password, new_password, session.token_sha256, ended);
  // As at sign-in, only the People service's own words are the person's wrong
  // password; another UNAUTHENTICATED is the gateway's token.
  if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED && s.error_message() == kWrongPassword) {
    limiter_.Failed(key, clock_->UnixMillis());
    ApiError e = MakeError(401, "UNAUTHENTICATED", "old_password: wrong password");
    e.parameter = "old_password";
    return Fail(error, e);
  }
  if (!s.ok()) return Fail(error, StoreError(s));
  limiter_.Succeeded(key);
  return true;
}

bool People::ListSessions(const Session& session, std::vector<SessionInfo>* out, ApiError* error) {
  const grpc::Status s = store_->ListSessions(session.person.id, clock_->UnixMillis(), session.token_sha256, out);
  if (!s.ok()) return Fail(error, StoreError(s));
  return true;
}

bool People::EndSession(const Session& session, const std::string& id, bool* signed_out, ApiError* error) {
  if (!people::ValidSessionId(id))
    return Fail(error,
                BadParameter("session", "'" + id.substr(0, 40) + "' is not a session id (16 lower-case hex digits)"));
  const grpc::Status s = store_->EndSession(session.person.id, id);
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
    ApiError e = NotFound("session: you have no session " + id);
    e.parameter = "session";
    return Fail(error, e);
  }
  if (!s.ok()) return Fail(error, StoreError(s));
  *signed_out = people::SessionId(session.token_sha256) == id;
  return true;
}

std::string CookieValue(std::string_view header, std::string_view name) {
  // "a=1; metropolis_session=abc; b=2"
  size_t at = 0;
  while (at < header.size()) {
    size_t end = header.find(';', at);
    if (end == std::string_view::npos) end = header.size();
    std::string_view pair = header.substr(at, end - at);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
      return std::string(pair.substr(name.size() + 1));
    at = end + 1;
  }
  return "";
}

std::string SessionCookie(const std::string& token, int64_t max_age_s, CookieTransport transport) {
  return std::string(kSessionCookie) + "=" + token + "; Max-Age=" + std::to_string(max_age_s) +
         "; Path=/; HttpOnly; SameSite=Strict" + (transport == CookieTransport::kHttpsOnly ? "; Secure" : "");
}

std::string ClearedSessionCookie(CookieTransport transport) {
  return std::string(kSessionCookie) + "=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict" +
         (transport == CookieTransport::kHttpsOnly ? "; Secure" : "");
}

}  // namespace metropolis::gateway
