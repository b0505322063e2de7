// replay_codec_measure: how many bytes the replay codec spends on games of
// bots. Plays seeded games (bots seated as the arena seats them, chance from
// ChanceStreams), encodes each action list, checks that it decodes back, and
// prints one row per ruleset (docs/PERFORMANCE.md, "Replay compression").

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "engine/config.h"
#include "engine/game.h"
#include "engine/state.h"
#include "engine/view.h"
#include "lib/chance/chance.h"
#include "lib/flags/flags.h"
#include "services/replays/codec/codec.h"

namespace metropolis::replays {
namespace {

struct Settings {
  int64_t games = 500;
  int seats = 4;
  uint64_t seed = 1;
  std::vector<std::string> bots;  // one per seat
  std::vector<Ruleset> rulesets = {Ruleset::kCitiesAndKnights, Ruleset::kBase};
};

struct Totals {
  int64_t games = 0, capped = 0;
  uint64_t actions = 0, bytes = 0, json_bytes = 0;
  CodecStats stats;
  std::vector<uint64_t> game_bytes;
  double encode_seconds = 0, decode_seconds = 0;
};

double CpuSeconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

// One game of bots, as match.cc plays it, keeping the action list.
bool PlayOne(const GameConfig& config, const Settings& s, uint64_t game_seed, std::vector<Action>* actions,
             std::string* error) {
  State state;
  if (!NewGame(config, &state, error)) return false;
  std::vector<std::unique_ptr<bots::Bot>> players;
  std::vector<KnowledgeTracker> knowledge;
  std::vector<uint64_t> streams;
  for (int seat = 0; seat < s.seats; ++seat) {
    players.push_back(bots::MakeBot(s.bots[size_t(seat)], error));
    if (!players.back()) return false;
    knowledge.emplace_back(seat);
    knowledge.back().Reset(state);
    streams.push_back(bots::MixSeed(game_seed, uint64_t(seat) + 1));
  }
  chance::ChanceStreams chance(game_seed);
  std::vector<Event> events;
  actions->clear();
  while (!state.IsTerminal()) {
    const int player = state.CurrentPlayer();
    Action a;
    if (player == kChancePlayer) {
      a = chance.Sample(state);
    } else {
      const View view = MakeView(state, player, &knowledge[size_t(player)]);
      a = players[size_t(player)]->Choose(view, &streams[size_t(player)]);
    }
    events.clear();
    if (std::string e = state.Apply(a, &events); !e.empty()) {
      *error = "game seed " + std::to_string(game_seed) + ": " + ActionToString(a) + ": " + e;
      return false;
    }
    for (const Event& e : events)
      for (int seat = 0; seat < s.seats; ++seat) knowledge[size_t(seat)].Observe(MaskEvent(e, seat));
    actions->push_back(a);
  }
  return true;
}

bool Measure(const Settings& s, Ruleset ruleset, Totals* t, std::string* error) {
  std::vector<Action> actions, decoded;
  std::string blob;
  for (int64_t i = 0; i < s.games; ++i) {
    const uint64_t game_seed = s.seed + uint64_t(i);
    GameConfig config;
    config.num_seats = s.seats;
    config.board = RandomBoard(game_seed);
    config.options = DefaultOptions(ruleset);
    if (!PlayOne(config, s, game_seed, &actions, error)) return false;
    double start = CpuSeconds();
    if (!EncodeActions(config, actions, &blob, error, &t->stats)) return false;
    t->encode_seconds += CpuSeconds() - start;
    start = CpuSeconds();
    if (!DecodeActions(config, blob, &decoded, error)) return false;
    t->decode_seconds += CpuSeconds() - start;
    for (size_t k = 0; k < actions.size(); ++k)
      if (Encode(decoded[k]) != Encode(actions[k])) {
        *error = "game seed " + std::to_string(game_seed) + ": step " + std::to_string(k + 1) + " decoded differently";
        return false;
      }
    ++t->games;
    t->capped += actions.size() >= config.options.max_actions;
    t->actions += actions.size();
    t->bytes += blob.size();
    t->game_bytes.push_back(blob.size());
    GameRecord record;
    record.config = config;
    record.actions = actions;
    t->json_bytes += GameRecordToJson(record).size();
  }
  return true;
}

uint64_t Median(std::vector<uint64_t> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void PrintRow(const char* name, const Totals& t) {
  const double actions = double(std::max<uint64_t>(1, t.actions));
  const double bits = t.stats.chance_bits + t.stats.decision_bits;
  std::printf("%-18s %6lld %10llu %7.1f%% %10llu %9.3f %9llu %8.2f %8.2f %7.1f%% %8.1f %7.0f %7.0f\n", name,
              (long long)t.games, (unsigned long long)t.actions, 100.0 * double(t.stats.chance_actions) / actions,
              (unsigned long long)t.bytes, double(t.bytes) / actions, (unsigned long long)Median(t.game_bytes),
              t.stats.chance_bits / double(std::max<uint64_t>(1, t.stats.chance_actions)),
              t.stats.decision_bits / double(std::max<uint64_t>(1, t.stats.decision_actions)),
              bits > 0 ? 100.0 * t.stats.chance_bits / bits : 0.0, double(t.json_bytes) / actions,
              1e6 * t.encode_seconds / double(std::max<int64_t>(1, t.games)),
              1e6 * t.decode_seconds / double(std::max<int64_t>(1, t.games)));
}

cli::Flags MakeFlags() {
  cli::Flags flags("", "[flags]",
                   "Plays seeded games of bots, encodes each game's actions with the replay codec, checks that\n"
                   "they decode back, and prints per ruleset: games, actions (chance outcomes included), total\n"
                   "bytes, bytes per action, median bytes per game, bits per chance outcome and per decision,\n"
                   "the share of bits spent on chance, and for comparison the JSON record (engine/game.h) in\n"
                   "bytes per action. Game i has its board and seeds from S+i.");
  flags.set_program("replay_codec_measure");
  flags.Add({.name = "games", .value_name = "N", .help = "games per ruleset (default 500)"});
  flags.Add(
      {.name = "bots",
       .value_name = "BOT[,BOT...]",
       .help = "one bot for every seat, or one per seat: random, greedy, heuristic, search:... (default heuristic)"});
  flags.Add({.name = "seats", .value_name = "3|4", .help = "number of seats (default 4)"});
  flags.Add({.name = "seed", .value_name = "S", .help = "first game's seed (default 1)"});
  flags.Add({.name = "rulesets", .value_name = "R[,R]", .help = "cities_and_knights and/or base (default both)"});
  return flags;
}

bool ReadSettings(const cli::Flags& flags, Settings* s, std::string* error) {
  int64_t v;
  if (flags.Has("games") && !flags.GetInt("games", 1, 100000000, &s->games, error)) return false;
  if (flags.Has("seats")) {
    if (!flags.GetInt("seats", kMinSeats, kMaxSeats, &v, error)) return false;
    s->seats = int(v);
  }
  if (flags.Has("seed") && !flags.GetUint64("seed", &s->seed, error)) return false;
  // "search:ms=50,threads=2" contains a comma: a piece with '=' but no ':'
  // continues the previous spec (as the arena reads its --opponents).
  for (const std::string& piece : cli::SplitCommas(flags.Get("bots", "heuristic"))) {
    if (!s->bots.empty() && piece.find('=') != std::string::npos && piece.find(':') == std::string::npos) {
      s->bots.back() += "," + piece;
    } else {
      s->bots.push_back(piece);
    }
  }
  if (s->bots.size() == 1) s->bots.assign(size_t(s->seats), s->bots[0]);
  if (int(s->bots.size()) != s->seats) {
    *error = "--bots names " + std::to_string(s->bots.size()) + " bots for " + std::to_string(s->seats) + " seats";
    return false;
  }
  for (const std::string& spec : s->bots)
    if (!bots::MakeBot(spec, error)) {
      *error = "--bots: " + *error;
      return false;
    }
  if (flags.Has("rulesets")) {
    s->rulesets.clear();
    for (const std::string& name : cli::SplitCommas(flags.Get("rulesets"))) {
      RulesOptions o;
      if (std::string e = ParseOption("ruleset=" + name, &o); !e.empty()) {
        *error = "--rulesets: " + e;
        return false;
      }
      s->rulesets.push_back(o.ruleset);
    }
  }
  return true;
}

int Main(int argc, char** argv) {
  cli::Flags flags = MakeFlags();
  std::string error;
  if (!flags.Parse(std::vector<std::string>(argv + 1, argv + argc), &error)) {
    std::cerr << "replay_codec_measure: " << error << "\n\n" << flags.Usage();
    return 2;
  }
  if (flags.Help()) {
    std::cout << flags.Usage();
    return 0;
  }
  Settings s;
  if (!ReadSettings(flags, &s, &error)) {
    std::cerr << "replay_codec_measure: " << error << "\n";
    return 2;
  }
  std::printf("%-18s %6s %10s %8s %10s %9s %9s %8s %8s %8s %8s %7s %7s\n", "ruleset", "games", "actions", "chance",
              "bytes", "B/action", "B/game", "bits/ch", "bits/dec", "ch.bits", "json", "enc.us", "dec.us");
  for (Ruleset ruleset : s.rulesets) {
    Totals t;
    if (!Measure(s, ruleset, &t, &error)) {
      std::cerr << "replay_codec_measure: " << error << "\n";
      return 1;
    }
    PrintRow(ruleset == Ruleset::kBase ? "base" : "cities_and_knights", t);
    if (t.stats.parameterised_actions > 0 || t.capped > 0)
      std::printf("  (%llu trade offers or counters, %lld games at the length cap)\n",
                  (unsigned long long)t.stats.parameterised_actions, (long long)t.capped);
  }
  std::printf(
      "chance = share of actions that are chance outcomes; B/game = median; bits/ch and bits/dec = ideal bits per\n"
      "chance outcome and per seat decision; ch.bits = share of all bits spent on chance; json = the JSON record\n"
      "(engine/game.h) in bytes per action, for comparison (the stable codes are 8); enc.us/dec.us = CPU\n"
      "microseconds per game (both replay the game with the engine).\n");
  return 0;
}

}  // namespace
}  // namespace metropolis::replays

int main(int argc, char** argv) { return metropolis::replays::Main(argc, argv); }
