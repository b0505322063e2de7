// The Seafarers scenario maps (RULES.md 23.20): each map is data, a short text
// in the format of RULES.md 23.20 (engine/sea_maps_data.cc), read once at
// start-up into its topology (engine/topology.h), its default deal and what
// its shuffled deals must respect. docs/SEAFARERS.md shows the numbering.
//
// Maps are identified by scenario and seat count; a game state is meant to
// store the map's index (SeaMapIndex), never a pointer, so that copying a
// state stays a clone.
//
// Ruleset seafarers is not playable yet (config.cc refuses it): the maps,
// their deals and their geometry are the first part of it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/sea_topology.h"
#include "engine/types.h"

namespace metropolis {

// The scenarios (RULES.md 23.20) and how their maps are dealt (23.17: option
// board_deal, SEA-47). Greater Catan is out of scope (RULES.md 23).
enum class Scenario : uint8_t { kNewShores = 0, kThroughTheDesert = 1 };
inline constexpr int kNumScenarios = 2;
enum class BoardDeal : uint8_t { kFixed = 0, kShuffled = 1 };

// A Seafarers map's deal (RULES.md 23.20): terrain (kSea for the sea) and
// number token of each hex of the map in its numbering (docs/SEAFARERS.md),
// and the type of each of its harbor slots (Harbor). Entries past the map's
// own counts are 0.
struct SeaBoard {
  std::array<uint8_t, kSeaMaxHexes> terrain{};
  std::array<uint8_t, kSeaMaxHexes> token{};
  std::array<uint8_t, kSeaMaxHarbors> harbor{};
  bool operator==(const SeaBoard&) const = default;
};

struct SeaMap {
  Scenario scenario = Scenario::kNewShores;
  int seats = 4;
  int index = 0;  // SeaMapIndex(scenario, seats)
  int num_rows = 0;
  std::array<uint8_t, 16> row_length{};
  SeaTopology topology;
  SeaBoard default_board;        // the deal of RULES.md 23.20 (E34)
  int pirate_hex = -1;           // SEA-9
  int robber_hex = -1;           // SEA-9: the scenario's desert, -1 when the map has none
  int robber_scenario_hex = -1;  // D25: where SCENARIO_HEX puts the robber on a map without a desert
  int target_vp = 15;            // SEA-42
  // SEA-47: hexes dealt together share a group (-1: never re-dealt, the sea
  // and the desert belt); a gold field may only be dealt onto gold_hexes.
  std::array<int8_t, kSeaMaxHexes> deal_group{};
  int num_deal_groups = 0;
  SeaGeometry::HexMask gold_hexes{};
};

inline constexpr int kNumSeaMaps = 2 * kNumScenarios;  // 3 and 4 seats per scenario

// 0..kNumSeaMaps-1; seats must be 3 or 4.
int SeaMapIndex(Scenario scenario, int seats);
const SeaMap& GetSeaMap(int index);
inline const SeaMap& GetSeaMap(Scenario scenario, int seats) { return GetSeaMap(SeaMapIndex(scenario, seats)); }
inline const SeaTopology& GetSeaTopology(int index) { return GetSeaMap(index).topology; }

std::string_view ScenarioName(Scenario scenario);  // "NEW_SHORES", "THROUGH_THE_DESERT"

// The map's own deal (board_deal=FIXED).
SeaBoard SeaDefaultBoard(Scenario scenario, int seats);
// A shuffled deal (board_deal=SHUFFLED, SEA-47) drawn from `seed` with the
// engine's portable splitmix64 stream, so a seed names the same deal
// everywhere. Each group's terrains, then its tokens, are shuffled until the
// deal keeps 6s and 8s apart, equal numbers apart, gold fields apart and off 6
// and 8; then the harbor types are shuffled over the map's harbor edges.
SeaBoard SeaRandomBoard(Scenario scenario, int seats, uint64_t seed);
// Empty when `board` is a deal of the map that `deal` allows (FIXED: the
// default deal; SHUFFLED: the map's sets, its fixed hexes, SEA-47's spacing),
// else what is wrong.
std::string ValidateSeaBoard(const SeaBoard& board, Scenario scenario, int seats, BoardDeal deal);

// The map's geometry as one JSON object, for clients that draw the board (so
// that they draw from the engine instead of copying it): counts, regions, and
// per hex its row, position, centre, region, corners, sides and neighbours;
// per node its screen position, hexes, neighbours, edges and region; per edge
// its two nodes and whether roads and ships may use it; per harbor its two
// nodes; with the deal `board` (terrain letters, tokens, harbor types) when
// given. Coordinates are in node units: x in half hex widths, y in quarter hex
// heights, origin at the top left.
std::string SeaMapGeometryJson(const SeaMap& map, const SeaBoard* board);
// The hexes' numbers drawn row by row, each over its terrain letter and token
// from `board` (S the sea, A gold), or over its region letter ('.' the sea)
// without a board. docs/SEAFARERS.md shows them.
std::string SeaMapPicture(const SeaMap& map, const SeaBoard* board);

// Reads one map's text (the format of RULES.md 23.20, see sea_maps_data.cc).
// Exposed for tests; false with *error set when the text is not a valid map.
bool ParseSeaMap(std::string_view text, SeaMap* out, std::string* error);
// The texts the maps are read from, in SeaMapIndex order.
std::string_view SeaMapText(int index);

}  // namespace metropolis
