// The training example's policy, evaluated in C++ so that self-play and the
// arena run it at engine speed on all threads; metropolis/policy.py is the
// same network in numpy, for training (the tests check that both give the
// same logits).
//
//   h         = tanh(x W1 + b1)                       x: the observation (D)
//   logit[a]  = bias[a] + emb[a] . h + ptr[seg(a)] . phi(x, a)
//
// phi(x, a) is the observation's rows of the board places action a names
// (ActionSpace::TargetsOf): the node row of its first and second node and the
// hex row of its hex, zeros where there is none; seg(a) its segment. So a
// policy scores "build a settlement on n13" from n13's own features with
// weights shared by every node. Only legal actions are scored.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "python/src/action_space.h"

namespace metropolis::python {

struct PolicyWeights {
  int d = 0, h = 0, a = 0, s = 0, f = 0;  // observation, hidden, actions, segments, pointer features
  std::vector<float> w1;                  // d x h
  std::vector<float> b1;                  // h
  std::vector<float> emb;                 // a x h
  std::vector<float> bias;                // a
  std::vector<float> ptr;                 // s x f
};

// Pointer features per action: two node rows and one hex row of the observation.
int PointerFeatureSize();

class PolicyNet {
 public:
  // Checks the shapes against the ruleset's action space and the layout.
  static std::shared_ptr<const PolicyNet> Make(Ruleset ruleset, PolicyWeights weights, std::string* error);

  const PolicyWeights& weights() const { return w_; }
  const ActionSpace& space() const { return *space_; }
  // Logits of the `legal` indices for observation `x`, into out[0, count).
  void Logits(const float* x, const int32_t* legal, int count, float* out) const;

 private:
  PolicyNet(const ActionSpace* space, PolicyWeights weights);
  const ActionSpace* space_;
  PolicyWeights w_;
  std::vector<ActionSpace::Targets> targets_;  // per action index
};

struct PolicyBotOptions {
  bool greedy = true;  // the highest logit; else a sample of softmax(logits / temperature)
  double temperature = 1.0;
};

// A built-in-bot face for the policy: it encodes the view and scores its legal
// actions. Actions outside the action space (none for the built-in rulesets)
// are never chosen unless nothing else is legal.
class PolicyBot : public bots::Bot {
 public:
  PolicyBot(std::shared_ptr<const PolicyNet> net, PolicyBotOptions options);
  Action Choose(const View& view, uint64_t* rng) override;
  std::string name() const override { return "policy"; }

 private:
  std::shared_ptr<const PolicyNet> net_;
  PolicyBotOptions options_;
  std::vector<float> x_, logits_;
  std::vector<int32_t> legal_;
};

}  // namespace metropolis::python
