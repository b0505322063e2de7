// People in the browser: sign-up, sign-in and sessions (docs/GATEWAY.md, "People
// and play"). A person is a player identity of the accounts, so their games and
// ratings are the ladder's like anyone's. This is the logic only: the store
// and the clock come in through small interfaces, so the rules are unit-tested
// with fakes (tests/people_test.cc).
#pragma once

#include <grpcpp/support/status.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/clock.h"
#include "lib/common/people.h"
#include "services/gateway/params.h"

namespace metropolis::gateway {

// The People API's values, shared with the Accounts service. A Person's renames
// come only from CheckPassword.
using people::HeldSeat;
using people::OpenPracticeSeat;
using people::Person;
using people::Rename;
using people::SessionInfo;
using Session = people::WebSession;

// Where people, passwords, sessions and held seats are kept: the Accounts
// service's People (proto/metropolis/v1/people.proto) in production
// (people_client.h), which hashes and checks passwords itself, so that no
// hash ever reaches the gateway. Every call may fail with UNAVAILABLE.
class PeopleStore {
 public:
  virtual ~PeopleStore() = default;
  // A new player identity with its password, together or not at all.
  // ALREADY_EXISTS when the name is taken in any letter case.
  virtual grpc::Status CreatePerson(const std::string& name, const std::string& password, Person* out) = 0;
  // The player named `name` (any letter case) when `password` is theirs;
  // UNAUTHENTICATED for an unknown name, an identity without a password and a
  // wrong password alike.
  virtual grpc::Status CheckPassword(const std::string& name, const std::string& password, Person* out) = 0;
  virtual grpc::Status CreateSession(const std::string& token_sha256, int64_t identity_id, int64_t expires_unix_ms) = 0;
  // NOT_FOUND when unknown or expired at `now_unix_ms`.
  virtual grpc::Status FindSession(const std::string& token_sha256, int64_t now_unix_ms, Session* out) = 0;
  virtual grpc::Status DeleteSession(const std::string& token_sha256) = 0;

  // The account page, for the person `identity_id` whose session the gateway
  // checked. A new password when `old_password` is theirs (UNAUTHENTICATED
  // "wrong password" otherwise, changing nothing); every other session of
  // theirs ends with it, all but `keep_token_sha256`: *ended counts them.
  virtual grpc::Status ChangePassword(int64_t identity_id, const std::string& old_password,
                                      const std::string& new_password, const std::string& keep_token_sha256,
                                      int* ended) = 0;
  // The person's sessions not expired at `now_unix_ms`, newest first; the one
  // whose hash is `current_token_sha256` marked current.
  virtual grpc::Status ListSessions(int64_t identity_id, int64_t now_unix_ms, const std::string& current_token_sha256,
                                    std::vector<SessionInfo>* out) = 0;
  // Ends the person's session with the short id `id`; NOT_FOUND for an id
  // that is not one of theirs.
  virtual grpc::Status EndSession(int64_t identity_id, const std::string& id) = 0;

  virtual grpc::Status SaveSeat(int64_t identity_id, const HeldSeat& seat) = 0;
  // NOT_FOUND when the person holds no seat in the game.
  virtual grpc::Status FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) = 0;
  // The latest seat not known to be finished; NOT_FOUND when none.
  virtual grpc::Status LatestOpenSeat(int64_t identity_id, HeldSeat* out) = 0;
  virtual grpc::Status MarkSeatFinished(int64_t identity_id, const std::string& game_id) = 0;
  // One of the person's practice slots for `game_id`, before the game is
  // created: RESOURCE_EXHAUSTED when `max_open` practice seats are open
  // (counted and reserved in one step by the People service, so concurrent
  // starts, on any gateway, never pass the limit together). SaveSeat fills it
  // in, MarkSeatFinished frees it.
  virtual grpc::Status ReservePracticeSeat(int64_t identity_id, const std::string& game_id, int max_open) = 0;
  // The open practice seats and reservations, oldest first.
  virtual grpc::Status OpenPracticeSeats(int64_t identity_id, std::vector<OpenPracticeSeat>* out) = 0;

  // An API token of the person's own (never an administrator's), for a queue;
  // revoked with RevokeToken when the queue ends.
  virtual grpc::Status IssueToken(int64_t identity_id, const std::string& label, int64_t* token_id,
                                  std::string* token) = 0;
  virtual grpc::Status RevokeToken(int64_t identity_id, int64_t token_id) = 0;
};

