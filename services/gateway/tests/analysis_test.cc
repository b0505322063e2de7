// A game's analysis through the gateway (docs/GATEWAY.md, "A game's analysis"):
// the JSON made of the replays service's answers, and both endpoints against a
// fake replays service on loopback — the public GET through Api, a person's POST
// through PlayApi — with the record file carrying the analysis beside the actions;
// and a player's luck over their analysed games (GET /api/v1/players/{name}/luck),
// the name resolved by a fake accounts service.
#include "services/gateway/analysis.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>

#include "engine/game.h"
#include "lib/common/tests/fake_clock.h"
#include "services/gateway/api.h"
#include "services/gateway/play_api.h"
#include "services/gateway/tests/people_fakes.h"

namespace metropolis::gateway {
namespace {

// What `metropolis-engine analyse --json` prints, cut to two seats and a few points.
constexpr char kAnalysis[] =
    R"({"luck":{"production_rolls":133,"barbarian_attacks":10,"cards_per_vp":12.923,"seats":[)"
    R"({"seat":0,"expected_cards":134.5,"dice_cards":129,"expected_draws":23.167,"draws":22,"cards_stolen":7,)"
    R"("cards_lost":11,"cards_discarded":33,"cities_pillaged":1,"defender_points":1,"luck_cards":-7.833,"vp":13,)"
    R"("adjusted_vp":13.606,"place":1,"adjusted_place":1},)"
    R"({"seat":1,"expected_cards":121.889,"dice_cards":125,"expected_draws":29.139,"draws":23,"cards_stolen":6,)"
    R"("cards_lost":9,"cards_discarded":66,"cities_pillaged":0,"defender_points":3,"luck_cards":-9.167,"vp":10,)"
    R"("adjusted_vp":10.709,"place":2,"adjusted_place":2}]},)"
    R"("graph":[{"step":0,"turn":0,"actor":0,"win":[0.5,0.5]},{"step":1292,"turn":133,"actor":-1,"win":[1.0,0.0]}],)"
    R"("marks":[{"step":136,"seat":1,"played":"buy_improvement politics","suggested":"build_road e7","cost":0.066},)"
    R"({"step":326,"seat":1,"played":"end_turn","suggested":"bank_trade lumber paper","cost":null}],)"
    R"("decisions":812,"cpu_seconds":0.124})";

v1::GameAnalysis Ready(const std::string& game_id) {
  v1::GameAnalysis a;
  a.set_game_id(game_id);
  a.set_state(v1::ANALYSIS_READY);
  a.set_analysis_json(kAnalysis);
  a.set_method_version(1);
  a.set_cpu_seconds(0.124);
  a.set_analysed_unix_ms(1'700'000'000'000);
  return a;
}

TEST(AnalysisJson, ReadyCarriesTheAnalysisAsAnObject) {
  Json out;
  ApiError error;
  ASSERT_TRUE(AnalysisToJson(Ready("g-1"), &out, &error)) << error.message;
  EXPECT_EQ(out["game_id"], "g-1");
  EXPECT_EQ(out["state"], "ready");
  EXPECT_EQ(out["analysis"], Json::parse(kAnalysis));
  EXPECT_EQ(out["method_version"], 1);
  EXPECT_DOUBLE_EQ(out["cpu_seconds"].get<double>(), 0.124);
  EXPECT_EQ(out["analysed_unix_ms"], 1'700'000'000'000);
}

TEST(AnalysisJson, OtherStatesHaveEveryFieldNull) {
  for (const auto& [state, name] :
       {std::pair{v1::ANALYSIS_QUEUED, "queued"}, std::pair{v1::ANALYSIS_NOT_ANALYSED, "not_analysed"}}) {
    v1::GameAnalysis a = Ready("g-1");
    a.set_state(state);  // what else the service sent is not passed on
    Json out;
    ApiError error;
    ASSERT_TRUE(AnalysisToJson(a, &out, &error)) << error.message;
    EXPECT_EQ(out,
              Json::parse(std::string(R"({"game_id":"g-1","state":")") + name +
                          R"(","analysis":null,"method_version":null,"cpu_seconds":null,"analysed_unix_ms":null})"));
  }
}

TEST(AnalysisJson, AnAnswerTheApiCannotPassOnBlamesTheService) {
  v1::GameAnalysis a = Ready("g-1");
  a.set_state(v1::ANALYSIS_STATE_UNSPECIFIED);
  Json out;
  ApiError error;
  EXPECT_FALSE(AnalysisToJson(a, &out, &error));
  EXPECT_EQ(error.http, 502);
  EXPECT_EQ(error.backend, "replays");
  EXPECT_EQ(error.message, "replays: game g-1: an analysis without a state (0)");
  for (const char* bad : {"", "[1]", "{\"luck\":", "null"}) {
    a = Ready("g-1");
    a.set_analysis_json(bad);
    EXPECT_FALSE(AnalysisToJson(a, &out, &error)) << bad;
    EXPECT_EQ(error.http, 502);
    EXPECT_EQ(error.message, "replays: game g-1: the analysis is not a JSON object");
  }
}

// A record the engine wrote, of a game with no action yet: enough for its reader.
std::string EngineRecord() {
  GameRecord record;
  record.config.board = DefaultBoard();
  record.players = {"a", "b", "c", "d"};
  return GameRecordToJson(record);
}

TEST(RecordFile, TheAnalysisGoesBesideTheActionsAndTheEngineStillReadsIt) {
  v1::ExportGameResponse exported;
  exported.set_record_json(EngineRecord());
  Json out;
  ApiError error;
  ASSERT_TRUE(RecordToJson("g-1", exported, &out, &error)) << error.message;
  EXPECT_FALSE(out.contains("analysis"));  // none yet: the record as it was
  EXPECT_EQ(out, Json::parse(EngineRecord()));

  exported.set_analysis_json(kAnalysis);
  ASSERT_TRUE(RecordToJson("g-1", exported, &out, &error)) << error.message;
  EXPECT_EQ(out["analysis"], Json::parse(kAnalysis));
  Json without = out;
  without.erase("analysis");
  EXPECT_EQ(without, Json::parse(EngineRecord()));
  // The engine's reader skips the key it does not know (engine/game.h).
  GameRecord read;
  std::string read_error;
  ASSERT_TRUE(GameRecordFromJson(Dump(out), &read, &read_error)) << read_error;
  EXPECT_EQ(read.players, (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(RecordFile, ARecordOrAnalysisThatIsNotAnObjectIsTheServicesFault) {
  v1::ExportGameResponse exported;
  exported.set_record_json("not json");
  Json out;
  ApiError error;
  EXPECT_FALSE(RecordToJson("g-1", exported, &out, &error));
  EXPECT_EQ(error.http, 502);
  EXPECT_EQ(error.message, "replays: game g-1: the record is not JSON");
  exported.set_record_json(EngineRecord());
  exported.set_analysis_json("[]");
  EXPECT_FALSE(RecordToJson("g-1", exported, &out, &error));
  EXPECT_EQ(error.http, 502);
  EXPECT_EQ(error.message, "replays: game g-1: the record's analysis is not a JSON object");
}

TEST(AnalysisRoutes, OnlyTheAnalysisPostIsAPersonsRequest) {
  EXPECT_TRUE(PlayApi::Takes("POST", "/api/v1/games/g-1/analysis"));
  EXPECT_TRUE(PlayApi::Takes("DELETE", "/api/v1/games/g-1/analysis"));  // refused there with 405
  EXPECT_FALSE(PlayApi::Takes("GET", "/api/v1/games/g-1/analysis"));
  EXPECT_FALSE(PlayApi::Takes("HEAD", "/api/v1/games/g-1/analysis"));
  EXPECT_FALSE(PlayApi::Takes("POST", "/api/v1/games/g-1"));
  EXPECT_FALSE(PlayApi::Takes("POST", "/api/v1/games/g-1/analysis/x"));
  EXPECT_TRUE(PlayApi::Takes("GET", "/api/v1/session"));
  // The path is not a people's path: its GET answers any site (response_layer.h).
  EXPECT_FALSE(PlayApi::Handles("/api/v1/games/g-1/analysis"));
}

TEST(LuckSummaryJson, TheMeansAsTheServiceGaveThem) {
  v1::LuckSummary s;
  s.set_identity_id(7);
  s.set_games(3);
  s.set_luck_cards(1.8333333333333333);
  s.set_dice_surplus(-0.5);
  s.set_draw_surplus(1.1666666666666667);
  s.set_place(2.0);
  s.set_adjusted_place(2.6666666666666665);
  EXPECT_EQ(LuckSummaryToJson(s),
            Json::parse(R"({"games":3,"luck_cards":1.8333333333333333,"dice_surplus":-0.5,)"
                        R"("draw_surplus":1.1666666666666667,"place":2.0,"adjusted_place":2.6666666666666665})"));
  // No analysed game: every field there, all zero.
  EXPECT_EQ(
      LuckSummaryToJson(v1::LuckSummary()),
      Json::parse(R"({"games":0,"luck_cards":0,"dice_surplus":0,"draw_surplus":0,"place":0,"adjusted_place":0})"));
}

// The replays service's analysis side, on loopback: g-ready is analysed,
// g-queued waits, g-plain is not analysed until asked, g-hidden is a hidden
// tournament game; any other id is unknown. `queue_full` refuses requests.
// Luck summaries: identity 7 has two analysed games, any other valid identity
// none; `luck_failure` (a gRPC status code, 0 for none) fails them.
class FakeReplays final : public v1::Replays::Service {
 public:
  FakeReplays() {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }
  ~FakeReplays() override { server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5)); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  grpc::Status GetAnalysis(grpc::ServerContext*, const v1::GetAnalysisRequest* request,
                           v1::GameAnalysis* response) override {
    return Answer(request->game_id(), response);
  }
  grpc::Status RequestAnalysis(grpc::ServerContext*, const v1::RequestAnalysisRequest* request,
                               v1::GameAnalysis* response) override {
    ++requests;
    if (queue_full) return {grpc::StatusCode::RESOURCE_EXHAUSTED, "12000 games wait"};
    if (request->game_id() == "g-plain") plain_queued = true;
    return Answer(request->game_id(), response);
  }
  grpc::Status ExportGame(grpc::ServerContext*, const v1::ExportGameRequest* request,
                          v1::ExportGameResponse* response) override {
    if (request->game_id() != "g-ready" && request->game_id() != "g-plain") return Unknown(request->game_id());
    response->set_record_json(EngineRecord());
    if (request->game_id() == "g-ready") response->set_analysis_json(kAnalysis);
    return grpc::Status::OK;
  }

  grpc::Status GetLuckSummary(grpc::ServerContext*, const v1::GetLuckSummaryRequest* request,
                              v1::LuckSummary* response) override {
    ++luck_calls;
    last_luck_identity = request->identity_id();
    if (luck_failure != 0) return {grpc::StatusCode(luck_failure.load()), "the luck summary failed here"};
    if (request->identity_id() < 1) return {grpc::StatusCode::INVALID_ARGUMENT, "identity_id: at least 1"};
    response->set_identity_id(request->identity_id());
    if (request->identity_id() != 7) return grpc::Status::OK;
    response->set_games(2);
    response->set_luck_cards(1.75);
    response->set_dice_surplus(0.5);
    response->set_draw_surplus(0.625);
    response->set_place(1.5);
    response->set_adjusted_place(2.0);
    return grpc::Status::OK;
  }

  std::atomic<bool> queue_full{false};
  std::atomic<bool> plain_queued{false};
  std::atomic<int> requests{0};
  std::atomic<int> luck_failure{0};
  std::atomic<int> luck_calls{0};
  std::atomic<int64_t> last_luck_identity{0};

 private:
  grpc::Status Answer(const std::string& id, v1::GameAnalysis* response) {
    if (id == "g-hidden")
      return {grpc::StatusCode::FAILED_PRECONDITION, "game g-hidden is hidden until its tournament reveals it"};
    if (id == "g-ready") {
      *response = Ready(id);
      return grpc::Status::OK;
    }
    response->set_game_id(id);
    if (id == "g-queued" || (id == "g-plain" && plain_queued)) {
      response->set_state(v1::ANALYSIS_QUEUED);
      return grpc::Status::OK;
    }
    if (id == "g-plain") {
      response->set_state(v1::ANALYSIS_NOT_ANALYSED);
      return grpc::Status::OK;
    }
    return Unknown(id);
  }
  static grpc::Status Unknown(const std::string& id) {
    return {grpc::StatusCode::NOT_FOUND, "no game '" + id + "' is stored"};
  }

  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

class AnalysisEndpointsTest : public ::testing::Test {
 protected:
  AnalysisEndpointsTest()
      : backends_(Options(replays_.address())),
        api_(nullptr, &backends_),
        people_(&store_, &clock_, NewSessionToken),
        queue_(&backends_, &store_, &clock_),
        play_(&backends_),
        play_api_(&api_, &backends_, &people_, &queue_, &play_, {}) {}

  static BackendOptions Options(const std::string& replays) {
    BackendOptions o;
    o.replays = replays;
    o.ratings = o.accounts = "127.0.0.1:1";  // nothing here reaches them
    return o;
  }
  HttpResponse Get(std::string_view path, std::string_view query = "") {
    std::string route;
    return api_.Get(path, query, &route);
  }
  HttpResponse Post(std::string_view path, std::string_view cookie, std::string_view body = "",
                    std::string_view method = "POST") {
    std::string route;
    HttpResponse r = play_api_.Handle({method, path, "", body, cookie, "10.0.0.1"}, &route);
    last_route_ = route;
    return r;
  }
  std::string SignUp() {
    const HttpResponse r = Post("/api/v1/session/signup", "", R"({"name": "ana", "password": "correct horse"})");
    EXPECT_EQ(r.status, 201) << r.body;
    for (const auto& [n, v] : r.headers)
      if (n == "Set-Cookie") return v.substr(0, v.find(';'));
    return "";
  }
  static Json Body(const HttpResponse& r) { return Json::parse(r.body); }
  static std::string Header(const HttpResponse& r, const std::string& name) {
    for (const auto& [n, v] : r.headers)
      if (n == name) return v;
    return "";
  }

  FakeReplays replays_;
  services::testing::FakeClock clock_{0, 1'700'000'000'000};
  FakeStore store_;
  Backends backends_;
  Api api_;
  People people_;
  QueueHub queue_;
  PlayHub play_;
  PlayApi play_api_;
  std::string last_route_;
};

TEST_F(AnalysisEndpointsTest, GetAnswersEachState) {
  HttpResponse r = Get("/api/v1/games/g-ready/analysis");
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = Body(r);
  EXPECT_EQ(j["state"], "ready");
  EXPECT_EQ(j["analysis"]["marks"].size(), 2u);
  EXPECT_TRUE(j["analysis"]["marks"][1]["cost"].is_null());
  EXPECT_EQ(Body(Get("/api/v1/games/g-queued/analysis"))["state"], "queued");
  j = Body(Get("/api/v1/games/g-plain/analysis"));
  EXPECT_EQ(j["state"], "not_analysed");
  EXPECT_EQ(j["game_id"], "g-plain");
  EXPECT_TRUE(j["analysis"].is_null());
}

TEST_F(AnalysisEndpointsTest, GetRefusesPreciselyAsTheOtherGameReads) {
  HttpResponse r = Get("/api/v1/games/bad.id/analysis");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "game_id");
  EXPECT_EQ(Body(r)["error"]["message"], "game_id: 'bad.id' is not a game id (1 to 64 letters, digits, '-' or '_')");
  r = Get("/api/v1/games/g-unknown/analysis");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Body(r)["error"]["backend"], "replays");
  EXPECT_EQ(Body(r)["error"]["message"], "replays: no game 'g-unknown' is stored");
  r = Get("/api/v1/games/g-hidden/analysis");
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(Body(r)["error"]["status"], "FAILED_PRECONDITION");
  r = Get("/api/v1/games/g-ready/analysis", "refresh=1");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "refresh");
  EXPECT_EQ(replays_.requests, 0);  // a read never queues anything
}

TEST_F(AnalysisEndpointsTest, ARequestNeedsASignedInPerson) {
  HttpResponse r = Post("/api/v1/games/g-plain/analysis", "");
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(Body(r)["error"]["message"], "not signed in");
  r = Post("/api/v1/games/g-plain/analysis", "metropolis_session=" + std::string(64, '0'));
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(replays_.requests, 0);
}

TEST_F(AnalysisEndpointsTest, ARequestQueuesTheGameOnce) {
  const std::string cookie = SignUp();
  HttpResponse r = Post("/api/v1/games/g-plain/analysis", cookie);
  EXPECT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(last_route_, "/api/v1/games/{}/analysis");
  EXPECT_EQ(Body(r)["state"], "queued");
  EXPECT_EQ(replays_.requests, 1);
  EXPECT_EQ(Body(Get("/api/v1/games/g-plain/analysis"))["state"], "queued");
  // An analysed game answers with its analysis; {} is no body too.
  r = Post("/api/v1/games/g-ready/analysis", cookie, "{}");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["analysis"], Json::parse(kAnalysis));
}

TEST_F(AnalysisEndpointsTest, ARequestRefusedIsSaidPlainly) {
  const std::string cookie = SignUp();
  replays_.queue_full = true;
  HttpResponse r = Post("/api/v1/games/g-plain/analysis", cookie);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(Body(r)["error"]["message"], "replays: the analysis queue is full; try again later");
  EXPECT_EQ(Body(r)["error"]["grpc_status"], "RESOURCE_EXHAUSTED");
  EXPECT_EQ(Header(r, "Retry-After"), "30");
  replays_.queue_full = false;

  r = Post("/api/v1/games/bad.id/analysis", cookie);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "game_id");
  r = Post("/api/v1/games/g-unknown/analysis", cookie);
  EXPECT_EQ(r.status, 404);
  r = Post("/api/v1/games/g-hidden/analysis", cookie);
  EXPECT_EQ(r.status, 409);
  r = Post("/api/v1/games/g-plain/analysis", cookie, R"({"priority": 1})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "priority");
  r = Post("/api/v1/games/g-plain/analysis", cookie, "", "DELETE");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(Header(r, "Allow"), "GET, HEAD, POST");
  // The full queue, the unknown and the hidden game reached the service; the rest were refused first.
  EXPECT_EQ(replays_.requests, 3);
  EXPECT_FALSE(replays_.plain_queued);
}

TEST_F(AnalysisEndpointsTest, TheRecordFileCarriesTheAnalysisOnceThereIsOne) {
  HttpResponse r = Get("/api/v1/games/g-ready/record");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["analysis"], Json::parse(kAnalysis));
  EXPECT_EQ(Body(r)["players"], Json::parse(R"(["a","b","c","d"])"));
  r = Get("/api/v1/games/g-plain/record");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(Body(r).contains("analysis"));
  EXPECT_EQ(Get("/api/v1/games/g-unknown/record").status, 404);
}

