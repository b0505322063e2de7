// ParseSeaMap on arbitrary text. It must never crash or write past the
// topology's tables (the sizes of SeaGeometry); a text it refuses says why; a
// map it reads holds together: every edge joins two neighbours, rows of hexes
// side by side make a disc (nodes - edges + hexes = 1), the pirate is at sea,
// harbors are on coasts, and the map's default deal passes the shuffled-deal
// checks' structural part or is refused with a message, never a crash. The
// corpus seeds are the engine's own four maps.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/fuzz/fuzz_check.h"
#include "engine/sea_maps.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace metropolis;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  SeaMap m;
  std::string error;
  if (!ParseSeaMap(text, &m, &error)) {
    FUZZ_CHECK(!error.empty(), "refused without a reason");
    return 0;
  }
  const SeaTopology& t = m.topology;
  const std::string what(text);
  FUZZ_CHECK(t.num_hexes <= kSeaMaxHexes && t.num_nodes <= kSeaMaxNodes && t.num_edges <= kSeaMaxEdges, what);
  FUZZ_CHECK(t.num_nodes - t.num_edges + t.num_hexes == 1, what);
  for (int e = 0; e < t.num_edges; ++e) {
    const int a = t.edge_nodes[e][0], b = t.edge_nodes[e][1];
    FUZZ_CHECK(a >= 0 && a < b && b < t.num_nodes, what);
    FUZZ_CHECK(MaskTest(t.node_neighbor_mask[a], b) && MaskTest(t.node_neighbor_mask[b], a), what);
  }
  FUZZ_CHECK(m.pirate_hex >= 0 && m.pirate_hex < t.num_hexes && t.sea_hexes.Test(m.pirate_hex), what);
  for (int k = 0; k < t.num_harbors; ++k)
    FUZZ_CHECK(t.land_nodes.Test(t.harbor_nodes[k][0]) && t.land_nodes.Test(t.harbor_nodes[k][1]), what);
  const std::string json = SeaMapGeometryJson(m, &m.default_board);
  FUZZ_CHECK(!json.empty() && json.front() == '{' && json.back() == '}', what);
  (void)SeaMapPicture(m, nullptr);
  return 0;
}
