"""The browser tests' one Chromium per module (support.webserver.ModuleBrowser)."""

from __future__ import annotations

import pytest
from support.webserver import MODULE_BROWSER


@pytest.fixture(scope="module", autouse=True)
def one_chromium_per_module():
    with MODULE_BROWSER.held():
        yield
