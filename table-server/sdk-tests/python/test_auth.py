"""Authorization: SharedKey signing (what azure-data-tables uses), a wrong key, account SAS,
table SAS (permissions, expiry, key ranges) and stored access policies."""

import datetime
import re

import pytest
from azure.core.credentials import AzureNamedKeyCredential
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError
from azure.data.tables import (
    AccountSasPermissions,
    ResourceTypes,
    TableAccessPolicy,
    TableSasPermissions,
    UpdateMode,
    generate_account_sas,
    generate_table_sas,
)

import sdk_helpers as h


def now():
    return datetime.datetime.now(datetime.timezone.utc)


def later():
    return now() + datetime.timedelta(hours=1)


def rows(table):
    return [(e["RowKey"], e.get("v")) for e in table.list_entities()]


def test_requests_are_signed_with_shared_key(table):
    seen = []
    table.create_entity({"PartitionKey": "p", "RowKey": "r"}, raw_request_hook=seen.append)
    table.get_entity("p", "r", raw_request_hook=seen.append)
    assert len(seen) == 2
    for request in seen:
        authorization = request.http_request.headers.get("Authorization", "")
        assert re.fullmatch(rf"SharedKey {re.escape(h.ACCOUNT)}:[A-Za-z0-9+/=]+", authorization), authorization


def test_wrong_key_refused_403(table, deviations):
    table.create_entity({"PartitionKey": "p", "RowKey": "r"})
    bad_credential = AzureNamedKeyCredential(h.ACCOUNT, h.wrong_key())
    bad = h.table_client(table.table_name, bad_credential)
    refused_table = h.unique_table_name("no")
    # (call, whether the SDK turns the answer into ClientAuthenticationError): create_entity
    # re-raises the pipeline's own HttpResponseError whatever the body says (see
    # TableClient.create_entity in azure-data-tables 12.7), so only the code is checked there.
    attempts = [
        (lambda: bad.get_entity("p", "r"), True),
        (lambda: bad.create_entity({"PartitionKey": "p", "RowKey": "intruder"}), False),
        (lambda: h.service_client(bad_credential).create_table(refused_table), True),
    ]
    try:
        for attempt, decoded in attempts:
            exc = h.expect_http_error(attempt, 403)
            with deviations.check("auth-error-code"):
                h.assert_error_code(exc, "AuthenticationFailed")
                if decoded:
                    assert isinstance(exc, ClientAuthenticationError)
        assert rows(table) == [("r", None)]
    finally:
        h.service_client().delete_table(refused_table)  # only there if wrongly created
    deviations.finish()


def test_account_sas_read_only(table, service):
    table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
    sas = generate_account_sas(
        h.CREDENTIAL,
        resource_types=ResourceTypes(service=True, container=True, object=True),
        permission=AccountSasPermissions(read=True, list=True),
        expiry=later(),
    )
    assert re.search(r"(^|&)sp=rl(&|$)", sas), sas
    read_only = h.sas_table_client(table.table_name, sas)
    assert read_only.get_entity("p", "r")["v"] == 1
    assert len(list(read_only.list_entities())) == 1
    assert table.table_name in [t.name for t in h.sas_service_client(sas).list_tables()]

    refused_table = h.unique_table_name("refused")
    refused = [
        lambda: read_only.create_entity({"PartitionKey": "p", "RowKey": "w"}),
        lambda: read_only.update_entity({"PartitionKey": "p", "RowKey": "r", "v": 2}),
        lambda: read_only.upsert_entity({"PartitionKey": "p", "RowKey": "w"}),
        lambda: h.sas_service_client(sas).create_table(refused_table),
    ]
    try:
        for attempt in refused:
            h.expect_http_error(attempt, 403, "AuthorizationPermissionMismatch")
    finally:
        service.delete_table(refused_table)  # only there if wrongly created
    # delete_entity hides 404 only; a refusal still raises.
    h.expect_http_error(lambda: read_only.delete_entity("p", "r"), 403, "AuthorizationPermissionMismatch")
    assert rows(table) == [("r", 1)]

    # The same kind of SAS with write permissions allows the writes.
    writer = h.sas_table_client(
        table.table_name,
        generate_account_sas(
            h.CREDENTIAL,
            resource_types=ResourceTypes(service=True, container=True, object=True),
            permission=AccountSasPermissions(read=True, list=True, write=True, add=True, update=True, delete=True),
            expiry=later(),
        ),
    )
    writer.create_entity({"PartitionKey": "p", "RowKey": "w"})
    writer.delete_entity("p", "w")
    assert rows(table) == [("r", 1)]


