// The rules engine and the built-in bots as a Node.js native addon, over
// Node-API's C interface: enough for a bot written in JavaScript to search
// (states made from a configuration, legal actions, apply, clone, chance,
// returns), to read the view the host sends with the engine's own conversion
// (lib/protocol), and to ask a built-in bot (bots::MakeBot) for its choice.
// botkits/node/lib/engine.js loads it and documents the JavaScript side; the
// classes here are:
//
//   State   a full game state (engine/state.h)
//   View    a seat's view (engine/view.h): from a State, from a Match, or from
//           the bytes of a host's Decision
//   Bot     a built-in bot; choose() on the calling thread, chooseAsync() on
//           Node's worker pool (a search on the clock leaves the event loop free)
//   Match   a game as the arena plays it (bots::PlayGame): chance from the
//           chance streams, built-in seats played here, the others' decisions
//           made in JavaScript with the view their knowledge trackers build
//
// Action codes are BigInts (the stable 64-bit encoding, engine/action.h); an
// action may also be given as its text ("build_road e17").

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "botkits/cpp/builtin.h"
#include "botkits/node/addon/napi_util.h"
#include "bots/bot.h"
#include "bots/evaluation.h"
#include "engine/action.h"
#include "engine/config.h"
#include "engine/notation.h"
#include "engine/signature.h"
#include "engine/splitmix.h"
#include "engine/state.h"
#include "engine/view.h"
#include "lib/chance/chance.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/gamehost.pb.h"

namespace metropolis::node {
namespace {

// ---- Wrapped objects -----------------------------------------------------------

struct StateBox {
  explicit StateBox(State s = State()) : state(std::move(s)) {}
  State state;
  // The legal actions listed last, for applyLegal(i): valid until the state changes.
  ActionList legal;
  bool legal_valid = false;
  const ActionList& Legal() {
    if (!legal_valid) {
      state.LegalActions(&legal);
      legal_valid = true;
    }
    return legal;
  }
};

struct ViewBox {
  explicit ViewBox(View v) : view(std::move(v)) {}
  View view;
};

struct BotBox {
  std::unique_ptr<bots::Bot> bot;
  bool busy = false;  // a chooseAsync is running: a bot is not safe on two threads
};

struct MatchBox {
  GameConfig config;
  State state;
  std::vector<KnowledgeTracker> knowledge;
  std::vector<std::unique_ptr<bots::Bot>> bots;  // nullptr: the seat decides in JavaScript
  std::vector<uint64_t> streams;
  std::unique_ptr<chance::ChanceStreams> chance;
  uint64_t steps = 0, hard_cap = 0;
  std::array<int, kMaxSeats> offers{}, counters{}, trades{};
  std::vector<Event> events;
};

// Distinct tags, so that a State's methods refuse a View and so on.
constexpr napi_type_tag kStateTag = {0x6d6574726f706f6cull, 0x0000000000000001ull};
constexpr napi_type_tag kViewTag = {0x6d6574726f706f6cull, 0x0000000000000002ull};
constexpr napi_type_tag kBotTag = {0x6d6574726f706f6cull, 0x0000000000000003ull};
constexpr napi_type_tag kMatchTag = {0x6d6574726f706f6cull, 0x0000000000000004ull};

struct AddonData {
  napi_ref state_class = nullptr, view_class = nullptr, bot_class = nullptr, match_class = nullptr;
};

AddonData* Data(napi_env env) {
  void* data = nullptr;
  napi_get_instance_data(env, &data);
  return static_cast<AddonData*>(data);
}

template <class T>
void Delete(napi_env, void* data, void*) {
  delete static_cast<T*>(data);
}

// Gives `self` (being constructed) its native object.
template <class T>
napi_value Adopt(napi_env env, napi_value self, T* box, const napi_type_tag& tag) {
  if (napi_wrap(env, self, box, Delete<T>, nullptr, nullptr) != napi_ok) {
    delete box;
    return ThrowLast(env);
  }
  NAPI_CALL(env, napi_type_tag_object(env, self, &tag));
  return self;
}

// The native object of `value`, or nullptr with a TypeError thrown.
template <class T>
T* Unwrap(napi_env env, napi_value value, const napi_type_tag& tag, const char* what) {
  bool tagged = false;
  if (TypeOf(env, value) == napi_object) napi_check_object_type_tag(env, value, &tag, &tagged);
  void* data = nullptr;
  if (!tagged || napi_unwrap(env, value, &data) != napi_ok) {
    Throw(env, std::string("expected a ") + what, true);
    return nullptr;
  }
  return static_cast<T*>(data);
}

// A new instance of the class behind `ref` that adopts `box`: the
// constructors take an External as their only argument for this.
template <class T>
napi_value NewInstance(napi_env env, napi_ref ref, T* box) {
  napi_value cls = nullptr, external = nullptr, out = nullptr;
  if (napi_get_reference_value(env, ref, &cls) != napi_ok ||
      napi_create_external(env, box, nullptr, nullptr, &external) != napi_ok) {
    delete box;
    return ThrowLast(env);
  }
  if (napi_new_instance(env, cls, 1, &external, &out) != napi_ok) return ThrowLast(env);
  return out;
}
napi_value NewState(napi_env env, State s) {
  return NewInstance(env, Data(env)->state_class, new StateBox(std::move(s)));
}
napi_value NewView(napi_env env, View v) { return NewInstance(env, Data(env)->view_class, new ViewBox(std::move(v))); }

// The External a constructor was called with from here, or nullptr.
void* Adopted(napi_env env, napi_value arg) {
  if (TypeOf(env, arg) != napi_external) return nullptr;
  void* data = nullptr;
  napi_get_value_external(env, arg, &data);
  return data;
}

// ---- Values in -------------------------------------------------------------------

// An action from a BigInt or Number code, a code or text string, or an
// object with a `code` (the kit's Action).
bool GetAction(napi_env env, napi_value v, Action* out, std::string* error) {
  const napi_valuetype t = TypeOf(env, v);
  if (t == napi_object) {
    napi_value code = nullptr;
    bool has = false;
    napi_has_named_property(env, v, "code", &has);
    if (!has || napi_get_named_property(env, v, "code", &code) != napi_ok) {
      *error = "an action: a BigInt code, its text, or an object with a code";
      return false;
    }
    return GetAction(env, code, out, error);
  }
  if (t == napi_string) {
    std::string text;
    GetString(env, v, &text);
    const bool numeric = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) != 0);
    if (!numeric) {
      std::optional<Action> a = ParseAction(text, error);
      if (!a) return false;
      *out = *a;
      return true;
    }
  }
  uint64_t code = 0;
  if (!GetUint64(env, v, &code, error)) {
    *error = "an action: a BigInt code, its text, or an object with a code";
    return false;
  }
  std::optional<Action> a = Decode(code);
  if (!a) {
    std::ostringstream hex;
    hex << std::hex << code;
    *error = "code 0x" + hex.str() + " names no action of rules version " + std::to_string(kRulesVersion);
    return false;
  }
  *out = *a;
  return true;
}

