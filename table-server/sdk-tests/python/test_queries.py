"""Query Entities: $filter, $select, $top with continuation across pages, empty results."""

import pytest

import sdk_helpers as h


def row_key(i):
    return f"r{i:02d}"


@pytest.fixture
def seeded(table):
    """25 entities in partition "pa" (r00..r24) and 3 in "pb", written with two transactions."""
    table.submit_transaction(
        [
            ("create", {"PartitionKey": "pa", "RowKey": row_key(i), "num": i, "even": i % 2 == 0, "label": f"item {i}"})
            for i in range(25)
        ]
    )
    table.submit_transaction(
        [
            ("create", {"PartitionKey": "pb", "RowKey": row_key(i), "num": 100 + i, "even": False, "label": f"other {i}"})
            for i in range(3)
        ]
    )
    return table


def test_filter_partition_eq_and_rowkey_range(seeded):
    found = list(
        seeded.query_entities(
            "PartitionKey eq @pk and RowKey ge @lo and RowKey lt @hi", parameters={"pk": "pa", "lo": "r05", "hi": "r10"}
        )
    )
    assert [e["RowKey"] for e in found] == ["r05", "r06", "r07", "r08", "r09"]
    assert all(e["PartitionKey"] == "pa" for e in found)

    typed = list(seeded.query_entities("num ge @n and even eq @b", parameters={"n": 20, "b": True}))
    assert [(e["PartitionKey"], e["RowKey"]) for e in typed] == [("pa", "r20"), ("pa", "r22"), ("pa", "r24")]

    other = list(seeded.query_entities("PartitionKey eq 'pb'"))
    assert [e["num"] for e in other] == [100, 101, 102]


def test_select_returns_only_selected_properties(seeded):
    found = list(seeded.query_entities("PartitionKey eq 'pb'", select=["RowKey", "num"]))
    assert len(found) == 3
    for entity in found:
        assert sorted(entity.keys()) == ["RowKey", "num"], dict(entity)
    assert [(e["RowKey"], e["num"]) for e in found] == [("r00", 100), ("r01", 101), ("r02", 102)]

    single = seeded.get_entity("pa", "r03", select=["label"])
    assert dict(single) == {"label": "item 3"}


def test_top_10_pages_through_25_entities(seeded):
    def pages_of(**kwargs):
        pager = seeded.query_entities("PartitionKey eq 'pa'", results_per_page=10).by_page(**kwargs)
        out = []
        for page in pager:
            out.append(([e["RowKey"] for e in page], pager.continuation_token))
        return out

    pages = pages_of()
    assert [len(rows) for rows, _ in pages] == [10, 10, 5]
    assert [rk for rows, _ in pages for rk in rows] == [row_key(i) for i in range(25)]
    tokens = [token for _, token in pages]
    assert tokens[0] and tokens[1], "every page but the last carries a continuation token"
    assert tokens[0] != tokens[1]
    assert tokens[2] is None

    # Resuming from the first page's token continues where it stopped.
    resumed = pages_of(continuation_token=tokens[0])
    assert [rows for rows, _ in resumed] == [pages[1][0], pages[2][0]]

    # Without a filter the pages run across both partitions, in key order.
    everything = []
    for page in seeded.list_entities(results_per_page=10).by_page():
        rows = [(e["PartitionKey"], e["RowKey"]) for e in page]
        assert len(rows) <= 10
        everything.extend(rows)
    assert len(everything) == 28
    assert everything == sorted(everything)


def test_query_matching_nothing(seeded):
    pager = seeded.query_entities("PartitionKey eq 'nothing-here'", results_per_page=10).by_page()
    pages = [list(page) for page in pager]
    assert pages == [[]]
    assert pager.continuation_token is None
    assert list(seeded.query_entities("num gt @n", parameters={"n": 1000})) == []
