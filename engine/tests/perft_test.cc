// Verification by numbers: the engine's fast legal-action generator against the
// slow reference of reference_legal.h, on random positions and by perft counts
// from the fixed positions of testdata/perft.txt.
//
// Regenerating testdata/perft.txt (only when the rules are meant to change):
//   METROPOLIS_REGEN_PERFT=1 build/debug/engine/tests/engine_tests --gtest_filter='Perft.FixedPositions'
// or scripts/regen-perft.sh. The counts are recomputed with the reference
// generator, never with the engine's, and the file is rewritten in place; the
// positions themselves are kept.
#include "engine/perft.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/notation.h"
#include "engine/notation_internal.h"
#include "engine/progress.h"
#include "engine/splitmix.h"
#include "engine/state.h"
#include "engine/state_editor.h"
#include "engine/tests/effect_watch.h"
#include "engine/tests/reference_legal.h"

namespace metropolis {
namespace {

struct Rng {
  uint64_t state;
  uint64_t Next() { return SplitMixNext(&state); }
  int Below(int n) { return int(Next() % uint64_t(n)); }
  double Unit() { return double(Next() >> 11) * 0x1.0p-53; }
  bool Chance(double p) { return Unit() < p; }
};

// A game as configuration plus actions: reproducible even where the notation
// cannot carry something.
struct Setup {
  int seats = 4;
  std::string options;  // OptionsToString's form, "name=value" separated by spaces
};

GameConfig MakeConfig(const Setup& setup) {
  GameConfig config;
  config.num_seats = setup.seats;
  config.board = DefaultBoard();
  std::istringstream in(setup.options);
  std::string token;
  while (in >> token) {
    const std::string error = ParseOption(token, &config.options);
    EXPECT_EQ(error, "") << token;
  }
  return config;
}

std::string ActionsText(const std::vector<Action>& actions) {
  std::string out;
  for (const Action& a : actions) {
    if (!out.empty()) out += "; ";
    out += ActionToString(a);
  }
  return out;
}

// Collects disagreements between the two generators, grouped so that one bug
// found in a thousand positions is reported a few times, not a thousand.
class Comparison {
 public:
  void Check(const State& s, const Setup& setup, const std::vector<Action>& history) {
    ++positions_;
    const int ref_player = reference::CurrentPlayer(s);
    if (s.CurrentPlayer() != ref_player) {
      Report("current player", s, setup, history,
             "engine " + std::to_string(s.CurrentPlayer()) + ", reference " + std::to_string(ref_player));
      return;
    }
    if (s.IsChanceNode()) {
      CheckChance(s, setup, history);
      return;
    }
    CheckKnightFlags(s, setup, history);
    const std::vector<Action> fast = s.LegalActions();
    const std::vector<Action> slow = reference::LegalActions(s);
    ++decision_coverage_[s.pending_size() > 0 ? PendingName(s.pending(s.pending_size() - 1).kind)
                                              : "phase " + std::to_string(int(s.phase()))];
    for (const Action& a : slow) {
      ++listed_coverage_[std::string(ActionTypeName(a.type))];
      if (a.type == ActionType::kPlayProgress) ++listed_coverage_[std::string(ProgressCardName(a.a))];
    }
    if (fast == slow) return;
    std::set<uint64_t> fast_codes, slow_codes;
    for (const Action& a : fast) fast_codes.insert(Encode(a));
    for (const Action& a : slow) slow_codes.insert(Encode(a));
    // One group per action type and side, so that each kind of disagreement is seen.
    std::map<std::string, std::string> groups;
    for (const Action& a : fast) {
      if (slow_codes.count(Encode(a))) continue;
      groups["engine only: " + std::string(ActionTypeName(a.type))] += "  + " + ActionToString(a) + "\n";
    }
    for (const Action& a : slow) {
      if (fast_codes.count(Encode(a))) continue;
      groups["reference only: " + std::string(ActionTypeName(a.type))] +=
          "  - " + ActionToString(a) + "   (engine: " + s.CheckAction(a) + ")\n";
    }
    if (groups.empty()) {
      Report("order", s, setup, history, "same actions, different order or duplicates");
      return;
    }
    for (const auto& [key, diff] : groups) Report(key, s, setup, history, diff);
  }

