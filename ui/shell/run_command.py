"""`dealer-assist run`: open the dealer's touchscreen on a journaled table.

Cards come from the shoe scanner at `--shoe URL` (and the peek device at `--peek URL`), real or
served by `dealer-assist sim`. Without `--shoe`, the shoe and the peek reader are wire emulators
started on pseudo-terminals for this run, and the bench panel's Deal button pulls their cards;
`--bench in-process` feeds the bench's cards straight to the table instead (to stage misdeals).
The overhead camera is optional: `--camera SOURCE --calibration FILE` (or `camera` and
`calibration` in the table file) for a real one, `--camera emulated` for the synthetic camera
filming the felt as the shoe reported it. The journal lives in the user's data folder unless
`--journal` or the table file names one. `--pit URL --pit-creds FILE` (or `[pit]` in the table
file) ships the journal to the card room beside the table, which never waits for it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.errors import Failure
from dealer_assist.journal.errors import JournalDamaged
from dealer_assist.rules.counts import count
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.table.pins import PinSetter
from dealer_assist.table.table_file import DEFAULT_PROFILE, DEFAULT_TABLE_ID, table_start
from devices.table_owner.controller import TableController
from pit.shipping.link import add_pit_options, pit_link
from pit.stream.wire import check_table_id
from ui.shell.run_screen import NoScreen, add_screen_arguments, choose_screen, opened_screen, window_size

if TYPE_CHECKING:  # Qt, OpenCV and the emulators load only when the screen opens
    from devices.camera.watch import CameraWatch
    from hw_sims.bench_devices import BenchDevices
    from ui.shell.run_lifetime import Lifetime

WAIT_MS = 2  # autoplay looks again this soon while a device delivers
EMULATED_CAMERA = "emulated"


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(prog="dealer-assist run", description="Open the dealer's touchscreen.")
    parser.add_argument("--profile", help=f"rule profile of a new table (default {DEFAULT_PROFILE})")
    parser.add_argument("--table-id", help=f"the table's name in a new journal (default {DEFAULT_TABLE_ID})")
    parser.add_argument(
        "--config",
        type=Path,
        metavar="TABLE.toml",
        help="a table file: table_id, profile, settings, seats, burn_cards, rotation_rules, journal, shoe, peek, "
        "wagers, camera, calibration",
    )
    parser.add_argument(
        "--journal",
        type=Path,
        help="the table's journal; an existing one is resumed (default: TABLE_ID.db in the user's data folder)",
    )
    parser.add_argument(
        "--bench",
        choices=("wire", "in-process"),
        default="wire",
        help="without --shoe: emulated devices on pseudo-terminals (default), or cards fed in process",
    )
    parser.add_argument("--shoe", metavar="URL", help="the shoe scanner's URL (a device path, socket://HOST:PORT, ...)")
    parser.add_argument("--peek", metavar="URL", help="the peek device's URL (with --shoe)")
    parser.add_argument(
        "--wagers", metavar="URL", help="the wager reader's URL: its spots' chips are the wagers (RULES.md §8.22)"
    )
    parser.add_argument(
        "--camera",
        metavar="SOURCE",
        help="the overhead camera: a device index, video file or stream URL "
        f"(with --calibration), or {EMULATED_CAMERA!r} for the synthetic camera over the felt",
    )
    parser.add_argument(
        "--calibration", metavar="FILE", help="the camera's calibration file (from dealer-assist calibrate)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="shuffle and random play seed (a resumed table's emulated shoes keep the seed they were shuffled with)",
    )
    parser.add_argument("--size", default="1280x800", help="window size WIDTHxHEIGHT (default 1280x800)")
    parser.add_argument("--autoplay", type=int, default=0, metavar="N", help="play N random rounds through the screens")
    parser.add_argument(
        "--screenshots", type=Path, metavar="DIR", help="save screenshots of the autoplayed rounds here"
    )
    parser.add_argument("--exit", action="store_true", help="quit when the autoplay is done (or after the first frame)")
    add_pit_options(parser)
    add_screen_arguments(parser)
    return parser


def main(argv: list[str]) -> int:
    return reporting(lambda: _run(argv), Stream.STDERR)


def _run(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.shoe and args.autoplay:
        parser.error("--autoplay deals from the bench shoe: leave out --shoe")
    if args.peek and not args.shoe:
        parser.error("--peek needs --shoe")
    if args.calibration and not args.camera:
        parser.error("--calibration needs --camera")
    from ui.shell.run_lifetime import Lifetime  # Qt loads only once the arguments are good

    with ExitStack() as held:
        try:
            held.enter_context(opened_screen(choose_screen(args, os.environ), os.environ))
        except (NoScreen, ValueError) as error:
            print(f"dealer-assist run: {error}", file=sys.stderr)
            return 2
        _application()  # Qt opens the screen now: one that fails to, fails before any journal is made
        lifetime = held.enter_context(Lifetime())
        return _open_and_show(args, lifetime)


def _application() -> None:
    from PySide6.QtWidgets import QApplication

    if not isinstance(QApplication.instance(), QApplication):
        QApplication([sys.argv[0]])


def _open_and_show(args: argparse.Namespace, lifetime: Lifetime) -> int:
    """Open the table and show it. A start refused, before the table is opened or after, leaves
    no journal, seal, lock or folder that it made."""
    made: list[Path] = []  # the journal's folders that this start made, deepest first
    try:
        start = table_start(args.config, args.table_id, args.profile, args.journal)
        config, journal = start.file, start.journal
        if config.get("shoe") and not args.shoe:
            args.shoe, args.peek = config["shoe"], config.get("peek")
        args.wagers = args.wagers or config.get("wagers")
        if args.wagers and args.autoplay:
            raise ValueError(
                "--autoplay keys its wagers, and a table with a wager reader takes them from the chips: "
                "leave out the wager reader, or play it with dealer-assist bench --wagers"
            )
        if config.get("camera") and not args.camera:
            args.camera, args.calibration = str(config["camera"]), config.get("calibration")
        if args.camera not in (None, EMULATED_CAMERA) and not args.calibration:
            raise ValueError(f"camera {args.camera!r} needs its calibration file (dealer-assist calibrate makes one)")
        width, height = window_size(args.size)
        check_table_id(start.config.table_id)
        link = pit_link(args.pit, args.pit_creds, config)
        made = [folder for folder in (journal.parent, *journal.parent.parents) if not folder.exists()]
        journal.parent.mkdir(parents=True, exist_ok=True)
        devices = {"shoe": args.shoe or f"emulated ({args.bench})", "peek": args.peek or f"emulated ({args.bench})"}
        if args.wagers:
            devices["wagers"] = args.wagers
        controller = TableController.open(
            journal, start.config, named=start.named, devices=devices | ({"camera": args.camera} if args.camera else {})
        )
    except JournalDamaged as error:
        _remove_empty(made)
        print(
            f"dealer-assist run: the journal is damaged, the table will not deal: {error.verdict.message}",
            file=sys.stderr,
        )
        return 2
    except (Failure, ValueError, OSError) as error:
        _remove_empty(made)
        message = error.message if isinstance(error, Failure) else str(error)
        print(f"dealer-assist run: {message}", file=sys.stderr)
        return 2
    if controller.took_over is not None:
        print(
            f"dealer-assist run: {journal} was left locked by {controller.took_over}, which is no longer running: "
            "taken over",
            file=sys.stderr,
        )
    rng = random.Random(args.seed)
    try:
        said = supervisor_pin(controller, config.get("supervisor_pin"), live=bool(args.shoe))
        if args.camera:
            _camera(args.camera, args.calibration, controller)
        wire = _wire_bench(controller, args, rng)
    except Failure as error:
        controller.discard()
        _remove_empty(made)
        print(f"dealer-assist run: {error.message}", file=sys.stderr)
        return 2
    except BaseException:
        controller.close()
        raise
    print(
        f"dealer-assist run: journal {journal} (table {controller.table_id}, {controller.profile.id})", file=sys.stderr
    )
    if said is not None:
        print(f"dealer-assist run: {said}", file=sys.stderr)
    shipper = None
    if link is not None:
        from pit.shipping.shipper import attach_shipper
        from pit.shipping.table_view import snapshot_view

        status = snapshot_view(lambda: controller.snapshot, controller.device_lights)
        shipper = attach_shipper(
            journal,
            controller.add_sink,
            controller.table_id,
            link,
            status,
            lambda text, up: controller.add_status("Pit", text.removeprefix("pit: "), up),
        )
    try:
        return _show(controller, args, width, height, lifetime, rng, wire)
    finally:
        controller.close()
        if shipper is not None:
            shipper.stop(drain_s=1.5)
        print(
            f"dealer-assist run: {lifetime.reason or 'stopped'}; the journal is closed and sealed: {journal}",
            file=sys.stderr,
        )


def supervisor_pin(controller: TableController, table_file_hash: str | None, live: bool) -> str | None:
    """Nobody sets the table's first PIN by being first at its screen. A table without one takes
    the table file's hash; an emulated one is given the bench's PIN, which is printed (the line
    returned); a live table (its devices real) without a PIN of a person's is refused, saying how."""
    snap = controller.supervisor_snapshot(recent=0)
    if not snap.has_pin and table_file_hash is not None:
        controller.adopt_pin_hash(table_file_hash)
        return None
    how = (
        f"set one where the table is set up: `dealer-assist pin set --journal {snap.journal_path}` "
        "reads it from standard input (a PIN the table has first, then the new one), or put "
        '`supervisor_pin = "..."` from `dealer-assist pin hash` in the table file'
    )
    if live and not snap.has_pin:
        raise RuleError(Refusal.NO_PIN, f"table {controller.table_id} has no supervisor PIN: {how}")
    if live and snap.pin_set_by is PinSetter.BENCH:
        raise RuleError(
            Refusal.BENCH_PIN,
            f"table {controller.table_id}'s supervisor PIN was set by the bench and printed, "
            f"so it deals live only once a floor supervisor has chosen another: {how}",
        )
    if snap.has_pin:
        return None
    pin = controller.bench_pin()
    controller.set_pin(pin, by=PinSetter.BENCH)
    return (
        f"this emulated table's supervisor PIN is {pin}, set by the bench; the journal will not deal live "
        "with real devices until a floor supervisor sets another (`dealer-assist pin set`)"
    )


