#include "bots/trading.h"

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

#include "bots/bot.h"
#include "bots/evaluation.h"
#include "bots/heuristic.h"
#include "engine/state_editor.h"

namespace metropolis::bots {
namespace {

// An offer is made when the exchange is worth this much to the seat in its
// turn (VP equivalents: about a quarter of a settlement's hand value), so that
// it trades for builds, not for small shuffles of its hand.
constexpr double kOfferGain = 0.25;
// An answer or close takes an exchange worth at least this much after the
// partner's share; a counter must beat the offer by this much, since the
// current player may refuse it.
constexpr double kAcceptGain = 0.1;
constexpr double kCounterGain = 0.25;
// Samples of the partner's hidden hand behind each estimate of his gain.
constexpr int kPartnerSamples = 4;
// An offer is made only if some addressee would accept it in at least this
// share of the samples, as these bots answer; it gives at most this many
// cards more than it takes.
constexpr double kMinAcceptChance = 0.25;
constexpr int kMaxExtraCards = 2;
// What a gain of the partner's costs the seat, per VP equivalent: as the
// heuristic's score weighs the strongest opponent (0.3) and the opponents'
// mean (0.1), a little more, since the partner chose or shaped the trade.
constexpr double kLeaderWeight = 0.45;
constexpr double kFieldWeight = 0.15;

// A build a trade may complete, by its cost.
struct Target {
  CardCounts cost;
};

CardCounts MakeCards(std::initializer_list<std::pair<int, int>> cards) {
  CardCounts c;
  for (auto [card, n] : cards) c[card] = uint8_t(n);
  return c;
}

// The builds whose missing cards an offer asks for (BLD-1..BLD-3, KN-3..KN-5,
// IMP-1; BG-4 in the base game). Whether one is possible at all (a site, a
// knight to promote) is left to the evaluation after the exchange: a build
// that cannot happen adds nothing there.
std::vector<Target> Targets(const State& s, int seat) {
  const PlayerState& p = s.player(seat);
  std::vector<Target> out;
  if (p.settlements != 0 && p.cities_left > 0) out.push_back({MakeCards({{kGrain, 2}, {kOre, 3}})});
  if (p.settlements_left > 0) out.push_back({MakeCards({{kBrick, 1}, {kLumber, 1}, {kWool, 1}, {kGrain, 1}})});
  if (p.roads_left > 0) out.push_back({MakeCards({{kBrick, 1}, {kLumber, 1}})});
  if (s.options().ruleset == Ruleset::kBase) {
    if (s.DevDeckSize() > 0) out.push_back({MakeCards({{kWool, 1}, {kGrain, 1}, {kOre, 1}})});
    return out;
  }
  out.push_back({MakeCards({{kWool, 1}, {kOre, 1}})});  // recruiting or promoting a knight
  if (p.knights != 0) out.push_back({MakeCards({{kGrain, 1}})});
  if (p.cities != 0)
    for (int t = 0; t < kNumTracks; ++t)
      if (p.level[t] < kMaxImprovementLevel) out.push_back({MakeCards({{TrackCommodity(t), p.level[t] + 1}})});
  return out;
}

CardCounts Minus(const CardCounts& a, const CardCounts& b) {  // per type, floored at 0
  CardCounts c;
  for (int t = 0; t < kNumCardTypes; ++t) c[t] = uint8_t(std::max(0, int(a[t]) - int(b[t])));
  return c;
}

bool SharesType(const CardCounts& a, const CardCounts& b) {
  for (int t = 0; t < kNumCardTypes; ++t)
    if (a[t] > 0 && b[t] > 0) return true;
  return false;
}

const Pending* Top(const State& s) { return s.pending_size() > 0 ? &s.pending(s.pending_size() - 1) : nullptr; }

bool IsTradeStep(PendingKind k) { return k == PendingKind::kTradeAnswer || k == PendingKind::kTradeClose; }

// *out = `s` after `seat` gives `give` to `partner` and gets `get` from him,
// with the open trade (if any) closed, so that the current player's action
// phase follows (TRD-3 step 3). The sample drew the partner's hidden hand, so
// it may lack some of `get`: those cards come from the other hands or the
// bank, keeping cards conserved (debug builds validate every step applied
// afterwards). False when no hand and not the bank holds them.
bool Exchange(const State& s, int seat, int partner, const CardCounts& give, const CardCounts& get, State* out) {
  *out = s;
  StateEditor ed(out);
  while (ed.pending_size() > 0 && IsTradeStep(ed.pending()[ed.pending_size() - 1].kind))
    ed.pending()[--ed.pending_size()] = Pending{};
  ed.trade() = TradeState{};
  PlayerState& me = ed.player(seat);
  if (!me.hand.Contains(give)) return false;
  for (int c = 0; c < kNumCardTypes; ++c) {
    me.hand[c] = uint8_t(me.hand[c] - give[c]);
    ed.player(partner).hand[c] = uint8_t(ed.player(partner).hand[c] + give[c]);
    int need = get[c];
    for (int k = 0; k < s.num_seats() && need > 0; ++k) {
      // The partner first, then the others in turn.
      const int o = (partner + k) % s.num_seats();
      if (o == seat) continue;
      const int take = std::min<int>(need, ed.player(o).hand[c]);
      ed.player(o).hand[c] = uint8_t(ed.player(o).hand[c] - take);
      need -= take;
    }
    if (need > 0) {
      if (s.options().bank_limited && ed.bank()[c] < need) return false;
      ed.bank()[c] = int16_t(ed.bank()[c] - need);
    }
    me.hand[c] = uint8_t(me.hand[c] + get[c]);
  }
  return true;
}

// What a gain of `partner`'s costs `seat`, per unit: much when he is or the
// gain makes him the strongest of `seat`'s opponents (by the public board),
// a little otherwise.
double Weight(const State& s, int seat, int partner, double gain) {
  double best_other = -1e9;
  for (int o = 0; o < s.num_seats(); ++o)
    if (o != seat && o != partner) best_other = std::max(best_other, BoardValue(s, o));
  return BoardValue(s, partner) + std::max(0.0, gain) >= best_other ? kLeaderWeight : kFieldWeight;
}

bool IsBuild(ActionType t) {
  switch (t) {
    case ActionType::kBuildRoad:
    case ActionType::kBuildSettlement:
    case ActionType::kBuildCity:
    case ActionType::kBuildWall:
    case ActionType::kRecruitKnight:
    case ActionType::kActivateKnight:
    case ActionType::kPromoteKnight:
    case ActionType::kBuyImprovement:
    case ActionType::kBuyDev:
      return true;
    default:
      return false;
  }
}

// The current player's position in his action phase: the best of stopping
// here and one build, scored by `score` after the build. A trade is worth the
// build it enables.
template <typename ScoreFn>
double BestBuild(const State& s, ScoreFn score, bool chance_builds) {
  double best = score(s);
  ActionList legal;
  s.LegalActions(&legal);
  for (const Action& a : legal) {
    if (!IsBuild(a.type)) continue;
    State copy = s;
    copy.ApplyUnchecked(a);
    if (copy.IsChanceNode() && !chance_builds) continue;
    best = std::max(best, score(copy));
  }
  return best;
}

// What `seat` makes of a position right after a trade closes: in its own
// action phase the heuristic's score of its best build (or none); outside
// its turn the heuristic's score, which values its hand.
double SeatValue(const State& s, int seat) {
  if (s.CurrentPlayer() == seat && s.phase() == Phase::kAction && s.pending_size() == 0)
    return BestBuild(
        s, [seat](const State& x) { return ScoreAfterAction(x, seat); }, true);
  return ScoreAfterAction(s, seat);
}

// The same for a partner, by his own evaluation (he does not weigh his
// opponents the way the seat does); a development card's draw is left out,
// since its value would be averaged over a sampled deck.
double PartnerValue(const State& s, int partner) {
  if (s.CurrentPlayer() == partner && s.phase() == Phase::kAction && s.pending_size() == 0)
    return BestBuild(
        s, [partner](const State& x) { return Evaluate(x, partner); }, false);
  return Evaluate(s, partner);
}

// Everything the decisions need from the view and its samples.
class Trader {
 public:
  Trader(const View& view, const State& sampled, uint64_t* rng)
      : view_(view), s_(sampled), me_(view.viewer), rng_(rng) {}