  // The reference trusts the per-turn knight flags, so they are checked against KN-5/KN-6 from
  // what the random game saw: at the first position of an action phase exactly the current
  // player's active knights are ready, and other players' knights never carry per-turn flags.
  void CheckKnightFlags(const State& s, const Setup& setup, const std::vector<Action>& history) {
    const bool first_of_phase =
        s.phase() == Phase::kAction && s.pending_size() == 0 && s.turn_number() != action_phase_turn_;
    if (first_of_phase) action_phase_turn_ = s.turn_number();
    std::string wrong;
    for (int v = 0; v < kNumNodes; ++v) {
      if (s.knight_level(v) == 0) continue;
      const uint8_t f = s.knight_flags(v);
      const bool current = s.knight_owner(v) == s.current_seat();
      if (!current && (f & (kKnightReady | kKnightPromoted)))
        wrong += "  n" + std::to_string(v) + ": another player's knight has per-turn flags\n";
      if (current && first_of_phase && bool(f & kKnightReady) != bool(f & kKnightActive))
        wrong += "  n" + std::to_string(v) + ": ready != active when the action phase starts\n";
    }
    if (!wrong.empty()) Report("knight flags (KN-6)", s, setup, history, wrong);
  }

  void CheckChance(const State& s, const Setup& setup, const std::vector<Action>& history) {
    ++chance_positions_;
    const std::vector<ChanceOutcome> fast = s.ChanceOutcomes();
    const std::vector<ChanceOutcome> slow = reference::ChanceOutcomes(s);
    bool same = fast.size() == slow.size();
    for (size_t i = 0; same && i < fast.size(); ++i)
      same = fast[i].action == slow[i].action && std::abs(fast[i].probability - slow[i].probability) < 1e-12;
    if (!same) {
      std::string diff = "engine:";
      for (const auto& o : fast) diff += " " + ActionToString(o.action) + "@" + std::to_string(o.probability);
      diff += "\nreference:";
      for (const auto& o : slow) diff += " " + ActionToString(o.action) + "@" + std::to_string(o.probability);
      Report("chance outcomes", s, setup, history, diff + "\n");
    }
    // SampleChance must draw from the same distribution. Its map from u to outcomes is its own
    // business, so it is measured on an even grid of u: each outcome's share of the grid is within
    // one grid step of its probability whatever the order of the intervals.
    if (chance_positions_ % 16 != 1 || !same) return;
    constexpr int kGrid = 6 * 6 * 6 * 4 * 5;
    std::map<uint64_t, int> hits;
    for (int k = 0; k < kGrid; ++k) ++hits[Encode(s.SampleChance((k + 0.5) / kGrid))];
    std::string diff;
    for (const ChanceOutcome& o : slow) {
      const double share = double(hits[Encode(o.action)]) / kGrid;
      if (std::abs(share - o.probability) > 1.0 / kGrid + 1e-12)
        diff += "  " + ActionToString(o.action) + ": p=" + std::to_string(o.probability) + ", sampled " +
                std::to_string(share) + "\n";
      hits.erase(Encode(o.action));
    }
    for (const auto& [code, n] : hits) diff += "  not an outcome: " + ActionToString(*Decode(code)) + "\n";
    if (!diff.empty()) Report("SampleChance distribution", s, setup, history, diff);
  }

  // What the random games reached: pending decisions on top, and how often each action type was listed.
  std::string Coverage() const {
    std::string out = "decisions:";
    for (const auto& [key, n] : decision_coverage_) out += " " + key + "=" + std::to_string(n);
    out += "\nlisted:";
    for (const auto& [key, n] : listed_coverage_) out += " " + key + "=" + std::to_string(n);
    return out + "\n";
  }
  int positions() const { return positions_; }
  int chance_positions() const { return chance_positions_; }
  const std::map<std::string, int>& counts() const { return counts_; }
  std::string Summary() const {
    std::string out = std::to_string(positions_) + " positions checked, " + std::to_string(chance_positions_) +
                      " of them chance nodes\n";
    for (const auto& [key, n] : counts_) out += key + ": " + std::to_string(n) + " positions\n";
    return out + text_;
  }

