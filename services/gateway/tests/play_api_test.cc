// The people and play endpoints without a server or services: methods, bodies,
// cookies and errors, with the fake store; nothing here reaches a backend.
#include "services/gateway/play_api.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>

#include "lib/common/tests/fake_clock.h"
#include "metropolis/v1/matchmaker.grpc.pb.h"
#include "services/gateway/backends.h"
#include "services/gateway/catalog.h"
#include "services/gateway/tests/people_fakes.h"
#include "services/gateway/tests/play_api_fixture.h"

namespace metropolis::gateway {
namespace {

using testing::PlayApiFixture;

class PlayApiTest : public PlayApiFixture {
 protected:
  // Addresses nothing listens on: no test here may reach a backend.
  PlayApiTest() {
    BackendOptions o;
    o.replays = o.ratings = o.accounts = "127.0.0.1:1";
    StartGateway(o);
  }
  ~PlayApiTest() override { StopGateway(); }
};

TEST_F(PlayApiTest, SignUpSetsTheCookieThatSignsIn) {
  const std::string cookie = SignUp("alice");
  EXPECT_EQ(cookie.rfind("metropolis_session=", 0), 0u);
  HttpResponse r = Call("GET", "/api/v1/session", "", "theme=dark; " + cookie);
  ASSERT_EQ(r.status, 200) << r.body;
  const Json j = Body(r);
  EXPECT_EQ(j["player"]["name"], "alice");
  EXPECT_EQ(j["expires_at"], 1'700'000'000'000 + 7 * 24 * 3'600'000LL);
  EXPECT_TRUE(j["active_game"].is_null());
  EXPECT_TRUE(j["queue"].is_null());

  r = Call("POST", "/api/v1/session/signout", "", cookie);
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(Header(r, "Set-Cookie").rfind("metropolis_session=; Max-Age=0", 0), 0u);
  r = Call("GET", "/api/v1/session", "", cookie);
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(Body(r)["error"]["message"], "not signed in");
}

// A name a migration changed is told in the sign-in's answer, once (issue #14).
TEST_F(PlayApiTest, SignInTellsOfRenamesOnce) {
  SignUp("Alice-9");
  store_.untold[1] = {{1, "Alice", "Alice-9"}, {7, "helper", "Helper-7"}};
  const std::string body = R"({"name": "alice-9", "password": "correct horse"})";
  HttpResponse r = Call("POST", "/api/v1/session/signin", body);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["renamed"], Json::parse(R"([{"id": 1, "from": "Alice", "to": "Alice-9"},
                                                {"id": 7, "from": "helper", "to": "Helper-7"}])"));
  r = Call("POST", "/api/v1/session/signin", body);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["renamed"], Json::array());
}

TEST_F(PlayApiTest, BodiesAreJsonObjectsOfKnownFields) {
  HttpResponse r = Call("POST", "/api/v1/session/signup", "[1]");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["message"], "the body must be a JSON object");
  r = Call("POST", "/api/v1/session/signup", "");
  EXPECT_EQ(r.status, 400);
  r = Call("POST", "/api/v1/session/signup", R"({"name": "bob", "password": "correct horse", "role": "admin"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "role");
  r = Call("POST", "/api/v1/session/signup", R"({"name": "bob"})");
  EXPECT_EQ(Body(r)["error"]["message"], "password: required");
  r = Call("POST", "/api/v1/session/signup", R"({"name": 7, "password": "correct horse"})");
  EXPECT_EQ(Body(r)["error"]["message"], "name: must be a string");
  EXPECT_TRUE(store_.people.empty());
}

TEST_F(PlayApiTest, MethodsQueriesAndBodiesOutOfPlace) {
  HttpResponse r = Call("GET", "/api/v1/session/signup");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(Header(r, "Allow"), "POST");
  r = Call("PUT", "/api/v1/queue");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(Header(r, "Allow"), "GET, HEAD, POST, DELETE");
  r = Call("HEAD", "/api/v1/play/g-1/events");
  EXPECT_EQ(r.status, 405);
  r = Call("GET", "/api/v1/session", "", "", "debug=1");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "debug");
  const std::string cookie = SignUp("alice");
  r = Call("GET", "/api/v1/queue", "{}", cookie);
  EXPECT_EQ(r.status, 413);
}

