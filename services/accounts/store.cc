// The checks every account store shares: arguments, token shapes and hashing,
// and what an unknown or revoked token answers.
#include "services/accounts/store.h"

#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "services/accounts/authenticator.h"
#include "services/accounts/token.h"

namespace metropolis::accounts {
namespace {

constexpr char kUnknownToken[] = "unknown or revoked token";

bool HasControlCharacters(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return true;
  return false;
}

}  // namespace

bool ValidIdentityName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  // "." and ".." are path segments, not names: a page at /players/.. could
  // never be reached, as browsers and proxies fold it into its parent.
  if (name.find_first_not_of('.') == std::string_view::npos) return false;
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

grpc::Status CheckTokenLabel(std::string_view label) {
  if (label.size() > kMaxLabelLength)
    return {grpc::StatusCode::INVALID_ARGUMENT, "label: longer than " + std::to_string(kMaxLabelLength) + " bytes"};
  // Tables print labels one per line.
  if (HasControlCharacters(label))
    return {grpc::StatusCode::INVALID_ARGUMENT, "label: control characters are not allowed"};
  return grpc::Status::OK;
}

grpc::Status AccountStore::NoIdentity(const std::string& name) {
  return {grpc::StatusCode::NOT_FOUND, "no identity named '" + name + "'"};
}

grpc::Status AccountStore::CreateIdentity(const std::string& kind, const std::string& name,
                                          const std::string& owner_name, Identity* out) {
  if (kind != "player" && kind != "bot")
    return {grpc::StatusCode::INVALID_ARGUMENT, "kind: '" + kind + "' is neither 'player' nor 'bot'"};
  if (!ValidIdentityName(name))
    return {grpc::StatusCode::INVALID_ARGUMENT,
            "name: " + services::Quoted(name) + " is not 1 to 64 letters, digits, '-', '_' or '.' (not dots alone)"};
  if (kind == "bot" && owner_name.empty())
    return {grpc::StatusCode::INVALID_ARGUMENT, "owner: bot '" + name + "' needs an owner (a player)"};
  if (kind == "player" && !owner_name.empty())
    return {grpc::StatusCode::INVALID_ARGUMENT, "owner: player '" + name + "' cannot have an owner; only bots do"};
  return InsertIdentity(kind, name, owner_name, out);
}

grpc::Status AccountStore::IssueToken(const std::string& identity_name, const std::string& label, bool admin,
                                      IssuedToken* out) {
  if (grpc::Status s = CheckTokenLabel(label); !s.ok()) return s;
  std::string token = NewToken();
  int64_t id = 0;
  if (grpc::Status s = InsertToken(identity_name, Sha256(token), label, admin, &id); !s.ok()) return s;
  out->id = id;
  out->token = std::move(token);
  return grpc::Status::OK;
}

grpc::Status AccountStore::Authenticate(const std::string& token, Principal* out) {
  // Nothing of another shape was ever issued: no query needed to refuse it.
  if (!LooksLikeToken(token)) return {grpc::StatusCode::UNAUTHENTICATED, kUnknownToken};
  std::string sha256;
  try {
    sha256 = Sha256(token);
  } catch (const std::exception& e) {
    services::LogError("hashing a token failed", {{"error", e.what()}});
    return {grpc::StatusCode::INTERNAL, "authenticate: hashing failed"};
  }
  return AuthenticateSha256(sha256, out);
}

grpc::Status AccountStore::AuthenticateSha256(const std::string& sha256, Principal* out) {
  if (sha256.size() != 32) return {grpc::StatusCode::UNAUTHENTICATED, kUnknownToken};
  StoredToken stored;
  bool found = false;
  if (grpc::Status s = FindToken(sha256, &stored, &found); !s.ok()) return s;
  if (!found) return {grpc::StatusCode::UNAUTHENTICATED, kUnknownToken};
  if (stored.revoked) {
    // Someone still holds a revoked token: worth knowing which one, but not
    // once per call of a client that keeps trying.
    if (int64_t suppressed = 0; revoked_logs_->Allow(&suppressed)) {
      services::LogFieldList fields = {{"token_id", std::to_string(stored.owner.token_id)},
                                       {"identity", stored.owner.name}};
      if (suppressed > 0) fields.emplace_back("suppressed", std::to_string(suppressed));
      services::Log(services::LogLevel::kInfo, "revoked token refused", fields);
    }
    return {grpc::StatusCode::UNAUTHENTICATED, kUnknownToken};
  }
  *out = std::move(stored.owner);
  return grpc::Status::OK;
}

void AccountStore::LimitRevokedTokenLogs(int lines, const services::Clock* clock) {
  revoked_logs_ = std::make_unique<services::LogThrottle>(lines, 60'000, clock);
}

grpc::Status AccountStore::LookupToken(const std::string& sha256, Principal* out) {
  grpc::Status s = AuthenticateSha256(sha256, out);
  if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED) return {grpc::StatusCode::NOT_FOUND, kUnknownToken};
  return s;
}

}  // namespace metropolis::accounts