def _wire_bench(controller: TableController, args: argparse.Namespace, rng: random.Random) -> BenchDevices | None:
    """Without --shoe, the bench's emulated shoe and peek reader on pseudo-terminals (`--bench wire`)."""
    from hw_sims.linked_bench import screen_bench

    return screen_bench(controller, args.seed, rng) if not args.shoe and args.bench == "wire" else None


def _remove_empty(folders: list[Path]) -> None:
    """The folders a refused start made, deepest first, each while it is empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def _show(
    controller: TableController,
    args: argparse.Namespace,
    width: int,
    height: int,
    lifetime: Lifetime,
    rng: random.Random,
    wire: BenchDevices | None,
) -> int:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from dealer_assist.play.shoe import Shoe
    from ui.common.bridge import TableBridge
    from ui.common.screen_font import ScreenFontMissing, load_screen_font
    from ui.dealer.bench_panel import BenchPanel
    from ui.dealer.dealer_window import DealerWindow
    from ui.shell.autoplay import AutoPlayer
    from ui.shell.kiosk import present
    from ui.shell.long_lived import set_aside

    app = QApplication.instance()
    assert isinstance(app, QApplication), "run makes the application before it opens the table"
    try:
        load_screen_font()
    except ScreenFontMissing as missing:  # the table still deals; text may then be cut differently
        print(f"dealer-assist run: warning: {missing}", file=sys.stderr)
    # A loop of its own, not app.exec(): once app.exec() has returned, Qt treats the application as
    # closing and no longer delivers signals queued from device threads, so the screen could not be
    # opened a second time in the same process.
    loop = QEventLoop()
    bridge = TableBridge(controller)
    if wire is not None:
        wire.start()
        args.shoe, args.peek = wire.shoe_url, wire.peek_url
    if args.shoe:
        controller.connect_devices(args.shoe, args.peek)
    if args.wagers:
        controller.connect_wagers(args.wagers)
    shoe = Shoe(controller.profile.decks, rng) if wire is None else None
    bench = None if args.shoe and wire is None else BenchPanel(shoe, controller.facts, controller.devices, wire=wire)
    window = DealerWindow(bridge, bench)
    window.resize(width, height)
    lifetime.watch(loop, window)
    present(window, args.kiosk)
    controller.start()
    if args.autoplay:
        player = AutoPlayer(window, rng, args.autoplay, args.screenshots)

        def tick() -> None:
            try:
                acted = player.step()
            except Exception as error:  # an unattended run stops loudly rather than hang
                lifetime.stop(f"autoplay stopped: {type(error).__name__}: {error}", 1)
                return
            if not player.done:
                QTimer.singleShot(0 if acted else WAIT_MS, tick)
            elif args.exit:
                lifetime.stop(f"autoplay played {count(args.autoplay, 'round')} and --exit closed the table")

        QTimer.singleShot(0, tick)
    elif args.exit:
        QTimer.singleShot(0, lambda: lifetime.stop("--exit closed the table once it was open"))
    with set_aside():
        status = loop.exec()
    window.close()
    controller.stop()
    if wire is not None:
        wire.stop()
    app.processEvents()  # what the devices delivered last reaches the journal before it closes
    return status


def _camera(source: str, calibration: str | None, controller: TableController) -> CameraWatch:
    """The camera at `source`, or the synthetic camera filming the felt as the shoe reported it."""
    from calibration.calibration_file import load_calibration
    from devices.camera.check import reported_by_zone
    from devices.camera.reader import CardReader
    from devices.camera.source import CameraSource
    from hw_sims.table_camera import TableCamera

    if source == EMULATED_CAMERA:
        felt = TableCamera(lambda: reported_by_zone(controller.snapshot))
        return controller.watch_camera(felt, CardReader(felt.calibrate()))
    assert calibration is not None, "main refuses a camera without its calibration"
    locator = load_calibration(calibration)  # a bad file is refused before the camera is opened
    return controller.watch_camera(CameraSource(source), CardReader(locator))
