// A kafkajs consumer whose health the real-Kafka tier judges
// (cmd/kgroups/realkafka_libraries_test.go).
//
//     node jsconsumer.js BROKERS GROUP TOPIC SLEEP_MS
//     node jsconsumer.js --version
//
// kafkajs comes from NODE_PATH (the tier installs it with npm into its
// cache, .ci/run and `make test-kafka`). The consumer joins GROUP, reads
// TOPIC from the oldest offset and takes SLEEP_MS over each record in
// eachMessage, on kafkajs's default commits: autoCommit with no
// autoCommitInterval and no autoCommitThreshold, which commits the
// records resolved so far once each batch (one fetch's records of a
// partition) is processed. It runs until SIGINT or SIGTERM, then
// disconnects (leaving the group).
'use strict'

const { Kafka, logLevel } = require('kafkajs')

if (process.argv[2] === '--version') {
  console.log(require('kafkajs/package.json').version)
  process.exit(0)
}

const [brokers, groupId, topic, sleepMs] = process.argv.slice(2)
if (!topic) {
  console.error('usage: jsconsumer.js BROKERS GROUP TOPIC SLEEP_MS')
  process.exit(2)
}
const sleep = Number(sleepMs || 0)

const kafka = new Kafka({ clientId: 'jsconsumer', brokers: brokers.split(','), logLevel: logLevel.WARN })
// A short session so that the group settles fast; heartbeats go out
// between records, well within it at any SLEEP_MS the test uses.
const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 500 })

let consumed = 0
let commits = 0
let stopping = false
// Every commit kafkajs sends, counted for the log: the evidence of its
// rhythm from the member's side.
consumer.on(consumer.events.COMMIT_OFFSETS, () => { commits++ })

async function stop () {
  if (stopping) return
  stopping = true
  try {
    await consumer.disconnect()
  } catch (e) {
    console.error('disconnect:', e)
  }
  console.log(`consumed ${consumed}, committed ${commits} times`)
  process.exit(0)
}

process.on('SIGTERM', stop)
process.on('SIGINT', stop)

async function main () {
  await consumer.connect()
  await consumer.subscribe({ topics: [topic], fromBeginning: true })
  await consumer.run({
    eachMessage: async () => {
      if (sleep > 0) await new Promise(resolve => setTimeout(resolve, sleep))
      consumed++
    }
  })
}

main().catch(e => {
  console.error(e)
  process.exit(1)
})
