// The game state and its small API, shaped like OpenSpiel's State:
//
//   CurrentPlayer()   who acts next: a seat, kChancePlayer or kTerminalPlayer
//   LegalActions()    the acting seat's actions, sorted by Encode(), never
//                     empty for a seat; trade offers and counters are
//                     parameterised and never listed (IsParameterised)
//   ChanceOutcomes()  at a chance node, every outcome with its probability
//   Apply()           checks and applies one action; an illegal action gets an
//                     error naming the RULES.md rule and changes nothing
//   Returns()         at the end: 1 for the winner, 0 for the others
//
// Copying a State is the clone: it is a flat, trivially copyable block of a
// few hundred bytes with no pointers (DESIGN.md), so search copies it freely.
// A State holds no random generator: chance outcomes are supplied as actions.
//
// Pending decisions live on a small stack inside the state. A 7 with discards,
// a displaced knight, a pillaged city, an Aqueduct choice or a trade answer is
// pushed with the seat that decides it; automatic steps of a roll's
// resolution are pushed too and run as soon as they reach the top, so the
// order of RULES.md section 6 is the order of the stack.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/event.h"
#include "engine/progress.h"
#include "engine/types.h"

namespace metropolis {

inline constexpr int kChancePlayer = -2;
inline constexpr int kTerminalPlayer = -3;

// Caller-owned buffer for legal actions: no allocation on the hot path.
struct ActionList {
  static constexpr int kCapacity = 1024;
  // Left uninitialised: Action's member initialisers would otherwise write all
  // 1024 entries (16 KB) on every construction, and only [0, size) is read.
  // The union member is not constructed by the user-provided constructor;
  // Action is trivially copyable and destructible, so copies stay trivial.
  ActionList() {}
  int size = 0;
  union {
    std::array<Action, kCapacity> items;
  };
  void clear() { size = 0; }
  void push(const Action& a) { items[size++] = a; }
  const Action* begin() const { return items.data(); }
  const Action* end() const { return items.data() + size; }
};
static_assert(std::is_trivially_copyable_v<Action> && std::is_trivially_destructible_v<Action>,
              "ActionList's uninitialised storage relies on it");

struct ChanceOutcome {
  Action action;
  double probability;
};

enum class Phase : uint8_t {
  kSetup = 0,       // SET-2/SET-3: placement rounds
  kBeforeRoll = 1,  // TRN-2
  kAction = 2,      // TRN-6
  kGameOver = 3,
};

// One entry of the pending-decision stack. `kind` says what is pending; the
// meaning of a..d is given next to each kind.
enum class PendingKind : uint8_t {
  // Chance nodes.
  kStartPlayer = 0,  // SET-1 roll for the start player
  kDice,             // TRN-3; a = 1 if an Alchemist fixed the production dice
  kSteal,            // ROB-3; seat = thief, a = victim, b = 1 for resources only (D15, Bishop)
  kDraw,             // PD-2; seat = receiver, a = track
  // Automatic steps of a roll's resolution, run when they reach the top.
  kStepEvent,             // EVT-1/EVT-2
  kStepProduction,        // PRD-1..PRD-5 or SEV-1..SEV-3
  kStepAttack,            // BAR-2..BAR-9 (after fiesepeter commitments)
  kStepRobberAfterSeven,  // SEV-3
  kStepDraws,             // PD-2; a = track: queue the draws of eligible seats
  // Decisions of `seat`.
  kDiscard,          // SEV-2; a = cards still to discard
  kMoveRobber,       // ROB-2; a = 0 after a 7 or Bishop, 1 after a knight chase
  kRelocateKnight,   // KN-8; a = node it was displaced from, b = level, c = active
  kPillage,          // BAR-8
  kAqueduct,         // PRD-5
  kPlaceMetropolis,  // MET-2/MET-3; a = track
  kCommitKnights,    // BAR-12
  kDiscardProgress,  // PC-4
  kDefenderDeck,     // BAR-6
  kTradeAnswer,      // TRD-3 step 2
  kTradeClose,       // TRD-3 step 3
  kEndTurnDiscard,   // PC-4.3: discard a 5th progress card before the turn ends
  kStepEndTurn,      // TRN-7, after kEndTurnDiscard
  // Progress-card steps (section 13), decisions of `seat`.
  kRoadBuilding,        // C-S9; a = free roads left (PROGRESS_STOP ends early)
  kSmith,               // C-S10; a = free promotions left (the second is optional)
  kDiplomatReplace,     // C-P4; a = own roads that may be placed again
  kDeserterRemove,      // C-P3 step 1; seat = victim, a = the card's player
  kDeserterPlace,       // C-P3 step 2; a = level removed, b = 1 if it was active
  kSpyTake,             // C-P7; a = victim
  kMasterMerchantTake,  // C-T2; a = victim, b = cards still to take
  kWeddingGive,         // C-P9; seat = giver, a = receiver, b = cards still to give
  kCommercialHarbor,    // C-T1; the player offers or stops
  kHarborReturn,        // C-T1; seat = opponent, a = the card's player
  kDefenderTake,        // BAR-6 under ANY_CARD_OF_CHOSEN_DECK; a = track
  kStepReturnProgress,  // PC-6: the played card a goes under its deck once its effect is resolved
  // The base game (RULES.md 22).
  kDevDraw,  // BG-4, chance; seat = buyer: the top card of the development deck
};

// Chance nodes on the stack; every other entry is a seat's decision or an
// automatic step (automatic draws never stay on top, see Advance).
inline constexpr bool IsChancePending(PendingKind k) {
  return k == PendingKind::kStartPlayer || k == PendingKind::kDice || k == PendingKind::kSteal ||
         k == PendingKind::kDraw || k == PendingKind::kDevDraw;
}

struct Pending {
  PendingKind kind;
  int8_t seat;
  uint8_t a, b, c;
  bool operator==(const Pending&) const = default;
};

// Per-node bits.
enum NodeFlags : uint8_t {
  kWall = 1 << 0,
  kSabotaged = 1 << 1,  // saboteur=SABOTAGE_CITY only
};
enum KnightFlags : uint8_t {
  kKnightActive = 1 << 0,
  kKnightReady = 1 << 1,      // KN-6: may still act this turn
  kKnightPromoted = 1 << 2,   // KN-5: promoted this turn
  kKnightCommitted = 1 << 3,  // BAR-12
};

// A progress deck as a queue (PC-8): the never-seen part is a multiset whose
// order is chance when a card is drawn from it; cards returned to the bottom
// form a known queue behind it. `returned_hidden` marks queue entries whose
// identity only their discarder knows (PC-4 discards), as seat+1.
struct ProgressDeck {
  static constexpr int kCapacity = 20;
  std::array<uint8_t, 10> unseen{};  // copies per kind, indexed from TrackFirstCard
  uint8_t unseen_total = 0;
  uint8_t head = 0, size = 0;  // ring buffer of returned cards
  std::array<uint8_t, kCapacity> returned{};
  std::array<uint8_t, kCapacity> returned_hidden{};
  int Size() const { return unseen_total + size; }
  bool operator==(const ProgressDeck&) const = default;
};

struct PlayerState {
  CardCounts hand;                    // resources and commodities
  std::array<uint8_t, 8> progress{};  // non-VP progress cards, sorted, kNoProgressCard padded
  uint8_t num_progress = 0;
  uint8_t vp_cards = 0;                     // revealed VP cards (PD-4): bit 0 Printer, bit 1 Constitution
  uint8_t defender = 0;                     // Defender of Catan cards (BAR-5)
  std::array<uint8_t, kNumTracks> level{};  // improvement levels 0..5
  int8_t settlements_left = 5;              // may reach -1 (BAR-10)
  uint8_t cities_left = 4, roads_left = 15, walls_left = 3;
  std::array<uint8_t, kMaxKnightLevel> knights_left{2, 2, 2};  // supply per level 1..3
  uint8_t road_length = 0;                                     // longest trail (LR-1), kept current
  uint8_t vp = 0;                                              // running count, checked by Validate()
  uint8_t harbors = 0;  // bit t: a building at a harbor of type t (a resource, or kGenericHarbor), kept current
  uint64_t settlements = 0, cities = 0, knights = 0;  // node masks
  uint64_t roads_lo = 0, roads_hi = 0;                // edge mask: edges 0..63, 64..71
  uint64_t road_nodes = 0;                            // nodes at an end of one of these roads (DEF-3), kept current
  // Base game (RULES.md 22): development cards in hand per DevCard, victory
  // point cards included (hidden, BG-5), and Knights played (BG-6).
  std::array<uint8_t, kNumDevKinds> dev{};
  uint8_t army = 0;
  int DevTotal() const {
    int t = 0;
    for (uint8_t n : dev) t += n;
    return t;
  }
  bool HasRoad(int e) const { return e < 64 ? (roads_lo >> e) & 1 : (roads_hi >> (e - 64)) & 1; }
  uint64_t buildings() const { return settlements | cities; }
  bool operator==(const PlayerState&) const = default;
};

// Effects of progress cards that last until the end of the turn (TRN-7).
struct TurnEffects {
  uint8_t crane_discounts = 0;  // C-S2: unused discounts
  uint8_t cranes_played = 0;    // C-S2 under crane_limit=ONE_PER_TURN
  uint8_t fleet_cards = 0;      // C-T4: bit per card type traded 2:1
  uint8_t harbor_partners = 0;  // C-T1: bit per opponent already exchanged with
  bool operator==(const TurnEffects&) const = default;
};

// An open player-to-player trade (TRD-3).
struct TradeState {
  bool open = false;
  uint8_t addressees = 0;
  PackedCards give, want;                                             // from the current player's side
  std::array<uint8_t, kMaxSeats> answer{};                            // 0 none, 1 accept, 2 decline, 3 counter
  std::array<PackedCards, kMaxSeats> counter_give{}, counter_want{};  // from the answering seat's side
  bool operator==(const TradeState&) const = default;
};
enum TradeAnswer : uint8_t { kNoAnswer = 0, kAccepted = 1, kDeclined = 2, kCountered = 3 };

class State {
 public:
  // `config` must be valid (ValidateConfig); NewGame() checks it for you.
  explicit State(const GameConfig& config);
  // A fresh 4-seat game on the default board with default options.
  State();

