// Basic vocabulary of the rules engine: card types, terrains, tracks, sizes.
//
// Every enum here is part of the stable action encoding and the position
// notation (docs/NOTATION.md): the numeric values never change within a rules
// version. Add new values only at the end.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace metropolis {

inline constexpr int kMaxSeats = 4;
inline constexpr int kMinSeats = 3;
inline constexpr int kNumHexes = 19;
inline constexpr int kNumNodes = 54;  // intersections
inline constexpr int kNumEdges = 72;  // paths
inline constexpr int kNumHarbors = 9;
inline constexpr int kNoSeat = -1;

// Seafarers maps (RULES.md 23.20): the sizes every sea map fits in. The largest
// map, Through the Desert for 4 seats, has 76 hexes, 186 nodes and 261 edges;
// nodes and edges are rounded up to whole words of their per-node bytes.
inline constexpr int kSeaMaxHexes = 76;
inline constexpr int kSeaMaxNodes = 192;
inline constexpr int kSeaMaxEdges = 264;
inline constexpr int kSeaMaxHarbors = 9;

// The five resources come first so that a resource index is also a card
// index and a terrain index (Terrain below uses the same numbers).
enum Card : uint8_t {
  kBrick = 0,
  kLumber = 1,
  kWool = 2,
  kGrain = 3,
  kOre = 4,
  kCloth = 5,  // trade (yellow) commodity, from pasture cities
  kCoin = 6,   // politics (blue) commodity, from mountains cities
  kPaper = 7,  // science (green) commodity, from forest cities
};
inline constexpr int kNumResources = 5;
inline constexpr int kNumCardTypes = 8;
inline constexpr bool IsResource(int c) { return c >= 0 && c < kNumResources; }
inline constexpr bool IsCommodity(int c) { return c >= kNumResources && c < kNumCardTypes; }

// Terrain numbering matches the resource it yields (RULES.md 1.2).
enum Terrain : uint8_t {
  kHills = 0,
  kForest = 1,
  kPasture = 2,
  kFields = 3,
  kMountains = 4,
  kDesert = 5,
  // Seafarers only (RULES.md 23.1, 23.7): a gold field carries a number token
  // and yields resources of the owner's choice; the sea yields nothing.
  kGold = 6,
  kSea = 7,
};
inline constexpr int kNumTerrains = 6;     // of the standard board
inline constexpr int kNumSeaTerrains = 8;  // of a Seafarers map: also gold fields and the sea
inline constexpr bool IsLandTerrain(int terrain) { return terrain >= 0 && terrain < kSea; }

// City-improvement tracks (RULES.md 9.1); also the progress-card colours and the
// city-gate faces of the event die.
enum Track : uint8_t {
  kTrade = 0,     // yellow, pays cloth
  kPolitics = 1,  // blue, pays coin
  kScience = 2,   // green, pays paper
};
inline constexpr int kNumTracks = 3;
inline constexpr int kMaxImprovementLevel = 5;

// Commodity paid for a track, and the commodity a city on a terrain adds.
inline constexpr Card TrackCommodity(int track) { return Card(kCloth + track); }
inline constexpr int CommodityTrack(int card) { return card - kCloth; }
// Forest -> paper, pasture -> cloth, mountains -> coin, others none (-1).
inline constexpr int TerrainCommodity(int terrain) {
  return terrain == kForest ? kPaper : terrain == kPasture ? kCloth : terrain == kMountains ? kCoin : -1;
}

// A harbor is 2:1 for one resource (0..4) or generic 3:1.
enum Harbor : uint8_t { kGenericHarbor = 5 };
inline constexpr int kNumHarborTypes = 6;

// Event die faces (RULES.md 1.3): three ship faces, one gate per colour.
enum EventFace : uint8_t {
  kEventShip = 0,
  kEventTradeGate = 1,     // yellow
  kEventPoliticsGate = 2,  // blue
  kEventScienceGate = 3,   // green
};
inline constexpr int kNumEventFaces = 4;

enum Building : uint8_t { kNoBuilding = 0, kSettlement = 1, kCity = 2 };

// Development cards of the base game (RULES.md 22, BG-1).
enum DevCard : uint8_t {
  kDevKnight = 0,
  kDevVictoryPoint = 1,
  kDevRoadBuilding = 2,
  kDevYearOfPlenty = 3,
  kDevMonopoly = 4,
};
inline constexpr int kNumDevKinds = 5;
inline constexpr std::array<uint8_t, kNumDevKinds> kDevCardCounts = {14, 5, 2, 2, 2};  // 25 in all
std::string_view DevCardName(int dev);       // "knight", "victory_point", ..., "monopoly"
int DevCardFromName(std::string_view name);  // -1 if none
char DevCardLetter(int dev);                 // k v r y m
int DevCardFromLetter(char c);               // -1 if none

// Knight levels 1..3 are their strengths (KN-1); 0 means no knight.
inline constexpr int kMaxKnightLevel = 3;

std::string_view CardName(int card);        // "brick", ..., "paper"
std::string_view TerrainName(int terrain);  // "hills", ..., "desert", "gold", "sea"
std::string_view TrackName(int track);      // "trade", "politics", "science"
// Single letters used by the notation: b l w g o c m p (cards),
// H F P G M D, and A (gold) S (sea) on Seafarers maps (terrains), t p s (tracks).
char CardLetter(int card);
char TerrainLetter(int terrain);
int CardFromLetter(char c);        // -1 if none
int TerrainFromLetter(char c);     // -1 if none
int SeaTerrainFromLetter(char c);  // also A and S; -1 if none

// A multiset of cards, one count per card type. Trivially copyable.
struct CardCounts {
  std::array<uint8_t, kNumCardTypes> n{};

  // The eight counts as one word: sums and comparisons are on every hot path.
  // Counts stay far below 128, so bytes never carry into each other.
  uint64_t Word() const {
    uint64_t w;
    std::memcpy(&w, n.data(), sizeof w);
    return w;
  }
  void SetWord(uint64_t w) { std::memcpy(n.data(), &w, sizeof w); }
  int Total() const { return int((Word() * 0x0101010101010101ull) >> 56); }
  int Resources() const {
    int t = 0;
    for (int i = 0; i < kNumResources; ++i) t += n[i];
    return t;
  }
  int Commodities() const { return Total() - Resources(); }
  bool Contains(const CardCounts& o) const {
    constexpr uint64_t kHigh = 0x8080808080808080ull;
    return (((Word() | kHigh) - o.Word()) & kHigh) == kHigh;  // no byte of o exceeds ours
  }
  uint8_t& operator[](int i) { return n[i]; }
  uint8_t operator[](int i) const { return n[i]; }
  bool operator==(const CardCounts&) const = default;
};

}  // namespace metropolis
