// The Client against a scripted in-process host on a free loopback port: the
// Play protocol, rejections, redirects, reconnection and the testing aids.

#include "botkits/cpp/client.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "lib/protocol/convert.h"
#include "lib/protocol/view_delta.h"
#include "metropolis/v1/gamehost.grpc.pb.h"

namespace metropolis::botkit {
namespace {

using Stream = grpc::ServerReaderWriter<v1::PlayUpdate, v1::PlayRequest>;
// One Play call; `call` counts the calls to this host from 0.
using Script = std::function<grpc::Status(int call, grpc::ServerContext* context, Stream* stream)>;

class ScriptedHost final : public v1::GameHost::Service {
 public:
  explicit ScriptedHost(Script script, int port = 0) : script_(std::move(script)) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:" + std::to_string(port), grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }
  ~ScriptedHost() override { server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5)); }

  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  int calls() const { return calls_; }

  grpc::Status Play(grpc::ServerContext* context, Stream* stream) override {
    return script_(calls_++, context, stream);
  }

 private:
  Script script_;
  int port_ = 0;
  std::atomic<int> calls_{0};
  std::unique_ptr<grpc::Server> server_;
};

// The decision of seat 0 at the start of a default game, as the host sends it.
v1::PlayUpdate Decision(uint32_t step) {
  v1::PlayUpdate u;
  u.mutable_decision()->set_step(step);
  protocol::ViewToProto(MakeView(State(), 0), u.mutable_decision()->mutable_view());
  u.mutable_decision()->set_decision_ms_left(1000);
  return u;
}

v1::PlayUpdate Welcome(uint32_t step = 0) {
  v1::PlayUpdate u;
  u.mutable_welcome()->set_game_id("g1");
  u.mutable_welcome()->set_seat(0);
  u.mutable_welcome()->set_step(step);
  GameConfig config;
  config.board = DefaultBoard();  // State()'s, so that Decision()'s view matches
  protocol::ConfigToProto(config, u.mutable_welcome()->mutable_config());
  return u;
}

v1::PlayUpdate GameOver() {
  v1::PlayUpdate u;
  u.mutable_game_over()->mutable_result()->set_reason(v1::END_REASON_WON);
  u.mutable_game_over()->mutable_result()->set_winner(2);
  return u;
}

// Reads the hello and checks what every stream must carry.
bool ReadHello(grpc::ServerContext* context, Stream* stream) {
  v1::PlayRequest hello;
  if (!stream->Read(&hello) || !hello.has_hello() || hello.hello().game_id() != "g1") return false;
  auto auth = context->client_metadata().find("authorization");
  return auth != context->client_metadata().end() && auth->second == "Bearer secret";
}

Options TestOptions(const std::string& host) {
  Options o;
  o.host = host;
  o.game_id = "g1";
  o.token = "secret";
  o.reconnect_initial_backoff_ms = 5;
  o.reconnect_max_backoff_ms = 20;
  o.finish_grace_ms = 2000;
  return o;
}

// A game of decisions at `steps`: the welcome, each decision (waiting for its
// answer, which it keeps), then the game's end.
class AnsweredDecisions {
 public:
  explicit AnsweredDecisions(std::vector<uint32_t> steps)
      : steps_(std::move(steps)), host_([this](int, grpc::ServerContext* context, Stream* stream) {
          if (!ReadHello(context, stream)) return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "bad hello");
          stream->Write(Welcome());
          v1::PlayRequest answer;
          for (uint32_t step : steps_) {
            stream->Write(Decision(step));
            if (!stream->Read(&answer)) break;
            std::lock_guard<std::mutex> lock(mu_);
            answers_.push_back(answer.answer());
          }
          stream->Write(GameOver());
          return grpc::Status::OK;
        }) {}

  std::string address() const { return host_.address(); }
  std::vector<v1::PlayAnswer> answers() const {
    std::lock_guard<std::mutex> lock(mu_);
    return answers_;
  }

 private:
  const std::vector<uint32_t> steps_;
  mutable std::mutex mu_;
  std::vector<v1::PlayAnswer> answers_;
  ScriptedHost host_;  // last: it calls into the members above until it is gone
};

// Answers the first legal action not refused yet.
Action FirstNotRejected(const View& view, const DecisionInfo& info) {
  for (const Action& a : view.legal)
    if (std::find(info.rejected.begin(), info.rejected.end(), a) == info.rejected.end()) return a;
  return view.legal[0];
}

