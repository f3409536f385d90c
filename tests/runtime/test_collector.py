"""A decode leaves Python's cyclic garbage collector as it found it (issue 38): no call of the
library turns it off, even for a moment, so that another thread's garbage is collected while
decodes run, and a caller who turned it off finds it off.

Two threads decode Kafka batches (values, tuples, one record at a time, columns, streams) and
TANK bundles while a third makes cyclic garbage, and a fourth watches `gc.isenabled()`: it
never changes, and the garbage is collected by the collector's own passes (no `gc.collect()`).
"""

import gc
import threading
import time
import weakref

from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.generated.tank import bundle as tb

import logcodec

RECORDS = [rb.Record(offset_delta=i, key=b"k%d" % i, value=b"v" * 40, headers=[rb.Header(key="h", value=b"1")])
           for i in range(200)]
BATCH = rb.encode(rb.RecordBatchV2(records=RECORDS))
GZIPPED = rb.encode(rb.RecordBatchV2(attributes=rb.Attributes(compression=rb.Compression.gzip), records=RECORDS))
BUNDLE = tb.encode(tb.Bundle(messages=[tb.Message(timestamp=1_700_000_000_000 + i, content=b"m") for i in range(200)]))


def decodes() -> None:
    """One round of each read of two formats. The reads that keep every record (`lazy=False`)
    also keep the collector's count of objects rising, so that it runs while the test watches:
    a lazy read frees each record before the next is made."""
    list(rb.decode(BATCH).records)
    rb.decode(BATCH, lazy=False)
    rb.decode(GZIPPED, tuples=True, lazy=False)
    list(rb.decode_iter(BATCH)[1])
    rb.decode_columns(BATCH, tuples=True)
    rb.decode_stream(BATCH + GZIPPED + BATCH[:40], lazy=False)
    for _, records in rb.decode_stream(BATCH * 2, iterate=True).items:
        list(records)
    rb.decode_part(rb.HEADER, BATCH)
    logcodec.decode("tank.bundle", BUNDLE, base_seq_num=5)


class Cycle:
    __slots__ = ("__weakref__", "other")


def test_decodes_in_threads_never_switch_the_collector_and_other_garbage_is_collected():
    assert gc.isenabled()
    stop = threading.Event()
    seen: set[bool] = set()
    collected = [0]
    made = [0]
    errors: list[BaseException] = []

    def decoding() -> None:
        try:
            while not stop.is_set():
                decodes()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    def watching() -> None:
        while not stop.is_set():
            seen.add(gc.isenabled())

    def dropped(_) -> None:
        collected[0] += 1

    keep = []  # the weak references, kept so that their callbacks run

    def littering() -> None:
        while not stop.is_set():
            a, b = Cycle(), Cycle()
            a.other, b.other = b, a  # only the cyclic collector frees these
            keep.append(weakref.ref(a, dropped))
            made[0] += 1
            time.sleep(0)

    threads = [threading.Thread(target=f) for f in (decoding, decoding, watching, littering)]
    for t in threads:
        t.start()
    # Two seconds at least, and enough cycles that the collector's own count (700 allocations)
    # has run it several times: the littering thread gets the interpreter once a switch
    # interval, so under load it makes a few hundred cycles in two seconds, not enough.
    started = time.monotonic()
    while time.monotonic() - started < 2.0 or (made[0] < 2000 and time.monotonic() - started < 30.0):
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors
    assert seen == {True}, "a decode turned the collector off"
    assert gc.isenabled()
    # The collector ran on its own while the decodes ran: most cycles are gone already (those
    # made since its last pass may be left).
    assert made[0] > 100 and collected[0] > made[0] // 2, (made[0], collected[0])


