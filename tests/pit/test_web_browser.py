"""The browser walk (`web_browser.walk`) over the test double of the store, on eight tables (the
README's screenshots come from the walk over the real store, test_web_browser_store.py)."""

from __future__ import annotations

import time

import pytest
import uvicorn
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from web_bench import bench_journals, bench_tables, floor_data, more_tables, play
from web_browser import chromium, log_in, running, walk

from pit.service.floor.data import Change
from pit.service.web.app import create_app
from pit.trial.local_services import free_port

pytestmark = pytest.mark.slow


def test_the_dashboard_in_a_browser_over_the_test_double(tmp_path):
    tables = bench_tables(tmp_path)
    data = floor_data(tmp_path)
    for table_id, extra in more_tables(tmp_path).items():
        extra.close()
        data.add_table(table_id, tmp_path / f"{table_id}.db", devices={"shoe": "up", "peek": "up", "camera": "up"})

    def close_a_round() -> float:
        play(tables["T-1"], 1, 11)
        closed_at = time.monotonic()
        data.announce(Change("table", "T-1"))
        return closed_at

    try:
        walk(data, close_a_round, tmp_path, screens=False)
    finally:
        for table in tables.values():
            table.close()


def test_a_page_says_when_its_live_updates_stop_and_resumes_them(tmp_path):
    data = floor_data(bench_journals(tmp_path))
    port = free_port()
    config = uvicorn.Config(
        create_app(data), host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    with chromium(tmp_path) as driver:
        with running(config) as server:
            log_in(driver, f"http://127.0.0.1:{port}", "sue")
            banner = driver.find_element(By.ID, "offline")
            assert not banner.is_displayed()
            server.should_exit = True
            WebDriverWait(driver, 10).until(lambda d: banner.is_displayed())
        with running(
            uvicorn.Config(
                create_app(data), host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
            )
        ):
            # a new app has no sessions: the page goes to the login, as after a restart
            WebDriverWait(driver, 15).until(lambda d: "/login" in d.current_url)
