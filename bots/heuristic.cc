#include "bots/heuristic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "bots/evaluation.h"

namespace metropolis::bots {
namespace {

constexpr double kEpsilon = 1e-6;

// The seat's score against the others: beating the leader matters more than
// beating the field, which is what puts the robber on the strongest
// opponent's best hex.
double Score(const State& s, int seat) {
  double mine = Evaluate(s, seat);
  if (s.IsTerminal()) return mine;
  double best = -1e9, sum = 0;
  int n = 0;
  for (int o = 0; o < s.num_seats(); ++o) {
    if (o == seat) continue;
    double v = BoardValue(s, o);
    best = std::max(best, v);
    sum += v;
    ++n;
  }
  return mine - 0.3 * best - 0.1 * (n ? sum / n : 0);
}

// Value of the decisions the action leaves to come: free roads or
// promotions of a card, a card's step still to play out.
double PendingBonus(const State& s, int seat) {
  if (s.pending_size() == 0 || s.IsTerminal()) return 0;
  const Pending& p = s.pending(s.pending_size() - 1);
  switch (p.kind) {
    case PendingKind::kRoadBuilding:
      return p.seat == seat ? 0.3 * p.a : 0;
    case PendingKind::kSmith:
      return p.seat == seat ? 0.3 * p.a : 0;
    case PendingKind::kDiplomatReplace:
    case PendingKind::kSpyTake:
    case PendingKind::kMasterMerchantTake:
    case PendingKind::kCommercialHarbor:
      return p.seat == seat ? 0.4 : 0;
    case PendingKind::kDeserterRemove:
    case PendingKind::kWeddingGive:
    case PendingKind::kHarborReturn:
      return p.seat != seat ? 0.4 : 0;
    case PendingKind::kMoveRobber:
      // A Knight played (BG-5): a steal and a blocked hex of the leader's to
      // come. (C&K's knight chase is left as it was tuned.)
      return p.seat == seat && s.options().ruleset == Ruleset::kBase ? 0.35 : 0;
    default:
      return 0;
  }
}

double ScoreAfter(const State& s, int seat);

// The expected score over a chance node's outcomes; rolls are averaged over
// the production dice with a ship on the event die.
double ExpectedScore(const State& s, int seat) {
  const Pending& p = s.pending(s.pending_size() - 1);
  if (p.kind == PendingKind::kDice) {
    if (p.a) {  // Alchemist: production dice fixed
      State copy = s;
      copy.ApplyUnchecked(Action::Dice(0, 0, kEventShip));
      return ScoreAfter(copy, seat);
    }
    double total = 0;
    for (int y = 1; y <= 6; ++y)
      for (int r = 1; r <= 6; ++r) {
        State copy = s;
        copy.ApplyUnchecked(Action::Dice(y, r, kEventShip));
        total += Score(copy, seat);
      }
    return total / 36;
  }
  if (p.kind == PendingKind::kSteal || p.kind == PendingKind::kDevDraw) {
    // A steal over the victim's cards; a development card (BG-4) over the
    // deck as the sample holds it.
    double total = 0;
    for (const ChanceOutcome& o : s.ChanceOutcomes()) {
      State copy = s;
      copy.ApplyUnchecked(o.action);
      total += o.probability * Score(copy, seat);
    }
    return total;
  }
  return Score(s, seat);
}

double ScoreAfter(const State& s, int seat) {
  if (s.IsChanceNode()) return ExpectedScore(s, seat);
  return Score(s, seat) + PendingBonus(s, seat);
}

// TRD-3 step 2: accept only an offer that makes the hand clearly better.
double TradeAnswerScore(const State& s, int seat, bool accept) {
  if (!accept) return 0;
  const TradeState& t = s.trade();
  for (int c = 0; c < kNumCardTypes; ++c)
    if (s.player(seat).hand[c] < t.want.Get(c)) return -1;
  // Only a gift of at least one card: a fair exchange helps the offerer more
  // than us, since he chose it.
  return t.give.Total() - t.want.Total() >= 1 ? 0.5 : -1;
}

}  // namespace

double ScoreAfterAction(const State& state, int seat) { return ScoreAfter(state, seat); }

bool ParseHeuristicOptions(std::string_view settings, HeuristicOptions* options, std::string* error) {
  size_t start = 0;
  while (start < settings.size()) {
    size_t end = settings.find(',', start);
    if (end == std::string_view::npos) end = settings.size();
    const std::string_view item = settings.substr(start, end - start);
    start = end + 1;
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos || item.substr(0, eq) != "trade") {
      *error = "heuristic: unknown setting '" + std::string(item) + "' (known: trade=0|answer|1)";
      return false;
    }
    if (!ParseTradeMode(item.substr(eq + 1), &options->trade, error)) {
      *error = "heuristic: " + *error;
      return false;
    }
  }
  return true;
}

std::string HeuristicBot::name() const {
  if (options_.trade == TradeMode::kOn) return "heuristic";
  return "heuristic:trade=" + std::string(TradeModeName(options_.trade));
}

void ScoreActions(const View& view, const State& sampled, std::vector<double>* scores) {
  const int seat = view.viewer;
  scores->assign(view.legal.size(), -std::numeric_limits<double>::infinity());
  ActionList legal;
  sampled.LegalActions(&legal);
  for (size_t i = 0; i < view.legal.size(); ++i) {
    const Action& a = view.legal[i];
    if (a.type == ActionType::kTradeAccept || a.type == ActionType::kTradeDecline) {
      (*scores)[i] = TradeAnswerScore(sampled, seat, a.type == ActionType::kTradeAccept);
      continue;
    }
    if (!std::binary_search(legal.begin(), legal.end(), a)) continue;
    State copy = sampled;
    copy.ApplyUnchecked(a);
    (*scores)[i] = ScoreAfter(copy, seat);
  }
}

int PickHeuristic(const View& view, const std::vector<double>& scores, uint64_t* rng) {
  int best = -1, num_best = 0, end_turn = -1;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (view.legal[i].type == ActionType::kEndTurn) end_turn = int(i);
    if (best < 0 || scores[i] > scores[best] + kEpsilon) {
      best = int(i);
      num_best = 1;
    } else if (scores[i] > scores[best] - kEpsilon && RandomBelow(rng, uint32_t(++num_best)) == 0) {
      best = int(i);  // reservoir sampling among ties
    }
  }
  // Ending the turn wins ties, so moves that change nothing cannot loop.
  if (end_turn >= 0 && scores[best] <= scores[end_turn] + kEpsilon) return end_turn;
  return best;
}

Action HeuristicBot::Choose(const View& view, uint64_t* rng) {
  if (view.legal.size() == 1 && !MayOfferOrCounter(view, options_.trade)) return view.legal[0];
  State sampled = view.state;
  std::string error;
  const uint64_t sample_seed = NextRandom(rng);
  if (!SampleState(view, sample_seed, &sampled, &error))
    return view.legal[RandomBelow(rng, uint32_t(view.legal.size()))];
  // Trades first: an answer or a close is decided there, and an offer worth
  // making comes before the builds it enables.
  if (std::optional<Action> trade = ChooseTrade(view, sampled, options_.trade, rng)) return *trade;
  std::vector<double> scores;
  ScoreActions(view, sampled, &scores);
  return view.legal[PickHeuristic(view, scores, rng)];
}

}  // namespace metropolis::bots
