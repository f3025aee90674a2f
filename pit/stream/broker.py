"""The broker's side of the card room: the stream, identities, and what each identity may do.

A table's NKEY seed file is its `--pit-creds`; the broker knows only the public key. A table may
publish only its own records and status, ask the stream for the last record of its own journals
(a direct get) and which records of them it holds (a consumer filtered on its own subjects), hear
the replies on its own inbox and the pit's resend requests on its own subject, so one table's
credentials can never write, or read, another table's subjects (PIT.md §6).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

import nacl.signing
import nkeys
from nats.aio.client import Client
from nats.js.api import (
    AckPolicy,
    ConsumerConfig,
    DeliverPolicy,
    DiscardPolicy,
    ExternalStream,
    RetentionPolicy,
    StorageType,
    StreamConfig,
    StreamSource,
)
from nats.js.client import JetStreamContext
from nats.js.errors import APIError, NotFoundError

from pit.errors import BadValue
from pit.stream.wire import (
    STREAM,
    STREAM_SUBJECTS,
    RecordMessage,
    check_table_id,
    parse_record_message,
    records_subject,
    resend_subject,
    seq_of_msg_id,
)

__all__ = [
    "ClusterNode",
    "HeadOffice",
    "Identity",
    "LeafOfHeadOffice",
    "ensure_stream",
    "held_seqs",
    "inbox_prefix",
    "last_shipped",
    "leaf_creds_file",
    "nats_config",
    "read_creds",
    "read_leaf_creds",
    "room_of_source",
    "room_reply_prefix",
    "room_stream_info",
    "seq_of_source",
]

DUPLICATE_WINDOW_S = 24 * 3600.0  # a resend within a day is dropped by the broker on its Nats-Msg-Id
MAX_REPLICAS = 3
CONSUMER_LAPSE_S = 30.0  # a table's consumer reading what the stream holds of its journal is gone this long after
# JetStream's answers to replicas it cannot place: no suitable peers, insufficient resources, not clustered
PLACEMENT_REFUSED = (10005, 10023, 10074)
ROOM_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")  # also a JetStream domain and a subject token
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
ROOM_SUBJECTS = ["da.>"]  # the records, status and resend requests of a room's tables: never over a leaf link


def stream_config(replicas: int = 1, rooms: Sequence[str] = ()) -> StreamConfig:
    """The records stream; a head office's (`rooms`) has no subjects of its own and sources each room's
    stream through the JetStream domain of the room's leaf connection, named by the room."""
    sources = [
        StreamSource(name=STREAM, external=ExternalStream(api=f"$JS.{room}.API", deliver=deliver_prefix(room)))
        for room in rooms
    ]
    return StreamConfig(
        name=STREAM,
        subjects=[] if rooms else [STREAM_SUBJECTS],
        sources=sources or None,
        storage=StorageType.FILE,
        retention=RetentionPolicy.LIMITS,
        discard=DiscardPolicy.OLD,
        allow_direct=True,
        duplicate_window=DUPLICATE_WINDOW_S,
        num_replicas=replicas,
    )


async def ensure_stream(js: JetStreamContext, rooms: Sequence[str] = ()) -> None:
    """Create the records stream, or bring an existing one to our configuration, replicated on as many
    of the cluster's JetStream servers as there are, three at most: the broker says how many it can
    place (one when it is not clustered)."""
    try:
        info = await js.stream_info(STREAM)
    except NotFoundError:
        info = None
    exists = info is not None
    # a server that is not clustered takes any number on an update, and keeps one copy whatever it says
    most = 1 if info is not None and (info.cluster is None or not info.cluster.name) else MAX_REPLICAS
    for replicas in range(most, 0, -1):
        config = stream_config(replicas, rooms)
        try:
            await (js.update_stream(config) if exists else js.add_stream(config))
            return
        except APIError as error:
            if error.err_code not in PLACEMENT_REFUSED or replicas == 1:
                raise


def inbox_prefix(table_id: str) -> str:
    """A table hears its replies only here, so no table can read another's."""
    return f"_INBOX_{check_table_id(table_id)}"


