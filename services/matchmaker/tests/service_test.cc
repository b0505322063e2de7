// The Matchmaker service over gRPC (in process) over the in-memory ticket store
// (tests/fake_ticket_store.h; no server needed): what a client that queues again
// is handed.
// A client whose stream broke before its seat arrived resumes the assigned
// ticket; one whose game is over must get a new ticket, even when the write that
// marked its seat delivered was lost (a Redis failover; docs/FAILURES.md,
// "Redis failover").
#include "services/matchmaker/service.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "services/matchmaker/tables/tests/fake_table_store.h"
#include "services/matchmaker/tests/fake_creator.h"
#include "services/matchmaker/tests/fake_ticket_store.h"

namespace metropolis::matchmaker {
namespace {

using testing::FakeCreator;
using testing::FakeTicketStore;

class OneLadder final : public LadderSource {
 public:
  explicit OneLadder(LadderConfig ladder) : ladder_(std::move(ladder)) {}
  std::vector<LadderConfig> Ladders(Read) override { return {ladder_}; }

 private:
  LadderConfig ladder_;
};

class Newcomers final : public RatingSource {
 public:
  double Mu(const LadderConfig&, int64_t) override { return 25; }
};

// The token "p<N>" is player N; "admin" an administrator's API token; "host"
// and "gateway" those services' tokens.
class PlayerTokens final : public auth::Authenticator {
 public:
  grpc::Status Authenticate(const std::string& token, auth::Principal* out) override {
    if (token == "admin") {
      *out = {.identity_id = 1, .name = "root", .kind = "player", .admin = true};
      return grpc::Status::OK;
    }
    if (token == "host" || token == "gateway") {
      *out = {.name = token == "host" ? "gamehost" : "gateway", .kind = "service", .service = true};
      return grpc::Status::OK;
    }
    if (token.size() < 2 || token[0] != 'p') return {grpc::StatusCode::UNAUTHENTICATED, "unknown token"};
    out->identity_id = std::stoll(token.substr(1));
    out->name = token;
    out->kind = "player";
    return grpc::Status::OK;
  }
};

class MatchmakerServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ladder_.id = "open";
    ladder_.season = 1;
    ladder_.options = DefaultOptions(Ruleset::kCitiesAndKnights);
    ladders_ = std::make_unique<OneLadder>(ladder_);
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }
  void Serve(ServiceOptions options = {}) {
    options.poll_ms = 10;
    tickets_->clock_ms = now_ms_;
    service_ =
        std::make_unique<MatchmakerService>(tickets_.get(), ladders_.get(), &ratings_, &auth_, &creator_, options);
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    stub_ = v1::Matchmaker::NewStub(server_->InProcessChannel({}));
  }
  // Four players queued and seated at one table; nobody's seat marked delivered,
  // as after a failover that lost those writes. Returns the game's id.
  std::string SeatFour() {
    EXPECT_TRUE(tickets_->HostHeartbeat({"h1:1", 10, 0, 1000}).ok());
    for (int i = 1; i <= 4; ++i) {
      std::string id, existing;
      bool created = false;
      EXPECT_TRUE(tickets_->Create("open", i, "p" + std::to_string(i), 25, 1000, &id, &existing, &created).ok());
      EXPECT_TRUE(created);
      first_ticket_[i] = id;
    }
    Matchmaker matchmaker(tickets_.get(), &creator_, {});
    EXPECT_EQ(matchmaker.RunRound({ladder_}, 2000).placed, 1);
    EXPECT_EQ(creator_.games.size(), 1u);
    return creator_.games.empty() ? "" : creator_.games[0].game_id();
  }
  // The first update a player's Enqueue stream sends.
  v1::EnqueueUpdate FirstUpdate(int player) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer p" + std::to_string(player));
    v1::EnqueueRequest request;
    request.set_ladder("open");
    auto stream = stub_->Enqueue(&context, request);
    v1::EnqueueUpdate update;
    EXPECT_TRUE(stream->Read(&update));
    context.TryCancel();
    stream->Finish();
    return update;
  }

  std::unique_ptr<FakeTicketStore> tickets_ = std::make_unique<FakeTicketStore>();
  LadderConfig ladder_;
  std::unique_ptr<OneLadder> ladders_;
  Newcomers ratings_;
  PlayerTokens auth_;
  FakeCreator creator_;
  int64_t now_ms_ = 3000;
  std::map<int, std::string> first_ticket_;
  std::unique_ptr<MatchmakerService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::Matchmaker::Stub> stub_;
};

