// SeaMapGeometryJson and SeaMapPicture: a Seafarers map's geometry for
// clients that draw it and for people.
#include <string>

#include "engine/sea_maps.h"

namespace metropolis {
namespace {

class JsonOut {
 public:
  std::string& str() { return s_; }
  void Key(std::string_view k) {
    Comma();
    s_ += '"';
    s_ += k;
    s_ += "\":";
    first_ = true;  // the value follows without a comma
  }
  void Int(int v) {
    Comma();
    s_ += std::to_string(v);
  }
  void Bool(bool v) {
    Comma();
    s_ += v ? "true" : "false";
  }
  // Only the engine's own names are written: no character needs escaping.
  void Str(std::string_view v) {
    Comma();
    s_ += '"';
    s_ += v;
    s_ += '"';
  }
  void Open(char c) {
    Comma();
    s_ += c;
    first_ = true;
  }
  void Close(char c) {
    s_ += c;
    first_ = false;
  }
  // A list of ids padded with -1: the ids up to the padding.
  template <class A>
  void Ids(const A& ids) {
    Open('[');
    for (auto id : ids)
      if (id >= 0) Int(id);
    Close(']');
  }

 private:
  void Comma() {
    if (!first_) s_ += ',';
    first_ = false;
  }
  std::string s_;
  bool first_ = true;
};

}  // namespace

std::string SeaMapGeometryJson(const SeaMap& map, const SeaBoard* board) {
  const SeaTopology& t = map.topology;
  JsonOut j;
  j.Open('{');
  j.Key("scenario");
  j.Str(ScenarioName(map.scenario));
  j.Key("seats");
  j.Int(map.seats);
  j.Key("units");
  j.Str("x: half hex widths, y: quarter hex heights, origin top left");
  j.Key("regions");
  j.Open('[');
  static constexpr std::string_view kKinds[] = {"home", "foreign", "neutral"};
  for (int r = 0; r < t.num_regions; ++r) {
    j.Open('{');
    j.Key("letter");
    j.Str(std::string_view(&t.region_letter[r], 1));
    j.Key("kind");
    j.Str(kKinds[t.region_kind[r]]);
    j.Close('}');
  }
  j.Close(']');
  j.Key("hexes");
  j.Open('[');
  for (int h = 0; h < t.num_hexes; ++h) {
    j.Open('{');
    j.Key("row");
    j.Int(t.hex_row[h]);
    j.Key("pos");
    j.Int(t.hex_col[h]);
    j.Key("x");
    j.Int(t.hex_x[h]);
    j.Key("y");
    j.Int(t.hex_y[h]);
    j.Key("land");
    j.Bool(t.land_hexes.Test(h));
    j.Key("region");
    j.Int(t.hex_region[h]);
    if (board != nullptr) {
      j.Key("terrain");
      j.Str(std::string(1, TerrainLetter(board->terrain[h])));
      j.Key("token");
      j.Int(board->token[h]);
    }
    j.Key("nodes");
    j.Ids(t.hex_nodes[h]);
    j.Key("edges");
    j.Ids(t.hex_edges[h]);
    j.Key("neighbors");
    j.Ids(t.hex_neighbors[h]);
    j.Close('}');
  }
  j.Close(']');
  j.Key("nodes");
  j.Open('[');
  for (int v = 0; v < t.num_nodes; ++v) {
    j.Open('{');
    j.Key("x");
    j.Int(t.node_x[v]);
    j.Key("y");
    j.Int(t.node_y[v]);
    j.Key("hexes");
    j.Ids(t.node_hexes[v]);
    j.Key("nodes");
    j.Ids(t.node_nodes[v]);
    j.Key("edges");
    j.Ids(t.node_edges[v]);
    j.Key("land");
    j.Bool(t.land_nodes.Test(v));
    j.Key("region");
    j.Int(t.node_region[v]);
    j.Close('}');
  }
  j.Close(']');
  j.Key("edges");
  j.Open('[');
  for (int e = 0; e < t.num_edges; ++e) {
    j.Open('{');
    j.Key("nodes");
    j.Ids(t.edge_nodes[e]);
    j.Key("road");
    j.Bool(t.road_edges.Test(e));
    j.Key("ship");
    j.Bool(t.ship_edges.Test(e));
    j.Close('}');
  }
  j.Close(']');
  j.Key("harbors");
  j.Open('[');
  static constexpr std::string_view kHarborTypes[kNumHarborTypes] = {"brick", "lumber", "wool", "grain", "ore", "3:1"};
  for (int k = 0; k < t.num_harbors; ++k) {
    j.Open('{');
    j.Key("nodes");
    j.Ids(t.harbor_nodes[k]);
    if (board != nullptr) {
      j.Key("type");
      j.Str(board->harbor[k] < kNumHarborTypes ? kHarborTypes[board->harbor[k]] : "?");
    }
    j.Close('}');
  }
  j.Close(']');
  j.Key("pirate");
  j.Int(map.pirate_hex);
  j.Key("robber");
  j.Int(map.robber_hex);
  j.Close('}');
  return j.str();
}

std::string SeaMapPicture(const SeaMap& map, const SeaBoard* board) {
  const SeaTopology& t = map.topology;
  // Six columns a hex; odd rows sit half a hex to the right (RULES.md 23.1),
  // so every row starts at its first hex's x, three columns per x unit.
  constexpr int kCell = 6;
  std::string out;
  int h = 0;
  for (int row = 1; row <= map.num_rows; ++row) {
    std::string ids, land;
    const int indent = 3 * (t.hex_x[h] - 1);
    ids.append(indent, ' ');
    land.append(indent, ' ');
    for (; h < t.num_hexes && t.hex_row[h] == row; ++h) {
      std::string id = std::to_string(h);
      std::string what;
      if (board != nullptr) {
        what = TerrainLetter(board->terrain[h]);
        if (board->token[h] != 0) what += std::to_string(board->token[h]);
      } else {
        what = t.land_hexes.Test(h) ? std::string(1, t.region_letter[t.hex_region[h]]) : ".";
      }
      ids += std::string(kCell - id.size(), ' ') + id;
      land += std::string(kCell - what.size(), ' ') + what;
    }
    out += ids + "\n" + land + "\n";
  }
  return out;
}

}  // namespace metropolis
