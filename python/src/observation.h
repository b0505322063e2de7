// The observation encoding: a fixed-size float32 vector per seat, built only
// from the seat's View (engine/view.h) — the masked state, the seat's own
// cards, the others' hand sizes and what the seat's KnowledgeTracker observed —
// never from the full State, so no hidden card can leak into it.
//
// Seats are relative: slot 0 is the viewer, slot k the seat k places after it
// in turn order; a 3-seat game leaves slot 3 empty (its `present` is 0). The
// vector is a concatenation of named blocks (ObservationLayout: name, offset,
// rows x cols); docs/PYTHON.md lists every column. The layout is the same for
// every ruleset: features a ruleset has no use for stay 0.
#pragma once

#include <string>
#include <vector>

#include "engine/view.h"

namespace metropolis::python {

struct ObservationBlock {
  std::string name;
  int offset = 0;
  int rows = 1;                      // e.g. one row per node
  int cols = 0;                      // features per row
  std::vector<std::string> columns;  // one name per feature of a row
  int size() const { return rows * cols; }
};

class ObservationLayout {
 public:
  static const ObservationLayout& Get();
  int size() const { return size_; }
  const std::vector<ObservationBlock>& blocks() const { return blocks_; }
  // The block of that name, or nullptr.
  const ObservationBlock* Find(const std::string& name) const;

 private:
  ObservationLayout();
  std::vector<ObservationBlock> blocks_;
  int size_ = 0;
};

// Writes the observation of view.viewer (a seat) into out[0, layout size).
void EncodeObservation(const View& view, float* out);

// Pips of a number token: the ways two dice roll it (0 for none or 7).
inline int TokenPips(int token) {
  return token < 2 || token > 12 || token == 7 ? 0 : 6 - (token > 7 ? token - 7 : 7 - token);
}

}  // namespace metropolis::python
