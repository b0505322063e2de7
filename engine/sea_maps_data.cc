// The Seafarers maps as data (RULES.md 23.20, SEA-43..SEA-46), read by
// ParseSeaMap at start-up. One line per field, the value after the name:
//
//   scenario  NEW_SHORES or THROUGH_THE_DESERT
//   seats     3 or 4
//   board     rows from the top separated by '/', one token per hex from the
//             left: S sea, D desert, or a terrain letter and its number token
//             (F forest, P pasture, G fields, H hills, M mountains, A gold)
//   regions   one letter per hex, same order: m home, foreign and neutral
//             letters as named below, '.' the sea
//   foreign   the foreign regions' letters (SEA-32)
//   neutral   the neutral regions' letters (SEA-4), if any
//   harbors   rRcK:SIDE=TYPE ...: the harbor on side SIDE (NE E SE SW W NW) of
//             the hex in row R, position K (both from 1); TYPE 3:1, brick,
//             lumber, wool, grain or ore
//   pirate    rRcK: the pirate's start (SEA-9)
//   robber    rRcK, or '-' when the map has no desert (SEA-9)
//   robber_scenario_hex  rRcK: where robber_start_without_desert=SCENARIO_HEX puts it (D25)
//   target    the victory points to win (SEA-42)
//   deal      the groups of regions dealt together by board_deal=SHUFFLED
//             (SEA-47), e.g. "mt a b c"; regions in no group keep their hexes
//   gold      the regions a shuffled deal may put a gold field in (default: all)
//
// Odd rows are shifted half a hex to the right (RULES.md 23.1). The terrain
// and token positions inside each island are the engine's choice (E34).
#include <string_view>

#include "engine/sea_maps.h"

namespace metropolis {
namespace {

// SEA-44. The main island's sets are those of a 3-player map; the pirate sits
// in the strait east of it.
constexpr std::string_view kNewShores3 = R"(
scenario NEW_SHORES
seats    3
board    SSSSSSS/SSM4A3SSS/SSSSH9P8S/SSF6P5SA5S/SG11H10F11SG10S/SP8M9G6P5SS/SF4P10H2SH4S/SSG8M3SM12S/SSSSSSS
regions  ......./..aa.../....bb./..mm.b./.mmm.b./.mmmm../.mmm.c./..mm.c./.......
foreign  a b c
harbors  r4c3:W=3:1 r4c4:E=ore r6c5:NE=3:1 r8c4:E=brick r8c4:SW=grain r8c3:W=3:1 r6c2:SW=lumber r6c2:NW=wool
pirate   r5c7
robber   -
robber_scenario_hex r2c3
target   15
deal     m a b c
)";

// SEA-43. The main island is the engine's default base board, its nine
// harbors the standard slots in the order of the default harbor text
// 3o3bg3lw3.
constexpr std::string_view kNewShores4 = R"(
scenario NEW_SHORES
seats    4
board    SSSSSSSS/SSA3M9SH10SS/SSSSSG6P4S/SSF4P9F11SF5S/SP3M6G4P5SH8S/SH6F2DH3F8SS/SG9H10G8M10SM2S/SSP12M5G11SA11S/SSSSSSSS
regions  ......../..aa.b../.....bb./..mmm.b./.mmmm.b./.mmmmm../.mmmm.c./..mmm.c./........
foreign  a b c
harbors  r4c3:NW=3:1 r4c4:NE=ore r5c5:NE=3:1 r6c6:E=brick r7c5:SE=grain r8c4:SE=3:1 r8c3:SW=lumber r7c2:W=wool r5c2:W=3:1
pirate   r5c8
robber   r6c4
target   15
deal     m a b c
)";

// SEA-46. The desert belt (d) separates the strip (t) from the main island;
// the strip's gold field is dealt with the main island's sets (SEA-47).
constexpr std::string_view kThroughTheDesert3 = R"(
scenario THROUGH_THE_DESERT
seats    3
board    SSSSSSS/SSA4DSM5S/SG6DP11SA11S/SF3DF9H10SS/SSG6M2SP5S/SF8H10P9F3SS/SM4G5P8SG8S/SSH6F4SM9S/SSSSSSS
regions  ......./..td.a./.tdm.a./.tdmm../..mm.b./.mmmm../.mmm.c./..mm.c./.......
foreign  t a b c
neutral  d
harbors  r3c4:NE=3:1 r6c5:NE=ore r6c5:SE=3:1 r8c4:E=brick r8c3:SE=grain r8c3:W=3:1 r6c2:SW=lumber r6c3:NW=wool
pirate   r5c7
robber   r3c3
target   15
deal     mt a b c
gold     t a b c
)";

// SEA-45. Odd rows have 8 hexes, even rows 9.
constexpr std::string_view kThroughTheDesert4 = R"(
scenario THROUGH_THE_DESERT
seats    4
board    SSSSSSSS/SSG8DF6SM6SS/SM11DP9H10SG4S/SA10DF3H11P6SA5S/SSG5F4M3SSS/SH9P8G11F5SH9M2S/SP4M12H8SSSS/SSSF10SP3G12SS/SSSSSSSS
regions  ......../..tdm.a../.tdmm.a./.tdmmm.a./..mmm.../.mmmm.bb./.mmm..../...m.cc../........
foreign  t a b c
neutral  d
harbors  r2c5:E=3:1 r4c6:NE=ore r4c6:SE=3:1 r6c5:SE=brick r8c4:E=grain r8c4:SW=3:1 r7c2:SE=lumber r7c2:W=wool r5c3:W=3:1
pirate   r5c8
robber   r3c3
target   15
deal     mt a b c
gold     t a b c
)";

constexpr std::string_view kTexts[] = {kNewShores3, kNewShores4, kThroughTheDesert3, kThroughTheDesert4};
static_assert(std::size(kTexts) == kNumSeaMaps);

}  // namespace

std::string_view SeaMapText(int index) { return index >= 0 && index < kNumSeaMaps ? kTexts[index] : ""; }

}  // namespace metropolis
