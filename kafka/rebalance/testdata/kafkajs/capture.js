// Joins kafkajs consumers to a group on the brokers in KGROUPS_BROKERS,
// one per "add" line on stdin; "stop N" disconnects the N-th (from 1),
// which leaves the group; "quit" disconnects all. Used by
// TestCaptureKafkaJSFixtures (KGROUPS_CAPTURE=1), never in CI.
//
// The consumers run kafkajs's own RoundRobinAssigner unchanged; the
// leader's call is only observed, to write to KGROUPS_ORDER_FILE the order
// in which the leader's metadata lists each topic's partitions (kfake
// lists them in no fixed order, Kafka brokers by id).
const fs = require('fs')
const { Kafka, logLevel, PartitionAssigners } = require('kafkajs')
const readline = require('readline')

const observed = ({ cluster }) => {
  const rr = PartitionAssigners.roundRobin({ cluster })
  return {
    name: rr.name,
    version: rr.version,
    protocol: args => rr.protocol(args),
    assign: async group => {
      const order = {}
      for (const t of group.topics) {
        order[t] = cluster.findTopicPartitionMetadata(t).map(p => p.partitionId)
      }
      fs.writeFileSync(process.env.KGROUPS_ORDER_FILE, JSON.stringify({ topics: group.topics, partitions: order }))
      return rr.assign(group)
    },
  }
}

const brokers = process.env.KGROUPS_BROKERS.split(',')
const groupId = process.env.KGROUPS_GROUP
const topics = process.env.KGROUPS_TOPICS.split(',')
const kafka = new Kafka({ clientId: 'kafkajs', brokers, logLevel: logLevel.NOTHING })
const consumers = []

async function add() {
  const c = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 500, rebalanceTimeout: 10000, partitionAssigners: [observed] })
  consumers.push(c)
  await c.connect()
  await c.subscribe({ topics, fromBeginning: true })
  await c.run({ eachMessage: async () => {} })
  console.log('added ' + consumers.length)
}

readline.createInterface({ input: process.stdin }).on('line', async line => {
  const [cmd, arg] = line.trim().split(' ')
  try {
    if (cmd === 'add') await add()
    if (cmd === 'stop') {
      await consumers[Number(arg) - 1].disconnect()
      console.log('stopped ' + arg)
    }
    if (cmd === 'quit') {
      await Promise.all(consumers.map(c => c.disconnect()))
      process.exit(0)
    }
  } catch (e) {
    console.error(e)
    process.exit(1)
  }
})
