// People's play streams when a game host dies: where the stream goes next
// (PlayRoute), and the hub following a game to the host that took it over,
// with scripted game hosts on loopback and a dead one that refuses connections.
#include "services/gateway/play.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>

#include "services/gateway/backends.h"
#include "services/gateway/tests/spectator_waits.h"

namespace metropolis::gateway {
namespace {

using std::chrono::milliseconds;

const grpc::Status kUnavailable(grpc::StatusCode::UNAVAILABLE, "connection refused");
const auto kAnyHost = [](const std::string&) { return true; };

PlayRoute::Options Quick() {
  return {.max_streams = 6, .initial_backoff = milliseconds(10), .max_backoff = milliseconds(40)};
}

TEST(PlayRouteTest, AnUnreachableHostSendsTheSeatToTheOthersInTurnWithGrowingWaits) {
  int asked = 0;
  PlayRoute route(
      "a:1",
      [&] {
        ++asked;
        return std::vector<std::string>{"b:1", "a:1", "c:1"};
      },
      Quick());
  EXPECT_EQ(route.host(), "a:1");
  std::vector<std::string> hosts;
  std::vector<int64_t> waits;
  for (int i = 0; i < 5; ++i) {
    const PlayRoute::Next next = route.After(kUnavailable, "", false, kAnyHost);
    ASSERT_TRUE(next.again) << i;
    hosts.push_back(route.host());
    waits.push_back(next.wait.count());
  }
  // The seat's own host comes round again: it may have been restarting.
  EXPECT_EQ(hosts, (std::vector<std::string>{"b:1", "c:1", "a:1", "b:1", "c:1"}));
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(waits, (std::vector<int64_t>{10, 20, 40, 40, 40}));
  // Six streams without a welcome: the person's stream ends with the error.
  EXPECT_FALSE(route.After(kUnavailable, "", false, kAnyHost).again);
}

TEST(PlayRouteTest, RedirectsAreFollowedAtOnceAndOnlyToKnownHosts) {
  PlayRoute route("a:1", nullptr, Quick());
  PlayRoute::Next next = route.After(grpc::Status::OK, "b:1", false, kAnyHost);
  EXPECT_TRUE(next.again);
  EXPECT_EQ(next.wait.count(), 0);
  EXPECT_EQ(route.host(), "b:1");
  // Back to itself, or somewhere the gateway does not know: not followed.
  EXPECT_FALSE(route.After(grpc::Status::OK, "b:1", false, kAnyHost).again);
  PlayRoute other("a:1", nullptr, Quick());
  EXPECT_FALSE(other.After(grpc::Status::OK, "evil:1", false, [](const std::string& h) { return h == "b:1"; }).again);
}

TEST(PlayRouteTest, ARedirectBackToTheUnreachableHostWaitsAndAsksAgain) {
  PlayRoute route(
      "a:1", [] { return std::vector<std::string>{"b:1"}; }, Quick());
  ASSERT_TRUE(route.After(kUnavailable, "", true, kAnyHost).again);
  EXPECT_EQ(route.host(), "b:1");
  // b still names a (its lease has not lapsed): b again, after a wait.
  PlayRoute::Next next = route.After(grpc::Status::OK, "a:1", false, kAnyHost);
  EXPECT_TRUE(next.again);
  EXPECT_EQ(route.host(), "b:1");
  EXPECT_EQ(next.wait.count(), 20);
}

TEST(PlayRouteTest, NotFoundAfterAWelcomeMovesOnNotFoundBeforeOneIsFinal) {
  PlayRoute fresh(
      "a:1", [] { return std::vector<std::string>{"b:1"}; }, Quick());
  EXPECT_FALSE(fresh.After(grpc::Status(grpc::StatusCode::NOT_FOUND, "no game"), "", false, kAnyHost).again);

  // Welcomed on a, which lost the game to b and forgot it; b finished it.
  PlayRoute route(
      "a:1", [] { return std::vector<std::string>{"b:1"}; }, Quick());
  ASSERT_TRUE(route.After(kUnavailable, "", true, kAnyHost).again);   // to b
  ASSERT_TRUE(route.After(kUnavailable, "", false, kAnyHost).again);  // b restarting: a
  EXPECT_EQ(route.host(), "a:1");
  EXPECT_TRUE(route.After(grpc::Status(grpc::StatusCode::NOT_FOUND, "no game"), "", false, kAnyHost).again);
  EXPECT_EQ(route.host(), "b:1");
}

TEST(PlayRouteTest, OnlyAHostLostOrAGameMovedIsRetried) {
  // NOT_FOUND after a welcome is a moved game (the test above).
  for (const auto code : {grpc::StatusCode::OK, grpc::StatusCode::CANCELLED, grpc::StatusCode::ABORTED,
                          grpc::StatusCode::INVALID_ARGUMENT, grpc::StatusCode::PERMISSION_DENIED}) {
    PlayRoute route(
        "a:1", [] { return std::vector<std::string>{"b:1"}; }, Quick());
    EXPECT_FALSE(route.After(grpc::Status(code, ""), "", true, kAnyHost).again) << code;
  }
}

TEST(PlayRouteTest, AWelcomedStreamStartsAFreshBudget) {
  PlayRoute route(
      "a:1", [] { return std::vector<std::string>{"b:1"}; }, Quick());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(route.After(kUnavailable, "", false, kAnyHost).again);
  // The last stream got as far as a welcome, then its host died: five more
  // tries, starting again from the shortest wait.
  PlayRoute::Next next = route.After(kUnavailable, "", true, kAnyHost);
  EXPECT_TRUE(next.again);
  EXPECT_EQ(next.wait.count(), 10);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(route.After(kUnavailable, "", false, kAnyHost).again);
  EXPECT_FALSE(route.After(kUnavailable, "", false, kAnyHost).again);
}

// A game host on loopback that answers every Play with a script.
using Stream = grpc::ServerReaderWriter<v1::PlayUpdate, v1::PlayRequest>;
using Script = std::function<grpc::Status(grpc::ServerContext* context, Stream* stream)>;

class ScriptedHost final : public v1::GameHost::Service {
 public:
  explicit ScriptedHost(Script script) : script_(std::move(script)) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }
  ~ScriptedHost() override { server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5)); }

  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  int calls() const { return calls_; }

  grpc::Status Play(grpc::ServerContext* context, Stream* stream) override {
    ++calls_;
    return script_(context, stream);
  }

 private:
  Script script_;
  int port_ = 0;
  std::atomic<int> calls_{0};
  std::unique_ptr<grpc::Server> server_;
};

