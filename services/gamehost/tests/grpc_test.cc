// The game host over real gRPC on loopback: a server in the test process on
// port 0, and plain generated-stub clients playing, misbehaving and watching.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <thread>

#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "lib/common/grpc_util.h"
#include "lib/protocol/view_delta.h"
#include "metropolis/v1/gamehost.grpc.pb.h"
#include "services/gamehost/service.h"
#include "services/gamehost/tests/fakes.h"

namespace metropolis::gamehost::testing {
namespace {

// A real host: system clock, timer thread, bot pool, game threads (each game's
// work on its strand, as in production), memory sink.
struct LiveHost {
  explicit LiveHost(GameDirectory* shared_directory = nullptr, uint32_t decision_ms = 5000)
      : timers(&clock), bots(2), work(2), directory(shared_directory ? shared_directory : &own_directory) {
    services::EnableHealthAndReflection();
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    HostOptions options;
    options.admin_token = kAdmin;
    options.spectator_token = kSpectator;
    options.default_decision_ms = decision_ms;
    options.default_time_bank_ms = 0;
    options.default_fallback_bot = "random";
    options.start_timeout_ms = 60'000;
    host = std::make_unique<Host>(options, &clock, &timers, &bots, &sink, directory, &metrics, &work);
    service = std::make_unique<GameHostService>(host.get(), &metrics, &clock);
    builder.RegisterService(service.get());
    server = builder.BuildAndStart();
    address = "127.0.0.1:" + std::to_string(port);
    host->SetAddress(address);
    services::SetServing(*server, "metropolis.v1.GameHost", true);
  }
  ~LiveHost() {
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    bots.Shutdown();
    work.Shutdown();
    host->WaitStored();
  }
  std::unique_ptr<v1::GameHost::Stub> Stub() const {
    return v1::GameHost::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  }

