"""Responses that mean something only beside their request.

A TANK Produce response lists one status per partition of its request, in the
request's order, without naming the partitions; a status that concerns a whole
topic (unknown topic, read-only topic) is written once for all its partitions.
`pair_produce` puts the names back.
"""

from __future__ import annotations

from dataclasses import dataclass

from logcodec.runtime.errors import DecodeError

#: Statuses written once for every partition of a topic (TANK's per-topic errors).
TOPIC_WIDE = frozenset({"unknown_topic", "read_only"})


@dataclass(frozen=True)
class ProduceAck:
    """The outcome of producing to one partition."""

    topic: str
    partition: int
    error: object  # the produce_error enum member (an int when the code is not in the enum)
    leader_address: int | None = None  # IPv4 address of the leader, for other_leader
    leader_port: int | None = None

    @property
    def ok(self) -> bool:
        return getattr(self.error, "name", None) == "ok"


def _payload(message):
    return getattr(message, "payload", message)  # a whole frame or just its payload


def pair_produce(request, response) -> list[ProduceAck]:
    """Pair a decoded Produce (or ProduceWithSeqnum) request with its response.

    Takes decoded `tank.request` / `tank.response` frames or their payloads, and returns
    one `ProduceAck` per partition of the request, in its order. A response whose
    statuses do not fit the request raises `DecodeError` (`invalid_length`).
    """
    req, resp = _payload(request), _payload(response)
    if req.request_id != resp.request_id:
        raise DecodeError("invalid_value", f"the response answers request {resp.request_id}, "
                          f"not {req.request_id}", None, "request_id")
    statuses = iter(enumerate(resp.statuses))
    acks = []
    for topic in req.topics:
        for n, part in enumerate(topic.partitions):
            try:
                i, status = next(statuses)
            except StopIteration:
                raise DecodeError("invalid_length", f"no status for {topic.name}/{part.partition}", None,
                                  "statuses") from None
            topic_wide = getattr(status.error, "name", None) in TOPIC_WIDE
            if topic_wide and n != 0:
                raise DecodeError("invalid_value", f"a topic-wide status for {topic.name} after its first "
                                  "partition", None, f"statuses[{i}]")
            for p in (topic.partitions if topic_wide else [part]):
                acks.append(ProduceAck(topic.name, p.partition, status.error, status.leader_address,
                                       status.leader_port))
            if topic_wide:
                break
    extra = sum(1 for _ in statuses)
    if extra:
        raise DecodeError("invalid_length", f"{extra} statuses more than the request's partitions", None, "statuses")
    return acks