// The hello every stream must start with, with the seat's token.
bool ReadHello(grpc::ServerContext* context, Stream* stream) {
  v1::PlayRequest hello;
  if (!stream->Read(&hello) || hello.hello().game_id() != "g-1" || !hello.hello().take_over()) return false;
  auto auth = context->client_metadata().find("authorization");
  return auth != context->client_metadata().end() && auth->second == "Bearer seat-secret";
}

TEST(PlayHubTest, AGameWhoseHostDiedIsPlayedOnWhereItWasTakenOver) {
  // The game was taken over by `live`; `other` redirects seats there, as any
  // host does; the seat's recorded host is gone (nothing listens on port 1).
  ScriptedHost live([](grpc::ServerContext* context, Stream* stream) {
    if (!ReadHello(context, stream)) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "bad hello");
    v1::PlayUpdate u;
    u.mutable_welcome()->set_game_id("g-1");
    u.mutable_welcome()->set_seat(2);
    u.mutable_welcome()->set_step(41);
    stream->Write(u);
    u.Clear();
    u.mutable_game_over()->mutable_result()->set_winner(2);
    stream->Write(u);
    return grpc::Status::OK;
  });
  const std::string live_address = live.address();
  ScriptedHost other([&](grpc::ServerContext* context, Stream* stream) {
    if (!ReadHello(context, stream)) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "bad hello");
    v1::PlayUpdate u;
    u.mutable_redirect()->set_host(live_address);
    stream->Write(u);
    return grpc::Status::OK;
  });
  const std::string dead = "127.0.0.1:1";
  BackendOptions options;
  options.replays = options.ratings = dead;
  options.hosts = {dead, other.address(), live.address()};
  Backends backends(options);
  PlayHub hub(&backends, milliseconds(0), Quick());

  std::promise<void> game_over;
  auto stream = hub.Open("session", HeldSeat{"g-1", dead, "seat-secret", 2}, [&] { game_over.set_value(); });
  const std::string sent = Drain(*stream->out);  // everything the browser is sent
  EXPECT_EQ(game_over.get_future().wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_NE(sent.find("event: welcome"), std::string::npos) << sent;
  EXPECT_NE(sent.find("event: game_over"), std::string::npos) << sent;
  EXPECT_EQ(sent.find("event: error"), std::string::npos) << sent;
  EXPECT_EQ(other.calls(), 1);
  EXPECT_EQ(live.calls(), 1);
}

