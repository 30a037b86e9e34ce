"""One module per CLI subcommand, each with ``register(subparsers)`` (see fillomino/cli.py)."""
