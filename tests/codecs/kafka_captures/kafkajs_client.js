// The capture scenario (scenario.json) run by kafkajs: every connection it opens goes to the
// recording relay (its socketFactory), whatever address the broker gives for itself.
// Run by tests/codecs/kafka_capture.py: node kafkajs_client.js KAFKAJS_DIR BROKER_PORT RELAY_PORT
"use strict";
const fs = require("fs");
const net = require("net");
const path = require("path");
const [kafkajsDir, brokerPort, relayPort] = process.argv.slice(2);
const { Kafka, CompressionTypes, logLevel } = require(path.join(kafkajsDir, "kafkajs"));
const scenario = JSON.parse(fs.readFileSync(path.join(__dirname, "scenario.json"), "utf8"));
const COMPRESSION = { none: CompressionTypes.None, gzip: CompressionTypes.GZIP };

const socketFactory = ({ onConnect }) => net.connect({ host: "127.0.0.1", port: Number(relayPort) }, onConnect);

async function main() {
  const kafka = new Kafka({ clientId: "logcodec-capture", brokers: [`127.0.0.1:${brokerPort}`], socketFactory,
                            logLevel: logLevel.NOTHING });
  let expected = 0;
  for (const send of scenario.sends) {
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: scenario.topic, compression: COMPRESSION[send.compression],
                          messages: send.messages.map((m) => ({ key: m.key, value: m.value,
                                                                    headers: Object.fromEntries(m.headers) })) });
    await producer.disconnect();
    expected += send.messages.length;
  }
  const consumer = kafka.consumer({ groupId: scenario.group });
  await consumer.connect();
  await consumer.subscribe({ topic: scenario.topic, fromBeginning: true });
  let seen = 0;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`consumed ${seen} of ${expected} messages in 60 s`)), 60000);
    consumer.run({ eachMessage: async () => { seen += 1; if (seen === expected) { clearTimeout(timer); resolve(); } } })
      .catch(reject);
  });
  await consumer.disconnect();
}

main().catch((error) => { console.error(error); process.exit(1); });
