// A person's own bots through the play API (bots.h): methods, sessions, bodies,
// and what the Accounts service's answers become, over a fake of its calls that
// keeps their contracts (another's bot NOT_FOUND, quotas RESOURCE_EXHAUSTED).
#include "services/gateway/bots.h"

#include <gtest/gtest.h>

#include <map>

#include "lib/common/tests/fake_clock.h"
#include "services/gateway/backends.h"
#include "services/gateway/play_api.h"
#include "services/gateway/tests/people_fakes.h"

namespace metropolis::gateway {
namespace {

class FakeBotStore : public BotStore {
 public:
  struct Bot {
    int64_t owner = 0;
    OwnBot bot;
  };
  struct Token {
    std::string bot;
    BotTokenInfo info;
    std::string token;
  };

  grpc::Status CreateBot(int64_t person, const std::string& name, OwnBot* out) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "the accounts database is down"};
    int owned = 0;
    for (const auto& [n, b] : bots) owned += b.owner == person;
    if (owned >= max_bots)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED,
              "you own " + std::to_string(owned) + " bots, the most a person may own is " + std::to_string(max_bots)};
    if (bots.count(name)) return {grpc::StatusCode::ALREADY_EXISTS, "name '" + name + "' is taken"};
    bots[name] = {person, {next_id, name, 1000 + next_id, 0}};
    ++next_id;
    *out = bots[name].bot;
    return grpc::Status::OK;
  }
  grpc::Status ListBots(int64_t person, OwnBots* out) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "the accounts database is down"};
    out->bots.clear();
    for (const auto& [n, b] : bots)
      if (b.owner == person) out->bots.push_back(b.bot);
    out->max_bots = max_bots;
    out->max_tokens_per_bot = max_tokens;
    return grpc::Status::OK;
  }
  grpc::Status IssueToken(int64_t person, const std::string& bot, const std::string& label, int64_t* token_id,
                          std::string* token) override {
    auto it = bots.find(bot);
    if (it == bots.end() || it->second.owner != person) return NoBot(bot);
    if (it->second.bot.live_tokens >= max_tokens)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED, "bot '" + bot + "' has too many tokens"};
    ++it->second.bot.live_tokens;
    const int64_t id = next_id++;
    tokens[id] = {bot, {id, label, 2000 + id, 0}, "mtp_" + std::string(64, char('a' + id % 6))};
    *token_id = id;
    *token = tokens[id].token;
    return grpc::Status::OK;
  }
  grpc::Status ListTokens(int64_t person, const std::string& bot, std::vector<BotTokenInfo>* out) override {
    auto it = bots.find(bot);
    if (it == bots.end() || it->second.owner != person) return NoBot(bot);
    out->clear();
    for (const auto& [id, t] : tokens)
      if (t.bot == bot) out->push_back(t.info);
    return grpc::Status::OK;
  }
  grpc::Status RevokeToken(int64_t person, const std::string& bot, int64_t token_id) override {
    auto it = bots.find(bot);
    if (it == bots.end() || it->second.owner != person) return NoBot(bot);
    auto t = tokens.find(token_id);
    if (t == tokens.end() || t->second.bot != bot)
      return {grpc::StatusCode::NOT_FOUND, "bot '" + bot + "' has no token with id " + std::to_string(token_id)};
    if (t->second.info.revoked_unix_ms != 0)
      return {grpc::StatusCode::FAILED_PRECONDITION, "token " + std::to_string(token_id) + " was already revoked"};
    t->second.info.revoked_unix_ms = 3000;
    --it->second.bot.live_tokens;
    return grpc::Status::OK;
  }
  static grpc::Status NoBot(const std::string& bot) {
    return {grpc::StatusCode::NOT_FOUND, "you own no bot named '" + bot + "'"};
  }

  std::map<std::string, Bot> bots;
  std::map<int64_t, Token> tokens;
  int max_bots = 2, max_tokens = 2;
  int64_t next_id = 100;
  bool down = false;
};

class BotsApiTest : public ::testing::Test {
 protected:
  BotsApiTest()
      : backends_(Options()),
        api_(nullptr, &backends_),
        people_(&store_, &clock_, NewSessionToken),
        queue_(&backends_, &store_, &clock_),
        play_(&backends_),
        play_api_(&api_, &backends_, &people_, &queue_, &play_, {}, &bots_) {}