  std::optional<Action> Offer();
  Action Answer(bool counters);
  Action Close();

 private:
  // The seat's gain (by SeatValue) of giving `give` to `partner` for `get`,
  // from the position of the first sample; -infinity if impossible.
  double MyGain(int partner, const CardCounts& give, const CardCounts& get);
  // The partner's mean gain over kPartnerSamples samples of his hidden hand,
  // and how much it costs the seat.
  double PartnerGain(int partner, const CardCounts& partner_gives, const CardCounts& partner_gets);
  // Cards of `hand` outside `keep` whose loss costs the hand least, greedily.
  CardCounts Cheapest(const CardCounts& hand, const CardCounts& keep, const CardCounts& avoid, int n) const;
  // The extra samples, drawn once.
  const std::vector<State>& Samples();
  bool Valid(const Action& a) const { return s_.CheckAction(a).empty(); }
  // The share of samples in which at least one of `addressees` would accept
  // `give` for `want` as these bots answer (Answer), the seat's own gain being
  // `my_gain`; *willing gets those who would in some sample. An offer goes
  // only to them, so that nobody is asked for what he plainly lacks or would
  // not give at that price.
  double AcceptChance(int addressees, const CardCounts& give, const CardCounts& want, double my_gain, int* willing);

  const View& view_;
  const State& s_;
  int me_;
  uint64_t* rng_;
  std::vector<State> samples_;
  bool sampled_ = false;
  double my_before_ = std::numeric_limits<double>::quiet_NaN();
};

const std::vector<State>& Trader::Samples() {
  if (sampled_) return samples_;
  sampled_ = true;
  samples_.push_back(s_);
  std::string error;
  for (int k = 1; k < kPartnerSamples; ++k) {
    State x = view_.state;
    const uint64_t seed = NextRandom(rng_);
    if (SampleState(view_, seed, &x, &error)) samples_.push_back(x);
  }
  return samples_;
}

double Trader::MyGain(int partner, const CardCounts& give, const CardCounts& get) {
  State after = s_;
  if (!Exchange(s_, me_, partner, give, get, &after)) return -std::numeric_limits<double>::infinity();
  if (my_before_ != my_before_) {
    State before = s_;
    Exchange(s_, me_, partner, CardCounts{}, CardCounts{}, &before);  // the trade closed, nothing exchanged
    my_before_ = SeatValue(before, me_);
  }
  return SeatValue(after, me_) - my_before_;
}

double Trader::PartnerGain(int partner, const CardCounts& partner_gives, const CardCounts& partner_gets) {
  double total = 0;
  int n = 0;
  for (const State& x : Samples()) {
    State before = x, after = x;
    if (!Exchange(x, partner, me_, CardCounts{}, CardCounts{}, &before) ||
        !Exchange(x, partner, me_, partner_gives, partner_gets, &after))
      continue;
    total += PartnerValue(after, partner) - PartnerValue(before, partner);
    ++n;
  }
  // No sample in which he can pay: he cannot take the trade either.
  return n ? total / n : 0;
}

CardCounts Trader::Cheapest(const CardCounts& hand, const CardCounts& keep, const CardCounts& avoid, int n) const {
  CardCounts out;
  State x = s_;
  StateEditor ed(&x);
  CardCounts& h = ed.player(me_).hand;
  h = hand;
  for (int i = 0; i < n; ++i) {
    int best = -1;
    double best_value = -1e18;
    for (int c = 0; c < kNumCardTypes; ++c) {
      if (h[c] <= keep[c] || avoid[c] > 0 || out[c] >= kMaxCardsPerTypeInOffer) continue;
      if (s_.options().ruleset == Ruleset::kBase && IsCommodity(c)) continue;
      --h[c];
      const double v = HandValue(x, me_);
      ++h[c];
      if (v > best_value + 1e-9) {
        best_value = v;
        best = c;
      }
    }
    if (best < 0) return CardCounts{};  // not enough to spare
    --h[best];
    ++out[best];
  }
  return out;
}

double Trader::AcceptChance(int addressees, const CardCounts& give, const CardCounts& want, double my_gain,
                            int* willing) {
  int yes = 0, n = 0;
  *willing = 0;
  for (const State& x : Samples()) {
    ++n;
    bool any = false;
    for (int q = 0; q < x.num_seats(); ++q) {
      if (!((addressees >> q) & 1) || !x.player(q).hand.Contains(want)) continue;
      State before = x, after = x;
      if (!Exchange(x, q, me_, CardCounts{}, CardCounts{}, &before) || !Exchange(x, q, me_, want, give, &after))
        continue;
      // As Answer weighs it from his seat: his hand's gain against the
      // offerer's, which the seat knows as its own.
      const double his_gain = Evaluate(after, q) - Evaluate(before, q);
      if (his_gain - Weight(x, q, me_, my_gain) * my_gain >= kAcceptGain) {
        any = true;
        *willing |= 1 << q;
      }
    }
    if (any) ++yes;
  }
  return n ? double(yes) / n : 0;
}

std::optional<Action> Trader::Offer() {
  const CardCounts& hand = s_.player(me_).hand;
  if (hand.Total() == 0) return std::nullopt;
  // To opponents not in reach of a win.
  int safe = 0;
  for (int o = 0; o < s_.num_seats(); ++o)
    if (o != me_ && !InReachOfWin(view_, o)) safe |= 1 << o;
  if (safe == 0) return std::nullopt;
  // Offers of a turn give at least as many cards more than they take as
  // offers were made before: the last one was declined, so the seat does not
  // repeat it, or its trade is done and this is a new need.
  const int floor_extra = s_.offers_this_turn();
  double best_value = 0;
  std::optional<Action> best;
  for (const Target& target : Targets(s_, me_)) {
    const CardCounts want = Minus(target.cost, hand);
    const int missing = want.Total();
    if (missing == 0 || missing > 2) continue;
    if (s_.options().ruleset == Ruleset::kBase && want.Commodities() > 0) continue;
    // The fairest price first: the gain only shrinks as the seat gives more.
    double upper = -1;
    for (int extra = floor_extra; extra <= kMaxExtraCards; ++extra) {
      const CardCounts give = Cheapest(hand, target.cost, want, missing + extra);
      if (give.Total() == 0) break;
      const double gain = MyGain(__builtin_ctz(safe), give, want);
      if (upper < 0) upper = gain;
      if (gain < kOfferGain) break;
      int willing = 0;
      const double chance = AcceptChance(safe, give, want, upper, &willing);
      if (chance < kMinAcceptChance) continue;
      const Action offer = Action::TradeOffer(give, want, willing);
      if (chance * gain > best_value && Valid(offer)) {
        best_value = chance * gain;
        best = offer;
      }
      if (chance >= 1) break;  // a sweeter offer gains nothing more
    }
  }
  return best;
}

Action Trader::Answer(bool counters) {
  const Action decline = Action::Make(ActionType::kTradeDecline);
  const int offerer = s_.current_seat();
  if (InReachOfWin(view_, offerer)) return decline;
  const TradeState& t = s_.trade();
  const CardCounts his_give = t.give.ToCounts(), his_want = t.want.ToCounts();
  // The objective of an exchange where the seat gives `mine` for `theirs`.
  auto objective = [&](const CardCounts& mine, const CardCounts& theirs, double* partner_gain) {
    const double g = MyGain(offerer, mine, theirs);
    if (g == -std::numeric_limits<double>::infinity()) return g;
    *partner_gain = PartnerGain(offerer, theirs, mine);
    return g - Weight(s_, me_, offerer, *partner_gain) * *partner_gain;
  };
  const bool can_accept =
      std::find(view_.legal.begin(), view_.legal.end(), Action::Make(ActionType::kTradeAccept)) != view_.legal.end();
  double partner_gain = 0;
  if (can_accept && objective(his_want, his_give, &partner_gain) >= kAcceptGain)
    return Action::Make(ActionType::kTradeAccept);
  if (!counters) return decline;

  // Counters: the cards he asked for with one more card of his; the cards he
  // asked for against what the seat misses for a build; or cards it can spare
  // in place of those he asked for.
  const CardCounts& hand = s_.player(me_).hand;
  std::vector<std::pair<CardCounts, CardCounts>> candidates;  // (seat gives, seat gets)
  for (int c = 0; c < kNumCardTypes; ++c) {
    if (his_want[c] > 0) continue;
    CardCounts more = his_give;
    ++more[c];
    candidates.push_back({his_want, more});
  }
  for (const Target& target : Targets(s_, me_)) {
    const CardCounts need = Minus(target.cost, hand);
    if (need.Total() == 0 || need.Total() > 2) continue;
    if (!SharesType(need, his_want)) candidates.push_back({his_want, need});
    const CardCounts spare = Cheapest(hand, target.cost, need, need.Total());
    if (spare.Total() > 0) candidates.push_back({spare, need});
  }
  const CardCounts spare = Cheapest(hand, CardCounts{}, his_give, his_want.Total());
  if (spare.Total() > 0) candidates.push_back({spare, his_give});

  double best_value = kCounterGain;
  std::optional<Action> best;
  for (const auto& [mine, theirs] : candidates) {
    if (!hand.Contains(mine) || theirs.Total() > view_.hand_total[offerer]) continue;
    const Action counter = Action::TradeCounter(mine, theirs);
    if (!Valid(counter)) continue;
    double gain = 0;
    const double value = objective(mine, theirs, &gain);
    // Only a counter he may want: one that helps him too.
    if (gain <= 0 || value <= best_value) continue;
    best_value = value;
    best = counter;
  }
  return best.value_or(decline);
}

Action Trader::Close() {
  const TradeState& t = s_.trade();
  Action choice = Action::Make(ActionType::kTradeCancel);
  double best = kAcceptGain;
  for (const Action& a : view_.legal) {
    if (a.type != ActionType::kTradeConfirm) continue;
    const int q = a.a;
    if (InReachOfWin(view_, q)) continue;
    const bool accepted = t.answer[q] == kAccepted;
    const CardCounts mine = accepted ? t.give.ToCounts() : t.counter_want[q].ToCounts();
    const CardCounts theirs = accepted ? t.want.ToCounts() : t.counter_give[q].ToCounts();
    const double g = MyGain(q, mine, theirs);
    if (g == -std::numeric_limits<double>::infinity()) continue;
    const double partner_gain = PartnerGain(q, theirs, mine);
    const double value = g - Weight(s_, me_, q, partner_gain) * partner_gain;
    if (value > best) {
      best = value;
      choice = a;
    }
  }
  return choice;
}

bool OffersLeft(const State& s) {
  return s.options().max_trade_offers_per_turn > 0 && s.offers_this_turn() < s.options().max_trade_offers_per_turn;
}

}  // namespace

bool ParseTradeMode(std::string_view value, TradeMode* mode, std::string* error) {
  if (value == "0") {
    *mode = TradeMode::kOff;
  } else if (value == "answer") {
    *mode = TradeMode::kAnswer;
  } else if (value == "1") {
    *mode = TradeMode::kOn;
  } else {
    *error = "trade must be 0, answer or 1, got '" + std::string(value) + "'";
    return false;
  }
  return true;
}

std::string_view TradeModeName(TradeMode mode) {
  switch (mode) {
    case TradeMode::kOff:
      return "0";
    case TradeMode::kAnswer:
      return "answer";
    case TradeMode::kOn:
      break;
  }
  return "1";
}

int WinReach(const State& state) { return state.options().ruleset == Ruleset::kBase ? 2 : 3; }

bool InReachOfWin(const View& view, int seat) {
  const State& s = view.state;
  // A hidden seat's vp in the view is his public count (BG-9).
  int vp = s.player(seat).vp;
  if (s.options().ruleset == Ruleset::kBase && view.Hidden(seat))
    vp += std::min<int>(view.dev_count[seat], view.unplaced_dev[kDevVictoryPoint]);
  return vp + WinReach(s) >= s.options().victory_points;
}

bool MayOfferOrCounter(const View& view, TradeMode mode) {
  if (mode != TradeMode::kOn) return false;
  const State& s = view.state;
  const Pending* top = Top(s);
  if (top != nullptr) return top->kind == PendingKind::kTradeAnswer && top->seat == view.viewer;
  return s.phase() == Phase::kAction && s.current_seat() == view.viewer && OffersLeft(s);
}

std::optional<Action> ChooseTrade(const View& view, const State& sampled, TradeMode mode, uint64_t* rng) {
  if (mode == TradeMode::kOff || view.legal.empty()) return std::nullopt;
  const State& s = view.state;
  const Pending* top = Top(s);
  Trader trader(view, sampled, rng);
  if (top != nullptr && top->seat == view.viewer) {
    if (top->kind == PendingKind::kTradeAnswer) return trader.Answer(mode == TradeMode::kOn);
    if (top->kind == PendingKind::kTradeClose) return trader.Close();
    return std::nullopt;
  }
  if (top == nullptr && mode == TradeMode::kOn && s.phase() == Phase::kAction && s.current_seat() == view.viewer &&
      OffersLeft(s))
    return trader.Offer();
  return std::nullopt;
}

}  // namespace metropolis::bots
