// The rules options of RULES.md section 20, one test per option: the same
// position, written once in the notation, is played under the default and
// under every alternative, and the test asserts the difference the option
// makes, so that each fails if the engine ignored the option. Each test also
// checks that the option's value survives the notation (opts=[...]) and that
// a bad value is refused, naming the option.
//
// Positions are on the default board; node, edge and hex numbers are those of
// docs/BOARD.md. Harbor slot 0 (nodes 0 and 3) is 3:1.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/notation.h"
#include "engine/progress.h"
#include "engine/state.h"

namespace metropolis {
namespace {

constexpr std::string_view kHead =
    "v1 cak seats=4 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 ";

// The default options with `option` ("name=value") applied.
RulesOptions OptionsOf(std::string_view option) {
  RulesOptions o;
  EXPECT_EQ(ParseOption(option, &o), "") << option;
  return o;
}

// The position `fields` under `option`, given even at its default value. The
// state carries the option, and the notation round-trips it: the canonical
// text writes opts=[option] unless it is the default, and reads back as the
// same state.
State Under(std::string_view option, std::string_view fields) {
  const RulesOptions want = OptionsOf(option);
  State s;
  std::string error;
  const std::string text = std::string(kHead) + "opts=[" + std::string(option) + "] " + std::string(fields);
  EXPECT_TRUE(FromNotation(text, &s, &error)) << text << "\n" << error;
  EXPECT_TRUE(s.options() == want) << option;
  const std::string canonical = ToNotation(s);
  if (want == RulesOptions{}) {
    EXPECT_EQ(canonical.find("opts="), std::string::npos) << canonical;
  } else {
    EXPECT_NE(canonical.find("opts=[" + std::string(option) + "]"), std::string::npos) << canonical;
  }
  State again;
  EXPECT_TRUE(FromNotation(canonical, &again, &error)) << canonical << "\n" << error;
  EXPECT_TRUE(again == s) << canonical;
  return s;
}

// ParseOption refuses `name=bad` with a message naming the option and changes
// nothing; the notation refuses it too.
void ExpectBadValueRefused(std::string_view name, std::string_view bad) {
  const std::string text = std::string(name) + "=" + std::string(bad);
  RulesOptions o;
  const std::string error = ParseOption(text, &o);
  EXPECT_TRUE(error.starts_with("option '" + std::string(name) + "': bad value '" + std::string(bad) + "'")) << error;
  EXPECT_TRUE(o == RulesOptions{}) << text;
  if (name == "ruleset") return;  // the notation carries it as its second word, never in opts
  State s;
  std::string notation_error;
  EXPECT_FALSE(FromNotation(std::string(kHead) + "opts=[" + text + "] phase=action current=0", &s, &notation_error));
  EXPECT_NE(notation_error.find("option '" + std::string(name) + "'"), std::string::npos) << notation_error;
}

Action A(std::string_view text) {
  std::string error;
  const std::optional<Action> a = ParseAction(text, &error);
  EXPECT_TRUE(a.has_value()) << text << ": " << error;
  return a.value_or(Action{});
}

// Listed among the legal actions, or among the chance outcomes at a chance node.
bool IsLegal(const State& s, const Action& a) {
  if (s.IsChanceNode()) {
    for (const ChanceOutcome& o : s.ChanceOutcomes())
      if (o.action == a) return true;
    return false;
  }
  const std::vector<Action> legal = s.LegalActions();
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}
bool IsLegal(const State& s, std::string_view action) { return IsLegal(s, A(action)); }

// Applies an action that must be legal (parameterised trades are checked only).
void Play(State& s, const Action& a) {
  const std::string before = ToNotation(s);
  if (!IsParameterised(a.type)) {
    EXPECT_TRUE(IsLegal(s, a)) << before << "\n" << ActionToString(a) << " is not listed";
  }
  const std::string error = s.Apply(a);
  ASSERT_EQ(error, "") << before << "\n" << ActionToString(a);
}
void Play(State& s, std::string_view action) { Play(s, A(action)); }

// Apply refuses `a` citing `rule` and changes nothing; it is not listed either.
void ExpectRefused(const State& s, const Action& a, std::string_view rule) {
  State copy = s;
  const std::string error = copy.Apply(a);
  EXPECT_TRUE(error.starts_with(std::string(rule) + ":")) << ToNotation(s) << "\n"
                                                          << ActionToString(a) << " -> '" << error << "'";
  EXPECT_TRUE(copy == s) << ActionToString(a) << " changed the state: " << ToNotation(copy);
  if (!IsParameterised(a.type)) {
    EXPECT_FALSE(IsLegal(s, a)) << ActionToString(a);
  }
}
void ExpectRefused(const State& s, std::string_view action, std::string_view rule) {
  ExpectRefused(s, A(action), rule);
}

// The legal actions as text, for readable comparisons.
std::vector<std::string> LegalTexts(const State& s) {
  std::vector<std::string> out;
  for (const Action& a : s.LegalActions()) out.push_back(ActionToString(a));
  return out;
}

// The pending decisions as "kind@seat" from the bottom, automatic steps left out.
std::vector<std::string> Decisions(const State& s) {
  std::vector<std::string> out;
  const std::string text = ToNotation(s);
  const size_t at = text.find("pending=");
  if (at == std::string::npos) return out;
  std::string_view rest = std::string_view(text).substr(at + 8);
  rest = rest.substr(0, rest.find(' '));
  while (!rest.empty()) {
    const size_t slash = rest.find('/');
    std::string_view entry = rest.substr(0, slash);
    entry = entry.substr(0, entry.find(':'));
    if (!entry.starts_with("step_")) out.emplace_back(entry);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  }
  return out;
}

std::vector<std::string> Strings(std::initializer_list<std::string_view> texts) {
  return std::vector<std::string>(texts.begin(), texts.end());
}

// The robber moves only from the first attack on; by default a 7 before it
// only causes discards, and neither the Bishop nor a knight moves the robber.
TEST(RuleOptionsTest, RobberLockedUntilFirstAttackD01) {
  // No attack yet; the robber on the desert (hex 9). Seat 0 holds a Bishop and
  // an active knight on 23, a corner of hexes 8 and 9; seat 1's settlement on
  // 34 borders hex 8, and seat 1 holds 8 cards. A 7 is rolled.
  const std::string_view kSeven =
      "phase=before_roll current=0 turn=9 s0=12 k0=23:1a prog0=bishop s1=34 hand1=8b deck_politics=112222322";
  State locked = Under("robber_locked_until_first_attack=true", kSeven);
  Play(locked, "roll");
  Play(locked, "dice 3 4 trade");
  EXPECT_EQ(Decisions(locked), Strings({"discard@1"}));  // discards happen all the same
  for (int i = 0; i < 4; ++i) Play(locked, "discard brick");
  EXPECT_EQ(locked.pending_size(), 0);
  EXPECT_EQ(locked.robber_hex(), 9);
  EXPECT_TRUE(IsLegal(locked, "end_turn"));
  ExpectRefused(locked, "play bishop h8", "C-P1");
  ExpectRefused(locked, "chase_robber n23", "ROB-1");

  State free = Under("robber_locked_until_first_attack=false", kSeven);
  Play(free, "roll");
  Play(free, "dice 3 4 trade");
  EXPECT_EQ(Decisions(free), Strings({"discard@1"}));
  for (int i = 0; i < 4; ++i) Play(free, "discard brick");
  EXPECT_EQ(Decisions(free), Strings({"move_robber@0"}));
  EXPECT_FALSE(IsLegal(free, "end_turn"));
  Play(free, "move_robber h8 rob 1");
  Play(free, "steal brick");
  EXPECT_EQ(free.robber_hex(), 8);
  EXPECT_EQ(free.player(0).hand[kBrick], 1);
  // The knight on 23 now borders the robber; the Bishop is playable.
  EXPECT_TRUE(IsLegal(free, "chase_robber n23"));
  EXPECT_TRUE(IsLegal(free, "play bishop h9"));

  ExpectBadValueRefused("robber_locked_until_first_attack", "yes");
}

// Saboteur: half the hand of opponents with VP >= (default) or > the player's,
// or the 1998 card that turns one opponent city over.
TEST(RuleOptionsTest, SaboteurD02) {
  // Seat 0: 2 VP. Seat 1: 2 VP (city 34, on the forest 2 of hex 8), seat 2:
  // 3 VP, seat 3: 1 VP; each holds 4 cards.
  const std::string_view kSabotage =
      "phase=action current=0 turn=9 c0=12 prog0=saboteur c1=34 hand1=2b1l1o c2=40 s2=2 hand2=4l s3=50 hand3=4w "
      "deck_politics=212221322";

  State ge = Under("saboteur=HALF_HAND_VP_GE", kSabotage);
  ExpectRefused(ge, "play saboteur n34", "C-P6");
  State repair = ge;
  EXPECT_EQ(repair.Apply(A("repair_city n12")), "C-P6: cities are sabotaged only under SABOTAGE_CITY");
  Play(ge, "play saboteur");
  // Seats 1 (equal) and 2 (more) discard 2 each, seat 1 first.
  EXPECT_EQ(Decisions(ge), Strings({"discard@2", "discard@1"}));
  EXPECT_EQ(ge.node_flags(34), 0);

  State gt = Under("saboteur=HALF_HAND_VP_GT", kSabotage);
  Play(gt, "play saboteur");
  EXPECT_EQ(Decisions(gt), Strings({"discard@2"}));  // only strictly more VP

  State city = Under("saboteur=SABOTAGE_CITY", kSabotage);
  ExpectRefused(city, "play saboteur", "C-P6");
  EXPECT_TRUE(IsLegal(city, "play saboteur n40"));
  Play(city, "play saboteur n34");
  EXPECT_TRUE(Decisions(city).empty());
  EXPECT_EQ(city.node_flags(34), kSabotaged);
  EXPECT_EQ(city.player(1).hand.Total(), 4);
  EXPECT_EQ(city.player(1).vp, 2);  // still a city worth 2
  // Seat 1's turn: the sabotaged city yields like a settlement (no paper),
  // then he repairs it for 1 lumber + 1 ore.
  Play(city, "end_turn");
  Play(city, "roll");
  Play(city, "dice 1 1 trade");
  EXPECT_EQ(city.player(1).hand[kLumber], 2);
  EXPECT_EQ(city.player(1).hand[kPaper], 0);
  State wrong = city;
  EXPECT_EQ(wrong.Apply(A("repair_city n40")), "C-P6: n40 is not a sabotaged city of yours");
  Play(city, "repair_city n34");
  EXPECT_EQ(city.node_flags(34), 0);
  EXPECT_EQ(city.player(1).hand[kOre], 0);

  ExpectBadValueRefused("saboteur", "HALF_HAND");
}

// Barbarians win: by default the weakest among the vulnerable players lose a
// city; under MIN_AMONG_ALL the minimum is taken over everybody, so an immune
// weakest player spares the others.
TEST(RuleOptionsTest, BarbarianVictimsD03) {
  // Seat 0: politics metropolis on 0, cities 10 and 21, a basic knight. Seat 1:
  // only the trade metropolis (immune), no knight. Seat 2: a settlement. Seat
  // 3: city 13, a basic knight. B = 5 > K = 2.
  const std::string_view kRaid =
      "phase=before_roll current=2 turn=9 barbarians=6 c0=0P,10w,21 k0=3:1a lvl0=040 c1=46T lvl1=400 s2=38 c3=13 "
      "k3=19:1a";
  State vulnerable = Under("barbarian_victims=MIN_AMONG_VULNERABLE", kRaid);
  Play(vulnerable, "roll");
  Play(vulnerable, "dice 1 1 ship");
  EXPECT_EQ(Decisions(vulnerable), Strings({"pillage@0", "pillage@3"}));
  Play(vulnerable, "pillage_city n13");
  EXPECT_EQ(vulnerable.building(13), kSettlement);

  State all = Under("barbarian_victims=MIN_AMONG_ALL", kRaid);
  Play(all, "roll");
  Play(all, "dice 1 1 ship");
  EXPECT_TRUE(Decisions(all).empty());
  EXPECT_EQ(all.building(13), kCity);
  EXPECT_EQ(all.building(21), kCity);
  EXPECT_EQ(all.barbarian_attacks(), 1);

  ExpectBadValueRefused("barbarian_victims", "MIN");
}

// A Defender tie: the top card of the chosen deck (a chance node), or any card
// of it chosen by the player.
TEST(RuleOptionsTest, DefenderTieRewardD04) {
  // Seats 3 and 0 tie at strength 2; seat 2 rolls, so seat 3 chooses first.
  const std::string_view kTie =
      "phase=before_roll current=2 turn=9 barbarians=6 c0=0 k0=3:2a c2=38 c3=13 k3=19:1a,24:1a";
  State top = Under("defender_tie_reward=TOP_OF_CHOSEN_DECK", kTie);
  Play(top, "roll");
  Play(top, "dice 1 1 ship");
  Play(top, "defender_deck science");
  ASSERT_TRUE(top.IsChanceNode());
  EXPECT_EQ(top.ChanceOutcomes().size(), 10u);
  EXPECT_FALSE(IsLegal(top, "take_progress engineer"));

  State any = Under("defender_tie_reward=ANY_CARD_OF_CHOSEN_DECK", kTie);
  Play(any, "roll");
  Play(any, "dice 1 1 ship");
  Play(any, "defender_deck science");
  ASSERT_EQ(any.CurrentPlayer(), 3);
  EXPECT_EQ(LegalTexts(any), Strings({"take_progress alchemist", "take_progress crane", "take_progress engineer",
                                      "take_progress inventor", "take_progress irrigation", "take_progress medicine",
                                      "take_progress mining", "take_progress printer", "take_progress road_building",
                                      "take_progress smith"}));
  Play(any, "take_progress engineer");
  EXPECT_EQ(any.player(3).num_progress, 1);
  EXPECT_EQ(any.player(3).progress[0], kEngineer);
  EXPECT_EQ(any.deck(kScience).unseen_total, 17);
  EXPECT_EQ(any.CurrentPlayer(), 0);  // then seat 0 chooses his deck

  ExpectBadValueRefused("defender_tie_reward", "ANY_CARD");
}

// The Aqueduct: when the player received nothing (robber-blocked included), or
// only when he has no building next to the rolled number.
TEST(RuleOptionsTest, AqueductTriggerD05) {
  // An 8 is rolled. Seat 0's settlement on 40 borders the 8 of hex 14, blocked
  // by the robber; seat 1's settlement on 2 borders no 8. Both have the Aqueduct.
  const std::string_view kBlocked =
      "phase=before_roll current=0 turn=9 attacks=1 robber=14 s0=40 lvl0=003 s1=2 lvl1=003";
  State nothing = Under("aqueduct_trigger=RECEIVED_NOTHING", kBlocked);
  Play(nothing, "roll");
  Play(nothing, "dice 4 4 trade");
  EXPECT_EQ(Decisions(nothing), Strings({"aqueduct@1", "aqueduct@0"}));
  Play(nothing, "aqueduct ore");
  EXPECT_EQ(nothing.player(0).hand[kOre], 1);

  State no_number = Under("aqueduct_trigger=NO_ADJACENT_NUMBER", kBlocked);
  Play(no_number, "roll");
  Play(no_number, "dice 4 4 trade");
  EXPECT_EQ(Decisions(no_number), Strings({"aqueduct@1"}));
  EXPECT_EQ(no_number.CurrentPlayer(), 1);

  ExpectBadValueRefused("aqueduct_trigger", "received_nothing");
}

// Displacing needs a road connection from the attacker to the target by
// default; the alternative asks only for an own road at the target.
TEST(RuleOptionsTest, DisplaceRequiresConnectionD06) {
  // Seat 0's strong knight on 21, roads 21-27-33; seat 2's knight on 27 cuts
  // the way to seat 1's basic knight on 33.
  const std::string_view kCut =
      "phase=action current=0 turn=9 r0=33,39 s0=16 k0=21:2ar r1=49,54 s1=43 k1=33:1a k2=27:1";
  const State connected = Under("displace_requires_connection=true", kCut);
  ExpectRefused(connected, "displace_knight n21 n33", "KN-8");

  State loose = Under("displace_requires_connection=false", kCut);
  Play(loose, "displace_knight n21 n33");
  EXPECT_EQ(loose.knight_owner(33), 0);
  EXPECT_EQ(loose.knight_owner(21), kNoSeat);
  EXPECT_EQ(Decisions(loose), Strings({"relocate_knight@1"}));

  ExpectBadValueRefused("displace_requires_connection", "1");
}

// A knight's path may pass own pieces only (default), or opponents' too.
TEST(RuleOptionsTest, KnightPathThroughOpponentsD07) {
  // Seat 0's roads 16-21-27-33-28-22, its ready knight on 21, seat 1's knight on 28.
  const std::string_view kMove =
      "phase=action current=0 turn=9 r0=23,33,34,39,40 s0=16 k0=21:2ar,27:1 k1=28:1 r1=41 s1=34";
  const State blocked = Under("knight_path_through_opponents=false", kMove);
  ExpectRefused(blocked, "move_knight n21 n22", "KN-7");
  EXPECT_TRUE(IsLegal(blocked, "move_knight n21 n33"));

  State through = Under("knight_path_through_opponents=true", kMove);
  Play(through, "move_knight n21 n22");
  EXPECT_EQ(through.knight_owner(22), 0);
  EXPECT_EQ(through.knight_owner(21), kNoSeat);

  ExpectBadValueRefused("knight_path_through_opponents", "True");
}

// Deserter: an equivalent knight in the removed knight's state (default), or
// any knight of the supply, inactive.
TEST(RuleOptionsTest, DeserterPlacementD08) {
  // Seat 1's only knight is an active strong one; seat 0's roads end on 21, 27, 33.
  const std::string_view kDesert =
      "phase=action current=0 turn=9 r0=33,39 s0=16 prog0=deserter r1=64 s1=49 k1=45:2a deck_politics=211222322";
  const auto after_removal = [&](std::string_view option) {
    State s = Under(option, kDesert);
    Play(s, "play deserter 1");
    EXPECT_EQ(s.CurrentPlayer(), 1);
    Play(s, "remove_knight n45");
    EXPECT_EQ(s.CurrentPlayer(), 0);
    return s;
  };

  State same = after_removal("deserter_placement=SAME_LEVEL_SAME_STATE");
  EXPECT_EQ(LegalTexts(same), Strings({"stop", "place_knight n21 2", "place_knight n27 2", "place_knight n33 2"}));
  Play(same, "place_knight n27 2");
  EXPECT_EQ(same.knight_level(27), 2);
  EXPECT_EQ(same.knight_flags(27), kKnightActive);

  State any = after_removal("deserter_placement=ANY_LEVEL_INACTIVE");
  EXPECT_EQ(LegalTexts(any), Strings({"stop", "place_knight n21 1", "place_knight n21 2", "place_knight n21 3",
                                      "place_knight n27 1", "place_knight n27 2", "place_knight n27 3",
                                      "place_knight n33 1", "place_knight n33 2", "place_knight n33 3"}));
  Play(any, "place_knight n27 2");
  EXPECT_EQ(any.knight_level(27), 2);
  EXPECT_EQ(any.knight_flags(27), 0);

  ExpectBadValueRefused("deserter_placement", "ANY_LEVEL");
}

// Fiesepeter: players commit knights before the fight; only committed knights
// count and only they are deactivated afterwards.
TEST(RuleOptionsTest, FiesepeterD09) {
  // B = 1 (seat 1's city), seat 1's active basic knight is all of Catan.
  const std::string_view kLanding = "phase=before_roll current=0 turn=9 barbarians=6 s0=0 c1=13 k1=19:1a";
  State off = Under("fiesepeter=false", kLanding);
  Play(off, "roll");
  Play(off, "dice 1 1 ship");
  EXPECT_TRUE(Decisions(off).empty());
  EXPECT_EQ(off.player(1).defender, 1);  // K = 1 >= B = 1
  EXPECT_EQ(off.knight_flags(19), 0);

  State on = Under("fiesepeter=true", kLanding);
  Play(on, "roll");
  Play(on, "dice 1 1 ship");
  EXPECT_EQ(Decisions(on), Strings({"commit_knights@1"}));
  EXPECT_EQ(LegalTexts(on), Strings({"commit_knight n19", "commit_done"}));
  Play(on, "commit_done");  // seat 1 keeps his knight home: K = 0 < B = 1
  EXPECT_EQ(on.player(1).defender, 0);
  EXPECT_EQ(Decisions(on), Strings({"pillage@1"}));
  EXPECT_EQ(on.knight_flags(19), kKnightActive);  // uncommitted, still active

  ExpectBadValueRefused("fiesepeter", "on");
}

// A 5th progress card drawn on one's own turn: kept until the end of the turn
// (default), kept but play-or-discard first, or discarded at once.
TEST(RuleOptionsTest, ProgressHandLimitD10) {
  const std::string_view kFifth =
      "phase=before_roll current=0 turn=9 prog0=alchemist,crane,crane,engineer lvl0=001 deck_science=1002222122";
  const auto draw_fifth = [&](std::string_view option) {
    State s = Under(option, kFifth);
    Play(s, "roll");
    Play(s, "dice 1 1 science");
    Play(s, "draw smith");
    EXPECT_EQ(s.CurrentPlayer(), 0);
    return s;
  };

  State five = draw_fifth("progress_hand_limit=FIVE_ON_OWN_TURN");
  EXPECT_TRUE(Decisions(five).empty());
  EXPECT_EQ(five.player(0).num_progress, 5);
  EXPECT_TRUE(IsLegal(five, "end_turn"));
  Play(five, "end_turn");
  EXPECT_EQ(Decisions(five), Strings({"end_turn_discard@0"}));

  State play_or_discard = draw_fifth("progress_hand_limit=PLAY_OR_DISCARD");
  EXPECT_TRUE(Decisions(play_or_discard).empty());
  EXPECT_EQ(play_or_discard.player(0).num_progress, 5);
  ExpectRefused(play_or_discard, "end_turn", "PC-4");
  Play(play_or_discard, "discard_progress smith");
  EXPECT_TRUE(IsLegal(play_or_discard, "end_turn"));

  State strict = draw_fifth("progress_hand_limit=STRICT_FOUR");
  EXPECT_EQ(Decisions(strict), Strings({"discard_progress@0"}));
  ExpectRefused(strict, "end_turn", "19");

  ExpectBadValueRefused("progress_hand_limit", "FOUR");
}

// Diplomat: one open road of the player's choice, or every open road at once.
TEST(RuleOptionsTest, DiplomatScopeD11) {
  // Two open roads: seat 1's 0-4 (open at 4) and seat 2's 50-53 (open at 50).
  const std::string_view kRoads =
      "phase=action current=0 turn=9 s0=40 prog0=diplomat s1=0 r1=1 s2=53 r2=71 deck_politics=212122322";
  State one = Under("diplomat_scope=ONE_ROAD", kRoads);
  EXPECT_TRUE(IsLegal(one, "play diplomat e71"));
  ExpectRefused(one, "play diplomat e0", "C-P4");
  Play(one, "play diplomat e1");
  EXPECT_EQ(one.road_owner(1), kNoSeat);
  EXPECT_EQ(one.road_owner(71), 2);

  State all = Under("diplomat_scope=ALL_OPEN_ROADS", kRoads);
  ExpectRefused(all, "play diplomat e1", "C-P4");
  Play(all, "play diplomat e0");
  EXPECT_EQ(all.road_owner(1), kNoSeat);
  EXPECT_EQ(all.road_owner(71), kNoSeat);

  ExpectBadValueRefused("diplomat_scope", "ALL");
}

// The green deck holds one Engineer (18 cards) or two (19 cards).
TEST(RuleOptionsTest, GreenEngineerCountD12) {
  const std::string_view kGate = "phase=before_roll current=0 turn=9 lvl0=001";
  for (const auto& [option, engineers] :
       {std::pair<std::string_view, int>{"green_engineer_count=1", 1}, {"green_engineer_count=2", 2}}) {
    State s = Under(option, kGate);
    const int cards = 17 + engineers;
    EXPECT_EQ(s.deck(kScience).unseen_total, cards) << option;
    Play(s, "roll");
    Play(s, "dice 1 1 science");
    ASSERT_TRUE(s.IsChanceNode()) << option;
    double p = 0;
    for (const ChanceOutcome& o : s.ChanceOutcomes())
      if (o.action == A("draw engineer")) p = o.probability;
    EXPECT_DOUBLE_EQ(p, double(engineers) / cards) << option;
    Play(s, "draw engineer");
    EXPECT_EQ(s.deck(kScience).unseen[kEngineer - TrackFirstCard(kScience)], engineers - 1) << option;
  }
  ExpectBadValueRefused("green_engineer_count", "3");
}

// The red values that draw a progress card at each improvement level.
TEST(RuleOptionsTest, RedDieTableD13) {
  // Seat 0 has science level 1; a green gate with red 2, then with red 3.
  const std::string_view kLevelOne = "phase=before_roll current=0 turn=9 lvl0=001";
  struct Case {
    std::string_view option;
    bool draws_on_red_2, draws_on_red_3;
  };
  for (const Case& c : {Case{"red_die_table=2,3,4,5,6", true, false}, Case{"red_die_table=1,2,3,4,5", false, false},
                        Case{"red_die_table=3,3,4,5,6", true, true}}) {
    for (const auto& [dice, draws] : {std::pair<std::string_view, bool>{"dice 1 2 science", c.draws_on_red_2},
                                      {"dice 1 3 science", c.draws_on_red_3}}) {
      State s = Under(c.option, kLevelOne);
      Play(s, "roll");
      Play(s, dice);
      EXPECT_EQ(s.IsChanceNode(), draws) << c.option << " " << dice;
    }
  }
  ExpectBadValueRefused("red_die_table", "2,3,4,5");
  ExpectBadValueRefused("red_die_table", "3,2,4,5,6");
}

// A chased robber goes to a numbered hex only (default) or to any other land
// hex, the desert included.
TEST(RuleOptionsTest, ChaseRobberDestinationD14) {
  // The robber on hex 7; seat 0's ready knight on its corner 21.
  const std::string_view kChase =
      "phase=action current=0 turn=9 robber=7 attacks=1 r0=33,39 s0=16 k0=21:1ar s1=34 "
      "hand1=1b";
  State numbered = Under("chase_robber_destination=NUMBERED_HEX_ONLY", kChase);
  Play(numbered, "chase_robber n21");
  ExpectRefused(numbered, "move_robber h9", "ROB-2");
  EXPECT_EQ(numbered.LegalActions().size(), 17u);  // 18 other hexes but the desert

  State any = Under("chase_robber_destination=ANY_OTHER_LAND_HEX", kChase);
  Play(any, "chase_robber n21");
  EXPECT_EQ(any.LegalActions().size(), 18u);
  Play(any, "move_robber h9");
  EXPECT_EQ(any.robber_hex(), 9);
  EXPECT_TRUE(Decisions(any).empty());

  ExpectBadValueRefused("chase_robber_destination", "DESERT");
}

// Bishop, Wedding and Master Merchant take resources and commodities, or
// resources only.
TEST(RuleOptionsTest, ProgressTakesResourcesOnlyD15) {
  // Seat 1 (2 VP, city 34 on hex 12) holds 1 brick and 2 cloth; seat 0 has 1 VP.
  const std::string_view kRich =
      "phase=action current=0 turn=9 attacks=1 s0=0 prog0=bishop,wedding,master_merchant c1=34 hand1=1b2c "
      "deck_trade=216242 deck_politics=112222321";
  struct Case {
    std::string_view option;
    std::vector<std::string> takeable;
    int cards_owed;
    double p_cloth;
  };
  for (const Case& c :
       {Case{"progress_takes_resources_only=false", Strings({"take_card brick", "take_card cloth"}), 2, 2.0 / 3},
        Case{"progress_takes_resources_only=true", Strings({"take_card brick"}), 1, 0}}) {
    const State s = Under(c.option, kRich);

    State merchant = s;
    Play(merchant, "play master_merchant 1");
    EXPECT_EQ(LegalTexts(merchant), c.takeable) << c.option;
    ASSERT_EQ(Decisions(merchant), Strings({"master_merchant_take@0"}));
    EXPECT_EQ(merchant.pending(merchant.pending_size() - 1).b, c.cards_owed) << c.option;

    State wedding = s;
    Play(wedding, "play wedding");
    ASSERT_EQ(Decisions(wedding), Strings({"wedding_give@1"}));
    EXPECT_EQ(wedding.pending(wedding.pending_size() - 1).b, c.cards_owed) << c.option;
    EXPECT_EQ(IsLegal(wedding, "give_card cloth"), c.cards_owed == 2) << c.option;

    State bishop = s;
    Play(bishop, "play bishop h12");
    ASSERT_TRUE(bishop.IsChanceNode());
    double p_cloth = 0;
    for (const ChanceOutcome& o : bishop.ChanceOutcomes())
      if (o.action == A("steal cloth")) p_cloth = o.probability;
    EXPECT_DOUBLE_EQ(p_cloth, c.p_cloth) << c.option;
  }
  ExpectBadValueRefused("progress_takes_resources_only", "no");
}

// The Defender is the strongest contributor (default) or the one with the
// most active knights.
TEST(RuleOptionsTest, DefenderByKnightCountD16) {
  // Seat 0: one mighty knight (3). Seat 3: two basic knights (2). B = 2.
  const std::string_view kWin =
      "phase=before_roll current=0 turn=9 barbarians=6 c0=0 k0=3:3a lvl0=030 c3=13 k3=19:1a,24:1a";
  for (const auto& [option, defender] :
       {std::pair<std::string_view, int>{"defender_by_knight_count=false", 0}, {"defender_by_knight_count=true", 3}}) {
    State s = Under(option, kWin);
    Play(s, "roll");
    Play(s, "dice 1 1 ship");
    EXPECT_EQ(s.player(defender).defender, 1) << option;
    EXPECT_EQ(s.player(3 - defender).defender, 0) << option;
  }
  ExpectBadValueRefused("defender_by_knight_count", "2");
}

// The merchant goes next to a settlement or city (default), or next to a
// settlement only.
TEST(RuleOptionsTest, MerchantAdjacencyD17) {
  // Seat 0's city on 12 (hexes 0, 3, 4) and settlement on 40 (hexes 13, 14, 17).
  const std::string_view kMarket = "phase=action current=0 turn=9 c0=12 s0=40 prog0=merchant deck_trade=225242";
  State any = Under("merchant_adjacency=SETTLEMENT_OR_CITY", kMarket);
  EXPECT_EQ(LegalTexts(any), Strings({"end_turn", "play merchant h0", "play merchant h3", "play merchant h4",
                                      "play merchant h13", "play merchant h14", "play merchant h17"}));
  Play(any, "play merchant h4");
  EXPECT_EQ(any.merchant_hex(), 4);
  EXPECT_EQ(any.merchant_owner(), 0);

  const State settlement = Under("merchant_adjacency=SETTLEMENT_ONLY", kMarket);
  EXPECT_EQ(LegalTexts(settlement),
            Strings({"end_turn", "play merchant h13", "play merchant h14", "play merchant h17"}));
  ExpectRefused(settlement, "play merchant h4", "C-T3");

  ExpectBadValueRefused("merchant_adjacency", "CITY_ONLY");
}

// Three commodities at a 3:1 harbor buy any card (default) or a resource only.
TEST(RuleOptionsTest, Harbor3CommodityOutputD18) {
  // Seat 0's settlement on node 3, harbor slot 0 (3:1).
  const std::string_view kHarbor = "phase=action current=0 turn=9 s0=3 hand0=3c";
  State any = Under("harbor3_commodity_output=ANY_CARD", kHarbor);
  EXPECT_TRUE(IsLegal(any, "bank_trade cloth brick"));
  Play(any, "bank_trade cloth coin");
  EXPECT_EQ(any.player(0).hand[kCoin], 1);
  EXPECT_EQ(any.player(0).hand[kCloth], 0);

  const State resource = Under("harbor3_commodity_output=RESOURCE_ONLY", kHarbor);
  EXPECT_TRUE(IsLegal(resource, "bank_trade cloth brick"));
  ExpectRefused(resource, "bank_trade cloth coin", "TRD-2");
  ExpectRefused(resource, "bank_trade cloth paper", "TRD-2");

  ExpectBadValueRefused("harbor3_commodity_output", "COMMODITY");
}

// Two Cranes in one turn: each discounts a different improvement (default),
// or only one Crane per turn.
TEST(RuleOptionsTest, CraneLimitD19) {
  const std::string_view kCranes =
      "phase=action current=0 turn=9 c0=12 prog0=crane,crane hand0=1c1m deck_science=2012222122";
  State per_improvement = Under("crane_limit=ONE_PER_IMPROVEMENT", kCranes);
  Play(per_improvement, "play crane");
  Play(per_improvement, "buy_improvement trade");
  Play(per_improvement, "play crane");
  Play(per_improvement, "buy_improvement politics");
  EXPECT_EQ(per_improvement.player(0).hand.Total(), 2);  // both level 1s were free
  EXPECT_EQ(per_improvement.player(0).num_progress, 0);

  State per_turn = Under("crane_limit=ONE_PER_TURN", kCranes);
  Play(per_turn, "play crane");
  Play(per_turn, "buy_improvement trade");
  ExpectRefused(per_turn, "play crane", "C-S2");
  Play(per_turn, "buy_improvement politics");
  EXPECT_EQ(per_turn.player(0).hand[kCoin], 0);  // paid in full
  EXPECT_EQ(per_turn.player(0).hand[kCloth], 1);
  EXPECT_EQ(per_turn.player(0).num_progress, 1);

  ExpectBadValueRefused("crane_limit", "TWO");
}

// Level 4 needs a city without a metropolis (default), or is refused only to
// a player whose single city is a metropolis.
TEST(RuleOptionsTest, Level4CityRuleD20) {
  // Both of seat 0's cities carry a metropolis.
  const std::string_view kTwo = "phase=action current=0 turn=9 c0=0P,10S hand0=4c lvl0=344";
  const State free_city = Under("level4_city_rule=FREE_CITY_REQUIRED", kTwo);
  ExpectRefused(free_city, "buy_improvement trade", "IMP-3");

  State single = Under("level4_city_rule=SINGLE_METROPOLIS_CITY_ONLY", kTwo);
  Play(single, "buy_improvement trade");
  EXPECT_EQ(single.player(0).level[kTrade], 4);
  EXPECT_TRUE(Decisions(single).empty());  // no free city for the metropolis
  EXPECT_EQ(single.metropolis_owner(kTrade), kNoSeat);

  ExpectBadValueRefused("level4_city_rule", "NONE");
}

// The bank holds 19 of each resource and 12 of each commodity, or is unlimited.
TEST(RuleOptionsTest, BankLimited) {
  // Seat 3 holds all 19 ore. A 5 is rolled: seat 0's settlement on 40 borders
  // the mountains 5 of hex 17; then seat 0 plays Mining and trades 4 brick.
  const std::string_view kNoOre =
      "phase=before_roll current=0 turn=9 s0=40 hand0=4b prog0=mining s3=26 hand3=19o deck_science=2212221122";
  State limited = Under("bank_limited=true", kNoOre);
  Play(limited, "roll");
  Play(limited, "dice 2 3 ship");
  EXPECT_EQ(limited.player(0).hand[kOre], 0);  // PRD-4 shortage
  Play(limited, "play mining");
  EXPECT_EQ(limited.player(0).hand[kOre], 0);  // the bank pays what it has
  ExpectRefused(limited, "bank_trade brick ore", "TRD-2");
  EXPECT_EQ(limited.bank()[kOre], 0);

  State unlimited = Under("bank_limited=false", kNoOre);
  Play(unlimited, "roll");
  Play(unlimited, "dice 2 3 ship");
  EXPECT_EQ(unlimited.player(0).hand[kOre], 1);
  Play(unlimited, "play mining");
  EXPECT_EQ(unlimited.player(0).hand[kOre], 3);
  Play(unlimited, "bank_trade brick ore");
  EXPECT_EQ(unlimited.player(0).hand[kOre], 4);
  EXPECT_EQ(unlimited.bank()[kOre], -4);

  ExpectBadValueRefused("bank_limited", "unlimited");
}

// The VP needed to win.
TEST(RuleOptionsTest, VictoryPoints) {
  // Seat 0 has 3 VP and builds a 4th.
  const std::string_view kBuild = "phase=action current=0 turn=9 s0=0 c0=13 r0=1,2 hand0=1b1l1w1g";
  for (const auto& [option, wins] : {std::pair<std::string_view, bool>{"victory_points=13", false},
                                     {"victory_points=4", true},
                                     {"victory_points=5", false}}) {
    State s = Under(option, kBuild);
    Play(s, "build_settlement n1");
    EXPECT_EQ(s.player(0).vp, 4) << option;
    EXPECT_EQ(s.IsTerminal(), wins) << option;
    EXPECT_EQ(s.Winner(), wins ? 0 : kNoSeat) << option;
  }
  ExpectBadValueRefused("victory_points", "0");
}

// Seat 0 starts (default), or a chance roll picks the start player.
TEST(RuleOptionsTest, StartPlayer) {
  for (std::string_view option : {"start_player=SEAT0", "start_player=ROLL"}) {
    GameConfig config;
    config.board = DefaultBoard();
    config.options = OptionsOf(option);
    State s;
    std::string error;
    ASSERT_TRUE(NewGame(config, &s, &error)) << error;
    // The fresh game round-trips through the notation with its option.
    State again;
    ASSERT_TRUE(FromNotation(ToNotation(s), &again, &error)) << error;
    EXPECT_TRUE(again == s) << ToNotation(s);
    if (option == "start_player=SEAT0") {
      EXPECT_EQ(s.CurrentPlayer(), 0);
      EXPECT_TRUE(IsLegal(s, "build_settlement n0"));
    } else {
      EXPECT_NE(ToNotation(s).find("opts=[start_player=ROLL]"), std::string::npos);
      ASSERT_TRUE(s.IsChanceNode());
      EXPECT_EQ(s.ChanceOutcomes().size(), 4u);
      Play(s, "chance_start_player 2");
      EXPECT_EQ(s.CurrentPlayer(), 2);
      EXPECT_EQ(s.start_seat(), 2);
      Play(s, "build_settlement n0");
      Play(s, "build_road e0");
      EXPECT_EQ(s.CurrentPlayer(), 3);  // clockwise from the start player
    }
  }
  ExpectBadValueRefused("start_player", "SEAT1");
}

// Player-trade offers per turn: 3 by default, any number, 0 disables them.
TEST(RuleOptionsTest, MaxTradeOffersPerTurn) {
  // Seat 0 has made one offer this turn.
  const std::string_view kMarket = "phase=action current=0 turn=9 offers=1 s0=40 hand0=2b s1=26 hand1=1o";
  CardCounts brick, ore;
  brick[kBrick] = 1;
  ore[kOre] = 1;
  const Action offer = Action::TradeOffer(brick, ore, 0b0010);

  State three = Under("max_trade_offers_per_turn=3", kMarket);
  Play(three, offer);
  EXPECT_EQ(three.offers_this_turn(), 2);
  EXPECT_EQ(Decisions(three), Strings({"trade_close@0", "trade_answer@1"}));

  ExpectRefused(Under("max_trade_offers_per_turn=1", kMarket), offer, "TRD-3");
  const State none = Under("max_trade_offers_per_turn=0", kMarket);
  State copy = none;
  EXPECT_EQ(copy.Apply(offer), "TRD-3: player trades are disabled (max_trade_offers_per_turn=0)");

  ExpectBadValueRefused("max_trade_offers_per_turn", "-1");
}

// The base game is not implemented yet: the option parses and prints, and
// NewGame refuses it with a message naming the ruleset.
TEST(RuleOptionsTest, RulesetBaseIsAGame) {  // RULES.md 22
  RulesOptions o;
  ASSERT_EQ(ParseOption("ruleset=base", &o), "");
  EXPECT_EQ(o.ruleset, Ruleset::kBase);
  EXPECT_EQ(OptionsToString(o), "ruleset=base");
  GameConfig config;
  config.board = DefaultBoard();
  config.options = o;
  EXPECT_EQ(ValidateConfig(config), "");
  EXPECT_EQ(o.victory_points, 10);  // BG-8's default comes with the ruleset
  State s;
  std::string error;
  EXPECT_TRUE(NewGame(config, &s, &error)) << error;
  EXPECT_EQ(s.options().ruleset, Ruleset::kBase);
  ExpectBadValueRefused("ruleset", "seafarers");
}

}  // namespace
}  // namespace metropolis