TEST_F(PlayApiTest, EverythingButSignUpAndSignInNeedsASession) {
  for (const auto& [method, path] :
       std::vector<std::pair<std::string, std::string>>{{"GET", "/api/v1/session"},
                                                        {"POST", "/api/v1/session/signout"},
                                                        {"POST", "/api/v1/practice"},
                                                        {"GET", "/api/v1/queue"},
                                                        {"POST", "/api/v1/queue"},
                                                        {"DELETE", "/api/v1/queue"},
                                                        {"POST", "/api/v1/play/g-1/answer"},
                                                        {"GET", "/api/v1/account"},
                                                        {"POST", "/api/v1/account/password"},
                                                        {"POST", "/api/v1/account/sessions/0123456789abcdef/end"}}) {
    const HttpResponse r =
        Call(method, path, method == "POST" ? "{}" : "", "metropolis_session=" + std::string(64, '0'));
    EXPECT_EQ(r.status, 401) << method << " " << path;
  }
}

// The account page's endpoints (docs/GATEWAY.md, "Your account").
TEST_F(PlayApiTest, TheAccountListsSessionsAndANewPasswordSignsTheOthersOut) {
  const std::string here = SignUp("alice");
  HttpResponse r = Call("POST", "/api/v1/session/signin", R"({"name": "alice", "password": "correct horse"})");
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string set = Header(r, "Set-Cookie"), phone = set.substr(0, set.find(';'));
  r = Call("GET", "/api/v1/account", "", here);
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = Body(r);
  EXPECT_EQ(j["player"]["name"], "alice");
  ASSERT_EQ(j["sessions"].size(), 2u);
  EXPECT_EQ(j["sessions"][0]["current"], false);  // the newest first: the phone's
  EXPECT_EQ(j["sessions"][1]["current"], true);
  EXPECT_EQ(j["sessions"][1]["expires_at"], j["expires_at"]);
  for (const Json& s : j["sessions"]) {
    EXPECT_EQ(s["id"].get<std::string>().size(), 16u);
    EXPECT_TRUE(s.contains("created_at"));
  }

  // A wrong old password: refused by field, nothing changes.
  r = Call("POST", "/api/v1/account/password", R"({"old_password": "nope nope", "new_password": "battery staple"})",
           here);
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(Body(r)["error"]["parameter"], "old_password");
  EXPECT_EQ(Call("GET", "/api/v1/session", "", phone).status, 200);
  r = Call("POST", "/api/v1/account/password", R"({"old_password": "correct horse", "new_password": "battery staple"})",
           here);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r), Json::parse(R"({"sessions_ended": 1})"));
  EXPECT_EQ(Call("GET", "/api/v1/session", "", phone).status, 401);
  EXPECT_EQ(Call("GET", "/api/v1/session", "", here).status, 200);
  EXPECT_EQ(Call("POST", "/api/v1/session/signin", R"({"name": "alice", "password": "correct horse"})").status, 401);
  EXPECT_EQ(Call("POST", "/api/v1/session/signin", R"({"name": "alice", "password": "battery staple"})").status, 200);
}

TEST_F(PlayApiTest, EndingASessionByItsIdAndEndingThisOne) {
  const std::string here = SignUp("alice");
  const std::string bob = SignUp("bob");
  HttpResponse r = Call("POST", "/api/v1/session/signin", R"({"name": "alice", "password": "correct horse"})");
  const std::string set = Header(r, "Set-Cookie"), phone = set.substr(0, set.find(';'));
  const Json sessions = Body(Call("GET", "/api/v1/account", "", here))["sessions"];
  ASSERT_EQ(sessions.size(), 2u);
  const std::string phone_id = sessions[0]["id"], here_id = sessions[1]["id"];
  const std::string bob_id = Body(Call("GET", "/api/v1/account", "", bob))["sessions"][0]["id"];
  // Another person's session is not found, and stays.
  r = Call("POST", "/api/v1/account/sessions/" + bob_id + "/end", "", here);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Body(r)["error"]["parameter"], "session");
  EXPECT_EQ(Call("GET", "/api/v1/session", "", bob).status, 200);
  r = Call("POST", "/api/v1/account/sessions/ZZ/end", "", here);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "session");

  r = Call("POST", "/api/v1/account/sessions/" + phone_id + "/end", "{}", here);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r), Json::parse(R"({"signed_out": false})"));
  EXPECT_EQ(Header(r, "Set-Cookie"), "");
  EXPECT_EQ(Call("GET", "/api/v1/session", "", phone).status, 401);
  // This session's own id: signed out, the cookie cleared, as at sign-out.
  r = Call("POST", "/api/v1/account/sessions/" + here_id + "/end", "", here);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r), Json::parse(R"({"signed_out": true})"));
  EXPECT_EQ(Header(r, "Set-Cookie").rfind("metropolis_session=; Max-Age=0", 0), 0u);
  EXPECT_EQ(Call("GET", "/api/v1/account", "", here).status, 401);
}