def test_table_sas_permissions(table):
    table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
    name = table.table_name

    def sas_for(**permissions):
        return h.sas_table_client(
            name, generate_table_sas(h.CREDENTIAL, name, permission=TableSasPermissions(**permissions), expiry=later())
        )

    reader = sas_for(read=True)
    assert reader.get_entity("p", "r")["v"] == 1
    assert len(list(reader.list_entities())) == 1
    h.expect_http_error(
        lambda: reader.create_entity({"PartitionKey": "p", "RowKey": "x"}), 403, "AuthorizationPermissionMismatch"
    )

    adder = sas_for(read=True, add=True)
    adder.create_entity({"PartitionKey": "p", "RowKey": "x", "v": 1})
    h.expect_http_error(
        lambda: adder.update_entity({"PartitionKey": "p", "RowKey": "x", "v": 2}, mode=UpdateMode.REPLACE),
        403,
        "AuthorizationPermissionMismatch",
    )
    h.expect_http_error(lambda: adder.delete_entity("p", "x"), 403, "AuthorizationPermissionMismatch")

    full = sas_for(read=True, add=True, update=True, delete=True)
    full.update_entity({"PartitionKey": "p", "RowKey": "x", "v": 2}, mode=UpdateMode.MERGE)
    full.upsert_entity({"PartitionKey": "p", "RowKey": "y", "v": 3}, mode=UpdateMode.REPLACE)
    full.update_entity({"PartitionKey": "p", "RowKey": "y", "v": 4}, mode=UpdateMode.MERGE)
    full.delete_entity("p", "x")
    assert rows(table) == [("r", 1), ("y", 4)]


def test_transaction_with_table_sas(table, deviations):
    table.create_entity({"PartitionKey": "p", "RowKey": "old", "v": 1})
    sas = generate_table_sas(
        h.CREDENTIAL,
        table.table_name,
        permission=TableSasPermissions(read=True, add=True, update=True, delete=True),
        expiry=later(),
    )
    with deviations.check("batch-table-sas"):
        try:
            h.sas_table_client(table.table_name, sas).submit_transaction(
                [
                    ("create", {"PartitionKey": "p", "RowKey": "new", "v": 2}),
                    ("delete", {"PartitionKey": "p", "RowKey": "old"}),
                ]
            )
        except HttpResponseError as exc:
            raise AssertionError(f"transaction refused: {exc.status_code} {h.body_error_code(exc)}") from exc
        assert rows(table) == [("new", 2)]
    deviations.finish()


def test_expired_table_sas_refused_403(table, deviations):
    table.create_entity({"PartitionKey": "p", "RowKey": "r"})
    sas = generate_table_sas(
        h.CREDENTIAL,
        table.table_name,
        permission=TableSasPermissions(read=True, add=True),
        start=now() - datetime.timedelta(hours=2),
        expiry=now() - datetime.timedelta(hours=1),
    )
    expired = h.sas_table_client(table.table_name, sas)
    for attempt in (
        lambda: expired.get_entity("p", "r"),
        lambda: expired.create_entity({"PartitionKey": "p", "RowKey": "late"}),
    ):
        exc = h.expect_http_error(attempt, 403)
        with deviations.check("auth-error-code"):
            h.assert_error_code(exc, "AuthenticationFailed")
    assert len(rows(table)) == 1
    deviations.finish()