  // ---- The small API -------------------------------------------------------
  // Inline: hosts, simulations and Apply itself ask on every step.
  int CurrentPlayer() const {
    if (phase_ == Phase::kGameOver) return kTerminalPlayer;
    if (pending_size_ > 0) {
      const Pending& p = pending_[pending_size_ - 1];
      return IsChancePending(p.kind) ? kChancePlayer : p.seat;
    }
    return phase_ == Phase::kSetup ? SetupSeat() : current_;
  }
  bool IsChanceNode() const { return CurrentPlayer() == kChancePlayer; }
  bool IsTerminal() const { return phase_ == Phase::kGameOver; }

  // Sorted by Encode(); non-empty whenever CurrentPlayer() is a seat.
  void LegalActions(ActionList* out) const;
  std::vector<Action> LegalActions() const;
  // Every chance outcome with its probability (they sum to 1), sorted.
  std::vector<ChanceOutcome> ChanceOutcomes() const;
  // One outcome drawn with `u` uniform in [0, 1): the same distribution as
  // ChanceOutcomes() without building the list (hosts and simulations).
  Action SampleChance(double u) const;

  // Empty if `action` is legal now; otherwise "RULE-ID: what is wrong".
  std::string CheckAction(const Action& action) const;
  // Checks, then applies. On an error nothing changes and the error is
  // returned. Events of the step are appended to `events` when given.
  std::string Apply(const Action& action, std::vector<Event>* events = nullptr);
  // Applies an action known to be legal (from LegalActions or ChanceOutcomes).
  void ApplyUnchecked(const Action& action, std::vector<Event>* events = nullptr);

