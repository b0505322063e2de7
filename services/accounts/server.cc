#include "services/accounts/server.h"

#include <grpcpp/server_builder.h>

#include "lib/common/log.h"

namespace metropolis::accounts {

void AddSeatKeySetting(services::Settings* settings) {
  settings->Add("seat-key-file", "FILE", "",
                "the key people's seat tokens are stored encrypted with (at least 32 bytes, e.g. head -c 32 "
                "/dev/urandom > FILE; the same on every replica; docs/ACCOUNTS.md); needed with --gateway-token");
}

bool ReadSeatKeySetting(const services::Settings& settings, const std::string& gateway_token, std::string* seat_key,
                        std::string* error) {
  const std::string path = settings.Get("seat-key-file");
  if (path.empty()) {
    if (gateway_token.empty()) return true;  // nobody may call People: no seat is kept
    *error = "--seat-key-file (or " + settings.EnvName("seat-key-file") +
             ") is required with --gateway-token: the People service stores people's seat tokens encrypted with it";
    return false;
  }
  return ReadSeatKeyFile(path, seat_key, error);
}

void AddBotQuotaSettings(services::Settings* settings) {
  const BotQuotas defaults;
  settings->Add("max-bots-per-person", "N", std::to_string(defaults.max_bots),
                "bots a person may create for themselves (People.CreatePersonBot; the web app's \"My bots\")");
  settings->Add("max-tokens-per-bot", "N", std::to_string(defaults.max_tokens_per_bot),
                "unrevoked API tokens a person may hold for each of their bots (People.IssueBotToken)");
}

bool ReadBotQuotaSettings(const services::Settings& settings, BotQuotas* quotas, std::string* error) {
  int64_t bots = 0, tokens = 0;
  if (!settings.GetInt("max-bots-per-person", 1, kMaxBotQuota, &bots, error) ||
      !settings.GetInt("max-tokens-per-bot", 1, kMaxBotQuota, &tokens, error))
    return false;
  quotas->max_bots = int(bots);
  quotas->max_tokens_per_bot = int(tokens);
  return true;
}

AccountsServer::AccountsServer(storage::PgPool* pool, const AccountsConfig& config, services::ProcessMetrics* metrics)
    : accounts_(pool),
      ladders_(pool),
      auth_(&accounts_, {{config.service_token, kServiceRole}, {config.gateway_token, std::string(auth::kGatewayRole)}},
            {.ttl_ms = 0, .metrics = metrics}),
      limited_auth_(&auth_, config.rate_limit, "accounts", metrics),
      catalog_(pool),
      service_(&accounts_, &ladders_, &limited_auth_, &catalog_),
      sealer_(config.seat_key.empty() ? nullptr : std::make_unique<SeatSealer>(config.seat_key)),
      people_store_(pool, sealer_.get()),
      people_service_(&people_store_, &accounts_, &hasher_, &limited_auth_, config.bot_quotas) {}

void AccountsServer::Register(grpc::ServerBuilder* builder) {
  builder->RegisterService(&service_);
  builder->RegisterService(&people_service_);
}

void AccountsServer::Start() {
  int64_t sealed = 0;
  if (const grpc::Status s = people_store_.SealClearSeats(&sealed); !s.ok())
    services::LogWarning("seat tokens stored in the clear are not all sealed yet; each is sealed when read",
                         {{"error", s.error_message()}, {"sealed", std::to_string(sealed)}});
  else if (sealed > 0)
    services::LogInfo("sealed the seat tokens stored in the clear", {{"sealed", std::to_string(sealed)}});
}

}  // namespace metropolis::accounts
