"""A house bot becomes a new ladder version when one of the helper modules its file
imports changes, not only its file: one version's ratings never mix two bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from catan_arena.submissions import services
from catan_arena.submissions.services import register_builtins

pytestmark = pytest.mark.django_db


def test_a_changed_helper_module_registers_a_new_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "search.py").write_text("from bots.builtin.search_policy import X\n")
    helper = tmp_path / "search_policy.py"
    helper.write_text("X = 1\n")
    monkeypatch.setattr(services, "BUILTINS", {"search": tmp_path / "search.py"})

    (first,) = register_builtins()
    (again,) = register_builtins()
    assert again.pk == first.pk  # control: nothing changed, no new version
    helper.write_text("X = 2\n")
    (changed,) = register_builtins()
    assert changed.pk != first.pk and changed.number == first.number + 1
    assert changed.sha256 != first.sha256
