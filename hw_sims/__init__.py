"""Emulated devices that speak the real wire protocols, with fault injection, for bench and tests."""
