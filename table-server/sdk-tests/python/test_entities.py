"""Single-entity operations: Insert, Get, Update/Merge, Insert-or-Replace/Merge, Delete,
conditional requests, the common failures, property types and awkward keys."""

import datetime
import json
import uuid

from azure.core import MatchConditions
from azure.core.exceptions import ResourceExistsError, ResourceModifiedError, ResourceNotFoundError
from azure.data.tables import EdmType, EntityProperty, UpdateMode

import sdk_helpers as h


def test_insert_get_update_upsert_delete(table):
    created = table.create_entity({"PartitionKey": "p", "RowKey": "r", "a": "one", "n": 1})
    assert created["etag"], "insert returns an ETag"

    got = table.get_entity("p", "r")
    assert got["PartitionKey"] == "p" and got["RowKey"] == "r"
    assert got.metadata["etag"] == created["etag"]
    assert got.metadata["timestamp"] is not None
    assert h.entity_props(got) == {"a": "one", "n": 1}

    merged = table.update_entity({"PartitionKey": "p", "RowKey": "r", "b": "two"}, mode=UpdateMode.MERGE)
    assert merged["etag"] and merged["etag"] != created["etag"]
    got = table.get_entity("p", "r")
    assert h.entity_props(got) == {"a": "one", "n": 1, "b": "two"}
    assert got.metadata["etag"] == merged["etag"]

    replaced = table.update_entity({"PartitionKey": "p", "RowKey": "r", "c": "three"}, mode=UpdateMode.REPLACE)
    assert replaced["etag"] != merged["etag"]
    assert h.entity_props(table.get_entity("p", "r")) == {"c": "three"}

    table.upsert_entity({"PartitionKey": "p", "RowKey": "r", "d": 4}, mode=UpdateMode.MERGE)
    assert h.entity_props(table.get_entity("p", "r")) == {"c": "three", "d": 4}

    table.upsert_entity({"PartitionKey": "p", "RowKey": "r", "e": True}, mode=UpdateMode.REPLACE)
    assert h.entity_props(table.get_entity("p", "r")) == {"e": True}

    # Upsert of a missing entity inserts it, in either mode.
    table.upsert_entity({"PartitionKey": "p", "RowKey": "new-merge", "x": 1}, mode=UpdateMode.MERGE)
    table.upsert_entity({"PartitionKey": "p", "RowKey": "new-replace", "y": 2}, mode=UpdateMode.REPLACE)
    assert h.entity_props(table.get_entity("p", "new-merge")) == {"x": 1}
    assert h.entity_props(table.get_entity("p", "new-replace")) == {"y": 2}

    table.delete_entity("p", "r")
    h.expect_http_error(lambda: table.get_entity("p", "r"), 404, "ResourceNotFound")
    assert [e["RowKey"] for e in table.list_entities()] == ["new-merge", "new-replace"]


def test_conditional_update_and_delete(table):
    first = table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
    second = table.update_entity(
        {"PartitionKey": "p", "RowKey": "r", "v": 2},
        mode=UpdateMode.MERGE,
        etag=first["etag"],
        match_condition=MatchConditions.IfNotModified,
    )
    assert second["etag"] != first["etag"]

    for mode in (UpdateMode.MERGE, UpdateMode.REPLACE):
        exc = h.expect_http_error(
            lambda mode=mode: table.update_entity(
                {"PartitionKey": "p", "RowKey": "r", "v": 3},
                mode=mode,
                etag=first["etag"],
                match_condition=MatchConditions.IfNotModified,
            ),
            412,
            "UpdateConditionNotSatisfied",
        )
        assert isinstance(exc, ResourceModifiedError)
    h.expect_http_error(
        lambda: table.delete_entity("p", "r", etag=first["etag"], match_condition=MatchConditions.IfNotModified),
        412,
        "UpdateConditionNotSatisfied",
    )
    assert table.get_entity("p", "r")["v"] == 2, "failed conditional writes change nothing"

    third = table.update_entity(
        {"PartitionKey": "p", "RowKey": "r", "v": 3},
        mode=UpdateMode.REPLACE,
        etag=second["etag"],
        match_condition=MatchConditions.IfNotModified,
    )
    table.delete_entity("p", "r", etag=third["etag"], match_condition=MatchConditions.IfNotModified)
    h.expect_http_error(lambda: table.get_entity("p", "r"), 404, "ResourceNotFound")