TEST(Client, PlaysAGameAndAnswersAgainAfterARejection) {
  const View start = MakeView(State(), 0);
  std::vector<uint64_t> answers;
  std::mutex mu;
  ScriptedHost host([&](int, grpc::ServerContext* context, Stream* stream) {
    if (!ReadHello(context, stream)) return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "bad hello");
    stream->Write(Welcome());
    stream->Write(Decision(0));
    v1::PlayRequest answer;
    for (int i = 0; i < 2 && stream->Read(&answer); ++i) {
      std::lock_guard<std::mutex> lock(mu);
      answers.push_back(answer.answer().action().code());
      EXPECT_EQ(answer.answer().step(), 0u);
      if (i == 0) {
        v1::PlayUpdate rejected;
        rejected.mutable_rejected()->set_step(0);
        rejected.mutable_rejected()->set_error("SET-1: not that one");
        stream->Write(rejected);
      }
    }
    v1::PlayUpdate events;
    events.mutable_events()->set_step(1);
    Event e;
    e.type = EventType::kBarbariansAdvance;
    e.a = 1;
    protocol::EventToProto(e, events.mutable_events()->add_events());
    stream->Write(events);
    stream->Write(GameOver());
    return grpc::Status::OK;
  });

  std::vector<std::string> errors_seen;
  int events_seen = 0, welcomes = 0;
  Callbacks callbacks;
  callbacks.on_welcome = [&](const WelcomeInfo& w) {
    ++welcomes;
    EXPECT_EQ(w.seat, 0);
    EXPECT_EQ(w.config.num_seats, 4);
  };
  callbacks.on_events = [&](uint32_t step, const std::vector<Event>& events) {
    EXPECT_EQ(step, 1u);
    events_seen += int(events.size());
  };
  Client client;
  const grpc::Status status = client.Run(
      TestOptions(host.address()),
      [&](const View& view, const DecisionInfo& info) {
        EXPECT_EQ(view.legal, start.legal);
        errors_seen.push_back(info.rejected_error);
        return FirstNotRejected(view, info);
      },
      callbacks);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(errors_seen, (std::vector<std::string>{"", "SET-1: not that one"}));
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0], Encode(start.legal[0]));
  EXPECT_EQ(answers[1], Encode(start.legal[1]));
  EXPECT_EQ(welcomes, 1);
  EXPECT_EQ(events_seen, 1);
  EXPECT_TRUE(client.stats().game_over);
  EXPECT_EQ(client.stats().result.winner(), 2);
  EXPECT_EQ(client.stats().decisions_answered, 1u);
  EXPECT_EQ(client.stats().rejections, 1u);
}

// The debug channel: what the decider writes in info.note goes with its
// answer, and only with that answer.
TEST(Client, ANoteTheDeciderWritesGoesWithItsAnswer) {
  AnsweredDecisions host({0, 1});
  Client client;
  const grpc::Status status = client.Run(TestOptions(host.address()),
                                         [&](const View& view, const DecisionInfo& info) {
                                           EXPECT_NE(info.note, nullptr);
                                           EXPECT_TRUE(info.note->text.empty()) << "a fresh note for each decision";
                                           if (info.step == 0) {
                                             info.note->text = "ore first";
                                             info.note->evaluation = 0.75;
                                           }
                                           return view.legal[0];
                                         },
                                         {});
  ASSERT_TRUE(status.ok()) << status.error_message();
  const std::vector<v1::PlayAnswer> answers = host.answers();
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0].debug().note(), "ore first");
  EXPECT_DOUBLE_EQ(answers[0].debug().evaluation(), 0.75);
  EXPECT_FALSE(answers[1].has_debug());
}

// info.resign: the seat resigns instead of answering; the game then ends.
TEST(Client, ADeciderThatSetsResignResigns) {
  AnsweredDecisions host({3});
  Client client;
  const grpc::Status status = client.Run(TestOptions(host.address()),
                                         [&](const View& view, const DecisionInfo& info) {
                                           EXPECT_NE(info.resign, nullptr);
                                           *info.resign = true;
                                           return view.legal[0];
                                         },
                                         {});
  ASSERT_TRUE(status.ok()) << status.error_message();
  const std::vector<v1::PlayAnswer> answers = host.answers();
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_TRUE(answers[0].resign());
  EXPECT_EQ(answers[0].step(), 3u);
  EXPECT_FALSE(answers[0].has_action());
  EXPECT_EQ(client.stats().decisions_answered, 0u);
}

