"""A private broker and store on this machine: the nats-server and PostgreSQL of `room` and the tests.

Both are Debian's own programs, started in a folder of ours on loopback, so a trial room or a
test never touches a system service. PostgreSQL refuses to run as root: when we are root, the
cluster runs as the unprivileged `nobody`, and its folder must be reachable by that user (the
folder is created world-traversable under a parent that is; `/tmp` and `/var/lib` are).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import psycopg

from pit.errors import PitCode, PitError

PG_BIN = Path("/usr/lib/postgresql/15/bin")
UNPRIVILEGED = "nobody"
EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
PORTS_FROM = 10000  # below it, the ports services are known by
PORT_TRIES = 200


class ServiceError(PitError):
    """A service that would not start or stop; the text says which and what it printed."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.SERVICE_FAILED, message, 1)


def free_port(count: int = 1) -> int:
    """A port nothing listens on, with the `count - 1` after it free too, chosen outside the kernel's
    ephemeral range: a port from that range can be taken at any moment as the source port of an
    outgoing connection, and a part that starts on it, or starts on it again after a crash, could
    then not listen (uvicorn exits 3, nats-server with "address already in use")."""
    low, high = _ephemeral_range()
    candidates: list[int] = [*range(PORTS_FROM, low - count + 1), *range(high + 1, 65536 - count + 1)]
    for port in random.sample(candidates, min(len(candidates), PORT_TRIES)):
        if not any(bind_error("127.0.0.1", port + offset) for offset in range(count)):
            return port
    raise ServiceError(f"no {count} free port(s) in a row outside the ephemeral range {low}-{high}")


def _ephemeral_range() -> tuple[int, int]:
    try:
        low, high = EPHEMERAL_RANGE.read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default


def bind_error(host: str, port: int) -> OSError | None:
    """Why a listener could not take `host:port` now, or None when it could."""
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError as error:
            return error
    return None