  services::SystemClock clock;
  ThreadTimers timers;
  ThreadPool bots;
  ThreadPool work;
  MemorySink sink;
  InMemoryDirectory own_directory;
  GameDirectory* directory;
  HostMetrics metrics;
  std::unique_ptr<Host> host;
  std::unique_ptr<GameHostService> service;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
  std::string address;
};

void Authorize(grpc::ClientContext* context, const std::string& token) {
  if (!token.empty()) context->AddMetadata("authorization", "Bearer " + token);
}

// The first request of a seat's stream.
v1::PlayRequest Hello(const std::string& game_id) {
  v1::PlayRequest hello;
  hello.mutable_hello()->set_game_id(game_id);
  return hello;
}

// A seat's stream to `stub` under `token` (none when empty), `first` written.
std::unique_ptr<grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayUpdate>> OpenSeat(v1::GameHost::Stub& stub,
                                                                                    grpc::ClientContext* context,
                                                                                    const std::string& token,
                                                                                    const v1::PlayRequest& first) {
  Authorize(context, token);
  auto stream = stub.Play(context);
  stream->Write(first);
  return stream;
}

v1::CreateGameResponse CreateGame(const LiveHost& live, uint32_t seats = 4, uint64_t seed = 11, bool hidden = false) {
  v1::CreateGameRequest request;
  request.set_hidden(hidden);
  for (uint32_t i = 0; i < seats; ++i) request.add_seats()->set_name("net" + std::to_string(i));
  request.set_chance_seed(seed);
  v1::CreateGameResponse response;
  grpc::ClientContext context;
  Authorize(&context, kAdmin);
  grpc::Status s = live.Stub()->CreateGame(&context, request, &response);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return response;
}

// How a test bot behaves on its stream.
struct BotPlan {
  int stall_after = -1;       // stop answering after this many answers (keeps the stream open)
  int disconnect_after = -1;  // close the stream after this many answers, then return
  bool send_garbage = false;  // before each answer: an empty request and a bad code
  // Hold the answer after this many answers until `release` is ready: the game
  // then waits at a known point (the host's decision deadline is far longer).
  int hold_after = -1;
  std::shared_future<void> release;
};

struct BotRun {
  grpc::Status status;
  int answers = 0;
  int rejected = 0;
  bool game_over = false;
  int winner = -9;
  int welcome_seat = -9;
};

BotRun PlaySeat(const LiveHost& live, const std::string& game_id, const std::string& token, BotPlan plan,
                uint64_t rng = 1) {
  BotRun run;
  auto stub = live.Stub();
  grpc::ClientContext context;
  auto stream = OpenSeat(*stub, &context, token, Hello(game_id));
  v1::PlayUpdate update;
  while (stream->Read(&update)) {
    if (update.has_welcome()) run.welcome_seat = update.welcome().seat();
    if (update.has_rejected()) ++run.rejected;
    if (update.has_game_over()) {
      run.game_over = true;
      run.winner = update.game_over().result().winner();
    }
    if (!update.has_decision()) continue;
    if (run.answers == plan.disconnect_after) {
      context.TryCancel();
      break;
    }
    if (run.answers == plan.stall_after) continue;
    if (run.answers == plan.hold_after) plan.release.wait();
    const v1::Decision& d = update.decision();
    if (plan.send_garbage) {
      stream->Write(v1::PlayRequest());  // neither hello nor answer
      v1::PlayRequest bad;
      bad.mutable_answer()->set_step(d.step());
      bad.mutable_answer()->mutable_action()->set_code(0xFFFF'FFFF'FFFF'FFFFull);
      stream->Write(bad);
    }
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    v1::PlayRequest answer;
    answer.mutable_answer()->set_step(d.step());
    answer.mutable_answer()->mutable_action()->set_code(d.view().legal(int((rng >> 33) % d.view().legal_size())));
    stream->Write(answer);
    ++run.answers;
  }
  stream->WritesDone();
  run.status = stream->Finish();
  return run;
}

std::vector<BotRun> PlayTable(const LiveHost& live, const v1::CreateGameResponse& game,
                              const std::vector<BotPlan>& plans) {
  std::vector<BotRun> runs(plans.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < plans.size(); ++i) {
    threads.emplace_back(
        [&, i] { runs[i] = PlaySeat(live, game.game_id(), game.seat_tokens(int(i)), plans[i], 100 + i); });
  }
  for (auto& t : threads) t.join();
  return runs;
}

TEST(GameHostGrpc, FourNetworkBotsPlayAWholeGame) {
  LiveHost live;
  const auto game = CreateGame(live);
  const auto runs = PlayTable(live, game, std::vector<BotPlan>(4));
  live.host->WaitStored();
  ASSERT_EQ(live.sink.games.size(), 1u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(runs[i].status.ok()) << runs[i].status.error_message();
    EXPECT_TRUE(runs[i].game_over);
    EXPECT_EQ(runs[i].welcome_seat, i);
    EXPECT_GT(runs[i].answers, 10);
    EXPECT_EQ(runs[i].rejected, 0);
    EXPECT_EQ(runs[i].winner, live.sink.games[0].record.winner.value_or(-1));
    EXPECT_EQ(live.sink.games[0].fallback_decisions[i], 0u);
  }
}

TEST(GameHostGrpc, GarbageIsRejectedOnTheStreamAndTheGameGoesOn) {
  LiveHost live;
  const auto game = CreateGame(live, 3);
  BotPlan garbage;
  garbage.send_garbage = true;
  const auto runs = PlayTable(live, game, {garbage, {}, {}});
  EXPECT_TRUE(runs[0].status.ok()) << runs[0].status.error_message();
  EXPECT_TRUE(runs[0].game_over);
  EXPECT_EQ(runs[0].rejected, 2 * runs[0].answers);
  live.host->WaitStored();
  EXPECT_EQ(live.sink.games.at(0).fallback_decisions[0], 0u);
}

TEST(GameHostGrpc, MissingOrWrongTokensAndBadHellos) {
  LiveHost live;
  const auto game = CreateGame(live);
  auto stub = live.Stub();
  {
    grpc::ClientContext context;  // no token at all
    v1::CreateGameResponse response;
    EXPECT_EQ(stub->CreateGame(&context, {}, &response).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  {
    grpc::ClientContext context;
    v1::ListGamesResponse response;
    EXPECT_EQ(stub->ListGames(&context, {}, &response).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  auto play = [&](const std::string& token, const v1::PlayRequest& first) {
    grpc::ClientContext context;
    auto stream = OpenSeat(*stub, &context, token, first);
    stream->WritesDone();
    v1::PlayUpdate update;
    while (stream->Read(&update)) {
    }
    return stream->Finish();
  };
  EXPECT_EQ(play("", Hello(game.game_id())).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(play("forged", Hello(game.game_id())).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(play(game.seat_tokens(1), v1::PlayRequest()).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(play(game.seat_tokens(1), Hello("no-such-game")).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(live.sink.games.size(), 0u);
}

TEST(GameHostGrpc, SecondConnectionForASeatIsRefused) {
  LiveHost live;
  const auto game = CreateGame(live);
  auto stub = live.Stub();
  grpc::ClientContext first_context;
  auto first = OpenSeat(*stub, &first_context, game.seat_tokens(0), Hello(game.game_id()));
  v1::PlayUpdate update;
  ASSERT_TRUE(first->Read(&update));
  ASSERT_TRUE(update.has_welcome());

  grpc::ClientContext second_context;
  auto second = OpenSeat(*stub, &second_context, game.seat_tokens(0), Hello(game.game_id()));
  second->WritesDone();
  while (second->Read(&update)) {
  }
  const grpc::Status refused = second->Finish();
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  first_context.TryCancel();
  first->Finish();
}

TEST(GameHostGrpc, SilentBotTimesOutAndTheFallbackPlaysOn) {
  LiveHost live(nullptr, /*decision_ms=*/10);
  const auto game = CreateGame(live, 3);
  BotPlan silent;
  silent.stall_after = 3;
  const auto runs = PlayTable(live, game, {silent, {}, {}});
  for (const auto& r : runs) EXPECT_TRUE(r.game_over);
  live.host->WaitStored();
  ASSERT_EQ(live.sink.games.size(), 1u);
  EXPECT_GT(live.sink.games[0].fallback_decisions[0], 0u);
  EXPECT_EQ(runs[0].answers, 3);
}

TEST(GameHostGrpc, BotDisconnectsMidGameAndComesBack) {
  LiveHost live;
  const auto game = CreateGame(live, 3);
  std::vector<BotRun> runs(3);
  std::thread others([&] {
    std::thread b([&] { runs[1] = PlaySeat(live, game.game_id(), game.seat_tokens(1), {}, 5); });
    runs[2] = PlaySeat(live, game.game_id(), game.seat_tokens(2), {}, 6);
    b.join();
  });
  BotPlan leave;
  leave.disconnect_after = 5;
  const BotRun first = PlaySeat(live, game.game_id(), game.seat_tokens(0), leave);
  EXPECT_EQ(first.status.error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(first.answers, 5);
  // The host may not have seen the cancelled stream end yet: the seat is then
  // still held (ALREADY_EXISTS before any welcome), and a client retries, as the
  // bot kits do, until the host has let it go.
  for (int attempt = 0; attempt < 500; ++attempt) {
    runs[0] = PlaySeat(live, game.game_id(), game.seat_tokens(0), {});
    if (runs[0].status.error_code() != grpc::StatusCode::ALREADY_EXISTS || runs[0].welcome_seat != -9) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  others.join();
  for (const auto& r : runs) {
    EXPECT_TRUE(r.status.ok()) << r.status.error_message();
    EXPECT_TRUE(r.game_over);
  }
  EXPECT_EQ(runs[0].welcome_seat, 0);
  live.host->WaitStored();
  ASSERT_EQ(live.sink.games.size(), 1u);
}

// Watches a new game on `live` whose seat 0 holds its 10th answer until this
// spectator has read its welcome, so that it joins mid-game whatever the
// machine's speed. Each update goes to `on_update` until the stream ends.
grpc::Status SpectateMidGame(const LiveHost& live, v1::SpectateRequest request,
                             const std::function<void(const v1::SpectateUpdate&)>& on_update) {
  const auto game = CreateGame(live);
  std::promise<void> joined;
  std::vector<BotPlan> plans(4);
  plans[0].hold_after = 10;
  plans[0].release = joined.get_future().share();
  std::thread table([&] { PlayTable(live, game, plans); });
  auto stub = live.Stub();
  grpc::ClientContext context;
  Authorize(&context, kSpectator);
  request.set_game_id(game.game_id());
  auto reader = stub->Spectate(&context, request);
  v1::SpectateUpdate update;
  bool released = false;
  while (reader->Read(&update)) {
    if (update.has_welcome() && !released) {
      joined.set_value();
      released = true;
    }
    on_update(update);
  }
  if (!released) joined.set_value();  // let the table finish even if the test fails
  const grpc::Status status = reader->Finish();
  table.join();
  return status;
}

TEST(GameHostGrpc, SpectatorJoinsMidGameAndFollowsToTheEnd) {
  LiveHost live;
  v1::SpectateRequest request;
  request.set_from_start(true);
  int welcomes = 0, views = 0, events = 0;
  bool over = false;
  const grpc::Status status = SpectateMidGame(live, request, [&](const v1::SpectateUpdate& update) {
    welcomes += update.has_welcome();
    if (update.has_view()) {
      ++views;
      EXPECT_EQ(update.view().viewer(), -1);
      EXPECT_TRUE(update.view().legal().empty());
    }
    if (update.has_events()) events += update.events().events_size();
    over |= update.has_game_over();
  });
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(welcomes, 1);
  EXPECT_GE(views, 1);
  EXPECT_GT(events, 100);
  EXPECT_TRUE(over);
}

// SpectateRequest.capabilities: a spectator that asks for view deltas gets its
// first views whole and the rest as deltas against the view before, which
// rebuild public views step by step to the end.
TEST(GameHostGrpc, SpectatorWithViewDeltasRebuildsEveryPublicView) {
  LiveHost live;
  v1::SpectateRequest request;
  request.add_capabilities(v1::CAPABILITY_VIEW_DELTAS);
  std::vector<int> capabilities;
  int wholes = 0, deltas = 0;
  v1::View view;
  bool over = false;
  const grpc::Status status = SpectateMidGame(live, request, [&](const v1::SpectateUpdate& update) {
    if (update.has_welcome())
      capabilities.assign(update.welcome().capabilities().begin(), update.welcome().capabilities().end());
    if (update.has_view()) {
      ++wholes;
      view = update.view();
    }
    if (update.has_view_delta()) {
      ++deltas;
      EXPECT_EQ(update.view_delta().base_step(), view.position().action_count()) << "not against the view before";
      std::string error;
      ASSERT_TRUE(protocol::ApplyViewDelta(update.view_delta(), &view, &error)) << error;
    }
    if (update.has_view() || update.has_view_delta()) {
      EXPECT_EQ(view.viewer(), -1);
      EXPECT_TRUE(view.legal().empty());
    }
    over |= update.has_game_over();
  });
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(capabilities, std::vector<int>{v1::CAPABILITY_VIEW_DELTAS});
  EXPECT_EQ(wholes, 2);
  EXPECT_GT(deltas, 50);
  EXPECT_TRUE(over);
  // The last view rebuilt is the finished game's.
  live.host->WaitStored();
  ASSERT_EQ(live.sink.games.size(), 1u);
  EXPECT_EQ(view.position().action_count(), live.sink.games[0].record.actions.size());
}

// A duplicate set's rotation is hidden: nobody may watch it or see it listed,
// or its dice would be known to the set's later rotations.
TEST(GameHostGrpc, HiddenGameIsNeitherSpectatedNorListed) {
  LiveHost live;
  const auto open = CreateGame(live, 4, 11);
  const auto hidden = CreateGame(live, 4, 12, /*hidden=*/true);
  auto stub = live.Stub();
  for (const std::string& token : {std::string(kSpectator), std::string(kAdmin), hidden.seat_tokens(0)}) {
    grpc::ClientContext context;
    Authorize(&context, token);
    v1::SpectateRequest request;
    request.set_game_id(hidden.game_id());
    auto reader = stub->Spectate(&context, request);
    v1::SpectateUpdate update;
    int updates = 0;
    while (reader->Read(&update)) ++updates;
    const grpc::Status s = reader->Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
    EXPECT_EQ(updates, 0);
  }
  grpc::ClientContext context;
  Authorize(&context, kSpectator);
  v1::ListGamesResponse list;
  ASSERT_TRUE(stub->ListGames(&context, v1::ListGamesRequest(), &list).ok());
  ASSERT_EQ(list.games_size(), 1);
  EXPECT_EQ(list.games(0).game_id(), open.game_id());
  // Nor its points and progress; the administrator (the matchmaker) and its own
  // seats still read it.
  v1::GetGameRequest get;
  get.set_game_id(hidden.game_id());
  for (const std::string& token : {std::string(kSpectator), std::string(kAdmin), hidden.seat_tokens(0)}) {
    grpc::ClientContext c;
    Authorize(&c, token);
    v1::GameInfo info;
    const grpc::Status s = stub->GetGame(&c, get, &info);
    EXPECT_EQ(s.error_code(), token == kSpectator ? grpc::StatusCode::PERMISSION_DENIED : grpc::StatusCode::OK)
        << token << ": " << s.error_message();
  }
  // The seats still play it to the end.
  for (const BotRun& r : PlayTable(live, hidden, std::vector<BotPlan>(4))) EXPECT_TRUE(r.game_over);
}

TEST(GameHostGrpc, SeatReachingTheWrongHostIsRedirected) {
  InMemoryDirectory directory;
  LiveHost a(&directory), b(&directory);
  const auto game = CreateGame(a);
  auto stub = b.Stub();
  grpc::ClientContext context;
  auto stream = OpenSeat(*stub, &context, game.seat_tokens(0), Hello(game.game_id()));
  stream->WritesDone();
  v1::PlayUpdate update;
  ASSERT_TRUE(stream->Read(&update));
  ASSERT_TRUE(update.has_redirect());
  EXPECT_EQ(update.redirect().host(), a.address);
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

TEST(GameHostGrpc, HealthAndReflectionAnswer) {
  LiveHost live;
  auto channel = grpc::CreateChannel(live.address, grpc::InsecureChannelCredentials());
  auto health = grpc::health::v1::Health::NewStub(channel);
  for (const char* service : {"", "metropolis.v1.GameHost"}) {
    grpc::ClientContext context;
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    ASSERT_TRUE(health->Check(&context, request, &response).ok()) << service;
    EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING) << service;
  }
  auto reflection = grpc::reflection::v1alpha::ServerReflection::NewStub(channel);
  grpc::ClientContext context;
  auto stream = reflection->ServerReflectionInfo(&context);
  grpc::reflection::v1alpha::ServerReflectionRequest request;
  request.set_list_services("*");
  ASSERT_TRUE(stream->Write(request));
  stream->WritesDone();
  grpc::reflection::v1alpha::ServerReflectionResponse response;
  ASSERT_TRUE(stream->Read(&response));
  std::vector<std::string> names;
  for (const auto& s : response.list_services_response().service()) names.push_back(s.name());
  EXPECT_NE(std::find(names.begin(), names.end(), "metropolis.v1.GameHost"), names.end());
  EXPECT_TRUE(stream->Finish().ok());
}

}  // namespace
}  // namespace metropolis::gamehost::testing
