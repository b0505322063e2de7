// Internal helpers shared by the rules' .cc files. Not part of the API.
#pragma once

#include <bit>
#include <cassert>
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

struct RulesImpl {
  using Events = std::vector<Event>;

  // ---- Board queries --------------------------------------------------------
  // Inline: called on every listing and cheap enough to recompute. All four
  // seats are read without a loop: a seat that does not play has no pieces
  // (Validate checks it), and a fixed count lets the compiler unroll.
  static uint64_t AllBuildings(const State& s) {
    uint64_t m = 0;
    for (int p = 0; p < kMaxSeats; ++p) m |= s.players_[p].settlements | s.players_[p].cities;
    return m;
  }
  static uint64_t AllKnights(const State& s) {
    uint64_t m = 0;
    for (int p = 0; p < kMaxSeats; ++p) m |= s.players_[p].knights;
    return m;
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
    std::array<uint64_t, 3> words{};  // the last one padded with zeros
    std::memcpy(words.data(), board.token.data(), kNumHexes);
    constexpr uint64_t kOnes = 0x0101010101010101ull, kLow7 = 0x7F7F7F7F7F7F7F7Full;
    const uint64_t pattern = kOnes * uint64_t(token);
    uint64_t hexes = 0;
    for (int i = 0; i < 3; ++i) {
      const uint64_t x = words[i] ^ pattern;  // zero bytes where the token matches
      const uint64_t nonzero = (((x & kLow7) + kLow7) | x) & ~kLow7;
      const uint64_t zero_bits = (~nonzero & ~kLow7) >> 7;  // bit 0 of each matching byte
      hexes |= ((zero_bits * 0x0102040810204080ull) >> 56) << (8 * i);
    }
    return hexes & ((uint64_t(1) << kNumHexes) - 1);  // the padding bytes are not hexes
  }
  // Nodes at an end of one of the seat's roads (DEF-3).
  static uint64_t RoadNodes(const State& s, int seat);  // from scratch; PlayerState::road_nodes caches it
  static void ComputeHarborNodes(State& s);
  // Nodes reachable from `from` along the seat's roads (DEF-5/DEF-6), `from`
  // excluded; intermediate nodes blocked for the seat stop the path unless
  // knight_path_through_opponents.
  static uint64_t Reachable(const State& s, int seat, int from);
  // The same for several knights of one seat: the seat's road graph as one
  // neighbour mask per node, built once (only the entries of road_nodes are
  // written), then a search of whole frontiers as masks.
  struct RoadAdjacency {
    std::array<uint64_t, kNumNodes> next;
    uint64_t nodes, blocked;
  };
  static void BuildRoadAdjacency(const State& s, int seat, RoadAdjacency* adj);
  static uint64_t Reachable(const RoadAdjacency& adj, int from);
  // Harbors the seat has a building on: bit h for harbor slot h.
  static uint32_t HarborMask(const State& s, int seat);
  // The bank's rates for a seat (TRD-2): to_resource[c] / to_commodity[c] is
  // what giving card c costs per card taken of that kind (D18 makes them
  // differ). Computed once per legal-action generation.
  struct BankRates {
    std::array<uint8_t, kNumCardTypes> to_resource, to_commodity;
    int Rate(int give, int take) const {
      return give == take ? 0 : IsResource(take) ? to_resource[give] : to_commodity[give];
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
    const uint64_t buildings = s.players_[seat].buildings();
    if (buildings & s.harbor_nodes_[give]) return 2;
    return (buildings & s.harbor_nodes_[kGenericHarbor]) ? 3 : 4;
  }
  static int CountCities(const State& s, int seat) { return std::popcount(s.players_[seat].cities); }
  static bool HasCityWithoutMetropolis(const State& s, int seat);
  static bool IsRobberLocked(const State& s);
  static int Contribution(const State& s, int seat, bool count_knights);
  static int NextSeat(const State& s, int seat) { return (seat + 1) % s.num_seats_; }
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
  static bool CanPromote(const State& s, int seat, int node);
  static bool IsOpenRoad(const State& s, int edge);  // DEF-8
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

  static void ApplySetup(State& s, const Action& a, Events* ev);
  static void ApplyActionPhase(State& s, const Action& a, Events* ev);
  static void ApplyPending(State& s, const Action& a, Events* ev);
  static void ApplyChance(State& s, const Action& a, Events* ev);
  // Runs automatic steps on top of the stack until a decision or chance node
  // is on top, or the stack is empty.
  // Inline for the common case of nothing on the stack.
  static void Advance(State& s, Events* ev) {
    if (s.pending_size_ > 0) AdvanceSteps(s, ev);
  }
  static void AdvanceSteps(State& s, Events* ev);
  static void RunEvent(State& s, Events* ev);
  static void RunProduction(State& s, Events* ev);
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
