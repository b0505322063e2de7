#include "botkits/cpp/play.h"

#include <atomic>
#include <condition_variable>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "botkits/cpp/builtin.h"
#include "botkits/cpp/client.h"
#include "bots/bot.h"
#include "lib/common/credentials.h"

namespace metropolis::botkit {
namespace {

void LogLine(std::string_view message) { std::cerr << "metropolis-bot: " << message << std::endl; }

// Appends what a seat saw of its finished game to --record's file, one JSON line,
// flushed at once: a bot killed later keeps the records of the games it finished.
void AppendRecord(const std::string& path, const Client& client) {
  if (path.empty()) return;
  static std::mutex mutex;  // compete mode plays several games at once
  std::lock_guard lock(mutex);
  std::ofstream out(path, std::ios::app);
  out << protocol::SeatRecordToJson(client.record()) << "\n";
  out.flush();
  if (!out) LogLine("cannot append to --record file " + path);
}

// "WON" for END_REASON_WON: the summary is read by people and scripts alike.
std::string ReasonName(v1::EndReason reason) {
  std::string name = v1::EndReason_Name(reason);
  constexpr std::string_view kPrefix = "END_REASON_";
  if (name.starts_with(kPrefix)) name.erase(0, kPrefix.size());
  return name.empty() ? std::to_string(int(reason)) : name;
}

// One line, key=value, for scripts: the host's tests read it.
std::string Summary(const std::string& game_id, const RunStats& stats) {
  std::ostringstream out;
  const v1::GameResult& r = stats.result;
  out << "metropolis-bot: game over: game=" << game_id << " seat=" << stats.seat
      << " decisions=" << stats.decisions_answered << " rejected=" << stats.rejections
      << " reconnects=" << stats.reconnects << " winner=" << r.winner() << " result=" << ReasonName(r.reason())
      << " vp=";
  for (int i = 0; i < r.vp_size(); ++i) out << (i ? "," : "") << r.vp(i);
  out << " actions=" << r.actions() << " turns=" << r.turns();
  return out.str();
}

// Compete mode: every tournament seat the matchmaker sends is played on its
// own thread, with its own bot and random stream, until `games` were started
// (0: until the process is stopped).
int RunCompete(const BotSettings& settings, uint64_t seed, const Callbacks& callbacks) {
  std::mutex mutex;
  std::condition_variable done;
  int started = 0, playing = 0, failed = 0;
  // Each game's thread and whether it is over: finished ones are joined as new
  // seats come, so a bot that competes for days does not keep them all.
  struct GameThread {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> over = std::make_shared<std::atomic<bool>>(false);
  };
  std::vector<GameThread> games;
  const auto on_seat = [&](const v1::Assignment& seat) {
    std::unique_lock lock(mutex);
    const int number = ++started;
    ++playing;
    if (!settings.quiet)
      LogLine("seated in game " + seat.game_id() + " of tournament " + seat.tournament() + " on " + seat.host());
    std::erase_if(games, [](GameThread& g) {
      if (!g.over->load()) return false;
      g.thread.join();
      return true;
    });
    GameThread& game = games.emplace_back();
    game.thread = std::thread([&, seat, number, over = game.over] {
      std::string error;
      std::unique_ptr<bots::Bot> bot = bots::MakeBot(settings.bot, &error);
      uint64_t rng = bots::MixSeed(seed, uint64_t(number));  // a stream of its own for each game
      Options options = settings.client;
      options.host = seat.host();
      options.other_hosts.assign(seat.other_hosts().begin(), seat.other_hosts().end());
      options.game_id = seat.game_id();
      options.token = seat.seat_token();
      Client client;
      const grpc::Status played = client.Run(options, BuiltinDecider(bot.get(), &rng, settings.debug_notes), callbacks);
      std::lock_guard guard(mutex);
      if (played.ok()) {
        AppendRecord(settings.record_path, client);
        std::cout << Summary(options.game_id, client.stats()) << std::endl;
      } else {
        ++failed;
        std::cerr << "metropolis-bot: game " << seat.game_id() << ": " << StatusCodeName(played.error_code()) << ": "
                  << played.error_message() << "\n";
      }
      --playing;
      over->store(true);
      done.notify_all();
    });
    return settings.games == 0 || started < settings.games;
  };
  const auto on_retry = [&](const std::string& why) { LogLine("competing again after: " + why); };
  // Each session its own stream: the matchmaker sends a duplicate set's
  // rotations to separate ones (docs/TOURNAMENTS.md, "Rotations in lockstep").
  grpc::Status status;
  std::vector<std::thread> sessions;
  std::mutex status_mutex;
  for (int i = 1; i < settings.sessions; ++i)
    sessions.emplace_back([&] {
      const grpc::Status s = Compete(settings.compete_options, on_seat, on_retry);
      std::lock_guard lock(status_mutex);
      if (!s.ok()) status = s;
    });
  if (const grpc::Status s = Compete(settings.compete_options, on_seat, on_retry); !s.ok()) {
    std::lock_guard lock(status_mutex);
    status = s;
  }
  for (std::thread& t : sessions) t.join();
  {
    std::unique_lock lock(mutex);
    done.wait(lock, [&] { return playing == 0; });
  }
  for (GameThread& g : games) g.thread.join();
  if (!status.ok()) {
    std::cerr << "metropolis-bot: competing: " << StatusCodeName(status.error_code()) << ": " << status.error_message()
              << "\n";
    return kExitFailed;
  }
  return failed ? kExitFailed : kExitOk;
}

}  // namespace

int PlayBot(const BotSettings& settings) {
  std::string error;
  // Every channel the kit dials (the game hosts, the matchmaker) uses it.
  services::SetChannelTls(settings.tls_ca_pem);
  std::unique_ptr<bots::Bot> bot = bots::MakeBot(settings.bot, &error);  // checked when parsing
  const uint64_t seed =
      settings.seed_given ? settings.seed : (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  uint64_t rng = seed;

  Callbacks callbacks;
  if (!settings.quiet) {
    callbacks.on_log = LogLine;
    // The seed makes a run repeatable (but for a search on the clock).
    LogLine("bot " + bot->name() + ", seed " + std::to_string(seed) + ", host " + settings.client.host);
  }
  DecisionFn decide = BuiltinDecider(bot.get(), &rng, settings.debug_notes);
  if (settings.verbose) {
    decide = [inner = std::move(decide)](const View& view, const DecisionInfo& info) {
      const Action action = inner(view, info);
      LogLine("step " + std::to_string(info.step) + ": " + ActionToString(action) + " (of " +
              std::to_string(view.legal.size()) + ", " + std::to_string(info.decision_ms_left) + " ms left)");
      return action;
    };
    callbacks.on_events = [](uint32_t step, const std::vector<Event>& events) {
      for (const Event& e : events) LogLine("event (to step " + std::to_string(step) + "): " + EventToString(e));
    };
  }

  if (settings.compete) return RunCompete(settings, seed, callbacks);
  const bool on_ladder = !settings.ladder.ladder.empty();
  for (int game = 0; game < settings.games; ++game) {
    Options options = settings.client;
    if (on_ladder) {
      // Queue, then play the seat the matchmaker found, like any other.
      v1::Assignment seat;
      const grpc::Status queued = WaitForSeat(
          settings.ladder,
          [&](const v1::Queued& q) {
            if (!settings.quiet && settings.verbose)
              LogLine("queued: position " + std::to_string(q.position()) + " of " + std::to_string(q.queue_size()) +
                      ", waited " + std::to_string(q.waited_ms()) + " ms");
          },
          &seat, [&](const std::string& why) { LogLine("queueing again after: " + why); });
      if (!queued.ok()) {
        std::cerr << "metropolis-bot: queueing on " << settings.ladder.ladder << ": "
                  << StatusCodeName(queued.error_code()) << ": " << queued.error_message() << "\n";
        return kExitFailed;
      }
      options.host = seat.host();
      options.other_hosts.assign(seat.other_hosts().begin(), seat.other_hosts().end());
      options.game_id = seat.game_id();
      options.token = seat.seat_token();
      if (!settings.quiet) LogLine("seated in game " + seat.game_id() + " on " + seat.host());
    }
    Client client;
    const grpc::Status status = client.Run(options, decide, callbacks);
    if (!status.ok()) {
      std::cerr << "metropolis-bot: " << StatusCodeName(status.error_code()) << ": " << status.error_message() << "\n";
      return kExitFailed;
    }
    AppendRecord(settings.record_path, client);
    std::cout << Summary(options.game_id, client.stats()) << std::endl;
  }
  return kExitOk;
}

}  // namespace metropolis::botkit
