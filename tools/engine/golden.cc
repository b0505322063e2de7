// golden: one seeded game written out step by step as plain text, for the
// golden playthroughs (engine/tests/testdata/golden, docs/VERIFICATION.md).
//
// The output is a pure function of the flags and the rules: no timings, no
// thread counts, no addresses. Any change of the rules that touches one of
// these games changes the text, and the change is reviewed as a diff.
//
// Without --trades, `golden --seed S` plays the same game as game 0 of
// `sim --seed S` with the same players, seats and options: the chance stream
// and each seat's bot stream are seeded the same way (rng.h), and each bot sees
// its view with its seat's knowledge, as there.

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "bots/bot.h"
#include "engine/notation.h"
#include "engine/progress.h"
#include "engine/view.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"
#include "tools/engine/rng.h"

namespace metropolis::cli {
namespace {

// Chance nodes with at most this many outcomes list them all; larger ones
// (the dice) are summarised by their distinct probabilities.
constexpr size_t kListedOutcomes = 16;
// A random player with --trades makes an offer with probability 1/kOfferOdds
// whenever it may make one.
constexpr uint32_t kOfferOdds = 4;
// Beyond the engine's own cap (max_actions), in case a bug keeps a game from
// ending: the command must always terminate.
constexpr uint64_t kSafetyMargin = 1000;

Flags MakeFlags() {
  Flags flags("golden", "--seed S [flags]",
              "Plays one seeded game and prints it step by step: at each step the position, what\n"
              "each seat sees, the legal actions of whoever acts (or the chance outcomes), the\n"
              "action chosen and its events as the public and each seat see them. The output\n"
              "depends only on the flags and the rules; scripts/regen-golden.sh writes the golden\n"
              "playthroughs with it (docs/VERIFICATION.md).");
  flags.Add({.name = "seed", .value_name = "S", .help = "seeds chance and the players, as game 0 of `sim --seed S`"});
  flags.Add(
      {.name = "players",
       .value_name = "P,P,P[,P]",
       .help = "bot per seat: random, greedy, heuristic, search[:iterations=200,...] (default: random in every seat)"});
  flags.Add({.name = "seats", .value_name = "3|4", .help = "number of seats (default: 4, or the length of --players)"});
  flags.Add({.name = "random-board", .value_name = "", .help = "play on RandomBoard(S), not the default board"});
  AddOptionFlags(&flags);
  AddMaxActionsFlag(&flags);
  flags.Add({.name = "trades",
             .value_name = "",
             .help = "random players sometimes make a random offer they may make (seeded)"});
  return flags;
}

std::string Cards(const CardCounts& c) {
  std::string s;
  for (int t = 0; t < kNumCardTypes; ++t)
    if (c[t] > 0) s += std::to_string(c[t]) + CardLetter(t);
  return s.empty() ? "-" : s;
}

std::string ProgressList(const ProgressCounts& p) {
  std::string s;
  for (int k = 0; k < kNumProgressKinds; ++k)
    for (int i = 0; i < p[k]; ++i) s += (s.empty() ? "" : ",") + std::string(ProgressCardName(k));
  return s;
}

ProgressCounts ProgressHand(const PlayerState& p) {
  ProgressCounts counts{};
  for (int i = 0; i < p.num_progress; ++i) ++counts[p.progress[i]];
  return counts;
}

// What a viewer knows of the other seats' hidden cards: " 1:2b1o 3:spy".
// With `base` given, only the seats where it knows more than `base` does.
std::string Knowledge(const View& v, const View* base = nullptr) {
  std::string s;
  for (int p = 0; p < v.state.num_seats(); ++p) {
    if (!v.Hidden(p)) continue;
    if (base && v.known_hand[p] == base->known_hand[p] && v.known_progress[p] == base->known_progress[p]) continue;
    const bool cards = v.known_hand[p].Total() > 0;
    const std::string progress = ProgressList(v.known_progress[p]);
    if (!base && !cards && progress.empty()) continue;
    s += " " + std::to_string(p) + ":";
    if (cards || progress.empty()) s += Cards(v.known_hand[p]);
    if (!progress.empty()) s += (cards ? "+" : "") + progress;
  }
  return s;
}

// A deck as a viewer sees it: the never-seen cards it can name (the whole
// multiset for a seat looking through it, else only the VP cards) and the
// returned queue from the bottom up, '?' for a card it may not see.
std::string DeckText(const State& s, int track) {
  const ProgressDeck& d = s.deck(track);
  std::string out = std::string(1, TrackName(track)[0]) + std::to_string(d.Size());
  std::string unseen;
  for (int k = 0; k < TrackNumKinds(track); ++k)
    for (int i = 0; i < d.unseen[k]; ++i)
      unseen += (unseen.empty() ? "" : ",") + std::string(ProgressCardName(TrackFirstCard(track) + k));
  if (!unseen.empty()) out += "[" + unseen + "]";
  if (d.size > 0) {
    out += "/";
    for (int i = 0; i < d.size; ++i) {
      const int card = d.returned[(d.head + i) % ProgressDeck::kCapacity];
      out += (i ? "," : "") + (card == kHiddenCard ? std::string("?") : std::string(ProgressCardName(card)));
    }
  }
  return out;
}

// The public view, all on one line.
std::string PublicLine(const View& v) {
  const State& s = v.state;
  const int n = s.num_seats();
  const bool base = s.options().ruleset == Ruleset::kBase;
  std::string out = "public: hands";
  for (int p = 0; p < n; ++p) out += " " + std::to_string(v.hand_total[p]);
  // The base game (BG-9): development cards in hand by number, the deck's size.
  out += base ? "; development cards" : "; progress";
  for (int p = 0; p < n; ++p) out += " " + std::to_string(base ? v.dev_count[p] : v.progress_count[p]);
  if (s.options().bank_limited) {
    std::string empty;
    for (int c = 0; c < (base ? kNumResources : kNumCardTypes); ++c)  // BG-1: no commodities
      if (s.bank()[c] == 0) empty += CardLetter(c);
    if (!empty.empty()) out += "; bank out of " + empty;
  }
  if (base) {
    out += "; development deck " + std::to_string(v.dev_deck_size);
  } else {
    out += "; decks";
    for (int t = 0; t < kNumTracks; ++t) out += " " + DeckText(s, t);
  }
  std::string known = Knowledge(v);
  out += "; known" + (known.empty() ? std::string(" -") : known);
  return out;
}

// A seat's view where it differs from the public one: its own cards, what it
// knows of the others' beyond what the public knows, and the decks it sees
// more of.
std::string SeatLine(const View& v, const View& pub) {
  const State& s = v.state;
  const PlayerState& me = s.player(v.viewer);
  std::string out = "seat " + std::to_string(v.viewer) + ": hand " + Cards(me.hand);
  std::string progress = ProgressList(ProgressHand(me));
  if (!progress.empty()) out += "; progress " + progress;
  if (me.DevTotal() > 0) {  // BG-9: its own development cards, VP cards included
    std::string dev;
    for (int k = 0; k < kNumDevKinds; ++k)
      if (me.dev[k] > 0) dev += std::to_string(me.dev[k]) + DevCardLetter(k);
    out += "; development cards " + dev;
  }
  if (std::string more = Knowledge(v, &pub); !more.empty()) out += "; knows" + more;
  for (int t = 0; t < kNumTracks; ++t)
    if (!(s.deck(t) == pub.state.deck(t))) out += "; sees deck " + DeckText(s, t);
  return out;
}

// Consecutive actions that differ only in their last word share one line:
// "build_settlement n0 n1 n2", "move_robber h7 rob 1 2".
std::vector<std::string> GroupActions(const std::vector<std::string>& actions) {
  std::vector<std::string> lines;
  std::string head;
  for (const std::string& a : actions) {
    size_t space = a.rfind(' ');
    if (space == std::string::npos) {
      lines.push_back(a);
      head.clear();
      continue;
    }
    std::string h = a.substr(0, space);
    if (!lines.empty() && h == head) {
      lines.back() += a.substr(space);
    } else {
      lines.push_back(a);
      head = h;
    }
  }
  return lines;
}

std::string Probability(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", p);
  return buffer;
}

void PrintNext(const State& state, std::ostream& out) {
  const int player = state.CurrentPlayer();
  if (player == kChancePlayer) {
    std::vector<ChanceOutcome> outcomes = state.ChanceOutcomes();
    out << "chance: " << outcomes.size() << " outcome" << (outcomes.size() == 1 ? "" : "s") << "\n";
    if (outcomes.size() <= kListedOutcomes) {
      for (const ChanceOutcome& o : outcomes)
        out << "  " << ActionToString(o.action) << "  " << Probability(o.probability) << "\n";
      return;
    }
    // Distinct probabilities in order of first appearance, with their counts.
    std::vector<std::pair<double, int>> groups;
    double sum = 0;
    for (const ChanceOutcome& o : outcomes) {
      sum += o.probability;
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == o.probability; });
      if (it == groups.end())
        groups.push_back({o.probability, 1});
      else
        ++it->second;
    }
    out << "  " << ActionToString(outcomes.front().action) << " .. " << ActionToString(outcomes.back().action) << ";";
    for (size_t i = 0; i < groups.size(); ++i)
      out << (i ? ", " : " ") << groups[i].second << " at " << Probability(groups[i].first);
    out << "; sum " << Probability(sum) << "\n";
    return;
  }
  std::vector<std::string> legal;
  for (const Action& a : state.LegalActions()) legal.push_back(ActionToString(a));
  out << "legal: " << legal.size() << " action" << (legal.size() == 1 ? "" : "s") << "\n";
  for (const std::string& line : GroupActions(legal)) out << "  " << line << "\n";
}

