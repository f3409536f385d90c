meta:
  id: frame
  title: Apache Kafka size-delimited frame
  application: Apache Kafka clients and brokers
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: be
doc: |
  One request or response as it travels on a connection: its size, then the frame itself. A
  client writes its requests this way, end to end, and the broker its responses, in the order
  of the requests they answer (a Produce request with `acks` 0 gets none). The frame is a
  `kafka.request`, or a `kafka.response` read with the `api_key` and `api_version` of the
  request whose correlation id it carries; `kafka.conversation` pairs them. The broker refuses
  a negative size, and one above `socket.request.max.bytes` (100 MiB by default).
doc-ref: https://kafka.apache.org/protocol#protocol_common
seq:
  - id: len_frame
    type: s4
    valid:
      min: 0
    doc: Number of bytes of the frame after this field; never negative.
    doc-ref: https://kafka.apache.org/protocol#protocol_common
    -lc-size-of: frame
  - id: frame
    size: len_frame
    doc: |
      The request or response: its header (which starts with the correlation id in a response,
      after the API key and version in a request), then its body.
    doc-ref: https://kafka.apache.org/protocol#protocol_messages
