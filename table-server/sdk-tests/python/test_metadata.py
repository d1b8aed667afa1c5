"""JSON metadata levels. The SDK always asks for minimalmetadata; a per-call headers={"Accept": ...}
replaces that with each level in turn and a raw_response_hook keeps the raw body, which is then
checked against "Payload format for Table service operations" (learn.microsoft.com)."""

import datetime
import json
import re
import uuid

import pytest
from azure.data.tables import EdmType, EntityProperty

import sdk_helpers as h

LEVELS = ["nometadata", "minimalmetadata", "fullmetadata"]

# Properties whose EDM type JSON cannot express, so that the payload must annotate them.
ANNOTATED = {"l": "Edm.Int64", "dt": "Edm.DateTime", "g": "Edm.Guid", "b": "Edm.Binary"}

ENTITY = {
    "PartitionKey": "p",
    "RowKey": "r",
    "s": "text",
    "i": 42,
    "d": 1.5,
    "bo": True,
    "l": EntityProperty(2**40, EdmType.INT64),
    "dt": datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
    "g": uuid.UUID("c9da6455-213d-42c9-9a79-3e9149a57833"),
    "b": b"\x01\x02\x03",
}


def fetch(level, call):
    """Runs call(headers=..., raw_response_hook=...) and returns the parsed raw body."""
    raw = h.RawResponses()
    call(headers={"Accept": f"application/json;odata={level}"}, raw_response_hook=raw)
    status, headers, body = raw.last
    assert status == 200
    content_type = "".join(
        (value for key, value in headers.items() if key.lower() == "content-type")
    ).replace(" ", "")
    assert content_type.startswith("application/json"), content_type
    assert f"odata={level}" in content_type, f"content-type {content_type} names {level}"
    return json.loads(body)


def annotations(entity):
    suffix = "@odata.type"
    return {k[: -len(suffix)]: v for k, v in entity.items() if k.endswith(suffix)}


def check_values(entity):
    assert (entity["PartitionKey"], entity["RowKey"]) == ("p", "r")
    assert (entity["s"], entity["i"], entity["d"], entity["bo"]) == ("text", 42, 1.5, True)
    assert entity["l"] == str(2**40), "Int64 travels as a JSON string"
    assert re.fullmatch(r"2020-01-02T03:04:05(\.0+)?Z", entity["dt"]), entity["dt"]
    assert entity["g"] == "c9da6455-213d-42c9-9a79-3e9149a57833"
    assert entity["b"] == "AQID"
    assert entity["Timestamp"]


def check_entity(level, entity, table_name):
    check_values(entity)
    if level == "nometadata":
        extra = [k for k in entity if k.startswith("odata.") or "@odata." in k]
        assert extra == [], "nometadata carries no odata annotations"
        return
    # odata.etag: the SDKs read an entity's ETag from it; the service sends it at this level too.
    assert entity.get("odata.etag"), f"{level} has odata.etag"
    if level == "minimalmetadata":
        for name in ("odata.type", "odata.id", "odata.editLink"):
            assert name not in entity, f"minimalmetadata has no {name}"
        assert annotations(entity) == ANNOTATED
        return
    self_link = f"{table_name}(PartitionKey='p',RowKey='r')"
    assert entity["odata.type"] == f"{h.ACCOUNT}.{table_name}"
    assert entity["odata.id"].startswith(("http://", "https://"))
    assert entity["odata.id"].endswith("/" + self_link), entity["odata.id"]
    assert entity["odata.editLink"] == self_link
    assert annotations(entity) == {**ANNOTATED, "Timestamp": "Edm.DateTime"}


@pytest.mark.parametrize("level", LEVELS)
def test_get_entity(level, table):
    table.create_entity(ENTITY)
    body = fetch(level, lambda **kw: table.get_entity("p", "r", **kw))
    if level == "nometadata":
        assert "odata.metadata" not in body
    else:
        assert body["odata.metadata"].endswith(f"$metadata#{table.table_name}/@Element"), body["odata.metadata"]
    check_entity(level, body, table.table_name)


@pytest.mark.parametrize("level", LEVELS)
def test_query_entities(level, table, deviations):
    table.create_entity(ENTITY)
    body = fetch(level, lambda **kw: list(table.query_entities("PartitionKey eq 'p'", **kw)))
    assert len(body["value"]) == 1
    check_entity(level, body["value"][0], table.table_name)
    if level == "nometadata":
        assert list(body) == ["value"]
    else:
        with deviations.check("query-metadata-url"):
            assert body["odata.metadata"].endswith(f"$metadata#{table.table_name}"), body["odata.metadata"]
    deviations.finish()


@pytest.mark.parametrize("level", LEVELS)
def test_query_tables(level, service, table):
    name = table.table_name
    body = fetch(level, lambda **kw: list(service.query_tables("TableName eq @n", parameters={"n": name}, **kw)))
    assert len(body["value"]) == 1
    item = body["value"][0]
    assert item["TableName"] == name
    if level == "nometadata":
        assert list(body) == ["value"]
        assert list(item) == ["TableName"]
        return
    assert body["odata.metadata"].endswith("$metadata#Tables"), body["odata.metadata"]
    if level == "minimalmetadata":
        assert list(item) == ["TableName"]
        return
    assert item["odata.type"] == f"{h.ACCOUNT}.Tables"
    assert item["odata.id"].endswith(f"Tables('{name}')"), item["odata.id"]
    assert item["odata.editLink"] == f"Tables('{name}')"
