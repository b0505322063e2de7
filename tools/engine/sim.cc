// sim: many seeded games between bots (bots/bot.h) in parallel, a progress
// bar, a summary table.
//
// Game i is fully determined by seed + i (its board when --random-board, its
// chance stream and each seat's bot stream), never by the thread that plays
// it; results are gathered and written in game order. So game i of
// `--seed S` is game 0 of `--seed S+i`, and a JSON line's "seed" replays it
// alone.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>

#include "bots/bot.h"
#include "engine/game.h"
#include "engine/view.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"
#include "tools/engine/rng.h"
#include "tools/engine/table.h"

namespace metropolis::cli {
namespace {

struct SimSettings {
  int64_t games = 100;
  uint64_t seed = 1;
  int threads = 1;
  int seats = 4;
  std::vector<std::string> players;  // a bot spec per seat
  bool random_board = false;
  RulesOptions options;
  bool validate = false;  // checked Apply and Validate() after every step
  std::string jsonl;
};

struct GameResult {
  std::string error;  // the engine contradicted itself (--validate) or refused a bot's offer
  int winner = kNoSeat;
  bool hit_cap = false;
  uint64_t actions = 0;
  int turns = 0;
  std::array<int, kMaxSeats> vp{};
  int attacks = 0;
  int metropolises = 0;
  int dev_bought = 0, dev_played = 0;  // the base game (BG-4, BG-5)
  bool largest_army = false;           // held at the end (BG-6)
  std::string json;                    // the JSON line, when --jsonl
};

// Beyond the engine's own cap (max_actions), in case a bug keeps a game from
// ending: the sim must always terminate.
constexpr uint64_t kSafetyMargin = 1000;

void PlayGame(const SimSettings& s, int64_t index, GameResult* out) {
  const uint64_t game_seed = s.seed + uint64_t(index);
  GameConfig config;
  config.num_seats = s.seats;
  config.board = s.random_board ? RandomBoard(game_seed) : DefaultBoard();
  config.options = s.options;

  State state(config);
  std::string error;
  if (!NewGame(config, &state, &error)) {
    out->error = "game seed " + std::to_string(game_seed) + ": " + error;
    return;
  }
  // Each seat's bot sees only its view, with what its tracker has gathered
  // from the seat's masked events, as in the arena and the game service.
  std::vector<std::unique_ptr<bots::Bot>> players;
  std::vector<uint64_t> player_streams;
  std::vector<KnowledgeTracker> knowledge;
  // Seats whose bot reads only its legal actions choose from the engine's list,
  // with no view and no tracker (Bot::ReadsOnlyLegal, Bot::ChooseFromLegal):
  // random games stay as fast as the engine.
  std::vector<bool> light;
  ActionList legal;
  std::optional<View> view;
  bool any_tracker = false;  // events are asked of the engine only for trackers
  for (int seat = 0; seat < s.seats; ++seat) {
    players.push_back(bots::MakeBot(s.players[seat], &error));  // specs were checked when the flags were read
    player_streams.push_back(GamePlayerSeed(s.seed, uint64_t(index), seat));
    light.push_back(players.back()->ReadsOnlyLegal());
    any_tracker |= !light.back();
    knowledge.emplace_back(seat);
    knowledge.back().Reset(state);
  }
  auto choose = [&](int seat) {
    if (!light[seat])
      return players[seat]->Choose(view.emplace(MakeView(state, seat, &knowledge[seat])), &player_streams[seat]);
    state.LegalActions(&legal);
    return players[seat]->ChooseFromLegal(seat, std::span<const Action>(legal.begin(), legal.end()),
                                          &player_streams[seat]);
  };
  Rng chance(GameChanceSeed(s.seed, uint64_t(index)));

  GameRecord record;
  const bool keep_record = !s.jsonl.empty();
  std::vector<Event> events;
  uint64_t steps = 0;
  const uint64_t hard_cap = uint64_t(s.options.max_actions) + kSafetyMargin;
  while (!state.IsTerminal() && steps < hard_cap) {
    int player = state.CurrentPlayer();
    if (player == kTerminalPlayer) break;
    Action a = player == kChancePlayer ? state.SampleChance(chance.Uniform()) : choose(player);
    events.clear();
    // A trade offer or counter (TRD-3) is built by the bot, never picked from
    // the legal actions, so it is always applied with checking.
    if (s.validate || IsParameterised(a.type)) {
      std::string e = state.Apply(a, &events);
      if (e.empty() && s.validate) e = state.Validate();
      if (!e.empty()) {
        out->error = "game seed " + std::to_string(game_seed) + ", step " + std::to_string(steps + 1) + " '" +
                     ActionToString(a) + "': " + e;
        break;
      }
    } else {
      state.ApplyUnchecked(a, any_tracker ? &events : nullptr);
    }
    ++steps;
    out->dev_bought += a.type == ActionType::kBuyDev;
    out->dev_played += a.type == ActionType::kPlayDev;
    out->metropolises += a.type == ActionType::kPlaceMetropolis;  // the one action that places one (MET-2)
    if (keep_record) record.actions.push_back(a);
    if (any_tracker)
      for (const Event& e : events)
        for (int seat = 0; seat < s.seats; ++seat)
          if (!light[seat]) knowledge[seat].Observe(MaskEvent(e, seat));
  }

  out->winner = state.IsTerminal() ? state.Winner() : kNoSeat;
  out->hit_cap = out->winner == kNoSeat;
  out->actions = steps;
  out->turns = state.turn_number();
  for (int seat = 0; seat < s.seats; ++seat) out->vp[seat] = state.player(seat).vp;
  out->attacks = state.barbarian_attacks();
  out->largest_army = state.largest_army_holder() != kNoSeat;
  if (keep_record) {
    record.config = config;
    record.seed = game_seed;
    record.winner = out->winner;
    record.players = s.players;
    out->json = GameRecordToJson(record);
  }
}

class Progress {
 public:
  explicit Progress(int64_t total) : total_(total), tty_(isatty(STDERR_FILENO)) {}