// The accounts service's names, on loopback: ana is identity 7 (two analysed
// games), bo identity 8 (none); names match regardless of case, as the
// service's do. `down` answers UNAVAILABLE.
class FakeAccounts final : public v1::Accounts::Service {
 public:
  FakeAccounts() {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }
  ~FakeAccounts() override { server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5)); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  grpc::Status GetIdentity(grpc::ServerContext*, const v1::GetIdentityRequest* request,
                           v1::Identity* response) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "accounts are down"};
    std::string lower = request->name();
    for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (lower != "ana" && lower != "bo")
      return {grpc::StatusCode::NOT_FOUND, "player '" + request->name() + "' does not exist"};
    response->set_id(lower == "ana" ? 7 : 8);
    response->set_kind("player");
    response->set_name(lower);
    response->set_created_unix_ms(1'700'000'000'000);
    return grpc::Status::OK;
  }

  std::atomic<bool> down{false};

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

class PlayerLuckTest : public ::testing::Test {
 protected:
  PlayerLuckTest()
      : backends_(Options(replays_.address(), accounts_.address())),
        catalog_(&backends_),
        api_(&catalog_, &backends_) {}

  static BackendOptions Options(const std::string& replays, const std::string& accounts) {
    BackendOptions o;
    o.replays = replays;
    o.accounts = accounts;
    o.ratings = "127.0.0.1:1";  // nothing here reaches it
    return o;
  }
  HttpResponse Get(std::string_view path, std::string_view query = "") { return api_.Get(path, query, &route_); }
  static Json Body(const HttpResponse& r) { return Json::parse(r.body); }