TEST_F(PlayApiTest, TheAccountsMethodsAndBodies) {
  const std::string here = SignUp("alice");
  HttpResponse r = Call("GET", "/api/v1/account/password", "", here);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(Header(r, "Allow"), "POST");
  r = Call("POST", "/api/v1/account", "{}", here);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(Header(r, "Allow"), "GET, HEAD");
  r = Call("GET", "/api/v1/account/sessions/0123456789abcdef/end", "", here);
  EXPECT_EQ(r.status, 405);
  r = Call("POST", "/api/v1/account/password",
           R"({"old_password": "correct horse", "new_password": "battery staple", "again": "x"})", here);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "again");
  r = Call("POST", "/api/v1/account/password", R"({"old_password": "correct horse"})", here);
  EXPECT_EQ(Body(r)["error"]["message"], "new_password: required");
  r = Call("POST", "/api/v1/account/password", R"({"old_password": "correct horse", "new_password": "short"})", here);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["message"], "new_password: must be 8 to 128 bytes, not 5");
  r = Call("POST", "/api/v1/account/sessions/0123456789abcdef/end", R"({"why": 1})", here);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(store_.people[1].second, "hash:correct horse");
}

TEST_F(PlayApiTest, PracticeChecksItsFieldsAndNeedsTheHostsToken) {
  const std::string cookie = SignUp("alice");
  HttpResponse r = Call("POST", "/api/v1/practice", R"({"bots": 1, "strength": "heuristic"})", cookie);
  EXPECT_EQ(Body(r)["error"]["message"], "bots: 1 is not in 2..3");
  r = Call("POST", "/api/v1/practice", R"({"bots": 2, "strength": "search:ms=5000"})", cookie);
  EXPECT_EQ(Body(r)["error"]["parameter"], "strength");
  r = Call("POST", "/api/v1/practice", R"({"bots": 2, "strength": "random"})", cookie);
  EXPECT_EQ(r.status, 503);
  EXPECT_NE(Body(r)["error"]["message"].get<std::string>().find("--gamehost-admin-token"), std::string::npos);
}

TEST_F(PlayApiTest, AnswersAreCheckedThenNeedAnOpenStream) {
  const std::string cookie = SignUp("alice");
  store_.SaveSeat(1, {"g-mine", "127.0.0.1:1", "seat-token", 2});
  HttpResponse r = Call("POST", "/api/v1/play/g-mine/answer", R"({"step": 3})", cookie);
  EXPECT_EQ(Body(r)["error"]["message"], "code: give exactly one of code and text");
  r = Call("POST", "/api/v1/play/g-mine/answer", R"({"step": 3, "code": 12})", cookie);
  EXPECT_EQ(Body(r)["error"]["message"], "code: must be a string");
  r = Call("POST", "/api/v1/play/g-mine/answer", R"({"step": 3, "code": "18446744073709551616"})", cookie);
  EXPECT_EQ(Body(r)["error"]["parameter"], "code");
  r = Call("POST", "/api/v1/play/g-mine/answer", R"({"step": 3, "text": "build_road"})", cookie);
  EXPECT_EQ(Body(r)["error"]["parameter"], "text");
  r = Call("POST", "/api/v1/play/g-mine/answer", R"({"step": 3.5, "text": "end_turn"})", cookie);
  EXPECT_EQ(Body(r)["error"]["parameter"], "step");
  r = Call("POST", "/api/v1/play/bad id/answer", R"({"step": 3, "text": "end_turn"})", cookie);
  EXPECT_EQ(Body(r)["error"]["parameter"], "game_id");
  // Well formed, the person's seat, but no event stream open in this session.
  r = Call("POST", "/api/v1/play/g-mine/answer", R"({"step": 3, "text": "offer give 2brick want 1ore to 1,3"})",
           cookie);
  EXPECT_EQ(r.status, 409) << r.body;
  EXPECT_NE(Body(r)["error"]["message"].get<std::string>().find("/api/v1/play/g-mine/events"), std::string::npos);
}