def test_insert_existing_entity_fails_409(table):
    table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
    exc = h.expect_http_error(
        lambda: table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 2}), 409, "EntityAlreadyExists"
    )
    assert isinstance(exc, ResourceExistsError)
    assert table.get_entity("p", "r")["v"] == 1


def test_missing_entity_fails_404(table):
    exc = h.expect_http_error(lambda: table.get_entity("p", "nope"), 404, "ResourceNotFound")
    assert isinstance(exc, ResourceNotFoundError)
    for mode in (UpdateMode.MERGE, UpdateMode.REPLACE):
        h.expect_http_error(
            lambda mode=mode: table.update_entity({"PartitionKey": "p", "RowKey": "nope", "v": 1}, mode=mode),
            404,
            "ResourceNotFound",
        )
    # delete_entity ignores 404 by design, so the answer is read from the raw response.
    raw = h.RawResponses()
    table.delete_entity("p", "nope", raw_response_hook=raw)
    status, _, body = raw.last
    assert status == 404
    assert json.loads(body)["odata.error"]["code"] == "ResourceNotFound"
    assert list(table.list_entities()) == [], "nothing was created"


def test_property_types_round_trip(table):
    when = datetime.datetime(2021, 3, 4, 5, 6, 7, 123000, tzinfo=datetime.timezone.utc)
    guid = uuid.UUID("0f8fad5b-d9cb-469f-a165-70867728950e")
    blob = bytes([0, 1, 2, 250, 255])
    text = "hello \"world\" 'x' é 日本 😀"
    table.create_entity(
        {
            "PartitionKey": "p",
            "RowKey": "r",
            "str": text,
            "emptyStr": "",
            "int32": -(2**31),
            "int32max": 2**31 - 1,
            "int64": EntityProperty(2**53 + 1, EdmType.INT64),
            "int64neg": EntityProperty(-(2**63), EdmType.INT64),
            "dbl": 3.25,
            "dblIntegral": 5.0,
            "dblTyped": EntityProperty(7, EdmType.DOUBLE),
            "boolTrue": True,
            "boolFalse": False,
            "date": when,
            "guid": guid,
            "bin": blob,
        }
    )
    got = table.get_entity("p", "r")
    assert got["str"] == text
    assert got["emptyStr"] == ""
    assert got["int32"] == -(2**31) and type(got["int32"]) is int
    assert got["int32max"] == 2**31 - 1
    assert got["int64"] == EntityProperty(2**53 + 1, EdmType.INT64)
    assert got["int64neg"] == EntityProperty(-(2**63), EdmType.INT64)
    assert got["dbl"] == 3.25
    # A double with an integral value must still come back as a double.
    assert got["dblIntegral"] == 5.0 and type(got["dblIntegral"]) is float
    assert got["dblTyped"] == 7.0 and type(got["dblTyped"]) is float
    assert got["boolTrue"] is True and got["boolFalse"] is False
    assert isinstance(got["date"], datetime.datetime)
    assert got["date"] == when
    assert got["guid"] == guid
    assert got["bin"] == blob and isinstance(got["bin"], bytes)


def test_keys_with_quotes_unicode_and_spaces(table):
    keys = [
        ("O'Brien", "it's"),
        ("é", "日本語"),
        ("with space", "trailing space "),
        ("''", "'"),
        ("emoji 😀", "ü-ß"),
    ]
    for pk, rk in keys:
        table.create_entity({"PartitionKey": pk, "RowKey": rk, "pk": pk, "rk": rk})
    for pk, rk in keys:
        got = table.get_entity(pk, rk)
        assert (got["PartitionKey"], got["RowKey"], got["pk"]) == (pk, rk, pk)
        table.update_entity(
            {"PartitionKey": pk, "RowKey": rk, "touched": True},
            mode=UpdateMode.MERGE,
            etag=got.metadata["etag"],
            match_condition=MatchConditions.IfNotModified,
        )
        found = list(
            table.query_entities("PartitionKey eq @pk and RowKey eq @rk", parameters={"pk": pk, "rk": rk})
        )
        assert len(found) == 1, f"filter finds {pk}/{rk}"
        assert found[0]["touched"] is True
    for pk, rk in keys:
        table.delete_entity(pk, rk)
    assert list(table.list_entities()) == []