def table_permissions(table_id: str) -> dict[str, dict[str, list[str]]]:
    check_table_id(table_id)
    return {
        "publish": {
            "allow": [
                f"da.records.{table_id}.>",
                f"da.status.{table_id}",
                f"$JS.API.DIRECT.GET.{STREAM}.da.records.{table_id}.>",
                f"$JS.API.CONSUMER.CREATE.{STREAM}.*.da.records.{table_id}.>",
            ]
        },
        "subscribe": {"allow": [f"{inbox_prefix(table_id)}.>", resend_subject(table_id)]},
    }


@dataclass(frozen=True, slots=True)
class Identity:
    """An NKEY user: the seed is the secret (the creds file), the public key goes to the broker."""

    seed: str
    public_key: str

    @classmethod
    def new(cls) -> Identity:
        raw = bytes(nacl.signing.SigningKey.generate())
        seed = nkeys.encode_seed(raw, nkeys.PREFIX_BYTE_USER)
        return cls(seed.decode(), public_key(seed.decode()))

    def creds_file(self) -> str:
        """The text of the `--pit-creds` file: the seed alone on its line, as nats clients read it."""
        return self.seed + "\n"


def public_key(seed: str) -> str:
    return str(nkeys.from_seed(bytearray(seed.strip().encode())).public_key.decode())


def read_creds(text: str) -> str:
    """The seed of a creds file written by `Identity.creds_file` (lines starting with # are allowed
    around it); ValueError when there is none."""
    seeds = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if len(seeds) != 1 or not seeds[0].startswith("SU"):
        raise ValueError("not a dealer-assist pit credentials file: expected one NKEY user seed (SU...)")
    public_key(seeds[0])  # raises on a damaged seed
    return seeds[0]


def user_entry(identity_public_key: str, permissions: dict[str, Any] | None) -> str:
    """One `authorization.users` entry of nats-server's configuration."""
    entry: dict[str, Any] = {"nkey": identity_public_key}
    if permissions is not None:
        entry["permissions"] = permissions
    return json.dumps(entry)


async def last_shipped(js: JetStreamContext, table_id: str, journal: str) -> RecordMessage | None:
    """The last record of `journal` the stream holds, asked of the broker (never remembered)."""
    try:
        raw = await js.get_last_msg(STREAM, f"da.records.{check_table_id(table_id)}.{journal}", direct=True)
    except NotFoundError:
        return None
    return parse_record_message(raw.data or b"")


async def held_seqs(client: Client, table_id: str, journal: str, timeout: float = 5.0) -> list[int]:
    """Every seq of `journal` the stream holds, in the stream's order: what the stream has, gaps and
    all, not just its last message. Read from the Nats-Msg-Id headers an ephemeral consumer filtered
    on the journal's subject delivers (headers only, no acknowledgements; it lapses by itself); the
    consumer's own count says how many to wait for."""
    subject = records_subject(table_id, journal)
    deliver = client.new_inbox()
    subscription = await client.subscribe(deliver)
    try:
        config = ConsumerConfig(
            name=f"{table_id}-{deliver.rsplit('.', 1)[-1]}",
            filter_subject=subject,
            deliver_subject=deliver,
            deliver_policy=DeliverPolicy.ALL,
            ack_policy=AckPolicy.NONE,
            headers_only=True,
            inactive_threshold=CONSUMER_LAPSE_S,
        )
        info = await client.jetstream(timeout=timeout).add_consumer(STREAM, config)
        pending = (info.num_pending or 0) + ((info.delivered.consumer_seq or 0) if info.delivered else 0)
        seqs: list[int] = []
        while pending > 0:
            message = await subscription.next_msg(timeout)
            seqs.append(seq_of_msg_id((message.headers or {}).get("Nats-Msg-Id", "")))
            pending = message.metadata.num_pending
        return seqs
    finally:
        await subscription.unsubscribe()


