#include "bots/search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <numeric>
#include <optional>
#include <thread>
#include <vector>

#include "bots/evaluation.h"
#include "bots/heuristic.h"
#include "engine/topology.h"

namespace metropolis::bots {
namespace {

double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Priority of an action for the default policy; the highest wins.
int Priority(const State& s, const Action& a) {
  const bool barbarians_near = s.barbarian_position() >= 4;
  switch (a.type) {
    case ActionType::kBuildCity:
      return 100;
    case ActionType::kBuildSettlement: {
      if (s.phase() != Phase::kSetup) return 90;
      // Setup: the spot with the most pips.
      int pips = 0;
      for (int h : GetTopology().node_hexes[a.a])
        if (h >= 0) pips += Pips(s.board().token[h]);
      return 60 + pips;
    }
    case ActionType::kBuyImprovement:
      return 80;
    case ActionType::kRecruitKnight:
      return barbarians_near ? 50 : 30;
    case ActionType::kActivateKnight:
      return barbarians_near ? 70 : 10;
    case ActionType::kPromoteKnight:
      return 25;
    case ActionType::kBuildRoad:
      return s.phase() == Phase::kSetup ? 50 : 15;
    case ActionType::kBuildWall:
      return 14;
    case ActionType::kPlayProgress:
      return 20;
    case ActionType::kBuyDev:  // BG-4: below the buildings that pay the same ore and grain
      return 40;
    case ActionType::kPlayDev:  // BG-5: a card held is played, but after the roll
      return 35;
    case ActionType::kEndTurn:
      return 12;
    case ActionType::kTradeDecline:
      return 100;
    case ActionType::kBankTrade:
    case ActionType::kMoveKnight:
    case ActionType::kDisplaceKnight:
    case ActionType::kChaseRobber:
    case ActionType::kTradeAccept:
      return 0;
    default:
      return 50;  // pending decisions: uniform
  }
}

struct Node {
  Action action;
  int parent = -1;
  std::vector<int> children;
  int64_t visits = 0;
  int64_t available = 0;
  double value = 0;
};

struct ThreadResult {
  std::vector<int64_t> visits;  // per root candidate
  std::vector<double> value;
  int64_t iterations = 0;
  double cpu_seconds = 0;
};

class Searcher {
 public:
  Searcher(const View& view, const std::vector<Action>& candidates, const std::vector<double>& prior_offsets,
           const SearchOptions& options, uint64_t seed)
      : view_(view),
        candidates_(candidates),
        prior_offsets_(prior_offsets),
        options_(options),
        rng_(seed),
        me_(view.viewer),
        sample_(view.state) {
    nodes_.reserve(4096);
    nodes_.push_back(Node{});
    for (const Action& a : candidates_) {
      Node n;
      n.action = a;
      n.parent = 0;
      nodes_[0].children.push_back(int(nodes_.size()));
      nodes_.push_back(n);
    }
  }

  // One iteration; false if the view could not be sampled.
  bool Iterate() {
    if (uses_left_ == 0) {
      std::string error;
      if (!SampleState(view_, NextRandom(&rng_), &sample_, &error)) return false;
      uses_left_ = std::max(1, options_.reuse);
    }
    --uses_left_;
    State d = sample_;
    path_.clear();
    path_.push_back(0);
    int node = 0;
    bool expanded = false;
    int tree_plies = 0;
    while (!d.IsTerminal() && !expanded && tree_plies < 400) {
      const int cp = d.CurrentPlayer();
      if (cp == kChancePlayer) {
        d.ApplyUnchecked(d.SampleChance(UniformRandom(&rng_)));
        continue;
      }
      d.LegalActions(&legal_);
      ++tree_plies;
      if (cp != me_ || legal_.size == 1) {
        d.ApplyUnchecked(cp != me_ ? DefaultPolicy(d, legal_, &rng_) : legal_.items[0]);
        continue;
      }
      int child = node == 0 ? SelectRoot() : SelectOrExpand(node, d, &expanded);
      if (child < 0) break;  // no candidate is legal in this sample
      d.ApplyUnchecked(nodes_[child].action);
      node = child;
      path_.push_back(node);
      if (node != 0 && nodes_[node].visits == 0) expanded = true;
    }
    for (int p = 0; p < options_.plies && !d.IsTerminal(); ++p) {
      if (d.IsChanceNode()) {
        d.ApplyUnchecked(d.SampleChance(UniformRandom(&rng_)));
      } else {
        d.LegalActions(&legal_);
        d.ApplyUnchecked(DefaultPolicy(d, legal_, &rng_));
      }
    }
    const double v = NormalizedValue(d, me_);
    for (int n : path_) {
      nodes_[n].visits += 1;
      nodes_[n].value += v;
    }
    return true;
  }

