"""The head office's floor in Chromium: a room on every tile, the two tables that share an id each a
tile and a table page of its own, and the API asking which room when an id is used in two."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from web_browser import chromium, served

from pit.service.floor.data import Role
from pit.service.store.pit_store import PitStore
from pit.service.web.app import create_app

PASSWORD = "hq-manager-1"


def _status(driver: object, url: str) -> int:
    script = "var done = arguments[arguments.length - 1]; fetch(arguments[0]).then(function (r) { done(r.status); });"
    return int(driver.execute_async_script(script, url))  # type: ignore[attr-defined]


def walk_the_floor(office: PitStore, rooms: dict[str, tuple[str, ...]], shared: str, folder: Path) -> None:
    office.add_user("hq", Role.MANAGER, PASSWORD)
    with served(create_app(office)) as base, chromium(folder) as driver:
        driver.get(base + "/")
        WebDriverWait(driver, 5).until(lambda d: "/login" in d.current_url)
        driver.find_element(By.NAME, "name").send_keys("hq")
        driver.find_element(By.NAME, "password").send_keys(PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.ID, "floor"))
        wanted = {(room, table) for room, tables in rooms.items() for table in tables}
        WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#floor .tile")) == len(wanted))
        shown = {
            (tile.find_element(By.CSS_SELECTOR, ".room").text, tile.find_element(By.CSS_SELECTOR, ".tid").text)
            for tile in driver.find_elements(By.CSS_SELECTOR, "#floor .tile")
        }
        assert shown == wanted  # every tile in its room, the shared id once per room
        for room in rooms:
            driver.get(f"{base}/")
            WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.ID, f"tile-{room}-{shared}"))
            driver.find_element(By.ID, f"tile-{room}-{shared}").click()
            WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "h1 .room"))
            assert driver.find_element(By.CSS_SELECTOR, "h1").text == f"Table {shared} {room}"
            journals = {r["journal"] for r in office.rounds(shared, 1000, room)}
            assert journals and journals == {
                j
                for j, at in office._all("SELECT journal, room FROM journals WHERE table_id = %s", (shared,))
                if at == room
            }
            for link in driver.find_elements(By.CSS_SELECTOR, ".round-list a"):
                assert f"room={room}" in (link.get_attribute("href") or "")
            assert _status(driver, f"{base}/api/tables/{shared}/rounds?room={room}") == 200
        assert _status(driver, f"{base}/api/tables/{shared}/rounds") == 409  # which room's?
        driver.get(f"{base}/reports")
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "td.room"))
        rows = {
            (cell.find_element(By.XPATH, "preceding-sibling::td[1]").text, cell.text)
            for cell in driver.find_elements(By.CSS_SELECTOR, "td.room")
        }
        assert rows == {(table, room) for room, table in wanted}  # the report's rows: one per (room, table)