napi_value Named(napi_env env, napi_value object, const char* key) {
  napi_value out = nullptr;
  bool has = false;
  if (TypeOf(env, object) != napi_object || napi_has_named_property(env, object, key, &has) != napi_ok || !has)
    return nullptr;
  napi_get_named_property(env, object, key, &out);
  return IsMissing(env, out) ? nullptr : out;
}

// A configuration from {ruleset, seats, options, board}: ruleset
// "cities_and_knights" (default) or "base"; seats 3 or 4 (default 4); options
// as "name=value ..." text or an object; board "default" or a seed of
// RandomBoard. The same shape as the Python module's.
bool GetConfig(napi_env env, napi_value v, GameConfig* out, std::string* error) {
  GameConfig config;
  config.num_seats = 4;
  std::string ruleset = "cities_and_knights";
  if (!IsMissing(env, v) && TypeOf(env, v) != napi_object) {
    *error = "a configuration object {ruleset, seats, options, board}";
    return false;
  }
  if (napi_value r = Named(env, v, "ruleset"); r && !GetString(env, r, &ruleset)) {
    *error = "ruleset: a string";
    return false;
  }
  if (std::string e = ParseOption("ruleset=" + ruleset, &config.options); !e.empty()) {
    *error = "ruleset: " + e;
    return false;
  }
  if (napi_value s = Named(env, v, "seats")) {
    int64_t seats = 0;
    if (!GetInt(env, s, 3, 4, &seats, error)) {
      *error = "seats: " + *error;
      return false;
    }
    config.num_seats = int(seats);
  }
  std::vector<std::string> items;
  if (napi_value o = Named(env, v, "options")) {
    std::string text;
    if (GetString(env, o, &text)) {
      std::istringstream in(text);
      for (std::string item; in >> item;) items.push_back(item);
    } else if (TypeOf(env, o) == napi_object) {
      napi_value keys = nullptr;
      napi_get_property_names(env, o, &keys);
      uint32_t n = 0;
      napi_get_array_length(env, keys, &n);
      for (uint32_t i = 0; i < n; ++i) {
        napi_value key = nullptr, value = nullptr, text_value = nullptr;
        napi_get_element(env, keys, i, &key);
        napi_get_property(env, o, key, &value);
        napi_coerce_to_string(env, value, &text_value);
        std::string k, val;
        GetString(env, key, &k);
        GetString(env, text_value, &val);
        items.push_back(k + "=" + val);
      }
    } else {
      *error = "options: 'name=value ...' text or an object";
      return false;
    }
  }
  for (const std::string& item : items)
    if (std::string e = ParseOption(item, &config.options); !e.empty()) {
      *error = "option " + item + ": " + e;
      return false;
    }
  napi_value b = Named(env, v, "board");
  std::string board_text;
  if (!b || (GetString(env, b, &board_text) && board_text == "default")) {
    config.board = DefaultBoard();
  } else {
    uint64_t seed = 0;
    if (!GetUint64(env, b, &seed, error)) {
      *error = "board: 'default' or a seed of RandomBoard";
      return false;
    }
    config.board = RandomBoard(seed);
  }
  if (std::string e = ValidateConfig(config); !e.empty()) {
    *error = "configuration: " + e;
    return false;
  }
  *out = config;
  return true;
}

std::string PhaseName(Phase p) {
  switch (p) {
    case Phase::kSetup:
      return "setup";
    case Phase::kBeforeRoll:
      return "before_roll";
    case Phase::kAction:
      return "action";
    case Phase::kGameOver:
      break;
  }
  return "game_over";
}

napi_value Codes(napi_env env, const Action* begin, const Action* end) {
  std::vector<uint64_t> codes;
  codes.reserve(size_t(end - begin));
  for (const Action* a = begin; a != end; ++a) codes.push_back(Encode(*a));
  return BigUint64Array(env, codes.data(), codes.size());
}

napi_value Texts(napi_env env, const Action* begin, const Action* end) {
  std::vector<std::string> texts;
  for (const Action* a = begin; a != end; ++a) texts.push_back(ActionToString(*a));
  return Array(env, texts, [&](const std::string& t) { return String(env, t); });
}

// The serialized PlayUpdate{welcome} of seat `seat` in a game of `config`: what
// a host sends first, for View.fromDecision and the kit's decisions made here.
napi_value WelcomeBytes(napi_env env, const GameConfig& config, int seat, uint32_t step) {
  v1::PlayUpdate u;
  u.mutable_welcome()->set_game_id("local");
  u.mutable_welcome()->set_seat(seat);
  u.mutable_welcome()->set_step(step);
  protocol::ConfigToProto(config, u.mutable_welcome()->mutable_config());
  const std::string bytes = u.SerializeAsString();
  napi_value out = nullptr;
  if (napi_create_buffer_copy(env, bytes.size(), bytes.data(), nullptr, &out) != napi_ok) return ThrowLast(env);
  return out;
}

// ---- State -------------------------------------------------------------------------