  // 1 for the winner and 0 for everyone else; all 0 while the game runs or if
  // it hit the length cap without a winner.
  std::array<double, kMaxSeats> Returns() const;
  int Winner() const { return winner_; }  // kNoSeat unless won

  // Full consistency check (piece and card conservation, VP and Longest Road
  // recomputed from scratch, stack sanity). Empty when consistent.
  std::string Validate() const;

  // ---- Read access for views, notation, bots and tests ---------------------
  int num_seats() const { return num_seats_; }
  const RulesOptions& options() const { return options_; }
  const Board& board() const { return board_; }  // tokens may differ from the config (Inventor)
  Phase phase() const { return phase_; }
  int current_seat() const { return current_; }
  int start_seat() const { return start_; }
  const PlayerState& player(int seat) const { return players_[seat]; }
  int robber_hex() const { return robber_; }
  int merchant_hex() const { return merchant_hex_; }
  int merchant_owner() const { return merchant_owner_; }
  int barbarian_position() const { return barbarians_; }
  bool first_attack_done() const { return first_attack_done_; }
  int longest_road_holder() const { return longest_road_; }
  int metropolis_owner(int track) const { return metropolis_owner_[track]; }
  int metropolis_node(int track) const { return metropolis_node_[track]; }
  int road_owner(int edge) const { return road_owner_[edge]; }
  int building_owner(int node) const { return building_owner_[node]; }
  Building building(int node) const { return Building(building_[node]); }
  uint8_t node_flags(int node) const { return node_flags_[node]; }
  int metropolis_at(int node) const;  // track, or -1
  int knight_owner(int node) const { return knight_owner_[node]; }
  int knight_level(int node) const { return knight_level_[node]; }
  uint8_t knight_flags(int node) const { return knight_flags_[node]; }
  const std::array<int16_t, kNumCardTypes>& bank() const { return bank_; }
  const ProgressDeck& deck(int track) const { return decks_[track]; }
  int dice_yellow() const { return dice_yellow_; }
  int dice_red() const { return dice_red_; }
  int dice_event() const { return dice_event_; }
  int turn_number() const { return turn_; }
  uint32_t action_count() const { return actions_; }
  int setup_step() const { return setup_step_; }
  int last_setup_node() const { return last_setup_node_; }
  int offers_this_turn() const { return offers_this_turn_; }
  const TurnEffects& effects() const { return effects_; }
  const TradeState& trade() const { return trade_; }
  int pending_size() const { return pending_size_; }
  const Pending& pending(int i) const { return pending_[i]; }  // 0 = bottom
  int barbarian_attacks() const { return attacks_; }
  // Base game (RULES.md 22).
  const std::array<uint8_t, kNumDevKinds>& dev_deck() const { return dev_deck_; }            // unseen, per kind
  const std::array<uint8_t, kNumDevKinds>& dev_discarded() const { return dev_discarded_; }  // played, not knights
  const std::array<uint8_t, kNumDevKinds>& dev_bought() const { return dev_bought_; }  // this turn, current player
  bool dev_played_this_turn() const { return dev_played_; }
  int largest_army_holder() const { return largest_army_; }
  int DevDeckSize() const {
    int t = 0;
    for (uint8_t n : dev_deck_) t += n;
    return t;
  }
  // Hand limit on a 7 (SEV-2): 7 + 2 per wall on the board.
  int HandLimit(int seat) const;
  // Victory points recomputed from the pieces (section 17).
  int ComputeVictoryPoints(int seat) const;
  // Longest trail of a seat's roads recomputed from scratch (LR-1).
  int ComputeRoadLength(int seat) const;