def _wait_for_port(port: int, timeout: float, process: subprocess.Popen[bytes], what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServiceError(f"{what} exited with {process.returncode}: {_tail(log)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise ServiceError(f"{what} did not listen on port {port} within {timeout:.0f} s: {_tail(log)}")


def _tail(log: Path) -> str:
    try:
        return " | ".join(log.read_text(errors="replace").strip().splitlines()[-5:])
    except OSError:
        return "(no log)"


class NatsServer:
    """`nats-server` with JetStream on 127.0.0.1; `config` is a full configuration text (the one
    `pit nats-config` prints), else an open server with JetStream in `folder/jetstream`."""

    def __init__(self, folder: Path, port: int | None = None, config: str | None = None) -> None:
        self.folder = Path(folder)
        self.port = port or free_port()
        self.config = config
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.folder / "nats-server.log"

    def start(self, timeout: float = 10.0) -> NatsServer:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.config is not None:
            conf = self.folder / "nats-server.conf"
            conf.write_text(self.config)
            command = ["nats-server", "-c", str(conf)]
        else:
            command = [
                "nats-server",
                "-js",
                "-sd",
                str(self.folder / "jetstream"),
                "-a",
                "127.0.0.1",
                "-p",
                str(self.port),
            ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command + ["-l", str(self.log)], stdout=log, stderr=log, start_new_session=True
            )
        _wait_for_port(self.port, timeout, self.process, "nats-server", self.log)
        return self

    def kill(self) -> None:
        """As a crash leaves it: no goodbye to the clients."""
        self._end(signal.SIGKILL)

    def stop(self) -> None:
        self._end(signal.SIGTERM)

    def _end(self, sig: signal.Signals) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def multi_host_dsn(clusters: list[PostgresCluster], database: str = "pit") -> str:
    """libpq's connection string naming every server, for the one that takes writes (PIT.md §8)."""
    hosts = ",".join(f"127.0.0.1:{cluster.port}" for cluster in clusters)
    return f"postgresql://pit@{hosts}/{database}?target_session_attrs=read-write"


class PostgresCluster:
    """A PostgreSQL cluster of our own in `folder`, on 127.0.0.1:`port`, with a database `pit`."""

    def __init__(self, folder: Path, port: int | None = None, database: str = "pit") -> None:
        self.folder = Path(folder)
        self.port = port or free_port()
        self.database = database
        self.user = UNPRIVILEGED if os.geteuid() == 0 else None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "postgres.log"

    @property
    def dsn(self) -> str:
        return f"postgresql://pit@127.0.0.1:{self.port}/{self.database}"

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            list(command), capture_output=True, text=True, user=self.user, cwd=self.folder, timeout=120
        )
        if done.returncode != 0:
            raise ServiceError(
                f"{Path(command[0]).name} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}"
            )
        return done

    def _folder(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            self.folder.chmod(0o755)
            shutil.chown(self.folder, self.user)

    def init(self) -> PostgresCluster:
        """Create the cluster and its database, unless the folder already holds one."""
        self._folder()
        if not (self.data / "PG_VERSION").exists():
            self._run(
                str(PG_BIN / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "pit",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-instructions",
            )
            self.start()
            self._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "pit", self.database)
        return self

    @property
    def slot(self) -> str:
        """The name of this cluster's replication slot on the primary it follows: its folder's name."""
        return re.sub(r"[^a-z0-9_]", "_", self.folder.name.lower())

    def follow(self, primary: PostgresCluster) -> PostgresCluster:
        """Make this cluster a streaming-replication standby of `primary` (`pg_basebackup -R -C -S`, which
        writes the standby's connection to the primary and gives it a replication slot there, so the
        primary knows its standby even while it is disconnected), unless the folder already holds a
        cluster. A slot of that name left by an earlier standby of this folder is dropped first."""
        self._folder()
        if not (self.data / "PG_VERSION").exists():
            with psycopg.connect(primary.dsn, autocommit=True) as conn:
                conn.execute(
                    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                    " WHERE slot_name = %s AND NOT active",
                    (self.slot,),
                )
            self._run(
                str(PG_BIN / "pg_basebackup"),
                "-h",
                "127.0.0.1",
                "-p",
                str(primary.port),
                "-U",
                "pit",
                "-D",
                str(self.data),
                "-R",
                "-C",
                "-S",
                self.slot,
                "-X",
                "stream",
                "--checkpoint=fast",
            )
        return self

    def forget(self) -> None:
        """Remove the cluster's data (a primary that was failed over, to be made a standby again)."""
        shutil.rmtree(self.data, ignore_errors=True)

    def promote(self) -> None:
        """A standby becomes a primary that takes writes (`pg_ctl promote`)."""
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-w", "promote")

    @property
    def is_standby(self) -> bool:
        return (self.data / "standby.signal").exists()

    def start(self, timeout: float = 30.0) -> PostgresCluster:
        if self.running():
            return self
        self._run(
            str(PG_BIN / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-w",
            "-t",
            str(int(timeout)),
            "-o",
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='{self.folder}'"
            " -c fsync=on -c wal_keep_size=256MB",
            "start",
        )
        return self

    @property
    def pid(self) -> int | None:
        """The postmaster's process id while it runs."""
        try:
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            os.kill(pid, 0)
        except (OSError, ValueError, IndexError):
            return None
        return pid

    def running(self) -> bool:
        done = subprocess.run(
            [str(PG_BIN / "pg_ctl"), "-D", str(self.data), "status"],
            capture_output=True,
            user=self.user,
            cwd=self.folder,
        )
        return done.returncode == 0

    def stop(self, mode: str = "fast") -> None:
        if self.running():
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def kill(self) -> None:
        """The postmaster killed outright, as a crash leaves it; the next start recovers from WAL."""
        pid_file = self.data / "postmaster.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().split()[0])
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self.running():
                time.sleep(0.05)
