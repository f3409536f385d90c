"""The budget of a decode call (`runtime.limits`): each call of the default limits spends from a
fresh copy of their budget, never from the template an entry point copies."""

import pytest
from logcodec.generated.kafka import record_batch_v2 as rb

from logcodec.runtime.errors import DecodeError
from logcodec.runtime.limits import DEFAULT_BUDGETS, DEFAULT_LIMITS, Limits, budget


def test_each_decode_spends_a_fresh_copy_of_the_default_budget():
    template = [list(b) for b in DEFAULT_BUDGETS]
    assert template == [budget(DEFAULT_LIMITS, False), budget(DEFAULT_LIMITS, True)]
    data = rb.build(base_offset=0, base_timestamp=0, max_timestamp=0,
                    records=[(0, 0, i, None, b"v", []) for i in range(300)])
    for tuples in (False, True, False):
        assert len(rb.decode(data, tuples=tuples).records) == 300
    assert [list(b) for b in DEFAULT_BUDGETS] == template  # spent from copies only
    with pytest.raises(DecodeError) as caught:  # other limits still get a budget of their own
        rb.decode(data, limits=Limits(max_elements=10), lazy=False)
    assert caught.value.kind == "limit_exceeded"
