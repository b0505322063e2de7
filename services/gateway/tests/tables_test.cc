// Friends' tables through the gateway (tables.h) over a fake matchmaker: the
// gateway forwards, acting for the person signed in; visitors only read; a
// playing round's seat is claimed once and saved with the person's seats; the
// matchmaker's refusals reach the person in its words; bad bodies change nothing.
#include "services/gateway/tables.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <mutex>

#include "metropolis/v1/matchmaker.grpc.pb.h"
#include "services/gateway/tests/play_api_fixture.h"

namespace metropolis::gateway {
namespace {

using testing::PlayApiFixture;

// One table, "abcdefghijkl", as a matchmaker keeps it; the calls it was sent.
class TableMatchmaker final : public v1::Matchmaker::Service {
 public:
  TableMatchmaker() {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }
  ~TableMatchmaker() override { server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5)); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  grpc::Status CreateTable(grpc::ServerContext*, const v1::CreateTableRequest* request,
                           v1::FriendsTable* out) override {
    std::lock_guard lock(mutex);
    acting_for.push_back(request->acting_for());
    settings = request->settings();
    table.set_table_id("abcdefghijkl");
    table.set_state("open");
    table.set_creator(request->acting_for().identity_id());
    *table.add_members() = request->acting_for();
    *table.mutable_settings() = request->settings();
    *out = table;
    return grpc::Status::OK;
  }
  grpc::Status GetTable(grpc::ServerContext*, const v1::GetTableRequest* request, v1::FriendsTable* out) override {
    std::lock_guard lock(mutex);
    acting_for.push_back(request->acting_for());
    if (!refusal.ok()) return refusal;
    if (request->table_id() != table.table_id()) return {grpc::StatusCode::NOT_FOUND, "no such table"};
    *out = table;
    if (request->claim_seat()) {
      ++claims;
      out->mutable_your_seat()->set_seat(1);
      out->mutable_your_seat()->set_seat_token("seat-token-" + std::to_string(claims));
    }
    return grpc::Status::OK;
  }
  grpc::Status JoinTable(grpc::ServerContext*, const v1::TableRequest* request, v1::FriendsTable* out) override {
    std::lock_guard lock(mutex);
    acting_for.push_back(request->acting_for());
    if (!refusal.ok()) return refusal;
    *table.add_members() = request->acting_for();
    *out = table;
    return grpc::Status::OK;
  }
  grpc::Status StartTable(grpc::ServerContext*, const v1::TableRequest* request, v1::FriendsTable* out) override {
    std::lock_guard lock(mutex);
    acting_for.push_back(request->acting_for());
    table.set_state("playing");
    table.set_round(1);
    table.set_game_id("table-abcdefghijkl-1");
    table.set_host("host-a:1");
    for (uint32_t s = 0; s < 4; ++s) {
      v1::TableSeat* seat = table.add_seating();
      seat->set_seat(s);
      seat->set_identity_id(s == 1 ? request->acting_for().identity_id() : 0);
      seat->set_name(s == 1 ? request->acting_for().name() : "bot:heuristic");
    }
    *out = table;
    return grpc::Status::OK;
  }

  std::mutex mutex;
  v1::FriendsTable table;
  v1::TableSettings settings;
  std::vector<v1::TablePerson> acting_for;
  grpc::Status refusal = grpc::Status::OK;
  int claims = 0;

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

class TablesTest : public PlayApiFixture {
 protected:
  TablesTest() {
    BackendOptions o;
    o.replays = o.ratings = o.accounts = "127.0.0.1:1";
    o.matchmaker = matchmaker_.address();
    StartGateway(o);
  }
  ~TablesTest() override { StopGateway(); }

