"""pytest plugin: names under `.localhost` resolve to the loopback address (RFC 6761, 6.3).

The tests build account URLs as https://<account>.table.<TABLES_STORAGE_ENDPOINT_SUFFIX>; with the
suffix `localhost:PORT` that is https://devstoreaccount1.table.localhost:PORT, and the SDK derives
https://devstoreaccount1-secondary.table.localhost:PORT for the secondary location. Resolvers that
do not already answer for *.localhost (glibc without an /etc/hosts entry) get this answer here, so
no /etc/hosts change is needed. Both transports (requests, aiohttp's threaded resolver) go through
socket.getaddrinfo.
"""
import socket

_getaddrinfo = socket.getaddrinfo


def _localhost_getaddrinfo(host, *args, **kwargs):
    name = host.decode() if isinstance(host, bytes) else host
    if isinstance(name, str) and name.rstrip(".").lower().endswith(".localhost"):
        host = "127.0.0.1"
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _localhost_getaddrinfo
