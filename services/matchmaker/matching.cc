#include "services/matchmaker/matching.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace metropolis::matchmaker {

double Window(const Ticket& t, const MatchRules& rules, int64_t now_ms) {
  const double waited_s = double(std::max<int64_t>(0, now_ms - t.enqueued_ms)) / 1000.0;
  return std::min(rules.window_max, rules.window_base + rules.window_per_second * waited_s);
}

std::vector<Table> FormTables(const std::vector<Ticket>& queue, const MatchRules& rules, int64_t now_ms) {
  const size_t n = queue.size();
  // Positions in rating order; a ticket's nearest neighbours are found by
  // walking left and right from its position, skipping tickets already seated.
  std::vector<size_t> by_rating(n);
  std::iota(by_rating.begin(), by_rating.end(), 0);
  std::sort(by_rating.begin(), by_rating.end(), [&](size_t a, size_t b) {
    return queue[a].rating != queue[b].rating ? queue[a].rating < queue[b].rating : queue[a].id < queue[b].id;
  });
  std::vector<size_t> position(n);
  for (size_t p = 0; p < n; ++p) position[by_rating[p]] = p;
  std::vector<size_t> by_age(n);
  std::iota(by_age.begin(), by_age.end(), 0);
  std::sort(by_age.begin(), by_age.end(), [&](size_t a, size_t b) {
    return queue[a].enqueued_ms != queue[b].enqueued_ms ? queue[a].enqueued_ms < queue[b].enqueued_ms
                                                        : queue[a].id < queue[b].id;
  });
  std::vector<double> window(n);
  for (size_t i = 0; i < n; ++i) window[i] = Window(queue[i], rules, now_ms);
  std::vector<bool> seated(n, false);

  std::vector<Table> tables;
  std::vector<size_t> mates;
  for (size_t oldest : by_age) {
    if (seated[oldest]) continue;
    const Ticket& o = queue[oldest];
    const int64_t waited = now_ms - o.enqueued_ms;
    // The nearest players both sides accept, nearest first, up to seats - 1.
    mates.clear();
    size_t left = position[oldest], right = position[oldest] + 1;
    auto acceptable = [&](size_t i) {
      const double gap = std::fabs(queue[i].rating - o.rating);
      return gap <= window[oldest] && gap <= window[i];
    };
    while (int(mates.size()) < rules.seats - 1) {
      while (left > 0 && seated[by_rating[left - 1]]) --left;
      while (right < n && seated[by_rating[right]]) ++right;
      const bool has_left = left > 0 && acceptable(by_rating[left - 1]);
      const bool has_right = right < n && acceptable(by_rating[right]);
      if (!has_left && !has_right) break;
      bool take_left = has_left;
      if (has_left && has_right) {
        take_left = std::fabs(queue[by_rating[left - 1]].rating - o.rating) <=
                    std::fabs(queue[by_rating[right]].rating - o.rating);
      }
      if (take_left) {
        mates.push_back(by_rating[--left]);
      } else {
        mates.push_back(by_rating[right++]);
      }
    }
    const int humans = 1 + int(mates.size());
    int bots = 0;
    if (humans == rules.seats) {
      // a full table
    } else if (rules.seats == 4 && humans == 3 && rules.allow_three_after_ms >= 0 &&
               waited >= rules.allow_three_after_ms) {
      // a table of 3
    } else if (rules.bot_fill_after_ms >= 0 && waited >= rules.bot_fill_after_ms) {
      bots = rules.seats - humans;
    } else {
      continue;  // the oldest waits; younger tickets may still form tables
    }
    Table table;
    table.bots = bots;
    seated[oldest] = true;
    table.tickets.push_back(o.id);
    std::sort(mates.begin(), mates.end(),
              [&](size_t a, size_t b) { return queue[a].enqueued_ms < queue[b].enqueued_ms; });
    for (size_t m : mates) {
      seated[m] = true;
      table.tickets.push_back(queue[m].id);
    }
    tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace metropolis::matchmaker
