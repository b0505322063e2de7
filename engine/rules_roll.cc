// Resolving a roll (RULES.md section 6), the barbarians (section 15), the end
// of a turn (TRN-7) and the chance outcomes that feed them.
//
// A roll pushes its steps on the pending stack in reverse order (production
// below the event), so the order of section 6 is the order of the stack, and
// any decision a step raises (a discard, a pillaged city, an Aqueduct choice)
// is answered before the next step runs.
#include <algorithm>
#include <cassert>

#include "engine/production.h"
#include "engine/rules_internal.h"

namespace metropolis {

void RulesImpl::ApplyChance(State& s, const Action& a, Events* ev) {
  const Pending p = Pop(s);
  switch (a.type) {
    case ActionType::kChanceStartPlayer:
      s.start_ = int8_t(a.a);  // SET-1
      s.current_ = int8_t(a.a);
      break;
    case ActionType::kChanceDice: {
      if (p.a == 0) {  // dice not fixed by an Alchemist
        s.dice_yellow_ = a.a;
        s.dice_red_ = a.b;
      }
      s.dice_event_ = a.c;
      // TRN-6 / KN-6: the action phase starts once the roll is resolved; the
      // knights active now are the ones that may act (an attack during the
      // roll clears the flag again).
      s.phase_ = Phase::kAction;
      METROPOLIS_FOR_BITS(v, s.players_[s.current_].knights) {
        if (s.knight_flags_[v] & kKnightActive) s.knight_flags_[v] |= kKnightReady;
      }
      Push(s, PendingKind::kStepProduction, s.current_);
      if (!IsBase(s)) Push(s, PendingKind::kStepEvent, s.current_);  // BG-3: no event die
      break;
    }
    case ActionType::kChanceSteal: {
      // ROB-3: one random card of the victim's hand.
      const int victim = p.a;
      --s.players_[victim].hand[a.a];
      ++s.players_[p.seat].hand[a.a];
      Emit(ev, EventType::kStole, p.seat, 0, a.a, 0, victim, uint8_t((1u << p.seat) | (1u << victim)));
      break;
    }
    case ActionType::kChanceDev:
      // BG-4: the buyer takes the card; it may not be played this turn (BG-5).
      --s.dev_deck_[a.a];
      ++s.players_[p.seat].dev[a.a];
      ++s.dev_bought_[a.a];
      if (a.a == kDevVictoryPoint) AddVp(s, p.seat, 1);
      break;
    case ActionType::kChanceDraw: {
      ProgressDeck& d = s.decks_[p.a];
      --d.unseen[a.a - TrackFirstCard(p.a)];
      --d.unseen_total;
      Emit(ev, EventType::kProgressDrawn, p.seat, p.a, a.a, 0, -1, uint8_t(1u << p.seat));
      GiveProgress(s, p.seat, a.a, ev);
      break;
    }
    default:
      assert(false);
  }
}

void RulesImpl::AdvanceSteps(State& s, Events* ev) {
  while (s.pending_size_ > 0 && s.phase_ != Phase::kGameOver) {
    Pending& top = s.pending_[s.pending_size_ - 1];
    switch (top.kind) {
      case PendingKind::kStepEvent:
        Pop(s);
        RunEvent(s, ev);
        break;
      case PendingKind::kStepProduction:
        Pop(s);
        RunProduction(s, ev);
        break;
      case PendingKind::kStepAttack:
        Pop(s);
        RunAttack(s, ev);
        break;
      case PendingKind::kStepRobberAfterSeven:
        Pop(s);
        if (!IsRobberLocked(s)) Push(s, PendingKind::kMoveRobber, s.current_, 0);  // SEV-3
        break;
      case PendingKind::kStepDraws: {
        // PD-1/PD-2: eligible seats draw in turn order from the current one.
        const int track = top.a;
        Pop(s);
        for (int k = s.num_seats_ - 1; k >= 0; --k) {
          const int q = SeatAfter(s, s.current_, k);
          if (DrawsProgress(s, q, s.dice_red_, track + 1)) Push(s, PendingKind::kDraw, q, track);
        }
        break;
      }
      case PendingKind::kDraw: {
        const ProgressDeck& d = s.decks_[top.a];
        if (d.unseen_total > 0) return;  // a chance node
        const Pending p = Pop(s);
        if (d.size > 0) DrawFromReturned(s, p.seat, p.a, ev);  // PD-3: else nothing
        break;
      }
      case PendingKind::kStepEndTurn:
        Pop(s);
        EndTurn(s, ev);
        break;
      case PendingKind::kStepReturnProgress: {
        const Pending p = Pop(s);
        ReturnProgress(s, p.a, -1);  // PC-6: its identity and place are public
        break;
      }
      case PendingKind::kRoadBuilding:
      case PendingKind::kSmith:
      case PendingKind::kDiplomatReplace:
      case PendingKind::kDeserterPlace:
      case PendingKind::kCommercialHarbor: {
        // Optional card steps end by themselves when nothing is left to do
        // but stop.
        // A scratch list per thread: an ActionList is 16 KB and zeroing it on
        // every step would cost more than the rules themselves.
        static thread_local ActionList legal;
        legal.clear();
        LegalProgressStep(s, top, &legal);
        bool only_stop = true;
        for (const Action& x : legal) only_stop &= x.type == ActionType::kProgressStop;
        if (!only_stop) return;
        Pop(s);
        break;
      }
      default:
        return;  // a decision or a chance node (Advance's MayAdvance lists the cases above)
    }
  }
}

void RulesImpl::RunEvent(State& s, Events* ev) {
  if (s.dice_event_ != kEventShip) {
    Push(s, PendingKind::kStepDraws, s.current_, s.dice_event_ - 1);  // EVT-2
    return;
  }
  ++s.barbarians_;  // EVT-1
  Emit(ev, EventType::kBarbariansAdvance, -1, s.barbarians_);
  if (s.barbarians_ < 7) return;
  if (!s.options_.fiesepeter) {
    RunAttack(s, ev);
    return;
  }
  // BAR-12: commitments in turn order from the current player, then the fight.
  Push(s, PendingKind::kStepAttack, s.current_);
  for (int k = s.num_seats_ - 1; k >= 0; --k) {
    const int q = (s.current_ + k) % s.num_seats_;
    bool has_active = false;
    METROPOLIS_FOR_BITS(v, s.players_[q].knights) has_active |= (s.knight_flags_[v] & kKnightActive) != 0;
    if (has_active) Push(s, PendingKind::kCommitKnights, q);
  }
}

void RulesImpl::RunAttack(State& s, Events* ev) {
  const int n = s.num_seats_;
  int barbarians = 0;  // BAR-2
  for (int p = 0; p < n; ++p) barbarians += std::popcount(s.players_[p].cities);
  std::array<int, kMaxSeats> strength{};
  int catan = 0;  // BAR-3
  for (int p = 0; p < n; ++p) {
    strength[p] = Contribution(s, p, KnightMeasure::kStrength);
    catan += strength[p];
  }
  const bool catan_wins = catan >= barbarians;  // BAR-4
  Emit(ev, EventType::kBarbarianAttack, -1, barbarians, catan, catan_wins ? 1 : 0);
  for (int p = 0; p < n; ++p) Emit(ev, EventType::kBarbarianShare, p, strength[p]);

  // Decisions are pushed so that the first in turn order (from the current
  // player) is on top.
  auto push_in_turn_order = [&](PendingKind kind, const std::array<bool, kMaxSeats>& who) {
    for (int k = n - 1; k >= 0; --k) {
      const int q = (s.current_ + k) % n;
      if (who[q]) Push(s, kind, q);
    }
  };

  if (catan_wins) {
    std::array<int, kMaxSeats> measure{};
    for (int p = 0; p < n; ++p)
      measure[p] =
          s.options_.defender_by_knight_count ? Contribution(s, p, KnightMeasure::kCount) : strength[p];  // D16
    const int best = *std::max_element(measure.begin(), measure.begin() + n);
    std::array<bool, kMaxSeats> tied{};
    int count = 0;
    for (int p = 0; p < n; ++p)
      if (measure[p] == best) tied[p] = true, ++count;
    if (best == 0) {
      // BAR-7: nobody contributed.
    } else if (count == 1) {
      const int p = int(std::find(tied.begin(), tied.begin() + n, true) - tied.begin());
      ++s.players_[p].defender;  // BAR-5
      AddVp(s, p, 1);
      Emit(ev, EventType::kDefender, p);
    } else {
      push_in_turn_order(PendingKind::kDefenderDeck, tied);  // BAR-6
    }
  } else {
    // BAR-8: the weakest vulnerable players each lose a city.
    std::array<bool, kMaxSeats> vulnerable{};
    int lowest = 1 << 20;
    for (int p = 0; p < n; ++p) {
      vulnerable[p] = HasCityWithoutMetropolis(s, p);
      if (vulnerable[p] || s.options_.barbarian_victims == BarbarianVictims::kMinAmongAll)
        lowest = std::min(lowest, strength[p]);
    }
    std::array<bool, kMaxSeats> victims{};
    for (int p = 0; p < n; ++p) victims[p] = vulnerable[p] && strength[p] == lowest;
    push_in_turn_order(PendingKind::kPillage, victims);
  }

  // BAR-9 (BAR-12: only committed knights under fiesepeter).
  for (int p = 0; p < n; ++p) {
    METROPOLIS_FOR_BITS(v, s.players_[p].knights) {
      uint8_t& f = s.knight_flags_[v];
      if (!s.options_.fiesepeter || (f & kKnightCommitted)) f &= uint8_t(~(kKnightActive | kKnightReady));
      f &= uint8_t(~kKnightCommitted);
    }
  }
  s.barbarians_ = 0;
  s.first_attack_done_ = true;
  ++s.attacks_;
}

void RulesImpl::RunProduction(State& s, Events* ev) {
  const Topology& topo = GetTopology();
  const int n = s.num_seats_;
  const int sum = s.dice_yellow_ + s.dice_red_;
  if (sum == 7) {
    // SEV-2: discards in turn order from the current player, then SEV-3.
    Push(s, PendingKind::kStepRobberAfterSeven, s.current_);
    for (int k = n - 1; k >= 0; --k) {
      const int q = SeatAfter(s, s.current_, k);
      const int cards = s.players_[q].hand.Total();
      if (cards > s.HandLimit(q)) Push(s, PendingKind::kDiscard, q, cards / 2);
    }
    // Announced in the order they are decided.
    for (int i = s.pending_size_ - 1; i >= 0 && s.pending_[i].kind == PendingKind::kDiscard; --i)
      Emit(ev, EventType::kMustDiscard, s.pending_[i].seat, s.pending_[i].a);
    return;
  }
  // PRD-1..PRD-3: claims per seat and card type. Few hexes carry the
  // number, so collect the claims hex by hex and settle only the card types
  // that were claimed. A seat's claims are one word laid out like
  // CardCounts::Word() (byte c = card c), added to as a word: counting bytes
  // and reading the word back would stall on store forwarding.
  std::array<uint64_t, kMaxSeats> claims{};
  auto one = [](int card) { return uint64_t(1) << (8 * card); };
  auto claim = [&claims](int p, int card) { return int((claims[p] >> (8 * card)) & 0xFF); };
  std::array<bool, kMaxSeats> adjacent_number{};
  uint32_t claimed_types = 0;
  const uint64_t buildings = AllBuildings(s);
  METROPOLIS_FOR_BITS(h, HexesWithToken(s.board_, sum)) {
    const uint64_t here = buildings & topo.hex_node_mask[h];
    if (!here) continue;
    const int terrain = s.board_.terrain[h];
    const int commodity = TerrainCommodity(terrain);
    METROPOLIS_FOR_BITS(v, here) {
      const int p = s.building_owner_[v];
      adjacent_number[p] = true;
      if (h == s.robber_) continue;  // PRD-2
      const bool full_city = s.building_[v] == kCity && !(s.node_flags_[v] & kSabotaged);
      if (!full_city) {
        claims[p] += one(terrain);
      } else if (commodity >= 0 && !IsBase(s)) {
        claims[p] += one(terrain) + one(commodity);
        claimed_types |= 1u << commodity;
      } else {
        claims[p] += 2 * one(terrain);
      }
      claimed_types |= 1u << terrain;
    }
  }
  std::array<bool, kMaxSeats> received{};
  // The common case, when no event is wanted and the bank can pay every
  // claim: the claims are added to the hands as whole words (counts stay far
  // below 128, so bytes never carry).
  // All four seats, written out (-O2 does not unroll): the claims of a seat
  // that does not play are zero.
  static_assert(kMaxSeats == 4);
  const uint64_t total_claims = claims[0] + claims[1] + claims[2] + claims[3];
  bool bank_pays_all = true;
  if (s.options_.bank_limited)
    METROPOLIS_FOR_BITS(c, claimed_types) bank_pays_all &= int((total_claims >> (8 * c)) & 0xFF) <= s.bank_[c];
  if (ev == nullptr && bank_pays_all) {
    auto settle = [&](int p) {
      s.players_[p].hand.SetWord(s.players_[p].hand.Word() + claims[p]);  // adding nothing changes nothing
      received[p] = claims[p] != 0;
    };
    settle(0), settle(1), settle(2), settle(3);
    METROPOLIS_FOR_BITS(c, claimed_types) s.bank_[c] = int16_t(s.bank_[c] - int((total_claims >> (8 * c)) & 0xFF));
    claimed_types = 0;  // settled
  }
  METROPOLIS_FOR_BITS(c, claimed_types) {
    int total = 0, claimants = 0, only = -1;
    for (int p = 0; p < n; ++p)
      if (claim(p, c) > 0) total += claim(p, c), ++claimants, only = p;
    if (s.options_.bank_limited && total > s.bank_[c]) {  // PRD-4
      if (claimants == 1 && s.bank_[c] > 0) {
        const int give = s.bank_[c];
        Gain(s, only, c, give);
        received[only] = true;
        Emit(ev, EventType::kProduced, only, give, c);
      } else {
        Emit(ev, EventType::kBankShortage, -1, 0, c);
      }
      continue;
    }
    for (int p = 0; p < n; ++p) {
      if (claim(p, c) == 0) continue;
      Gain(s, p, c, claim(p, c));
      received[p] = true;
      Emit(ev, EventType::kProduced, p, claim(p, c), c);
    }
  }
  if (IsBase(s)) return;  // no improvements, no Aqueduct (BG-1)
  // Anyone with an Aqueduct (science level 3)? Written out, as this runs on every roll.
  static_assert(kMinSeats == 3 && kMaxSeats == 4);
  int top_science =
      std::max({s.players_[0].level[kScience], s.players_[1].level[kScience], s.players_[2].level[kScience]});
  if (n == 4) top_science = std::max<int>(top_science, s.players_[3].level[kScience]);
  if (top_science < 3) return;
  // PRD-5 Aqueduct, in turn order from the current player.
  bool bank_has_resource = !s.options_.bank_limited;
  for (int r = 0; r < kNumResources; ++r) bank_has_resource |= s.bank_[r] > 0;
  if (!bank_has_resource) return;
  for (int k = n - 1; k >= 0; --k) {
    const int q = (s.current_ + k) % n;
    if (s.players_[q].level[kScience] < 3) continue;
    const bool trigger =
        s.options_.aqueduct_trigger == AqueductTrigger::kReceivedNothing ? !received[q] : !adjacent_number[q];
    if (trigger) Push(s, PendingKind::kAqueduct, q);
  }
}

void RulesImpl::EndTurn(State& s, Events* /*ev*/) {
  // PC-4.3: a fifth progress card is discarded before the turn ends.
  PlayerState& ps = s.players_[s.current_];
  if (s.options_.progress_hand_limit == ProgressHandLimit::kFiveOnOwnTurn && ps.num_progress > 4) {
    Push(s, PendingKind::kStepEndTurn, s.current_);
    Push(s, PendingKind::kEndTurnDiscard, s.current_);
    return;
  }
  // TRN-7.
  // Nodes without a knight have no flags (Validate checks it), so all nodes
  // are cleared at once, eight to a word (written out: -O2 does not unroll).
  auto clear_word = [&s](int at) {
    constexpr uint64_t kKeep = ~(kByteOnes * (kKnightReady | kKnightPromoted));
    uint64_t w;
    std::memcpy(&w, s.knight_flags_.data() + at, sizeof w);
    w &= kKeep;
    std::memcpy(s.knight_flags_.data() + at, &w, sizeof w);
  };
  static_assert(kNumNodes > 48 && kNumNodes <= 56);
  clear_word(0), clear_word(8), clear_word(16), clear_word(24), clear_word(32), clear_word(40);
  clear_word(kNumNodes - 8);  // overlaps the word before it
  s.offers_this_turn_ = 0;
  s.effects_ = TurnEffects{};
  s.dev_bought_ = {};
  s.dev_played_ = false;
  s.current_ = int8_t(NextSeat(s, s.current_));
  s.phase_ = Phase::kBeforeRoll;
  ++s.turn_;
  // TRN-1 is CheckWin, which runs after every step.
}

std::array<int, kMaxSeats> RulesImpl::ProducedBy(const State& s, int sum) {
  std::array<int, kMaxSeats> cards{};
  if (sum < 2 || sum > 12 || sum == 7) return cards;
  State copy = s;
  copy.dice_yellow_ = std::min(6, sum - 1);  // any split of the sum produces the same
  copy.dice_red_ = sum - copy.dice_yellow_;
  RulesImpl::Events events;
  RulesImpl::RunProduction(copy, &events);
  for (const Event& e : events)
    if (e.type == EventType::kProduced) cards[e.seat] += e.a;
  return cards;
}

bool DrawsProgress(const State& s, int seat, int red, int event) {
  if (event == kEventShip || event <= 0 || event > kNumTracks) return false;
  const int level = s.player(seat).level[event - 1];
  return level >= 1 && red <= s.options().red_die_table[level - 1];
}

std::array<int, kMaxSeats> CardsProducedBy(const State& s, int sum) { return RulesImpl::ProducedBy(s, sum); }

}  // namespace metropolis