// CAPABILITY_EVENTS_IN_DECISION: the kit asks for it (unless told not to) and
// hands a decision's events to on_events before it asks the decider.
TEST(Client, EventsInADecisionReachOnEventsBeforeTheDecider) {
  std::vector<int> capabilities;
  std::mutex mu;
  ScriptedHost host([&](int, grpc::ServerContext*, Stream* stream) {
    v1::PlayRequest hello;
    if (!stream->Read(&hello) || !hello.has_hello()) return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "no hello");
    {
      std::lock_guard<std::mutex> lock(mu);
      capabilities.assign(hello.hello().capabilities().begin(), hello.hello().capabilities().end());
    }
    stream->Write(Welcome());
    v1::PlayUpdate decision = Decision(1);
    decision.mutable_decision()->mutable_events()->set_step(1);
    Event e;
    e.type = EventType::kBarbariansAdvance;
    e.a = 1;
    protocol::EventToProto(e, decision.mutable_decision()->mutable_events()->add_events());
    stream->Write(decision);
    v1::PlayRequest answer;
    stream->Read(&answer);
    stream->Write(GameOver());
    return grpc::Status::OK;
  });
  for (const bool ask : {true, false}) {
    std::vector<std::string> order;
    Callbacks callbacks;
    callbacks.on_events = [&](uint32_t step, const std::vector<Event>& events) {
      order.push_back("events " + std::to_string(step) + " x" + std::to_string(events.size()));
    };
    Options options = TestOptions(host.address());
    options.events_in_decision = ask;
    options.view_deltas = false;  // this test is about the events
    Client client;
    const grpc::Status status = client.Run(
        options,
        [&](const View& view, const DecisionInfo& info) {
          order.push_back("decide " + std::to_string(info.step));
          return view.legal[0];
        },
        callbacks);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(order, (std::vector<std::string>{"events 1 x1", "decide 1"}));
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_EQ(capabilities, ask ? std::vector<int>{v1::CAPABILITY_EVENTS_IN_DECISION} : std::vector<int>{});
  }
}

// CAPABILITY_VIEW_DELTAS: the kit asks for it, rebuilds a delta's view from
// the last decision it answered, and ends the stream on a delta against a
// view it does not hold instead of deciding on a wrong view.
TEST(Client, ViewDeltasAreRebuiltFromTheLastDecisionAnswered) {
  for (const bool wrong_base : {false, true}) {
    std::vector<int> capabilities;
    std::mutex mu;
    ScriptedHost host([&](int, grpc::ServerContext*, Stream* stream) {
      v1::PlayRequest request;
      if (!stream->Read(&request) || !request.has_hello()) return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "");
      {
        std::lock_guard<std::mutex> lock(mu);
        capabilities.assign(request.hello().capabilities().begin(), request.hello().capabilities().end());
      }
      stream->Write(Welcome());
      const v1::PlayUpdate first = Decision(0);
      stream->Write(first);
      if (!stream->Read(&request)) return grpc::Status::OK;
      v1::View next = first.decision().view();
      next.mutable_legal()->erase(next.mutable_legal()->begin());  // the first spot is gone
      v1::PlayUpdate second;
      second.mutable_decision()->set_step(2);
      protocol::MakeViewDelta(first.decision().view(), wrong_base ? 1 : 0, next,
                              second.mutable_decision()->mutable_view_delta());
      stream->Write(second);
      if (stream->Read(&request)) stream->Write(GameOver());
      return grpc::Status::OK;
    });
    std::vector<std::vector<Action>> legal_seen;
    Options options = TestOptions(host.address());
    options.max_reconnect_attempts = 0;
    options.view_deltas = true;
    Client client;
    const grpc::Status status = client.Run(options, [&](const View& view, const DecisionInfo&) {
      legal_seen.push_back(view.legal);
      return view.legal[0];
    });
    const std::vector<Action> start = MakeView(State(), 0).legal;
    {
      std::lock_guard<std::mutex> lock(mu);
      EXPECT_EQ(capabilities, (std::vector<int>{v1::CAPABILITY_EVENTS_IN_DECISION, v1::CAPABILITY_VIEW_DELTAS}));
    }
    if (wrong_base) {
      EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
      EXPECT_NE(
          status.error_message().find("a view delta against step 1, but the last decision answered was at step 0"),
          std::string::npos)
          << status.error_message();
      EXPECT_EQ(legal_seen.size(), 1u) << "decided on a view it could not rebuild";
    } else {
      ASSERT_TRUE(status.ok()) << status.error_message();
      ASSERT_EQ(legal_seen.size(), 2u);
      EXPECT_EQ(legal_seen[0], start);
      EXPECT_EQ(legal_seen[1], std::vector<Action>(start.begin() + 1, start.end()));
    }
  }
}