@dataclass(frozen=True, slots=True)
class ClusterNode:
    """Node `node` (from 1) of the NATS cluster `name`: `routes` are every node's cluster URL in node
    order, its own included; it listens for routes on the port of its own."""

    name: str
    node: int
    routes: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_name("--cluster", self.name)
        if not 1 <= self.node <= len(self.routes):
            raise BadValue(
                f"--node {self.node}: --routes names {len(self.routes)} nodes, so use 1 to {len(self.routes)}"
            )
        for url in self.routes:
            _port_of("--routes", url)

    @property
    def server_name(self) -> str:
        return f"{self.name}-{self.node}"


@dataclass(frozen=True, slots=True)
class LeafOfHeadOffice:
    """A room's node joined to its head office as a NATS leaf node; the room's JetStream domain is its
    name, through which the head office's stream sources the room's. The link carries no `da.` subject
    either way: a room's records and status stay in the room, whatever the head office sends."""

    room: str
    remotes: tuple[str, ...]  # the head office's leaf URLs, nats-leaf://HOST:PORT (no password)
    password: str  # the room's leaf password, from the file `nats-config --head-office` wrote

    def __post_init__(self) -> None:
        _check_name("--room", self.room)
        for url in self.remotes:
            _port_of("--leaf-remote", url)
            if urlsplit(url).username or urlsplit(url).password:
                raise BadValue(f"--leaf-remote {url!r}: give the room's password in --leaf-creds FILE, not the URL")

    def urls(self) -> list[str]:
        auth = f"{quote(self.room, safe='')}:{quote(self.password, safe='')}@"
        return [url.replace("://", f"://{auth}", 1) for url in self.remotes]


@dataclass(frozen=True, slots=True)
class HeadOffice:
    """A head office's node: it takes each room's leaf connection on `leaf_listen` only, and tells
    the rooms no other address; each room's leaf user may only answer the sourcing of its stream and
    the head office's question of how far that stream goes."""

    leaf_listen: str  # HOST:PORT
    rooms: dict[str, str]  # room -> its leaf connection's password

    def __post_init__(self) -> None:
        if not self.rooms:
            raise BadValue("--rooms: name the rooms of the head office, NAME,NAME,...")
        for room in self.rooms:
            _check_name("--rooms", room)
        _port_of("--leaf-listen", f"nats-leaf://{self.leaf_listen}")


def deliver_prefix(room: str) -> str:
    """Where a room's stream delivers what the head office sources: a room's own subjects, so no room
    can deliver into another's source."""
    return f"ho.{room}"


def room_leaf_permissions(room: str) -> dict[str, Any]:
    """A room's leaf user at the head office (publish: what the room may send in; subscribe: what the
    head office sends it). Only the sourcing of the room's stream: the room's JetStream API under its
    domain and its answers, the consumer's deliveries under the room's prefix and its flow control; no
    `da.` subject."""
    return {
        "publish": {"allow": [f"{deliver_prefix(room)}.>", "$JSC.R.>"]},
        "subscribe": {"allow": [f"$JS.{room}.API.>", "$JS.FC.>"]},
    }


def source_name(room: str) -> str:
    """How the head office's stream names what it sourced from `room` (the first word of a message's
    `Nats-Stream-Source` header): the stream's name and a hash of the room's API prefix, as nats-server
    makes it (sha256, each of the first 8 bytes a base-62 digit)."""
    digest = hashlib.sha256(f"$JS.{room}.API".encode()).digest()
    return f"{STREAM}:{''.join(BASE62[byte % 62] for byte in digest[:8])}"


def room_of_source(header: str, rooms: Sequence[str]) -> str | None:
    """The room a sourced message came from, by its `Nats-Stream-Source` header; None when none of `rooms`."""
    first = header.split(" ", 1)[0]
    return next((room for room in rooms if source_name(room) == first), None)


def seq_of_source(header: str) -> int:
    """The message's seq in the room's stream, the second word of its `Nats-Stream-Source` header (0 if none)."""
    words = header.split(" ")
    return int(words[1]) if len(words) > 1 and words[1].isdigit() else 0


