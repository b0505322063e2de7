// BoardPicture: the board drawn for people (docs/NOTATION.md, "The picture").
#include <string>
#include <string_view>
#include <vector>

#include "engine/notation.h"
#include "engine/notation_internal.h"
#include "engine/topology.h"

namespace metropolis {

// The picture. Node rows of the topology (y = 0, 1, 3, 4, ..., 16) become every
// other text line, so diagonal edges get the line between their ends and
// vertical edges share the line of the hex centre they pass.

namespace {

using namespace notation_internal;

constexpr int kColsPerX = 4;
constexpr int kMargin = 2;

int NodeLine(int y) { return 2 * (y - y / 3); }

std::string NodeMark(const State& s, int v) {
  if (s.building_owner(v) != kNoSeat) {
    std::string m;
    const bool metropolis = s.metropolis_at(v) >= 0;
    m += metropolis ? 'M' : s.building(v) == kCity ? 'C' : 'S';
    m += char('0' + s.building_owner(v));
    if (metropolis)
      m += kTrackLetters[s.metropolis_at(v)];
    else if (s.node_flags(v) & kWall)
      m += 'w';
    else if (s.node_flags(v) & kSabotaged)
      m += 'x';
    return m;
  }
  if (s.knight_owner(v) != kNoSeat) {
    // Upper case for an active knight: the state that counts against the barbarians.
    std::string m(1, (s.knight_flags(v) & kKnightActive) ? 'K' : 'k');
    m += char('0' + s.knight_owner(v));
    m += char('0' + s.knight_level(v));
    return m;
  }
  return ".";
}

}  // namespace

std::string BoardPicture(const State& s) {
  const Topology& topo = GetTopology();
  constexpr int kLines = 23;
  constexpr int kWidth = kMargin * 2 + 10 * kColsPerX + 3;
  std::vector<std::string> canvas(kLines, std::string(kWidth, ' '));
  auto put = [&](int line, int col, std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i)
      if (col + int(i) >= 0 && col + int(i) < kWidth) canvas[line][col + i] = text[i];
  };

  for (int e = 0; e < kNumEdges; ++e) {
    const int a = topo.edge_nodes[e][0], b = topo.edge_nodes[e][1];
    const int xa = topo.node_x[a], ya = topo.node_y[a], xb = topo.node_x[b], yb = topo.node_y[b];
    const int line = (NodeLine(ya) + NodeLine(yb)) / 2;
    const int col = kMargin + (xa + xb) * kColsPerX / 2;
    const int owner = s.road_owner(e);
    char mark = xa == xb ? '|' : (xa < xb) == (ya < yb) ? '\\' : '/';
    if (owner != kNoSeat) mark = char('0' + owner);
    put(line, col, std::string(1, mark));
  }
  for (int h = 0; h < kNumHexes; ++h) {
    const int top = topo.hex_nodes[h][0];
    const int line = NodeLine(topo.node_y[top]) + 3;
    const int col = kMargin + topo.node_x[top] * kColsPerX;
    std::string label(1, TerrainLetter(s.board().terrain[h]));
    if (s.board().token[h] != 0) label += std::to_string(s.board().token[h]);
    if (s.robber_hex() == h) label += 'R';
    if (s.merchant_hex() == h) label += '$';
    put(line, col - 1, label);
    put(line - 1, col - 1, "h" + std::to_string(h));
  }
  for (int v = 0; v < kNumNodes; ++v) {
    const std::string mark = NodeMark(s, v);
    put(NodeLine(topo.node_y[v]), kMargin + topo.node_x[v] * kColsPerX - (mark.size() > 1 ? 1 : 0), mark);
  }

  std::string out;
  for (std::string& line : canvas) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out += "S/C settlement/city, M metropolis (t p s), w wall, x sabotaged; k/K inactive/active knight: seat, level;\n";
  out += "digits on paths: roads by seat; R robber, $ merchant\n";
  out += "phase " + std::string(kPhaseNames[int(s.phase())]) + ", turn " + std::to_string(s.turn_number()) +
         ", current seat " + std::to_string(s.current_seat()) + ", barbarians " +
         std::to_string(s.barbarian_position()) + "/7";
  if (s.merchant_owner() != kNoSeat) out += ", merchant of seat " + std::to_string(s.merchant_owner());
  if (s.longest_road_holder() != kNoSeat) out += ", longest road seat " + std::to_string(s.longest_road_holder());
  out += "\n";
  for (int p = 0; p < s.num_seats(); ++p) {
    const PlayerState& ps = s.player(p);
    out += "seat " + std::to_string(p) + ": " + std::to_string(ps.vp) + " VP, hand " +
           (ps.hand.Total() ? CardsText(ps.hand) : "-") + ", " + std::to_string(ps.num_progress) +
           " progress, levels t" + std::to_string(ps.level[kTrade]) + " p" + std::to_string(ps.level[kPolitics]) +
           " s" + std::to_string(ps.level[kScience]) + ", longest road " + std::to_string(ps.road_length) + "\n";
  }
  return out;
}

}  // namespace metropolis
