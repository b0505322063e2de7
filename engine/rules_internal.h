// Internal helpers shared by the rules' .cc files. Not part of the API.
#pragma once

#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/state.h"
#include "engine/topology.h"

namespace metropolis {

// Iterates the set bits of a 64-bit mask.
#define METROPOLIS_FOR_BITS(var, mask)                                 \
  for (uint64_t _m_##var = (mask); _m_##var; _m_##var &= _m_##var - 1) \
    if (const int var = std::countr_zero(_m_##var); true)

static_assert(sizeof(Action) == 16 && offsetof(Action, type) == 0 && offsetof(Action, a) == 1 &&
                  offsetof(Action, b) == 2 && offsetof(Action, c) == 3 && offsetof(Action, give) == 4 &&
                  offsetof(Action, want) == 8 && offsetof(Action, addressees) == 12,
              "ActionWriter::push writes an Action as two words");

// Appends to an ActionList through an end pointer held in a register, and
// writes the size back when it goes out of scope. ActionList::push reloads and
// stores the size around every action, since an Action's bytes may alias it.
// Nothing else may append to the list while a writer on it lives.
class ActionWriter {
 public:
  explicit ActionWriter(ActionList* list) : list_(list), end_(list->items.data() + list->size) {}
  ActionWriter(const ActionWriter&) = delete;
  ActionWriter& operator=(const ActionWriter&) = delete;
  ~ActionWriter() { list_->size = int(end_ - list_->items.data()); }
  // Two 8-byte stores instead of one per field: the fields are put together in
  // registers (constants fold away for the listed, unparameterised actions).
  // The padding bytes are written as zeros.
  void push(const Action& a) {
    if constexpr (std::endian::native == std::endian::little) {
      const uint64_t lo = uint64_t(a.type) | uint64_t(a.a) << 8 | uint64_t(a.b) << 16 | uint64_t(a.c) << 24 |
                          uint64_t(a.give.bits) << 32;
      const uint64_t hi = uint64_t(a.want.bits) | uint64_t(a.addressees) << 32;
      std::memcpy(reinterpret_cast<unsigned char*>(end_), &lo, sizeof lo);
      std::memcpy(reinterpret_cast<unsigned char*>(end_) + 8, &hi, sizeof hi);
      ++end_;
    } else {
      *end_++ = a;
    }
  }

 private:
  ActionList* list_;
  Action* end_;
};

// Byte-parallel helpers for words of eight counts (CardCounts::Word(), byte c =
// card c). Counts stay below 128, so the high bit of each byte is free.
inline constexpr uint64_t kByteOnes = 0x0101010101010101ull;
inline constexpr uint64_t kByteHighs = 0x8080808080808080ull;
// Bit i of the result is the high bit of byte i of `highs` (other bits zero).
inline uint32_t GatherByteHighs(uint64_t highs) { return uint32_t(((highs >> 7) * 0x0102040810204080ull) >> 56); }
// Bytes of `x` at least the bytes of `y`, as bits (both below 128 per byte).
inline uint32_t BytesAtLeast(uint64_t x, uint64_t y) { return GatherByteHighs(((x | kByteHighs) - y) & kByteHighs); }
// 0xFF in byte i for each bit i of the 8-bit `bits`, 0 elsewhere.
inline uint64_t ByteMaskOfBits(uint32_t bits) {
  const uint64_t one_bit_per_byte = (uint64_t(bits & 0xFF) * kByteOnes) & 0x8040201008040201ull;
  return (((one_bit_per_byte + 0x7F7F7F7F7F7F7F7Full) & kByteHighs) >> 7) * 0xFF;
}

// Bit c set where counts[c] > 0: four 16-bit counts per word (the bank's, on
// every listing with a pair in hand).
inline uint32_t PositiveCounts(const std::array<int16_t, kNumCardTypes>& counts) {
  static_assert(kNumCardTypes == 8);
  auto four = [&counts](int first) {
    constexpr uint64_t kLow15 = 0x7FFF7FFF7FFF7FFFull, kSigns = 0x8000800080008000ull;
    uint64_t x;
    std::memcpy(&x, counts.data() + first, sizeof x);
    const uint64_t nonzero = ((((x & kLow15) + kLow15) | x) & kSigns);  // bit 15 of each nonzero count
    const uint64_t positive = (nonzero & ~x) >> 15;                     // bits 0, 16, 32, 48
    // Brings bits 0, 16, 32, 48 to 45..48 (the four products never overlap).
    return uint32_t((positive * 0x0000200040008001ull) >> 45) & 0xF;
  };
  return four(0) | four(4) << 4;  // written out: -O2 does not unroll a loop of two
}

struct RulesImpl {
  using Events = std::vector<Event>;

  // ---- Board queries --------------------------------------------------------
  // Inline: called on every listing and cheap enough to recompute. All four
  // seats are read, written out without a loop: a seat that does not play has
  // no pieces (Validate checks it), and -O2 does not unroll even a loop of four.
  static_assert(kMaxSeats == 4);
  static uint64_t AllBuildings(const State& s) {
    const auto& ps = s.players_;
    return ps[0].settlements | ps[0].cities | ps[1].settlements | ps[1].cities | ps[2].settlements | ps[2].cities |
           ps[3].settlements | ps[3].cities;
  }
  static uint64_t AllKnights(const State& s) {
    const auto& ps = s.players_;
    return ps[0].knights | ps[1].knights | ps[2].knights | ps[3].knights;
  }
  static uint64_t Occupied(const State& s) { return AllBuildings(s) | AllKnights(s); }
  // Nodes holding a piece of a player other than `seat` (DEF-4); no two
  // pieces share a node.
  static uint64_t BlockedFor(const State& s, int seat) {
    const PlayerState& own = s.players_[seat];
    return Occupied(s) & ~(own.settlements | own.cities | own.knights);
  }
  // Hexes carrying number token `token`, a bit per hex: the 19 tokens compared
  // eight at a time (a production roll asks on every turn).
  static uint64_t HexesWithToken(const Board& board, int token) {
    static_assert(kNumHexes > 16 && kNumHexes <= 24);
    // Three words read straight from the tokens, the last one ending at the
    // last hex (it overlaps the second; OR-ing the same bits twice is harmless).
    // Copying the 19 bytes to a padded local first cost a failed store
    // forwarding on every roll: the last word was read back across two stores.
    constexpr int kLast = kNumHexes - 8;
    std::array<uint64_t, 3> words;
    std::memcpy(&words[0], board.token.data(), 8);
    std::memcpy(&words[1], board.token.data() + 8, 8);
    std::memcpy(&words[2], board.token.data() + kLast, 8);
    constexpr uint64_t kOnes = 0x0101010101010101ull, kLow7 = 0x7F7F7F7F7F7F7F7Full;
    const uint64_t pattern = kOnes * uint64_t(token);
    auto matches = [pattern](uint64_t word) {
      const uint64_t x = word ^ pattern;  // zero bytes where the token matches
      const uint64_t nonzero = (((x & kLow7) + kLow7) | x) & ~kLow7;
      const uint64_t zero_bits = (~nonzero & ~kLow7) >> 7;  // bit 0 of each matching byte
      return (zero_bits * 0x0102040810204080ull) >> 56;
    };
    // Written out: -O2 does not unroll the three steps.
    return matches(words[0]) | matches(words[1]) << 8 | matches(words[2]) << kLast;
  }
  // Nodes at an end of one of the seat's roads (DEF-3).
  static uint64_t RoadNodes(const State& s, int seat);  // from scratch; PlayerState::road_nodes caches it
  static void ComputeHarborNodes(State& s);
  // Harbor types (bit t) of the harbors at any of `nodes`; PlayerState::harbors
  // caches it for the seat's buildings, since the bank's rates ask on every listing.
  static uint8_t HarborTypes(const State& s, uint64_t nodes) {
    uint8_t types = 0;
    for (int t = 0; t < kNumHarborTypes; ++t) types |= uint8_t(((nodes & s.harbor_nodes_[t]) != 0) << t);
    return types;
  }
  // Nodes reachable from `from` along the seat's roads (DEF-5/DEF-6), `from`
  // excluded; intermediate nodes blocked for the seat stop the path unless
  // knight_path_through_opponents.
  static uint64_t Reachable(const State& s, int seat, int from) {
    return Reachable(s.players_[seat], from, KnightBlocked(s, seat));
  }
  // The same with the blocked nodes given (several knights of one seat share
  // them): a search of whole frontiers as masks, each step the own roads at
  // the frontier's nodes from per-node edge masks.
  static uint64_t Reachable(const PlayerState& ps, int from, uint64_t blocked);
  static uint64_t KnightBlocked(const State& s, int seat) {
    return s.options_.knight_path_through_opponents ? 0 : BlockedFor(s, seat);
  }
  // Harbors the seat has a building on: bit h for harbor slot h.
  static uint32_t HarborMask(const State& s, int seat);
  // The bank's rates for a seat (TRD-2): byte c of to_resource / to_commodity
  // is what giving card c costs per card taken of that kind (D18 makes them
  // differ). Words laid out like CardCounts::Word(), so that listing compares a
  // hand with all eight rates at once. Computed once per legal-action generation.
  struct BankRates {
    uint64_t to_resource, to_commodity;
    int Rate(int give, int take) const {
      return give == take ? 0 : int(((IsResource(take) ? to_resource : to_commodity) >> (8 * give)) & 0xFF);
    }
  };
  static BankRates ComputeBankRates(const State& s, int seat);
  static int BankRate(const State& s, int seat, int give, int take) {
    if (IsBase(s)) return give == take ? 0 : BaseBankRate(s, seat, give);
    return ComputeBankRates(s, seat).Rate(give, take);
  }
  // The base game's rate for a resource (BG-3, TRD-2): 2:1 at its own harbor,
  // else 3:1 at a generic one, else 4:1. What ComputeBankRates gives when no
  // C&K card or improvement is in play, without its cost.
  static int BaseBankRate(const State& s, int seat, int give) {
    assert(IsResource(give));
    const uint8_t harbors = s.players_[seat].harbors;
    if ((harbors >> give) & 1) return 2;
    return ((harbors >> kGenericHarbor) & 1) ? 3 : 4;
  }
  static int CountCities(const State& s, int seat) { return std::popcount(s.players_[seat].cities); }
  static bool HasCityWithoutMetropolis(const State& s, int seat);
  static bool IsRobberLocked(const State& s);
  // A seat's active knights against the barbarians: their strength (BAR-3),
  // or how many there are (D16 with defender_by_knight_count).
  enum class KnightMeasure { kStrength, kCount };
  static int Contribution(const State& s, int seat, KnightMeasure measure);
  // The seat k places after `seat` (0 <= k < num_seats), by a compare instead
  // of a division: asked on every turn and for every seat of a roll's steps.
  static int SeatAfter(const State& s, int seat, int k) {
    const int q = seat + k;
    return q >= s.num_seats_ ? q - s.num_seats_ : q;
  }
  static int NextSeat(const State& s, int seat) { return SeatAfter(s, seat, 1); }
  static int SetupSeat(const State& s, int step);
  static int ProgressLimit(const State& s, int seat);
  static bool CanBuyImprovement(const State& s, int seat, int track);

  // ---- Legal actions --------------------------------------------------------
  static void LegalSetup(const State& s, ActionList* out);
  static void LegalActionPhase(const State& s, ActionList* out);
  static void LegalPending(const State& s, const Pending& p, ActionList* out);
  static void LegalRobberMoves(const State& s, int seat, bool chase, ActionList* out);

  // ---- Progress cards (rules_progress*.cc) ---------------------------------
  static void LegalPlays(const State& s, ActionList* out);  // PLAY_PROGRESS of the current player
  static void LegalAlchemist(const State& s, ActionList* out);
  static void LegalProgressStep(const State& s, const Pending& p, ActionList* out);
  static bool IsProgressStep(PendingKind k);
  static void ApplyPlay(State& s, const Action& a, Events* ev);
  static void ApplyProgressStep(State& s, const Action& a, Events* ev);
  // Edges where the seat may build a road now (BLD-1), cost and supply ignored.
  static void RoadEdges(const State& s, int seat, uint64_t* lo, uint64_t* hi);
  // KN-5 without the cost: level, once per turn, supply, Fortress.
  // Inline: asked for every knight on every listing.
  static bool CanPromote(const State& s, int seat, int v) {
    if (s.knight_owner_[v] != seat) return false;
    const int level = s.knight_level_[v];
    if (level >= kMaxKnightLevel || (s.knight_flags_[v] & kKnightPromoted)) return false;
    if (s.players_[seat].knights_left[level] == 0) return false;            // next level's piece
    if (level == 2 && s.players_[seat].level[kPolitics] < 3) return false;  // IMP-7 Fortress
    return true;
  }
  static bool IsOpenRoad(const State& s, int edge);                   // DEF-8
  static void OpenRoads(const State& s, uint64_t* lo, uint64_t* hi);  // all open roads, as IsOpenRoad
  static void RemoveRoad(State& s, int edge, Events* ev);
  static void DisplaceBy(State& s, int node, Events* ev);  // KN-8 steps 2-3 for the knight at node
  static void Transfer(State& s, int from, int to, int card, int n) {
    s.players_[from].hand[card] = uint8_t(s.players_[from].hand[card] - n);
    s.players_[to].hand[card] = uint8_t(s.players_[to].hand[card] + n);
  }

  // ---- The base game (rules_base.cc, RULES.md 22) --------------------------
  static bool IsBase(const State& s) { return s.options_.ruleset == Ruleset::kBase; }
  static bool CanPlayDev(const State& s, int dev);
  // Five per-kind counts of development cards as one word (byte k = kind k).
  static uint64_t DevWord(const std::array<uint8_t, kNumDevKinds>& dev) {
    uint64_t w = 0;
    std::memcpy(&w, dev.data(), kNumDevKinds);
    return w;
  }
  // BUY_DEV (action phase only) and PLAY_DEV of the current player.
  static void LegalDevCards(const State& s, bool action_phase, ActionList* out);
  // The base game's action phase after building: bank trades and dev cards.
  static void LegalBaseTail(const State& s, ActionList* out);
  static void ApplyDev(State& s, const Action& a, Events* ev);
  static void UpdateLargestArmy(State& s, Events* ev);

  // ---- Checking (rules_check.cc) -------------------------------------------
  static std::string Explain(const State& s, const Action& a);
  // A refused PLAY_PROGRESS of a held card: its id and the failing condition (rules_check_progress.cc).
  static std::string ExplainPlay(const State& s, const Action& a);
  static std::string CheckTrade(const State& s, const Action& a);

  // ---- Applying -------------------------------------------------------------
  // The small helpers below run on every step: inline, and events are only
  // built when someone asked for them.
  static void Pay(State& s, int seat, const CardCounts& cost, Events* ev);
  static void Gain(State& s, int seat, int card, int n) {
    s.players_[seat].hand[card] = uint8_t(s.players_[seat].hand[card] + n);
    s.bank_[card] = int16_t(s.bank_[card] - n);
  }
  static void Push(State& s, PendingKind kind, int seat, int a = 0, int b = 0, int c = 0) {
    assert(s.pending_size_ < State::kMaxPending);
    s.pending_[s.pending_size_++] = Pending{kind, int8_t(seat), uint8_t(a), uint8_t(b), uint8_t(c)};
  }
  static Pending Pop(State& s) {
    assert(s.pending_size_ > 0);
    const Pending p = s.pending_[--s.pending_size_];
    s.pending_[s.pending_size_] = Pending{};  // keep equal states byte-equal
    return p;
  }
  static void Emit(Events* ev, EventType t, int seat, int a = 0, int b = 0, int c = 0, int other = -1,
                   uint8_t private_to = 0) {
    if (ev) EmitEvent(ev, t, seat, a, b, c, other, private_to);
  }
  static void EmitEvent(Events* ev, EventType t, int seat, int a, int b, int c, int other, uint8_t private_to);
  static void AddVp(State& s, int seat, int delta) { s.players_[seat].vp = uint8_t(s.players_[seat].vp + delta); }

  // The action's own event, the first of a step (section 18 says who sees it).
  static void RecordAction(const State& s, const Action& action, Events* events);
  static void ApplySetup(State& s, const Action& a, Events* ev);
  static void ApplyActionPhase(State& s, const Action& a, Events* ev);
  static void ApplyPending(State& s, const Action& a, Events* ev);
  static void ApplyChance(State& s, const Action& a, Events* ev);
  // Runs automatic steps on top of the stack until a decision or chance node
  // is on top, or the stack is empty.
  // Inline for the common cases: nothing on the stack, or a decision or chance
  // node on top (AdvanceSteps would return at once).
  static void Advance(State& s, Events* ev) {
    if (s.pending_size_ > 0 && MayAdvance(s.pending_[s.pending_size_ - 1].kind)) AdvanceSteps(s, ev);
  }
  // The kinds AdvanceSteps acts on when they are on top (its switch's cases).
  static bool MayAdvance(PendingKind k) {
    constexpr auto bit = [](PendingKind kind) { return uint64_t(1) << int(kind); };
    constexpr uint64_t kKinds =
        bit(PendingKind::kStepEvent) | bit(PendingKind::kStepProduction) | bit(PendingKind::kStepAttack) |
        bit(PendingKind::kStepRobberAfterSeven) | bit(PendingKind::kStepDraws) | bit(PendingKind::kDraw) |
        bit(PendingKind::kStepEndTurn) | bit(PendingKind::kStepReturnProgress) | bit(PendingKind::kRoadBuilding) |
        bit(PendingKind::kSmith) | bit(PendingKind::kDiplomatReplace) | bit(PendingKind::kDeserterPlace) |
        bit(PendingKind::kCommercialHarbor);
    static_assert(int(PendingKind::kDevDraw) < 64);
    return (kKinds >> int(k)) & 1;
  }
  static void AdvanceSteps(State& s, Events* ev);
  static void RunEvent(State& s, Events* ev);
  static void RunProduction(State& s, Events* ev);
  static std::array<int, kMaxSeats> ProducedBy(const State& s, int sum);  // CardsProducedBy (production.h)
  static void RunAttack(State& s, Events* ev);
  static void EndTurn(State& s, Events* ev);
  static void GiveProgress(State& s, int seat, int card, Events* ev);
  static void DrawFromReturned(State& s, int seat, int track, Events* ev);
  static void ReturnProgress(State& s, int card, int hidden_seat);
  static void RemoveProgress(State& s, int seat, int card);

  // Pieces.
  static void PlaceRoad(State& s, int seat, int edge, Events* ev);
  static void PlaceSettlement(State& s, int seat, int node, Events* ev);
  static void PlaceCity(State& s, int seat, int node, Events* ev);  // from a settlement or (setup) directly
  static void PlaceKnight(State& s, int seat, int node, int level, uint8_t flags, Events* ev);
  static void RemoveKnight(State& s, int node);  // to supply, no road update
  static void AfterBoardChange(State& s, uint64_t touched_nodes, int road_owner, Events* ev);
  static void UpdateLongestRoad(State& s, Events* ev);
  // The seat's longest trail (LR-1), as State::ComputeRoadLength; with
  // `through` an edge of the seat's, the longest within that edge's component.
  static int LongestTrail(const State& s, int seat, int through);
  // TRN-8/WIN-1, after every step: only the current player wins, during his
  // own turn. Inline for the common case of nobody at the target.
  static void CheckWin(State& s, Events* ev) {
    if (s.phase_ != Phase::kBeforeRoll && s.phase_ != Phase::kAction) return;
    if (s.players_[s.current_].vp >= s.options_.victory_points) EndWon(s, ev);
  }
  static void EndWon(State& s, Events* ev);
  static void RevealDevCards(const State& s, Events* ev);  // BG-9, when the game ends
  static void ClearPending(State& s);                      // the game ended
};

}  // namespace metropolis