// POST /api/v1/play/{id}/resign: a session, the person's seat, no fields, and
// the game's open event stream, which carries the resignation to the host.
TEST_F(PlayApiTest, ResignationsAreCheckedThenNeedAnOpenStream) {
  EXPECT_EQ(Call("POST", "/api/v1/play/g-mine/resign").status, 401);
  const std::string cookie = SignUp("alice");
  store_.SaveSeat(1, {"g-mine", "127.0.0.1:1", "seat-token", 2});
  EXPECT_EQ(Call("GET", "/api/v1/play/g-mine/resign", "", cookie).status, 405);
  HttpResponse r = Call("POST", "/api/v1/play/g-mine/resign", R"({"seat": 1})", cookie);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "seat");
  r = Call("POST", "/api/v1/play/bad id/resign", "", cookie);
  EXPECT_EQ(Body(r)["error"]["parameter"], "game_id");
  for (const char* body : {"", "{}", " {} "}) {
    r = Call("POST", "/api/v1/play/g-mine/resign", body, cookie);
    EXPECT_EQ(r.status, 409) << body << ": " << r.body;
    EXPECT_NE(Body(r)["error"]["message"].get<std::string>().find("/api/v1/play/g-mine/events"), std::string::npos);
  }
}

TEST_F(PlayApiTest, QueueWithoutATicket) {
  const std::string cookie = SignUp("alice");
  HttpResponse r = Call("GET", "/api/v1/queue", "", cookie);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(Body(r)["state"], "none");
  r = Call("DELETE", "/api/v1/queue", "", cookie);
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(Body(r)["error"]["message"], "not waiting in a queue");
  r = Call("POST", "/api/v1/queue", R"({"ladder": "Open Ladder"})", cookie);
  EXPECT_EQ(Body(r)["error"]["parameter"], "ladder");
  // This gateway has no matchmaker.
  r = Call("POST", "/api/v1/queue", R"({"ladder": "open"})", cookie);
  EXPECT_EQ(r.status, 503);
}

// A game host on loopback that creates games and answers for them: live until
// the test says a game finished, unknown once it forgets one.
class FakeHost final : public v1::GameHost::Service {
 public:
  FakeHost() {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }
  ~FakeHost() override { server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5)); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  grpc::Status CreateGame(grpc::ServerContext*, const v1::CreateGameRequest* request,
                          v1::CreateGameResponse* response) override {
    std::lock_guard lock(mutex_);
    if (refuse) return {grpc::StatusCode::RESOURCE_EXHAUSTED, "this host runs all the games it may"};
    if (games_.count(request->game_id())) return {grpc::StatusCode::ALREADY_EXISTS, "exists"};
    games_[request->game_id()] = v1::GAME_STATUS_LIVE;
    configs.push_back(request->config());
    response->set_game_id(request->game_id());
    for (int i = 0; i < request->seats_size(); ++i) response->add_seat_tokens("seat-" + std::to_string(i));
    return grpc::Status::OK;
  }
  grpc::Status GetGame(grpc::ServerContext*, const v1::GetGameRequest* request, v1::GameInfo* response) override {
    std::lock_guard lock(mutex_);
    ++lookups;
    auto it = games_.find(request->game_id());
    if (it == games_.end()) return {grpc::StatusCode::NOT_FOUND, "no such game"};
    response->set_game_id(it->first);
    response->set_status(it->second);
    return grpc::Status::OK;
  }

  size_t games() {
    std::lock_guard lock(mutex_);
    return games_.size();
  }
  std::vector<v1::GameConfig> Configs() {
    std::lock_guard lock(mutex_);
    return configs;
  }
  void Finish(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    games_[game_id] = v1::GAME_STATUS_FINISHED;
  }
  void Live(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    games_[game_id] = v1::GAME_STATUS_LIVE;
  }
  void Forget(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    games_.erase(game_id);
  }
  std::atomic<bool> refuse{false};  // CreateGame fails
  std::atomic<int> lookups{0};      // GetGame calls

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
  std::mutex mutex_;
  std::map<std::string, v1::GameStatus> games_;
  std::vector<v1::GameConfig> configs;  // of every game created, in order
};

