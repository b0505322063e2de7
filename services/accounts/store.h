// The accounts: identities — people and their bots — and the API tokens they
// authenticate with. A token is shown once when issued; only its SHA-256 is kept.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/auth/account_lookup.h"
#include "lib/common/log_throttle.h"

namespace metropolis::accounts {

using auth::Principal;

struct Identity {
  int64_t id = 0;
  std::string kind;  // "player" or "bot"
  std::string name;
  std::string owner_name;  // a bot's owner; empty for players
  int64_t created_unix_ms = 0;
};

struct IssuedToken {
  int64_t id = 0;
  std::string token;  // the only time the raw token exists outside its owner
};

struct TokenInfo {
  int64_t id = 0;
  std::string label;
  bool admin = false;
  int64_t created_unix_ms = 0;
  int64_t revoked_unix_ms = 0;  // 0 while valid
};

// Letters, digits, '-', '_' and '.', 1 to 64 of them.
bool ValidIdentityName(std::string_view name);
inline constexpr size_t kMaxLabelLength = 200;
// OK, or INVALID_ARGUMENT for a token label over kMaxLabelLength or with
// control characters.
grpc::Status CheckTokenLabel(std::string_view label);

// A token's row, found by its SHA-256.
struct StoredToken {
  Principal owner;  // identity_id, name, kind, admin and token_id; service false
  bool revoked = false;
};

// The identities and their API tokens (PostgreSQL in production,
// pg_account_store.h). The public calls check their arguments here, once for
// every implementation, and hand the rest to the implementation's data calls,
// whose contracts are those of the stored rows. Every call answers
// UNAVAILABLE when the store cannot be reached, and changes nothing then.
//
// Also the AccountLookup of the Accounts service's own authenticator, and what
// Accounts.LookupToken answers from.
class AccountStore : public auth::AccountLookup {
 public:
  // kind "player" (no owner) or "bot" (owned by an existing player).
  // INVALID_ARGUMENT: bad kind or name, a bot without owner, a player with one,
  // an owner that is a bot. ALREADY_EXISTS: the name is taken, in any letter case
  // (so "Alice" cannot pass for "alice"). NOT_FOUND: no such owner.
  grpc::Status CreateIdentity(const std::string& kind, const std::string& name, const std::string& owner_name,
                              Identity* out);
  virtual grpc::Status FindIdentity(const std::string& name, Identity* out) = 0;  // NOT_FOUND
  virtual grpc::Status ListIdentities(std::vector<Identity>* out) = 0;            // by id
  // The names of those of `ids` that are identities.
  virtual grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) = 0;

  // NOT_FOUND for an unknown identity; INVALID_ARGUMENT for a label over
  // kMaxLabelLength or with control characters.
  grpc::Status IssueToken(const std::string& identity_name, const std::string& label, bool admin, IssuedToken* out);
  // NOT_FOUND if unknown; FAILED_PRECONDITION if already revoked (saying when).
  virtual grpc::Status RevokeToken(int64_t token_id) = 0;
  // The identity's tokens by id, revoked ones included; NOT_FOUND for an unknown
  // identity.
  virtual grpc::Status ListTokens(const std::string& identity_name, std::vector<TokenInfo>* out) = 0;

  // UNAUTHENTICATED "unknown or revoked token" unless the token is a valid API
  // token; the principal has admin from the token, service false.
  grpc::Status Authenticate(const std::string& token, Principal* out);
  // The same by the token's SHA-256 (32 raw bytes), for callers that hash once.
  grpc::Status AuthenticateSha256(const std::string& sha256, Principal* out);
  // AuthenticateSha256 with NOT_FOUND for an unknown or revoked token.
  grpc::Status LookupToken(const std::string& sha256, Principal* out) override;

  // A revoked token presented is logged (which one, and whose), at most `lines`
  // a minute on `clock` (null: the system's), since whoever holds it can present
  // it as often as they like; 0: every one. 10 until set.
  void LimitRevokedTokenLogs(int lines, const services::Clock* clock = nullptr);

 protected:
  // The checked arguments stored: ALREADY_EXISTS for a name taken in any letter
  // case ("(by 'Other')" when spelt otherwise), NOT_FOUND "owner: ..." for a
  // missing owner, INVALID_ARGUMENT when the owner is a bot.
  virtual grpc::Status InsertIdentity(const std::string& kind, const std::string& name, const std::string& owner_name,
                                      Identity* out) = 0;
  // A token of the identity so named, kept as its hash; NOT_FOUND for an
  // unknown identity.
  virtual grpc::Status InsertToken(const std::string& identity_name, const std::string& sha256,
                                   const std::string& label, bool admin, int64_t* token_id) = 0;
  // The token whose SHA-256 is `sha256`, revoked or not; *found false when none.
  virtual grpc::Status FindToken(const std::string& sha256, StoredToken* out, bool* found) = 0;
  // "no identity named 'x'", the NOT_FOUND every implementation answers.
  static grpc::Status NoIdentity(const std::string& name);

 private:
  std::unique_ptr<services::LogThrottle> revoked_logs_ = std::make_unique<services::LogThrottle>(10, 60'000);
};

}  // namespace metropolis::accounts