TEST(PlayHubTest, ThePersonsTableHearsEverySeatsClock) {
  // The gateway asks for the clocks (CAPABILITY_CLOCKS) and passes them on
  // with the events, as the host words them.
  std::atomic<bool> asked{false};
  ScriptedHost host([&](grpc::ServerContext*, Stream* stream) {
    v1::PlayRequest hello;
    if (!stream->Read(&hello)) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no hello");
    for (int c : hello.hello().capabilities()) asked = asked || c == v1::CAPABILITY_CLOCKS;
    v1::PlayUpdate u;
    u.mutable_welcome()->set_game_id("g-1");
    stream->Write(u);
    u.Clear();
    u.mutable_events()->set_step(12);
    v1::Clocks* clocks = u.mutable_events()->mutable_clocks();
    for (uint32_t bank : {60000u, 59000u, 60000u}) clocks->add_time_bank_ms_left(bank);
    clocks->set_running(1);
    clocks->set_decision_ms_left(30000);
    stream->Write(u);
    u.Clear();
    u.mutable_game_over()->mutable_result()->set_winner(1);
    stream->Write(u);
    return grpc::Status::OK;
  });
  BackendOptions options;
  options.replays = options.ratings = "127.0.0.1:1";
  options.hosts = {host.address()};
  Backends backends(options);
  PlayHub hub(&backends, milliseconds(0), Quick());
  std::promise<void> game_over;
  auto stream = hub.Open("session", HeldSeat{"g-1", host.address(), "seat-secret", 1}, [&] { game_over.set_value(); });
  const std::string sent = Drain(*stream->out);
  EXPECT_EQ(game_over.get_future().wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_TRUE(asked) << "the hello did not ask for the clocks";
  EXPECT_NE(sent.find(R"("clocks":{"decision_ms_left":30000,"running":1,"time_bank_ms_left":[60000,59000,60000]})"),
            std::string::npos)
      << sent;
}

TEST(PlayHubTest, WhenNoHostCanBeReachedThePersonIsToldSo) {
  const std::string dead = "127.0.0.1:1";
  BackendOptions options;
  options.replays = options.ratings = dead;
  options.hosts = {dead};
  Backends backends(options);
  PlayHub hub(&backends, milliseconds(0), Quick());
  bool over = false;
  auto stream = hub.Open("session", HeldSeat{"g-1", dead, "seat-secret", 2}, [&] { over = true; });
  const std::string sent = Drain(*stream->out);  // everything the browser is sent
  EXPECT_FALSE(over);
  EXPECT_NE(sent.find("event: error"), std::string::npos) << sent;
  EXPECT_NE(sent.find("UNAVAILABLE"), std::string::npos) << sent;
}

}  // namespace
}  // namespace metropolis::gateway