// Practice games per person (--max-practice-games): the slots are the People
// service's to count, so that the limit holds across gateways.
class PracticeLimitTest : public PlayApiFixture {
 protected:
  PracticeLimitTest() {
    BackendOptions o;
    o.replays = o.ratings = o.accounts = "127.0.0.1:1";  // no ladders: the configured host only
    o.hosts = {host_.address()};
    o.gamehost_admin_token = "admin";
    StartGateway(o, {.max_practice_games = 2}, /*with_catalog=*/true);
  }
  ~PracticeLimitTest() override { StopGateway(); }

  // A practice start: its status, and the game's id when created.
  std::pair<int, std::string> Start(const std::string& cookie) {
    const HttpResponse r = Call("POST", "/api/v1/practice", R"({"bots": 2, "strength": "random"})", cookie);
    const Json j = Json::parse(r.body);
    last_ = j;
    return {r.status, r.status == 201 ? j["game_id"].get<std::string>() : ""};
  }

  FakeHost host_;
  Json last_;
};

// Every practice game is played on a board of its own (a random board from a
// seed of its own), not on the default board, where each game would start the
// same and the bots open the same way.
TEST_F(PracticeLimitTest, EachPracticeGameHasABoardOfItsOwn) {
  const std::string cookie = SignUp("ana");
  ASSERT_EQ(Start(cookie).first, 201);
  ASSERT_EQ(Start(cookie).first, 201);
  const std::vector<v1::GameConfig> configs = host_.Configs();
  ASSERT_EQ(configs.size(), 2u);
  for (const v1::GameConfig& c : configs) {
    EXPECT_FALSE(c.has_board()) << "a fixed board";
    EXPECT_NE(c.random_board_seed(), 0u) << "the default board";
  }
  EXPECT_NE(configs[0].random_board_seed(), configs[1].random_board_seed());
}

TEST_F(PracticeLimitTest, AThirdUnfinishedGameIsRefusedAndNothingIsCreated) {
  const std::string alice = SignUp("alice"), bob = SignUp("bob");
  const auto [first, g1] = Start(alice);
  const auto [second, g2] = Start(alice);
  ASSERT_EQ(first, 201) << last_;
  ASSERT_EQ(second, 201) << last_;
  EXPECT_EQ(store_.seats.size(), 2u);

  EXPECT_EQ(Start(alice).first, 429);
  EXPECT_EQ(last_["error"]["status"], "RESOURCE_EXHAUSTED");
  EXPECT_EQ(last_["error"]["message"],
            "at most 2 practice games at once, and you have 2 unfinished: finishing or resigning one frees a slot");
  EXPECT_EQ(host_.games(), 2u);        // no game on the host
  EXPECT_EQ(store_.seats.size(), 2u);  // no seat stored
  EXPECT_EQ(store_.open_practice.size(), 2u);
  EXPECT_EQ(Start(bob).first, 201);  // the limit is each person's
}

TEST_F(PracticeLimitTest, AFinishedGameFreesItsSlot) {
  const std::string alice = SignUp("alice");
  const std::string g1 = Start(alice).second;
  ASSERT_EQ(Start(alice).first, 201);
  ASSERT_EQ(Start(alice).first, 429);
  // The game ended with no stream of this gateway to see it: its host says so.
  host_.Finish(g1);
  ASSERT_EQ(Start(alice).first, 201) << last_;
  EXPECT_EQ(Start(alice).first, 429);
  // A game its host no longer knows frees its slot too; the end a stream saw
  // (FinishSeat) as well.
  std::vector<std::string> open;
  for (const auto& [key, seat] : store_.open_practice) open.push_back(key.second);
  ASSERT_EQ(open.size(), 2u);
  host_.Forget(open[0]);
  ASSERT_EQ(Start(alice).first, 201) << last_;
  store_.MarkSeatFinished(1, open[1]);
  EXPECT_EQ(Start(alice).first, 201) << last_;
  EXPECT_EQ(Start(alice).first, 429);
}

TEST_F(PracticeLimitTest, AReservationWithoutAGameIsFreedAfterTheGrace) {
  const std::string alice = SignUp("alice");
  // Another gateway reserved two slots and died before creating the games.
  ASSERT_TRUE(store_.ReservePracticeSeat(1, "practice-lost-1", 2).ok());
  ASSERT_TRUE(store_.ReservePracticeSeat(1, "practice-lost-2", 2).ok());
  store_.open_practice[{1, "practice-lost-1"}].age_ms = 60'000;  // maybe still being created
  EXPECT_EQ(Start(alice).first, 429);
  store_.open_practice[{1, "practice-lost-1"}].age_ms = 121'000;
  EXPECT_EQ(Start(alice).first, 201) << last_;
  EXPECT_EQ(host_.games(), 1u);
}

