#include "services/gateway/bots.h"

#include <charconv>

#include "services/gateway/backends.h"
#include "services/gateway/bodies.h"
#include "services/gateway/people_call.h"

namespace metropolis::gateway {
namespace {

constexpr std::string_view kBots = "/api/v1/me/bots", kTokens = "/api/v1/me/bots/{}/tokens",
                           kRevoke = "/api/v1/me/bots/{}/tokens/{}/revoke";

OwnBot BotFrom(const v1::PersonBot& b) {
  return {b.identity_id(), b.name(), b.created_unix_ms(), int(b.live_tokens())};
}

Json BotToJson(const OwnBot& b) {
  return {{"id", b.id}, {"name", b.name}, {"created_at", b.created_unix_ms}, {"live_tokens", b.live_tokens}};
}

// What the person reads: the Accounts service's own words for what they can
// mend (a taken name, a quota, another's bot), its status kept; the rest as
// any backend error.
ApiError BotsError(const grpc::Status& s) { return InTheirWords(s, StoreError(s)); }

bool BotName(const std::string& name, ApiError* error) {
  if (ValidPlayerName(name)) return true;
  *error = BadParameter("bot", "'" + name.substr(0, 80) + "' is not a bot's name");
  return false;
}

}  // namespace

grpc::Status GrpcBotStore::CreateBot(int64_t person, const std::string& name, OwnBot* out) {
  v1::CreatePersonBotRequest request;
  request.set_identity_id(person);
  request.set_name(name);
  v1::PersonBot response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::CreatePersonBot, request, &response); !s.ok()) return s;
  *out = BotFrom(response);
  return grpc::Status::OK;
}

grpc::Status GrpcBotStore::ListBots(int64_t person, OwnBots* out) {
  v1::ListPersonBotsRequest request;
  request.set_identity_id(person);
  v1::ListPersonBotsResponse response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::ListPersonBots, request, &response); !s.ok()) return s;
  out->bots.clear();
  for (const v1::PersonBot& b : response.bots()) out->bots.push_back(BotFrom(b));
  out->max_bots = int(response.max_bots());
  out->max_tokens_per_bot = int(response.max_tokens_per_bot());
  return grpc::Status::OK;
}

grpc::Status GrpcBotStore::IssueToken(int64_t person, const std::string& bot, const std::string& label,
                                      int64_t* token_id, std::string* token) {
  v1::IssueBotTokenRequest request;
  request.set_identity_id(person);
  request.set_bot(bot);
  request.set_label(label);
  v1::IssueBotTokenResponse response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::IssueBotToken, request, &response); !s.ok()) return s;
  *token_id = response.token_id();
  *token = response.token();
  return grpc::Status::OK;
}

grpc::Status GrpcBotStore::ListTokens(int64_t person, const std::string& bot, std::vector<BotTokenInfo>* out) {
  v1::ListBotTokensRequest request;
  request.set_identity_id(person);
  request.set_bot(bot);
  v1::ListBotTokensResponse response;
  if (grpc::Status s = CallPeople(backends_, &v1::People::Stub::ListBotTokens, request, &response); !s.ok()) return s;
  out->clear();
  for (const v1::BotToken& t : response.tokens())
    out->push_back({t.id(), t.label(), t.created_unix_ms(), t.revoked_unix_ms()});
  return grpc::Status::OK;
}

grpc::Status GrpcBotStore::RevokeToken(int64_t person, const std::string& bot, int64_t token_id) {
  v1::RevokeBotTokenRequest request;
  request.set_identity_id(person);
  request.set_bot(bot);
  request.set_token_id(token_id);
  v1::RevokeBotTokenResponse response;
  return CallPeople(backends_, &v1::People::Stub::RevokeBotToken, request, &response);
}

bool IsBotsPath(std::string_view path) { return !BotsRoute(path).empty(); }

std::string BotsRoute(std::string_view path) {
  std::vector<std::string> args;
  if (path == kBots) return std::string(kBots);
  if (MatchRoute(kTokens, path, &args)) return std::string(kTokens);
  if (MatchRoute(kRevoke, path, &args)) return std::string(kRevoke);
  return "";
}

std::string BotsMethods(std::string_view path) {
  const std::string route = BotsRoute(path);
  if (route.empty()) return "";
  return route == kRevoke ? "POST" : "GET, HEAD, POST";
}

HttpResponse HandleBots(BotStore* store, const Session& session, std::string_view method, std::string_view path,
                        std::string_view body) {
  ApiError error;
  const int64_t person = session.person.id;
  std::vector<std::string> args;
  const bool post = method == "POST";
  if (path == kBots) {
    if (post) {
      std::string name;
      if (!ReadBotCreate(body, &name, &error)) return ErrorResponse(error);
      if (!ValidPlayerName(name))
        return ErrorResponse(BadParameter(
            "name", "'" + name.substr(0, 80) + "' is not 1 to 64 letters, digits, '-', '_' or '.' (not dots alone)"));
      OwnBot bot;
      if (grpc::Status s = store->CreateBot(person, name, &bot); !s.ok()) return ErrorResponse(BotsError(s));
      return JsonResponse(201, {{"bot", BotToJson(bot)}});
    }
    OwnBots bots;
    if (grpc::Status s = store->ListBots(person, &bots); !s.ok()) return ErrorResponse(BotsError(s));
    Json list = Json::array();
    for (const OwnBot& b : bots.bots) list.push_back(BotToJson(b));
    return JsonResponse(200,
                        {{"bots", list}, {"max_bots", bots.max_bots}, {"max_tokens_per_bot", bots.max_tokens_per_bot}});
  }
  if (MatchRoute(kTokens, path, &args)) {
    const std::string& bot = args[0];
    if (!BotName(bot, &error)) return ErrorResponse(error);
    if (post) {
      std::string label, token;
      int64_t id = 0;
      if (!ReadBotTokenIssue(body, &label, &error)) return ErrorResponse(error);
      if (grpc::Status s = store->IssueToken(person, bot, label, &id, &token); !s.ok())
        return ErrorResponse(BotsError(s));
      return JsonResponse(201, {{"bot", bot}, {"token_id", id}, {"label", label}, {"token", token}});
    }
    std::vector<BotTokenInfo> tokens;
    if (grpc::Status s = store->ListTokens(person, bot, &tokens); !s.ok()) return ErrorResponse(BotsError(s));
    Json list = Json::array();
    for (const BotTokenInfo& t : tokens)
      list.push_back({{"id", t.id},
                      {"label", t.label},
                      {"created_at", t.created_unix_ms},
                      {"revoked_at", t.revoked_unix_ms == 0 ? Json(nullptr) : Json(t.revoked_unix_ms)}});
    return JsonResponse(200, {{"bot", bot}, {"tokens", list}});
  }
  if (MatchRoute(kRevoke, path, &args)) {
    const std::string& bot = args[0];
    if (!BotName(bot, &error)) return ErrorResponse(error);
    int64_t id = 0;
    const std::string& text = args[1];
    const auto [end, parse_error] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (parse_error != std::errc() || end != text.data() + text.size() || id <= 0)
      return ErrorResponse(BadParameter("token", "'" + text.substr(0, 40) + "' is not a token id"));
    if (!ReadNothing(body, &error)) return ErrorResponse(error);
    if (grpc::Status s = store->RevokeToken(person, bot, id); !s.ok()) return ErrorResponse(BotsError(s));
    HttpResponse r;
    r.status = 204;
    return r;
  }
  return ErrorResponse(NotFound("no endpoint " + std::string(path.substr(0, 200))));
}

}  // namespace metropolis::gateway