#define STATE_THIS(box)                                                 \
  Args args;                                                            \
  if (!GetArgs(env, info, 3, &args)) return ThrowLast(env);             \
  StateBox* box = Unwrap<StateBox>(env, args.self, kStateTag, "State"); \
  if (!box) return nullptr

napi_value StateNew(napi_env env, napi_callback_info info) {
  Args args;
  if (!GetArgs(env, info, 1, &args)) return ThrowLast(env);
  if (void* adopted = Adopted(env, args[0])) return Adopt(env, args.self, static_cast<StateBox*>(adopted), kStateTag);
  GameConfig config;
  std::string error;
  if (!GetConfig(env, args[0], &config, &error)) return Throw(env, "State: " + error, true);
  auto box = std::make_unique<StateBox>();
  if (!NewGame(config, &box->state, &error)) return Throw(env, "State: " + error);
  return Adopt(env, args.self, box.release(), kStateTag);
}

napi_value StateFromNotation(napi_env env, napi_callback_info info) {
  Args args;
  if (!GetArgs(env, info, 1, &args)) return ThrowLast(env);
  std::string text, error;
  if (!GetString(env, args[0], &text)) return Throw(env, "fromNotation: a string", true);
  State s;
  if (!FromNotation(text, &s, &error)) return Throw(env, "fromNotation: " + error);
  return NewState(env, std::move(s));
}

napi_value StateCurrentPlayer(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return Int(env, box->state.CurrentPlayer());
}
napi_value StateIsTerminal(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return Bool(env, box->state.IsTerminal());
}
napi_value StateIsChanceNode(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return Bool(env, box->state.IsChanceNode());
}
napi_value StateWinner(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return Int(env, box->state.Winner());
}
napi_value StateNumSeats(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return Int(env, box->state.num_seats());
}
napi_value StateActionCount(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return Int(env, box->state.action_count());
}
napi_value StateTurn(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return Int(env, box->state.turn_number());
}
napi_value StatePhase(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return String(env, PhaseName(box->state.phase()));
}

napi_value StateLegalActions(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  const ActionList& legal = box->Legal();
  return Codes(env, legal.begin(), legal.end());
}
// legalActionsInto(array): writes the codes into a BigUint64Array the caller
// keeps (at least 1024 long: ActionList's capacity) and returns how many: a
// search's loop then allocates nothing per step (a new typed array costs
// about a microsecond, several times the engine's step).
napi_value StateLegalActionsInto(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  napi_typedarray_type type;
  size_t length = 0;
  void* data = nullptr;
  bool is = false;
  if (napi_is_typedarray(env, args[0], &is) != napi_ok || !is ||
      napi_get_typedarray_info(env, args[0], &type, &length, &data, nullptr, nullptr) != napi_ok ||
      type != napi_biguint64_array)
    return Throw(env, "legalActionsInto: a BigUint64Array", true);
  const ActionList& legal = box->Legal();
  if (length < size_t(legal.size))
    return Throw(env, "legalActionsInto: the array is shorter than the legal actions", true);
  uint64_t* out = static_cast<uint64_t*>(data);
  for (int i = 0; i < legal.size; ++i) out[i] = Encode(legal.items[size_t(i)]);
  return Int(env, legal.size);
}
napi_value StateLegalCount(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return Int(env, box->state.IsChanceNode() || box->state.IsTerminal() ? 0 : box->Legal().size);
}
napi_value StateLegalTexts(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  const ActionList& legal = box->Legal();
  return Texts(env, legal.begin(), legal.end());
}

// apply(action): checked; an illegal action throws (err.code
// 'ILLEGAL_ACTION', the message naming the rule) and changes nothing. Like
// applyLegal and applyChance it returns who acts next (currentPlayer): a
// playout loop then crosses into the addon once or twice per action, not four
// times (each crossing costs about 100 ns, docs/PERFORMANCE.md).
napi_value StateApply(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  Action a;
  std::string error;
  if (!GetAction(env, args[0], &a, &error)) return Throw(env, "apply: " + error, true);
  if (std::string e = box->state.Apply(a); !e.empty()) {
    napi_value message = String(env, ActionToString(a) + ": " + e), err = nullptr;
    napi_create_error(env, String(env, "ILLEGAL_ACTION"), message, &err);
    napi_throw(env, err);
    return nullptr;
  }
  box->legal_valid = false;
  return Int(env, box->state.CurrentPlayer());
}

// applyLegal(i): the i-th of legalActions(), unchecked since the engine listed
// it: the fast path of a playout (no BigInt crosses).
napi_value StateApplyLegal(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  int64_t i = 0;
  std::string error;
  const ActionList& legal = box->Legal();
  if (box->state.IsChanceNode() || box->state.IsTerminal() ||
      !GetInt(env, args[0], 0, int64_t(legal.size) - 1, &i, &error))
    return Throw(env, "applyLegal: " + (legal.size == 0 ? std::string("no seat is to act") : "index: " + error), true);
  box->state.ApplyUnchecked(legal.items[size_t(i)]);
  box->legal_valid = false;
  return Int(env, box->state.CurrentPlayer());
}

napi_value StateChanceOutcomes(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  std::vector<ChanceOutcome> outcomes;
  if (box->state.IsChanceNode()) outcomes = box->state.ChanceOutcomes();
  return Array(env, outcomes, [&](const ChanceOutcome& o) {
    napi_value x = Object(env);
    Set(env, x, "code", BigInt(env, Encode(o.action)));
    Set(env, x, "probability", Double(env, o.probability));
    return x;
  });
}

bool GetUnit(napi_env env, napi_value v, double* u) {
  return napi_get_value_double(env, v, u) == napi_ok && *u >= 0 && *u < 1;
}

// sampleChance(u): the outcome u in [0, 1) picks (SampleChance), as a code.
napi_value StateSampleChance(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  double u = 0;
  if (!box->state.IsChanceNode()) return Throw(env, "sampleChance: not a chance node");
  if (!GetUnit(env, args[0], &u)) return Throw(env, "sampleChance: u in [0, 1)", true);
  return BigInt(env, Encode(box->state.SampleChance(u)));
}

