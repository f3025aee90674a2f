"""The dashboard served by uvicorn on a free port in a thread, headless Chromium driven by Selenium,
and the walk of the issue through it: log in, see a tile change within 1 s of a round closing, open
a round's recall and step through it, acknowledge an alert, download a shift CSV. The walk takes
the store as a parameter, so it runs over the test double and over the real store alike."""

from __future__ import annotations

import csv
import io
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import WebDriverWait
from starlette.applications import Starlette
from web_bench import PASSWORDS

from pit.service.floor.data import PitData
from pit.service.web.app import create_app
from pit.trial.local_services import free_port
from tests.screenshots import publish

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


@contextmanager
def served(app: Starlette) -> Iterator[str]:
    """The app on http://127.0.0.1:PORT until the block ends."""
    port = free_port()
    with running(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1)):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def running(config: uvicorn.Config) -> Iterator[uvicorn.Server]:
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
        yield server
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
    options.add_experimental_option(
        "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    )
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        yield driver
    finally:
        driver.quit()


def log_in(driver: WebDriver, base: str, name: str) -> None:
    driver.get(base + "/")
    WebDriverWait(driver, 5).until(lambda d: "/login" in d.current_url)
    driver.find_element(By.NAME, "name").send_keys(name)
    driver.find_element(By.NAME, "password").send_keys(PASSWORDS[name])
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.ID, "floor"))


def element_text(driver: WebDriver, element_id: str) -> str:
    """Read in one script call: the pages swap their live parts in as they change."""
    return str(
        driver.execute_script("var e = document.getElementById(arguments[0]); return e ? e.innerText : '';", element_id)
    )


def tile_text(driver: WebDriver, table_id: str) -> str:
    return element_text(driver, f"tile-{table_id}")


def download_trouble(driver: WebDriver, downloads: Path) -> str:
    """Why the CSV link left no file: the folder, the page, what the link answers when the page asks
    it again, and what Chrome's own download list says of it."""
    page = str(driver.execute_script("var main = document.querySelector('main'); return main ? main.innerText : '';"))
    found = f"downloads {sorted(p.name for p in downloads.iterdir())}; page {driver.current_url}: {page[:200]!r}"
    answer = driver.execute_async_script(
        "var done = arguments[arguments.length - 1], link = document.getElementById('csv');"
        "if (!link) { done('no link'); return; }"
        "fetch(link.href, {credentials: 'same-origin'}).then("
        " function (r) { r.text().then(function (t) { done(r.status + ' ' + t.slice(0, 200)); }); },"
        " function (e) { done('no answer: ' + e); });"
    )
    driver.get("chrome://downloads")
    listed = driver.execute_script(
        "var manager = document.querySelector('downloads-manager');"
        "var list = manager && manager.shadowRoot.querySelector('#downloadsList');"
        "return list ? list.items.map(function (i) { return [i.fileName, i.state, i.lastReasonText]; }) : null;"
    )
    return f"{found}; the link answers {answer!r}; Chrome's downloads: {listed}"


def screenshot(driver: WebDriver, folder: Path, name: str) -> None:
    """The whole page, up to 2,400 pixels tall."""
    size = driver.get_window_size()
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(size["width"], min(2400, max(size["height"], height + 140)))
    path = folder / f"pit-{name}.png"
    driver.save_screenshot(str(path))
    driver.set_window_size(size["width"], size["height"])
    publish(path)


def walk(data: PitData, close_a_round: Callable[[], float], folder: Path, screens: bool = True) -> None:
    """The walk of the issue over any store: `close_a_round()` makes T-1 close its seventh round and
    answers the moment it closed (time.monotonic); some alert is open."""

    def shoot(driver: WebDriver, folder: Path, name: str) -> None:
        if screens:
            screenshot(driver, folder, name)

    with served(create_app(data)) as base, chromium(folder) as driver:
        log_in(driver, base, "sue")
        before = tile_text(driver, "T-1")
        closed_at = close_a_round()
        # the round's records and the table's status are two messages: the tile may change for each
        WebDriverWait(driver, 5, poll_frequency=0.02).until(
            lambda d: (shown := tile_text(d, "T-1")) != before and "Round 7" in shown
        )
        seen_after = time.monotonic() - closed_at
        assert seen_after < 1.0, f"the tile showed round 7 {seen_after:.2f} s after the round closed"
        shoot(driver, folder, "floor")  # the floor as the report will count it: T-1's seventh round closed

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
        alert_id = str(alert.get_attribute("id"))
        alert.find_element(By.NAME, "note").send_keys("Called the table; checked on camera 4")
        alert.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(driver, 5).until(staleness_of(alert))
        WebDriverWait(driver, 5).until(lambda d: "Acknowledged by sue" in element_text(d, alert_id))
        assert "checked on camera 4" in element_text(driver, alert_id)
        shoot(driver, folder, "alerts")

        driver.find_element(By.CSS_SELECTOR, ".me button").click()
        WebDriverWait(driver, 5).until(lambda d: "/login" in d.current_url)  # logged out before the next page
        log_in(driver, base, "meg")
        driver.get(base + "/reports")
        shoot(driver, folder, "report")
        size = driver.get_window_size()
        driver.set_window_size(1400, size["height"])  # a pit podium's screen
        sideways = driver.execute_script(
            "return Array.from(document.querySelectorAll('.scroll')).filter(e => e.scrollWidth > e.clientWidth"
            " + 1).length"
        )
        assert sideways == 0, "the report's tables fit 1400 px without scrolling sideways"
        driver.set_window_size(size["width"], size["height"])
        driver.find_element(By.ID, "csv").click()
        downloads = folder / "downloads"
        try:
            WebDriverWait(driver, 30).until(lambda d: [p for p in downloads.glob("shift-all-*.csv")])
        except TimeoutException:
            raise AssertionError(f"no shift CSV after 30 s: {download_trouble(driver, downloads)}") from None
        rows = list(csv.DictReader(io.StringIO(next(downloads.glob("shift-all-*.csv")).read_text())))
        assert [row["table_id"] for row in rows] == [row["table_id"] for row in data.tables()]
        assert int(rows[0]["rounds"]) == 7  # the last eight hours hold every round T-1 played, the newest too