  // Names the random game in the reports, so that it can be replayed alone.
  void StartGame(const std::string& label) {
    game_ = label;
    action_phase_turn_ = -1;
  }

  void Failure(const std::string& key, const State& s, const Setup& setup, const std::vector<Action>& history,
               const std::string& detail) {
    Report(key, s, setup, history, detail + "\n");
  }

 private:
  void Report(const std::string& key, const State& s, const Setup& setup, const std::vector<Action>& history,
              const std::string& detail) {
    if (++counts_[key] > 2) return;
    text_ += "=== " + key + "\ngame: " + game_ + "\nposition: " + ToNotation(s) +
             "\nreplay: seats=" + std::to_string(setup.seats) + " options='" + setup.options +
             "' actions: " + ActionsText(history) + "\n" + detail + "\n";
  }

  static std::string PendingName(PendingKind k) {
    // The notation's names, so that reports read like positions.
    const auto& names = notation_internal::kPendingNames;
    return size_t(k) < std::size(names) ? std::string(names[size_t(k)]) : "pending " + std::to_string(int(k));
  }

  int positions_ = 0, chance_positions_ = 0;
  std::map<std::string, int> decision_coverage_, listed_coverage_;
  std::string game_;
  int action_phase_turn_ = -1;
  std::map<std::string, int> counts_;
  std::string text_;
};

// A random trade offer from the current player: one card he holds for one he
// lacks, to a random non-empty set of opponents. Offers are never listed, so
// random play would otherwise never reach the answer and close decisions.
bool TryOffer(State* s, Rng* rng, std::vector<Action>* history) {
  const int p = s->current_seat();
  const CardCounts& hand = s->player(p).hand;
  std::vector<int> have;
  for (int c = 0; c < kNumCardTypes; ++c)
    if (hand[c] > 0) have.push_back(c);
  if (have.empty()) return false;
  const int give_card = have[rng->Below(int(have.size()))];
  int want_card = rng->Below(kNumCardTypes);
  if (want_card == give_card) want_card = (want_card + 1) % kNumCardTypes;
  CardCounts give, want;
  give[give_card] = 1;
  want[want_card] = 1;
  int mask = 0;
  while (mask == 0)
    for (int q = 0; q < s->num_seats(); ++q)
      if (q != p && rng->Chance(0.6)) mask |= 1 << q;
  const Action offer = Action::TradeOffer(give, want, mask);
  if (!s->Apply(offer).empty()) return false;
  history->push_back(offer);
  return true;
}

bool TryCounter(State* s, Rng* rng, std::vector<Action>* history) {
  const int q = s->CurrentPlayer();
  const CardCounts& hand = s->player(q).hand;
  std::vector<int> have;
  for (int c = 0; c < kNumCardTypes; ++c)
    if (hand[c] > 0) have.push_back(c);
  if (have.empty()) return false;
  CardCounts give, want;
  const int give_card = have[rng->Below(int(have.size()))];
  give[give_card] = 1;
  want[(give_card + 1 + rng->Below(kNumCardTypes - 1)) % kNumCardTypes] = 1;
  const Action counter = Action::TradeCounter(give, want);
  if (!s->Apply(counter).empty()) return false;
  history->push_back(counter);
  return true;
}

// Random play that still gets somewhere: ending the turn is chosen less often
// than building, and an action type is picked before the action, so that
// forty bank trades do not drown one city.
Action PickAction(const std::vector<Action>& legal, Rng* rng) {
  std::map<ActionType, std::vector<Action>> by_type;
  for (const Action& a : legal) by_type[a.type].push_back(a);
  if (by_type.size() > 1 && by_type.count(ActionType::kEndTurn) && !rng->Chance(0.3))
    by_type.erase(ActionType::kEndTurn);
  if (by_type.size() > 1 && by_type.count(ActionType::kBankTrade) && !rng->Chance(0.3))
    by_type.erase(ActionType::kBankTrade);
  auto it = by_type.begin();
  std::advance(it, rng->Below(int(by_type.size())));
  return it->second[rng->Below(int(it->second.size()))];
}

// Moves a few random non-VP cards from the decks' unseen parts into every
// hand, as if drawn, so that random games play cards from the first turn on
// instead of waiting for city gates and improvement levels.
void DealProgressCards(State* s, Rng* rng) {
  StateEditor e(s);
  for (int seat = 0; seat < s->num_seats(); ++seat) {
    PlayerState& ps = e.player(seat);
    const int n = 2 + rng->Below(3);  // at most 4: the limit outside one's own turn (PC-4)
    for (int k = 0; k < n; ++k) {
      const int track = rng->Below(kNumTracks);
      ProgressDeck& d = e.deck(track);
      if (d.unseen_total == 0) continue;
      int u = rng->Below(d.unseen_total), i = 0;
      while (u >= d.unseen[i]) u -= d.unseen[i++];
      const int card = TrackFirstCard(track) + i;
      if (IsVictoryPointCard(card) || ps.num_progress >= 4) continue;
      --d.unseen[i];
      --d.unseen_total;
      ps.progress[ps.num_progress++] = uint8_t(card);
      std::sort(ps.progress.begin(), ps.progress.begin() + ps.num_progress);
    }
  }
  e.RecomputeDerived();
}

// The base game's counterpart (BG-4): a few random cards of the development
// deck into every hand, as if bought on an earlier turn.
void DealDevCards(State* s, Rng* rng) {
  StateEditor e(s);
  for (int seat = 0; seat < s->num_seats(); ++seat) {
    const int n = 1 + rng->Below(3);
    for (int k = 0; k < n; ++k) {
      int total = 0;
      for (uint8_t c : e.dev_deck()) total += c;
      if (total == 0) break;
      int u = rng->Below(total), i = 0;
      while (u >= e.dev_deck()[i]) u -= e.dev_deck()[i++];
      --e.dev_deck()[i];
      ++e.player(seat).dev[i];
    }
  }
  e.RecomputeDerived();
}

// Plays one random game, checking every position on the way. With `deal`, the
// hands get progress cards (development cards in the base game) when setup ends (the replay line then no longer
// reproduces the game; the position's notation does).
void PlayAndCompare(const Setup& setup, uint64_t seed, int max_actions, bool deal, Comparison* cmp) {
  const GameConfig config = MakeConfig(setup);
  State s(config);
  std::string error;
  ASSERT_TRUE(NewGame(config, &s, &error)) << error;
  Rng rng{seed};
  std::vector<Action> history;
  cmp->StartGame("seed " + std::to_string(seed) + ", options '" + setup.options + "'" +
                 (deal ? ", progress cards dealt after setup" : ""));
  effect_watch::SevenWatch seven;
  effect_watch::CardWatch cards;
  effect_watch::DevWatch dev;
  for (int step = 0; step < max_actions && !s.IsTerminal(); ++step) {
    if (deal && s.phase() == Phase::kBeforeRoll && s.turn_number() <= 1 && s.pending_size() == 0) {
      if (s.options().ruleset == Ruleset::kBase)
        DealDevCards(&s, &rng);
      else
        DealProgressCards(&s, &rng);
      deal = false;
      const std::string invalid = s.Validate();
      if (!invalid.empty()) cmp->Failure("Validate after dealing: " + invalid, s, setup, history, "");
    }
    const std::string card_effects = cards.Finish(s);
    if (!card_effects.empty()) cmp->Failure("card effect", s, setup, history, card_effects);
    const std::string discards = seven.Finish(s);
    if (!discards.empty()) cmp->Failure("SEV-2 discards", s, setup, history, discards);
    const std::string dev_effects = dev.Finish(s);
    if (!dev_effects.empty()) cmp->Failure("development card effect", s, setup, history, dev_effects);
    cmp->Check(s, setup, history);
    if (s.IsChanceNode()) {
      const Action a = s.SampleChance(rng.Unit());
      dev.BeforeAction(s, a);
      history.push_back(a);
      const std::string error = s.Apply(a);
      if (!error.empty()) {
        cmp->Failure("sampled outcome refused", s, setup, history, error);
        return;
      }
      seven.AfterChance(s, a);
      continue;
    }
    const int top = s.pending_size() > 0 ? int(s.pending(s.pending_size() - 1).kind) : -1;
    if (top < 0 && s.phase() == Phase::kAction && s.offers_this_turn() < s.options().max_trade_offers_per_turn &&
        rng.Chance(0.05) && TryOffer(&s, &rng, &history))
      continue;
    if (top == int(PendingKind::kTradeAnswer) && rng.Chance(0.25) && TryCounter(&s, &rng, &history)) continue;
    const std::vector<Action> legal = s.LegalActions();
    if (legal.empty()) {
      cmp->Failure("no legal actions", s, setup, history, "");
      return;
    }
    const Action a = PickAction(legal, &rng);
    seven.BeforeAction(s, s.CurrentPlayer(), a);
    cards.BeforeAction(s, s.CurrentPlayer(), a);
    dev.BeforeAction(s, a);
    history.push_back(a);
    const std::string error = s.Apply(a);
    if (!error.empty()) {
      cmp->Failure("listed action refused", s, setup, history, error);
      return;
    }
    const std::string invalid = s.Validate();
    if (!invalid.empty()) cmp->Failure("Validate: " + invalid, s, setup, history, "");
  }
}

const std::vector<Setup>& Variants() {
  static const std::vector<Setup> variants = {
      {4, ""},
      {4, "robber_locked_until_first_attack=false"},
      {4, "fiesepeter=true"},
      {4, "progress_hand_limit=STRICT_FOUR"},
      {4, "knight_path_through_opponents=true robber_locked_until_first_attack=false"},
      {4, "displace_requires_connection=false"},
      {4, "chase_robber_destination=ANY_OTHER_LAND_HEX robber_locked_until_first_attack=false"},
      {4, "bank_limited=false"},
      {3, ""},
      {3, "start_player=ROLL fiesepeter=true robber_locked_until_first_attack=false"},
      {4, "harbor3_commodity_output=RESOURCE_ONLY level4_city_rule=SINGLE_METROPOLIS_CITY_ONLY"},
      {4, "progress_hand_limit=PLAY_OR_DISCARD green_engineer_count=2"},
      // Options that change what the progress cards do or allow.
      {4, "saboteur=HALF_HAND_VP_GT"},
      {4, "saboteur=SABOTAGE_CITY robber_locked_until_first_attack=false"},
      {4, "deserter_placement=ANY_LEVEL_INACTIVE"},
      {4, "diplomat_scope=ALL_OPEN_ROADS"},
      {4, "progress_takes_resources_only=true robber_locked_until_first_attack=false"},
      {4, "merchant_adjacency=SETTLEMENT_ONLY"},
      {4, "crane_limit=ONE_PER_TURN"},
      {3, "defender_tie_reward=ANY_CARD_OF_CHOSEN_DECK"},
      {4, "progress_hand_limit=PLAY_OR_DISCARD robber_locked_until_first_attack=false"},
      // The base game (RULES.md 22), against reference_base.cc.
      {4, "ruleset=base"},
      {3, "ruleset=base start_player=ROLL"},
      {4, "ruleset=base bank_limited=false"},
      {4, "ruleset=base victory_points=14"},
  };
  return variants;
}

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

TEST(Perft, FastLegalActionsMatchReferenceOnRandomGames) {
  // METROPOLIS_PERFT_GAMES raises the number of games per variant for a long run.
  const int games = EnvInt("METROPOLIS_PERFT_GAMES", 20);
  const int max_actions = EnvInt("METROPOLIS_PERFT_MAX_ACTIONS", 500);
  Comparison cmp;
  for (size_t v = 0; v < Variants().size(); ++v) {
    for (int g = 0; g < games; ++g) {
      // Every other game starts with progress cards in hand, so that every variant plays cards.
      PlayAndCompare(Variants()[v], 1000 * v + g, max_actions, /*deal=*/g % 2 == 1, &cmp);
    }
  }
  std::cout << cmp.Coverage();
  EXPECT_TRUE(cmp.counts().empty()) << cmp.Summary();
  EXPECT_GT(cmp.positions(), 1000);
  EXPECT_GT(cmp.chance_positions(), 100);
}

// ---- Fixed positions --------------------------------------------------------

// One position of perft.txt: a game's setup and the actions that reach it,
// followed by its expected counts.
struct PerftLine {
  PerftOptions::Chance chance;
  uint64_t seed;
  int depth;
  uint64_t count;
};
struct FixedPosition {
  std::string name;
  std::string notation;  // either a position in notation,
  Setup setup;           // or a new game on the default board
  std::string actions;   // and the actions from it, ActionToString forms separated by ';'
  std::vector<PerftLine> lines;
};

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") + 1 - b);
}

std::string TestdataPath() { return std::string(METROPOLIS_TESTDATA_DIR) + "/perft.txt"; }

// The format is described at the top of perft.txt itself.
std::vector<FixedPosition> ReadPerftFile(std::string* header) {
  std::ifstream in(TestdataPath());
  EXPECT_TRUE(in.good()) << "cannot read " << TestdataPath();
  std::vector<FixedPosition> out;
  std::string line;
  bool in_header = true;
  while (std::getline(in, line)) {
    if (in_header && (line.empty() || line[0] == '#')) {
      *header += line + "\n";
      continue;
    }
    in_header = false;
    if (line.empty() || line[0] == '#') continue;
    const size_t sp = line.find(' ');
    const std::string key = line.substr(0, sp);
    const std::string rest = sp == std::string::npos ? "" : Trim(line.substr(sp + 1));
    if (key == "position") {
      out.push_back({rest, "", {}, "", {}});
    } else if (out.empty()) {
      ADD_FAILURE() << "perft.txt: '" << key << "' before the first position";
    } else if (key == "notation") {
      out.back().notation = rest;
    } else if (key == "seats") {
      out.back().setup.seats = std::stoi(rest);
    } else if (key == "options") {
      out.back().setup.options = rest;
    } else if (key == "actions") {
      out.back().actions = rest;
    } else if (key == "perft") {
      std::istringstream f(rest);
      std::string mode;
      PerftLine p{};
      f >> mode >> p.seed >> p.depth >> p.count;
      EXPECT_TRUE(mode == "expand" || mode == "fixed") << line;
      p.chance = mode == "fixed" ? PerftOptions::Chance::kFixed : PerftOptions::Chance::kExpand;
      out.back().lines.push_back(p);
    } else {
      ADD_FAILURE() << "perft.txt: unknown key '" << key << "'";
    }
  }
  return out;
}

void WritePerftFile(std::string header, const std::vector<FixedPosition>& positions) {
  while (header.size() >= 2 && header.ends_with("\n\n")) header.pop_back();
  std::ofstream out(TestdataPath());
  out << header;
  for (const FixedPosition& p : positions) {
    out << "\nposition " << p.name << "\n";
    if (!p.notation.empty()) out << "notation " << p.notation << "\n";
    if (p.notation.empty()) out << "seats " << p.setup.seats << "\n";
    if (!p.setup.options.empty()) out << "options " << p.setup.options << "\n";
    if (!p.actions.empty()) out << "actions " << p.actions << "\n";
    for (const PerftLine& l : p.lines)
      out << "perft " << (l.chance == PerftOptions::Chance::kFixed ? "fixed" : "expand") << " " << l.seed << " "
          << l.depth << " " << l.count << "\n";
  }
}

bool BuildPosition(const FixedPosition& p, State* s) {
  std::string error;
  if (!p.notation.empty()) {
    if (FromNotation(p.notation, s, &error)) return true;
    ADD_FAILURE() << p.name << ": " << error;
    return false;
  }
  const GameConfig config = MakeConfig(p.setup);
  *s = State(config);
  if (!NewGame(config, s, &error)) {
    ADD_FAILURE() << p.name << ": " << error;
    return false;
  }
  std::istringstream in(p.actions);
  std::string text;
  while (std::getline(in, text, ';')) {
    text = Trim(text);
    if (text.empty()) continue;
    const std::optional<Action> a = ParseAction(text, &error);
    if (!a) {
      ADD_FAILURE() << p.name << ": '" << text << "': " << error;
      return false;
    }
    error = s->Apply(*a);
    if (!error.empty()) {
      ADD_FAILURE() << p.name << ": '" << text << "': " << error;
      return false;
    }
  }
  return true;
}

TEST(Perft, FixedPositions) {
  std::string header;
  std::vector<FixedPosition> positions = ReadPerftFile(&header);
  ASSERT_FALSE(positions.empty());
  const bool regen = std::getenv("METROPOLIS_REGEN_PERFT") != nullptr;
  for (FixedPosition& p : positions) {
    State s(MakeConfig(p.setup));
    if (!BuildPosition(p, &s)) continue;
    for (PerftLine& l : p.lines) {
      const PerftOptions o{l.chance, l.seed};
      const uint64_t reference = Perft(s, l.depth, o, reference::Generator());
      if (regen) {
        l.count = reference;
        continue;
      }
      const uint64_t fast = Perft(s, l.depth, o);
      EXPECT_EQ(reference, l.count) << p.name << " depth " << l.depth << ": the reference generator changed";
      EXPECT_EQ(fast, l.count) << p.name << " depth " << l.depth << " (" << ToNotation(s) << ")";
      if (fast != reference) {
        // The first ply where the two disagree, to start the hunt from.
        const auto a = PerftDivide(s, l.depth, o);
        const auto b = PerftDivide(s, l.depth, o, reference::Generator());
        std::map<uint64_t, std::pair<uint64_t, uint64_t>> both;
        for (const auto& [act, n] : a) both[Encode(act)].first = n;
        for (const auto& [act, n] : b) both[Encode(act)].second = n;
        for (const auto& [code, n] : both)
          if (n.first != n.second)
            ADD_FAILURE() << p.name << ": " << ActionToString(*Decode(code)) << " engine " << n.first << ", reference "
                          << n.second;
      }
    }
  }
  if (regen) WritePerftFile(header, positions);
}

// ---- Perft itself -----------------------------------------------------------

TEST(Perft, DepthZeroIsOneAndDivideSumsToPerft) {
  const GameConfig config = MakeConfig({4, ""});
  State s(config);
  std::string error;
  ASSERT_TRUE(NewGame(config, &s, &error)) << error;
  EXPECT_EQ(Perft(s, 0, {}), 1u);
  EXPECT_TRUE(PerftDivide(s, 0, {}).empty());
  for (int depth = 1; depth <= 3; ++depth) {
    uint64_t sum = 0;
    for (const auto& [a, n] : PerftDivide(s, depth, {})) sum += n;
    EXPECT_EQ(sum, Perft(s, depth, {})) << "depth " << depth;
  }
  EXPECT_EQ(Perft(s, 1, {}), s.LegalActions().size());
}

TEST(Perft, FixedChanceIsNotAPly) {
  // From the first turn: the roll is a ply, the dice are not, so depth 1 is 1
  // (the roll) and depth 2 counts the actions after one sampled roll.
  const GameConfig config = MakeConfig({4, ""});
  State s(config);
  std::string error;
  ASSERT_TRUE(NewGame(config, &s, &error)) << error;
  Rng rng{7};
  while (s.phase() == Phase::kSetup) {
    const std::vector<Action> legal = s.LegalActions();
    ASSERT_EQ(s.Apply(legal[rng.Below(int(legal.size()))]), "");
  }
  ASSERT_EQ(s.LegalActions(), std::vector<Action>{Action::Roll()});
  const PerftOptions fixed{PerftOptions::Chance::kFixed, 3};
  EXPECT_EQ(Perft(s, 1, fixed), 1u);
  State after = s;
  after.ApplyUnchecked(Action::Roll());
  ASSERT_TRUE(after.IsChanceNode());
  while (after.IsChanceNode()) after.ApplyUnchecked(after.SampleChance(PerftChanceValue(3, after.action_count())));
  const uint64_t expected = after.IsTerminal() ? 0 : after.LegalActions().size();
  EXPECT_EQ(Perft(s, 2, fixed), expected);
  // Expanding, the dice are one ply of 144 outcomes.
  EXPECT_EQ(Perft(s, 2, {}), 144u);
}

}  // namespace
}  // namespace metropolis
