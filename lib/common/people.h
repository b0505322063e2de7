// The People API's values (proto/metropolis/v1/people.proto) as C++ types: the
// Accounts service keeps them (services/accounts/people_store.h) and the gateway
// asks for them (services/gateway/people.h). One home, in the layer both may use,
// so that the two sides cannot drift apart.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/hex.h"

namespace metropolis::people {

// A name a migration changed (names that differed only in letter case,
// migrations/accounts/0030), told to its person once, at the sign-in after it.
struct Rename {
  int64_t identity_id = 0;
  std::string old_name, new_name;
};

// A person: a player identity with a password.
struct Person {
  int64_t id = 0;  // the identity's id
  std::string name;
  // Only when signing in: the person's and their bots' untold renames. (The
  // initialiser lets {id, name} make a person without them, warning-free.)
  std::vector<Rename> renamed = {};
};

// A browser's session of a person.
struct WebSession {
  Person person;
  std::string token_sha256;  // 32 raw bytes: the key the store knows the session by
  int64_t expires_unix_ms = 0;
};

// One of a person's sessions as the account page lists it: never its hash.
struct SessionInfo {
  std::string id;  // SessionId of its hash
  int64_t created_unix_ms = 0, expires_unix_ms = 0;
  bool current = false;  // the session asking
};

// A session's short id: the first 8 bytes of its hash in lower-case hex (16
// digits). It signs nobody in (the cookie does) and tells a person's sessions
// apart.
inline constexpr size_t kSessionIdBytes = 8;
inline std::string SessionId(std::string_view token_sha256) { return HexOf(token_sha256.substr(0, kSessionIdBytes)); }
// Whether `id` has the shape of one: 16 lower-case hex digits.
inline bool ValidSessionId(std::string_view id) { return id.size() == 2 * kSessionIdBytes && IsLowerHex(id); }

// A game seat the gateway holds for a person: the seat token never leaves the
// gateway and the Accounts service.
struct HeldSeat {
  std::string game_id, host, seat_token;
  int seat = 0;
};

// A person's practice seat not known to be finished, or a reservation for a
// practice game being created (host empty), without its token.
struct OpenPracticeSeat {
  std::string game_id, host;
  int64_t age_ms = 0;  // since it was reserved
};

}  // namespace metropolis::people