  static BackendOptions Options() {
    BackendOptions o;
    o.replays = o.ratings = o.accounts = "127.0.0.1:1";
    return o;
  }
  HttpResponse Call(std::string_view method, std::string_view path, std::string_view body = "",
                    std::string_view cookie = "", std::string* route = nullptr) {
    std::string ignored;
    return play_api_.Handle({method, path, "", body, cookie, "10.0.0.1"}, route ? route : &ignored);
  }
  static Json Body(const HttpResponse& r) { return Json::parse(r.body.empty() ? "null" : r.body); }
  std::string SignUp(const std::string& name) {
    const HttpResponse r =
        Call("POST", "/api/v1/session/signup", R"({"name": ")" + name + R"(", "password": "correct horse"})");
    EXPECT_EQ(r.status, 201) << r.body;
    for (const auto& [n, v] : r.headers)
      if (n == "Set-Cookie") return v.substr(0, v.find(';'));
    return "";
  }

  services::testing::FakeClock clock_{0, 1'700'000'000'000};
  FakeStore store_;
  FakeBotStore bots_;
  Backends backends_;
  Api api_;
  People people_;
  QueueHub queue_;
  PlayHub play_;
  PlayApi play_api_;
};

TEST_F(BotsApiTest, APersonCreatesABotIssuesListsAndRevokesItsTokens) {
  const std::string alice = SignUp("alice");
  HttpResponse r = Call("POST", "/api/v1/me/bots", R"({"name": "alice-bot"})", alice);
  ASSERT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(Body(r)["bot"]["name"], "alice-bot");
  EXPECT_EQ(Body(r)["bot"]["live_tokens"], 0);

  r = Call("POST", "/api/v1/me/bots/alice-bot/tokens", R"({"label": "laptop"})", alice);
  ASSERT_EQ(r.status, 201) << r.body;
  const Json issued = Body(r);
  EXPECT_EQ(issued["bot"], "alice-bot");
  EXPECT_EQ(issued["label"], "laptop");
  EXPECT_EQ(issued["token"].get<std::string>().rfind("mtp_", 0), 0u);
  const int64_t id = issued["token_id"];

  r = Call("GET", "/api/v1/me/bots", "", alice);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r), Json::parse(R"({"bots": [{"id": 100, "name": "alice-bot", "created_at": 1100,
                                                "live_tokens": 1}], "max_bots": 2, "max_tokens_per_bot": 2})"));
  r = Call("GET", "/api/v1/me/bots/alice-bot/tokens", "", alice);
  ASSERT_EQ(r.status, 200) << r.body;
  const Json listed = Body(r);
  ASSERT_EQ(listed["tokens"].size(), 1u);
  EXPECT_EQ(listed["tokens"][0]["id"], id);
  EXPECT_EQ(listed["tokens"][0]["label"], "laptop");
  EXPECT_TRUE(listed["tokens"][0]["revoked_at"].is_null());
  EXPECT_EQ(r.body.find("mtp_"), std::string::npos);  // never the token again

  r = Call("POST", "/api/v1/me/bots/alice-bot/tokens/" + std::to_string(id) + "/revoke", "", alice);
  EXPECT_EQ(r.status, 204) << r.body;
  r = Call("POST", "/api/v1/me/bots/alice-bot/tokens/" + std::to_string(id) + "/revoke", "{}", alice);
  EXPECT_EQ(r.status, 409) << r.body;
  EXPECT_EQ(Body(r)["error"]["message"], "token " + std::to_string(id) + " was already revoked");
  r = Call("GET", "/api/v1/me/bots/alice-bot/tokens", "", alice);
  EXPECT_EQ(Body(r)["tokens"][0]["revoked_at"], 3000);
}

TEST_F(BotsApiTest, EveryPathNeedsASessionAndTheRightMethod) {
  for (const auto& [method, path] :
       std::vector<std::pair<std::string, std::string>>{{"GET", "/api/v1/me/bots"},
                                                        {"POST", "/api/v1/me/bots"},
                                                        {"GET", "/api/v1/me/bots/b/tokens"},
                                                        {"POST", "/api/v1/me/bots/b/tokens"},
                                                        {"POST", "/api/v1/me/bots/b/tokens/1/revoke"}}) {
    EXPECT_TRUE(PlayApi::Handles(path)) << path;  // private: no CORS, no cache
    const HttpResponse r = Call(method, path, method == "POST" ? R"({"name": "b"})" : "");
    EXPECT_EQ(r.status, 401) << method << ' ' << path;
  }
  EXPECT_TRUE(bots_.bots.empty());
  const std::string alice = SignUp("alice");
  std::string route;
  HttpResponse r = Call("DELETE", "/api/v1/me/bots/b/tokens", "", alice, &route);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(route, "/api/v1/me/bots/{}/tokens");
  r = Call("GET", "/api/v1/me/bots/b/tokens/1/revoke", "", alice, &route);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(route, "/api/v1/me/bots/{}/tokens/{}/revoke");
  EXPECT_FALSE(PlayApi::Handles("/api/v1/me/bots/"));
}

