"""Weak tiers are for your own bots only: an environment variable cannot turn the
sandbox off for a worker; an explicit, trusted local request can."""

from __future__ import annotations

import pytest

from arena_runner.policy import ENV_TIER, resolve_policy
from arena_runner.sandbox.tiers import SandboxUnavailable, Tier


@pytest.mark.parametrize("tier", ["NONE", "NO_LANDLOCK"])
def test_a_weak_tier_from_the_environment_is_refused(
    tier: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_TIER, tier)
    with pytest.raises(SandboxUnavailable, match=f"tier {tier} is for your own bots only"):
        resolve_policy()


def test_an_explicit_trusted_local_request_is_granted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_TIER, "NONE")
    assert resolve_policy(trusted_local=True).tier is Tier.NONE
    monkeypatch.delenv(ENV_TIER)
    assert resolve_policy("NONE", trusted_local=True).tier is Tier.NONE
    with pytest.raises(SandboxUnavailable):
        resolve_policy("NONE")  # positive control of the refusal above: no env needed
