#include "engine/sea_maps.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#include "engine/text_random_internal.h"
#include "engine/topology_build.h"

namespace metropolis {
namespace {

using HexMask = SeaGeometry::HexMask;

// Rows and hexes in a row a map may have: 16 of each keeps every coordinate
// of the node grid within the topology's bytes.
constexpr int kMaxRowLength = 16;

constexpr std::string_view kScenarioNames[kNumScenarios] = {"NEW_SHORES", "THROUGH_THE_DESERT"};
constexpr std::string_view kSideNames[6] = {"NE", "E", "SE", "SW", "W", "NW"};
// Harbor types by name (RULES.md 23.20), in Harbor order: resources, then 3:1.
constexpr std::string_view kHarborNames[kNumHarborTypes] = {"brick", "lumber", "wool", "grain", "ore", "3:1"};

std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

using internal::Split;
using internal::SplitMix64;

bool ParseNumber(std::string_view s, int* out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

template <class T>
void Shuffle(std::vector<T>& a, SplitMix64& rng) {
  for (size_t i = a.size(); i > 1; --i) std::swap(a[i - 1], a[rng.Below(i)]);
}

// The edge joining nodes a and b of a map, or -1.
int EdgeOf(const SeaTopology& t, int a, int b) {
  for (int i = 0; i < 3; ++i)
    if (t.node_nodes[a][i] == b) return t.node_edges[a][i];
  return -1;
}

class MapParser {
 public:
  MapParser(std::string_view text, SeaMap* out) : text_(text), m_(out) {}
  std::string Run();

 private:
  std::string Hex(std::string_view field, std::string_view s, int* hex) const;
  std::string ParseBoard(std::string_view value);
  std::string ParseRegions(std::string_view value);
  std::string ParseHarbors(std::string_view value, std::vector<HarborPlace>* places);
  std::string ParseDeal();
  void FillLand();

  std::string_view text_;
  SeaMap* m_;
  std::map<std::string_view, std::string_view> fields_;
  std::vector<std::pair<int, int>> grid_;  // (row, position) of each hex, 1-based
  std::vector<char> hex_letter_;           // region letter per hex, '.' for the sea
  std::string foreign_, neutral_;
};

std::string MapParser::Hex(std::string_view field, std::string_view s, int* hex) const {
  int r = 0, c = 0;
  const size_t at = s.find('c');
  if (s.size() < 4 || s[0] != 'r' || at == std::string_view::npos || !ParseNumber(s.substr(1, at - 1), &r) ||
      !ParseNumber(s.substr(at + 1), &c))
    return std::string(field) + ": '" + std::string(s) + "' is not a hex like r4c3";
  for (size_t h = 0; h < grid_.size(); ++h) {
    if (grid_[h] == std::pair{r, c}) {
      *hex = int(h);
      return {};
    }
  }
  return std::string(field) + ": " + std::string(s) + " is not on the map";
}

std::string MapParser::ParseBoard(std::string_view value) {
  const std::vector<std::string_view> rows = Split(value, '/');
  if (rows.size() > m_->row_length.size()) return "board: too many rows";
  m_->num_rows = int(rows.size());
  SeaBoard& b = m_->default_board;
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::string_view row = rows[r];
    int col = 0;
    size_t i = 0;
    while (i < row.size()) {
      const int terrain = SeaTerrainFromLetter(row[i]);
      if (terrain < 0) return "board: unknown terrain '" + std::string(1, row[i]) + "' in row " + std::to_string(r + 1);
      size_t j = i + 1;
      while (j < row.size() && row[j] >= '0' && row[j] <= '9') ++j;
      int token = 0;
      if (j > i + 1 && !ParseNumber(row.substr(i + 1, j - i - 1), &token)) return "board: bad token";
      const bool numbered = terrain != kSea && terrain != kDesert;
      if (numbered != (token != 0) || (numbered && (token < 2 || token > 12 || token == 7)))
        return "board: row " + std::to_string(r + 1) + ": '" + std::string(row.substr(i, j - i)) +
               "' needs a token 2..6 or 8..12 exactly when it is land other than desert";
      const int h = int(grid_.size());
      if (h >= kSeaMaxHexes) return "board: more than " + std::to_string(kSeaMaxHexes) + " hexes";
      b.terrain[h] = uint8_t(terrain);
      b.token[h] = uint8_t(token);
      grid_.emplace_back(int(r) + 1, ++col);
      i = j;
    }
    if (col > kMaxRowLength) return "board: row " + std::to_string(r + 1) + " has more than 16 hexes";
    m_->row_length[r] = uint8_t(col);
  }
  return {};
}

std::string MapParser::ParseRegions(std::string_view value) {
  const std::vector<std::string_view> rows = Split(value, '/');
  if (int(rows.size()) != m_->num_rows) return "regions: expected one row per board row";
  for (size_t r = 0; r < rows.size(); ++r) {
    if (int(rows[r].size()) != m_->row_length[r])
      return "regions: row " + std::to_string(r + 1) + " has another length";
    for (char c : rows[r]) hex_letter_.push_back(c);
  }
  for (size_t h = 0; h < hex_letter_.size(); ++h) {
    const bool sea = m_->default_board.terrain[h] == kSea;
    if (sea != (hex_letter_[h] == '.'))
      return "regions: hex r" + std::to_string(grid_[h].first) + "c" + std::to_string(grid_[h].second) +
             ": '.' marks exactly the sea";
  }
  return {};
}

std::string MapParser::ParseHarbors(std::string_view value, std::vector<HarborPlace>* places) {
  SeaBoard& b = m_->default_board;
  for (std::string_view item : Words(value)) {
    const size_t colon = item.find(':'), eq = item.find('=');
    if (colon == std::string_view::npos || eq == std::string_view::npos || eq < colon)
      return "harbors: '" + std::string(item) + "' is not like r4c3:NW=ore";
    int hex = 0;
    if (std::string e = Hex("harbors", item.substr(0, colon), &hex); !e.empty()) return e;
    int side = -1, type = -1;
    for (int i = 0; i < 6; ++i)
      if (kSideNames[i] == item.substr(colon + 1, eq - colon - 1)) side = i;
    for (int i = 0; i < kNumHarborTypes; ++i)
      if (kHarborNames[i] == item.substr(eq + 1)) type = i;
    if (side < 0 || type < 0) return "harbors: '" + std::string(item) + "': unknown side or type";
    if (places->size() >= size_t(kSeaMaxHarbors)) return "harbors: more than " + std::to_string(kSeaMaxHarbors);
    b.harbor[places->size()] = uint8_t(type);
    places->push_back({hex, side});
  }
  return {};
}

// SEA-2, SEA-3, SEA-4 on the built tables.
void MapParser::FillLand() {
  SeaTopology& t = m_->topology;
  const SeaBoard& b = m_->default_board;
  // Regions in a fixed order of their letters, the home region first.
  std::string letters = "m" + foreign_ + neutral_;
  t.num_regions = int(letters.size());
  for (int r = 0; r < t.num_regions; ++r) {
    t.region_letter[r] = letters[r];
    t.region_kind[r] = r == 0 ? kHomeRegion : r <= int(foreign_.size()) ? kForeignRegion : kNeutralRegion;
    if (t.region_kind[r] == kForeignRegion) t.foreign_regions |= uint8_t(1u << r);
  }
  for (int h = 0; h < t.num_hexes; ++h) {
    const bool land = b.terrain[h] != kSea;
    (land ? t.land_hexes : t.sea_hexes).Set(h);
    t.hex_region[h] = int8_t(land ? int(letters.find(hex_letter_[h])) : -1);
  }
  for (int v = 0; v < t.num_nodes; ++v) {
    bool any_land = false, any_sea = false;
    int region = -1;
    for (int h : t.node_hexes[v]) {
      if (h < 0) continue;
      const bool land = t.land_hexes.Test(h);
      any_land |= land;
      any_sea |= !land;
      // E32: a node belongs to the non-neutral region of its land hexes.
      if (land && t.region_kind[t.hex_region[h]] != kNeutralRegion) region = t.hex_region[h];
    }
    // A node on the map's border touches fewer than three hexes; the missing
    // ones are off the map, not sea, so a node counts as a sea node only when
    // every hex it touches is sea.
    if (any_land) t.land_nodes.Set(v);
    if (!any_land && any_sea) t.sea_nodes.Set(v);
    t.node_region[v] = int8_t(region);
    if (region == 0) t.home_nodes.Set(v);
  }
  for (int e = 0; e < t.num_edges; ++e) {
    int land = 0, sea = 0;
    for (int h = 0; h < t.num_hexes; ++h) {
      if (!t.hex_edge_mask[h].Test(e)) continue;
      (t.land_hexes.Test(h) ? land : sea) += 1;
    }
    if (land > 0) t.road_edges.Set(e);  // land or coast
    if (sea > 0) t.ship_edges.Set(e);   // coast or sea
  }
}

std::string MapParser::ParseDeal() {
  SeaTopology& t = m_->topology;
  m_->deal_group.fill(-1);
  const std::vector<std::string_view> groups = Words(fields_["deal"]);
  m_->num_deal_groups = int(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    for (char letter : groups[g]) {
      bool found = false;
      for (int h = 0; h < t.num_hexes; ++h) {
        if (t.hex_region[h] < 0 || t.region_letter[t.hex_region[h]] != letter) continue;
        if (m_->deal_group[h] >= 0) return "deal: region '" + std::string(1, letter) + "' in two groups";
        m_->deal_group[h] = int8_t(g);
        found = true;
      }
      if (!found) return "deal: no hex of region '" + std::string(1, letter) + "'";
    }
  }
  const auto gold = fields_.find("gold");
  for (int h = 0; h < t.num_hexes; ++h) {
    if (t.hex_region[h] < 0) continue;
    const char letter = t.region_letter[t.hex_region[h]];
    if (gold == fields_.end() || gold->second.find(letter) != std::string_view::npos) m_->gold_hexes.Set(h);
  }
  return {};
}

std::string MapParser::Run() {
  for (std::string_view line : Split(text_, '\n')) {
    const std::vector<std::string_view> words = Words(line);
    if (words.empty()) continue;
    const std::string_view key = words[0];
    const size_t at = line.find(key) + key.size();
    std::string_view value = line.substr(at);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    if (!fields_.emplace(key, value).second) return "field '" + std::string(key) + "' given twice";
  }
  for (const char* required :
       {"scenario", "seats", "board", "regions", "foreign", "harbors", "pirate", "robber", "target", "deal"})
    if (!fields_.count(required)) return "missing field '" + std::string(required) + "'";

  int scenario = -1;
  for (int i = 0; i < kNumScenarios; ++i)
    if (kScenarioNames[i] == fields_["scenario"]) scenario = i;
  if (scenario < 0) return "scenario: unknown '" + std::string(fields_["scenario"]) + "'";
  m_->scenario = Scenario(scenario);
  if (!ParseNumber(fields_["seats"], &m_->seats) || m_->seats < 3 || m_->seats > 4) return "seats: expected 3 or 4";
  m_->index = SeaMapIndex(m_->scenario, m_->seats);
  if (!ParseNumber(fields_["target"], &m_->target_vp) || m_->target_vp < 1 || m_->target_vp > 255)
    return "target: expected 1..255";
  for (std::string_view w : Words(fields_["foreign"])) foreign_ += w;
  for (std::string_view w : Words(fields_["neutral"])) neutral_ += w;
  const std::string named = "m" + foreign_ + neutral_;
  if (int(named.size()) > SeaTopology::kMaxRegions)
    return "foreign, neutral: more than " + std::to_string(SeaTopology::kMaxRegions) + " regions with the home island";
  for (size_t i = 0; i < named.size(); ++i)
    if (named[i] == '.' || named.find(named[i], i + 1) != std::string::npos)
      return "foreign, neutral: region letter '" + std::string(1, named[i]) + "' named twice or reserved";

  if (std::string e = ParseBoard(fields_["board"]); !e.empty()) return e;
  if (std::string e = ParseRegions(fields_["regions"]); !e.empty()) return e;
  for (char c : hex_letter_)
    if (c != '.' && c != 'm' && foreign_.find(c) == std::string::npos && neutral_.find(c) == std::string::npos)
      return "regions: letter '" + std::string(1, c) + "' is neither m nor named foreign or neutral";

  // Centres on the node grid: position K of row R at x = 2K (+1 on odd rows),
  // y = 3R; shifted so that the top-left corner is (0, 0).
  std::vector<HexPlace> places;
  int min_x = 1000;
  for (const auto& [r, c] : grid_) min_x = std::min(min_x, 2 * c + (r % 2) - 1);
  for (const auto& [r, c] : grid_) places.push_back({2 * c + (r % 2) - min_x, 3 * r - 1, r, c});
  std::vector<HarborPlace> harbors;
  if (std::string e = ParseHarbors(fields_["harbors"], &harbors); !e.empty()) return e;
  m_->topology = internal::BuildTopologyTables<SeaGeometry>(places.data(), int(places.size()), harbors.data(),
                                                            int(harbors.size()));
  if (m_->topology.num_nodes > kSeaMaxNodes || m_->topology.num_edges > kSeaMaxEdges) return "map too large";
  FillLand();

  if (std::string e = Hex("pirate", fields_["pirate"], &m_->pirate_hex); !e.empty()) return e;
  if (!m_->topology.sea_hexes.Test(m_->pirate_hex)) return "pirate: not a sea hex";
  if (fields_["robber"] != "-") {
    if (std::string e = Hex("robber", fields_["robber"], &m_->robber_hex); !e.empty()) return e;
    if (m_->default_board.terrain[m_->robber_hex] != kDesert) return "robber: not a desert";
  }
  if (fields_.count("robber_scenario_hex")) {
    if (std::string e = Hex("robber_scenario_hex", fields_["robber_scenario_hex"], &m_->robber_scenario_hex);
        !e.empty())
      return e;
    if (!m_->topology.land_hexes.Test(m_->robber_scenario_hex)) return "robber_scenario_hex: not a land hex";
  }
  for (int k = 0; k < m_->topology.num_harbors; ++k) {
    const auto& nodes = m_->topology.harbor_nodes[k];
    const int edge = EdgeOf(m_->topology, nodes[0], nodes[1]);
    // A coast edge has land on one side and sea on the other (SEA-3, RULES.md 23.9).
    if (edge < 0 || !m_->topology.road_edges.Test(edge) || !m_->topology.ship_edges.Test(edge))
      return "harbors: harbor " + std::to_string(k) + " is not on a coast";
  }
  return ParseDeal();
}

// A hex set as a shuffled deal must keep it (SEA-47): red numbers apart,
// equal numbers apart, gold fields apart, gold neither on 6 nor on 8, and gold
// only where the map allows it.
std::string SpacingError(const SeaMap& m, const SeaBoard& b) {
  const SeaTopology& t = m.topology;
  for (int h = 0; h < t.num_hexes; ++h) {
    const int token = b.token[h];
    const bool gold = b.terrain[h] == kGold;
    if (gold && (token == 6 || token == 8)) return "a gold field on " + std::to_string(token);
    if (gold && !m.gold_hexes.Test(h)) return "a gold field on hex " + std::to_string(h) + " outside its regions";
    for (int n : t.hex_neighbors[h]) {
      if (n < 0) continue;
      const int other = b.token[n];
      if (token != 0 && other == token)
        return "equal numbers on hexes " + std::to_string(h) + " and " + std::to_string(n);
      if ((token == 6 || token == 8) && (other == 6 || other == 8))
        return "6 and 8 next to each other on hexes " + std::to_string(h) + " and " + std::to_string(n);
      if (gold && b.terrain[n] == kGold) return "gold fields next to each other";
    }
  }
  return {};
}

struct Maps {
  std::array<SeaMap, kNumSeaMaps> maps;
  Maps() {
    for (int i = 0; i < kNumSeaMaps; ++i) {
      std::string error;
      SeaMap m;
      if (!ParseSeaMap(SeaMapText(i), &m, &error) || m.index != i) {
        // The maps are the engine's own data: a bad one is a build defect.
        std::fprintf(stderr, "sea map %d: %s\n", i, error.empty() ? "out of order" : error.c_str());
        std::abort();
      }
      maps[i] = m;
    }
  }
};

const Maps& AllMaps() {
  static const Maps maps;
  return maps;
}

}  // namespace

int SeaMapIndex(Scenario scenario, int seats) { return 2 * int(scenario) + (seats == 4 ? 1 : 0); }

const SeaMap& GetSeaMap(int index) { return AllMaps().maps[index]; }

std::string_view ScenarioName(Scenario scenario) {
  return int(scenario) < kNumScenarios ? kScenarioNames[int(scenario)] : "?";
}

bool ParseSeaMap(std::string_view text, SeaMap* out, std::string* error) {
  SeaMap m;
  MapParser parser(text, &m);
  std::string e = parser.Run();
  if (!e.empty()) {
    if (error) *error = e;
    return false;
  }
  *out = m;
  return true;
}

SeaBoard SeaDefaultBoard(Scenario scenario, int seats) { return GetSeaMap(scenario, seats).default_board; }

SeaBoard SeaRandomBoard(Scenario scenario, int seats, uint64_t seed) {
  const SeaMap& m = GetSeaMap(scenario, seats);
  const SeaTopology& t = m.topology;
  SplitMix64 rng(seed);
  SeaBoard b = m.default_board;
  for (;;) {
    for (int g = 0; g < m.num_deal_groups; ++g) {
      std::vector<int> hexes;
      std::vector<uint8_t> terrains, tokens;
      for (int h = 0; h < t.num_hexes; ++h) {
        if (m.deal_group[h] != g) continue;
        hexes.push_back(h);
        terrains.push_back(m.default_board.terrain[h]);
        if (m.default_board.token[h] != 0) tokens.push_back(m.default_board.token[h]);
      }
      Shuffle(terrains, rng);
      Shuffle(tokens, rng);
      size_t next = 0;
      for (size_t i = 0; i < hexes.size(); ++i) {
        b.terrain[hexes[i]] = terrains[i];
        b.token[hexes[i]] = terrains[i] == kDesert ? 0 : tokens[next++];
      }
    }
    if (SpacingError(m, b).empty()) break;
  }
  std::vector<uint8_t> harbors(m.default_board.harbor.begin(), m.default_board.harbor.begin() + t.num_harbors);
  Shuffle(harbors, rng);
  for (int k = 0; k < t.num_harbors; ++k) b.harbor[k] = harbors[k];
  return b;
}

std::string ValidateSeaBoard(const SeaBoard& board, Scenario scenario, int seats, BoardDeal deal) {
  const SeaMap& m = GetSeaMap(scenario, seats);
  const SeaTopology& t = m.topology;
  const SeaBoard& d = m.default_board;
  const std::string map = std::string(ScenarioName(scenario)) + " for " + std::to_string(seats);
  if (deal == BoardDeal::kFixed) {
    if (board == d) return {};
    for (int h = 0; h < kSeaMaxHexes; ++h)
      if (board.terrain[h] != d.terrain[h] || board.token[h] != d.token[h])
        return "sea_board: hex " + std::to_string(h) + " differs from the map of " + map +
               " (board_deal=FIXED plays the map as given)";
    return "sea_board: the harbors differ from the map of " + map + " (board_deal=FIXED)";
  }
  for (int h = t.num_hexes; h < kSeaMaxHexes; ++h)
    if (board.terrain[h] != 0 || board.token[h] != 0) return "sea_board: hex " + std::to_string(h) + " is off the map";
  for (int k = t.num_harbors; k < kSeaMaxHarbors; ++k)
    if (board.harbor[k] != 0) return "sea_board: harbor " + std::to_string(k) + " is off the map";
  for (int h = 0; h < t.num_hexes; ++h) {
    const std::string where = "sea_board: hex " + std::to_string(h) + ": ";
    if (board.terrain[h] >= kNumSeaTerrains) return where + "not a terrain";
    if (m.deal_group[h] < 0 && (board.terrain[h] != d.terrain[h] || board.token[h] != d.token[h]))
      return where + "not dealt, so as on the map";
    if (m.deal_group[h] >= 0 && (board.terrain[h] == kSea) != (d.terrain[h] == kSea))
      return where + "land and sea are the map's";
    const bool numbered = board.terrain[h] != kSea && board.terrain[h] != kDesert;
    if (numbered != (board.token[h] != 0)) return where + "a token exactly on land other than desert";
  }
  for (int g = 0; g < m.num_deal_groups; ++g) {
    std::array<int, kNumSeaTerrains> terrains{};
    std::array<int, 13> tokens{};
    for (int h = 0; h < t.num_hexes; ++h) {
      if (m.deal_group[h] != g) continue;
      ++terrains[board.terrain[h]];
      --terrains[d.terrain[h]];
      if (board.token[h] > 12 || d.token[h] > 12) return "sea_board: token out of range";
      ++tokens[board.token[h]];
      --tokens[d.token[h]];
    }
    if (terrains != std::array<int, kNumSeaTerrains>{} || tokens != std::array<int, 13>{})
      return "sea_board: an island's terrains or tokens are not the map's (SEA-47)";
  }
  std::array<int, kNumHarborTypes> harbors{};
  for (int k = 0; k < t.num_harbors; ++k) {
    if (board.harbor[k] >= kNumHarborTypes) return "sea_board: harbor " + std::to_string(k) + " has no type";
    ++harbors[board.harbor[k]];
    --harbors[d.harbor[k]];
  }
  if (harbors != std::array<int, kNumHarborTypes>{}) return "sea_board: the harbor types are not the map's";
  if (std::string e = SpacingError(m, board); !e.empty()) return "sea_board: " + e + " (SEA-47)";
  return {};
}

}  // namespace metropolis