// applyChance(u): applies that outcome.
napi_value StateApplyChance(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  double u = 0;
  if (!box->state.IsChanceNode()) return Throw(env, "applyChance: not a chance node");
  if (!GetUnit(env, args[0], &u)) return Throw(env, "applyChance: u in [0, 1)", true);
  box->state.ApplyUnchecked(box->state.SampleChance(u));
  box->legal_valid = false;
  return Int(env, box->state.CurrentPlayer());
}

// playRandom(chanceSeed, playerSeed): plays to the end here, chance and seats
// drawn as the bench signature draws them (engine/signature.h); returns the
// actions applied. A playout without crossing into JavaScript.
napi_value StatePlayRandom(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  uint64_t chance_seed = 0, player_seed = 0;
  std::string error;
  if (!GetUint64(env, args[0], &chance_seed, &error) || !GetUint64(env, args[1], &player_seed, &error))
    return Throw(env, "playRandom: seeds: " + error, true);
  BenchRng chance{chance_seed}, players{player_seed};
  const uint32_t before = box->state.action_count();
  PlayRandomGame(&box->state, &chance, &players, nullptr);
  box->legal_valid = false;
  return Int(env, box->state.action_count() - before);
}

napi_value StateReturns(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  const auto r = box->state.Returns();
  return Array(env, std::vector<double>(r.begin(), r.begin() + box->state.num_seats()),
               [&](double x) { return Double(env, x); });
}

bool GetSeat(napi_env env, const State& s, napi_value v, int* seat) {
  int64_t x = 0;
  std::string error;
  if (!GetInt(env, v, 0, s.num_seats() - 1, &x, &error)) return false;
  *seat = int(x);
  return true;
}

napi_value StateVp(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  int seat = 0;
  if (!GetSeat(env, box->state, args[0], &seat)) return Throw(env, "vp: a seat of the game", true);
  return Int(env, box->state.player(seat).vp);
}
napi_value StateHand(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  int seat = 0;
  if (!GetSeat(env, box->state, args[0], &seat)) return Throw(env, "hand: a seat of the game", true);
  const CardCounts& h = box->state.player(seat).hand;
  return Array(env, h.n, [&](auto n) { return Int(env, n); });
}
// view(seat): the seat's view, without a knowledge tracker's observations.
napi_value StateView(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  int seat = 0;
  if (!GetSeat(env, box->state, args[0], &seat)) return Throw(env, "view: a seat of the game", true);
  return NewView(env, MakeView(box->state, seat));
}
napi_value StateClone(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return NewState(env, box->state);
}
napi_value StateEquals(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  StateBox* other = Unwrap<StateBox>(env, args[0], kStateTag, "State");
  if (!other) return nullptr;
  return Bool(env, box->state == other->state);
}
// welcomeBytes(seat): the Welcome a host would send the seat of this game
// (its configuration as the state holds it), serialized.
napi_value StateWelcomeBytes(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  int seat = 0;
  if (!GetSeat(env, box->state, args[0], &seat)) return Throw(env, "welcomeBytes: a seat of the game", true);
  GameConfig config;
  config.num_seats = box->state.num_seats();
  config.board = box->state.board();
  config.options = box->state.options();
  return WelcomeBytes(env, config, seat, box->state.action_count());
}
napi_value StateToNotation(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return String(env, ToNotation(box->state));
}
napi_value StateValidate(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  return String(env, box->state.Validate());
}
// evaluate(seat): the bots' evaluation of the position for the seat
// (bots/evaluation.h), in victory-point equivalents; normalizedValue(seat)
// the same against the strongest opponent, in [0, 1].
napi_value StateEvaluate(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  int seat = 0;
  if (!GetSeat(env, box->state, args[0], &seat)) return Throw(env, "evaluate: a seat of the game", true);
  return Double(env, bots::Evaluate(box->state, seat));
}
napi_value StateNormalizedValue(napi_env env, napi_callback_info info) {
  STATE_THIS(box);
  int seat = 0;
  if (!GetSeat(env, box->state, args[0], &seat)) return Throw(env, "normalizedValue: a seat of the game", true);
  return Double(env, bots::NormalizedValue(box->state, seat));
}

// ---- View --------------------------------------------------------------------------

#define VIEW_THIS(box)                                              \
  Args args;                                                        \
  if (!GetArgs(env, info, 2, &args)) return ThrowLast(env);         \
  ViewBox* box = Unwrap<ViewBox>(env, args.self, kViewTag, "View"); \
  if (!box) return nullptr

napi_value ViewNew(napi_env env, napi_callback_info info) {
  Args args;
  if (!GetArgs(env, info, 1, &args)) return ThrowLast(env);
  void* adopted = Adopted(env, args[0]);
  if (!adopted) return Throw(env, "View: made by State.view, Match.view or View.fromDecision", true);
  return Adopt(env, args.self, static_cast<ViewBox*>(adopted), kViewTag);
}

bool GetBytes(napi_env env, napi_value v, const uint8_t** data, size_t* size) {
  bool is = false;
  if (napi_is_buffer(env, v, &is) == napi_ok && is) {
    void* d = nullptr;
    if (napi_get_buffer_info(env, v, &d, size) != napi_ok) return false;
    *data = static_cast<const uint8_t*>(d);
    return true;
  }
  if (napi_is_typedarray(env, v, &is) == napi_ok && is) {
    napi_typedarray_type type;
    void* d = nullptr;
    size_t length = 0, offset = 0;
    if (napi_get_typedarray_info(env, v, &type, &length, &d, nullptr, &offset) != napi_ok || type != napi_uint8_array)
      return false;
    *data = static_cast<const uint8_t*>(d);
    *size = length;
    return true;
  }
  return false;
}