TEST_F(PracticeLimitTest, AGameNoHostCreatedGivesItsSlotBack) {
  const std::string alice = SignUp("alice");
  host_.refuse = true;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(Start(alice).first, 503) << last_;
  EXPECT_TRUE(store_.open_practice.empty());
  host_.refuse = false;
  EXPECT_EQ(Start(alice).first, 201) << last_;
}

// A matchmaker that seats every ticket at once, in game `game_id` on `host`.
class SeatingMatchmaker final : public v1::Matchmaker::Service {
 public:
  SeatingMatchmaker(std::string game_id, std::string host) : game_id_(std::move(game_id)), host_(std::move(host)) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }
  ~SeatingMatchmaker() override { server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5)); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  grpc::Status Enqueue(grpc::ServerContext*, const v1::EnqueueRequest*,
                       grpc::ServerWriter<v1::EnqueueUpdate>* writer) override {
    v1::EnqueueUpdate update;
    v1::Assignment* a = update.mutable_assignment();
    a->set_game_id(game_id_);
    a->set_host(host_);
    a->set_seat_token("seat-2");
    a->set_seat(2);
    writer->Write(update);
    return grpc::Status::OK;
  }

 private:
  const std::string game_id_, host_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

// A ladder match whose game is over is done with: the lobby reads the queue
// as "none" again (its ladder kept), not "matched" to the finished game, which
// sent a person back to that game after every ladder game.
class LadderQueueTest : public PlayApiFixture {
 protected:
  LadderQueueTest() : matchmaker_("g-ladder-1", host_.address()) {
    BackendOptions o;
    o.replays = o.ratings = o.accounts = "127.0.0.1:1";
    o.matchmaker = matchmaker_.address();
    o.hosts = {host_.address()};
    StartGateway(o);
  }
  ~LadderQueueTest() override { StopGateway(); }

  // The answer's body; every call here must succeed.
  Json Ok(std::string_view method, std::string_view path, std::string_view body, std::string_view cookie) {
    const HttpResponse r = Call(method, path, body, cookie);
    EXPECT_LT(r.status, 300) << method << " " << path << ": " << r.body;
    return Body(r);
  }

  FakeHost host_;
  SeatingMatchmaker matchmaker_;
};

TEST_F(LadderQueueTest, AMatchWhoseGameIsOverIsDoneWith) {
  host_.Live("g-ladder-1");
  const std::string cookie = SignUp("ana");
  ASSERT_FALSE(cookie.empty());
  Json q = Ok("POST", "/api/v1/queue", R"({"ladder": "open"})", cookie);
  ASSERT_EQ(q["state"], "matched") << q;
  // While the game runs the lobby is sent to it, by the queue and the session.
  q = Ok("GET", "/api/v1/queue", "", cookie);
  EXPECT_EQ(q["state"], "matched") << q;
  EXPECT_EQ(q["game_id"], "g-ladder-1");
  EXPECT_EQ(Ok("GET", "/api/v1/session", "", cookie)["queue"]["state"], "matched");
  host_.Finish("g-ladder-1");
  // The lobby polls: a game its host said runs is not asked about again for
  // running_recheck (3 s), so the end shows after at most that.
  const int asked = host_.lookups;
  EXPECT_EQ(Ok("GET", "/api/v1/queue", "", cookie)["state"], "matched");
  EXPECT_EQ(Ok("GET", "/api/v1/session", "", cookie)["queue"]["state"], "matched");
  EXPECT_EQ(host_.lookups, asked) << "the host was asked again within running_recheck";
  clock_.Advance(3000);
  q = Ok("GET", "/api/v1/queue", "", cookie);
  EXPECT_EQ(q["state"], "none") << q;
  EXPECT_EQ(q["ladder"], "open");
  EXPECT_TRUE(q["game_id"].is_null());
  EXPECT_TRUE(q["error"].is_null());
  EXPECT_EQ(Ok("GET", "/api/v1/session", "", cookie)["queue"]["state"], "none");
  // And the person queues again.
  host_.Live("g-ladder-1");
  EXPECT_EQ(Ok("POST", "/api/v1/queue", R"({"ladder": "open"})", cookie)["state"], "matched");
}

}  // namespace
}  // namespace metropolis::gateway
