// What the translation units of the Python module share. Only module.cc,
// module_env.cc and module_message.cc include this header: pybind11 stays out
// of every other header of the project, so nothing else pays for its compile
// time.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/state.h"

namespace metropolis::python {

namespace py = pybind11;

// Raised as metropolis.IllegalActionError (a ValueError): an action the rules
// refuse; the message starts with the RULES.md id it breaks.
struct IllegalAction : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A configuration from the keyword arguments every constructor takes: the
// ruleset by name and the options as "name=value" strings, passed to the
// engine's own parser (ParseOption), so a ruleset or option the engine learns
// needs no change here. `board` is "default", "random" (a random board per
// episode, where that applies) or an int seed for RandomBoard. Throws
// ValueError with the engine's message.
struct ConfigArgs {
  GameConfig config;
  bool random_board = false;
};
ConfigArgs ParseConfigArgs(const std::string& ruleset, int seats, const py::object& options, const py::object& board);

// An Action from an Action or its text form; ValueError for bad text.
Action ToAction(const py::object& action);

// A 1-D or 2-D numpy array that owns `values` (moved in, no copy).
template <typename T>
py::array_t<T> ToNumpy(std::vector<T>&& values, std::vector<py::ssize_t> shape = {}) {
  auto* owner = new std::vector<T>(std::move(values));
  py::capsule free(owner, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  if (shape.empty()) shape = {py::ssize_t(owner->size())};
  return py::array_t<T>(shape, owner->data(), free);
}

void BindGame(py::module_& m);      // module.cc: actions, configurations, states, views, records, bots, spaces
void BindEnv(py::module_& m);       // module_env.cc: sessions, batched games, self-play, arena, the policy
void BindMessages(py::module_& m);  // module_message.cc: configurations and views from the host's messages

}  // namespace metropolis::python
