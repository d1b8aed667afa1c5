"""A minimal, live-only stand-in for Microsoft's `devtools_testutils` (azure-sdk-tools).

The azure-data-tables test suite imports this package. The real one records or replays HTTP
traffic through a test proxy; this shim only supports live mode: tests talk straight to the
endpoint under test, nothing is recorded, and no test's assertions are touched. What each name
does follows the live-mode behaviour of tools/azure-sdk-tools/devtools_testutils in
Azure/azure-sdk-for-python (see "The Azure SDK for Python's own tests" in table-server/sdk-tests/README.md).
"""
import functools
import inspect
import os
import time
import zlib
from collections import namedtuple

import pytest

__all__ = [
    "AzureRecordedTestCase",
    "AzureTestError",
    "AzureMgmtPreparer",
    "FakeResource",
    "PowerShellPreparer",
    "ResourceGroupPreparer",
    "ResponseCallback",
    "add_body_key_sanitizer",
    "add_general_regex_sanitizer",
    "add_oauth_response_sanitizer",
    "get_credential",
    "is_live",
    "is_live_and_not_recording",
    "recorded_by_proxy",
    "remove_batch_sanitizers",
    "set_custom_default_matcher",
    "test_proxy",
]


class AzureTestError(Exception):
    pass


FakeResource = namedtuple("FakeResource", ["name", "id"])


def is_live():
    """Always live: there is no test proxy and no recording to play back."""
    return True


def is_live_and_not_recording():
    return True


def get_credential(**kwargs):
    """AAD credential, as the real helper gives in live mode (only AAD tests use it)."""
    if kwargs.pop("is_async", False):
        from azure.identity.aio import DefaultAzureCredential
    else:
        from azure.identity import DefaultAzureCredential
    return DefaultAzureCredential(**kwargs)


# Sanitizers and matchers configure the test proxy's recordings; live and unrecorded, they do
# nothing (the real ones also return early when live and not recording).
def add_general_regex_sanitizer(*args, **kwargs):
    pass


def add_body_key_sanitizer(*args, **kwargs):
    pass


def add_oauth_response_sanitizer(*args, **kwargs):
    pass


def remove_batch_sanitizers(*args, **kwargs):
    pass


def set_custom_default_matcher(*args, **kwargs):
    pass


@pytest.fixture(scope="session")
def test_proxy():
    """No proxy is started: requests go to the endpoint under test."""
    yield


def _get_resource_name(name_prefix, identifier):
    # As azure_testcase.get_resource_name: a checksum of the test's id, so names are stable.
    checksum = zlib.adler32(identifier) & 0xFFFFFFFF
    name = "{}{}".format(name_prefix, hex(checksum)[2:]).rstrip("L")
    if name.endswith("L"):
        name = name[:-1]
    return name


def _trim_kwargs_from_test_function(fn, kwargs):
    # As azure_devtools.scenario_tests.utilities.trim_kwargs_from_test_function.
    if not getattr(fn, "__is_preparer", False):
        args, _, kw, _, _, _, _ = inspect.getfullargspec(fn)
        if kw is None:
            args = set(args)
            for key in [k for k in kwargs if k not in args]:
                del kwargs[key]


class AzureRecordedTestCase(object):
    """The helpers the tables tests use, with their live-mode behaviour."""

    @property
    def is_live(self):
        return is_live()

    @property
    def in_recording(self):
        return self.is_live

    def is_playback(self):
        return not self.is_live

    def create_random_name(self, name):
        unique_test_name = os.getenv("PYTEST_CURRENT_TEST").encode("utf-8")
        return _get_resource_name(name, unique_test_name)

    def get_resource_name(self, name):
        return self.create_random_name(name)

    def sleep(self, seconds):
        # Live, the real helper sleeps. The suite calls this only after deleting every table at
        # teardown (10 s, for the service's asynchronous table deletion); a local server deletes
        # at once, so the runner sets DEVTOOLS_SKIP_SLEEP=1 to save ~10 s per test.
        if self.is_live and not os.environ.get("DEVTOOLS_SKIP_SLEEP"):
            time.sleep(seconds)

    def generate_sas(self, *args, **kwargs):
        # Live: the real token (the fake one is only for recordings).
        sas_func = args[0]
        kwargs.pop("fake_value", None)
        return sas_func(*args[1:], **kwargs)