// View.fromDecision(decisionBytes, welcomeBytes): the view of a Decision the
// host sent, read by the engine's own conversion (lib/protocol/convert.h,
// ViewFromProto, checked as the C++ kit checks it) from the serialized
// PlayUpdate and the game's configuration from its Welcome's.
napi_value ViewFromDecision(napi_env env, napi_callback_info info) {
  Args args;
  if (!GetArgs(env, info, 2, &args)) return ThrowLast(env);
  const uint8_t* data = nullptr;
  size_t size = 0;
  v1::PlayUpdate decision, welcome;
  if (!GetBytes(env, args[0], &data, &size) || !decision.ParseFromArray(data, int(size)) || !decision.has_decision())
    return Throw(env, "fromDecision: the bytes of a PlayUpdate holding a Decision", true);
  if (!GetBytes(env, args[1], &data, &size) || !welcome.ParseFromArray(data, int(size)) || !welcome.has_welcome())
    return Throw(env, "fromDecision: the bytes of the game's Welcome (a PlayUpdate)", true);
  GameConfig config;
  std::string error;
  if (!protocol::ConfigFromProto(welcome.welcome().config(), &config, &error))
    return Throw(env, "fromDecision: the welcome's configuration: " + error);
  View view{State()};
  if (!protocol::ViewFromProto(decision.decision().view(), config, &view, &error))
    return Throw(env, "fromDecision: cannot read the view: " + error);
  return NewView(env, std::move(view));
}

napi_value ViewViewer(napi_env env, napi_callback_info info) {
  VIEW_THIS(box);
  return Int(env, box->view.viewer);
}
napi_value ViewLegalActions(napi_env env, napi_callback_info info) {
  VIEW_THIS(box);
  return Codes(env, box->view.legal.data(), box->view.legal.data() + box->view.legal.size());
}
napi_value ViewLegalTexts(napi_env env, napi_callback_info info) {
  VIEW_THIS(box);
  return Texts(env, box->view.legal.data(), box->view.legal.data() + box->view.legal.size());
}
// sampleState(seed): a full state consistent with the view (SampleState): the
// hidden cards dealt from those the viewer cannot place. Search plays on it.
napi_value ViewSampleState(napi_env env, napi_callback_info info) {
  VIEW_THIS(box);
  uint64_t seed = 0;
  std::string error;
  if (!GetUint64(env, args[0], &seed, &error)) return Throw(env, "sampleState: seed: " + error, true);
  State out;
  if (!SampleState(box->view, seed, &out, &error)) return Throw(env, "sampleState: " + error);
  return NewState(env, std::move(out));
}
// The masked state's notation: what the viewer sees, for reading and logs
// (the masked state breaks card conservation, so it is never played on).
napi_value ViewToNotation(napi_env env, napi_callback_info info) {
  VIEW_THIS(box);
  return String(env, ToNotation(box->view.state));
}
// decisionBytes(step): the Decision a host would send with this view at
// `step`, serialized as a PlayUpdate (lib/protocol's ViewToProto): what the kit
// reads from the network, for deciding on local games exactly as on a host's.
napi_value ViewDecisionBytes(napi_env env, napi_callback_info info) {
  VIEW_THIS(box);
  int64_t step = 0;
  std::string error;
  if (!GetInt(env, args[0], 0, UINT32_MAX, &step, &error)) return Throw(env, "decisionBytes: step: " + error, true);
  v1::PlayUpdate u;
  u.mutable_decision()->set_step(uint32_t(step));
  protocol::ViewToProto(box->view, u.mutable_decision()->mutable_view());
  const std::string bytes = u.SerializeAsString();
  napi_value out = nullptr;
  NAPI_CALL(env, napi_create_buffer_copy(env, bytes.size(), bytes.data(), nullptr, &out));
  return out;
}
napi_value ViewEquals(napi_env env, napi_callback_info info) {
  VIEW_THIS(box);
  ViewBox* other = Unwrap<ViewBox>(env, args[0], kViewTag, "View");
  if (!other) return nullptr;
  return Bool(env, box->view == other->view);
}

// ---- Bot ---------------------------------------------------------------------------

napi_value BotNew(napi_env env, napi_callback_info info) {
  Args args;
  if (!GetArgs(env, info, 1, &args)) return ThrowLast(env);
  std::string spec, error;
  if (!GetString(env, args[0], &spec)) return Throw(env, "Bot: a spec such as 'heuristic' or 'search:ms=50'", true);
  auto box = std::make_unique<BotBox>();
  box->bot = bots::MakeBot(spec, &error);
  if (!box->bot) return Throw(env, "Bot: " + error, true);
  return Adopt(env, args.self, box.release(), kBotTag);
}

#define BOT_THIS(box)                                           \
  Args args;                                                    \
  if (!GetArgs(env, info, 3, &args)) return ThrowLast(env);     \
  BotBox* box = Unwrap<BotBox>(env, args.self, kBotTag, "Bot"); \
  if (!box) return nullptr

napi_value BotName(napi_env env, napi_callback_info info) {
  BOT_THIS(box);
  return String(env, box->bot->name());
}

// Reads (view, stream, excluded) for choose and chooseAsync.
bool GetChoice(napi_env env, const Args& args, ViewBox** view, uint64_t* stream, std::vector<Action>* excluded) {
  *view = Unwrap<ViewBox>(env, args[0], kViewTag, "View");
  if (!*view) return false;
  std::string error;
  if (!GetUint64(env, args[1], stream, &error)) {
    Throw(env, "choose: stream: " + error, true);
    return false;
  }
  if ((*view)->view.legal.empty()) {
    Throw(env, "choose: the view's seat is not to act");
    return false;
  }
  if (!IsMissing(env, args[2])) {
    uint32_t n = 0;
    if (napi_get_array_length(env, args[2], &n) != napi_ok) {
      Throw(env, "choose: excluded: an array of actions", true);
      return false;
    }
    for (uint32_t i = 0; i < n; ++i) {
      napi_value item = nullptr;
      napi_get_element(env, args[2], i, &item);
      Action a;
      if (!GetAction(env, item, &a, &error)) {
        Throw(env, "choose: excluded: " + error, true);
        return false;
      }
      excluded->push_back(a);
    }
  }
  return true;
}

napi_value Choice(napi_env env, const Action& action, uint64_t stream) {
  napi_value out = Object(env);
  Set(env, out, "action", BigInt(env, Encode(action)));
  Set(env, out, "stream", BigInt(env, stream));
  return out;
}