  ThreadResult Result() const {
    ThreadResult r;
    for (int c : nodes_[0].children) {
      r.visits.push_back(nodes_[c].visits);
      r.value.push_back(nodes_[c].value);
    }
    return r;
  }

 private:
  bool Legal(const Action& a) const { return std::binary_search(legal_.begin(), legal_.end(), a); }

  int Ucb(const std::vector<int>& children, bool check_legal) {
    for (int c : children)
      if (!check_legal || Legal(nodes_[c].action)) ++nodes_[c].available;
    int best = -1;
    double best_score = -1;
    for (int c : children) {
      if (check_legal && !Legal(nodes_[c].action)) continue;
      const Node& n = nodes_[c];
      if (n.visits == 0) return c;
      double score = n.value / n.visits + options_.c * std::sqrt(std::log(double(n.available)) / n.visits);
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return best;
  }

  // UCB with the candidates' virtual visits (SearchOptions::prior) valued at
  // the root's mean plus their heuristic offset.
  int SelectRoot() {
    const std::vector<int>& children = nodes_[0].children;
    const double root_mean = nodes_[0].visits ? nodes_[0].value / nodes_[0].visits : 0.5;
    const double n0 = options_.prior;
    double total = 0;
    for (size_t i = 0; i < children.size(); ++i)
      if (Legal(nodes_[children[i]].action)) total += double(++nodes_[children[i]].available) + n0;
    int best = -1;
    double best_score = -1e9;
    for (size_t i = 0; i < children.size(); ++i) {
      const Node& n = nodes_[children[i]];
      if (!Legal(n.action)) continue;
      const double visits = double(n.visits) + n0;
      if (visits <= 0) return children[i];
      const double mean = (n.value + n0 * (root_mean + prior_offsets_[i])) / visits;
      const double score = mean + options_.c * std::sqrt(std::log(total) / visits);
      if (score > best_score) {
        best_score = score;
        best = children[i];
      }
    }
    return best;
  }

  // Progressive widening: a node visited n times may have 1 + sqrt(n)
  // children, added in the default policy's order of preference.
  int SelectOrExpand(int node, const State& d, bool* expanded) {
    const size_t allowed = 1 + size_t(std::sqrt(double(nodes_[node].visits)));
    int legal_children = 0;
    for (int c : nodes_[node].children)
      if (Legal(nodes_[c].action)) ++legal_children;
    if (nodes_[node].children.size() < allowed && legal_children < legal_.size) {
      // The untried action the default policy likes best, ties at random.
      int best = -1, best_priority = -1, ties = 0;
      for (int i = 0; i < legal_.size; ++i) {
        const Action& a = legal_.items[i];
        bool tried = false;
        for (int c : nodes_[node].children)
          if (nodes_[c].action == a) tried = true;
        if (tried) continue;
        int p = Priority(d, a);
        if (p > best_priority) {
          best_priority = p;
          best = i;
          ties = 1;
        } else if (p == best_priority && RandomBelow(&rng_, uint32_t(++ties)) == 0) {
          best = i;
        }
      }
      Node n;
      n.action = legal_.items[best];
      n.parent = node;
      int id = int(nodes_.size());
      nodes_.push_back(n);
      nodes_[node].children.push_back(id);
      ++nodes_[id].available;
      *expanded = true;
      return id;
    }
    return Ucb(nodes_[node].children, true);
  }

  const View& view_;
  const std::vector<Action>& candidates_;
  const std::vector<double>& prior_offsets_;
  const SearchOptions& options_;
  uint64_t rng_;
  int me_;
  State sample_;
  int uses_left_ = 0;
  std::vector<Node> nodes_;
  std::vector<int> path_;
  ActionList legal_;
};

}  // namespace

Action DefaultPolicy(const State& s, const ActionList& legal, uint64_t* rng) {
  int best = 0, best_priority = -1, ties = 0;
  for (int i = 0; i < legal.size; ++i) {
    int p = Priority(s, legal.items[i]);
    if (p > best_priority) {
      best_priority = p;
      best = i;
      ties = 1;
    } else if (p == best_priority && RandomBelow(rng, uint32_t(++ties)) == 0) {
      best = i;
    }
  }
  return legal.items[best];
}

bool ParseSearchOptions(std::string_view settings, SearchOptions* o, std::string* error) {
  size_t start = 0;
  while (start < settings.size()) {
    size_t end = settings.find(',', start);
    if (end == std::string_view::npos) end = settings.size();
    std::string_view item = settings.substr(start, end - start);
    start = end + 1;
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      *error = "search: expected key=value, got '" + std::string(item) + "'";
      return false;
    }
    std::string key(item.substr(0, eq));
    std::string value(item.substr(eq + 1));
    if (key == "trade") {
      if (!ParseTradeMode(value, &o->trade, error)) {
        *error = "search: " + *error;
        return false;
      }
      continue;
    }
    char* rest = nullptr;
    double x = std::strtod(value.c_str(), &rest);
    if (value.empty() || *rest != '\0' || !(x >= 0)) {
      *error = "search: " + key + " needs a non-negative number, got '" + value + "'";
      return false;
    }
    if (key == "ms") {
      o->ms = x;
      o->iterations = 0;
    } else if (key == "iterations") {
      o->iterations = int64_t(x);
    } else if (key == "threads") {
      o->threads = std::clamp(int(x), 1, 256);
    } else if (key == "plies") {
      o->plies = int(x);
    } else if (key == "top") {
      o->top = std::max(1, int(x));
    } else if (key == "c") {
      o->c = x;
    } else if (key == "prior") {
      o->prior = x;
    } else if (key == "reuse") {
      o->reuse = std::max(1, int(x));
    } else {
      *error =
          "search: unknown setting '" + key + "' (known: ms, iterations, threads, plies, top, c, prior, reuse, trade)";
      return false;
    }
  }
  if (o->iterations <= 0 && o->ms <= 0) {
    *error = "search: give a budget, iterations=N or ms=T";
    return false;
  }
  return true;
}

std::string SearchBot::name() const {
  std::string s = "search:";
  if (options_.iterations > 0) {
    s += "iterations=" + std::to_string(options_.iterations);
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "ms=%g", options_.ms);
    s += buf;
  }
  if (options_.threads != 1) s += ",threads=" + std::to_string(options_.threads);
  if (options_.trade != TradeMode::kOn) s += ",trade=" + std::string(TradeModeName(options_.trade));
  return s;
}