// Found by an outside client: the administrator's API token registered any
// address as a game host. Only the hosts' own service token may.
TEST_F(MatchmakerServiceTest, OnlyTheGameHostsTokenRegistersAHost) {
  Serve();
  auto register_as = [&](const std::string& token) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + token);
    v1::RegisterHostRequest request;
    request.set_address("rogue.example:443");
    request.set_capacity(1000);
    v1::RegisterHostResponse response;
    return stub_->RegisterHost(&context, request, &response);
  };
  for (const std::string token : {"admin", "p1", "gateway"}) {
    const grpc::Status s = register_as(token);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << token << ": " << s.error_message();
  }
  std::vector<HostInfo> hosts;
  ASSERT_TRUE(tickets_->Hosts(&hosts).ok());
  EXPECT_TRUE(hosts.empty()) << "a refused registration changes nothing";
  ASSERT_TRUE(register_as("host").ok());
  ASSERT_TRUE(tickets_->Hosts(&hosts).ok());
  ASSERT_EQ(hosts.size(), 1u);
  EXPECT_EQ(hosts[0].address, "rogue.example:443");
}

TEST_F(MatchmakerServiceTest, AQueueingClientIsToldItsPlaceInTheQueue) {
  Serve();
  const v1::EnqueueUpdate update = FirstUpdate(9);
  ASSERT_TRUE(update.has_queued());
  EXPECT_EQ(update.queued().queue_size(), 1u);
  EXPECT_EQ(update.queued().position(), 0u);
}

// The stream broke before the seat reached the client: queueing again gets it.
TEST_F(MatchmakerServiceTest, ASeatWhoseGameIsLiveIsHandedOutAgain) {
  Serve();
  const std::string game = SeatFour();
  const v1::EnqueueUpdate update = FirstUpdate(1);
  ASSERT_TRUE(update.has_assignment());
  EXPECT_EQ(update.assignment().game_id(), game);
  EXPECT_EQ(update.assignment().ticket_id(), first_ticket_[1]);
  EXPECT_EQ(creator_.lookups, 1);
}

// The defect the Redis failover fault test found: the finished game's seat,
// handed out again because the write that marked it delivered was lost.
TEST_F(MatchmakerServiceTest, ASeatWhoseGameIsOverIsNeverHandedOutAgain) {
  Serve();
  const std::string game = SeatFour();
  creator_.status[game] = v1::GAME_STATUS_FINISHED;
  const v1::EnqueueUpdate update = FirstUpdate(1);
  ASSERT_TRUE(update.has_queued()) << "handed out again: " << update.ShortDebugString();
  EXPECT_NE(update.queued().ticket_id(), first_ticket_[1]);
  TicketInfo old;
  bool found = false;
  ASSERT_TRUE(tickets_->Poll(first_ticket_[1], now_ms_, &old, &found).ok() && found);
  EXPECT_EQ(old.state, "spent");
}

// The host no longer knows the game (it finished long ago, or was lost).
TEST_F(MatchmakerServiceTest, ASeatWhoseGameNoHostKnowsIsNotHandedOutAgain) {
  Serve();
  SeatFour();
  creator_.lookup_error = {grpc::StatusCode::NOT_FOUND, "no game on this host"};
  const v1::EnqueueUpdate update = FirstUpdate(2);
  ASSERT_TRUE(update.has_queued()) << update.ShortDebugString();
  EXPECT_NE(update.queued().ticket_id(), first_ticket_[2]);
}

// Unsure is not over: a host that cannot answer may still be running the game,
// and a seat not handed out would be played by the fallback bot.
TEST_F(MatchmakerServiceTest, ASeatWhoseHostCannotAnswerIsHandedOut) {
  Serve();
  const std::string game = SeatFour();
  creator_.lookup_error = {grpc::StatusCode::UNAVAILABLE, "host away"};
  const v1::EnqueueUpdate update = FirstUpdate(3);
  ASSERT_TRUE(update.has_assignment());
  EXPECT_EQ(update.assignment().game_id(), game);
}

// Negative control: without the check (protection "spent_seat") the finished
// game's seat goes out again, which is what the test above guards against.
TEST_F(MatchmakerServiceTest, NegativeControlWithoutTheCheckTheFinishedSeatGoesOutAgain) {
  ServiceOptions options;
  options.check_resumed_seats = false;
  Serve(options);
  const std::string game = SeatFour();
  creator_.status[game] = v1::GAME_STATUS_FINISHED;
  const v1::EnqueueUpdate update = FirstUpdate(1);
  ASSERT_TRUE(update.has_assignment());
  EXPECT_EQ(update.assignment().game_id(), game);
  EXPECT_EQ(creator_.lookups, 0);
}