def test_table_sas_key_ranges(table, deviations):
    for pk, rk in (("a", "1"), ("c", "3"), ("c", "4"), ("m", "m")):
        table.create_entity({"PartitionKey": pk, "RowKey": rk, "v": 1})
    sas = generate_table_sas(
        h.CREDENTIAL,
        table.table_name,
        permission=TableSasPermissions(read=True, add=True, update=True, delete=True),
        expiry=later(),
        start_pk="b",
        start_rk="1",
        end_pk="d",
        end_rk="5",
    )
    for part in ("spk=b", "srk=1", "epk=d", "erk=5"):
        assert part in sas, sas
    ranged = h.sas_table_client(table.table_name, sas)

    # Inside the range everything works.
    assert ranged.get_entity("c", "3")["v"] == 1
    ranged.create_entity({"PartitionKey": "c", "RowKey": "2", "v": 2})
    ranged.update_entity({"PartitionKey": "c", "RowKey": "4", "v": 4}, mode=UpdateMode.MERGE)
    ranged.delete_entity("c", "2")

    with deviations.check("sas-key-ranges"):
        # Writes outside the range are refused (AuthorizationFailure, as the service answers).
        h.expect_http_error(
            lambda: ranged.create_entity({"PartitionKey": "z", "RowKey": "3"}), 403, "AuthorizationFailure"
        )
        h.expect_http_error(
            lambda: ranged.update_entity({"PartitionKey": "m", "RowKey": "m", "v": 9}, mode=UpdateMode.MERGE),
            403,
            "AuthorizationFailure",
        )
        h.expect_http_error(lambda: ranged.delete_entity("a", "1"), 403, "AuthorizationFailure")
        # Queries only return entities inside the range; a point read outside it finds nothing.
        assert [(e["PartitionKey"], e["RowKey"]) for e in ranged.list_entities()] == [("c", "3"), ("c", "4")]
        with pytest.raises(HttpResponseError) as info:
            ranged.get_entity("m", "m")
        assert info.value.status_code in (403, 404)
    deviations.finish()


def test_stored_access_policies(table, deviations):
    table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
    start = (now() - datetime.timedelta(minutes=5)).replace(microsecond=0)
    expiry = start + datetime.timedelta(hours=2)
    table.set_table_access_policy(
        {
            "readonly": TableAccessPolicy(permission="r", start=start, expiry=expiry),
            "writer": TableAccessPolicy(permission="raud", start=start, expiry=expiry),
        }
    )
    policies = table.get_table_access_policy()
    assert sorted(policies) == ["readonly", "writer"]
    assert [(policies[k].permission, policies[k].start, policies[k].expiry) for k in ("readonly", "writer")] == [
        ("r", start, expiry),
        ("raud", start, expiry),
    ]

    name = table.table_name
    readonly = h.sas_table_client(name, generate_table_sas(h.CREDENTIAL, name, policy_id="readonly"))
    writer = h.sas_table_client(name, generate_table_sas(h.CREDENTIAL, name, policy_id="writer"))
    assert h.eventually(lambda: readonly.get_entity("p", "r"))["v"] == 1
    h.expect_http_error(
        lambda: readonly.create_entity({"PartitionKey": "p", "RowKey": "x"}), 403, "AuthorizationPermissionMismatch"
    )
    h.eventually(lambda: writer.create_entity({"PartitionKey": "p", "RowKey": "w"}))

    # Dropping "readonly" revokes every SAS that names it; "writer" keeps working.
    table.set_table_access_policy({"writer": TableAccessPolicy(permission="raud", start=start, expiry=expiry)})
    assert sorted(table.get_table_access_policy()) == ["writer"]
    exc = h.eventually(lambda: h.expect_http_error(lambda: readonly.get_entity("p", "r"), 403))
    with deviations.check("auth-error-code"):
        h.assert_error_code(exc, "AuthenticationFailed")
    writer.delete_entity("p", "w")

    table.set_table_access_policy({})
    assert table.get_table_access_policy() == {}
    h.eventually(lambda: h.expect_http_error(lambda: writer.get_entity("p", "r"), 403))
    deviations.finish()