def room_stream_info(room: str) -> str:
    """Where the head office asks a room's stream how far it goes, through the room's JetStream domain."""
    return f"$JS.{room}.API.STREAM.INFO.{STREAM}"


def room_reply_prefix(room: str) -> str:
    """Where the room's answers to the head office's own questions come: under the room's own prefix,
    the only subjects its leaf user may publish."""
    return f"{deliver_prefix(room)}.ask"


def leaf_creds_file(room: str, password: str) -> str:
    """The text of a room's `--leaf-creds` file."""
    return json.dumps({"room": room, "leaf_password": password}) + "\n"


def read_leaf_creds(text: str) -> tuple[str, str]:
    """(room, password) of a `--leaf-creds` file; ValueError when it is not one."""
    try:
        creds = json.loads(text)
        return str(creds["room"]), str(creds["leaf_password"])
    except (ValueError, KeyError, TypeError):
        raise ValueError('not a head office leaf credentials file: expected {"room", "leaf_password"}') from None


def _check_name(option: str, name: str) -> None:
    if not ROOM_NAME.fullmatch(name):
        raise BadValue(f"{option} {name!r}: use 1-32 characters A-Z a-z 0-9 _ -")


def _port_of(option: str, url: str) -> int:
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if not parts.hostname or port is None:
        raise BadValue(f"{option} {url!r}: a URL is SCHEME://HOST:PORT")
    return port


def nats_config(
    port: int,
    store_dir: str,
    pit_public_key: str,
    tables: dict[str, str],
    host: str = "127.0.0.1",
    cluster: ClusterNode | None = None,
    leaf: LeafOfHeadOffice | None = None,
    head_office: HeadOffice | None = None,
) -> str:
    """A complete nats-server configuration: listener, JetStream and its store, the pit's identity
    (everything) and each table's (`tables`: table id -> public key) with its permissions; for a
    node of a cluster its routes, for a room's node its leaf connection to the head office (and its
    JetStream domain), for a head office's node the rooms' leaf connections."""
    users = [user_entry(pit_public_key, None)]
    users += [user_entry(key, table_permissions(table_id)) for table_id, key in sorted(tables.items())]
    if head_office is not None:  # a room's leaf link is checked against these users, with their permissions
        users += [
            json.dumps(
                {
                    "user": room,
                    "password": password,
                    "permissions": room_leaf_permissions(room),
                    "allowed_connection_types": ["LEAFNODE"],
                }
            )
            for room, password in sorted(head_office.rooms.items())
        ]
    body = ",\n    ".join(users)
    lines = ["# nats-server configuration for the dealer-assist card room"]
    if cluster is not None:
        lines.append(f"server_name: {json.dumps(cluster.server_name)}")
    lines.append(f"listen: {json.dumps(f'{host}:{port}')}")
    domain = f", domain: {json.dumps(leaf.room)}" if leaf is not None else ""
    lines.append(f"jetstream {{ store_dir: {json.dumps(store_dir)}{domain} }}")
    if cluster is not None:
        listen = f"{host}:{_port_of('--routes', cluster.routes[cluster.node - 1])}"
        lines.append(
            f"cluster {{\n  name: {json.dumps(cluster.name)}\n  listen: {json.dumps(listen)}\n"
            f"  routes: {json.dumps(list(cluster.routes))}\n}}"
        )
    if leaf is not None:
        lines.append(
            f"leafnodes {{\n  remotes: [ {{ urls: {json.dumps(leaf.urls())},\n"
            f"    deny_exports: {json.dumps(ROOM_SUBJECTS)}, deny_imports: {json.dumps(ROOM_SUBJECTS)} }} ]\n}}"
        )
    if head_office is not None:
        listen = json.dumps(head_office.leaf_listen)
        lines.append(f"leafnodes {{\n  listen: {listen}\n  advertise: {listen}\n}}")
    lines.append(f"authorization {{\n  users: [\n    {body}\n  ]\n}}")
    return "\n".join(lines) + "\n"