// choose(view, stream, excluded?): {action, stream}: the bot's choice among
// the view's legal actions but the excluded ones (those the host refused;
// botkits/cpp/builtin.h, ChooseExcluding), and its random stream's next state.
napi_value BotChoose(napi_env env, napi_callback_info info) {
  BOT_THIS(box);
  ViewBox* view = nullptr;
  uint64_t stream = 0;
  std::vector<Action> excluded;
  if (!GetChoice(env, args, &view, &stream, &excluded)) return nullptr;
  if (box->busy) return Throw(env, "choose: this bot is choosing on another thread (chooseAsync)");
  const Action a = botkit::ChooseExcluding(*box->bot, view->view, excluded, &stream);
  return Choice(env, a, stream);
}

struct ChooseWork {
  napi_async_work work = nullptr;
  napi_deferred deferred = nullptr;
  napi_ref bot_ref = nullptr, view_ref = nullptr;  // kept alive while the worker reads them
  BotBox* bot = nullptr;
  const View* view = nullptr;
  std::vector<Action> excluded;
  uint64_t stream = 0;
  Action action;
};

// chooseAsync(view, stream, excluded?): the same on Node's worker pool; a
// Promise of {action, stream}. One at a time per bot.
napi_value BotChooseAsync(napi_env env, napi_callback_info info) {
  BOT_THIS(box);
  auto work = std::make_unique<ChooseWork>();
  ViewBox* view = nullptr;
  if (!GetChoice(env, args, &view, &work->stream, &work->excluded)) return nullptr;
  if (box->busy) return Throw(env, "chooseAsync: this bot is already choosing");
  work->bot = box;
  work->view = &view->view;
  napi_value promise = nullptr;
  NAPI_CALL(env, napi_create_promise(env, &work->deferred, &promise));
  NAPI_CALL(env, napi_create_reference(env, args.self, 1, &work->bot_ref));
  NAPI_CALL(env, napi_create_reference(env, args[0], 1, &work->view_ref));
  napi_value name = String(env, "metropolis.Bot.chooseAsync");
  NAPI_CALL(env, napi_create_async_work(
                     env, nullptr, name,
                     [](napi_env, void* data) {
                       auto* w = static_cast<ChooseWork*>(data);
                       w->action = botkit::ChooseExcluding(*w->bot->bot, *w->view, w->excluded, &w->stream);
                     },
                     [](napi_env env, napi_status, void* data) {
                       std::unique_ptr<ChooseWork> w(static_cast<ChooseWork*>(data));
                       w->bot->busy = false;
                       napi_resolve_deferred(env, w->deferred, Choice(env, w->action, w->stream));
                       napi_delete_reference(env, w->bot_ref);
                       napi_delete_reference(env, w->view_ref);
                       napi_delete_async_work(env, w->work);
                     },
                     work.get(), &work->work));
  NAPI_CALL(env, napi_queue_async_work(env, work->work));
  box->busy = true;
  work.release();
  return promise;
}

// ---- Match -------------------------------------------------------------------------

#define MATCH_THIS(box)                                                 \
  Args args;                                                            \
  if (!GetArgs(env, info, 2, &args)) return ThrowLast(env);             \
  MatchBox* box = Unwrap<MatchBox>(env, args.self, kMatchTag, "Match"); \
  if (!box) return nullptr

// new Match({config, chanceSeed, players, seeds}): players holds one bot spec
// per seat, or null for a seat whose decisions come from JavaScript; seeds
// each seat's random stream (the built-in bots draw from theirs).
napi_value MatchNew(napi_env env, napi_callback_info info) {
  Args args;
  if (!GetArgs(env, info, 1, &args)) return ThrowLast(env);
  auto box = std::make_unique<MatchBox>();
  std::string error;
  if (!GetConfig(env, Named(env, args[0], "config"), &box->config, &error)) return Throw(env, "Match: " + error, true);
  const int n = box->config.num_seats;
  uint64_t chance_seed = 0;
  napi_value cs = Named(env, args[0], "chanceSeed");
  if (!cs || !GetUint64(env, cs, &chance_seed, &error)) return Throw(env, "Match: chanceSeed: " + error, true);
  napi_value players = Named(env, args[0], "players"), seeds = Named(env, args[0], "seeds");
  uint32_t np = 0, ns = 0;
  if (!players || napi_get_array_length(env, players, &np) != napi_ok || int(np) != n)
    return Throw(env, "Match: players: one bot spec (or null) per seat", true);
  if (!seeds || napi_get_array_length(env, seeds, &ns) != napi_ok || int(ns) != n)
    return Throw(env, "Match: seeds: one per seat", true);
  for (int seat = 0; seat < n; ++seat) {
    napi_value p = nullptr, s = nullptr;
    napi_get_element(env, players, uint32_t(seat), &p);
    napi_get_element(env, seeds, uint32_t(seat), &s);
    uint64_t seed = 0;
    if (!GetUint64(env, s, &seed, &error)) return Throw(env, "Match: seeds: " + error, true);
    box->streams.push_back(seed);
    std::string spec;
    if (IsMissing(env, p)) {
      box->bots.push_back(nullptr);
    } else if (GetString(env, p, &spec)) {
      box->bots.push_back(bots::MakeBot(spec, &error));
      if (!box->bots.back()) return Throw(env, "Match: players: " + error, true);
    } else {
      return Throw(env, "Match: players: a bot spec or null", true);
    }
  }
  box->state = State(box->config);
  if (!NewGame(box->config, &box->state, &error)) return Throw(env, "Match: " + error);
  for (int seat = 0; seat < n; ++seat) {
    box->knowledge.emplace_back(seat);
    box->knowledge.back().Reset(box->state);
  }
  box->chance = std::make_unique<chance::ChanceStreams>(chance_seed);
  box->hard_cap = uint64_t(box->config.options.max_actions) + 1000;
  return Adopt(env, args.self, box.release(), kMatchTag);
}