Action SearchBot::Choose(const View& view, uint64_t* rng) {
  last_root_.clear();
  if (view.legal.size() == 1 && !MayOfferOrCounter(view, options_.trade)) return view.legal[0];
  const auto start = std::chrono::steady_clock::now();

  // Root candidates: the heuristic's best actions on one sample, and ending
  // the turn (always a sound option to compare against).
  State sampled = view.state;
  std::string error;
  if (!SampleState(view, NextRandom(rng), &sampled, &error))
    return view.legal[RandomBelow(rng, uint32_t(view.legal.size()))];
  // Trades are the heuristic's (SearchOptions::trade): playouts would answer
  // offers by the default policy, which declines them all.
  if (std::optional<Action> trade = ChooseTrade(view, sampled, options_.trade, rng)) return *trade;
  std::vector<double> scores;
  ScoreActions(view, sampled, &scores);
  const int heuristic_choice = PickHeuristic(view, scores, rng);
  std::vector<int> order(view.legal.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return scores[x] > scores[y]; });
  std::vector<Action> candidates;
  std::vector<double> candidate_scores;
  for (int i : order) {
    bool keep =
        int(candidates.size()) < options_.top || view.legal[i].type == ActionType::kEndTurn || i == heuristic_choice;
    if (keep && scores[i] > -std::numeric_limits<double>::infinity()) {
      candidates.push_back(view.legal[i]);
      candidate_scores.push_back(scores[i]);
    }
  }
  if (candidates.size() <= 1) return view.legal[heuristic_choice];
  const double best_score = *std::max_element(candidate_scores.begin(), candidate_scores.end());
  std::vector<double> prior_offsets;
  for (double x : candidate_scores) prior_offsets.push_back(std::max(-0.5, 0.1 * (x - best_score)));

  const int threads = std::max(1, options_.threads);
  const uint64_t base_seed = NextRandom(rng);
  const bool budget_timed = options_.iterations <= 0;
  // The clock stops a time budget, and the host's bound (max_ms) any budget.
  double ms = budget_timed ? options_.ms : 0;
  if (options_.max_ms > 0) ms = budget_timed ? std::min(ms, options_.max_ms) : options_.max_ms;
  const bool timed = ms > 0;
  const auto deadline = start + std::chrono::duration<double, std::milli>(ms);
  std::vector<ThreadResult> results(static_cast<size_t>(threads));
  auto work = [&](int t) {
    const double cpu_start = ThreadCpuSeconds();
    Searcher searcher(view, candidates, prior_offsets, options_, MixSeed(base_seed, uint64_t(t) + 1));
    // An iteration budget is split evenly so that the result does not depend
    // on how the threads are scheduled.
    const int64_t quota = budget_timed ? std::numeric_limits<int64_t>::max()
                                       : options_.iterations / threads + (t < options_.iterations % threads ? 1 : 0);
    int64_t done = 0, failures = 0;
    while (done < quota) {
      if (timed && (done & 7) == 0 && std::chrono::steady_clock::now() >= deadline) break;
      if (searcher.Iterate()) {
        ++done;
      } else if (++failures > 16) {
        break;
      }
    }
    results[size_t(t)] = searcher.Result();
    results[size_t(t)].iterations = done;
    results[size_t(t)].cpu_seconds = ThreadCpuSeconds() - cpu_start;
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(work, t);
    for (std::thread& th : pool) th.join();
  }

  std::vector<int64_t> visits(candidates.size(), 0);
  std::vector<double> values(candidates.size(), 0);
  int64_t iterations = 0;
  for (const ThreadResult& r : results) {
    iterations += r.iterations;
    stats_.cpu_seconds += r.cpu_seconds;
    for (size_t i = 0; i < r.visits.size(); ++i) visits[i] += r.visits[i], values[i] += r.value[i];
  }
  for (size_t i = 0; i < candidates.size(); ++i)
    last_root_.push_back({candidates[i], visits[i], visits[i] ? values[i] / double(visits[i]) : 0});
  size_t best = 0;
  for (size_t i = 1; i < candidates.size(); ++i)
    if (visits[i] > visits[best] || (visits[i] == visits[best] && candidate_scores[i] > candidate_scores[best]))
      best = i;

  ++stats_.decisions;
  stats_.iterations += iterations;
  stats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (iterations == 0) return view.legal[heuristic_choice];
  return candidates[best];
}

}  // namespace metropolis::bots