  FakeReplays replays_;
  FakeAccounts accounts_;
  Backends backends_;
  Catalog catalog_;
  Api api_;
  std::string route_;
};

TEST_F(PlayerLuckTest, ThePlayersMeansByTheirIdentity) {
  HttpResponse r = Get("/api/v1/players/ana/luck");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(route_, "/api/v1/players/{}/luck");  // the metrics' label: never the name
  EXPECT_EQ(Body(r), Json::parse(R"({"player":"ana","games":2,"luck_cards":1.75,"dice_surplus":0.5,)"
                                 R"("draw_surplus":0.625,"place":1.5,"adjusted_place":2.0})"));
  EXPECT_EQ(replays_.last_luck_identity, 7);
  // Any spelling of the name is the same player, answered under its own.
  r = Get("/api/v1/players/ANA/luck");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["player"], "ana");
  EXPECT_EQ(Body(r)["games"], 2);
}

TEST_F(PlayerLuckTest, NoAnalysedGameIsAllZero) {
  HttpResponse r = Get("/api/v1/players/bo/luck");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(replays_.last_luck_identity, 8);
  EXPECT_EQ(Body(r), Json::parse(R"({"player":"bo","games":0,"luck_cards":0,"dice_surplus":0,)"
                                 R"("draw_surplus":0,"place":0,"adjusted_place":0})"));
}

