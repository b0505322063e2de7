#include "analysis/analyse.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

#include "bots/bot.h"
#include "bots/search.h"
#include "engine/json_text.h"
#include "engine/view.h"

namespace metropolis::analysis {
namespace {

double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// A real decision: a seat to act with a choice.
bool IsDecision(const State& s, ActionList* legal) {
  if (s.CurrentPlayer() < 0) return false;
  s.LegalActions(legal);
  return legal->size > 1;
}

// Trade offers and counters are never among the legal actions (TRD-3), so the
// search could not have suggested them: no mark compares with one.
bool IsOfferOrCounter(const Action& a) {
  return a.type == ActionType::kTradeOffer || a.type == ActionType::kTradeCounter;
}

// Whether the played action deserves a mark against the search's choice:
// the search did not consider it at all (*cost -1), or valued it at least
// `threshold` below its choice (*cost that gap). The search picks by visits,
// not by mean, so its choice may have the lower mean: no mark then. False too
// when there is nothing to compare (a forced decision, a trade, no search).
bool Marked(const std::vector<bots::RootChoice>& root, const Action& played, const Action& suggested, double threshold,
            double* cost) {
  const bots::RootChoice* mine = nullptr;
  const bots::RootChoice* best = nullptr;
  for (const bots::RootChoice& c : root) {
    if (c.action == played) mine = &c;
    if (c.action == suggested) best = &c;
  }
  if (best == nullptr || best->visits == 0) return false;
  if (mine == nullptr || mine->visits == 0) {
    *cost = -1;
    return true;
  }
  *cost = best->mean - mine->mean;
  return *cost >= threshold;
}

std::string Number(double x, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

std::string CheckOptions(const AnalysisOptions& o) {
  if (o.positions < 1) return "positions must be at least 1";
  if (o.win.playouts < 0) return "playouts must not be negative";
  if (o.win.plies < 0) return "plies must not be negative";
  if (o.search_iterations < 0) return "search iterations must not be negative";
  if (!(o.mark_threshold >= 0)) return "the mark threshold must not be negative";
  return "";
}

}  // namespace

namespace {

// One chosen position of a walk: the state before the step-th action (after
// the last one when `last`), and every seat's tracker there.
struct Visit {
  size_t step;
  bool last;
  const State& state;
  const std::vector<KnowledgeTracker>& trackers;
};

// Replays the record twice: once with every action checked, to find its
// decisions; then visiting `positions` of them spread evenly, and the final
// position, with each seat's knowledge kept by its own tracker from its masked
// events. The luck account is added up on the way.
bool Walk(const GameRecord& record, int positions, const std::function<void(const Visit&)>& visit, LuckAccount* luck,
          int* decision_count, std::string* error) {
  std::vector<int> decisions;
  {
    ActionList legal;
    State before(record.config);
    const bool ok = ReplayGame(
        record,
        [&](int step, const State& state, const Action*, const std::vector<Event>&) {
          if (step > 0 && IsDecision(before, &legal)) decisions.push_back(step - 1);
          before = state;
        },
        error);
    if (!ok) return false;
  }
  *decision_count = int(decisions.size());
  // Evenly spread over the decisions; fewer decisions than positions: all.
  std::vector<char> chosen(record.actions.size() + 1, 0);
  const int points = std::min<int>(positions, int(decisions.size()));
  for (int i = 0; i < points; ++i)
    chosen[size_t(decisions[size_t(int64_t(i) * int64_t(decisions.size()) / points)])] = 1;

  State s;
  if (!NewGame(record.config, &s, error)) return false;
  const int n = s.num_seats();
  std::vector<KnowledgeTracker> trackers;
  for (int seat = 0; seat < n; ++seat) {
    trackers.emplace_back(seat);
    trackers.back().Reset(s);
  }
  std::vector<Event> events;
  for (size_t step = 0; step <= record.actions.size(); ++step) {
    const bool last = step == record.actions.size();
    if (last || chosen[step]) visit(Visit{step, last, s, trackers});
    if (last) break;
    const State before = s;
    events.clear();
    // Checked in the first pass; a failure here would be a bug.
    if (std::string bad = s.Apply(record.actions[step], &events); !bad.empty()) {
      *error = "step " + std::to_string(step + 1) + ": " + bad;
      return false;
    }
    AddLuckOfStep(before, record.actions[step], events, luck);
    for (const Event& e : events)
      for (int seat = 0; seat < n; ++seat) trackers[size_t(seat)].Observe(MaskEvent(e, seat));
  }
  FinishLuck(s, luck);
  return true;
}

}  // namespace

bool AnalyseGame(const GameRecord& record, const AnalysisOptions& options, GameAnalysis* out, std::string* error) {
  *out = GameAnalysis{};
  if (std::string bad = CheckOptions(options); !bad.empty()) {
    *error = bad;
    return false;
  }
  const double cpu_start = ThreadCpuSeconds();
  bots::SearchOptions search_options;
  search_options.iterations = options.search_iterations;
  search_options.trade = bots::TradeMode::kAnswer;
  uint64_t rng = bots::MixSeed(options.seed, 0x616e616c79736973ULL);  // "analysis"
  auto visit = [&](const Visit& v) {
    GraphPoint point;
    point.step = int(v.step);
    point.turn = v.state.turn_number();
    point.actor = v.last ? kNoSeat : v.state.CurrentPlayer();
    for (int seat = 0; seat < v.state.num_seats(); ++seat) {
      const View view = MakeView(v.state, seat, &v.trackers[size_t(seat)]);
      point.win[size_t(seat)] = EstimateWinProbability(view, options.win, &rng);
      if (seat == point.actor && options.search_iterations > 0 && !IsOfferOrCounter(record.actions[v.step])) {
        const Action& played = record.actions[v.step];
        bots::SearchBot search(search_options);
        const Action suggested = search.Choose(view, &rng);
        if (!(suggested == played)) {
          double cost = 0;
          if (Marked(search.last_root(), played, suggested, options.mark_threshold, &cost))
            out->marks.push_back({int(v.step), seat, ActionToString(played), ActionToString(suggested), cost});
        }
      }
    }
    out->graph.push_back(point);
  };
  if (!Walk(record, options.positions, visit, &out->luck, &out->decisions, error)) return false;
  out->cpu_seconds = ThreadCpuSeconds() - cpu_start;
  return true;
}

bool CollectScores(const GameRecord& record, int positions, uint64_t seed, std::vector<SeenScores>* out,
                   std::string* error) {
  if (positions < 1) {
    *error = "positions must be at least 1";
    return false;
  }
  uint64_t rng = bots::MixSeed(seed, 0x63616c6962726174ULL);  // "calibrat"
  auto visit = [&](const Visit& v) {
    if (v.last) return;
    for (int seat = 0; seat < v.state.num_seats(); ++seat) {
      const View view = MakeView(v.state, seat, &v.trackers[size_t(seat)]);
      State sample = view.state;
      std::string sample_error;
      if (!SampleState(view, bots::NextRandom(&rng), &sample, &sample_error)) continue;
      out->push_back({seat, ScoreSeats(sample, seat)});
    }
  };
  LuckAccount luck;
  int decisions = 0;
  return Walk(record, positions, visit, &luck, &decisions, error);
}

std::string AnalysisToJson(const GameAnalysis& a) {
  const LuckAccount& l = a.luck;
  std::string j = "{\"luck\":{\"production_rolls\":" + std::to_string(l.production_rolls) +
                  ",\"barbarian_attacks\":" + std::to_string(l.barbarian_attacks) +
                  ",\"cards_per_vp\":" + Number(l.cards_per_vp, 3) + ",\"seats\":[";
  for (int s = 0; s < l.num_seats; ++s) {
    const SeatLuck& x = l.seats[size_t(s)];
    if (s) j += ',';
    j += "{\"seat\":" + std::to_string(s) + ",\"expected_cards\":" + Number(x.expected_cards, 3) +
         ",\"dice_cards\":" + std::to_string(x.dice_cards) + ",\"expected_draws\":" + Number(x.expected_draws, 3) +
         ",\"draws\":" + std::to_string(x.draws) + ",\"cards_stolen\":" + std::to_string(x.cards_stolen) +
         ",\"cards_lost\":" + std::to_string(x.cards_lost) +
         ",\"cards_discarded\":" + std::to_string(x.cards_discarded) +
         ",\"cities_pillaged\":" + std::to_string(x.cities_pillaged) +
         ",\"defender_points\":" + std::to_string(x.defender_points) + ",\"luck_cards\":" + Number(x.luck_cards, 3) +
         ",\"vp\":" + std::to_string(x.vp) + ",\"adjusted_vp\":" + Number(x.adjusted_vp, 3) +
         ",\"place\":" + std::to_string(x.place) + ",\"adjusted_place\":" + std::to_string(x.adjusted_place) + "}";
  }
  j += "]},\"graph\":[";
  for (size_t i = 0; i < a.graph.size(); ++i) {
    const GraphPoint& p = a.graph[i];
    if (i) j += ',';
    j += "{\"step\":" + std::to_string(p.step) + ",\"turn\":" + std::to_string(p.turn) +
         ",\"actor\":" + std::to_string(p.actor) + ",\"win\":[";
    for (int s = 0; s < l.num_seats; ++s) j += (s ? "," : "") + Number(p.win[size_t(s)], 4);
    j += "]}";
  }
  j += "],\"marks\":[";
  for (size_t i = 0; i < a.marks.size(); ++i) {
    const Mark& m = a.marks[i];
    if (i) j += ',';
    j += "{\"step\":" + std::to_string(m.step) + ",\"seat\":" + std::to_string(m.seat) + ",\"played\":";
    AppendJsonString(m.played, &j);
    j += ",\"suggested\":";
    AppendJsonString(m.suggested, &j);
    j += ",\"cost\":" + (m.cost < 0 ? std::string("null") : Number(m.cost, 4)) + '}';
  }
  j += "],\"decisions\":" + std::to_string(a.decisions) + ",\"cpu_seconds\":" + Number(a.cpu_seconds, 4) + "}";
  return j;
}

}  // namespace metropolis::analysis
