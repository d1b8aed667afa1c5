"""Table operations: Create Table, Query Tables (filter and paging), Delete Table."""

import json

import pytest
from azure.core.exceptions import ResourceExistsError

import sdk_helpers as h


def names(service, query, **params):
    return [t.name for t in service.query_tables(query, parameters=params)]


def test_create_list_delete(service):
    name = h.unique_table_name("life")
    raw = h.RawResponses()
    created = service.create_table(name, raw_response_hook=raw)
    try:
        assert raw.last[0] == 201
        assert created.table_name == name
        assert names(service, "TableName eq @n", n=name) == [name]
        assert [t.name for t in service.list_tables() if t.name == name] == [name]
    finally:
        service.delete_table(name, raw_response_hook=raw)
    assert raw.last[0] == 204
    assert names(service, "TableName eq @n", n=name) == []


def test_create_existing_table_fails_409(service, table):
    with pytest.raises(ResourceExistsError) as info:
        service.create_table(table.table_name)
    assert info.value.status_code == 409
    h.assert_error_code(info.value, "TableAlreadyExists")
    # The TableClient flavour of create_table raises the same.
    exc = h.expect_http_error(table.create_table, 409, "TableAlreadyExists")
    assert isinstance(exc, ResourceExistsError)


def test_delete_missing_table_fails_404(service):
    # delete_table ignores 404 by design, so the answer is read from the raw response.
    name = h.unique_table_name("gone")
    raw = h.RawResponses()
    service.delete_table(name, raw_response_hook=raw)
    for client in (service, h.table_client(name)):
        raw = h.RawResponses()
        if client is service:
            client.delete_table(name, raw_response_hook=raw)
        else:
            client.delete_table(raw_response_hook=raw)
        status, _, body = raw.last
        assert status == 404
        assert json.loads(body)["odata.error"]["code"] == "ResourceNotFound"


def test_list_tables_in_pages_of_two(service):
    # A shared random prefix isolates this test's tables from everything else on the server.
    prefix = h.unique_table_name("pg")
    expected = [prefix + suffix for suffix in "abcde"]
    made = []
    try:
        for name in reversed(expected):
            service.create_table(name)
            made.append(name)
        query = "TableName ge @lo and TableName lt @hi"
        params = {"lo": prefix, "hi": prefix + "{"}

        pager = service.query_tables(query, parameters=params, results_per_page=2).by_page()
        pages, tokens = [], []
        for page in pager:
            pages.append([t.name for t in page])
            tokens.append(pager.continuation_token)
        assert pages == [expected[0:2], expected[2:4], expected[4:]]
        assert tokens[0] and tokens[1], "every page but the last carries a continuation token"
        assert tokens[2] is None

        # Resuming from the first token yields the rest.
        resumed = service.query_tables(query, parameters=params, results_per_page=2).by_page(
            continuation_token=tokens[0]
        )
        assert [t.name for page in resumed for t in page] == expected[2:]

        assert names(service, query, **params) == expected
    finally:
        for name in made:
            service.delete_table(name)
