// sea-map: a Seafarers scenario's map (engine/sea_maps.h), drawn or as JSON.
// Ruleset seafarers does not play yet; its maps and their geometry do exist,
// and clients draw from this description instead of copying the numbering.

#include <iostream>

#include "engine/sea_maps.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"

namespace metropolis::cli {
namespace {

Flags MakeFlags() {
  Flags flags("sea-map", "--scenario NEW_SHORES|THROUGH_THE_DESERT [flags]",
              "Prints a Seafarers scenario's map (RULES.md 23.20): its hex numbers over their terrain\n"
              "and token, or with --json its whole geometry (hexes, nodes and edges with their screen\n"
              "coordinates, regions, harbors; docs/SEAFARERS.md).");
  flags.Add({.name = "scenario", .value_name = "NAME", .help = "NEW_SHORES or THROUGH_THE_DESERT"});
  flags.Add({.name = "seats", .value_name = "3|4", .help = "the map for this many seats (default 4)"});
  flags.Add({.name = "board",
             .value_name = "default|random:SEED",
             .help = "the map's own deal, or a shuffled one from SEED (SEA-47) (default: default)"});
  flags.Add({.name = "regions", .value_name = "", .help = "draw each hex's region letter instead of its terrain"});
  flags.Add({.name = "json", .value_name = "", .help = "print the geometry as one JSON object"});
  return flags;
}

}  // namespace

int RunSeaMap(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  std::string error;
  const std::string name = flags.Get("scenario");
  int scenario = -1;
  for (int i = 0; i < kNumScenarios; ++i)
    if (ScenarioName(Scenario(i)) == name) scenario = i;
  if (scenario < 0) return UsageError(flags, "--scenario '" + name + "': expected NEW_SHORES or THROUGH_THE_DESERT");
  int64_t seats = 4;
  if (flags.Has("seats") && !flags.GetInt("seats", 3, 4, &seats, &error)) return UsageError(flags, error);

  const SeaMap& map = GetSeaMap(Scenario(scenario), int(seats));
  SeaBoard board = map.default_board;
  const std::string deal = flags.Get("board", "default");
  if (deal.rfind("random:", 0) == 0) {
    uint64_t seed = 0;
    if (!ParseUint64(std::string_view(deal).substr(7), &seed))
      return UsageError(flags, "--board " + deal + ": expected random:SEED with SEED an unsigned integer");
    board = SeaRandomBoard(map.scenario, map.seats, seed);
  } else if (deal != "default") {
    return UsageError(flags, "--board " + deal + ": expected 'default' or 'random:SEED'");
  }

  if (flags.Has("json")) {
    std::cout << SeaMapGeometryJson(map, &board) << "\n";
    return kExitOk;
  }
  const SeaTopology& t = map.topology;
  std::cout << ScenarioName(map.scenario) << " for " << map.seats << " seats: " << t.num_hexes << " hexes, "
            << t.num_nodes << " nodes, " << t.num_edges << " edges, " << t.num_harbors << " harbors; pirate on hex "
            << map.pirate_hex << ", robber "
            << (map.robber_hex < 0 ? "off the board" : "on hex " + std::to_string(map.robber_hex)) << "\n\n"
            << SeaMapPicture(map, flags.Has("regions") ? nullptr : &board);
  return kExitOk;
}

}  // namespace metropolis::cli
