"""asyncssh, as the pool imports it: every module takes it from here.

asyncssh still supports DSA keys, and cryptography 47 and later warn that DSA
is going away at each of asyncssh's mentions of it: ten lines of
``CryptographyDeprecationWarning`` at import, the first thing ``betania serve`` or
``demo`` showed a newcomer. The warning is for asyncssh's maintainers, not for who
runs a pool (the host key is Ed25519; OpenSSH clients stopped offering DSA keys in
2015), so that one warning, from asyncssh alone, is silenced before asyncssh is
imported; every other warning still shows.
"""

import warnings

warnings.filterwarnings("ignore", message="DSA is deprecated", module="asyncssh")

import asyncssh  # noqa: E402  (after the filter: the warnings fire at import)

__all__ = ["asyncssh"]