  void Update(int64_t done, double seconds) {
    if (tty_) {
      // Redrawing faster than the eye reads costs more than it shows.
      if (done < total_ && seconds - last_draw_ < 0.1) return;
      last_draw_ = seconds;
      constexpr int kWidth = 30;
      int filled = total_ ? int(kWidth * done / total_) : kWidth;
      std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
      std::string eta =
          done > 0 && done < total_ ? ", " + FormatFixed(seconds * (total_ - done) / done, 0) + " s left" : "";
      std::fprintf(stderr, "\r[%s] %lld/%lld games, %.1f s%s\033[K", bar.c_str(), (long long)done, (long long)total_,
                   seconds, eta.c_str());
      std::fflush(stderr);
      return;
    }
    // Without a terminal (CI logs) a line per tenth keeps logs short.
    while (next_tenth_ <= 10 && done * 10 >= total_ * next_tenth_) {
      if (next_tenth_ > 0)
        std::fprintf(stderr, "sim: %lld/%lld games, %.1f s\n", (long long)done, (long long)total_, seconds);
      ++next_tenth_;
    }
  }
  void Finish() {
    if (tty_) std::fprintf(stderr, "\n");
  }

 private:
  int64_t total_;
  bool tty_;
  int next_tenth_ = 0;
  double last_draw_ = -1;
};

std::string Percent(double part, double whole) { return whole > 0 ? FormatFixed(100.0 * part / whole, 1) + "%" : "-"; }

void PrintSummary(const SimSettings& s, const std::vector<GameResult>& results, double seconds) {
  const double n = double(results.size());
  uint64_t actions = 0;
  double turns = 0, attacks = 0, metropolises = 0, dev_bought = 0, dev_played = 0, largest_army = 0;
  int64_t capped = 0;
  std::array<int64_t, kMaxSeats> wins{};
  std::array<double, kMaxSeats> vp{};
  for (const GameResult& r : results) {
    actions += r.actions;
    turns += r.turns;
    attacks += r.attacks;
    metropolises += r.metropolises;
    dev_bought += r.dev_bought;
    dev_played += r.dev_played;
    largest_army += r.largest_army;
    if (r.hit_cap) ++capped;
    if (r.winner != kNoSeat) ++wins[r.winner];
    for (int seat = 0; seat < s.seats; ++seat) vp[seat] += r.vp[seat];
  }
  auto mean = [&](double total) { return n > 0 ? total / n : 0.0; };

  std::string players;
  for (int seat = 0; seat < s.seats; ++seat) players += (seat ? "," : "") + s.players[seat];
  std::cout << "sim: " << results.size() << " games, seed " << s.seed << ", " << s.seats << " seats (" << players
            << "), " << (s.random_board ? "random boards" : "default board") << ", " << s.threads << " thread"
            << (s.threads == 1 ? "" : "s") << "\n";
  std::string options = OptionsToString(s.options);
  if (!options.empty()) std::cout << "options: " << options << "\n";
  std::cout << "\n";

  Table totals({"statistic", "value"});
  totals.AddRow({"games", std::to_string(results.size())});
  totals.AddRow({"mean length (actions)", FormatFixed(mean(double(actions)), 1)});
  totals.AddRow({"mean length (turns)", FormatFixed(mean(turns), 1)});
  if (s.options.ruleset == Ruleset::kBase) {  // RULES.md 22: no barbarians, development cards instead
    totals.AddRow({"development cards bought per game", FormatFixed(mean(dev_bought), 2)});
    totals.AddRow({"development cards played per game", FormatFixed(mean(dev_played), 2)});
    totals.AddRow({"games ending with Largest Army held", Percent(largest_army, n)});
  } else {
    totals.AddRow({"barbarian attacks per game", FormatFixed(mean(attacks), 2)});
    totals.AddRow({"metropolises placed per game", FormatFixed(mean(metropolises), 2)});
  }
  totals.AddRow({"games at the length cap", std::to_string(capped)});
  totals.AddRow({"games at the length cap (share)", Percent(double(capped), n)});
  totals.AddRow({"games/s", FormatFixed(seconds > 0 ? n / seconds : 0, 1)});
  totals.AddRow({"actions/s", FormatRate(seconds > 0 ? double(actions) / seconds : 0)});
  std::cout << totals.ToString() << "\n";

  Table seats({"seat", "player", "wins", "win rate", "mean VP"});
  for (int seat = 0; seat < s.seats; ++seat)
    seats.AddRow({std::to_string(seat), s.players[seat], std::to_string(wins[seat]), Percent(double(wins[seat]), n),
                  FormatFixed(mean(vp[seat]), 2)});
  std::cout << seats.ToString() << "\n";

  // Per player type: a win rate per seat-game, comparable across line-ups.
  std::vector<std::string> kinds = s.players;
  std::sort(kinds.begin(), kinds.end());
  kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
  Table types({"player", "seats", "wins", "win rate per seat", "mean VP"});
  for (const std::string& type : kinds) {
    int count = 0;
    int64_t type_wins = 0;
    double type_vp = 0;
    for (int seat = 0; seat < s.seats; ++seat) {
      if (s.players[seat] != type) continue;
      ++count;
      type_wins += wins[seat];
      type_vp += vp[seat];
    }
    types.AddRow({type, std::to_string(count), std::to_string(type_wins), Percent(double(type_wins), n * count),
                  FormatFixed(n > 0 ? type_vp / (n * count) : 0, 2)});
  }
  std::cout << types.ToString();
}

Flags MakeFlags() {
  Flags flags("sim", "[flags]",
              "Plays seeded games between bots on all cores and prints a summary. The same flags give\n"
              "the same games whatever the number of threads.");
  flags.Add({.name = "games", .value_name = "N", .help = "number of games (default 100)"});
  flags.Add({.name = "seed", .value_name = "S", .help = "game i is seeded with S+i (default 1)"});
  flags.Add({.name = "threads", .value_name = "T", .help = "worker threads (default: all cores)"});
  flags.Add({.name = "players",
             .value_name = "P,P,P[,P]",
             .help = "bot per seat: random, greedy, heuristic, search[:ms=50,...] (default: random in every seat)"});
  flags.Add({.name = "seats", .value_name = "3|4", .help = "number of seats (default: 4, or the length of --players)"});
  flags.Add(
      {.name = "random-board", .value_name = "", .help = "game i plays on RandomBoard(S+i), not the default board"});
  AddOptionFlags(&flags);
  AddMaxActionsFlag(&flags);
  flags.Add({.name = "jsonl", .value_name = "FILE", .help = "write each game as one JSON line (docs/CLI.md)"});
  flags.Add({.name = "validate",
             .value_name = "",
             .help = "apply with checking and run Validate() after every step (slower)"});
  return flags;
}

bool ReadSettings(const Flags& flags, SimSettings* s, std::string* error) {
  if (flags.Has("games") && !flags.GetInt("games", 1, 100000000, &s->games, error)) return false;
  if (flags.Has("seed") && !flags.GetUint64("seed", &s->seed, error)) return false;
  int64_t v;
  s->threads = int(std::max(1u, std::thread::hardware_concurrency()));
  if (flags.Has("threads")) {
    if (!flags.GetInt("threads", 1, 1024, &v, error)) return false;
    s->threads = int(v);
  }
  if (flags.Has("players")) {
    s->players = SplitBotSpecs(flags.Get("players"));
    for (const std::string& p : s->players) {
      if (!bots::MakeBot(p, error)) {
        *error = "--players: " + *error;
        return false;
      }
    }
  }
  if (flags.Has("seats")) {
    if (!flags.GetInt("seats", kMinSeats, kMaxSeats, &v, error)) return false;
    s->seats = int(v);
  } else if (!s->players.empty()) {
    s->seats = int(s->players.size());
  }
  if (s->players.empty()) s->players.assign(s->seats, "random");
  if (int(s->players.size()) != s->seats) {
    *error =
        "--players names " + std::to_string(s->players.size()) + " players for " + std::to_string(s->seats) + " seats";
    return false;
  }
  if (s->seats < kMinSeats || s->seats > kMaxSeats) {
    *error = "--players: " + std::to_string(s->seats) + " seats; the game has 3 or 4";
    return false;
  }
  s->random_board = flags.Has("random-board");
  if (!ReadOptionFlags(flags, &s->options, error)) return false;
  if (!ReadMaxActionsFlag(flags, &s->options, error)) return false;
  s->validate = flags.Has("validate");
  s->jsonl = flags.Get("jsonl");
  s->threads = int(std::min<int64_t>(s->threads, std::max<int64_t>(1, s->games)));
  return true;
}

}  // namespace

int RunSim(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  std::string error;
  SimSettings s;
  if (!ReadSettings(flags, &s, &error)) return UsageError(flags, error);

  GameConfig check;
  check.num_seats = s.seats;
  check.board = DefaultBoard();
  check.options = s.options;
  if (std::string e = ValidateConfig(check); !e.empty()) return UsageError(flags, "configuration: " + e);

  std::ofstream jsonl;
  if (!s.jsonl.empty()) {
    jsonl.open(s.jsonl, std::ios::binary | std::ios::trunc);
    if (!jsonl) return Fail(flags, "cannot write '" + s.jsonl + "'", kExitRefused);
  }

  // Each game's result is written by the one worker that played it and
  // published by its flag; the main thread looks every 100 ms. A worker wakes
  // it only after the last game: a wake per game cost a context switch or two
  // per game and a tenth of the run in the kernel.
  std::vector<GameResult> results(size_t(s.games));
  std::unique_ptr<std::atomic<bool>[]> done(new std::atomic<bool>[size_t(s.games)]());
  std::atomic<int64_t> finished{0}, next{0};
  std::mutex mu;
  std::condition_variable all_done;
  auto start = std::chrono::steady_clock::now();

  std::vector<std::thread> workers;
  for (int t = 0; t < s.threads; ++t) {
    workers.emplace_back([&] {
      while (true) {
        const int64_t i = next.fetch_add(1);
        if (i >= s.games) return;
        PlayGame(s, i, &results[size_t(i)]);
        done[size_t(i)].store(true, std::memory_order_release);
        if (finished.fetch_add(1) + 1 == s.games) {
          std::lock_guard<std::mutex> lock(mu);  // so the wake cannot fall before the main thread waits
          all_done.notify_one();
        }
      }
    });
  }

  // The main thread reports progress and writes JSON lines in game order,
  // releasing each line once written so memory stays bounded.
  Progress progress(s.games);
  int64_t written = 0;
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  while (true) {
    bool all = false;
    {
      std::unique_lock<std::mutex> lock(mu);
      all = all_done.wait_for(lock, std::chrono::milliseconds(100), [&] { return finished.load() == s.games; });
    }
    while (written < s.games && done[size_t(written)].load(std::memory_order_acquire)) {
      if (jsonl.is_open()) {
        jsonl << results[size_t(written)].json << '\n';
        std::string().swap(results[size_t(written)].json);
      }
      ++written;
    }
    progress.Update(finished.load(), elapsed());
    if (all) break;
  }
  for (std::thread& w : workers) w.join();
  progress.Finish();
  double seconds = elapsed();
  if (jsonl.is_open()) {
    jsonl.close();
    if (!jsonl) return Fail(flags, "error writing '" + s.jsonl + "'", kExitRefused);
  }

  int bugs = 0;
  for (const GameResult& r : results) {
    if (r.error.empty()) continue;
    if (bugs++ < 10) std::cerr << "metropolis-engine sim: engine error: " << r.error << "\n";
  }
  PrintSummary(s, results, seconds);
  if (bugs) return Fail(flags, std::to_string(bugs) + " games stopped on an engine error", kExitEngineBug);
  return kExitOk;
}

}  // namespace metropolis::cli
