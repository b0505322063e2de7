// How a stored game ended, in words, for the games' tables. The record's end
// reason "won" says that somebody reached the victory points, not who: a row
// must name the winner, or a player who came 4th reads "won" beside their game.

// `game` is a game summary of the gateway (result: reason, winner, turns,
// actions; players: seat, name, place). The winner is named even on the
// winner's own page, whose reader is not the winner (the place column says
// how the page's player did).
export function resultText(game) {
  const { result } = game;
  let ended;
  if (result.reason === 'won') {
    const winner = game.players.find((p) => p.seat === result.winner) ?? game.players.find((p) => p.place === 1);
    ended = winner ? `won by ${winner.name}` : 'won';
  } else if (result.reason === 'resigned') {
    const resigner = game.players.find((p) => p.seat === result.resigned_seat);
    ended = resigner ? `${resigner.name} resigned` : 'resigned';
  } else if (result.reason === 'length_cap') {
    ended = 'no winner (length cap)';
  } else {
    ended = result.reason.replace('_', ' ');
  }
  const turns = result.turns ? `${result.turns} turns · ` : '';
  return `${ended} · ${turns}${result.actions} steps`;
}