  TableMatchmaker matchmaker_;
};

TEST_F(TablesTest, ThePersonCreatesAndTheGatewayActsForThem) {
  const std::string ana = SignUp("ana");
  HttpResponse r = Call("POST", "/api/v1/tables", R"({"seats": 3, "bot": "random", "decision_ms": 30000})", ana);
  ASSERT_EQ(r.status, 201) << r.body;
  const Json t = Body(r);
  EXPECT_EQ(t["id"], "abcdefghijkl");
  EXPECT_EQ(t["state"], "open");
  EXPECT_EQ(t["you"]["creator"], true);
  EXPECT_EQ(t["you"]["member"], true);
  EXPECT_TRUE(t["you"]["seat"].is_null());
  EXPECT_EQ(t["settings"]["seats"], 3);
  ASSERT_EQ(matchmaker_.acting_for.size(), 1u);
  EXPECT_EQ(matchmaker_.acting_for[0].name(), "ana");
  EXPECT_GT(matchmaker_.acting_for[0].identity_id(), 0);
  EXPECT_EQ(matchmaker_.settings.bot(), "random");
  EXPECT_EQ(matchmaker_.settings.time_bank_ms(), 300'000u) << "the bank's default";
}

TEST_F(TablesTest, AVisitorReadsATableButChangesNothing) {
  const std::string ana = SignUp("ana");
  ASSERT_EQ(Call("POST", "/api/v1/tables", "", ana).status, 201);
  HttpResponse r = Call("GET", "/api/v1/tables/abcdefghijkl");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["you"]["member"], false);
  EXPECT_EQ(matchmaker_.acting_for.back().identity_id(), 0) << "nobody signed in";
  const size_t calls = matchmaker_.acting_for.size();
  for (const char* action : {"join", "leave", "start"}) {
    r = Call("POST", std::string("/api/v1/tables/abcdefghijkl/") + action);
    EXPECT_EQ(r.status, 401) << action << ": " << r.body;
  }
  EXPECT_EQ(Call("POST", "/api/v1/tables", "{}").status, 401);
  EXPECT_EQ(matchmaker_.acting_for.size(), calls) << "nothing reached the matchmaker";
  EXPECT_EQ(Call("DELETE", "/api/v1/tables/abcdefghijkl", "", ana).status, 405);
}

TEST_F(TablesTest, APlayingRoundsSeatIsClaimedOnceAndSavedForThePlayPage) {
  const std::string ana = SignUp("ana");
  ASSERT_EQ(Call("POST", "/api/v1/tables", "", ana).status, 201);
  HttpResponse r = Call("POST", "/api/v1/tables/abcdefghijkl/start", "", ana);
  ASSERT_EQ(r.status, 200) << r.body;
  Json t = Body(r);
  EXPECT_EQ(t["state"], "playing");
  EXPECT_EQ(t["game_id"], "table-abcdefghijkl-1");
  EXPECT_EQ(t["you"]["seat"], 1);
  EXPECT_EQ(t["seating"][0]["bot"], true);
  EXPECT_TRUE(t["seating"][0]["id"].is_null());
  EXPECT_EQ(t["seating"][1]["id"], matchmaker_.acting_for[0].identity_id());
  EXPECT_EQ(matchmaker_.claims, 1);
  HeldSeat seat;
  ASSERT_TRUE(store_.FindSeat(matchmaker_.acting_for[0].identity_id(), "table-abcdefghijkl-1", &seat).ok());
  EXPECT_EQ(seat.seat_token, "seat-token-1");
  EXPECT_EQ(seat.host, "host-a:1");
  EXPECT_EQ(seat.seat, 1);
  // Reading the table again keeps the seat saved: no fresh token is asked for.
  ASSERT_EQ(Call("GET", "/api/v1/tables/abcdefghijkl", "", ana).status, 200);
  EXPECT_EQ(matchmaker_.claims, 1);
  // Another person (not seated) claims nothing.
  const std::string bo = SignUp("bo");
  r = Call("GET", "/api/v1/tables/abcdefghijkl", "", bo);
  ASSERT_EQ(r.status, 200);
  EXPECT_TRUE(Body(r)["you"]["seat"].is_null());
  EXPECT_EQ(matchmaker_.claims, 1);
}

TEST_F(TablesTest, TheMatchmakersRefusalsReachThePersonInItsWords) {
  const std::string ana = SignUp("ana");
  matchmaker_.refusal = {grpc::StatusCode::RESOURCE_EXHAUSTED, "table abcdefghijkl is full (4 of 4 seats taken)"};
  HttpResponse r = Call("POST", "/api/v1/tables/abcdefghijkl/join", "", ana);
  EXPECT_EQ(r.status, 409) << r.body;
  EXPECT_EQ(Body(r)["error"]["message"], "table abcdefghijkl is full (4 of 4 seats taken)") << r.body;
  matchmaker_.refusal = {grpc::StatusCode::FAILED_PRECONDITION, "table abcdefghijkl has started: nobody joins it now"};
  r = Call("POST", "/api/v1/tables/abcdefghijkl/join", "", ana);
  EXPECT_EQ(r.status, 409);
  matchmaker_.refusal = {grpc::StatusCode::NOT_FOUND, "table zzzzzzzzzzzz does not exist or has expired"};
  EXPECT_EQ(Call("GET", "/api/v1/tables/zzzzzzzzzzzz").status, 404);
}

TEST_F(TablesTest, BadBodiesAreRefusedNamingTheFieldAndReachNothing) {
  const std::string ana = SignUp("ana");
  const auto refused = [&](std::string_view path, std::string_view body, const std::string& field) {
    const HttpResponse r = Call("POST", path, body, ana);
    EXPECT_EQ(r.status, 400) << body << ": " << r.body;
    EXPECT_NE(r.body.find(field), std::string::npos) << body << ": " << r.body;
  };
  refused("/api/v1/tables", R"({"seats": 5})", "seats");
  refused("/api/v1/tables", R"({"bot": "oracle"})", "bot");
  refused("/api/v1/tables", R"({"decision_ms": 10})", "decision_ms");
  refused("/api/v1/tables", R"({"colour": "red"})", "colour");
  refused("/api/v1/tables", R"({"spectator_delay_ms": 90000})", "whole number of minutes");
  refused("/api/v1/tables", R"([1])", "JSON object");
  refused("/api/v1/tables/abcdefghijkl/rematch", R"({})", "round");
  refused("/api/v1/tables/abcdefghijkl/rematch", R"({"round": 0})", "round");
  refused("/api/v1/tables/abcdefghijkl/join", R"({"x": 1})", "x");
  EXPECT_TRUE(matchmaker_.acting_for.empty());
}

// A table's games are watched with its delay, or not at all: a table the
// matchmaker no longer has (expired) or cannot be asked about is refused.
TEST_F(TablesTest, ATablesGameIsWatchedWithItsDelayOrNotAtAll) {
  BackendOptions o;
  o.replays = o.ratings = o.accounts = "127.0.0.1:1";
  o.matchmaker = matchmaker_.address();
  Backends backends(o);
  std::chrono::milliseconds delay{-1};
  ApiError error;
  ASSERT_TRUE(TableSpectatorDelay(&backends, "m-0123456789ab", &delay, &error)) << "not a table's game";
  EXPECT_EQ(delay.count(), 0);
  const std::string ana = SignUp("ana");
  ASSERT_EQ(Call("POST", "/api/v1/tables", R"({"spectator_delay_ms": 120000})", ana).status, 201);
  ASSERT_TRUE(TableSpectatorDelay(&backends, "table-abcdefghijkl-1", &delay, &error)) << error.message;
  EXPECT_EQ(delay.count(), 120'000);
  EXPECT_FALSE(TableSpectatorDelay(&backends, "table-zzzzzzzzzzzz-1", &delay, &error)) << "an expired table's game";
  EXPECT_EQ(error.http, 404);
  matchmaker_.refusal = {grpc::StatusCode::UNAVAILABLE, "down"};
  EXPECT_FALSE(TableSpectatorDelay(&backends, "table-abcdefghijkl-1", &delay, &error));
  EXPECT_EQ(error.http, 503);
}

}  // namespace
}  // namespace metropolis::gateway