TEST_F(PlayerLuckTest, AnUnknownOrMalformedNameIsRefusedBeforeTheReplaysService) {
  HttpResponse r = Get("/api/v1/players/nobody/luck");
  EXPECT_EQ(r.status, 404);
  // As the player page says it: the name is the client's, no service failed.
  EXPECT_EQ(Body(r)["error"]["message"], "player 'nobody' does not exist");
  EXPECT_TRUE(Body(r)["error"]["backend"].is_null());
  r = Get("/api/v1/players/no body/luck");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "name");
  r = Get("/api/v1/players/ana/luck", "ladder=open");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "ladder");
  EXPECT_EQ(replays_.luck_calls, 0);
}

TEST_F(PlayerLuckTest, AServiceThatCannotAnswerIsTheUsualError) {
  replays_.luck_failure = int(grpc::StatusCode::UNAVAILABLE);
  HttpResponse r = Get("/api/v1/players/ana/luck");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.backend, "replays");  // counted against the replays service
  EXPECT_EQ(r.grpc_status, "UNAVAILABLE");
  EXPECT_EQ(Body(r)["error"]["message"], "replays: the luck summary failed here");
  // A replays service that analyses no games says UNIMPLEMENTED: not the client's doing.
  replays_.luck_failure = int(grpc::StatusCode::UNIMPLEMENTED);
  r = Get("/api/v1/players/ana/luck");
  EXPECT_EQ(r.status, 502);
  EXPECT_EQ(Body(r)["error"]["backend"], "replays");
  replays_.luck_failure = 0;
  accounts_.down = true;
  r = Get("/api/v1/players/ana/luck");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.backend, "accounts");
  EXPECT_EQ(replays_.luck_calls, 2);  // not called without the player's identity
}

TEST(PlayerLuckDown, AReplaysServiceThatIsNotThereIs503) {
  FakeAccounts accounts;
  BackendOptions o;
  o.replays = o.ratings = "127.0.0.1:1";  // nothing listens there
  o.accounts = accounts.address();
  Backends backends(o);
  Catalog catalog(&backends);
  Api api(&catalog, &backends);
  std::string route;
  const HttpResponse r = api.Get("/api/v1/players/ana/luck", "", &route);
  EXPECT_EQ(r.status, 503) << r.body;
  EXPECT_EQ(Json::parse(r.body)["error"]["backend"], "replays");
  EXPECT_EQ(Json::parse(r.body)["error"]["grpc_status"], "UNAVAILABLE");
}

}  // namespace
}  // namespace metropolis::gateway
