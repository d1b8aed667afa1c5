"""Live-only `devtools_testutils.aio` (see the package's docstring)."""
import functools

from .. import _takes_variables, _trim_kwargs_from_test_function

__all__ = ["recorded_by_proxy_async"]


def recorded_by_proxy_async(test_func):
    @functools.wraps(test_func)
    async def record_wrap(*args, **kwargs):
        trimmed = dict(kwargs)
        _trim_kwargs_from_test_function(test_func, trimmed)
        if _takes_variables(test_func):
            await test_func(*args, variables={}, **trimmed)
        else:
            await test_func(*args, **trimmed)

    return record_wrap