TEST_F(BotsApiTest, BadBodiesNamesAndIdsAreRefusedByName) {
  const std::string alice = SignUp("alice");
  HttpResponse r = Call("POST", "/api/v1/me/bots", R"({"name": "has space"})", alice);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "name");
  r = Call("POST", "/api/v1/me/bots", R"({"name": "b", "admin": true})", alice);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "admin");
  r = Call("POST", "/api/v1/me/bots", "", alice);
  EXPECT_EQ(r.status, 400);
  EXPECT_TRUE(bots_.bots.empty());
  ASSERT_EQ(Call("POST", "/api/v1/me/bots", R"({"name": "b"})", alice).status, 201);
  r = Call("POST", "/api/v1/me/bots/b/tokens", R"({"label": 7})", alice);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "label");
  r = Call("POST", "/api/v1/me/bots/b/tokens/x1/revoke", "", alice);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "token");
  r = Call("POST", "/api/v1/me/bots/b/tokens/0/revoke", "", alice);
  EXPECT_EQ(r.status, 400);
  EXPECT_TRUE(bots_.tokens.empty());
  // A label may be left out: an empty one.
  r = Call("POST", "/api/v1/me/bots/b/tokens", "", alice);
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(Body(r)["label"], "");
}

TEST_F(BotsApiTest, AnotherPersonsBotIsNotFoundAndQuotasSayWhy) {
  const std::string alice = SignUp("alice"), bob = SignUp("bob");
  ASSERT_EQ(Call("POST", "/api/v1/me/bots", R"({"name": "alice-bot"})", alice).status, 201);
  HttpResponse r = Call("POST", "/api/v1/me/bots/alice-bot/tokens", R"({"label": "x"})", alice);
  ASSERT_EQ(r.status, 201);
  const std::string id = std::to_string(Body(r)["token_id"].get<int64_t>());

  r = Call("POST", "/api/v1/me/bots/alice-bot/tokens", R"({"label": "mine now"})", bob);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Body(r)["error"]["message"], "you own no bot named 'alice-bot'");
  EXPECT_EQ(Call("GET", "/api/v1/me/bots/alice-bot/tokens", "", bob).status, 404);
  EXPECT_EQ(Call("POST", "/api/v1/me/bots/alice-bot/tokens/" + id + "/revoke", "", bob).status, 404);
  EXPECT_EQ(Body(Call("GET", "/api/v1/me/bots", "", bob))["bots"], Json::array());
  EXPECT_EQ(bots_.tokens.size(), 1u);
  EXPECT_EQ(bots_.tokens.begin()->second.info.revoked_unix_ms, 0);

  r = Call("POST", "/api/v1/me/bots", R"({"name": "alice-bot"})", bob);
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(Body(r)["error"]["status"], "ALREADY_EXISTS");
  ASSERT_EQ(Call("POST", "/api/v1/me/bots", R"({"name": "second"})", alice).status, 201);
  r = Call("POST", "/api/v1/me/bots", R"({"name": "third"})", alice);
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(Body(r)["error"]["status"], "RESOURCE_EXHAUSTED");
  EXPECT_EQ(Body(r)["error"]["message"], "you own 2 bots, the most a person may own is 2");
  EXPECT_FALSE(bots_.bots.count("third"));

  bots_.down = true;
  r = Call("GET", "/api/v1/me/bots", "", alice);
  EXPECT_EQ(r.status, 503);
}

TEST_F(BotsApiTest, AGatewayWithoutABotStoreSaysSo) {
  PlayApi bare(&api_, &backends_, &people_, &queue_, &play_, {});
  const std::string alice = SignUp("alice");
  std::string route;
  const HttpResponse r = bare.Handle({"GET", "/api/v1/me/bots", "", "", alice, "10.0.0.1"}, &route);
  EXPECT_EQ(r.status, 503);
}

}  // namespace
}  // namespace metropolis::gateway
