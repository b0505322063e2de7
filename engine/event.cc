#include "engine/event.h"

#include "engine/progress.h"

namespace metropolis {
namespace {

bool SeesPrivate(const Event& e, int viewer) {
  if (e.private_to == 0) return true;
  return viewer >= 0 && viewer < kMaxSeats && ((e.private_to >> viewer) & 1);
}

std::string SeatText(int seat) { return "seat " + std::to_string(seat); }

std::string CardText(int card) { return card == kHiddenCard ? "?" : std::string(CardName(card)); }

std::string ProgressText(int card) { return card == kHiddenCard ? "?" : std::string(ProgressCardName(card)); }

std::string CountText(int n) { return n == kHiddenCard ? "?" : std::to_string(n); }

// "2brick 1wool", or "nothing".
std::string CardsText(PackedCards cards) {
  std::string s;
  for (int c = 0; c < kNumCardTypes; ++c) {
    if (cards.Get(c) == 0) continue;
    if (!s.empty()) s += ' ';
    s += std::to_string(cards.Get(c)) + std::string(CardName(c));
  }
  return s.empty() ? "nothing" : s;
}

}  // namespace

bool ActionHidesCard(ActionType t) {
  switch (t) {
    case ActionType::kChanceSteal:
    case ActionType::kChanceDraw:
    case ActionType::kChanceDev:
    case ActionType::kDiscardProgress:
    case ActionType::kTakeProgress:
    case ActionType::kTakeCard:
    case ActionType::kGiveCard:
      return true;
    default:
      return false;
  }
}

Event MaskEvent(const Event& e, int viewer) {
  Event masked = e;
  if (SeesPrivate(e, viewer)) return masked;
  switch (e.type) {
    case EventType::kStole:
    case EventType::kProgressDrawn:
    case EventType::kCardGiven:
    case EventType::kProgressSeen:
    case EventType::kProgressTaken:
      masked.b = kHiddenCard;
      break;
    case EventType::kHandSeen:
      // The count too: "3 of some type" is something only the looker learnt.
      masked.a = kHiddenCard;
      masked.b = kHiddenCard;
      break;
    case EventType::kAction:
      if (ActionHidesCard(e.action.type)) masked.action.a = kHiddenCard;
      break;
    default:
      break;
  }
  return masked;
}

std::string_view EventTypeName(EventType t) {
  switch (t) {
    case EventType::kAction:
      return "action";
    case EventType::kProduced:
      return "produced";
    case EventType::kBankShortage:
      return "bank_shortage";
    case EventType::kBarbariansAdvance:
      return "barbarians_advance";
    case EventType::kBarbarianAttack:
      return "barbarian_attack";
    case EventType::kDefender:
      return "defender";
    case EventType::kCityPillaged:
      return "city_pillaged";
    case EventType::kMustDiscard:
      return "must_discard";
    case EventType::kStole:
      return "stole";
    case EventType::kProgressDrawn:
      return "progress_drawn";
    case EventType::kVictoryCardRevealed:
      return "victory_card_revealed";
    case EventType::kKnightRemoved:
      return "knight_removed";
    case EventType::kLongestRoad:
      return "longest_road";
    case EventType::kMetropolis:
      return "metropolis";
    case EventType::kTradeExecuted:
      return "trade_executed";
    case EventType::kGameOver:
      return "game_over";
    case EventType::kPaid:
      return "paid";
    case EventType::kCardGiven:
      return "card_given";
    case EventType::kProgressSeen:
      return "progress_seen";
    case EventType::kHandSeen:
      return "hand_seen";
    case EventType::kProgressTaken:
      return "progress_taken";
    case EventType::kTokensSwapped:
      return "tokens_swapped";
    case EventType::kKnightDeserted:
      return "knight_deserted";
    case EventType::kRoadRemoved:
      return "road_removed";
    case EventType::kMerchantPlaced:
      return "merchant_placed";
    case EventType::kCitySabotaged:
      return "city_sabotaged";
    case EventType::kLargestArmy:
      return "largest_army";
    case EventType::kDevRevealed:
      return "dev_revealed";
    case EventType::kBarbarianShare:
      return "barbarian_share";
  }
  return "?";
}

std::string EventToString(const Event& e) {
  switch (e.type) {
    case EventType::kAction:
      return (e.seat == -2 ? std::string("chance") : SeatText(e.seat)) + ": " + ActionToString(e.action);
    case EventType::kProduced:
      return SeatText(e.seat) + " produced " + std::to_string(e.a) + " " + CardText(e.b);
    case EventType::kBankShortage:
      return "bank shortage: nobody receives " + CardText(e.b);
    case EventType::kBarbariansAdvance:
      return "barbarians advance to " + std::to_string(e.a);
    case EventType::kBarbarianAttack:
      return "barbarians attack: barbarians " + std::to_string(e.a) + " vs Catan " + std::to_string(e.b) +
             (e.c ? ", Catan wins" : ", barbarians win");
    case EventType::kDefender:
      return SeatText(e.seat) + " receives a Defender of Catan card";
    case EventType::kCityPillaged:
      return SeatText(e.seat) + " lost the city at n" + std::to_string(e.a);
    case EventType::kMustDiscard:
      return SeatText(e.seat) + " must discard " + std::to_string(e.a) + (e.a == 1 ? " card" : " cards");
    case EventType::kStole:
      return SeatText(e.seat) + " stole " + CardText(e.b) + " from " + SeatText(e.other);
    case EventType::kProgressDrawn:
      return SeatText(e.seat) + " drew " + ProgressText(e.b) + " from the " + std::string(TrackName(e.a)) + " deck";
    case EventType::kVictoryCardRevealed:
      return SeatText(e.seat) + " revealed " + ProgressText(e.b);
    case EventType::kKnightRemoved:
      return SeatText(e.seat) + "'s knight at n" + std::to_string(e.a) + " went back to supply";
    case EventType::kLongestRoad:
      return e.seat < 0 ? "nobody holds Longest Road" : SeatText(e.seat) + " holds Longest Road";
    case EventType::kMetropolis:
      if (e.seat < 0) return "nobody owns the " + std::string(TrackName(e.a)) + " metropolis";
      return SeatText(e.seat) + " owns the " + std::string(TrackName(e.a)) + " metropolis at n" + std::to_string(e.b);
    case EventType::kTradeExecuted:
      return SeatText(e.seat) + " gave " + CardsText(e.action.give) + " to " + SeatText(e.other) + " for " +
             CardsText(e.action.want);
    case EventType::kGameOver:
      return e.seat < 0 ? "game over: action limit reached, nobody wins" : "game over: " + SeatText(e.seat) + " wins";
    case EventType::kPaid:
      return SeatText(e.seat) + " paid " + std::to_string(e.a) + " " + CardText(e.b);
    case EventType::kCardGiven:
      return SeatText(e.seat) + " gave " + std::to_string(e.a) + " " + CardText(e.b) + " to " + SeatText(e.other);
    case EventType::kProgressSeen:
      return SeatText(e.seat) + " saw " + ProgressText(e.b) + " in the progress hand of " + SeatText(e.other);
    case EventType::kHandSeen:
      return SeatText(e.seat) + " saw " + CountText(e.a) + " " + CardText(e.b) + " in the hand of " + SeatText(e.other);
    case EventType::kProgressTaken:
      return SeatText(e.seat) + " took " + ProgressText(e.b) + " from " + SeatText(e.other);
    case EventType::kTokensSwapped:
      return "the number tokens of h" + std::to_string(e.a) + " and h" + std::to_string(e.b) + " swapped";
    case EventType::kKnightDeserted:
      return SeatText(e.seat) + "'s knight at n" + std::to_string(e.a) + " deserted to supply";
    case EventType::kRoadRemoved:
      return SeatText(e.seat) + "'s road at e" + std::to_string(e.a) + " went back to supply";
    case EventType::kMerchantPlaced:
      return SeatText(e.seat) + " owns the merchant on h" + std::to_string(e.a);
    case EventType::kCitySabotaged:
      return SeatText(e.seat) + "'s city at n" + std::to_string(e.a) + (e.b ? " was sabotaged" : " was repaired");
    case EventType::kLargestArmy:
      return e.seat < 0 ? "nobody holds Largest Army" : SeatText(e.seat) + " holds Largest Army";
    case EventType::kDevRevealed:
      return SeatText(e.seat) + " shows " + std::to_string(e.a) + " victory point card(s)";
    case EventType::kBarbarianShare:
      return SeatText(e.seat) + " defended with strength " + std::to_string(e.a);
  }
  return "unknown event " + std::to_string(int(e.type));
}

std::vector<std::string> StepEventTexts(const std::vector<Event>& events) {
  std::vector<std::string> out;
  out.reserve(events.size());
  const Event* step = !events.empty() && events[0].type == EventType::kAction ? &events[0] : nullptr;
  const bool discard = step && step->action.type == ActionType::kDiscard;
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    std::string text = EventToString(e);
    if (e.type == EventType::kAction && e.seat == -2) {
      // The outcome's own event, later in the step, names the seats.
      for (size_t j = i + 1; j < events.size(); ++j) {
        const Event& f = events[j];
        if (f.type == EventType::kProgressDrawn && e.action.type == ActionType::kChanceDraw) {
          text += " (" + SeatText(f.seat) + " draws from the " + std::string(TrackName(f.a)) + " deck)";
          break;
        }
        if (f.type == EventType::kStole && e.action.type == ActionType::kChanceSteal) {
          text += " (" + SeatText(f.seat) + " steals from " + SeatText(f.other) + ")";
          break;
        }
      }
    } else if (e.type == EventType::kPaid && discard) {
      text = SeatText(e.seat) + " discarded " + std::to_string(e.a) + " " + CardText(e.b);
    } else if (e.type == EventType::kBarbarianAttack) {
      std::string defenders;
      for (size_t j = i + 1; j < events.size(); ++j)
        if (events[j].type == EventType::kDefender)
          defenders += (defenders.empty() ? "" : ", ") + SeatText(events[j].seat);
      if (!defenders.empty()) text += "; defended best: " + defenders;
    }
    out.push_back(std::move(text));
  }
  return out;
}

}  // namespace metropolis
