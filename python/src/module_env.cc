// The Python module metropolis._core, part two: sessions (one environment
// game), batched games, self-play, the arena and the example policy; and the
// module's entry point.

#include <cstring>

#include "python/src/batch.h"
#include "python/src/module.h"
#include "python/src/observation.h"
#include "python/src/policy.h"
#include "python/src/selfplay.h"
#include "python/src/session.h"

namespace metropolis::python {
namespace {

std::vector<std::string> BotList(const py::object& bots, int seats) {
  std::vector<std::string> out;
  if (bots.is_none()) return out;
  if (py::isinstance<py::str>(bots)) throw py::value_error("bots: one entry per seat (None or '' for an outside seat)");
  for (py::handle b : bots) out.push_back(b.is_none() ? std::string() : b.cast<std::string>());
  if (int(out.size()) != seats)
    throw py::value_error("bots: " + std::to_string(out.size()) + " entries for " + std::to_string(seats) + " seats");
  return out;
}

SessionOptions MakeSessionOptions(const std::string& ruleset, int seats, const py::object& options,
                                  const py::object& board, const py::object& bots) {
  ConfigArgs args = ParseConfigArgs(ruleset, seats, options, board);
  SessionOptions o;
  o.config = args.config;
  o.random_board = args.random_board;
  o.bots = BotList(bots, seats);
  return o;
}

// terminated and truncated are uint8 buffers shown as numpy bools (so that
// `array[ended]` selects, where a uint8 array would index).
static_assert(sizeof(bool) == sizeof(uint8_t));

// A read-only numpy view of a buffer owned by `owner` (kept alive by it).
template <typename T>
py::array BufferView(const py::object& owner, const T* data, std::vector<py::ssize_t> shape) {
  py::array_t<T> a(shape, data, owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

// A seat's player from Python: a bot spec (str) or a PolicyNet.
struct PyPolicy {
  std::shared_ptr<const PolicyNet> net;
};

PlayerSpec ToPlayer(const py::handle& p, const PolicyBotOptions& options) {
  PlayerSpec spec;
  if (py::isinstance<py::str>(p)) {
    spec.bot = p.cast<std::string>();
  } else {
    spec.policy = p.cast<const PyPolicy&>().net;
    spec.policy_options = options;
  }
  return spec;
}

std::vector<float> FloatVector(const py::array_t<float, py::array::c_style | py::array::forcecast>& a) {
  return std::vector<float>(a.data(), a.data() + a.size());
}

}  // namespace

void BindEnv(py::module_& m) {
  py::class_<GameSession>(m, "Session",
                          "One environment game: chance from the chance streams of the episode seed, bots in the seats "
                          "given one, the other seats played from Python (docs/PYTHON.md).")
      .def(py::init([](const std::string& ruleset, int seats, const py::object& options, const py::object& board,
                       const py::object& bots, bool knowledge) {
             SessionOptions o = MakeSessionOptions(ruleset, seats, options, board, bots);
             o.knowledge = knowledge;
             std::string error;
             std::unique_ptr<GameSession> s = GameSession::Make(o, &error);
             if (!s) throw py::value_error(error);
             return s;
           }),
           py::arg("ruleset") = "cities_and_knights", py::arg("seats") = 4, py::arg("options") = py::none(),
           py::arg("board") = "random", py::arg("bots") = py::none(), py::arg("knowledge") = true)
      .def(
          "reset",
          [](GameSession& s, uint64_t seed) {
            py::gil_scoped_release release;
            s.Reset(seed);
          },
          py::arg("seed"))
      .def_property_readonly("to_act", &GameSession::to_act, "The seat whose decision is awaited, or TERMINAL.")
      .def_property_readonly("over", &GameSession::over)
      .def_property_readonly("truncated", &GameSession::truncated, "Over at the length cap without a winner.")
      .def_property_readonly("winner", [](const GameSession& s) { return s.state().Winner(); })
      .def_property_readonly("seed", &GameSession::seed)
      .def_property_readonly("bug", &GameSession::bug)
      .def_property_readonly("outside_decisions", &GameSession::outside_decisions)
      .def_property_readonly(
          "state", [](const GameSession& s) { return s.state(); }, "A copy of the full state.")
      .def_property_readonly("config", [](const GameSession& s) { return s.config(); })
      .def_property_readonly(
          "space",
          [](const GameSession& s) { return const_cast<ActionSpace*>(&ActionSpace::For(s.config().options.ruleset)); })
      .def("returns",
           [](const GameSession& s) {
             const auto r = s.state().Returns();
             return std::vector<double>(r.begin(), r.begin() + s.state().num_seats());
           })
      .def(
          "view",
          [](const GameSession& s, int seat) {
            if (seat < 0 || seat >= s.state().num_seats()) throw py::value_error("seat out of range");
            return s.ViewOf(seat);
          },
          py::arg("seat"))
      .def(
          "observation",
          [](const GameSession& s, int seat) {
            if (seat < 0 || seat >= s.state().num_seats()) throw py::value_error("seat out of range");
            std::vector<float> out(size_t(ObservationLayout::Get().size()));
            EncodeObservation(s.ViewOf(seat), out.data());
            return ToNumpy(std::move(out));
          },
          py::arg("seat"), "The seat's observation: built from its view and what it observed (its knowledge).")
      .def("legal_indices",
           [](const GameSession& s) {
             std::vector<int32_t> out;
             if (s.to_act() >= 0) {
               const ActionSpace& space = ActionSpace::For(s.config().options.ruleset);
               for (const Action& a : s.state().LegalActions()) out.push_back(space.Index(a));
             }
             return ToNumpy(std::move(out));
           })
      .def("mask",
           [](const GameSession& s) {
             const ActionSpace& space = ActionSpace::For(s.config().options.ruleset);
             std::vector<uint8_t> mask(size_t(space.size()), 0);
             if (s.to_act() >= 0)
               for (const Action& a : s.state().LegalActions())
                 if (const int i = space.Index(a); i >= 0) mask[size_t(i)] = 1;
             return ToNumpy(std::move(mask));
           })
      .def(
          "apply",
          [](GameSession& s, const py::object& action) {
            const Action a = ToAction(action);
            std::string e;
            {
              py::gil_scoped_release release;
              e = s.Apply(a);
            }
            if (!e.empty()) throw IllegalAction(e);
          },
          py::arg("action"), "Applies the seat's action (Action or text), then plays chance and bots.")
      .def(
          "apply_index",
          [](GameSession& s, int64_t index) {
            const ActionSpace& space = ActionSpace::For(s.config().options.ruleset);
            if (index < 0 || index >= space.size())
              throw IllegalAction("action index " + std::to_string(index) + " is outside 0.." +
                                  std::to_string(space.size() - 1));
            std::string e;
            {
              py::gil_scoped_release release;
              e = s.Apply(space.ActionAt(int(index)));
            }
            if (!e.empty()) throw IllegalAction(e);
          },
          py::arg("index"))
      .def("record", &GameSession::Record);

  py::class_<BatchGames>(m, "VecGames",
                         "N games stepped together with Python choosing every outside action; buffers are numpy "
                         "views overwritten by the next step (docs/PYTHON.md).")
      .def(py::init([](int num_games, const std::string& ruleset, int seats, const py::object& options,
                       const py::object& board, const py::object& bots, bool masks, bool observations, uint64_t seed) {
             BatchOptions o;
             o.session = MakeSessionOptions(ruleset, seats, options, board, bots);
             o.num_games = num_games;
             o.masks = masks;
             o.observations = observations;
             std::string error;
             std::unique_ptr<BatchGames> b = BatchGames::Make(o, &error);
             if (!b) throw py::value_error(error);
             if (std::string e = b->Reset(seed); !e.empty()) throw py::value_error(e);
             return b;
           }),
           py::arg("num_games"), py::arg("ruleset") = "cities_and_knights", py::arg("seats") = 4,
           py::arg("options") = py::none(), py::arg("board") = "random", py::arg("bots") = py::none(),
           py::arg("masks") = true, py::arg("observations") = false, py::arg("seed") = 0)
      .def(
          "reset",
          [](BatchGames& b, uint64_t seed) {
            std::string e;
            {
              py::gil_scoped_release release;
              e = b.Reset(seed);
            }
            if (!e.empty()) throw py::value_error(e);
          },
          py::arg("seed"))
      .def(
          "step",
          [](BatchGames& b, py::array_t<int64_t, py::array::c_style | py::array::forcecast> actions) {
            if (actions.ndim() != 1 || actions.shape(0) != b.num_games())
              throw py::value_error("actions: one index per game, shape (" + std::to_string(b.num_games()) + ",)");
            std::string e;
            {
              py::gil_scoped_release release;
              e = b.Step(actions.data());
            }
            if (!e.empty()) throw IllegalAction(e);
          },
          py::arg("actions"), "One action index per game for its seat to act; then chance and bots play.")
      .def_property_readonly("num_games", &BatchGames::num_games)
      .def_property_readonly("action_size", &BatchGames::action_size)
      .def_property_readonly("observation_size", &BatchGames::observation_size)
      .def_property_readonly("episodes_finished", &BatchGames::episodes_finished)
      .def_property_readonly("decisions", &BatchGames::decisions)
      .def_property_readonly("to_act",
                             [](const py::object& self) {
                               const BatchGames& b = self.cast<const BatchGames&>();
                               return BufferView(self, b.to_act(), {b.num_games()});
                             })
      .def_property_readonly("masks",
                             [](const py::object& self) {
                               const BatchGames& b = self.cast<const BatchGames&>();
                               if (!b.masks()) throw py::value_error("made with masks=False");
                               return BufferView(self, b.masks(), {b.num_games(), b.action_size()});
                             })
      .def_property_readonly(
          "legal",
          [](const py::object& self) {
            const BatchGames& b = self.cast<const BatchGames&>();
            return BufferView(self, b.legal(), {b.num_games(), BatchGames::kMaxLegal});
          },
          "N x 1024 action indices; row i's first legal_count[i] are the legal ones.")
      .def_property_readonly("legal_count",
                             [](const py::object& self) {
                               const BatchGames& b = self.cast<const BatchGames&>();
                               return BufferView(self, b.legal_count(), {b.num_games()});
                             })
      .def_property_readonly("observations",
                             [](const py::object& self) {
                               const BatchGames& b = self.cast<const BatchGames&>();
                               if (!b.observations()) throw py::value_error("made with observations=False");
                               return BufferView(self, b.observations(), {b.num_games(), b.observation_size()});
                             })
      .def_property_readonly(
          "rewards",
          [](const py::object& self) {
            const BatchGames& b = self.cast<const BatchGames&>();
            return BufferView(self, b.rewards(), {b.num_games(), kMaxSeats});
          },
          "N x 4: the returns of each game that ended in the last step (1 for its winner), else 0.")
      .def_property_readonly("terminated",
                             [](const py::object& self) {
                               const BatchGames& b = self.cast<const BatchGames&>();
                               return BufferView(self, reinterpret_cast<const bool*>(b.terminated()), {b.num_games()});
                             })
      .def_property_readonly("truncated",
                             [](const py::object& self) {
                               const BatchGames& b = self.cast<const BatchGames&>();
                               return BufferView(self, reinterpret_cast<const bool*>(b.truncated()), {b.num_games()});
                             })
      .def_property_readonly("winner",
                             [](const py::object& self) {
                               const BatchGames& b = self.cast<const BatchGames&>();
                               return BufferView(self, b.winner(), {b.num_games()});
                             })
      .def_property_readonly("episode_length",
                             [](const py::object& self) {
                               const BatchGames& b = self.cast<const BatchGames&>();
                               return BufferView(self, b.episode_length(), {b.num_games()});
                             })
      .def(
          "game_state",
          [](const BatchGames& b, int i) {
            if (i < 0 || i >= b.num_games()) throw py::index_error("game out of range");
            return b.game(i).state();
          },
          py::arg("game"))
      .def(
          "game_record",
          [](const BatchGames& b, int i) {
            if (i < 0 || i >= b.num_games()) throw py::index_error("game out of range");
            return b.game(i).Record();
          },
          py::arg("game"));
  m.def("episode_seed", &EpisodeSeed, py::arg("seed"), py::arg("game"), py::arg("episode"),
        "The seed of game i's k-th episode in VecGames(seed=...).");

  py::class_<PyPolicy>(m, "PolicyNet",
                       "The training example's policy (python/src/policy.h), evaluated in C++ for self-play and the "
                       "arena: h = tanh(x W1 + b1); logit[a] = bias[a] + emb[a].h + ptr[segment(a)].phi(x, a).")
      .def(py::init([](const std::string& ruleset, py::array_t<float, py::array::c_style | py::array::forcecast> w1,
                       py::array_t<float, py::array::c_style | py::array::forcecast> b1,
                       py::array_t<float, py::array::c_style | py::array::forcecast> emb,
                       py::array_t<float, py::array::c_style | py::array::forcecast> bias,
                       py::array_t<float, py::array::c_style | py::array::forcecast> ptr) {
             RulesOptions o;
             if (std::string e = ParseOption("ruleset=" + ruleset, &o); !e.empty()) throw py::value_error(e);
             PolicyWeights w;
             w.h = b1.ndim() == 1 ? int(b1.shape(0)) : 0;
             w.w1 = FloatVector(w1);
             w.b1 = FloatVector(b1);
             w.emb = FloatVector(emb);
             w.bias = FloatVector(bias);
             w.ptr = FloatVector(ptr);
             std::string error;
             std::shared_ptr<const PolicyNet> net = PolicyNet::Make(o.ruleset, std::move(w), &error);
             if (!net) throw py::value_error(error);
             return PyPolicy{net};
           }),
           py::arg("ruleset"), py::arg("w1"), py::arg("b1"), py::arg("emb"), py::arg("bias"), py::arg("ptr"))
      .def(
          "logits",
          [](const PyPolicy& p, py::array_t<float, py::array::c_style | py::array::forcecast> x,
             py::array_t<int32_t, py::array::c_style | py::array::forcecast> legal) {
            if (x.size() != p.net->weights().d) throw py::value_error("x: one observation");
            for (py::ssize_t k = 0; k < legal.size(); ++k)
              if (legal.data()[k] < 0 || legal.data()[k] >= p.net->weights().a)
                throw py::value_error("legal: index out of range");
            std::vector<float> out(size_t(legal.size()));
            p.net->Logits(x.data(), legal.data(), int(legal.size()), out.data());
            return ToNumpy(std::move(out));
          },
          py::arg("x"), py::arg("legal"));
  m.def("pointer_feature_size", &PointerFeatureSize);

  m.def(
      "selfplay",
      [](const py::list& players, int64_t games, uint64_t seed, int threads, const std::string& ruleset,
         const py::object& options, const py::object& board, const py::object& record_seats, double record_probability,
         bool record_forced, bool keep_records, bool greedy, double temperature) {
        SelfPlayOptions o;
        ConfigArgs args = ParseConfigArgs(ruleset, int(players.size()), options, board);
        o.config = args.config;
        o.random_board = args.random_board;
        const PolicyBotOptions policy_options{greedy, temperature};
        for (py::handle p : players) o.players.push_back(ToPlayer(p, policy_options));
        o.games = games;
        o.seed = seed;
        o.threads = threads;
        if (!record_seats.is_none())
          for (py::handle r : record_seats) o.record_seats.push_back(r.cast<bool>());
        o.record_probability = record_probability;
        o.record_forced = record_forced;
        o.keep_records = keep_records;
        Trajectories t;
        std::string error;
        bool ok;
        {
          py::gil_scoped_release release;
          ok = RunSelfPlay(o, &t, &error);
        }
        if (!ok) throw py::value_error(error);
        const py::ssize_t decisions = py::ssize_t(t.actions.size());
        const py::ssize_t n = py::ssize_t(t.winners.size());
        py::dict out;
        out["observations"] = ToNumpy(std::move(t.observations), {decisions, t.observation_size});
        out["actions"] = ToNumpy(std::move(t.actions));
        out["seats"] = ToNumpy(std::move(t.seats));
        out["games"] = ToNumpy(std::move(t.games));
        out["steps"] = ToNumpy(std::move(t.steps));
        out["legal_offsets"] = ToNumpy(std::move(t.legal_offsets));
        out["legal"] = ToNumpy(std::move(t.legal));
        out["winners"] = ToNumpy(std::move(t.winners));
        out["lengths"] = ToNumpy(std::move(t.lengths));
        out["turns"] = ToNumpy(std::move(t.turns));
        out["vp"] = ToNumpy(std::move(t.vp), {n, kMaxSeats});
        out["game_seeds"] = ToNumpy(std::move(t.game_seeds));
        out["records"] = t.records;
        out["errors"] = t.errors;
        return out;
      },
      py::arg("players"), py::arg("games"), py::arg("seed") = 1, py::arg("threads") = 1,
      py::arg("ruleset") = "cities_and_knights", py::arg("options") = py::none(), py::arg("board") = "random",
      py::arg("record_seats") = py::none(), py::arg("record_probability") = 1.0, py::arg("record_forced") = false,
      py::arg("keep_records") = false, py::arg("greedy") = true, py::arg("temperature") = 1.0,
      "Plays `games` games between `players` (bot specs or PolicyNet, one per seat) on `threads` threads and returns "
      "the recorded decisions (observation, action index, legal indices) and each game's result.");

  m.def(
      "arena",
      [](const py::object& candidate, const py::object& opponents, int64_t games, uint64_t seed, int threads, int seats,
         const std::string& ruleset, const py::object& options, bool default_board, bool greedy, double temperature) {
        ArenaOptions o;
        o.config = ParseConfigArgs(ruleset, seats, options, py::str("default")).config;
        const PolicyBotOptions policy_options{greedy, temperature};
        o.candidate = ToPlayer(candidate, policy_options);
        if (py::isinstance<py::str>(opponents) || py::isinstance<PyPolicy>(opponents)) {
          o.opponents.push_back(ToPlayer(opponents, policy_options));
        } else {
          for (py::handle p : opponents) o.opponents.push_back(ToPlayer(p, policy_options));
        }
        o.games = games;
        o.seed = seed;
        o.threads = threads;
        o.default_board = default_board;
        ArenaResult r;
        std::string error;
        bool ok;
        {
          py::gil_scoped_release release;
          ok = RunArena(o, &r, &error);
        }
        if (!ok) throw py::value_error(error);
        py::dict out;
        out["games"] = r.games;
        out["wins"] = r.wins;
        out["win_share"] = r.games ? double(r.wins) / double(r.games) : 0.0;
        out["wilson95"] = py::make_tuple(r.wilson_low, r.wilson_high);
        out["z"] = r.z;
        out["candidate_mean_vp"] = r.candidate_vp;
        out["opponent_mean_vp"] = r.opponent_vp;
        out["mean_actions"] = r.mean_actions;
        out["mean_turns"] = r.mean_turns;
        out["games_at_cap"] = r.capped;
        out["errors"] = r.errors;
        out["first_error"] = r.first_error;
        out["seat_games"] = r.seat_games;
        out["seat_wins"] = r.seat_wins;
        out["winners"] = r.winners;
        out["candidate_seats"] = r.candidate_seats;
        return out;
      },
      py::arg("candidate"), py::arg("opponents") = "random", py::arg("games") = 100, py::arg("seed") = 1,
      py::arg("threads") = 1, py::arg("seats") = 4, py::arg("ruleset") = "cities_and_knights",
      py::arg("options") = py::none(), py::arg("default_board") = false, py::arg("greedy") = true,
      py::arg("temperature") = 1.0,
      "The arena of `metropolis-engine arena` (the same games for the same seed) with a PolicyNet allowed as the "
      "candidate or an opponent: win share, Wilson 95% interval, z, mean VP.");
}

}  // namespace metropolis::python

PYBIND11_MODULE(_core, m) {
  namespace mp = metropolis::python;
  m.doc() = "Metropolis, the Cities & Knights engine, in Python (docs/PYTHON.md).";
  pybind11::register_exception<mp::IllegalAction>(m, "IllegalActionError", PyExc_ValueError);
  mp::BindGame(m);
  mp::BindEnv(m);
  mp::BindMessages(m);
}
