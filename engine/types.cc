#include "engine/types.h"

namespace metropolis {
namespace {

constexpr std::string_view kCardNames[kNumCardTypes] = {"brick", "lumber", "wool", "grain",
                                                        "ore",   "cloth",  "coin", "paper"};
constexpr std::string_view kTerrainNames[kNumSeaTerrains] = {"hills",     "forest", "pasture", "fields",
                                                             "mountains", "desert", "gold",    "sea"};
constexpr std::string_view kTrackNames[kNumTracks] = {"trade", "politics", "science"};

// 'm' (money) for coin and 'G' for fields: the obvious letters are taken by
// cloth and grain, and one letter per item keeps the notation compact.
constexpr char kCardLetters[kNumCardTypes + 1] = "blwgocmp";
// 'A' for gold: G is taken by fields (RULES.md 23.20).
constexpr char kTerrainLetters[kNumSeaTerrains + 1] = "HFPGMDAS";

}  // namespace

constexpr std::string_view kDevNames[kNumDevKinds] = {"knight", "victory_point", "road_building", "year_of_plenty",
                                                      "monopoly"};
constexpr char kDevLetters[kNumDevKinds + 1] = "kvrym";

std::string_view DevCardName(int dev) { return dev >= 0 && dev < kNumDevKinds ? kDevNames[dev] : "?"; }
int DevCardFromName(std::string_view name) {
  for (int d = 0; d < kNumDevKinds; ++d)
    if (kDevNames[d] == name) return d;
  return -1;
}
char DevCardLetter(int dev) { return dev >= 0 && dev < kNumDevKinds ? kDevLetters[dev] : '?'; }
int DevCardFromLetter(char c) {
  for (int d = 0; d < kNumDevKinds; ++d)
    if (kDevLetters[d] == c) return d;
  return -1;
}

std::string_view CardName(int card) { return card >= 0 && card < kNumCardTypes ? kCardNames[card] : "?"; }

std::string_view TerrainName(int terrain) {
  return terrain >= 0 && terrain < kNumSeaTerrains ? kTerrainNames[terrain] : "?";
}

std::string_view TrackName(int track) { return track >= 0 && track < kNumTracks ? kTrackNames[track] : "?"; }

char CardLetter(int card) { return card >= 0 && card < kNumCardTypes ? kCardLetters[card] : '?'; }

char TerrainLetter(int terrain) { return terrain >= 0 && terrain < kNumSeaTerrains ? kTerrainLetters[terrain] : '?'; }

int CardFromLetter(char c) {
  for (int i = 0; i < kNumCardTypes; ++i)
    if (kCardLetters[i] == c) return i;
  return -1;
}

int TerrainFromLetter(char c) {
  for (int i = 0; i < kNumTerrains; ++i)
    if (kTerrainLetters[i] == c) return i;
  return -1;
}

int SeaTerrainFromLetter(char c) {
  for (int i = 0; i < kNumSeaTerrains; ++i)
    if (kTerrainLetters[i] == c) return i;
  return -1;
}

}  // namespace metropolis
