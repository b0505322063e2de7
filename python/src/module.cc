// The Python module metropolis._core, part one: actions, configurations,
// states, views, records, bots and the flat action space (docs/PYTHON.md).

#include "python/src/module.h"

#include <sstream>

#include "bots/bot.h"
#include "engine/event.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/view.h"
#include "python/src/action_space.h"
#include "python/src/observation.h"

namespace metropolis::python {

ConfigArgs ParseConfigArgs(const std::string& ruleset, int seats, const py::object& options, const py::object& board) {
  ConfigArgs out;
  out.config.num_seats = seats;
  RulesOptions& o = out.config.options;
  // The ruleset first: it resets the options that default differently (the
  // base game's 10 VP), which the options may then change (as on the command line).
  if (std::string e = ParseOption("ruleset=" + ruleset, &o); !e.empty()) throw py::value_error("ruleset: " + e);
  std::vector<std::string> items;
  if (py::isinstance<py::str>(options)) {
    std::istringstream in(options.cast<std::string>());
    for (std::string item; in >> item;) items.push_back(item);
  } else if (py::isinstance<py::dict>(options)) {
    for (auto [key, value] : options.cast<py::dict>())
      items.push_back(py::str(key).cast<std::string>() + "=" +
                      (py::isinstance<py::bool_>(value) ? std::string(value.cast<bool>() ? "true" : "false")
                                                        : py::str(value).cast<std::string>()));
  } else if (!options.is_none()) {
    for (py::handle item : options) items.push_back(py::str(item).cast<std::string>());
  }
  for (const std::string& item : items)
    if (std::string e = ParseOption(item, &o); !e.empty()) throw py::value_error("option " + item + ": " + e);
  if (board.is_none() || (py::isinstance<py::str>(board) && board.cast<std::string>() == "default")) {
    out.config.board = DefaultBoard();
  } else if (py::isinstance<py::str>(board) && board.cast<std::string>() == "random") {
    out.random_board = true;
    out.config.board = RandomBoard(1);
  } else if (py::isinstance<py::int_>(board)) {
    out.config.board = RandomBoard(board.cast<uint64_t>());
  } else {
    throw py::value_error("board: 'default', 'random' or an int seed of RandomBoard");
  }
  if (std::string e = ValidateConfig(out.config); !e.empty()) throw py::value_error("configuration: " + e);
  return out;
}

Action ToAction(const py::object& action) {
  if (py::isinstance<py::str>(action)) {
    std::string error;
    std::optional<Action> a = ParseAction(action.cast<std::string>(), &error);
    if (!a) throw py::value_error("action '" + action.cast<std::string>() + "': " + error);
    return *a;
  }
  return action.cast<Action>();
}

namespace {

std::string PhaseName(Phase p) {
  if (p == Phase::kSetup) return "setup";
  if (p == Phase::kBeforeRoll) return "before_roll";
  if (p == Phase::kAction) return "action";
  return "game_over";
}

std::vector<std::string> ApplyOrRaise(State& s, const py::object& action) {
  const Action a = ToAction(action);
  std::vector<Event> events;
  if (std::string e = s.Apply(a, &events); !e.empty()) throw IllegalAction(e);
  std::vector<std::string> out;
  for (const Event& e : events) out.push_back(EventToString(e));
  return out;
}

py::array_t<float> Observe(const View& v) {
  std::vector<float> out(size_t(ObservationLayout::Get().size()));
  EncodeObservation(v, out.data());
  return ToNumpy(std::move(out));
}

py::array_t<uint8_t> LegalMask(const State& s) {
  const ActionSpace& space = ActionSpace::For(s.options().ruleset);
  std::vector<uint8_t> mask(size_t(space.size()), 0);
  if (s.CurrentPlayer() >= 0)
    for (const Action& a : s.LegalActions())
      if (const int i = space.Index(a); i >= 0) mask[size_t(i)] = 1;
  return ToNumpy(std::move(mask));
}

View MakeSeatView(const State& s, int seat) {
  if (seat < 0 || seat >= s.num_seats()) throw py::value_error("seat " + std::to_string(seat) + " out of range");
  return MakeView(s, seat);
}

GameConfig ConfigFromState(const State& s) {
  GameConfig c;
  c.num_seats = s.num_seats();
  c.board = s.board();
  c.options = s.options();
  return c;
}

const ActionSpace& SpaceByName(const std::string& ruleset) {
  RulesOptions o;
  if (std::string e = ParseOption("ruleset=" + ruleset, &o); !e.empty()) throw py::value_error("ruleset: " + e);
  return ActionSpace::For(o.ruleset);
}

py::list SegmentsOf(const ActionSpace& space) {
  py::list out;
  for (const Segment& s : space.segments()) {
    py::list params;
    for (const ParamRange& r : s.params)
      params.append(py::make_tuple(std::string(ParamKindName(r.kind)), int(r.lo), int(r.count)));
    py::dict d;
    d["name"] = s.name;
    d["type"] = std::string(ActionTypeName(s.type));
    d["offset"] = s.offset;
    d["size"] = s.size;
    d["params"] = params;
    out.append(d);
  }
  return out;
}

}  // namespace

void BindGame(py::module_& m) {
  m.attr("RULES_VERSION") = kRulesVersion;
  m.attr("CHANCE") = kChancePlayer;
  m.attr("TERMINAL") = kTerminalPlayer;
  m.attr("NO_SEAT") = kNoSeat;
  m.attr("MAX_SEATS") = kMaxSeats;
  m.attr("NUM_HEXES") = kNumHexes;
  m.attr("NUM_NODES") = kNumNodes;
  m.attr("NUM_EDGES") = kNumEdges;

  py::class_<Action>(m, "Action", "One decision of a seat or one chance outcome (engine/action.h).")
      .def(py::init([](const std::string& text) { return ToAction(py::str(text)); }), py::arg("text"),
           "Parses the text form, e.g. Action('build_road e17').")
      .def_static(
          "decode",
          [](uint64_t code) {
            std::optional<Action> a = Decode(code);
            if (!a) throw py::value_error("code " + std::to_string(code) + " names no action of this rules version");
            return *a;
          },
          py::arg("code"), "The action of a stable 64-bit code (Encode).")
      .def_property_readonly("type", [](const Action& a) { return std::string(ActionTypeName(a.type)); })
      .def_property_readonly("type_id", [](const Action& a) { return int(a.type); })
      .def_property_readonly("a", [](const Action& a) { return int(a.a); })
      .def_property_readonly("b", [](const Action& a) { return int(a.b); })
      .def_property_readonly("c", [](const Action& a) { return int(a.c); })
      .def_property_readonly("code", [](const Action& a) { return Encode(a); })
      .def_property_readonly("is_chance", [](const Action& a) { return IsChanceAction(a.type); })
      .def("__str__", [](const Action& a) { return ActionToString(a); })
      .def("__repr__", [](const Action& a) { return "Action('" + ActionToString(a) + "')"; })
      .def("__eq__", [](const Action& a, const Action& b) { return a == b; })
      .def("__hash__", [](const Action& a) { return py::hash(py::int_(Encode(a))); })
      .def(py::pickle([](const Action& a) { return Encode(a); }, [](uint64_t code) { return *Decode(code); }));

  py::class_<GameConfig>(m, "GameConfig",
                         "A game's configuration: ruleset, seats, options and board (engine/config.h).")
      .def(py::init([](const std::string& ruleset, int seats, const py::object& options, const py::object& board) {
             ConfigArgs args = ParseConfigArgs(ruleset, seats, options, board);
             if (args.random_board) throw py::value_error("board: a GameConfig needs 'default' or an int seed");
             return args.config;
           }),
           py::arg("ruleset") = "cities_and_knights", py::arg("seats") = 4, py::arg("options") = py::none(),
           py::arg("board") = "default")
      .def_property_readonly("num_seats", [](const GameConfig& c) { return c.num_seats; })
      .def_property_readonly("ruleset", [](const GameConfig& c) { return RulesetName(c.options.ruleset); })
      .def_property_readonly(
          "options", [](const GameConfig& c) { return OptionsToString(c.options); },
          "The options that differ from the ruleset's defaults, as 'name=value' text.")
      .def_property_readonly("victory_points", [](const GameConfig& c) { return int(c.options.victory_points); })
      .def_property_readonly("max_actions", [](const GameConfig& c) { return c.options.max_actions; })
      .def_property_readonly("rules_version", [](const GameConfig& c) { return c.rules_version; })
      .def_property_readonly(
          "terrain",
          [](const GameConfig& c) { return std::vector<int>(c.board.terrain.begin(), c.board.terrain.end()); })
      .def_property_readonly(
          "tokens", [](const GameConfig& c) { return std::vector<int>(c.board.token.begin(), c.board.token.end()); })
      .def_property_readonly(
          "harbors", [](const GameConfig& c) { return std::vector<int>(c.board.harbor.begin(), c.board.harbor.end()); })
      .def("__eq__", [](const GameConfig& a, const GameConfig& b) { return a == b; })
      .def("__repr__", [](const GameConfig& c) {
        return "GameConfig(seats=" + std::to_string(c.num_seats) + ", ruleset=" + RulesetName(c.options.ruleset) +
               (OptionsToString(c.options).empty() ? "" : ", options='" + OptionsToString(c.options) + "'") + ")";
      });

  py::class_<View>(m, "View",
                   "What one seat may see (engine/view.h): the masked state, its own cards, the others' counts.")
      .def_readonly("viewer", &View::viewer)
      .def_property_readonly(
          "state", [](const View& v) { return v.state; },
          "The masked state, for reading only (it breaks card conservation: do not play on it).")
      .def_property_readonly("hand_totals",
                             [](const View& v) { return std::vector<int>(v.hand_total.begin(), v.hand_total.end()); })
      .def_property_readonly(
          "progress_counts",
          [](const View& v) { return std::vector<int>(v.progress_count.begin(), v.progress_count.end()); })
      .def_property_readonly("dev_counts",
                             [](const View& v) { return std::vector<int>(v.dev_count.begin(), v.dev_count.end()); })
      .def("legal_actions", [](const View& v) { return v.legal; })
      .def("observation", &Observe, "The observation vector of the viewer (docs/PYTHON.md).")
      .def(
          "sample_state",
          [](const View& v, uint64_t seed) {
            State out;
            std::string error;
            if (!SampleState(v, seed, &out, &error)) throw py::value_error(error);
            return out;
          },
          py::arg("seed"), "A full state consistent with the view: the hidden cards dealt from the unplaced ones.")
      .def("__eq__", [](const View& a, const View& b) { return a == b; });

  py::class_<State>(m, "State", "A game state (engine/state.h). Copying is cloning: it is a flat block.")
      .def(py::init([](const py::object& config_arg) {
             // None: Cities & Knights, 4 seats, the default board (an engine
             // GameConfig{} has no board yet).
             const GameConfig config = config_arg.is_none()
                                           ? ParseConfigArgs("cities_and_knights", 4, py::none(), py::none()).config
                                           : config_arg.cast<GameConfig>();
             State s(config);
             std::string error;
             if (!NewGame(config, &s, &error)) throw py::value_error(error);
             return s;
           }),
           py::arg("config") = py::none())
      .def_static(
          "from_notation",
          [](const std::string& text) {
            State s;
            std::string error;
            if (!FromNotation(text, &s, &error)) throw py::value_error(error);
            return s;
          },
          py::arg("text"), "Reads a position in the notation (docs/NOTATION.md).")
      .def_property_readonly("current_player", &State::CurrentPlayer,
                             "A seat, CHANCE (-2) at a chance node or TERMINAL (-3) when the game is over.")
      .def_property_readonly("is_chance_node", &State::IsChanceNode)
      .def_property_readonly("is_terminal", &State::IsTerminal)
      .def_property_readonly("winner", &State::Winner)
      .def_property_readonly("num_seats", &State::num_seats)
      .def_property_readonly("phase", [](const State& s) { return PhaseName(s.phase()); })
      .def_property_readonly("turn", &State::turn_number)
      .def_property_readonly("action_count", &State::action_count)
      .def_property_readonly("ruleset", [](const State& s) { return RulesetName(s.options().ruleset); })
      .def_property_readonly("config", &ConfigFromState)
      .def("returns",
           [](const State& s) {
             const auto r = s.Returns();
             return std::vector<double>(r.begin(), r.begin() + s.num_seats());
           })
      .def(
          "legal_actions", [](const State& s) { return s.LegalActions(); },
          "The acting seat's actions sorted by code (trade offers are not enumerated).")
      .def("legal_mask", &LegalMask, "The legal actions as a mask over the ruleset's ActionSpace.")
      .def("chance_outcomes",
           [](const State& s) {
             std::vector<std::pair<Action, double>> out;
             if (!s.IsChanceNode()) return out;
             for (const ChanceOutcome& o : s.ChanceOutcomes()) out.emplace_back(o.action, o.probability);
             return out;
           })
      .def(
          "sample_chance",
          [](const State& s, double u) {
            if (!s.IsChanceNode()) throw py::value_error("not a chance node");
            if (!(u >= 0 && u < 1)) throw py::value_error("u must be in [0, 1)");
            return s.SampleChance(u);
          },
          py::arg("u"))
      .def(
          "check", [](const State& s, const py::object& a) { return s.CheckAction(ToAction(a)); }, py::arg("action"),
          "'' when the action is legal now, else the error naming the rule.")
      .def("apply", &ApplyOrRaise, py::arg("action"),
           "Applies an Action (or its text); returns the events as text. Raises IllegalActionError and changes "
           "nothing when the rules refuse it.")
      .def("clone", [](const State& s) { return s; })
      .def("__copy__", [](const State& s) { return s; })
      .def(
          "__deepcopy__", [](const State& s, py::dict) { return s; }, py::arg("memo"))
      .def("validate", &State::Validate)
      .def("to_notation", [](const State& s) { return ToNotation(s); })
      .def("board_picture", [](const State& s) { return BoardPicture(s); })
      .def("view", &MakeSeatView, py::arg("seat"), "The seat's view, without event knowledge (see Session).")
      .def(
          "observation", [](const State& s, int seat) { return Observe(MakeSeatView(s, seat)); }, py::arg("seat"))
      .def(
          "vp", [](const State& s, int seat) { return int(s.player(seat).vp); }, py::arg("seat"))
      .def(
          "hand",
          [](const State& s, int seat) {
            const CardCounts& h = s.player(seat).hand;
            return std::vector<int>(h.n.begin(), h.n.end());
          },
          py::arg("seat"))
      .def("__eq__", [](const State& a, const State& b) { return a == b; })
      .def("__str__", [](const State& s) { return ToNotation(s); })
      .def("__repr__", [](const State& s) { return "State('" + ToNotation(s) + "')"; })
      .def(py::pickle([](const State& s) { return ToNotation(s); },
                      [](const std::string& text) {
                        State s;
                        std::string error;
                        if (!FromNotation(text, &s, &error)) throw py::value_error(error);
                        return s;
                      }));

  py::class_<GameRecord>(m, "GameRecord", "A recorded game: configuration and actions, as a JSON line (engine/game.h).")
      .def(py::init([](const GameConfig& config, const std::vector<py::object>& actions, std::optional<uint64_t> seed,
                       std::optional<int> winner, std::vector<std::string> players) {
             GameRecord r;
             r.config = config;
             for (const py::object& a : actions) r.actions.push_back(ToAction(a));
             r.seed = seed;
             r.winner = winner;
             r.players = std::move(players);
             return r;
           }),
           py::arg("config"), py::arg("actions"), py::arg("seed") = py::none(), py::arg("winner") = py::none(),
           py::arg("players") = std::vector<std::string>())
      .def_static(
          "from_json",
          [](const std::string& json) {
            GameRecord r;
            std::string error;
            if (!GameRecordFromJson(json, &r, &error)) throw py::value_error(error);
            return r;
          },
          py::arg("json"))
      .def("to_json", &GameRecordToJson)
      .def_readonly("config", &GameRecord::config)
      .def_readonly("actions", &GameRecord::actions)
      .def_readonly("seed", &GameRecord::seed)
      .def_readonly("winner", &GameRecord::winner)
      .def_readonly("players", &GameRecord::players)
      .def(
          "replay",
          [](const GameRecord& r) {
            std::vector<State> states;
            std::string error;
            if (!ReplayGame(
                    r, [&](int, const State& s, const Action*, const std::vector<Event>&) { states.push_back(s); },
                    &error))
              throw IllegalAction(error);
            return states;
          },
          "Every state of the game, checked: the initial one, then one after each action.");

  py::class_<bots::Bot>(m, "Bot", "A built-in bot (docs/BOTS.md) that chooses from a seat's view.")
      .def(py::init([](const std::string& spec) {
             std::string error;
             std::unique_ptr<bots::Bot> bot = bots::MakeBot(spec, &error);
             if (!bot) throw py::value_error(error);
             return bot;
           }),
           py::arg("spec"))
      .def_property_readonly("name", &bots::Bot::name)
      .def(
          "choose",
          [](bots::Bot& bot, const View& view, uint64_t stream) {
            if (view.legal.empty()) throw py::value_error("the view's seat is not to act");
            Action a;
            {
              py::gil_scoped_release release;
              a = bot.Choose(view, &stream);
            }
            return py::make_tuple(a, stream);
          },
          py::arg("view"), py::arg("stream"),
          "Returns (action, the stream's next state): the bot's randomness is the splitmix64 stream passed in.");
  m.def("bot_kinds", &bots::BotKinds);

  // The spaces are shared singletons (ActionSpace::For): Python never deletes one.
  py::class_<ActionSpace, std::unique_ptr<ActionSpace, py::nodelete>>(
      m, "ActionSpace", "The flat action space of a ruleset (docs/PYTHON.md).")
      .def(py::init([](const std::string& ruleset) { return const_cast<ActionSpace*>(&SpaceByName(ruleset)); }),
           py::arg("ruleset") = "cities_and_knights")
      .def_property_readonly("size", &ActionSpace::size)
      .def("__len__", &ActionSpace::size)
      .def(
          "index", [](const ActionSpace& s, const py::object& a) { return s.Index(ToAction(a)); }, py::arg("action"),
          "The action's index, or -1 when it is outside the space.")
      .def(
          "action",
          [](const ActionSpace& s, int i) {
            if (i < 0 || i >= s.size()) throw py::index_error("index out of range");
            return s.ActionAt(i);
          },
          py::arg("index"))
      .def("segments", &SegmentsOf, "The segments in index order: name, type, offset, size and parameter ranges.")
      .def("segment_ids",
           [](const ActionSpace& s) {
             std::vector<int32_t> out;
             for (int i = 0; i < s.size(); ++i) out.push_back(s.SegmentOf(i));
             return ToNumpy(std::move(out));
           })
      .def(
          "targets",
          [](const ActionSpace& s) {
            std::vector<int32_t> out;
            for (int i = 0; i < s.size(); ++i) {
              const ActionSpace::Targets t = s.TargetsOf(i);
              out.insert(out.end(), {t.node1, t.node2, t.hex});
            }
            return ToNumpy(std::move(out), {py::ssize_t(s.size()), 3});
          },
          "Per index: its first node, second node and hex (-1: none), for policies that point at the board.")
      .def(
          "mask", [](const ActionSpace&, const State& s) { return LegalMask(s); }, py::arg("state"));

  m.def("observation_size", [] { return ObservationLayout::Get().size(); });
  m.def(
      "observation_layout",
      [] {
        py::list out;
        for (const ObservationBlock& b : ObservationLayout::Get().blocks()) {
          py::dict d;
          d["name"] = b.name;
          d["offset"] = b.offset;
          d["rows"] = b.rows;
          d["cols"] = b.cols;
          d["columns"] = b.columns;
          out.append(d);
        }
        return out;
      },
      "The observation's blocks in order: name, offset, rows, cols and column names.");
}

}  // namespace metropolis::python
