// Rates free-for-all games with the openskill npm package, the reference for the
// C++ model in services/ratings/model (see tests/reference_test.sh).
//
// stdin:  {"cases": [{"players": [{"mu", "sigma"}, ...], "ranks": [...],
//                     "params": {"beta", "kappa", "tau", "limitSigma"}}, ...]}
//         (other fields are ignored; params may be omitted for the defaults)
// stdout: {"results": [[{"mu", "sigma"}, ...], ...]}, one list per case, in the
//         players' order.
'use strict'

const { rate } = require('openskill')
const { plackettLuce } = require('openskill/models')

const chunks = []
process.stdin.on('data', (chunk) => chunks.push(chunk))
process.stdin.on('end', () => {
  const { cases } = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  const results = cases.map(({ players, ranks, params = {} }) => {
    // One player per team; rank as given (lower is better, equal is a tie).
    const teams = players.map(({ mu, sigma }) => [{ mu, sigma }])
    const rated = rate(teams, { ...params, rank: ranks, model: plackettLuce })
    return rated.map(([{ mu, sigma }]) => ({ mu, sigma }))
  })
  process.stdout.write(JSON.stringify({ results }) + '\n')
})