// Failed sign-ins per name and address, in memory: after `max_failures` within
// `window` the pair is refused until the window that began with its first
// failure has passed. One gateway's count: behind several gateways the limit
// is per gateway, which still slows guessing to a crawl.
class SignInLimiter {
 public:
  struct Options {
    int max_failures = 5;
    std::chrono::milliseconds window = std::chrono::minutes(5);
    size_t max_entries = 100'000;  // a full table starts over rather than grow
  };
  explicit SignInLimiter(Options options) : options_(options) {}
  // Milliseconds until `key` may try again; 0 when it may now.
  int64_t RetryAfterMs(const std::string& key, int64_t now_unix_ms);
  void Failed(const std::string& key, int64_t now_unix_ms);
  void Succeeded(const std::string& key);

 private:
  struct Entry {
    int64_t window_start = 0;
    int failures = 0;
  };
  const Options options_;
  std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

struct PeopleOptions {
  std::chrono::milliseconds session_ttl = std::chrono::hours(24 * 7);
  SignInLimiter::Options limiter;
};

// Password rules: 8 to 128 bytes (any bytes: a passphrase in any script). The
// People service checks them too; checked here first to name the parameter.
inline constexpr size_t kMinPasswordBytes = 8, kMaxPasswordBytes = 128;

class People {
 public:
  // Makes a session token: 32 random bytes in hex in production.
  using TokenSource = std::function<std::string()>;

  // Sessions and sign-in failures are timed on `clock`'s wall time (UnixMillis).
  People(PeopleStore* store, const services::Clock* clock, TokenSource tokens, PeopleOptions options = {});

  // The new person signed in: *cookie_token is the session cookie's value.
  // 400 naming `name` or `password`; 409 a taken name; 503 store down.
  bool SignUp(const std::string& name, const std::string& password, Session* out, std::string* cookie_token,
              ApiError* error);
  // 401 "wrong name or password" for an unknown name and a wrong password
  // alike; 429 after too many failures of `name` from `address`.
  bool SignIn(const std::string& name, const std::string& password, const std::string& address, Session* out,
              std::string* cookie_token, ApiError* error);
  // How long `name` from `address` must wait before signing in again (0: not
  // at all), for Retry-After.
  int64_t SignInRetryAfterMs(const std::string& name, const std::string& address);
  // The session of a cookie value; 401 "not signed in" for none, an unknown or
  // an expired one.
  bool Authenticate(std::string_view cookie_token, Session* out, ApiError* error);
  // Ends the session server-side (a copy of the cookie no longer works).
  bool SignOut(const Session& session, ApiError* error);

  // The account page (docs/GATEWAY.md, "Your account"), for the person signed
  // in with `session`.
  //
  // A new password: 400 naming `old_password` (empty) or `new_password` (the
  // sign-up rule); 401 "old_password: wrong password", which counts as a failed
  // sign-in of the person's name from `address` (429 after too many, as
  // SignIn). Every other session of the person ends; *ended counts them.
  bool ChangePassword(const Session& session, const std::string& old_password, const std::string& new_password,
                      const std::string& address, int* ended, ApiError* error);
  // The person's sessions, newest first, this one marked current.
  bool ListSessions(const Session& session, std::vector<SessionInfo>* out, ApiError* error);
  // Ends one of the person's sessions by its id: 400 naming `session` for an
  // id of another shape, 404 for one that is not theirs. *signed_out when it
  // is `session` itself.
  bool EndSession(const Session& session, const std::string& id, bool* signed_out, ApiError* error);

  PeopleStore* store() const { return store_; }
  int64_t Now() const { return clock_->UnixMillis(); }
  const services::Clock* clock() const { return clock_; }
  const PeopleOptions& options() const { return options_; }

 private:
  bool StartSession(const Person& person, Session* out, std::string* cookie_token, ApiError* error);

  PeopleStore* const store_;
  const services::Clock* const clock_;
  const TokenSource tokens_;
  const PeopleOptions options_;
  SignInLimiter limiter_;
};

// The session cookie's name, and its value from a Cookie header (empty if
// absent).
inline constexpr std::string_view kSessionCookie = "metropolis_session";
std::string CookieValue(std::string_view cookie_header, std::string_view name);
// Set-Cookie for a session (Max-Age until it expires) and for ending one.
// kHttpsOnly adds Secure: the browser sends it over HTTPS only.
enum class CookieTransport { kAny, kHttpsOnly };
std::string SessionCookie(const std::string& token, int64_t max_age_s,
                          CookieTransport transport = CookieTransport::kAny);
std::string ClearedSessionCookie(CookieTransport transport = CookieTransport::kAny);

// A session cookie's value: 32 bytes from the kernel's random source, in hex.
// Throws std::system_error when the kernel gives no randomness.
std::string NewSessionToken();

// The API's error for a failure of the store (the Accounts service).
ApiError StoreError(const grpc::Status& status);

}  // namespace metropolis::gateway