  bool operator==(const State& o) const = default;

 private:
  friend class StateEditor;  // the notation parser builds states field by field
  friend struct RulesImpl;   // the rules, split over several .cc files

  int SetupSeat() const;  // SET-2/SET-3 snake order

  // Configuration copied into the state so that it needs no pointer back.
  RulesOptions options_;
  Board board_;
  uint8_t num_seats_ = 4;
  // Derived from the board: the coastal nodes of the harbors of each type
  // (a resource 0..4, or kGenericHarbor), for the bank's rates.
  std::array<uint64_t, kNumHarborTypes> harbor_nodes_{};

  Phase phase_ = Phase::kSetup;
  int8_t current_ = 0;
  int8_t start_ = 0;
  int8_t winner_ = kNoSeat;
  uint8_t setup_step_ = 0;       // 0 .. 4 * num_seats: building, road, building, road, ...
  int8_t last_setup_node_ = -1;  // the road of a setup pair must touch it
  uint16_t turn_ = 0;
  uint32_t actions_ = 0;

  // Board pieces.
  std::array<int8_t, kNumEdges> road_owner_;
  std::array<int8_t, kNumNodes> building_owner_;
  std::array<uint8_t, kNumNodes> building_;
  std::array<uint8_t, kNumNodes> node_flags_{};
  std::array<int8_t, kNumNodes> knight_owner_;
  std::array<uint8_t, kNumNodes> knight_level_{};
  std::array<uint8_t, kNumNodes> knight_flags_{};
  int8_t robber_ = 0;
  int8_t merchant_hex_ = -1, merchant_owner_ = kNoSeat;
  std::array<int8_t, kNumTracks> metropolis_owner_{kNoSeat, kNoSeat, kNoSeat};
  std::array<int8_t, kNumTracks> metropolis_node_{-1, -1, -1};
  int8_t longest_road_ = kNoSeat;

  // Barbarians and dice.
  uint8_t barbarians_ = 0;
  bool first_attack_done_ = false;
  uint16_t attacks_ = 0;
  uint8_t dice_yellow_ = 0, dice_red_ = 0, dice_event_ = 0;

  std::array<PlayerState, kMaxSeats> players_{};
  std::array<int16_t, kNumCardTypes> bank_{};
  std::array<ProgressDeck, kNumTracks> decks_{};

  // Turn-scoped bookkeeping (TRN-7 clears it).
  uint8_t offers_this_turn_ = 0;
  TurnEffects effects_;
  TradeState trade_;

  // Base game (RULES.md 22): the development deck's unseen cards, the played
  // non-knight cards, the cards the current player bought this turn (BG-5),
  // whether he played one this turn, and the Largest Army holder (BG-6).
  std::array<uint8_t, kNumDevKinds> dev_deck_{};
  std::array<uint8_t, kNumDevKinds> dev_discarded_{};
  std::array<uint8_t, kNumDevKinds> dev_bought_{};
  bool dev_played_ = false;
  int8_t largest_army_ = kNoSeat;

  // Pending decisions and automatic steps; top = pending_[pending_size_ - 1].
  static constexpr int kMaxPending = 24;
  uint8_t pending_size_ = 0;
  std::array<Pending, kMaxPending> pending_{};
};

static_assert(std::is_trivially_copyable_v<State>, "State must stay a flat block (copy = clone)");

// Creates the initial state, or returns the configuration's error in *error.
bool NewGame(const GameConfig& config, State* state, std::string* error);

}  // namespace metropolis
