"""`inproc://NAME`: pyserial's socket port, connected to an in-process emulator by a socket pair.

The adapter under test opens it through `serial_for_url` like any other URL, so the in-process
link runs exactly the code a device path or `socket://` runs.
"""

from __future__ import annotations

import socket

from serial.serialutil import SerialException
from serial.urlhandler import protocol_socket

from hw_sims.endpoints import InProcessEndpoint


class Serial(protocol_socket.Serial):
    is_open: bool
    _socket: socket.socket | None

    def open(self) -> None:
        if self.is_open:
            raise SerialException("Port is already open.")
        name = self.portstr.split("://", 1)[1]
        endpoint = InProcessEndpoint.registry.get(name)
        if endpoint is None:
            raise SerialException(f"Could not open port {self.portstr}: no emulator named {name!r}")
        self.logger = None
        connection = endpoint.connect()
        connection.setblocking(False)
        self._socket = connection
        self.is_open = True
        self.reset_input_buffer()

    def close(self) -> None:
        """Close the socket pair at once: pyserial's socket port pauses 0.3 s for a TCP server, and no server is
        here."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        self.is_open = False
