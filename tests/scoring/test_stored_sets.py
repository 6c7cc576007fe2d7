"""Which stored set a name means (``scoring.selection.stored_set``): the test bed's own set
before a global one of the same name, another test bed's never; a set without members is an
empty set, not a missing one."""

from __future__ import annotations

from ulcdb.scoring.selection import stored_set
from ulcdb.store.database import Store


def test_a_test_beds_own_set_comes_before_a_global_one() -> None:
    store = Store(":memory:")
    store.con.execute("""
        insert into named_set (set_id, testbed_id, kind, name) values
            (1, null, 'system', 'best'), (2, 7, 'system', 'best'), (3, 8, 'system', 'mine'),
            (4, null, 'system', 'none'), (5, null, 'metric', 'best');
        insert into named_set_member values
            (1, 1, 'g'), (2, 2, 'late'), (2, 1, 'early'), (3, 1, 'other'), (5, 1, 'BLEU');""")
    assert stored_set(store, 7, "system", "best") == ["early", "late"]
    assert stored_set(store, 9, "system", "best") == ["g"]
    assert stored_set(store, None, "system", "best") == ["g"]
    assert stored_set(store, 7, "metric", "best") == ["BLEU"]
    assert stored_set(store, 7, "system", "mine") is None
    assert stored_set(store, 7, "system", "none") == []
    assert stored_set(store, 7, "segment", "best") is None
