import asyncio
from pathlib import Path

import pytest

from game.pool import Pool
from game.rules import RuleViolation
from tests.conftest import FakeClock
from tests.ssh_pool import served_pool

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIInviteTestKey newcomer@laptop"


def test_an_invite_has_uses_and_an_expiry(pool: Pool, clock: FakeClock) -> None:
    code = pool.members.create_invite("admin", uses=2, expires_in_days=1)
    assert pool.members.register("ana", KEY, code).handle == "ana"
    assert pool.members.key_owner(KEY) == "ana"
    clock.advance(days=2)
    with pytest.raises(RuleViolation, match="expired"):
        pool.members.register("bia", KEY.replace("Test", "Tset"), code)
    assert pool.player("bia") is None


def test_registration_checks_the_handle_and_the_key(pool: Pool) -> None:
    code = pool.members.create_invite("admin", uses=5)
    with pytest.raises(RuleViolation, match="bad handle"):
        pool.members.register("Not Valid", KEY, code)
    pool.members.register("ana", KEY, code)
    with pytest.raises(RuleViolation, match="taken"):
        pool.members.register("ana", KEY.replace("Test", "Tset"), code)
    with pytest.raises(RuleViolation, match="another player"):
        pool.members.register("bia", KEY, code)
    with pytest.raises(RuleViolation, match="not an OpenSSH public key"):
        pool.members.register("caio", "garbage", code)


@pytest.mark.parametrize(("uses", "days"), [(0, None), (10**20, None), (1, 0), (1, 10**20)])
def test_invites_within_bounds(pool: Pool, uses: int, days: int | None) -> None:
    with pytest.raises(RuleViolation, match="an invite"):
        pool.members.create_invite("admin", uses, days)


def test_an_invite_made_in_the_pool_names_its_real_port_and_host(tmp_path: Path) -> None:
    """`invite 5 7` printed "ssh -p PORT HANDLE@HOST register ...", placeholders left in."""

    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana", admin=True)
            made = (await served.run("ana", "invite 5 7")).stdout.strip()
            code = made.split()[-1]
            assert made == (
                f"invite code {code} (5 use(s)); newcomers run, the name they want as HANDLE: "
                f"ssh -p {served.port} HANDLE@localhost register {code}"
            )
            async with served.connect("dora", served.new_key()) as connection:
                done = await connection.run(f"register {code}")
            assert "welcome, dora!" in done.stdout

    asyncio.run(scenario())


def test_a_refused_handle_is_told_one_that_would_do(tmp_path: Path) -> None:
    """`ssh josé@...` was refused with the rule alone."""

    async def scenario() -> None:
        async with served_pool(tmp_path) as served:
            served.player("ana", admin=True)
            code = (await served.run("ana", "invite 2")).stdout.split()[-1]
            key = served.new_key()
            async with served.connect("josé", key) as connection:
                refused = await connection.run(f"register {code}")
            assert refused.exit_status == 1
            assert refused.stderr.strip().endswith("starting with a letter; 'jose' would do")
            async with served.connect("jose", key) as connection:
                done = await connection.run(f"register {code}")
            assert "welcome, jose!" in done.stdout

    asyncio.run(scenario())