TEST(Client, ANoteIsCutToTheHostsLimitAtACharacterBoundary) {
  DecisionInfo::Note note;
  note.text = std::string(255, 'a') + "\xc3\xa9tude";  // "é" straddles byte 256
  v1::PlayAnswer answer;
  AttachNote(note, &answer);
  EXPECT_EQ(answer.debug().note(), std::string(255, 'a'));
  note.text = std::string(300, 'b');
  note.evaluation = std::nan("");
  AttachNote(note, &answer);
  EXPECT_EQ(answer.debug().note().size(), 256u);
  EXPECT_FALSE(answer.debug().has_evaluation()) << "the host refuses an answer with a non-finite evaluation";
  v1::PlayAnswer none;
  AttachNote({}, &none);
  EXPECT_FALSE(none.has_debug());
}

TEST(Client, NeverResendsARefusedAction) {
  std::atomic<bool> extra_answer{false};
  ScriptedHost host([&](int, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    stream->Write(Welcome());
    stream->Write(Decision(0));
    v1::PlayRequest answer;
    stream->Read(&answer);
    v1::PlayUpdate rejected;
    rejected.mutable_rejected()->set_step(0);
    stream->Write(rejected);
    stream->Write(GameOver());
    // The client half-closes after the game over; a resent answer would come first.
    extra_answer = stream->Read(&answer);
    return grpc::Status::OK;
  });
  Client client;
  const grpc::Status status =
      client.Run(TestOptions(host.address()), [](const View& view, const DecisionInfo&) { return view.legal[0]; });
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_FALSE(extra_answer);
}

TEST(Client, FollowsARedirect) {
  ScriptedHost target([](int, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    stream->Write(Welcome());
    stream->Write(GameOver());
    return grpc::Status::OK;
  });
  ScriptedHost first([&](int, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    v1::PlayUpdate redirect;
    redirect.mutable_redirect()->set_game_id("g1");
    redirect.mutable_redirect()->set_host(target.address());
    stream->Write(redirect);
    return grpc::Status::OK;
  });
  Client client;
  const grpc::Status status = client.Run(TestOptions(first.address()), FirstNotRejected);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(client.stats().redirects, 1u);
  EXPECT_EQ(target.calls(), 1);
}

TEST(Client, ReconnectsAfterADroppedStream) {
  ScriptedHost host([](int call, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    // The host may not yet have noticed that the first stream is gone.
    if (call == 1) return grpc::Status(grpc::StatusCode::ALREADY_EXISTS, "the old stream still plays the seat");
    stream->Write(Welcome(call == 0 ? 0 : 5));
    if (call == 0) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "connection reset");
    stream->Write(GameOver());
    return grpc::Status::OK;
  });
  Client client;
  const grpc::Status status = client.Run(TestOptions(host.address()), FirstNotRejected);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(host.calls(), 3);
  EXPECT_EQ(client.stats().reconnects, 1u);
}

TEST(Client, GivesUpAfterTheReconnectBudget) {
  ScriptedHost host([](int call, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    if (call == 0) stream->Write(Welcome());
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "host restarting");
  });
  Options options = TestOptions(host.address());
  options.max_reconnect_attempts = 2;
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_NE(status.error_message().find("gave up after 2 reconnect attempts"), std::string::npos)
      << status.error_message();
  EXPECT_EQ(host.calls(), 3);
}

