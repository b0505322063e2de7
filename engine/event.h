// Events: what happened in one step, beyond the action itself (RULES.md 18).
//
// Every applied action first emits kAction; automatic consequences follow
// (production, discards requested, barbarian attacks, Longest Road changes,
// ...). An event whose card identity is private carries `private_to`, a mask of
// the seats that see the identity; every other seat sees the event with the
// card replaced by kHiddenCard (MaskEvent). Views and observation logs are
// built from these events; the State itself keeps no history.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"

namespace metropolis {

inline constexpr uint8_t kHiddenCard = 0xFE;

enum class EventType : uint8_t {
  kAction = 0,           // seat = actor (-2 chance), action = what was applied
  kProduced,             // seat received n = a of card b (PRD-1)
  kBankShortage,         // nobody received card b (PRD-4)
  kBarbariansAdvance,    // a = new position
  kBarbarianAttack,      // a = barbarian strength, b = Catan strength, c = 1 if Catan won
  kDefender,             // seat received a Defender of Catan card
  kCityPillaged,         // seat lost the city at node a
  kMustDiscard,          // seat must discard a cards (SEV-2)
  kStole,                // seat stole card b from seat `other` (private to both)
  kProgressDrawn,        // seat drew progress card b from deck a (private to seat)
  kVictoryCardRevealed,  // seat revealed progress card b (PD-4)
  kKnightRemoved,        // seat's knight at node a went back to supply (KN-8 step 3)
  kLongestRoad,          // seat (or -1) now holds Longest Road
  kMetropolis,           // seat owns track a's metropolis at node b
  kTradeExecuted,        // seat and `other` exchanged (action holds give/want)
  kGameOver,             // seat won (or -1 at the length cap)
  // Progress cards (section 13) and the card movements views need (RULES.md 18).
  kPaid,            // seat paid a cards of type b to the bank (costs, bank trades, discards)
  kCardGiven,       // seat gave a cards of type b to `other` (Wedding, Commercial Harbor, Master
                    // Merchant, monopolies); private to both except for monopolies
  kProgressSeen,    // seat saw that `other` holds progress card b (Spy); private to seat
  kHandSeen,        // seat saw that `other` holds a cards of type b (Master Merchant); private to seat
  kProgressTaken,   // seat took progress card b from `other` (Spy); private to both
  kTokensSwapped,   // Inventor: the tokens of hexes a and b swapped
  kKnightDeserted,  // seat's knight at node a went back to the supply (Deserter)
  kRoadRemoved,     // seat's road at edge a went back to the supply (Diplomat)
  kMerchantPlaced,  // seat owns the merchant, now on hex a
  kCitySabotaged,   // seat's city at node a was sabotaged (b = 1) or repaired (b = 0)
  // The base game (RULES.md 22).
  kLargestArmy,  // seat (or -1) now holds Largest Army (BG-6)
  kDevRevealed,  // the game ended: seat shows a victory point cards (BG-9)
  // After kBarbarianAttack, one per seat in seat order: the seat's share of
  // Catan's strength, a = its active (under fiesepeter, committed) knights'
  // strength (BAR-3). The attack's victims and defenders follow from these.
  kBarbarianShare,
};
// Event types are 0 .. kNumEventTypes - 1; a new one goes at the end, here, in
// EventTypeName and in the protocol reference (engine/protocol_reference.cc).
inline constexpr int kNumEventTypes = int(EventType::kBarbarianShare) + 1;
// "action", "produced", ..., "dev_revealed": the proto's EVENT_ names in lower
// case without the prefix; "?" for a value that names no event type.
std::string_view EventTypeName(EventType t);

struct Event {
  EventType type = EventType::kAction;
  int8_t seat = -1;
  int8_t other = -1;
  uint8_t a = 0, b = 0, c = 0;
  uint8_t private_to = 0;  // 0: fully public
  Action action;           // kAction and kTradeExecuted only
};

// The event as seat `viewer` (or -1 for a spectator) may see it.
Event MaskEvent(const Event& e, int viewer);

// Actions whose `a` is a card only some seats may see (RULES.md 18): a random
// steal, a draw from an unseen deck (a development card's too, BG-9), a
// progress card put back face down, and the cards chosen and handed over by
// Spy, Master Merchant, Wedding, Commercial Harbor and a Defender tie under
// ANY_CARD_OF_CHOSEN_DECK.
// The one list: clients that decode masked events (lib/protocol) ask this too.
bool ActionHidesCard(ActionType t);
std::string EventToString(const Event& e);

// The events of one step (as Apply appends them, the kAction first), each as
// text in the context of the step: a chance outcome says whom it concerns (who
// draws a progress card, who steals from whom), cards paid for a DISCARD read
// as discarded, and a barbarian attack names the seats that defended. One
// string per event, in order; the events may be masked for a viewer first.
std::vector<std::string> StepEventTexts(const std::vector<Event>& events);

}  // namespace metropolis
