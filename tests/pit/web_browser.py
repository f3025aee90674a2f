"""The dashboard served by uvicorn on a free port in a thread, and headless Chromium driven by Selenium."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from starlette.applications import Starlette

from pit.local_services import free_port

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


@contextmanager
def served(app: Starlette) -> Iterator[str]:
    """The app on http://127.0.0.1:PORT until the block ends."""
    port = free_port()
    with running(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def running(config: uvicorn.Config) -> Iterator[None]:
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="dashboard")
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError(f"the dashboard did not start on port {config.port}")
        time.sleep(0.05)
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def chromium(folder: Path, width: int = 1600, height: int = 1000) -> Iterator[webdriver.Chrome]:
    """Headless Chromium with its own profile folder; downloads land in `folder / "downloads"`."""
    downloads = folder / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={folder / 'profile'}")
    options.add_argument(f"--window-size={width},{height}")
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        yield driver
    finally:
        driver.quit()
