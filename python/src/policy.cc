#include "python/src/policy.h"

#include <algorithm>
#include <cmath>

#include "python/src/observation.h"

namespace metropolis::python {
namespace {

struct Rows {
  int nodes, node_cols, hexes, hex_cols;
};
const Rows& GetRows() {
  static const Rows r = [] {
    const ObservationLayout& l = ObservationLayout::Get();
    const ObservationBlock* n = l.Find("nodes");
    const ObservationBlock* h = l.Find("hexes");
    return Rows{n->offset, n->cols, h->offset, h->cols};
  }();
  return r;
}

}  // namespace

int PointerFeatureSize() { return 2 * GetRows().node_cols + GetRows().hex_cols; }

std::shared_ptr<const PolicyNet> PolicyNet::Make(Ruleset ruleset, PolicyWeights w, std::string* error) {
  const ActionSpace& space = ActionSpace::For(ruleset);
  const int d = ObservationLayout::Get().size();
  const int f = PointerFeatureSize();
  const int s = int(space.segments().size());
  auto expect = [&](const char* name, size_t got, size_t want) {
    if (got == want) return true;
    *error = std::string(name) + ": " + std::to_string(got) + " values, expected " + std::to_string(want);
    return false;
  };
  if (w.h < 1) {
    *error = "hidden size must be at least 1";
    return nullptr;
  }
  if (!expect("w1", w.w1.size(), size_t(d) * size_t(w.h)) || !expect("b1", w.b1.size(), size_t(w.h)) ||
      !expect("emb", w.emb.size(), size_t(space.size()) * size_t(w.h)) ||
      !expect("bias", w.bias.size(), size_t(space.size())) || !expect("ptr", w.ptr.size(), size_t(s) * size_t(f)))
    return nullptr;
  w.d = d;
  w.a = space.size();
  w.s = s;
  w.f = f;
  return std::shared_ptr<const PolicyNet>(new PolicyNet(&space, std::move(w)));
}

PolicyNet::PolicyNet(const ActionSpace* space, PolicyWeights weights) : space_(space), w_(std::move(weights)) {
  targets_.reserve(size_t(space_->size()));
  for (int i = 0; i < space_->size(); ++i) targets_.push_back(space_->TargetsOf(i));
}

void PolicyNet::Logits(const float* x, const int32_t* legal, int count, float* out) const {
  const int h = w_.h;
  // The observation is mostly zeros (one-hots, empty places): skip them.
  std::vector<float> hidden(w_.b1.begin(), w_.b1.end());
  for (int i = 0; i < w_.d; ++i) {
    const float xi = x[i];
    if (xi == 0) continue;
    const float* row = w_.w1.data() + size_t(i) * size_t(h);
    for (int j = 0; j < h; ++j) hidden[size_t(j)] += xi * row[j];
  }
  for (float& v : hidden) v = std::tanh(v);
  const Rows& rows = GetRows();
  for (int k = 0; k < count; ++k) {
    const int a = legal[k];
    float logit = w_.bias[size_t(a)];
    const float* e = w_.emb.data() + size_t(a) * size_t(h);
    for (int j = 0; j < h; ++j) logit += e[j] * hidden[size_t(j)];
    const float* p = w_.ptr.data() + size_t(space_->SegmentOf(a)) * size_t(w_.f);
    const ActionSpace::Targets& t = targets_[size_t(a)];
    auto dot = [&](const float* weights, const float* features, int n) {
      float sum = 0;
      for (int j = 0; j < n; ++j) sum += weights[j] * features[j];
      return sum;
    };
    if (t.node1 >= 0) logit += dot(p, x + rows.nodes + t.node1 * rows.node_cols, rows.node_cols);
    if (t.node2 >= 0) logit += dot(p + rows.node_cols, x + rows.nodes + t.node2 * rows.node_cols, rows.node_cols);
    if (t.hex >= 0) logit += dot(p + 2 * rows.node_cols, x + rows.hexes + t.hex * rows.hex_cols, rows.hex_cols);
    out[k] = logit;
  }
}

PolicyBot::PolicyBot(std::shared_ptr<const PolicyNet> net, PolicyBotOptions options)
    : net_(std::move(net)), options_(options), x_(size_t(ObservationLayout::Get().size())) {}

Action PolicyBot::Choose(const View& view, uint64_t* rng) {
  const ActionSpace& space = net_->space();
  legal_.clear();
  for (const Action& a : view.legal)
    if (const int index = space.Index(a); index >= 0) legal_.push_back(index);
  if (legal_.empty()) return view.legal.front();
  EncodeObservation(view, x_.data());
  logits_.resize(legal_.size());
  net_->Logits(x_.data(), legal_.data(), int(legal_.size()), logits_.data());
  size_t best = size_t(std::max_element(logits_.begin(), logits_.end()) - logits_.begin());
  if (!options_.greedy) {
    const double top = logits_[best];
    double total = 0;
    std::vector<double> weights(logits_.size());
    for (size_t k = 0; k < logits_.size(); ++k)
      total += weights[k] = std::exp((logits_[k] - top) / options_.temperature);
    double u = bots::UniformRandom(rng) * total;
    for (best = 0; best + 1 < weights.size() && u >= weights[best]; ++best) u -= weights[best];
  }
  return space.ActionAt(legal_[best]);
}

}  // namespace metropolis::python
