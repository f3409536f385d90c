"""The capture scenario (scenario.json) run by aiokafka: every connection it opens goes to the
recording relay, whatever address the broker gives for itself (its sockets' `connect` is sent
there; the bytes are the client's own). Run by tests/codecs/kafka_capture.py:
python aiokafka_client.py BROKER_PORT RELAY_PORT"""

import asyncio
import json
import socket
import sys
from pathlib import Path

BROKER, RELAY = int(sys.argv[1]), int(sys.argv[2])
SCENARIO = json.loads((Path(__file__).parent / "scenario.json").read_text())


def _to_relay(connect):
    def connect_there(self, address):
        if isinstance(address, tuple) and address[1] == BROKER:
            address = ("127.0.0.1", RELAY, *address[2:])
        return connect(self, address)
    return connect_there


socket.socket.connect = _to_relay(socket.socket.connect)
socket.socket.connect_ex = _to_relay(socket.socket.connect_ex)

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer  # noqa: E402 - after the sockets are sent to the relay


def _bytes(text):
    return None if text is None else text.encode()


async def main() -> None:
    servers, topic = f"127.0.0.1:{BROKER}", SCENARIO["topic"]
    expected = 0
    for send in SCENARIO["sends"]:
        compression = None if send["compression"] == "none" else send["compression"]
        producer = AIOKafkaProducer(bootstrap_servers=servers, client_id="logcodec-capture", compression_type=compression)
        await producer.start()
        try:
            batch = producer.create_batch()
            for m in send["messages"]:
                batch.append(key=_bytes(m["key"]), value=_bytes(m["value"]), timestamp=None,
                             headers=[(k, v.encode()) for k, v in m["headers"]])
            await (await producer.send_batch(batch, topic, partition=0))
        finally:
            await producer.stop()
        expected += len(send["messages"])
    consumer = AIOKafkaConsumer(topic, bootstrap_servers=servers, group_id=SCENARIO["group"],
                                client_id="logcodec-capture", auto_offset_reset="earliest")
    await consumer.start()
    try:
        seen = 0
        async with asyncio.timeout(60):
            async for _ in consumer:
                seen += 1
                if seen == expected:
                    break
        await consumer.commit()
    finally:
        await consumer.stop()


asyncio.run(main())
