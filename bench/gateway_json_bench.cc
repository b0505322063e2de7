// What the gateway pays to print a live game's updates as JSON: a spectator's
// view and a step's events, by protobuf's JSON printer and by the gateway's
// own (services/gateway/proto_json.h), on positions of seeded random games.
// A live game's update is printed once and shared by all its watchers, so this
// is the cost per update per game (docs/PERFORMANCE.md, "Gateway").
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/signature.h"
#include "engine/state.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/gamehost.pb.h"
#include "services/gateway/json.h"
#include "services/gateway/proto_json.h"
#include "services/gateway/tests/reference_json.h"

namespace metropolis {
namespace {

struct Updates {
  std::vector<v1::View> views;
  std::vector<v1::Events> events;
};

// Every 7th position of four seeded games: the spectator's view, and the
// events of the action applied there (with their texts, as the gateway adds).
const Updates& Recorded() {
  static const Updates updates = [] {
    Updates u;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      GameConfig config;
      config.board = RandomBoard(seed);
      config.options = DefaultOptions(Ruleset::kCitiesAndKnights);
      State s;
      std::string error;
      if (!NewGame(config, &s, &error)) std::abort();
      std::vector<Action> actions;
      State played = s;
      BenchRng chance{seed}, players{seed ^ 0x9E3779B97F4A7C15ull};
      PlayRandomGame(&played, &chance, &players, [&](const State&, const Action& a) { actions.push_back(a); });
      for (size_t i = 0; i < actions.size(); ++i) {
        std::vector<Event> events;
        s.ApplyUnchecked(actions[i], &events);
        if (i % 7 != 0) continue;
        protocol::PublicViewToProto(s, &u.views.emplace_back());
        v1::Events& batch = u.events.emplace_back();
        for (const Event& e : events) protocol::EventToProto(e, batch.add_events(), {.want_text = true});
      }
    }
    return u;
  }();
  return updates;
}

std::string ProtobufsJson(const google::protobuf::Message& m) {
  std::string text;
  if (!gateway::ReferenceJson(m, &text)) std::abort();
  return text;
}

template <typename Print>
void PrintViews(benchmark::State& state, Print print) {
  const auto& views = Recorded().views;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const std::string text = print(views[i++ % views.size()]);
    bytes += text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.SetBytesProcessed(int64_t(bytes));
  state.counters["view_bytes"] = double(bytes) / double(state.iterations());
}

template <typename Print>
void PrintEvents(benchmark::State& state, Print print) {
  const auto& events = Recorded().events;
  size_t i = 0;
  for (auto _ : state) {
    const std::string text = print(events[i++ % events.size()]);
    benchmark::DoNotOptimize(text.data());
  }
}

void BM_ViewProtobufPrinter(benchmark::State& state) { PrintViews(state, ProtobufsJson); }
void BM_ViewOwnPrinter(benchmark::State& state) { PrintViews(state, gateway::PrintProtoJson); }
void BM_EventsProtobufPrinter(benchmark::State& state) { PrintEvents(state, ProtobufsJson); }
void BM_EventsOwnPrinter(benchmark::State& state) { PrintEvents(state, gateway::PrintProtoJson); }

// The whole server-sent event the gateway makes of a view update, as every
// live game's watchers receive it.
void BM_ViewUpdateToSse(benchmark::State& state) {
  const auto& views = Recorded().views;
  size_t i = 0;
  for (auto _ : state) {
    v1::SpectateUpdate update;
    *update.mutable_view() = views[i++ % views.size()];
    const std::string sse = gateway::SpectateUpdateToSse(std::move(update));
    benchmark::DoNotOptimize(sse.data());
  }
}

BENCHMARK(BM_ViewProtobufPrinter);
BENCHMARK(BM_ViewOwnPrinter);
BENCHMARK(BM_EventsProtobufPrinter);
BENCHMARK(BM_EventsOwnPrinter);
BENCHMARK(BM_ViewUpdateToSse);

}  // namespace
}  // namespace metropolis

BENCHMARK_MAIN();
