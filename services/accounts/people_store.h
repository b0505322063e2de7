// People on PostgreSQL (migrations/0009_people.sql): a person is a player
// identity with a password; their sessions and the seats the gateway holds for
// them are kept here, so that any gateway serves any person and a gateway
// restart signs nobody out. The People service (people_service.h) is its only
// caller; hashes are made and checked there (passwords.h).
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lib/common/people.h"
#include "services/accounts/store.h"

namespace metropolis::accounts {

// The values are the People API's, shared with the gateway. A Person from this
// store has no renames: TakeRenames answers them apart.
using people::HeldSeat;
using people::OpenPracticeSeat;
using people::Person;
using people::Rename;
using people::SessionInfo;
using people::WebSession;

// One of a person's own bots.
struct PersonBot {
  int64_t id = 0;
  std::string name;
  int64_t created_unix_ms = 0;
  int live_tokens = 0;  // tokens not revoked
};

// A person who may be the one signing in, and the hash to try.
struct PasswordCandidate {
  Person person;
  std::string password_hash;
};

class PeopleStore {
 public:
  virtual ~PeopleStore() = default;

  // A new player identity and its password hash, together or not at all.
  // ALREADY_EXISTS when the name is taken in any letter case (the name's shape
  // is the caller's to check).
  virtual grpc::Status CreatePerson(const std::string& name, const std::string& password_hash, Person* out) = 0;
  // Who may be signing in as `name`: the player so named (any letter case), then
  // one renamed from exactly `name` and not told yet; each with a password.
  // Empty for an unknown name and an identity without a password.
  virtual grpc::Status FindPasswords(const std::string& name, std::vector<PasswordCandidate>* out) = 0;
  // The renames of `identity_id` and of the bots it owns not told before, marked
  // told in the same statement: each is answered once.
  virtual grpc::Status TakeRenames(int64_t identity_id, std::vector<Rename>* out) = 0;
  // The person with this id; NOT_FOUND unless it is a player with a password.
  virtual grpc::Status FindPerson(int64_t identity_id, Person* out) = 0;

  virtual grpc::Status CreateSession(const std::string& token_sha256, int64_t identity_id, int64_t expires_unix_ms) = 0;
  // NOT_FOUND when unknown or expired at `now_unix_ms`.
  virtual grpc::Status FindSession(const std::string& token_sha256, int64_t now_unix_ms, WebSession* out) = 0;
  virtual grpc::Status DeleteSession(const std::string& token_sha256) = 0;

  // The account page (people.proto, ChangePassword .. EndSession). The hash is
  // verified and made by the caller, as at sign-in.
  //
  // The hash the person's password is stored as; NOT_FOUND unless
  // `identity_id` is a person (a player with a password).
  virtual grpc::Status FindPasswordHash(int64_t identity_id, std::string* hash) = 0;
  // In one transaction: stores `new_hash` as the person's password if it is
  // still `old_hash` (the one the caller verified the old password against),
  // and ends every other session of theirs, all but `keep_token_sha256`.
  // *ended counts those not expired yet. ABORTED, changing nothing, when the
  // stored hash is no longer `old_hash`: another change came first.
  virtual grpc::Status ReplacePassword(int64_t identity_id, const std::string& old_hash, const std::string& new_hash,
                                       const std::string& keep_token_sha256, int* ended) = 0;
  // The person's sessions not expired at `now_unix_ms`, newest first; the one
  // whose hash is `current_token_sha256` marked current.
  virtual grpc::Status ListSessions(int64_t identity_id, int64_t now_unix_ms, const std::string& current_token_sha256,
                                    std::vector<SessionInfo>* out) = 0;
  // Ends the person's session with the short id `id` (people::SessionId):
  // NOT_FOUND when they have none, whoever else has one.
  virtual grpc::Status EndSession(int64_t identity_id, const std::string& id) = 0;

  virtual grpc::Status SaveSeat(int64_t identity_id, const HeldSeat& seat) = 0;
  // NOT_FOUND when the person holds no seat in the game.
  virtual grpc::Status FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) = 0;
  // The latest seat not known to be finished; NOT_FOUND when none.
  virtual grpc::Status LatestOpenSeat(int64_t identity_id, HeldSeat* out) = 0;
  virtual grpc::Status MarkSeatFinished(int64_t identity_id, const std::string& game_id) = 0;
  // Reserves a practice seat for `game_id` unless the person has `max_open`
  // open practice seats (reservations included): RESOURCE_EXHAUSTED then. The
  // count and the reservation are one step for each person, so concurrent
  // reservations never exceed `max_open`. ALREADY_EXISTS when the person has a
  // seat in `game_id`. SaveSeat fills the reservation in; until then FindSeat
  // and LatestOpenSeat do not see it.
  virtual grpc::Status ReservePracticeSeat(int64_t identity_id, const std::string& game_id, int max_open) = 0;
  // The open practice seats and reservations, oldest first.
  virtual grpc::Status OpenPracticeSeats(int64_t identity_id, std::vector<OpenPracticeSeat>* out) = 0;

  // Revokes the person's token `token_id`: NOT_FOUND when it is not theirs,
  // FAILED_PRECONDITION when revoked already.
  virtual grpc::Status RevokePersonToken(int64_t identity_id, int64_t token_id) = 0;

  // A person's own bots and their tokens (people.proto, "Self-service bots").
  // Each call reaches only what `person_id` owns: a bot of another's is
  // NOT_FOUND "you own no bot named 'x'", as one that does not exist, and so is
  // a token of another bot. NOT_FOUND for a `person_id` that is not a person
  // (a player with a password). Names and labels are the caller's to check.
  //
  // A bot owned by the person unless they own `max_bots` already
  // (RESOURCE_EXHAUSTED): the person's row is locked while their bots are
  // counted, so two creations at once never pass the quota. ALREADY_EXISTS for
  // a name taken in any letter case.
  virtual grpc::Status CreatePersonBot(int64_t person_id, const std::string& name, int max_bots, PersonBot* out) = 0;
  // The person's bots by name.
  virtual grpc::Status ListPersonBots(int64_t person_id, std::vector<PersonBot>* out) = 0;
  // A token of the person's bot `bot`, kept as its hash, unless the bot has
  // `max_live` unrevoked tokens already (RESOURCE_EXHAUSTED): counted under a
  // lock of the bot's row. Never an administrator's.
  virtual grpc::Status InsertBotToken(int64_t person_id, const std::string& bot, const std::string& sha256,
                                      const std::string& label, int max_live, int64_t* token_id) = 0;
  // The bot's tokens by id, revoked ones included.
  virtual grpc::Status ListBotTokens(int64_t person_id, const std::string& bot, std::vector<TokenInfo>* out) = 0;
  // Revokes the bot's token `token_id`: NOT_FOUND when it is not the bot's,
  // FAILED_PRECONDITION when revoked already.
  virtual grpc::Status RevokeBotToken(int64_t person_id, const std::string& bot, int64_t token_id) = 0;
};

}  // namespace metropolis::accounts
