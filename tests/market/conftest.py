from __future__ import annotations

import pytest
from market_fixture import make_marketplace


@pytest.fixture
def market_dir(tmp_path):
    return make_marketplace(tmp_path / "team-market")