// Applies `action` of `player` as bots::PlayGame does: checked, the events fed
// to every seat's tracker masked for it. "" or the error.
std::string MatchApply(MatchBox& m, int player, const Action& action) {
  m.events.clear();
  if (std::string e = m.state.Apply(action, &m.events); !e.empty()) {
    return "step " + std::to_string(m.steps + 1) + " '" + ActionToString(action) + "' by " +
           (player == kChancePlayer ? std::string("chance") : "seat " + std::to_string(player)) + ": " + e;
  }
  if (action.type == ActionType::kTradeOffer) ++m.offers[size_t(player)];
  if (action.type == ActionType::kTradeCounter) ++m.counters[size_t(player)];
  for (const Event& e : m.events) {
    if (e.type == EventType::kTradeExecuted) {
      ++m.trades[size_t(e.seat)];
      ++m.trades[size_t(e.other)];
    }
    for (int seat = 0; seat < m.config.num_seats; ++seat) m.knowledge[size_t(seat)].Observe(MaskEvent(e, seat));
  }
  ++m.steps;
  return "";
}

bool MatchOver(const MatchBox& m) { return m.state.IsTerminal() || m.steps >= m.hard_cap; }

// advance(): plays chance and the built-in seats until a JavaScript seat is to
// decide; returns that seat, or TERMINAL (-3) once the game is over.
napi_value MatchAdvance(napi_env env, napi_callback_info info) {
  MATCH_THIS(box);
  while (!MatchOver(*box)) {
    const int player = box->state.CurrentPlayer();
    Action action;
    if (player == kChancePlayer) {
      action = box->chance->Sample(box->state);
    } else if (box->bots[size_t(player)]) {
      View view = MakeView(box->state, player, &box->knowledge[size_t(player)]);
      action = box->bots[size_t(player)]->Choose(view, &box->streams[size_t(player)]);
    } else {
      return Int(env, player);
    }
    if (std::string e = MatchApply(*box, player, action); !e.empty()) return Throw(env, "advance: " + e);
  }
  return Int(env, kTerminalPlayer);
}

// view(): the deciding JavaScript seat's view, with what its tracker observed.
napi_value MatchView(napi_env env, napi_callback_info info) {
  MATCH_THIS(box);
  const int player = box->state.CurrentPlayer();
  if (MatchOver(*box) || player < 0 || box->bots[size_t(player)])
    return Throw(env, "view: no JavaScript seat is to act (advance first)");
  return NewView(env, MakeView(box->state, player, &box->knowledge[size_t(player)]));
}

// apply(action): the deciding JavaScript seat's action, checked.
napi_value MatchApplyAction(napi_env env, napi_callback_info info) {
  MATCH_THIS(box);
  const int player = box->state.CurrentPlayer();
  if (MatchOver(*box) || player < 0 || box->bots[size_t(player)])
    return Throw(env, "apply: no JavaScript seat is to act (advance first)");
  Action a;
  std::string error;
  if (!GetAction(env, args[0], &a, &error)) return Throw(env, "apply: " + error, true);
  if (std::string e = MatchApply(*box, player, a); !e.empty()) return Throw(env, "apply: " + e);
  return Undefined(env);
}

// outcome(): {over, winner, actions, turns, vp, offers, counters, trades}
// (winner -1 at the length cap), as bots::GameOutcome.
napi_value MatchOutcome(napi_env env, napi_callback_info info) {
  MATCH_THIS(box);
  const int n = box->config.num_seats;
  auto seats = [&](auto get) {
    std::vector<int> v;
    for (int seat = 0; seat < n; ++seat) v.push_back(get(seat));
    return Array(env, v, [&](int x) { return Int(env, x); });
  };
  napi_value out = Object(env);
  Set(env, out, "over", Bool(env, MatchOver(*box)));
  Set(env, out, "winner", Int(env, box->state.IsTerminal() ? box->state.Winner() : kNoSeat));
  Set(env, out, "actions", Int(env, int64_t(box->steps)));
  Set(env, out, "turns", Int(env, box->state.turn_number()));
  Set(env, out, "vp", seats([&](int s) { return int(box->state.player(s).vp); }));
  Set(env, out, "offers", seats([&](int s) { return box->offers[size_t(s)]; }));
  Set(env, out, "counters", seats([&](int s) { return box->counters[size_t(s)]; }));
  Set(env, out, "trades", seats([&](int s) { return box->trades[size_t(s)]; }));
  return out;
}

napi_value MatchStep(napi_env env, napi_callback_info info) {
  MATCH_THIS(box);
  return Int(env, box->state.action_count());
}
napi_value MatchWelcomeBytes(napi_env env, napi_callback_info info) {
  MATCH_THIS(box);
  int seat = 0;
  if (!GetSeat(env, box->state, args[0], &seat)) return Throw(env, "welcomeBytes: a seat of the game", true);
  return WelcomeBytes(env, box->config, seat, box->state.action_count());
}
napi_value MatchState(napi_env env, napi_callback_info info) {
  MATCH_THIS(box);
  return NewState(env, box->state);
}

// ---- Module functions ---------------------------------------------------------------

napi_value ActionText(napi_env env, napi_callback_info info) {
  Args args;
  if (!GetArgs(env, info, 1, &args)) return ThrowLast(env);
  Action a;
  std::string error;
  if (!GetAction(env, args[0], &a, &error)) return Throw(env, "actionText: " + error, true);
  return String(env, ActionToString(a));
}

napi_value ParseActionText(napi_env env, napi_callback_info info) {
  Args args;
  if (!GetArgs(env, info, 1, &args)) return ThrowLast(env);
  std::string text, error;
  if (!GetString(env, args[0], &text)) return Throw(env, "parseAction: a string", true);
  std::optional<Action> a = ParseAction(text, &error);
  if (!a) return Throw(env, "parseAction: " + error);
  return BigInt(env, Encode(*a));
}

napi_value BotKinds(napi_env env, napi_callback_info) {
  return Array(env, bots::BotKinds(), [&](const std::string& k) { return String(env, k); });
}

