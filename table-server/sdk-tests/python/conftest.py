import pytest

import sdk_helpers as h


@pytest.fixture
def service():
    with h.service_client() as client:
        yield client


def _make_table(tag):
    name = h.unique_table_name(tag)
    client = h.service_client().create_table(name)
    return name, client


@pytest.fixture
def table(request):
    """A uniquely named table (its TableClient), deleted when the test ends."""
    tag = "".join(ch for ch in request.node.name.split("[")[0].replace("test_", "") if ch.isalnum())[:12]
    name, client = _make_table(tag or "t")
    yield client
    h.service_client().delete_table(name)


@pytest.fixture
def deviations():
    return h.Deviations()
