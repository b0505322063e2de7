// A person's own bots and their API tokens ("My bots", docs/GATEWAY.md,
// "Self-service bots"): the endpoints under /api/v1/me/bots, for the person
// signed in. The bots and tokens are the Accounts service's (People's
// CreatePersonBot .. RevokeBotToken, proto/metropolis/v1/people.proto), which
// the gateway calls with its service token naming the person whose session it
// checked; the quotas are counted there. This is the logic only: the store comes
// in through an interface, so the endpoints are unit-tested with a fake
// (tests/bots_test.cc).
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

#include "services/gateway/api.h"
#include "services/gateway/people.h"

namespace metropolis::gateway {

class Backends;

struct OwnBot {
  int64_t id = 0;
  std::string name;
  int64_t created_unix_ms = 0;
  int live_tokens = 0;
};

struct OwnBots {
  std::vector<OwnBot> bots;
  int max_bots = 0, max_tokens_per_bot = 0;  // the Accounts service's quotas
};

struct BotTokenInfo {
  int64_t id = 0;
  std::string label;
  int64_t created_unix_ms = 0, revoked_unix_ms = 0;  // 0 while valid
};

// People's bot calls, as the Accounts service answers them: another's bot is
// NOT_FOUND, a quota RESOURCE_EXHAUSTED, a taken name ALREADY_EXISTS.
class BotStore {
 public:
  virtual ~BotStore() = default;
  virtual grpc::Status CreateBot(int64_t person, const std::string& name, OwnBot* out) = 0;
  virtual grpc::Status ListBots(int64_t person, OwnBots* out) = 0;
  virtual grpc::Status IssueToken(int64_t person, const std::string& bot, const std::string& label, int64_t* token_id,
                                  std::string* token) = 0;
  virtual grpc::Status ListTokens(int64_t person, const std::string& bot, std::vector<BotTokenInfo>* out) = 0;
  virtual grpc::Status RevokeToken(int64_t person, const std::string& bot, int64_t token_id) = 0;
};

// BotStore over the Accounts service's People, with the gateway's token.
class GrpcBotStore final : public BotStore {
 public:
  explicit GrpcBotStore(Backends* backends) : backends_(backends) {}
  grpc::Status CreateBot(int64_t person, const std::string& name, OwnBot* out) override;
  grpc::Status ListBots(int64_t person, OwnBots* out) override;
  grpc::Status IssueToken(int64_t person, const std::string& bot, const std::string& label, int64_t* token_id,
                          std::string* token) override;
  grpc::Status ListTokens(int64_t person, const std::string& bot, std::vector<BotTokenInfo>* out) override;
  grpc::Status RevokeToken(int64_t person, const std::string& bot, int64_t token_id) override;

 private:
  Backends* const backends_;
};

// Whether `path` is one of the endpoints below (any method).
bool IsBotsPath(std::string_view path);
// The route `path` is counted under in the metrics ("/api/v1/me/bots/{}/tokens").
std::string BotsRoute(std::string_view path);
// The methods `path` takes ("GET, HEAD, POST"); empty for a path not of these.
std::string BotsMethods(std::string_view path);

// Answers a request of the signed-in person `session` for one of the paths:
//   GET  /api/v1/me/bots                            the person's bots and quotas
//   POST /api/v1/me/bots {"name"}                   201, the bot
//   GET  /api/v1/me/bots/{bot}/tokens               the bot's tokens (never the tokens themselves)
//   POST /api/v1/me/bots/{bot}/tokens {"label"}     201, the token, shown this once
//   POST /api/v1/me/bots/{bot}/tokens/{id}/revoke   204
// The method is checked by the caller. Errors: 400 naming the parameter, 404 a
// bot or token not the person's, 409 a taken name, a quota reached
// (RESOURCE_EXHAUSTED) or a token revoked already, 503 the accounts unreachable.
HttpResponse HandleBots(BotStore* store, const Session& session, std::string_view method, std::string_view path,
                        std::string_view body);

}  // namespace metropolis::gateway