def test_a_collector_turned_off_by_the_caller_stays_off():
    gc.disable()
    try:
        decodes()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_compiled_build_makes_values_the_collector_does_not_walk():
    """What a compiled build of our schemas makes (value objects, their lists) is untracked from
    the start (`runtime/untracked.c`): the collector's passes have nothing of it to walk. A
    tuple form is a tuple of atomic values, which its C companion makes untracked. A pure
    build's values are tracked, as any Python object."""
    import pytest

    if rb.NATIVE is None or tb.NATIVE is None:
        pytest.skip("no compiled build here (`logcodec accelerate`)")
    batch = rb.decode(GZIPPED, lazy=False)
    record = batch.records[0]
    made = [batch, batch.attributes, batch.records, record, record.headers, record.headers[0]]
    assert not any(gc.is_tracked(v) for v in made)
    assert not any(gc.is_tracked(r) for r in rb.decode(BATCH, tuples=True, lazy=False).records)
    lazy = rb.decode(GZIPPED)  # the view is one tracked object a batch; what its loops make is not
    assert not gc.is_tracked(lazy) and gc.is_tracked(lazy.records)
    assert not any(gc.is_tracked(r) or gc.is_tracked(r.headers) for r in lazy.records)
    bundle = tb.decode(BUNDLE)
    assert not gc.is_tracked(bundle) and not gc.is_tracked(bundle.messages[0])


def interpreted(module):
    """A generated module's own source run as a module of its own, never swapped for its compiled
    build, whether or not one is in the cache (the one loader of rendered source, `load_rendered`)."""
    from logcodec.generator.loader import load_rendered, stand_ins
    from logcodec.runtime import native

    path = native.source_of(module)
    name = f"_interpreted_{path.stem}"
    with stand_ins([name]):
        return load_rendered(name, path.read_text(), str(path))


def test_an_interpreted_build_takes_each_element_of_its_lists_off_with_what_it_holds():
    """Kafka's protocol bodies stay interpreted in a compiled install unless `accelerate --imports`
    compiled them: where the runtime's C helper is built (`untracked_tree`), each element of a
    list that holds lists or values of its own (a Metadata topic, its partitions and their
    lists) is taken off the collector's list as it is made, and what is made once, outside a
    list (the body), is left tracked. Without the helper (pure Python) every value stays tracked."""
    import pytest
    from logcodec.generated.kafka.messages import metadata_response

    from logcodec.runtime import native

    mr = interpreted(metadata_response)
    if mr._untracked_tree is None:
        pytest.skip("no build of the runtime's C helper here (`logcodec accelerate`)")
    partitions = [mr.MetadataResponsePartition(error_code=0, partition_index=p, leader_id=1, leader_epoch=2,
                                                replica_nodes=[1, 2, 3], isr_nodes=[1, 2], offline_replicas=[],
                                                tagged_fields=[]) for p in range(3)]
    body = mr.MetadataResponse(throttle_time_ms=0, brokers=[], cluster_id="c", controller_id=1, topics=[
        mr.MetadataResponseTopic(error_code=0, name="t", topic_id=bytes(16), is_internal=0, partitions=partitions,
                                 topic_authorized_operations=-2**31, tagged_fields=[])], tagged_fields=[])
    value = mr.decode(mr.encode(logcodec.strip_derived(body), api_version=12), api_version=12)
    topic = value.topics[0]
    below = [topic, topic.partitions, topic.tagged_fields, *topic.partitions,
             *(lst for p in topic.partitions for lst in (p.replica_nodes, p.isr_nodes, p.offline_replicas))]
    assert not any(gc.is_tracked(v) for v in below)
    assert gc.is_tracked(value) and gc.is_tracked(value.topics)  # made once a decode
    assert native.tree_untracker("no such build") is None  # without the helper: none, values stay tracked


def test_the_tree_untracker_leaves_shared_and_foreign_objects_alone():
    """`untracked_tree` goes down lists, tuples and value objects (slots, no `__dict__`) only:
    an enum member (shared, with a `__dict__`) and an object of another kind stay tracked."""
    import enum

    import pytest
    from logcodec.generated.kafka.messages import metadata_response as mr

    untrack = mr._untracked_tree
    if untrack is None:
        pytest.skip("no build of the runtime's C helper here (`logcodec accelerate`)")

    class Kind(enum.IntEnum):
        one = 1

    class Plain:
        pass

    inner, plain, member_list = [1], Plain(), [Kind.one]
    tree = [(inner, {"k": [2]}), plain, member_list]
    assert untrack(tree) is tree
    assert not gc.is_tracked(tree) and not gc.is_tracked(tree[0]) and not gc.is_tracked(inner)
    assert gc.is_tracked(tree[0][1]) and gc.is_tracked(tree[0][1]["k"])  # a dict is not gone down
    assert gc.is_tracked(plain) and not gc.is_tracked(member_list) and gc.is_tracked(Kind.one)