// A random legal offer of the current player, when one is due: a few cards of
// a type it holds for a few of another type, to a random set of opponents.
bool RandomOffer(const State& state, Rng& rng, Action* offer) {
  const int seat = state.current_seat();
  if (state.CurrentPlayer() != seat || state.phase() != Phase::kAction || state.pending_size() > 0) return false;
  if (state.offers_this_turn() >= state.options().max_trade_offers_per_turn) return false;
  if (rng.Below(kOfferOdds) != 0) return false;
  const CardCounts& hand = state.player(seat).hand;
  std::vector<int> held;
  for (int c = 0; c < kNumCardTypes; ++c)
    if (hand[c] > 0) held.push_back(c);
  if (held.empty()) return false;
  const int give_type = held[rng.Below(uint32_t(held.size()))];
  int want_type = int(rng.Below(kNumCardTypes - 1));
  if (want_type >= give_type) ++want_type;
  CardCounts give, want;
  give[give_type] = uint8_t(1 + rng.Below(std::min<uint32_t>(2, hand[give_type])));
  want[want_type] = uint8_t(1 + rng.Below(2));
  const uint32_t opponents = ((1u << state.num_seats()) - 1) & ~(1u << seat);
  uint32_t addressees = 0;
  while (addressees == 0) addressees = uint32_t(rng.Below(1u << state.num_seats())) & opponents;
  *offer = Action::TradeOffer(give, want, int(addressees));
  return state.CheckAction(*offer).empty();
}

