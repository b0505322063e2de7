// node compare.js CASES RESULTS: fails unless every rating in CASES' "expected"
// (the C++ model's) matches the one at the same place in RESULTS (reference.js's)
// within 1e-9 relative. Values below 1 in magnitude are compared absolutely, so a
// mu that lands near 0 does not fail on rounding noise.
'use strict'

const fs = require('fs')

const TOLERANCE = 1e-9
const [casesFile, resultsFile] = process.argv.slice(2)
const { seed, cases } = JSON.parse(fs.readFileSync(casesFile, 'utf8'))
const { results } = JSON.parse(fs.readFileSync(resultsFile, 'utf8'))

const failures = []
let worst = 0
let ratings = 0
if (results.length !== cases.length) failures.push(`${cases.length} cases but ${results.length} results`)
cases.forEach((c, i) => {
  const got = results[i] || []
  if (got.length !== c.expected.length) {
    failures.push(`case ${i}: ${c.expected.length} players but ${got.length} results`)
    return
  }
  c.expected.forEach((want, p) => {
    ratings += 1
    for (const field of ['mu', 'sigma']) {
      const a = want[field]
      const b = got[p][field]
      const diff = Math.abs(a - b) / Math.max(1, Math.abs(a), Math.abs(b))
      if (!(diff <= TOLERANCE)) {
        failures.push(`case ${i} player ${p} ${field}: C++ ${a}, openskill ${b} (${JSON.stringify(c)})`)
      }
      if (diff > worst) worst = diff
    }
  })
})

if (failures.length > 0) {
  console.error(`rating model differs from openskill (seed ${seed}):`)
  failures.slice(0, 10).forEach((f) => console.error('  ' + f))
  if (failures.length > 10) console.error(`  ... and ${failures.length - 10} more`)
  process.exit(1)
}
console.log(`${cases.length} games, ${ratings} ratings match openskill (seed ${seed}, largest difference ${worst.toExponential(2)})`)