// benchSignature(games, seed, ruleset?): the bench signature (engine/signature.h)
// and its counts: {signature, games, actions, chanceActions, won}. The C++ loop
// a JavaScript playout through the addon is measured against.
napi_value BenchSignatureFn(napi_env env, napi_callback_info info) {
  Args args;
  if (!GetArgs(env, info, 3, &args)) return ThrowLast(env);
  int64_t games = 0;
  uint64_t seed = 0;
  std::string error, ruleset = "cities_and_knights";
  if (!GetInt(env, args[0], 0, 1000000, &games, &error)) return Throw(env, "benchSignature: games: " + error, true);
  if (!GetUint64(env, args[1], &seed, &error)) return Throw(env, "benchSignature: seed: " + error, true);
  if (!IsMissing(env, args[2]) && !GetString(env, args[2], &ruleset))
    return Throw(env, "benchSignature: ruleset", true);
  RulesOptions o;
  if (std::string e = ParseOption("ruleset=" + ruleset, &o); !e.empty())
    return Throw(env, "benchSignature: " + e, true);
  BenchCounts counts;
  const uint64_t signature = BenchSignature(int(games), seed, &counts, o.ruleset);
  napi_value out = Object(env);
  Set(env, out, "signature", BigInt(env, signature));
  Set(env, out, "games", Int(env, int64_t(counts.games)));
  Set(env, out, "actions", Int(env, int64_t(counts.actions)));
  Set(env, out, "chanceActions", Int(env, int64_t(counts.chance_actions)));
  Set(env, out, "won", Int(env, int64_t(counts.won)));
  return out;
}

napi_value DefineClass(napi_env env, napi_value exports, const char* name, napi_callback ctor,
                       const std::vector<napi_property_descriptor>& props, napi_ref* ref) {
  napi_value cls = nullptr;
  if (napi_define_class(env, name, NAPI_AUTO_LENGTH, ctor, nullptr, props.size(), props.data(), &cls) != napi_ok)
    return ThrowLast(env);
  napi_create_reference(env, cls, 1, ref);
  napi_set_named_property(env, exports, name, cls);
  return cls;
}

napi_property_descriptor Method(const char* name, napi_callback fn) {
  return {name, nullptr, fn, nullptr, nullptr, nullptr, napi_default_method, nullptr};
}
napi_property_descriptor Getter(const char* name, napi_callback fn) {
  return {name, nullptr, nullptr, fn, nullptr, nullptr, napi_enumerable, nullptr};
}
napi_property_descriptor Static(const char* name, napi_callback fn) {
  return {name,   nullptr, fn, nullptr, nullptr, nullptr, napi_property_attributes(napi_default_method | napi_static),
          nullptr};
}

napi_value Init(napi_env env, napi_value exports) {
  auto* data = new AddonData;
  napi_set_instance_data(
      env, data, [](napi_env, void* d, void*) { delete static_cast<AddonData*>(d); }, nullptr);
  DefineClass(env, exports, "State", StateNew,
              {Static("fromNotation", StateFromNotation),
               Getter("currentPlayer", StateCurrentPlayer),
               Getter("isTerminal", StateIsTerminal),
               Getter("isChanceNode", StateIsChanceNode),
               Getter("winner", StateWinner),
               Getter("numSeats", StateNumSeats),
               Getter("actionCount", StateActionCount),
               Getter("turn", StateTurn),
               Getter("phase", StatePhase),
               Method("legalActions", StateLegalActions),
               Method("legalActionsInto", StateLegalActionsInto),
               Method("legalCount", StateLegalCount),
               Method("legalTexts", StateLegalTexts),
               Method("apply", StateApply),
               Method("applyLegal", StateApplyLegal),
               Method("chanceOutcomes", StateChanceOutcomes),
               Method("sampleChance", StateSampleChance),
               Method("applyChance", StateApplyChance),
               Method("playRandom", StatePlayRandom),
               Method("returns", StateReturns),
               Method("vp", StateVp),
               Method("hand", StateHand),
               Method("view", StateView),
               Method("clone", StateClone),
               Method("equals", StateEquals),
               Method("toNotation", StateToNotation),
               Method("welcomeBytes", StateWelcomeBytes),
               Method("validate", StateValidate),
               Method("evaluate", StateEvaluate),
               Method("normalizedValue", StateNormalizedValue)},
              &data->state_class);
  DefineClass(
      env, exports, "View", ViewNew,
      {Static("fromDecision", ViewFromDecision), Getter("viewer", ViewViewer), Method("legalActions", ViewLegalActions),
       Method("legalTexts", ViewLegalTexts), Method("sampleState", ViewSampleState),
       Method("toNotation", ViewToNotation), Method("decisionBytes", ViewDecisionBytes), Method("equals", ViewEquals)},
      &data->view_class);
  DefineClass(env, exports, "Bot", BotNew,
              {Getter("name", BotName), Method("choose", BotChoose), Method("chooseAsync", BotChooseAsync)},
              &data->bot_class);
  DefineClass(env, exports, "Match", MatchNew,
              {Method("advance", MatchAdvance), Method("view", MatchView), Method("apply", MatchApplyAction),
               Getter("step", MatchStep), Method("outcome", MatchOutcome), Method("state", MatchState),
               Method("welcomeBytes", MatchWelcomeBytes)},
              &data->match_class);
  const std::pair<const char*, napi_callback> functions[] = {{"actionText", ActionText},
                                                             {"parseAction", ParseActionText},
                                                             {"botKinds", BotKinds},
                                                             {"benchSignature", BenchSignatureFn}};
  for (const auto& [name, fn] : functions) {
    napi_value f = nullptr;
    napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, nullptr, &f);
    napi_set_named_property(env, exports, name, f);
  }
  Set(env, exports, "RULES_VERSION", Int(env, kRulesVersion));
  Set(env, exports, "CHANCE", Int(env, kChancePlayer));
  Set(env, exports, "TERMINAL", Int(env, kTerminalPlayer));
  Set(env, exports, "NO_SEAT", Int(env, kNoSeat));
  return exports;
}

}  // namespace
}  // namespace metropolis::node

NAPI_MODULE_INIT() { return metropolis::node::Init(env, exports); }