// A spent ticket is spent for good: the next Enqueue makes a new ticket without
// asking the host again.
TEST_F(MatchmakerServiceTest, ASpentTicketIsNeverResumed) {
  Serve();
  const std::string game = SeatFour();
  bool spent = true;
  ASSERT_TRUE(tickets_->Spend(first_ticket_[4], 4, "another-game", &spent).ok());
  EXPECT_FALSE(spent);
  ASSERT_TRUE(tickets_->Spend(first_ticket_[4], 4, game, &spent).ok() && spent);
  ASSERT_TRUE(tickets_->Spend(first_ticket_[4], 4, game, &spent).ok());
  EXPECT_FALSE(spent);
  const v1::EnqueueUpdate update = FirstUpdate(4);
  ASSERT_TRUE(update.has_queued());
  EXPECT_EQ(creator_.lookups, 0);
}

// The store unreachable: the retryable UNAVAILABLE; a script that failed:
// INTERNAL, which a retry would not change.
TEST_F(MatchmakerServiceTest, AStoreThatFailsIsUnavailableOrInternal) {
  Serve();
  for (const auto& [fail, code] :
       {std::pair{true, grpc::StatusCode::UNAVAILABLE}, {false, grpc::StatusCode::INTERNAL}}) {
    tickets_->unavailable = fail;
    tickets_->fail_scripts = !fail;
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer p5");
    v1::EnqueueRequest request;
    request.set_ladder("open");
    auto stream = stub_->Enqueue(&context, request);
    v1::EnqueueUpdate update;
    EXPECT_FALSE(stream->Read(&update));
    const grpc::Status status = stream->Finish();
    EXPECT_EQ(status.error_code(), code) << status.error_message();
    EXPECT_NE(status.error_message().find("ticket store"), std::string::npos) << status.error_message();
  }
}

// The other calls over an unreachable store: the retryable UNAVAILABLE too.
TEST_F(MatchmakerServiceTest, CancelAndGetQueueOverAnUnreachableStoreAreUnavailable) {
  Serve();
  tickets_->unavailable = true;
  grpc::ClientContext cancel_context, queue_context;
  cancel_context.AddMetadata("authorization", "Bearer p5");
  queue_context.AddMetadata("authorization", "Bearer p5");
  v1::CancelResponse cancelled;
  v1::GetQueueRequest queue_request;
  queue_request.set_ladder("open");
  v1::QueueStatus queue;
  for (const grpc::Status& status : {stub_->Cancel(&cancel_context, v1::CancelRequest(), &cancelled),
                                     stub_->GetQueue(&queue_context, queue_request, &queue)}) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
    EXPECT_NE(status.error_message().find("ticket store"), std::string::npos) << status.error_message();
  }
}

}  // namespace
}  // namespace metropolis::matchmaker

namespace metropolis::matchmaker {
namespace {

// Friends' tables: a player's API token acts for itself whatever the request
// names; the gateway's service token acts for the person it names; no other
// service's token acts for anyone.
TEST_F(MatchmakerServiceTest, TableCallsActForTheTokensIdentityOrThePersonTheGatewayNames) {
  tables::testing::FakeTableStore store;
  tables::Tables tables(&store);
  tables::TableApi api(
      &tables, tickets_.get(), &creator_, [](const std::string&, LadderConfig*) { return false; },
      [this](int64_t* now) { return tickets_->Now(now); });
  ServiceOptions options;
  options.tables = &api;
  Serve(options);
  const auto create_as = [&](const std::string& token, int64_t acting_for, v1::FriendsTable* out) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + token);
    v1::CreateTableRequest request;
    request.mutable_acting_for()->set_identity_id(acting_for);
    request.mutable_acting_for()->set_name("person" + std::to_string(acting_for));
    return stub_->CreateTable(&context, request, out);
  };
  v1::FriendsTable t;
  ASSERT_TRUE(create_as("p7", 99, &t).ok());
  EXPECT_EQ(t.creator(), 7) << "an API token acts for its own identity";
  ASSERT_EQ(t.members_size(), 1);
  EXPECT_EQ(t.members(0).name(), "p7");
  ASSERT_TRUE(create_as("gateway", 42, &t).ok());
  EXPECT_EQ(t.creator(), 42);
  EXPECT_EQ(t.members(0).name(), "person42");
  EXPECT_EQ(create_as("gateway", 0, &t).error_code(), grpc::StatusCode::INVALID_ARGUMENT) << "nobody creates";
  EXPECT_EQ(create_as("host", 42, &t).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(create_as("nobody", 42, &t).error_code(), grpc::StatusCode::UNAUTHENTICATED);

  // A visitor the gateway names as nobody reads a table.
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer gateway");
  v1::GetTableRequest get;
  get.set_table_id(t.table_id());
  ASSERT_TRUE(stub_->GetTable(&context, get, &t).ok());
}

}  // namespace
}  // namespace metropolis::matchmaker
