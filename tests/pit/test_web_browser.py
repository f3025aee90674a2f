"""The dashboard in headless Chromium: log in, see a tile change within 1 s of a round closing,
open a round's recall and step through it, acknowledge an alert, download a shift CSV.

The walk takes the store as a parameter; screenshots of each page are saved, and copied into the
folder named by PIT_SCREENSHOTS (docs/screens for the README) when it is set."""
from __future__ import annotations

import csv
import io
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import WebDriverWait

from dealer_assist.table import Table
from dealer_assist.table_session import TableConfig
from pit.data import Change, PitData
from pit.web import create_app
from web_bench import PASSWORDS, bench_tables, floor_data, play
from web_browser import chromium, served

pytestmark = pytest.mark.slow
MORE_TABLES = (("T-4", "nobust-4.0"), ("T-5", "c21-8.0"), ("T-6", "nobust-4.0"), ("T-7", "c21-8.0"),
               ("T-8", "nobust-4.0"))


def log_in(driver: WebDriver, base: str, name: str) -> None:
    driver.get(base + "/")
    WebDriverWait(driver, 5).until(lambda d: "/login" in d.current_url)
    driver.find_element(By.NAME, "name").send_keys(name)
    driver.find_element(By.NAME, "password").send_keys(PASSWORDS[name])
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.ID, "floor"))


def element_text(driver: WebDriver, element_id: str) -> str:
    """Read in one script call: the pages swap their live parts in as they change."""
    return str(driver.execute_script("var e = document.getElementById(arguments[0]); return e ? e.innerText : '';",
                                     element_id))


def tile_text(driver: WebDriver, table_id: str) -> str:
    return element_text(driver, f"tile-{table_id}")


def screenshot(driver: WebDriver, folder: Path, name: str) -> None:
    """The whole page, up to 2,400 pixels tall."""
    size = driver.get_window_size()
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(size["width"], min(2400, max(size["height"], height + 140)))
    path = folder / f"pit-{name}.png"
    driver.save_screenshot(str(path))
    driver.set_window_size(size["width"], size["height"])
    if os.environ.get("PIT_SCREENSHOTS"):
        shutil.copy(path, Path(os.environ["PIT_SCREENSHOTS"]) / path.name)


def walk(data: PitData, close_a_round: Callable[[], float], folder: Path, screens: bool = True) -> None:
    """The walk of the issue over any store: `close_a_round()` makes T-1 close its seventh round and
    answers the moment it closed (time.monotonic); some alert is open."""
    def shoot(driver: WebDriver, folder: Path, name: str) -> None:
        if screens:
            screenshot(driver, folder, name)

    with served(create_app(data)) as base, chromium(folder) as driver:
        log_in(driver, base, "sue")
        before = tile_text(driver, "T-1")
        shoot(driver, folder, "floor")
        closed_at = close_a_round()
        WebDriverWait(driver, 5, poll_frequency=0.02).until(lambda d: tile_text(d, "T-1") != before)
        seen_after = time.monotonic() - closed_at
        assert seen_after < 1.0, f"the tile changed {seen_after:.2f} s after the round closed"
        assert "Round 7" in tile_text(driver, "T-1")

        driver.find_element(By.ID, "tile-T-3").click()
        WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".dealer .card.hole"))
        driver.find_element(By.PARTIAL_LINK_TEXT, "Round 2").click()
        WebDriverWait(driver, 5).until(lambda d: "round=2" in d.current_url)
        position = driver.find_element(By.CSS_SELECTOR, ".position")
        assert position.text.startswith("Input 1 of ")
        driver.find_element(By.CSS_SELECTOR, ".stepper .next").click()
        assert position.text.startswith("Input 2 of ")
        visible = [step for step in driver.find_elements(By.CSS_SELECTOR, ".step") if step.is_displayed()]
        assert len(visible) == 1 and "record #" in visible[0].text
        shoot(driver, folder, "table")

        driver.get(base + "/alerts?state=all")
        alert = driver.find_element(By.CSS_SELECTOR, ".alert.open")
        alert_id = alert.get_attribute("id")
        alert.find_element(By.NAME, "note").send_keys("Called the table; checked on camera 4")
        alert.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(driver, 5).until(staleness_of(alert))
        WebDriverWait(driver, 5).until(lambda d: "Acknowledged by sue" in element_text(d, alert_id))
        assert "checked on camera 4" in element_text(driver, alert_id)
        shoot(driver, folder, "alerts")

        driver.find_element(By.CSS_SELECTOR, ".me button").click()
        log_in(driver, base, "meg")
        driver.get(base + "/reports")
        shoot(driver, folder, "report")
        driver.find_element(By.ID, "csv").click()
        downloads = folder / "downloads"
        WebDriverWait(driver, 10).until(lambda d: [p for p in downloads.glob("shift-all-*.csv")])
        rows = list(csv.DictReader(io.StringIO(next(downloads.glob("shift-all-*.csv")).read_text())))
        assert [row["table_id"] for row in rows] == [row["table_id"] for row in data.tables()]
        assert int(rows[0]["rounds"]) == 7  # the last eight hours hold every round T-1 played, the newest too


def test_the_dashboard_in_a_browser_over_the_test_double(tmp_path):
    tables = bench_tables(tmp_path)
    data = floor_data(tmp_path)
    for number, (table_id, profile) in enumerate(MORE_TABLES):
        extra = Table.open(tmp_path / f"{table_id}.db", TableConfig(table_id, profile))
        play(extra, 2 + number, 20 + number)
        extra.close()
        data.add_table(table_id, tmp_path / f"{table_id}.db", devices={"shoe": "up", "peek": "up", "camera": "up"})

    def close_a_round() -> float:
        play(tables["T-1"], 1, 11)
        closed_at = time.monotonic()
        data.announce(Change("table", "T-1"))
        return closed_at

    try:
        walk(data, close_a_round, tmp_path)
    finally:
        for table in tables.values():
            table.close()