TEST(Client, EachWelcomedStreamStartsAFreshReconnectBudget) {
  // Welcomed, dropped, one failed attempt, welcomed again, dropped, ...: a
  // budget of 2 attempts would run out by the second drop if it were not
  // renewed by each welcome.
  ScriptedHost host([](int call, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    if (call % 2 == 1) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "not yet");
    stream->Write(Welcome());
    if (call < 6) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "connection reset");
    stream->Write(GameOver());
    return grpc::Status::OK;
  });
  Options options = TestOptions(host.address());
  options.max_reconnect_attempts = 2;
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(host.calls(), 7);
  EXPECT_EQ(client.stats().reconnects, 3u);
}

TEST(Client, ARefusedFirstConnectionIsNotRetried) {
  ScriptedHost host([](int, grpc::ServerContext*, Stream*) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "unknown token");
  });
  Client client;
  const grpc::Status status = client.Run(TestOptions(host.address()), FirstNotRejected);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_NE(status.error_message().find("unknown token"), std::string::npos);
  EXPECT_EQ(host.calls(), 1);
}

// A loopback address nothing listens on: a port taken and released.
std::string DeadAddress() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), len), 0);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  close(fd);  // never listened on: connecting is refused
  return "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
}

TEST(Client, AnUnreachableFirstHostIsLeftForTheOtherHosts) {
  // The host the game was created on died before the seat connected; another
  // host took the game over (docs/GAMEHOST.md, "Checkpoints and takeover").
  ScriptedHost other([](int, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    stream->Write(Welcome(40));
    stream->Write(GameOver());
    return grpc::Status::OK;
  });
  Options options = TestOptions(DeadAddress());
  options.other_hosts = {other.address()};
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(other.calls(), 1);
  EXPECT_EQ(client.stats().reconnects, 0u);  // its first welcome, not a return
}

TEST(Client, AnUnreachableFirstHostWithoutOtherHostsFailsAtOnce) {
  Client client;
  const grpc::Status status = client.Run(TestOptions(DeadAddress()), FirstNotRejected);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(status.error_message().find("gave up"), std::string::npos) << status.error_message();
}

TEST(Client, ARedirectToTheUnreachableHostWaitsForTheLeaseToLapse) {
  // Until the dead host's lease lapses the other host still names it as the
  // game's host; the seat asks the other host again instead of going back.
  const std::string dead = DeadAddress();
  ScriptedHost other([&](int call, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    if (call < 2) {
      v1::PlayUpdate redirect;
      redirect.mutable_redirect()->set_game_id("g1");
      redirect.mutable_redirect()->set_host(dead);
      stream->Write(redirect);
      return grpc::Status::OK;
    }
    stream->Write(Welcome(12));
    stream->Write(GameOver());
    return grpc::Status::OK;
  });
  Options options = TestOptions(dead);
  options.other_hosts = {other.address()};
  options.max_redirects = 1;  // bouncing to the dead host would run out of these
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(other.calls(), 3);
}

TEST(Client, ASeatTheOldHostNoLongerKnowsAsksTheOtherHosts) {
  // The seat's stream to A broke; A lost the game to B, which finished it. A
  // answers NOT_FOUND now; B still has the result.
  ScriptedHost b([](int, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    stream->Write(Welcome(700));
    stream->Write(GameOver());
    return grpc::Status::OK;
  });
  ScriptedHost a([](int call, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    if (call > 0) return grpc::Status(grpc::StatusCode::NOT_FOUND, "no game g1 on this host");
    stream->Write(Welcome());
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "moved to another host");
  });
  Options options = TestOptions(a.address());
  options.other_hosts = {b.address()};
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(client.stats().game_over);
  EXPECT_EQ(b.calls(), 1);
}

TEST(Client, NotFoundBeforeAnyWelcomeIsFinal) {
  // A game no host knows is the caller's mistake, not a move: no tour of hosts.
  ScriptedHost b([](int, grpc::ServerContext*, Stream*) { return grpc::Status::OK; });
  ScriptedHost a([](int, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "no game g1 on this host");
  });
  Options options = TestOptions(a.address());
  options.other_hosts = {b.address()};
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(b.calls(), 0);
}

// A host that, asked for g1, always names `host` as the game's host.
Script RedirectsTo(const std::string& host) {
  return [host](int, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    v1::PlayUpdate redirect;
    redirect.mutable_redirect()->set_game_id("g1");
    redirect.mutable_redirect()->set_host(host);
    stream->Write(redirect);
    return grpc::Status::OK;
  };
}

