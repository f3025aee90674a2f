"""The domain's subcommands of `dealer-assist`; each module has `main(argv) -> int`."""
