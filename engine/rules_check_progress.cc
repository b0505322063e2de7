// Explaining a refused progress-card play (PC-7, RULES.md section 13): the
// card's own id and the precondition or parameter that fails. Legality is
// decided by LegalPlays (rules_progress.cc); this only words the refusal, and
// checks the conditions in the order a reader of section 13 would.
#include <string>

#include "engine/rules_internal.h"

namespace metropolis {

namespace {

std::string Node(int v) { return "n" + std::to_string(v); }
std::string Hex(int h) { return "h" + std::to_string(h); }
std::string Edge(int e) { return "e" + std::to_string(e); }
std::string Seat(int q) { return "seat " + std::to_string(q); }

}  // namespace

std::string RulesImpl::ExplainPlay(const State& s, const Action& a) {
  const int card = a.a;
  const int seat = s.current_;
  const PlayerState& ps = s.players_[seat];
  const std::string rule = std::string(ProgressCardRule(card)) + ": ";
  const std::string title = std::string(ProgressCardTitle(card));
  const int b = a.b, c = a.c;
  auto no_parameters = [&]() -> std::string {
    if (b == 0 && c == 0) return {};
    return rule + title + " takes no parameters";
  };
  auto opponent = [&](const char* what) -> std::string {
    if (b >= s.num_seats_ || b == seat)
      return rule + title + " names an opponent (" + Seat(b) + " is " + (b == seat ? "you" : "not playing") + ")";
    if (c != 0) return rule + title + " takes one parameter, " + what;
    return {};
  };
  std::string e;
  switch (card) {
    case kCrane: {
      if (!(e = no_parameters()).empty()) return e;
      if (!ps.cities) return rule + title + " needs a city of yours";
      bool open_track = false;
      for (int t = 0; t < kNumTracks; ++t) open_track |= ps.level[t] < kMaxImprovementLevel;
      if (!open_track) return rule + title + " needs a track below level 5 (all three are complete)";
      return rule + "one Crane per turn (crane_limit=ONE_PER_TURN), and one was played this turn";
    }
    case kEngineer:
      if (ps.walls_left == 0) return rule + title + " needs a wall in your supply (all 3 are on the board)";
      if (c != 0) return rule + title + " takes one parameter, the city";
      if (b >= kNumNodes || !((ps.cities >> b) & 1)) return rule + Node(b) + " is not a city of yours";
      return rule + "the city on " + Node(b) + " already has a wall";
    case kInventor: {
      if (b >= kNumHexes || c >= kNumHexes) return rule + title + " names two hexes (h0..h18)";
      if (b >= c) return rule + title + " names two different hexes, the lower number first";
      for (const int h : {b, c}) {
        const int t = s.board_.token[h];
        if (t == 0) return rule + Hex(h) + " carries no number token";
        if (t == 2 || t == 6 || t == 8 || t == 12)
          return rule + title + " cannot move a " + std::to_string(t) + " (the token on " + Hex(h) + ")";
      }
      break;
    }
    case kIrrigation:
    case kMining:
    case kWarlord:
    case kWedding:
    case kCommercialHarbor:
      if (!(e = no_parameters()).empty()) return e;
      break;
    case kMedicine: {
      if (ps.cities_left == 0) return rule + title + " needs a city in your supply (SUP-1)";
      if (ps.hand[kOre] < 2 || ps.hand[kGrain] < 1)
        return rule + title + " costs 2 ore + 1 grain (you hold " + std::to_string(ps.hand[kOre]) + " ore, " +
               std::to_string(ps.hand[kGrain]) + " grain)";
      if (c != 0) return rule + title + " takes one parameter, the settlement";
      return rule + (b < kNumNodes ? Node(b) : "n" + std::to_string(b)) + " holds no settlement of yours";
    }
    case kRoadBuilding: {
      if (!(e = no_parameters()).empty()) return e;
      if (ps.roads_left == 0) return rule + title + " needs a road in your supply (SUP-1)";
      return rule + title + " needs an edge where you may build a road (BLD-1), and there is none";
    }
    case kSmith: {
      if (!(e = no_parameters()).empty()) return e;
      if (!ps.knights) return rule + title + " needs a knight of yours on the board";
      return rule + title +
             " needs a knight that KN-5 lets you promote (none is: each is mighty, promoted this turn, lacks a piece "
             "of the next level in supply, or needs the Fortress)";
    }
    case kBishop:
      if (IsRobberLocked(s))
        return rule + title + " needs the robber unlocked (ROB-1: until the first barbarian attack)";
      if (b >= kNumHexes || c != 0) return rule + title + " names one hex (h0..h18)";
      if (b == s.robber_)
        return rule + title + " needs the robber to move to another hex (it stands on " + Hex(b) + ")";
      break;
    case kDeserter:
      if (!(e = opponent("the opponent")).empty()) return e;
      if (!s.players_[b].knights) return rule + title + " needs an opponent's knight, and " + Seat(b) + " has none";
      break;
    case kDiplomat: {
      uint64_t lo, hi;
      OpenRoads(s, &lo, &hi);
      if (!(lo | hi)) return rule + title + " needs an open road (DEF-8), and no road on the board is open";
      if (s.options_.diplomat_scope == DiplomatScope::kAllOpenRoads)
        return rule + "under diplomat_scope=ALL_OPEN_ROADS the Diplomat names no road (write e0)";
      if (b >= kNumEdges || c != 0) return rule + title + " names one road (e0..e71)";
      if (s.road_owner_[b] == kNoSeat) return rule + Edge(b) + " holds no road";
      return rule + "the road on " + Edge(b) + " is not open (DEF-8: both its ends are closed)";
    }
    case kIntrigue:
      if (b >= kNumNodes || c != 0) return rule + title + " names one knight by its intersection (n0..n53)";
      if (s.knight_owner_[b] == kNoSeat) return rule + Node(b) + " holds no knight";
      if (s.knight_owner_[b] == seat)
        return rule + title + " displaces an opponent's knight; the one on " + Node(b) + " is yours";
      return rule + "none of your roads ends at " + Node(b) + ", where the knight stands";
    case kSaboteur:
      if (s.options_.saboteur != Saboteur::kSabotageCity)
        return rule + title + " names no city (only under saboteur=SABOTAGE_CITY)";
      if (b >= kNumNodes || c != 0) return rule + title + " names one city (n0..n53)";
      if (s.building_[b] != kCity) return rule + Node(b) + " holds no city";
      if (s.building_owner_[b] == seat) return rule + "the city on " + Node(b) + " is yours";
      if (s.metropolis_at(b) >= 0) return rule + "a metropolis cannot be sabotaged (" + Node(b) + ")";
      return rule + "the city on " + Node(b) + " is already sabotaged";
    case kSpy:
      if (!(e = opponent("the opponent")).empty()) return e;
      if (s.players_[b].num_progress == 0)
        return rule + title + " needs a progress card to take, and " + Seat(b) + " holds none (VP cards excepted)";
      break;
    case kMasterMerchant:
      if (!(e = opponent("the opponent")).empty()) return e;
      if (s.players_[b].vp <= ps.vp)
        return rule + title + " needs an opponent with more VP, and " + Seat(b) + " has " +
               std::to_string(s.players_[b].vp) + " to your " + std::to_string(ps.vp);
      break;
    case kMerchant: {
      if (b >= kNumHexes || c != 0) return rule + title + " names one hex (h0..h18)";
      if (s.board_.terrain[b] == kDesert) return rule + "the merchant cannot go to the desert (" + Hex(b) + ")";
      const bool settlements_only = s.options_.merchant_adjacency == MerchantAdjacency::kSettlementOnly;
      return rule + Hex(b) + " is next to none of your " +
             (settlements_only ? "settlements (merchant_adjacency=SETTLEMENT_ONLY)" : "settlements or cities");
    }
    case kMerchantFleet:
      if (b >= kNumCardTypes || c != 0) return rule + title + " names one card type";
      break;
    case kResourceMonopoly:
      if (!IsResource(b) || c != 0) return rule + title + " names one resource (brick, lumber, wool, grain or ore)";
      break;
    case kTradeMonopoly:
      if (!IsCommodity(b) || c != 0) return rule + title + " names one commodity (cloth, coin or paper)";
      break;
    default:
      break;
  }
  return "PC-7: the preconditions of " + std::string(ProgressCardName(card)) +
         " do not hold with these parameters (docs/PROGRESS_CARDS.md)";
}

}  // namespace metropolis