TEST(Client, GivesUpOnAGameLeasedToAnUnreachableHostForever) {
  const std::string dead = DeadAddress();
  ScriptedHost other(RedirectsTo(dead));
  Options options = TestOptions(dead);
  options.other_hosts = {other.address()};
  options.max_reconnect_attempts = 3;
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_NE(status.error_message().find("gave up after"), std::string::npos) << status.error_message();
}

// A host killed and started again at its address (a pod restarted in place)
// plays its games on; the other hosts redirect there meanwhile. The seat must try
// that host again, not only ask the ones that redirect it there.
TEST(Client, FindsItsGameOnAHostThatCameBackAtItsAddress) {
  const std::string dead = DeadAddress();
  ScriptedHost other(RedirectsTo(dead));
  std::unique_ptr<ScriptedHost> back;
  std::thread restart([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    back = std::make_unique<ScriptedHost>(
        [](int, grpc::ServerContext* context, Stream* stream) {
          ReadHello(context, stream);
          stream->Write(Welcome());
          stream->Write(GameOver());
          return grpc::Status::OK;
        },
        std::stoi(dead.substr(dead.rfind(':') + 1)));
  });
  Options options = TestOptions(dead);
  options.other_hosts = {other.address()};
  // Seconds of trying: longer than the host takes to come back.
  options.reconnect_initial_backoff_ms = 100;
  options.reconnect_max_backoff_ms = 400;
  options.max_reconnect_attempts = 30;
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  restart.join();
  EXPECT_TRUE(status.ok()) << status.error_message();
  ASSERT_TRUE(back);
  EXPECT_EQ(back->calls(), 1);
}

TEST(Client, DisconnectAfterDropsAtTheNextDecisionAndComesBack) {
  std::atomic<int> first_stream_answers{0};
  ScriptedHost host([&](int call, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    stream->Write(Welcome());
    if (call == 0) {
      v1::PlayRequest answer;
      stream->Write(Decision(0));
      if (stream->Read(&answer)) ++first_stream_answers;
      stream->Write(Decision(1));
      // The client hangs up instead of answering.
      while (stream->Read(&answer)) ++first_stream_answers;
      return grpc::Status::OK;
    }
    stream->Write(GameOver());
    return grpc::Status::OK;
  });
  Options options = TestOptions(host.address());
  options.disconnect_after = 1;
  options.reconnect_delay_ms = 10;
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(first_stream_answers, 1);
  EXPECT_EQ(host.calls(), 2);
  EXPECT_EQ(client.stats().reconnects, 1u);
  EXPECT_EQ(client.stats().decisions_answered, 1u);
}

TEST(Client, StallAfterKeepsTheStreamButStopsAnswering) {
  std::atomic<int> answers{0};
  ScriptedHost host([&](int, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    stream->Write(Welcome());
    v1::PlayRequest answer;
    stream->Write(Decision(0));
    if (stream->Read(&answer)) ++answers;
    stream->Write(Decision(1));
    stream->Write(Decision(2));
    stream->Write(GameOver());
    while (stream->Read(&answer)) ++answers;
    return grpc::Status::OK;
  });
  Options options = TestOptions(host.address());
  options.stall_after = 1;
  Client client;
  const grpc::Status status = client.Run(options, FirstNotRejected);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(answers, 1);
  EXPECT_EQ(client.stats().decisions_received, 3u);
  EXPECT_EQ(client.stats().decisions_answered, 1u);
}

TEST(Client, AnUnreadableViewEndsTheRunWithoutRetrying) {
  ScriptedHost host([](int, grpc::ServerContext* context, Stream* stream) {
    ReadHello(context, stream);
    stream->Write(Welcome());
    v1::PlayUpdate bad = Decision(0);
    bad.mutable_decision()->mutable_view()->mutable_position()->clear_road_owner();
    stream->Write(bad);
    v1::PlayRequest ignored;
    while (stream->Read(&ignored)) {
    }
    return grpc::Status::OK;
  });
  Client client;
  const grpc::Status status = client.Run(TestOptions(host.address()), FirstNotRejected);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_NE(status.error_message().find("cannot read the view"), std::string::npos) << status.error_message();
  EXPECT_EQ(host.calls(), 1);
}

}  // namespace
}  // namespace metropolis::botkit