struct Settings {
  uint64_t seed = 0;
  int seats = 4;
  std::vector<std::string> players;
  bool random_board = false;
  bool trades = false;
  RulesOptions options;
};

bool ReadSettings(const Flags& flags, Settings* s, std::string* error) {
  if (!flags.Has("seed")) {
    *error = "--seed is required";
    return false;
  }
  if (!flags.GetUint64("seed", &s->seed, error)) return false;
  int64_t v;
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
  if (s->players.empty()) s->players.assign(size_t(s->seats), "random");
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
  s->trades = flags.Has("trades");
  if (!ReadOptionFlags(flags, &s->options, error)) return false;
  if (!ReadMaxActionsFlag(flags, &s->options, error)) return false;
  return true;
}

}  // namespace

int RunGolden(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  std::string error;
  Settings s;
  if (!ReadSettings(flags, &s, &error)) return UsageError(flags, error);

  GameConfig config;
  config.num_seats = s.seats;
  config.board = s.random_board ? RandomBoard(s.seed) : DefaultBoard();
  config.options = s.options;
  if (std::string e = ValidateConfig(config); !e.empty()) return UsageError(flags, "configuration: " + e);
  State state(config);
  if (!NewGame(config, &state, &error)) return Fail(flags, error, kExitRefused);

  std::vector<std::unique_ptr<bots::Bot>> players;
  std::vector<uint64_t> player_streams;
  std::vector<Rng> offer_rngs;
  for (int seat = 0; seat < s.seats; ++seat) {
    players.push_back(bots::MakeBot(s.players[size_t(seat)], &error));  // checked when the flags were read
    player_streams.push_back(GamePlayerSeed(s.seed, 0, seat));
    offer_rngs.emplace_back(SplitMixHash(GamePlayerSeed(s.seed, 0, seat) ^ 0x6F66666572ull));
  }
  Rng chance(GameChanceSeed(s.seed, 0));

  // Knowledge of the spectator (index 0) and of each seat (index seat + 1).
  std::vector<KnowledgeTracker> trackers;
  trackers.emplace_back(kNoSeat);
  for (int seat = 0; seat < s.seats; ++seat) trackers.emplace_back(seat);
  for (KnowledgeTracker& t : trackers) t.Reset(state);

  std::ostringstream out;
  out << "# golden playthrough: metropolis-engine golden";
  for (const std::string& a : args) out << " " << a;
  out << "\n"
         "# Generated by scripts/regen-golden.sh; a change here is a change of the rules: review it.\n"
         "# Block N is the position after N actions (as `replay --step N`): its notation ('[head]'\n"
         "# stands for the head line of block 0), the public view and each seat's view (a view line\n"
         "# only when it changed; 'knows' is what a seat knows of others' hidden cards beyond the\n"
         "# public), the legal actions or chance outcomes, the action chosen (action N+1) and its\n"
         "# events as the public sees them, with 'seat K sees' where seat K sees more.\n"
         "# Cards: b l w g o (resources) c m p (cloth coin paper).\n"
         "players:";
  for (int seat = 0; seat < s.seats; ++seat) out << " " << s.players[size_t(seat)];
  out << (s.trades ? " (random players offer trades)" : "") << "\n";

  std::vector<std::string> last_views(size_t(s.seats) + 1);
  std::vector<Event> events;
  const uint64_t hard_cap = uint64_t(s.options.max_actions) + kSafetyMargin;
  uint64_t step = 0;
  std::string head;
  while (true) {
    const int player = state.CurrentPlayer();
    out << "\n== " << step << " == " << DescribePlayer(player);
    if (player >= 0) out << " (" << s.players[size_t(player)] << ")";
    out << "\n";
    // The fields that never change (rules, seats, options, board) are
    // written once as the head; a position that starts with it shows
    // "[head]" instead (an Inventor's swap changes the board, and then the
    // whole line is written).
    std::string position = ToNotation(state);
    if (step == 0) {
      size_t phase = position.find(" phase=");
      if (phase != std::string::npos) head = position.substr(0, phase);
      out << "head: " << head << "\n";
    }
    if (!head.empty() && position.compare(0, head.size() + 1, head + " ") == 0)
      position = "[head]" + position.substr(head.size());
    out << "position: " << position << "\n";
    const View pub = MakeView(state, kNoSeat, &trackers[0]);
    for (int v = 0; v <= s.seats; ++v) {
      std::string line = v == 0 ? PublicLine(pub) : SeatLine(MakeView(state, v - 1, &trackers[size_t(v)]), pub);
      if (line == last_views[size_t(v)]) continue;
      out << line << "\n";
      last_views[size_t(v)] = std::move(line);
    }
    if (state.IsTerminal() || player == kTerminalPlayer) {
      out << DescribeNext(state);
      break;
    }
    if (step >= hard_cap) {
      std::cout << out.str();
      return Fail(flags, "the game did not end within max_actions + " + std::to_string(kSafetyMargin), kExitEngineBug);
    }
    PrintNext(state, out);

    Action action;
    if (player == kChancePlayer) {
      action = state.SampleChance(chance.Uniform());
    } else if (!(s.trades && s.players[size_t(player)] == "random" &&
                 RandomOffer(state, offer_rngs[size_t(player)], &action))) {
      action = players[size_t(player)]->Choose(MakeView(state, player, &trackers[size_t(player) + 1]),
                                               &player_streams[size_t(player)]);
    }
    out << "chosen: " << ActionToString(action) << "\n";
    events.clear();
    if (std::string e = state.Apply(action, &events); !e.empty()) {
      std::cout << out.str();
      return Fail(flags, "step " + std::to_string(step + 1) + " '" + ActionToString(action) + "': " + e,
                  kExitEngineBug);
    }
    if (std::string e = state.Validate(); !e.empty()) {
      std::cout << out.str();
      return Fail(flags, "after step " + std::to_string(step + 1) + ": " + e, kExitEngineBug);
    }
    // Each event's text in the context of its step, as the public and each seat see them.
    std::vector<std::vector<std::string>> step_texts;
    for (int viewer = kNoSeat; viewer < s.seats; ++viewer) {
      std::vector<Event> masked;
      for (const Event& e : events) masked.push_back(MaskEvent(e, viewer));
      step_texts.push_back(StepEventTexts(masked));
    }
    for (size_t k = 0; k < events.size(); ++k) {
      const Event& e = events[k];
      const std::string& pub_text = step_texts[0][k];
      // The action itself was printed as chosen; repeat it only when the
      // public sees less of it (a steal, a draw, a card handed over).
      if (e.type != EventType::kAction || pub_text != EventToString(e)) out << "  " << pub_text << "\n";
      // Seats that see the same more, on one line: "seats 1,2 see: ...".
      std::vector<std::pair<std::string, std::string>> seen;  // text, seats
      for (int seat = 0; seat < s.seats; ++seat) {
        const std::string& text = step_texts[size_t(seat) + 1][k];
        if (text == pub_text) continue;
        auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& x) { return x.first == text; });
        if (it == seen.end())
          seen.push_back({text, std::to_string(seat)});
        else
          it->second += "," + std::to_string(seat);
      }
      for (const auto& [text, seats] : seen)
        out << "    seat" << (seats.size() > 1 ? "s " + seats + " see: " : " " + seats + " sees: ") << text << "\n";
      trackers[0].Observe(MaskEvent(e, kNoSeat));
      for (int seat = 0; seat < s.seats; ++seat) trackers[size_t(seat) + 1].Observe(MaskEvent(e, seat));
    }
    ++step;
  }
  std::cout << out.str();
  return kExitOk;
}

}  // namespace metropolis::cli
