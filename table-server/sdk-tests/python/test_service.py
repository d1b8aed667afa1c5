"""The service's own settings: Get/Set Table Service Properties (CORS rules included) and Get
Table Service Stats, which the SDK reads from the -secondary endpoint."""

from azure.data.tables import TableAnalyticsLogging, TableCorsRule, TableRetentionPolicy

import sdk_helpers as h


def test_properties_round_trip_and_a_set_keeps_what_it_leaves_out(service, deviations):
    before = service.get_service_properties()
    try:
        rule = TableCorsRule(
            ["https://py.example"],
            ["GET", "PUT"],
            allowed_headers=["x-ms-meta-*", "content-type"],
            exposed_headers=["x-ms-request-id"],
            max_age_in_seconds=120,
        )
        with deviations.check("service-properties"):
            service.set_service_properties(cors=[rule])
            read = service.get_service_properties()
            assert len(read["cors"]) == 1
            got = read["cors"][0]
            assert got.allowed_origins == ["https://py.example"]
            assert got.allowed_methods == ["GET", "PUT"]
            # The service lists whole header names before prefixes, whatever order they were
            # set in (an exchange recorded with it shows `x-ms-meta-xyz,x-ms-meta-data*` read
            # back from `x-ms-meta-data*,x-ms-meta-xyz`).
            assert got.allowed_headers == ["content-type", "x-ms-meta-*"]
            assert got.exposed_headers == ["x-ms-request-id"]
            assert got.max_age_in_seconds == 120

            # Only logging is sent: the CORS rule stays.
            logging = TableAnalyticsLogging(
                delete=True, read=False, write=True, retention_policy=TableRetentionPolicy(enabled=True, days=5)
            )
            service.set_service_properties(analytics_logging=logging)
            read = service.get_service_properties()
            assert read["analytics_logging"].delete is True
            assert read["analytics_logging"].retention_policy.days == 5
            assert [r.allowed_origins for r in read["cors"]] == [["https://py.example"]]

            # Six rules are one too many.
            h.expect_http_error(lambda: service.set_service_properties(cors=[rule] * 6), 400, "InvalidXmlDocument")
    finally:
        service.set_service_properties(
            analytics_logging=before["analytics_logging"], cors=before["cors"] or []
        )
    deviations.finish()


def test_stats_from_the_secondary_endpoint(service, deviations):
    with deviations.check("service-properties"):
        stats = service.get_service_stats()
        assert stats["geo_replication"]["status"] == "live"
        assert stats["geo_replication"]["last_sync_time"] is not None
    deviations.finish()