def _takes_variables(test_func):
    params = inspect.signature(test_func).parameters
    return "variables" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _call_with_variables(test_func, args, kwargs):
    """As the real decorator in record mode: pass `variables` (empty: nothing was recorded) if the
    test takes it. The variables a test returns are for the recording, which live runs do not
    keep; like the real decorator, the wrapper returns nothing."""
    if _takes_variables(test_func):
        test_func(*args, variables={}, **kwargs)
    else:
        test_func(*args, **kwargs)


def recorded_by_proxy(test_func):
    @functools.wraps(test_func)
    def record_wrap(*args, **kwargs):
        trimmed = dict(kwargs)
        _trim_kwargs_from_test_function(test_func, trimmed)
        _call_with_variables(test_func, args, trimmed)

    return record_wrap


class AzureMgmtPreparer(object):
    """As azure_devtools' AbstractPreparer: wraps a test, passing it what create_resource gives."""

    def __init__(self, name_prefix="", random_name_length=24, **kwargs):
        self.name_prefix = name_prefix
        self.test_class_instance = None

    @property
    def is_live(self):
        return is_live()

    def create_resource(self, name, **kwargs):
        return {}

    def remove_resource(self, name, **kwargs):
        pass

    def __call__(self, fn):
        if inspect.iscoroutinefunction(fn):

            async def _preparer_wrapper(test_class_instance, **kwargs):
                self.test_class_instance = test_class_instance
                kwargs.update(self.create_resource(self.name_prefix, **kwargs))
                _trim_kwargs_from_test_function(fn, kwargs)
                return await fn(test_class_instance, **kwargs)

        else:

            def _preparer_wrapper(test_class_instance, **kwargs):
                self.test_class_instance = test_class_instance
                kwargs.update(self.create_resource(self.name_prefix, **kwargs))
                _trim_kwargs_from_test_function(fn, kwargs)
                return fn(test_class_instance, **kwargs)

        setattr(_preparer_wrapper, "__is_preparer", True)
        functools.update_wrapper(_preparer_wrapper, fn)
        return _preparer_wrapper


class PowerShellPreparer(AzureMgmtPreparer):
    """PowerShellPreparer("tables", tables_x="fake", ...): passes each `tables_x` keyword from the
    environment variable TABLES_X, else its default (the real one requires the variable live)."""

    def __init__(self, directory, name_prefix="", preparers=None, **kwargs):
        super().__init__(name_prefix)
        self.directory = directory
        self.fake_values = {k: v for k, v in kwargs.items() if directory in k}

    def create_resource(self, name, **kwargs):
        return {k: os.environ.get(k.upper(), v) for k, v in self.fake_values.items()}


class ResourceGroupPreparer(AzureMgmtPreparer):
    def __init__(self, *args, **kwargs):
        super().__init__()
        raise AzureTestError("resource groups need Azure management access; not supported here")


class ResponseCallback(object):
    """As devtools_testutils.ResponseCallback (rewrites a response's status for retry tests)."""

    def __init__(self, status=None, new_status=None):
        self.status = status
        self.new_status = new_status
        self.first = True
        self.count = 0

    def override_first_status(self, response):
        if self.first and response.http_response.status_code == self.status:
            response.http_response.status_code = self.new_status
            self.first = False
        self.count += 1

    def override_status(self, response):
        if response.http_response.status_code == self.status:
            response.http_response.status_code = self.new_status
        self.count += 1
